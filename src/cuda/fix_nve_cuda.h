/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix nve/cuda: LAMMPS fix nve with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVE_CUDA_H
#define MESOGPU_FIX_NVE_CUDA_H

#include "device_styles.h"
#include "fix_nve.h"

namespace LAMMPS_NS {

class FixNVECuda : public FixNVE, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNVECuda(class LAMMPS *lmp, int narg, char **arg) : FixNVE(lmp, narg, arg) {}
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  // a post-force fix's force (fix langevin/cuda) added in the same kernel
  bool device_takes_final_force() const override { return true; }
  bool device_final_integrate_with(mesogpu::cuda::Engine &engine,
                                   const mesogpu::cuda::FinalForce &ff) override;
};

}    // namespace LAMMPS_NS

#endif
