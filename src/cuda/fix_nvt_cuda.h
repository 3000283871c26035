/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix nvt/cuda: LAMMPS fix nvt with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVT_CUDA_H
#define MESOGPU_FIX_NVT_CUDA_H

#include "device_styles.h"
#include "fix_nvt.h"

namespace LAMMPS_NS {

// fix nvt: LAMMPS's own Nose-Hoover chain arithmetic (FixNH) on the host, which is
// scalar work; the velocity scaling and the half-step updates run on the device, and
// the temperature comes from a device reduction (one 8-byte read-back per step) over the
// group of its temperature compute (compute temp; fix_modify temp may name another)
class FixNVTCuda : public FixNVT, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixNVTCuda(class LAMMPS *lmp, int narg, char **arg) : FixNVT(lmp, narg, arg) {}
  void init() override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;

 protected:
  void nh_v_temp() override;
  mesogpu::cuda::Engine *active = nullptr;    // set only inside the device step
};

}    // namespace LAMMPS_NS

#endif
