/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix momentum/cuda: LAMMPS fix momentum with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_MOMENTUM_CUDA_H
#define MESOGPU_FIX_MOMENTUM_CUDA_H

#include "device_styles.h"
#include "fix_momentum.h"

namespace LAMMPS_NS {

class FixMomentumCuda : public FixMomentum, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixMomentumCuda(class LAMMPS *lmp, int narg, char **arg) : FixMomentum(lmp, narg, arg) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_end_of_step(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
