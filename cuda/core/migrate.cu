/* mesogpu: a reneighbouring step of a resident run on several MPI ranks on the device
 * (see engine.h, "several MPI ranks, a reneighbouring step on the device"): Domain::pbc()
 * of the owned rows, CommBrick::exchange()'s selection of the atoms that leave, their
 * records packed from every registered per-atom array (core/per_atom.cuh: Migrate), the
 * arrays rebuilt for the staying rows (order kept) and the arrivals, and
 * CommBrick::borders()'s per-swap selection (rows in order, so the send lists are
 * LAMMPS's) with AtomVec::pack_border's records (x + shift, tag, type, mask; the molecule
 * ID while molecule exclusions read the ghosts'). Selections are flags, an exclusive scan
 * (CUB, deterministic) and a scatter. Molecular atoms carry LAMMPS's topology rows (atom
 * IDs), from which border_finish makes the bonded lists again
 * (topology/topology_migrate.cu). The messages, the
 * swap table and the order of the swaps are the host's (src/cuda/device_rebuild.cpp). */

#include "core/engine_impl.cuh"

#include <cub/device/device_scan.cuh>

#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {
  namespace detail {
    namespace {

      template <typename T>
      __global__ void pack_column_kernel(int count, const int *rows, const T *a, double *rec,
                                         int stride, int offset)
      {
        const int k = blockIdx.x * blockDim.x + threadIdx.x;
        if (k >= count) return;
        rec[(size_t) k * stride + offset] = static_cast<double>(a[rows[k]]);
      }

      template <typename T> __global__ void gather_column_kernel(RowPlan p, const T *old, T *out)
      {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= p.n) return;
        if (i >= p.nsrc) {
          out[i] = T(0);    // a ghost row
          return;
        }
        const int s = p.src[i];
        out[i] = s >= 0 ? old[s] : static_cast<T>(p.rec[(size_t) (-1 - s) * p.stride + p.offset]);
      }

      // RowEdit: the few rows that fill the holes of the leavers (sources past every hole)
      template <typename T>
      __global__ void move_rows_kernel(int count, const int *dst, const int *src, T *a)
      {
        const int k = blockIdx.x * blockDim.x + threadIdx.x;
        if (k < count) a[dst[k]] = a[src[k]];
      }

      template <typename T>
      __global__ void arrive_rows_kernel(int count, int first, const double *rec, int stride,
                                         int offset, T *a)
      {
        const int k = blockIdx.x * blockDim.x + threadIdx.x;
        if (k < count) a[first + k] = static_cast<T>(rec[(size_t) k * stride + offset]);
      }

      // the array sized to n rows, its first `keep` kept. A block too small is replaced by
      // one with 1/64 more rows: the counts of a rank change a little at every rebuild, and
      // without the slack each small growth would cost a cudaMalloc and a (synchronising)
      // cudaFree of every per-atom array
      template <typename T> void grow_rows(DeviceArray<T> &a, size_t n, size_t keep)
      {
        if (n > a.capacity()) {
          DeviceArray<T> b;
          b.resize(n + n / 64 + 256);
          if (keep)
            MESOGPU_CUDA_CALL(
                cudaMemcpyAsync(b.get(), a.get(), keep * sizeof(T), cudaMemcpyDeviceToDevice, 0));
          a.swap(b);    // b frees the old block after the copy (cudaFree waits for it)
        }
        a.resize(n);
      }

    }    // namespace

    template <typename T> Migrate column_migration(DeviceArray<T> *a, bool optional)
    {
      Migrate m;
      m.width = 1;
      // an empty optional array is one this run does not use (rmass); an empty one that is
      // not optional belongs to a rank that held no rows at the upload: it grows
      auto unused = [a, optional]() { return optional && a->size() == 0; };
      m.pack = [a, unused](const int *rows, int count, double *rec, int stride, int offset) {
        if (unused() || count == 0) return;
        pack_column_kernel<T><<<blocks(count), BLOCK>>>(count, rows, a->get(), rec, stride, offset);
        MESOGPU_CUDA_LAUNCH_CHECK();
      };
      m.rebuild = [a, unused](const RowPlan &p) {
        if (unused()) return;
        DeviceArray<T> out;
        out.resize(p.n);
        if (p.n > 0) {
          gather_column_kernel<T><<<blocks(p.n), BLOCK>>>(p, a->get(), out.get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        a->swap(out);
      };
      // in place: only the moved, arrived and ghost rows are written (the rebuild above
      // reads and writes every row of a new block)
      m.edit = [a, unused](const RowEdit &e) {
        if (unused()) return;
        if (e.nmove > 0) {    // before a growth: the sources lie past nkeep
          move_rows_kernel<T><<<blocks(e.nmove), BLOCK>>>(e.nmove, e.dst, e.src, a->get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        grow_rows(*a, (size_t) e.n, (size_t) e.nkeep);
        if (e.narrive > 0) {
          arrive_rows_kernel<T><<<blocks(e.narrive), BLOCK>>>(e.narrive, e.nkeep, e.rec, e.stride,
                                                              e.offset, a->get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        const int first = e.nkeep + e.narrive;
        if (e.n > first)    // ghost rows zero
          MESOGPU_CUDA_CALL(
              cudaMemsetAsync(a->get() + first, 0, (size_t) (e.n - first) * sizeof(T), 0));
      };
      return m;
    }

    namespace {
      // row-major arrays (atom i's `width` values at [i width ..]): the same three steps
      template <typename T>
      __global__ void pack_rowmajor_kernel(int count, int width, const int *rows, const T *a,
                                           double *rec, int stride, int offset)
      {
        const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
        if (e >= (long long) count * width) return;
        const int k = (int) (e / width), c = (int) (e % width);
        rec[(size_t) k * stride + offset + c] =
            static_cast<double>(a[(size_t) rows[k] * width + c]);
      }
      template <typename T>
      __global__ void move_rowmajor_kernel(int count, int width, const int *dst, const int *src,
                                           T *a)
      {
        const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
        if (e >= (long long) count * width) return;
        const int k = (int) (e / width), c = (int) (e % width);
        a[(size_t) dst[k] * width + c] = a[(size_t) src[k] * width + c];
      }
      template <typename T>
      __global__ void arrive_rowmajor_kernel(int count, int width, int first, const double *rec,
                                             int stride, int offset, T *a)
      {
        const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
        if (e >= (long long) count * width) return;
        const int k = (int) (e / width), c = (int) (e % width);
        a[(size_t) (first + k) * width + c] = static_cast<T>(rec[(size_t) k * stride + offset + c]);
      }
      template <typename T>
      __global__ void gather_rowmajor_kernel(RowPlan p, int width, const T *old, T *out)
      {
        const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
        if (e >= (long long) p.n * width) return;
        const int i = (int) (e / width), c = (int) (e % width);
        if (i >= p.nsrc) {
          out[e] = T(0);    // a ghost row
          return;
        }
        const int s = p.src[i];
        out[e] = s >= 0 ? old[(size_t) s * width + c]
                        : static_cast<T>(p.rec[(size_t) (-1 - s) * p.stride + p.offset + c]);
      }
    }    // namespace

    template <typename T> Migrate rowmajor_migration(DeviceArray<T> *a, int width)
    {
      Migrate m;
      m.width = width;
      m.pack = [a, width](const int *rows, int count, double *rec, int stride, int offset) {
        if (count == 0 || width == 0) return;
        pack_rowmajor_kernel<T><<<blocks64((long long) count * width), BLOCK>>>(
            count, width, rows, a->get(), rec, stride, offset);
        MESOGPU_CUDA_LAUNCH_CHECK();
      };
      // (an empty array is not 'unused' here: a rank without atoms at the upload has one)
      m.rebuild = [a, width](const RowPlan &p) {
        if (width == 0) return;
        DeviceArray<T> out;
        out.resize((size_t) p.n * width);
        if (p.n > 0) {
          gather_rowmajor_kernel<T>
              <<<blocks64((long long) p.n * width), BLOCK>>>(p, width, a->get(), out.get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        a->swap(out);
      };
      m.edit = [a, width](const RowEdit &e) {
        if (width == 0) return;
        if (e.nmove > 0) {    // before a growth: the sources lie past nkeep
          move_rowmajor_kernel<T><<<blocks64((long long) e.nmove * width), BLOCK>>>(
              e.nmove, width, e.dst, e.src, a->get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        grow_rows(*a, (size_t) e.n * width, (size_t) e.nkeep * width);
        if (e.narrive > 0) {
          arrive_rowmajor_kernel<T><<<blocks64((long long) e.narrive * width), BLOCK>>>(
              e.narrive, width, e.nkeep, e.rec, e.stride, e.offset, a->get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        const size_t first = (size_t) (e.nkeep + e.narrive) * width;
        if ((size_t) e.n * width > first)    // ghost rows zero
          MESOGPU_CUDA_CALL(
              cudaMemsetAsync(a->get() + first, 0, ((size_t) e.n * width - first) * sizeof(T), 0));
      };
      return m;
    }

    Migrate remade_later()
    {
      Migrate m;
      m.rebuild = [](const RowPlan &) {};
      m.edit = [](const RowEdit &) {};
      return m;
    }

    template <typename T> Migrate derived_rows(DeviceArray<T> *a)
    {
      Migrate m;
      m.rebuild = [a](const RowPlan &p) { a->resize(p.n); };
      m.edit = [a](const RowEdit &e) { grow_rows(*a, (size_t) e.n, 0); };    // rewritten later
      return m;
    }

    template Migrate column_migration(DeviceArray<acc> *, bool);
    template Migrate column_migration(DeviceArray<int> *, bool);
    template Migrate derived_rows(DeviceArray<int> *);
    template Migrate derived_rows(DeviceArray<PosType<real>> *);
    template Migrate rowmajor_migration(DeviceArray<int> *, int);
    template Migrate rowmajor_migration(DeviceArray<double> *, int);

  }    // namespace detail

  namespace {

    // Domain::pbc(), orthogonal box: one period added or removed, image count adjusted
    __global__ void wrap_kernel(int n, acc *x0, acc *x1, acc *x2, int *im0, int *im1, int *im2,
                                double3 lo, double3 hi, int3 periodic)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc *x[3] = {x0, x1, x2};
      int *im[3] = {im0, im1, im2};
      const double l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
      const int per[3] = {periodic.x, periodic.y, periodic.z};
      for (int d = 0; d < 3; ++d) {
        if (!per[d]) continue;
        const acc prd = static_cast<acc>(h[d] - l[d]);
        acc v = x[d][i];
        if (v < static_cast<acc>(l[d])) {
          v += prd;
          im[d][i] -= 1;
        }
        if (v >= static_cast<acc>(h[d])) {
          v -= prd;
          v = v > static_cast<acc>(l[d]) ? v : static_cast<acc>(l[d]);    // MAX(x, lo)
          im[d][i] += 1;
        }
        x[d][i] = v;
      }
    }

    __global__ void leave_flag_kernel(int n, const acc *xd, double lo, double hi, int *flag)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const double v = static_cast<double>(xd[i]);
      flag[i] = (v < lo || v >= hi) ? 1 : 0;
    }

    __global__ void iota_kernel(int n, int *a)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) a[i] = i;
    }

    // a swap's candidates rows nfirst + k: owned rows from the arrays, ghosts received
    // during these borders from their records (`width` doubles each)
    __device__ inline double row_coord(int j, int d, int nlocal, const acc *const *x,
                                       const double *ghost, int width)
    {
      return j < nlocal ? static_cast<double>(x[d][j]) : ghost[(size_t) (j - nlocal) * width + d];
    }

    __global__ void slab_flag_kernel(int count, int nfirst, int nlocal, int dim, double lo,
                                     double hi, const acc *x0, const acc *x1, const acc *x2,
                                     const double *ghost, int width, int *flag)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const acc *x[3] = {x0, x1, x2};
      const double v = row_coord(nfirst + k, dim, nlocal, x, ghost, width);
      flag[k] = (v >= lo && v <= hi) ? 1 : 0;
    }

    __global__ void select_kernel(int count, int nfirst, const int *flag, const int *pos, int *sel)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k < count && flag[k]) sel[pos[k]] = nfirst + k;
    }

    // AtomVec::pack_border: x + dx in one addition when the swap crosses a periodic side,
    // then tag, type, mask (and the molecule ID when `molecule` is given: width 7)
    __global__ void border_pack_kernel(int count, const int *sel, int nlocal, const acc *x0,
                                       const acc *x1, const acc *x2, const int *tag,
                                       const int *type, const int *mask, const int *molecule,
                                       const double *ghost, int width, double3 shift, int shifted,
                                       double *out)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int j = sel[k];
      const acc *x[3] = {x0, x1, x2};
      const double sh[3] = {shift.x, shift.y, shift.z};
      double *o = out + (size_t) k * width;
      for (int d = 0; d < 3; ++d) {
        const double v = row_coord(j, d, nlocal, x, ghost, width);
        o[d] = shifted ? v + sh[d] : v;
      }
      if (j < nlocal) {
        o[3] = tag[j];
        o[4] = type[j];
        o[5] = mask[j];
        if (width > Engine::BORDER_WIDTH) o[6] = molecule ? molecule[j] : 0;
      } else {
        const double *g = ghost + (size_t) (j - nlocal) * width;
        for (int c = 3; c < width; ++c) o[c] = g[c];
      }
    }

    __global__ void ghost_unpack_kernel(int nghost, int nlocal, const double *ghost, int width,
                                        acc *x0, acc *x1, acc *x2, int *tag, int *type, int *mask,
                                        int *molecule)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= nghost) return;
      const double *g = ghost + (size_t) k * width;
      const int i = nlocal + k;
      x0[i] = static_cast<acc>(g[0]);
      x1[i] = static_cast<acc>(g[1]);
      x2[i] = static_cast<acc>(g[2]);
      tag[i] = static_cast<int>(g[3]);
      type[i] = static_cast<int>(g[4]);
      mask[i] = static_cast<int>(g[5]);
      if (molecule) molecule[i] = static_cast<int>(g[6]);
    }

    __global__ void pos_kernel(int n, const acc *x0, const acc *x1, const acc *x2, const int *type,
                               PosType<real> *pos)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      pos[i].x = static_cast<real>(x0[i]);
      pos[i].y = static_cast<real>(x1[i]);
      pos[i].z = static_cast<real>(x2[i]);
      pos[i].type = type[i];
    }

    // a device array grown to at least n elements, its first `keep` kept
    template <class T> void grow_keep(DeviceArray<T> &a, size_t n, size_t keep)
    {
      if (n <= a.size()) return;
      if (n <= a.capacity()) {    // within the block: the contents stay, nothing allocated
        a.resize(n);
        return;
      }
      DeviceArray<T> b;
      b.resize(std::max(n, 2 * a.capacity()));
      if (keep)
        MESOGPU_CUDA_CALL(cudaMemcpy(b.get(), a.get(), keep * sizeof(T), cudaMemcpyDeviceToDevice));
      a.swap(b);
    }

  }    // namespace

  int exclusive_scan_total(DeviceArray<char> &scratch, const int *in, int *out, int n)
  {
    if (n <= 0) return 0;
    size_t bytes = 0;
    MESOGPU_CUDA_CALL(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
    if (scratch.size() < bytes) scratch.resize(bytes);
    MESOGPU_CUDA_CALL(cub::DeviceScan::ExclusiveSum(scratch.get(), bytes, in, out, n));
    int last[2] = {0, 0};
    MESOGPU_CUDA_CALL(cudaMemcpy(&last[0], out + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    MESOGPU_CUDA_CALL(cudaMemcpy(&last[1], in + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return last[0] + last[1];
  }

  std::string Engine::migration_missing() const
  {
    const Impl &s = *impl;
    std::string out;
    for (const auto &name : s.per_atom.without_migration()) out += (out.empty() ? "" : ", ") + name;
    // bonded and special lists hold device rows: made again from the owned atoms' topology
    // rows (atom IDs), which must be there
    const bool lists = s.nbond.size() || s.nangle.size() || s.ndihedral.size() || s.maxspecial > 0;
    if (lists && !s.owned_topology)
      out += std::string(out.empty() ? "" : ", ") +
             "bond and special lists (no topology rows of atom IDs)";
    return out;
  }

  int Engine::border_width() const
  {
    // the ghosts' molecule IDs only while molecule exclusions read them (the setting, the
    // same on every rank, not the array's size: the widths of both ends must agree)
    return impl->exclusion.nmol > 0 ? BORDER_WIDTH + 1 : BORDER_WIDTH;
  }

  int Engine::record_width() const
  {
    return impl->per_atom.record_width();
  }

  int Engine::record_offset(const std::string &name) const
  {
    return impl->per_atom.record_offset(name);
  }

  void Engine::wrap_owned(const double lo[3], const double hi[3], const int periodic[3])
  {
    Impl &s = *impl;
    s.mig_nghost = 0;
    s.border_send_count = 0;
    const int n = s.nlocal;
    if (n == 0) return;
    wrap_kernel<<<blocks(n), BLOCK>>>(
        n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(),
        s.image[2].get(), make_double3(lo[0], lo[1], lo[2]), make_double3(hi[0], hi[1], hi[2]),
        make_int3(periodic[0], periodic[1], periodic[2]));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  // CommBrick::exchange()'s loop, replayed on the leaving rows alone: "while (i < nlocal)
  // if x[i] leaves { pack i; copy nlocal-1 into i; nlocal-- } else i++". The k-th hole
  // (ascending) takes the k-th staying row counted from the end, and a row copied into a
  // hole that leaves too is packed right after the hole's own atom. So the device keeps
  // LAMMPS's order (rows and send order) and moves only as many rows as leave, instead
  // of compacting every array.
  namespace {
    void replay_exchange(const std::vector<int> &leave, int n, std::vector<int> &order,
                         std::vector<int> &dst, std::vector<int> &src)
    {
      const int m = static_cast<int>(leave.size());
      order.clear();
      dst.clear();
      src.clear();
      int a = 0, b = m - 1, end = n;    // leave[a..b]: not yet packed; rows end..: gone
      while (a <= b && leave[a] < end) {
        const int i = leave[a++];
        int cur = i;    // the row whose atom sits in row i now
        for (;;) {
          order.push_back(cur);
          --end;    // row end (the last one) is copied into row i
          if (end == i) break;
          if (b >= a && leave[b] == end) {    // it leaves as well: packed next
            cur = end;
            --b;
            continue;
          }
          dst.push_back(i);
          src.push_back(end);
          break;
        }
      }
      if ((int) order.size() != m || end != n - m)
        throw std::logic_error("mesogpu: exchange: the replay of CommBrick's loop lost rows");
    }
  }    // namespace

  const double *Engine::exchange_leaving(int dim, double lo, double hi, int &count)
  {
    Impl &s = *impl;
    if (dim < 0 || dim > 2) throw std::logic_error("mesogpu: exchange_leaving: dimension");
    AllocLabel label("the atom exchange of a rebuild");
    const int n = s.nlocal;
    int nleave = 0;
    if (n > 0) {
      s.mig_count.resize(n);    // flags
      s.mig_src.resize(n);      // their scan
      leave_flag_kernel<<<blocks(n), BLOCK>>>(n, s.x[dim].get(), lo, hi, s.mig_count.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      nleave = exclusive_scan_total(s.mig_scratch, s.mig_count.get(), s.mig_src.get(), n);
    }
    s.mig_nkeep = n - nleave;
    s.mig_nmove = 0;
    count = nleave;
    const int w = s.per_atom.record_width();
    double *records = exchange_buffer(0, (size_t) nleave * w);
    if (nleave == 0) return records;    // most dimensions of most rebuilds: nothing else
    // the leaving rows ascending (nleave ints down, not the flags of all rows)
    s.mig_leave.resize(nleave);
    select_kernel<<<blocks(n), BLOCK>>>(n, 0, s.mig_count.get(), s.mig_src.get(),
                                        s.mig_leave.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    std::vector<int> leave(nleave), order, dst, src;
    s.mig_leave.download(leave.data(), nleave);
    replay_exchange(leave, n, order, dst, src);
    // one upload: the send order, then the holes and the rows that fill them
    const int nmove = static_cast<int>(dst.size());
    order.insert(order.end(), dst.begin(), dst.end());
    order.insert(order.end(), src.begin(), src.end());
    s.mig_keep.upload(order);
    s.mig_nmove = nmove;
    s.mig_rec.resize((size_t) nleave * w);
    s.per_atom.pack_all(s.mig_keep.get(), nleave, s.mig_rec.get());
    // into the page-locked send buffer: a DMA copy, no staging through pageable memory
    MESOGPU_CUDA_CALL(cudaMemcpyAsync(
        records, s.mig_rec.get(), (size_t) nleave * w * sizeof(double), cudaMemcpyDeviceToHost, 0));
    MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
    return records;
  }

  void Engine::exchange_arrivals(const double *records, int count)
  {
    Impl &s = *impl;
    AllocLabel label("the atom exchange of a rebuild");
    const int w = s.per_atom.record_width();
    const long long n = (long long) s.mig_nkeep + count;
    if (count < 0 || n > MAX_ATOMS)
      throw std::runtime_error("mesogpu: exchange: " + std::to_string(n) + " atoms on one rank");
    // synchronous (the caller reuses its buffer next); from page-locked memory a DMA copy
    if (count > 0) s.mig_rec.upload(records, (size_t) count * w);
    const int nleave = s.nlocal - s.mig_nkeep, nmove = s.mig_nmove;
    // in place: the leavers' holes filled from the end, the arrivals appended (was: every
    // per-atom array rebuilt into a new block, three times per rebuild)
    const int *moves = s.mig_keep.get() + nleave;
    s.per_atom.edit_all(RowEdit{(int) n, s.mig_nkeep, nmove, nmove ? moves : nullptr,
                                nmove ? moves + nmove : nullptr, count, s.mig_rec.get(), 0, 0});
    s.mig_nmove = 0;
    s.n = s.nlocal = (int) n;
  }

  int Engine::border_select(int dim, double lo, double hi, int nfirst, int nlast)
  {
    Impl &s = *impl;
    const int count = nlast - nfirst;
    if (dim < 0 || dim > 2 || nfirst < 0 || count < 0 || nlast > s.nlocal + s.mig_nghost)
      throw std::logic_error("mesogpu: border_select: rows " + std::to_string(nfirst) + " .. " +
                             std::to_string(nlast) + " outside the " +
                             std::to_string(s.nlocal + s.mig_nghost));
    AllocLabel label("the ghost selection of a rebuild");
    s.mig_nsel = 0;
    if (count == 0) return 0;
    s.mig_count.resize(count);
    s.mig_src.resize(count);
    s.mig_sel.resize(count);
    slab_flag_kernel<<<blocks(count), BLOCK>>>(count, nfirst, s.nlocal, dim, lo, hi, s.x[0].get(),
                                               s.x[1].get(), s.x[2].get(), s.ghost_rec.get(),
                                               border_width(), s.mig_count.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    const int nsel = exclusive_scan_total(s.mig_scratch, s.mig_count.get(), s.mig_src.get(), count);
    select_kernel<<<blocks(count), BLOCK>>>(count, nfirst, s.mig_count.get(), s.mig_src.get(),
                                            s.mig_sel.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    // appended to the send index on the device (was: downloaded into a host vector, which
    // take_plan then uploaded again: 2.4 ms of selection per rebuild at 8.2 M atoms per rank
    // on two H200s, most of it these copies through pageable memory)
    if (nsel > 0) {
      AllocLabel plan_label("the ghost exchange plan");
      const size_t at = s.border_send_count;
      grow_keep(s.border_send, at + nsel, at);
      MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.border_send.get() + at, s.mig_sel.get(),
                                        (size_t) nsel * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    }
    s.border_send_count += nsel;
    s.mig_nsel = nsel;
    return nsel;
  }

  namespace {
    // the molecule IDs the border records carry (molecule exclusions read the ghosts'),
    // else none (border_width() is 6)
    int *border_molecule(Engine::Impl &s)
    {
      return s.exclusion.nmol > 0 && s.molecule.size() ? s.molecule.get() : nullptr;
    }

    // the selected rows' border records (w doubles each) into out (mig_rec by default)
    void pack_border_records(Engine::Impl &s, int w, const double shift[3], bool shifted,
                             double *out = nullptr)
    {
      const int count = s.mig_nsel;
      if (!out) {
        AllocLabel label("the ghost records of a rebuild");
        s.mig_rec.resize((size_t) count * w);
        out = s.mig_rec.get();
      }
      border_pack_kernel<<<blocks(count), BLOCK>>>(
          count, s.mig_sel.get(), s.nlocal, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.tag.get(),
          s.type.get(), s.mask.get(), border_molecule(s), s.ghost_rec.get(), w,
          make_double3(shift[0], shift[1], shift[2]), shifted ? 1 : 0, out);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
  }    // namespace

  const double *Engine::border_pack(const double shift[3], bool shifted)
  {
    Impl &s = *impl;
    const int count = s.mig_nsel, w = border_width();
    double *buf = exchange_buffer(0, (size_t) count * w);
    if (count == 0) return buf;
    pack_border_records(s, w, shift, shifted);
    // into the page-locked send buffer (a swap's records are ~4 % of the atoms x 48 B:
    // megabytes, which a pageable copy stages through a bounce buffer at a fraction of
    // the DMA rate), one wait
    MESOGPU_CUDA_CALL(cudaMemcpyAsync(buf, s.mig_rec.get(), (size_t) count * w * sizeof(double),
                                      cudaMemcpyDeviceToHost, 0));
    MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
    return buf;
  }

  void Engine::border_receive(const double *buf, int count)
  {
    Impl &s = *impl;
    if (count <= 0) return;
    AllocLabel label("the ghost records of a rebuild");
    const size_t w = border_width();
    const size_t at = (size_t) s.mig_nghost * w, add = (size_t) count * w;
    grow_keep(s.ghost_rec, at + add, at);
    // synchronous (the caller reuses buf next); a DMA copy when buf is exchange_buffer(1)
    MESOGPU_CUDA_CALL(
        cudaMemcpy(s.ghost_rec.get() + at, buf, add * sizeof(double), cudaMemcpyHostToDevice));
    s.mig_nghost += count;
  }

  void Engine::border_pack_to_peer(const double shift[3], bool shifted, void *peer,
                                   size_t peer_offset)
  {
    Impl &s = *impl;
    const int count = s.mig_nsel, w = border_width();
    if (count > 0) {
      if (!peer) throw std::logic_error("mesogpu: border_pack_to_peer: no partner area");
      pack_border_records(s, w, shift, shifted);
      // device to device (the partner's GPU over NVLink or PCIe, or this one)
      MESOGPU_CUDA_CALL(cudaMemcpyAsync(static_cast<double *>(peer) + peer_offset, s.mig_rec.get(),
                                        (size_t) count * w * sizeof(double), cudaMemcpyDefault, 0));
    }
    // the records are in the partner's area when the token goes out
    MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
  }

  void Engine::border_receive_from_ipc(int count)
  {
    Impl &s = *impl;
    if (count <= 0) return;
    const size_t w = border_width();
    const size_t at = (size_t) s.mig_nghost * w, add = (size_t) count * w;
    if (add > s.ipc_records_cap)
      throw std::logic_error("mesogpu: border_receive_from_ipc: " + std::to_string(count) +
                             " records outside the area of " + std::to_string(s.ipc_records_cap) +
                             " doubles");
    AllocLabel label("the ghost records of a rebuild");
    grow_keep(s.ghost_rec, at + add, at);
    // finished on return: the next swap's sender may write the area again once this rank
    // has answered it
    MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.ghost_rec.get() + at, s.ipc_records.get(),
                                      add * sizeof(double), cudaMemcpyDeviceToDevice, 0));
    MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
    s.mig_nghost += count;
  }

  void Engine::border_copy(const double shift[3], bool shifted)
  {
    Impl &s = *impl;
    const int count = s.mig_nsel;
    if (count == 0) return;
    AllocLabel label("the ghost records of a rebuild");
    const int w = border_width();
    const size_t at = (size_t) s.mig_nghost * w, add = (size_t) count * w;
    grow_keep(s.ghost_rec, at + add, at);    // before the pointers below: it may move
    // the sources (owned rows, earlier ghosts' records) lie before the new records
    pack_border_records(s, w, shift, shifted, s.ghost_rec.get() + at);
    s.mig_nghost += count;
  }

  void Engine::take_border_plan(int send_total)
  {
    Impl &s = *impl;
    if (send_total != s.border_send_count)
      throw std::logic_error("mesogpu: take_border_plan: a plan of " + std::to_string(send_total) +
                             " sent rows, the borders selected " +
                             std::to_string(s.border_send_count));
    // the blocks change hands: the next borders reuse the old plan's
    s.comm_send.swap(s.border_send);
    s.comm_send.resize(send_total);
    s.border_send_count = 0;
  }

  void Engine::border_finish()
  {
    Impl &s = *impl;
    AllocLabel label("the atom arrays of a rebuild");
    const int nlocal = s.nlocal, nghost = s.mig_nghost;
    const long long n = (long long) nlocal + nghost;
    if (n > MAX_ATOMS)
      throw std::runtime_error("mesogpu: borders: " + std::to_string(n) +
                               " owned atoms and ghosts on one rank");
    // owned rows stay, ghost rows zero (velocities, forces, images, as upload gives them):
    // in place, only the ghost rows written (was: every array rebuilt into a new block)
    s.per_atom.edit_all(RowEdit{(int) n, nlocal, 0, nullptr, nullptr, 0, nullptr, 0, 0});
    if (nghost > 0) {
      ghost_unpack_kernel<<<blocks(nghost), BLOCK>>>(
          nghost, nlocal, s.ghost_rec.get(), border_width(), s.x[0].get(), s.x[1].get(),
          s.x[2].get(), s.tag.get(), s.type.get(), s.mask.get(), border_molecule(s));
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    s.n = (int) n;
    s.nlocal = nlocal;
    if (n > 0) {
      pos_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(),
                                         s.type.get(), s.pos.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      iota_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.order.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    // the identity (no sort on several ranks). Without a sort since this engine was made
    // (upload_atoms and this function write the identity, only a sort changes it) the rows
    // it has are the identity already and only new rows are written: the loop over all
    // rows (~10 M ints, a few ms on the host) ran at every rebuild
    const int had = s.sorts_done == 0 ? (int) std::min(s.order_host.size(), (size_t) s.n) : 0;
    s.order_host.resize(s.n);
    for (int i = had; i < s.n; ++i) s.order_host[i] = i;
    // per-atom arrays outside the registry, sized by the rows
    // (with slack: a growth by a few atoms would free and allocate it at each rebuild)
    if ((size_t) s.n > s.nnbr.capacity()) s.nnbr.resize((size_t) s.n + s.n / 64 + 256);
    s.nnbr.resize(s.n);
    // the bonded and special lists of the new rows: made from the owned atoms' topology
    // rows by resolve_topology, which the caller runs next (molecular atom styles; the
    // list build refuses to run before it); else there are none
    if (s.owned_topology) {
      s.lists_stale = true;
    } else {
      s.maxbond = s.maxangle = s.maxdihedral = 0;
      s.release_topology();
    }
    for (auto &st : s.ev) st.valid = st.per_atom_valid = false;
    s.ev_valid = s.per_atom_ev_valid = false;
    s.built = false;
    s.sort_every = 0;
  }

  void Engine::download_ids(int *tag, int *type, int *mask) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.nlocal;    // no sort on several ranks: device order is LAMMPS order
    if (tag && s.tag.size() >= (size_t) n) s.tag.download(tag, n);
    if (type) s.type.download(type, n);
    if (mask) s.mask.download(mask, n);
  }

}    // namespace cuda
}    // namespace mesogpu
