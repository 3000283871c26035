/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style zero/cuda: LAMMPS pair_style zero with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_ZERO_CUDA_H
#define MESOGPU_PAIR_ZERO_CUDA_H

#include "device_style_util.h"
#include "pair_zero.h"

namespace LAMMPS_NS {

// pair_style zero: no pair forces on the device (and no neighbour list there); the
// cutoff still sets the host's ghost distance (bonds across boundaries)
class PairZeroCuda : public PairZero, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  PairZeroCuda(class LAMMPS *lmp) : PairZero(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_per_atom(mesogpu::cuda::Engine &engine, int eflag, int vflag) override;
};

}    // namespace LAMMPS_NS

#endif
