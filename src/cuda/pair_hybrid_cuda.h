/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style hybrid/cuda and hybrid/overlay/cuda: LAMMPS's
   pair_style hybrid and hybrid/overlay with a device part for run_style
   verlet/cuda (src/cuda/device_styles.h). Each sub-style must have a device
   part (-sf cuda picks them: 'pair_style hybrid/overlay table/r2 ... gauss ...'
   becomes hybrid/overlay/cuda over table/r2/cuda and gauss/cuda); each adds
   its own force term to the engine, acting on the type pairs the hybrid
   style gives it. Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_HYBRID_CUDA_H
#define MESOGPU_PAIR_HYBRID_CUDA_H

#include "device_style_util.h"
#include "pair_hybrid_overlay.h"

#include <vector>

namespace LAMMPS_NS {

// the device part shared by both: the sub-styles' terms, each behind its type-pair filter
namespace device_util {
  void hybrid_device_setup(LAMMPS *lmp, mesogpu::cuda::Engine &engine, const char *style,
                           int nstyles, Pair **styles, char **keywords, int ***map, int **nmap,
                           double **special_lj, double **special_coul);
  // the sub-styles of a /cuda hybrid pair style (empty for any other style)
  std::vector<Pair *> hybrid_sub_styles(Pair *pair);
}

class PairHybridCuda : public PairHybrid, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // when every sub-style does
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairHybridCuda(class LAMMPS *lmp) : PairHybrid(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
  std::vector<Pair *> sub_styles() const { return {styles, styles + nstyles}; }
};

class PairHybridOverlayCuda : public PairHybridOverlay, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // when every sub-style does
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairHybridOverlayCuda(class LAMMPS *lmp) : PairHybridOverlay(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
  std::vector<Pair *> sub_styles() const { return {styles, styles + nstyles}; }
};

}    // namespace LAMMPS_NS

#endif
