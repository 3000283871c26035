/* mesogpu: deterministic block reductions (internal to cuda/). The scratch is per
 * translation unit (anonymous namespace): reductions run one after another on the
 * default stream. */
#ifndef MESOGPU_CUDA_CORE_REDUCE_CUH
#define MESOGPU_CUDA_CORE_REDUCE_CUH

#include "core/device_array.cuh"

namespace mesogpu {
namespace cuda {
  namespace {
    using namespace detail;

    // Reductions are deterministic: each block writes its totals to a scratch slot, and
    // the last block to finish sums the slots in block order, so a sum (and a trajectory
    // that depends on it, e.g. through a thermostat) does not depend on which block
    // finished first. One scratch serves all reductions: they run one after another
    // on the default stream. Grids of at most RED_MAX_BLOCKS blocks, N <= RED_MAX_N.
    constexpr int RED_MAX_BLOCKS = 1024, RED_MAX_N = 16;
    __device__ double red_partials[RED_MAX_BLOCKS * RED_MAX_N];
    __device__ unsigned red_ticket = 0;

    // sums each thread's a[0..N) over the grid (blockDim.x == BLOCK) and adds the totals
    // to out[0..N) in double: the tail of every reduction kernel here
    template <int N> __device__ void block_sum_to(const double (&a)[N], double *out)
    {
      static_assert(N <= RED_MAX_N, "block_sum_to: too many components");
      __shared__ double sh[N][BLOCK];
      __shared__ bool last;
      const int t = threadIdx.x;
      for (int c = 0; c < N; ++c) sh[c][t] = a[c];
      __syncthreads();
      for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
          for (int c = 0; c < N; ++c) sh[c][t] += sh[c][t + w];
        __syncthreads();
      }
      if (gridDim.x > RED_MAX_BLOCKS) {    // callers launch fewer; never silently wrong
        if (t == 0)
          for (int c = 0; c < N; ++c) atomicAdd(&out[c], sh[c][0]);
        return;
      }
      if (t == 0) {
        for (int c = 0; c < N; ++c) red_partials[blockIdx.x * N + c] = sh[c][0];
        __threadfence();    // the totals are visible before the ticket says so
        last = atomicAdd(&red_ticket, 1u) == gridDim.x - 1;
      }
      __syncthreads();
      if (!last) return;
      // the last block: thread t sums blocks t, t + BLOCK, ... in order, then a fixed tree
      for (int c = 0; c < N; ++c) {
        double v = 0.0;
        for (int b = t; b < (int) gridDim.x; b += BLOCK) v += __ldcg(&red_partials[b * N + c]);
        sh[c][t] = v;
      }
      __syncthreads();
      for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
          for (int c = 0; c < N; ++c) sh[c][t] += sh[c][t + w];
        __syncthreads();
      }
      if (t == 0) {
        for (int c = 0; c < N; ++c) out[c] += sh[c][0];
        red_ticket = 0;    // ready for the next reduction
      }
    }

  }    // namespace
}    // namespace cuda
}    // namespace mesogpu

#endif
