/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - dihedral_style harmonic/cuda: LAMMPS dihedral_style harmonic with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DIHEDRAL_HARMONIC_CUDA_H
#define MESOGPU_DIHEDRAL_HARMONIC_CUDA_H

#include "device_style_util.h"
#include "MOLECULE/dihedral_harmonic.h"

namespace LAMMPS_NS {

class DihedralHarmonicCuda : public DihedralHarmonic, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(dihedral)
  DihedralHarmonicCuda(class LAMMPS *lmp) : DihedralHarmonic(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
