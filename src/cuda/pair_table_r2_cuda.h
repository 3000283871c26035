/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style table/r2/cuda: pair_style table/r2 with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_TABLE_R2_CUDA_H
#define MESOGPU_PAIR_TABLE_R2_CUDA_H

#include "device_style_util.h"
#include "pair_table_r2.h"

namespace LAMMPS_NS {

class PairTableR2Cuda : public PairTableR2, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairTableR2Cuda(class LAMMPS *lmp) : PairTableR2(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
