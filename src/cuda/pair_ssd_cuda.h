/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style ssd/cuda: pair_style ssd with a device part for
   run_style verlet/cuda (src/cuda/device_styles.h): forces and torques from the
   device's rigid-body quaternions. Docs: doc/pair_ssd.md (section GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_SSD_CUDA_H
#define MESOGPU_PAIR_SSD_CUDA_H

#include "device_style_util.h"
#include "pair_ssd.h"

namespace LAMMPS_NS {

class PairSSDCuda : public PairSSD, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairSSDCuda(class LAMMPS *lmp) : PairSSD(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
