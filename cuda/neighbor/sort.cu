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
    __device__ __forceinline__ unsigned morton3(unsigned cx, unsigned cy, unsigned cz)
    {
      return spread_bits10(cx) | (spread_bits10(cy) << 1) | (spread_bits10(cz) << 2);
    }
    // the code of cell c of the ncell grid; shift: cells per dimension beyond 1024 share a
    // code (10 bits per dimension)
    __device__ __forceinline__ unsigned cell_morton_code(int c, int3 ncell, int shift)
    {
      return morton3((c % ncell.x) >> shift, ((c / ncell.x) % ncell.y) >> shift,
                     (c / (ncell.x * ncell.y)) >> shift);
    }
    __global__ void morton_keys_kernel(int n, const int *cell_of, int3 ncell, int shift,
                                       unsigned *key, int *value)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      key[i] = cell_morton_code(cell_of[i], ncell, shift);
      value[i] = i;
    }
    // several ranks, owned rows only (no cell list for the rows that just arrived): each
    // atom's cell from its position in the rank's box, as the list build bins it
    __global__ void morton_keys_from_x_kernel(int n, const acc *x0, const acc *x1, const acc *x2,
                                              BoxD box, int3 ncell, int shift, unsigned *key,
                                              int *value)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const acc xs[3] = {x0[i], x1[i], x2[i]};
      const int nc[3] = {ncell.x, ncell.y, ncell.z};
      unsigned c[3];
      for (int d = 0; d < 3; ++d) {
        const int ci = static_cast<int>((xs[d] - box.lo[d]) / box.prd[d] * nc[d]);
        c[d] = static_cast<unsigned>(min(max(ci, 0), nc[d] - 1)) >> shift;
      }
      key[i] = morton3(c[0], c[1], c[2]);
      value[i] = i;
    }
    // each cell's Morton code (as morton_keys_kernel gives its atoms) and its index
    __global__ void cell_keys_kernel(int ncells, int3 ncell, int shift, unsigned *key, int *value)
    {
      const int c = blockIdx.x * blockDim.x + threadIdx.x;
      if (c >= ncells) return;
      key[c] = cell_morton_code(c, ncell, shift);
      value[c] = c;
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

  namespace {
    // 10 bits per dimension: beyond 1024 cells, neighbouring cells share codes
    int morton_shift(const int3 &nc)
    {
      int shift = 0;
      while (((std::max({nc.x, nc.y, nc.z}) - 1) >> shift) >= 1024) ++shift;
      return shift;
    }

    // the rows in the order of the keys in sort_key (values: row indices in sort_tmp_int),
    // every per-atom array following; the scratch (about 28 bytes per atom, and the largest
    // per-atom array's size for the permutation) is not held between sorts: the memory
    // goes to the neighbour list in between
    void sort_rows_by_key(Engine::Impl &s, int n)
    {
      // stable radix sort of (key, old index): atoms of one cell keep their relative order;
      // keys use 30 bits: three radix passes fewer than a full 32-bit sort would make
      size_t scratch = 0;
      MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(nullptr, scratch, s.sort_key.get(),
                                                        s.sort_key_out.get(), s.sort_tmp_int.get(),
                                                        s.sort_src.get(), n, 0, 30));
      s.sort_scratch.resize(scratch);
      MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
          s.sort_scratch.get(), scratch, s.sort_key.get(), s.sort_key_out.get(),
          s.sort_tmp_int.get(), s.sort_src.get(), n, 0, 30));
      const int *src = s.sort_src.get();
      inverse_kernel<<<blocks(n), BLOCK>>>(n, src, s.sort_inv.get());
      // every per-atom array follows, as its owner registered it (core/per_atom.cuh),
      // through one scratch block: each array keeps its own block (was: a new block per
      // array, a cudaMalloc and a synchronising cudaFree each; a sort of 4.1 M LJ rows per
      // rank on four H200s took 30.2 ms that way, 10.8 ms now)
      s.per_atom.permute_all(Permutation{n, src, s.sort_inv.get(), &s.sort_permute});
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

    void size_sort_scratch(Engine::Impl &s, int n)
    {
      s.sort_key.resize(n);
      s.sort_key_out.resize(n);
      s.sort_tmp_int.resize(n);
      s.sort_src.resize(n);
      s.sort_inv.resize(n);
    }

    void release_sort_scratch(Engine::Impl &s)
    {
      s.sort_key.release();
      s.sort_key_out.release();
      s.sort_tmp_int.release();
      s.sort_src.release();
      s.sort_inv.release();
      s.sort_scratch.release();
      s.sort_permute.release();
    }
  }    // namespace

  void Engine::Impl::order_cells()
  {
    const int3 nc = make_int3(ncell[0], ncell[1], ncell[2]);
    const int ncells = nc.x * nc.y * nc.z;
    if (cell_order.size() == (size_t) ncells && cell_order_dims[0] == nc.x &&
        cell_order_dims[1] == nc.y && cell_order_dims[2] == nc.z)
      return;
    AllocLabel label("the cells' Morton order");
    DeviceArray<unsigned> key, key_out;
    DeviceArray<int> value;
    DeviceArray<char> scratch;
    key.resize(ncells);
    key_out.resize(ncells);
    value.resize(ncells);
    cell_order.resize(ncells);
    cell_keys_kernel<<<blocks(ncells), BLOCK>>>(ncells, nc, morton_shift(nc), key.get(),
                                                value.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    // stable: cells that share a code (beyond 1024 per dimension) stay in index order
    size_t bytes = 0;
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, key.get(), key_out.get(), value.get(), cell_order.get(), ncells, 0, 30));
    scratch.resize(bytes);
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(scratch.get(), bytes, key.get(),
                                                      key_out.get(), value.get(), cell_order.get(),
                                                      ncells, 0, 30));
    cell_order_dims[0] = nc.x;
    cell_order_dims[1] = nc.y;
    cell_order_dims[2] = nc.z;
  }

  void Engine::sort_atoms()
  {
    Impl &s = *impl;
    const int n = s.n;
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    AllocLabel label("sort scratch (keys, permutation)");
    size_sort_scratch(s, n);
    morton_keys_kernel<<<blocks(n), BLOCK>>>(n, s.cell_of.get(), nc, morton_shift(nc),
                                             s.sort_key.get(), s.sort_tmp_int.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    sort_rows_by_key(s, n);
    s.order.download(s.order_host.data(), n);
    release_sort_scratch(s);
  }

  void Engine::sort_owned()
  {
    Impl &s = *impl;
    if (s.nlocal != s.n)
      throw std::logic_error("mesogpu: sort_owned: " + std::to_string(s.n - s.nlocal) +
                             " ghost rows (sort between the exchange and the borders)");
    const int n = s.n;
    if (n == 0) return;
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    AllocLabel label("sort scratch (keys, permutation)");
    // the bonded and special lists name device rows of before the exchange and are made
    // again after the borders (resolve_topology): not reordered, emptied (their blocks kept)
    if (s.owned_topology) {
      s.nbond.resize(0);
      s.nangle.resize(0);
      s.ndihedral.resize(0);
      s.maxbond = s.maxangle = s.maxdihedral = s.maxspecial = 0;
    }
    size_sort_scratch(s, n);
    morton_keys_from_x_kernel<<<blocks(n), BLOCK>>>(n, s.x[0].get(), s.x[1].get(), s.x[2].get(),
                                                    s.box(), nc, morton_shift(nc), s.sort_key.get(),
                                                    s.sort_tmp_int.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    sort_rows_by_key(s, n);
    // the device order of the owned rows is the host's after the next sync (order is
    // rewritten as the identity by border_finish)
    release_sort_scratch(s);
    s.owned_sorts_done++;
  }

  long long Engine::owned_sorts_done() const
  {
    return impl->owned_sorts_done;
  }

}    // namespace cuda
}    // namespace mesogpu
