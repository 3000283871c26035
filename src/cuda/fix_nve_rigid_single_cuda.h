/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix nve/rigid/single/cuda: fix nve/rigid/single with a device part for
   run_style verlet/cuda (src/cuda/device_styles.h): the same step (velocity Verlet of x,
   half kicks of the lab angmom, free rotation by NO_SQUISH or DLM, linear bodies exact)
   on the device's quaternions and angmom (Engine::rigid_step). 'dipole yes' sets mu from
   the quaternions whenever the host arrays are brought up to date (no device style reads
   mu); the langevin option is refused in resident runs (its noise is one serial RanMars
   stream in atom order). Outside verlet/cuda the fix is the CPU one.
   Docs: doc/fix_nve_rigid_single.md (section GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVE_RIGID_SINGLE_CUDA_H
#define MESOGPU_FIX_NVE_RIGID_SINGLE_CUDA_H

#include "device_styles.h"
#include "fix_nve_rigid_single.h"

namespace LAMMPS_NS {

class FixNVERigidSingleCuda : public FixNVERigidSingle, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNVERigidSingleCuda(class LAMMPS *lmp, int narg, char **arg) : FixNVERigidSingle(lmp, narg, arg)
  {
  }
  void init() override;
  double compute_scalar() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
};

class Compute;

// what fix nve/rigid/single/cuda, nvt/rigid/single/cuda and npt/rigid/single/cuda share
namespace rigid_single_cuda {
  // checks of a resident run at init (errors name the fix): no dynamic group; 'dipole yes'
  // only where the device keeps no dipole orientations of its own (no atom attribute omega)
  void check_resident(LAMMPS *lmp, Fix *fix, const RigidSingleBodies &bodies);
  // the bodies' per-type inertia, linear axes and scheme to the engine
  void setup_engine(LAMMPS *lmp, Fix *fix, const RigidSingleBodies &bodies,
                    mesogpu::cuda::Engine &engine);
  // 'dipole yes': mu of the group's bodies from the quaternions just downloaded
  void sync_dipoles(LAMMPS *lmp, Fix *fix, RigidSingleBodies &bodies);
  // the rotational kinetic energy sum_k L_k^2 / (2 I_k) of the group (times mvv2e) from the
  // device while it is ahead of the host; false when the host arrays are current
  bool device_rotational_energy(LAMMPS *lmp, Fix *fix, double &erot);
  // fix nvt|npt|nph/rigid/single/cuda (defined in fix_nvt_rigid_single_cuda.cpp): the
  // thermostat's temperature compute must be a temp/rigid/single with the fix's inertia
  // (the device sums translation + rotation with it); an error naming the fix otherwise
  void check_thermostat_temperature(LAMMPS *lmp, Fix *fix, const RigidSingleBodies &bodies,
                                    Compute *temperature);
  // that temperature from a device sum (m v^2 + L_k^2 / I_k over the compute's group, the
  // compute's dof), in place of temperature->compute_scalar() during a device step
  double device_thermostat_temperature(LAMMPS *lmp, mesogpu::cuda::Engine &engine,
                                       Compute *temperature);
}    // namespace rigid_single_cuda

}    // namespace LAMMPS_NS

#endif
