/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - bond_style fene/cuda: LAMMPS bond_style fene with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_BOND_FENE_CUDA_H
#define MESOGPU_BOND_FENE_CUDA_H

#include "device_style_util.h"
#include "MOLECULE/bond_fene.h"

namespace LAMMPS_NS {

class BondFENECuda : public BondFENE, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(bond)
  BondFENECuda(class LAMMPS *lmp) : BondFENE(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
