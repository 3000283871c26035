/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - dihedral_style charmm/cuda: LAMMPS dihedral_style charmm with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DIHEDRAL_CHARMM_CUDA_H
#define MESOGPU_DIHEDRAL_CHARMM_CUDA_H

#include "device_style_util.h"
#include "MOLECULE/dihedral_charmm.h"

namespace LAMMPS_NS {

// the torsion of dihedral charmm; its 1-4 Lennard-Jones part (weight > 0) has no device
// part yet, so all weights must be 0 (Xu et al.'s polyethylene uses the cos form alone)
class DihedralCharmmCuda : public DihedralCharmm, public DeviceForce {
 public:
  // the device term is dihedral harmonic/cuda's (the torsion alone; 1-4 weights must be 0)
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(dihedral)
  DihedralCharmmCuda(class LAMMPS *lmp) : DihedralCharmm(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
