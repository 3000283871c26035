/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - angle_style harmonic/cuda: LAMMPS angle_style harmonic with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_ANGLE_HARMONIC_CUDA_H
#define MESOGPU_ANGLE_HARMONIC_CUDA_H

#include "device_style_util.h"
#include "MOLECULE/angle_harmonic.h"

namespace LAMMPS_NS {

class AngleHarmonicCuda : public AngleHarmonic, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(angle)
  AngleHarmonicCuda(class LAMMPS *lmp) : AngleHarmonic(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
