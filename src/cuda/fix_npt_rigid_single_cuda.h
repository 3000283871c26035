/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix npt/rigid/single/cuda and nph/rigid/single/cuda: fix npt/rigid/single
   (FixNPTRigidSingle) with a device part for run_style verlet/cuda
   (src/cuda/device_styles.h). The CPU fix's step (FixNH's order with the translational
   pressure and MTK terms) runs unchanged on the host, which is scalar work: the chains,
   omega_dot, the target pressure and the new box. Its loops over atoms run on the device:
     nh_v_temp   v and angmom *= factor_eta            (Engine::rigid_scale)
     nh_v_press  v_d *= factor_d twice, L untouched    (Engine::nh_v_press)
     nve_v       v and angmom half kicks                (Engine::rigid_step, kick)
     nve_x       x drift, free rotation                 (Engine::rigid_step, drift)
     remap       box arithmetic of FixNH on the host, the atoms dilated on the device
                 (Engine::change_box, remap_atoms); q and L do not scale with the box
   The three temperatures of the CPU fix come from device sums: the thermostat's
   (translation + rotation with the fix's inertia, Engine::rigid_kinetic_sums, the dof of
   the fix's compute temp/rigid/single), and the pressure's translational one through the
   fix's compute <ID>_temp_trans, made temp/cuda here (scalar and kinetic tensor); the
   virial is the one the run style publishes on the steps the pressure asks for.
   Outside verlet/cuda the fix is the CPU one. Docs: doc/fix_npt_rigid_single.md (GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NPT_RIGID_SINGLE_CUDA_H
#define MESOGPU_FIX_NPT_RIGID_SINGLE_CUDA_H

#include "device_styles.h"
#include "fix_npt_rigid_single.h"

namespace LAMMPS_NS {

class FixNPTRigidSingleCuda : public FixNPTRigidSingle, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNPTRigidSingleCuda(class LAMMPS *lmp, int narg, char **arg);
  void init() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  bool device_changes_box() const override { return true; }

 protected:
  void nve_v() override;
  void nve_x() override;
  void nh_v_temp() override;
  void nh_v_press() override;
  void remap() override;
  mesogpu::cuda::Engine *active = nullptr;    // set only inside the device step
};

}    // namespace LAMMPS_NS

#endif
