/* mesogpu: the reorderings of per-atom arrays that a sort applies (core/per_atom.cuh). */

#include "core/per_atom.cuh"
#include "cuda_check.h"

namespace mesogpu {
namespace cuda {
  namespace detail {
    namespace {

      // out[k * n + i] = in[k * n + src[i]] for k < rows (column-major per-atom lists); the
      // _remap variants also map stored atom indices through inv (negative = unused, kept)
      template <typename T>
      __global__ void permute_kernel(int n, int rows, const int *src, const T *in, T *out)
      {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        for (int k = 0; k < rows; ++k) out[(size_t) k * n + i] = in[(size_t) k * n + src[i]];
      }
      __global__ void permute_remap_kernel(int n, int rows, const int *src, const int *inv,
                                           const int *in, int *out)
      {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        for (int k = 0; k < rows; ++k) {
          const int v = in[(size_t) k * n + src[i]];
          out[(size_t) k * n + i] = v >= 0 ? inv[v] : v;
        }
      }
      // row-major variant for the special lists (special[i * maxspecial + s])
      __global__ void permute_rowmajor_kernel(int n, int width, const int *src, const int *inv,
                                              const int *in, int *out)
      {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        for (int k = 0; k < width; ++k) {
          const int v = in[(size_t) src[i] * width + k];
          out[(size_t) i * width + k] = (inv && v >= 0) ? inv[v] : v;    // inv null: copy values
        }
      }
      __global__ void permute_int4_kernel(int n, int rows, const int *src, const int *inv,
                                          const int4 *in, int4 *out, bool remap_w)
      {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        for (int k = 0; k < rows; ++k) {
          int4 v = in[(size_t) k * n + src[i]];
          v.x = inv[v.x];
          v.y = inv[v.y];
          v.z = inv[v.z];
          if (remap_w) v.w = inv[v.w];
          out[(size_t) k * n + i] = v;
        }
      }

      // where a permutation of `a` writes: the permutation's scratch (grown on demand),
      // else a new block `fresh` of a's size
      template <typename T>
      T *permute_target(const DeviceArray<T> &a, DeviceArray<T> &fresh, const Permutation &p)
      {
        if (p.scratch) {
          const size_t bytes = a.size() * sizeof(T);
          if (p.scratch->size() < bytes) p.scratch->resize(bytes);
          return reinterpret_cast<T *>(p.scratch->get());
        }
        fresh.resize(a.size());
        return fresh.get();
      }
      // the permuted values into a's own block (stream order: before the next array's
      // kernel writes the scratch), else `fresh` replaces a's block
      template <typename T>
      void permute_finish(DeviceArray<T> &a, DeviceArray<T> &fresh, const Permutation &p)
      {
        if (!p.scratch) {
          a.swap(fresh);
          return;
        }
        if (a.size() > 0)
          MESOGPU_CUDA_CALL(cudaMemcpyAsync(a.get(), p.scratch->get(), a.size() * sizeof(T),
                                            cudaMemcpyDeviceToDevice, 0));
      }

    }    // namespace

    template <typename T> void permute_rows(DeviceArray<T> &a, int rows, const Permutation &p)
    {
      if (a.size() == 0) return;    // an array held only when needed (xhold) stays empty
      DeviceArray<T> fresh;
      T *out = permute_target(a, fresh, p);
      if (rows > 0 && p.n > 0) {
        permute_kernel<T><<<blocks(p.n), BLOCK>>>(p.n, rows, p.src, a.get(), out);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      permute_finish(a, fresh, p);
    }
    template void permute_rows(DeviceArray<acc> &, int, const Permutation &);
    template void permute_rows(DeviceArray<int> &, int, const Permutation &);
    template void permute_rows(DeviceArray<real4> &, int, const Permutation &);
    template void permute_rows(DeviceArray<PosType<real>> &, int, const Permutation &);
#if defined(MESOGPU_PREC_SINGLE)    // the host's columns (acc is double otherwise)
    template void permute_rows(DeviceArray<double> &, int, const Permutation &);
#endif

    void permute_rows_remap(DeviceArray<int> &a, int rows, const Permutation &p)
    {
      DeviceArray<int> fresh;
      int *out = permute_target(a, fresh, p);
      if (rows > 0 && p.n > 0) {
        permute_remap_kernel<<<blocks(p.n), BLOCK>>>(p.n, rows, p.src, p.inv, a.get(), out);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      permute_finish(a, fresh, p);
    }

    void permute_rowmajor(DeviceArray<int> &a, int width, bool remap, const Permutation &p)
    {
      DeviceArray<int> fresh;
      int *out = permute_target(a, fresh, p);
      if (width > 0 && p.n > 0) {
        permute_rowmajor_kernel<<<blocks(p.n), BLOCK>>>(p.n, width, p.src, remap ? p.inv : nullptr,
                                                        a.get(), out);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      permute_finish(a, fresh, p);
    }

    void permute_int4(DeviceArray<int4> &a, int rows, bool remap_w, const Permutation &p)
    {
      DeviceArray<int4> fresh;
      int4 *out = permute_target(a, fresh, p);
      if (rows > 0 && p.n > 0) {
        permute_int4_kernel<<<blocks(p.n), BLOCK>>>(p.n, rows, p.src, p.inv, a.get(), out, remap_w);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      permute_finish(a, fresh, p);
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu
