/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style lj/cut/cuda: LAMMPS pair_style lj/cut with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_LJ_CUT_CUDA_H
#define MESOGPU_PAIR_LJ_CUT_CUDA_H

#include "device_style_util.h"
#include "pair_lj_cut.h"

namespace LAMMPS_NS {

class PairLJCutCuda : public PairLJCut, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairLJCutCuda(class LAMMPS *lmp) : PairLJCut(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
