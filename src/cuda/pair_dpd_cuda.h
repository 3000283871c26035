/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style dpd/cuda: LAMMPS pair_style dpd with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_DPD_CUDA_H
#define MESOGPU_PAIR_DPD_CUDA_H

#include "device_style_util.h"
#include "DPD-BASIC/pair_dpd.h"

namespace LAMMPS_NS {

// pair dpd with a counter-based random number per pair and step (shared by the pair's
// two atoms): the noise differs from the CPU style's, its statistics do not
class PairDPDCuda : public PairDPD, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairDPDCuda(class LAMMPS *lmp) : PairDPD(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
