/* mesogpu: space-filling-curve sorting of the device atoms (see engine.h). */

#include "core/engine_impl.cuh"
#include <cub/cub.cuh>
#include <algorithm>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    // ---- space-filling-curve order -------------------------------------------------------
    // Morton (Z-order) code of each atom's cell: atoms close in space get close indices,
    // so the neighbour gathers of the force kernels hit the same cache lines
    __device__ __forceinline__ unsigned spread_bits10(unsigned v)
    {
      v &= 0x3ff;
      v = (v | (v << 16)) & 0x030000ff;
      v = (v | (v << 8)) & 0x0300f00f;
      v = (v | (v << 4)) & 0x030c30c3;
      v = (v | (v << 2)) & 0x09249249;
      return v;
    }
    // shift: cells per dimension beyond 1024 share a code (10 bits per dimension)
    __global__ void morton_keys_kernel(int n, const int *cell_of, int3 ncell, int shift,
                                       unsigned *key, int *value)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const int c = cell_of[i];
      const unsigned cx = (c % ncell.x) >> shift, cy = ((c / ncell.x) % ncell.y) >> shift,
                     cz = (c / (ncell.x * ncell.y)) >> shift;
      key[i] = spread_bits10(cx) | (spread_bits10(cy) << 1) | (spread_bits10(cz) << 2);
      value[i] = i;
    }
    __global__ void inverse_kernel(int n, const int *src, int *inv)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) inv[src[i]] = i;
    }
  }    // namespace

  long long Engine::sorts_done() const
  {
    return impl->sorts_done;
  }

  void Engine::set_sort(int every)
  {
    impl->sort_every = every;
    // the first build sorts (LAMMPS sorts at setup too): input order can be far from
    // spatial order (data files), and a resident setup leaves host sorting to the device
    impl->steps_since_sort = every;
  }

  void Engine::sort_atoms()
  {
    Impl &s = *impl;
    const int n = s.n;
    const int nb = blocks(n);
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    AllocLabel label("sort scratch (keys, permutation)");
    int shift = 0;    // 10 bits per dimension: beyond 1024 cells, neighbouring cells share codes
    while (((std::max({nc.x, nc.y, nc.z}) - 1) >> shift) >= 1024) ++shift;
    s.sort_key.resize(n);
    s.sort_key_out.resize(n);
    s.sort_tmp_int.resize(n);
    s.sort_src.resize(n);
    s.sort_inv.resize(n);
    morton_keys_kernel<<<nb, BLOCK>>>(n, s.cell_of.get(), nc, shift, s.sort_key.get(),
                                      s.sort_tmp_int.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    // stable radix sort of (key, old index): atoms of one cell keep their relative order
    size_t scratch = 0;
    // keys use 30 bits: three radix passes fewer than a full 32-bit sort would make
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(nullptr, scratch, s.sort_key.get(),
                                                      s.sort_key_out.get(), s.sort_tmp_int.get(),
                                                      s.sort_src.get(), n, 0, 30));
    s.sort_scratch.resize(scratch);
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
        s.sort_scratch.get(), scratch, s.sort_key.get(), s.sort_key_out.get(), s.sort_tmp_int.get(),
        s.sort_src.get(), n, 0, 30));
    const int *src = s.sort_src.get();
    inverse_kernel<<<nb, BLOCK>>>(n, src, s.sort_inv.get());
    const int *inv = s.sort_inv.get();

    // every per-atom array follows, as its owner registered it (core/per_atom.cuh)
    s.per_atom.permute_all(Permutation{n, src, inv});
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.order.download(s.order_host.data(), n);
    // the sort's scratch (about 28 bytes per atom) is not held between sorts: the memory
    // goes to the neighbour list in between
    s.sort_key.release();
    s.sort_key_out.release();
    s.sort_tmp_int.release();
    s.sort_src.release();
    s.sort_inv.release();
    s.sort_scratch.release();
  }

}    // namespace cuda
}    // namespace mesogpu
