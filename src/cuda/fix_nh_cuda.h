/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix npt/cuda and fix nph/cuda: LAMMPS fix npt and fix nph
   (Nose-Hoover barostat, FixNH) with a device part for run_style verlet/cuda
   (src/cuda/device_styles.h). Docs: doc/fix_nh_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NH_CUDA_H
#define MESOGPU_FIX_NH_CUDA_H

#include "device_styles.h"
#include "fix_nph.h"
#include "fix_npt.h"

namespace LAMMPS_NS {

// LAMMPS's own FixNH step runs on the host, which is scalar work: the thermostat and
// barostat chains, omega_dot, the target pressure and the new box (FixNH::remap's box
// arithmetic, Domain::set_global_box / set_local_box, so thermo's Volume and Press are
// those of the device state). Its loops over atoms run on the device: nh_v_temp, nh_v_press,
// nve_v, nve_x and the dilation of the atoms from the old box to the new one about the
// fixed point (Engine::remap_atoms), and the engine is told the new box (its cell grid and
// rebuild test follow it). Temperature, kinetic tensor and virial come from device
// reductions: the fix's temperature compute is temp/cuda, and the pressure compute reads
// the virials the run style publishes on every step the barostat asks for them.
// Resident runs support orthogonal boxes with iso, aniso, x/y/z and couple; tri, xy, xz,
// yz (triclinic boxes), update dipole and temperature computes other than temp/cuda are
// refused at init. Outside verlet/cuda the fix is LAMMPS's own.
template <class Base> class FixNHCuda : public Base, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNHCuda(class LAMMPS *lmp, int narg, char **arg);
  void init() override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  bool device_changes_box() const override { return this->pstat_flag != 0; }

 protected:
  void remap() override;
  void nve_x() override;
  void nve_v() override;
  void nh_v_press() override;
  void nh_v_temp() override;
  mesogpu::cuda::Engine *active = nullptr;    // set only inside the device step
};

class FixNPTCuda : public FixNHCuda<FixNPT> {
 public:
  using FixNHCuda<FixNPT>::FixNHCuda;
};

class FixNPHCuda : public FixNHCuda<FixNPH> {
 public:
  using FixNHCuda<FixNPH>::FixNHCuda;
};

extern template class FixNHCuda<FixNPT>;
extern template class FixNHCuda<FixNPH>;

}    // namespace LAMMPS_NS

#endif
