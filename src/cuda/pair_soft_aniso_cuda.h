/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style soft/aniso/cuda: pair_style soft/aniso with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_SOFT_ANISO_CUDA_H
#define MESOGPU_PAIR_SOFT_ANISO_CUDA_H

#include "device_style_util.h"
#include "pair_soft_aniso.h"

namespace LAMMPS_NS {

// pair soft/aniso: forces and torques from the packed device orientations
class PairSoftAnisoCuda : public PairSoftAniso, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairSoftAnisoCuda(class LAMMPS *lmp) : PairSoftAniso(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
