/* mesogpu: device precision, chosen at build time (MESOGPU_PRECISION):
 *   single: float arithmetic, float accumulation and state
 *   mixed:  float pair/bond arithmetic, double accumulation and double x, v, f (default)
 *   double: double everywhere
 * `real` is the type of per-pair arithmetic, `acc` of sums and the integrated state. */
#ifndef MESOGPU_CUDA_PRECISION_H
#define MESOGPU_CUDA_PRECISION_H

namespace mesogpu {
namespace cuda {

#if defined(MESOGPU_PREC_SINGLE)
  using real = float;
  using acc = float;
#elif defined(MESOGPU_PREC_DOUBLE)
  using real = double;
  using acc = double;
#else
  using real = float;
  using acc = double;
#endif

}    // namespace cuda
}    // namespace mesogpu

#endif
