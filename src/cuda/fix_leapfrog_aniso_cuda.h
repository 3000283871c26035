/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix leapfrog/aniso/cuda: fix leapfrog/aniso with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_LEAPFROG_ANISO_CUDA_H
#define MESOGPU_FIX_LEAPFROG_ANISO_CUDA_H

#include "device_styles.h"
#include "fix_leapfrog_aniso.h"

namespace LAMMPS_NS {

// fix leapfrog/aniso: both halves of the step on the device; Berendsen from device sums
// (one 32-byte read-back per step); f_ID[1], f_ID[2] from device sums during a run
class FixLeapfrogAnisoCuda : public FixLeapfrogAniso, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixLeapfrogAnisoCuda(class LAMMPS *lmp, int narg, char **arg) : FixLeapfrogAniso(lmp, narg, arg)
  {
  }
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  double compute_vector(int) override;

 private:
  void device_temperatures(mesogpu::cuda::Engine &engine, double &t_tr, double &t_rot,
                           double &dof_tr, double &n_rot);
};

}    // namespace LAMMPS_NS

#endif
