/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - angle_style cosine/squared/cuda: LAMMPS angle_style cosine/squared with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_ANGLE_COSINE_SQUARED_CUDA_H
#define MESOGPU_ANGLE_COSINE_SQUARED_CUDA_H

#include "device_style_util.h"
#include "MOLECULE/angle_cosine_squared.h"

namespace LAMMPS_NS {

class AngleCosineSquaredCuda : public AngleCosineSquared, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(angle)
  AngleCosineSquaredCuda(class LAMMPS *lmp) : AngleCosineSquared(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
