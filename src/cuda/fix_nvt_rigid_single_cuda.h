/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix nvt/rigid/single/cuda: fix nvt/rigid/single with a device part for
   run_style verlet/cuda (src/cuda/device_styles.h). LAMMPS's own FixNH chain arithmetic
   runs on the host (scalar work); its loops over atoms run on the device: nh_v_temp
   (v and angmom scaled by factor_eta, Engine::rigid_scale), nve_v (v and angmom kicks)
   and nve_x (x drift, free rotation) through Engine::rigid_step, and the chain's
   temperature is a device sum (Engine::rigid_kinetic_sums: m v^2 + L_k^2 / I_k, one
   read-back a step) with the dof of the fix's compute temp/rigid/single. 'dipole yes' as
   fix nve/rigid/single/cuda (FixNH's 'update dipole' is LAMMPS's
   error for non-sphere styles).
   Outside verlet/cuda the fix is the CPU one. Docs: doc/fix_nvt_rigid_single.md (GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVT_RIGID_SINGLE_CUDA_H
#define MESOGPU_FIX_NVT_RIGID_SINGLE_CUDA_H

#include "device_styles.h"
#include "fix_nvt_rigid_single.h"

namespace LAMMPS_NS {

class FixNVTRigidSingleCuda : public FixNVTRigidSingle, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNVTRigidSingleCuda(class LAMMPS *lmp, int narg, char **arg) : FixNVTRigidSingle(lmp, narg, arg)
  {
  }
  void init() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;

 protected:
  void nve_v() override;
  void nve_x() override;
  void nh_v_temp() override;
  mesogpu::cuda::Engine *active = nullptr;    // set only inside the device step
};

}    // namespace LAMMPS_NS

#endif
