/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style gauss/cuda: LAMMPS pair_style gauss with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_GAUSS_CUDA_H
#define MESOGPU_PAIR_GAUSS_CUDA_H

#include "device_style_util.h"
#include "EXTRA-PAIR/pair_gauss.h"

namespace LAMMPS_NS {

class PairGaussCuda : public PairGauss, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairGaussCuda(class LAMMPS *lmp) : PairGauss(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
