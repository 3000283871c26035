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
// two atoms): the noise differs from the CPU style's, its statistics do not. The number
// is keyed by the pair's two atom IDs (ordered) and the step, never by device rows, so a
// pair that straddles two ranks draws the same number on both, and a run on N ranks has
// the noise of the run on one. Several ranks: ghosts' velocities are their owners'
// (comm_modify vel yes, which PairDPD::init_style requires as on the CPU; sent at each
// rebuild by borders() and every other step after the integrator's first half, as
// Verlet's forward_comm does).
class PairDPDCuda : public PairDPD, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairDPDCuda(class LAMMPS *lmp) : PairDPD(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
