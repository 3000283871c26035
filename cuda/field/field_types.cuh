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
      int n[3];        // nodes per edge
      acc lo[3];       // box lower corner
      acc inv_h[3];    // nodes per length
      int ncomp;
    };

    struct FieldParamsD {
      acc chi[MDSCF_MAX_COMP * MDSCF_MAX_COMP];
      acc kT, inv_kappa;
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
