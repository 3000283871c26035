/* mesogpu: the MD-SCF grid and parameter views the engine state holds (internal to
 * cuda/; kernels in field/mdscf_kernels.cuh). */
#ifndef MESOGPU_CUDA_FIELD_FIELD_TYPES_CUH
#define MESOGPU_CUDA_FIELD_FIELD_TYPES_CUH

#include "precision.h"

namespace mesogpu {
namespace cuda {
  namespace detail {

    constexpr int MDSCF_MAX_COMP = 8;    // components per field (limit of the per-thread arrays)

    struct FieldGridD {
      int n[3];        // nodes per edge of the whole periodic grid
      acc lo[3];       // box lower corner
      acc inv_h[3];    // nodes per length
      int ncomp;
      // the nodes the arrays hold: the whole grid (one GPU; indices wrap periodically), or
      // a rank's brick with its ghost layers (several ranks: Grid3d's nodes with ghosts,
      // which hold the periodic images; no wrap): nb nodes per edge from global node off,
      // the rank's own nodes own_lo..own_hi in array indices (the sums run over them)
      bool brick;
      int nb[3], off[3], own_lo[3], own_hi[3];
    };

    struct FieldParamsD {
      acc chi[MDSCF_MAX_COMP * MDSCF_MAX_COMP];
      acc kT, inv_kappa;
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
