/* mesogpu: a reneighbouring step of a resident run on several MPI ranks on the device
 * (see engine.h, "several MPI ranks, a reneighbouring step on the device"): Domain::pbc()
 * of the owned rows, CommBrick::exchange()'s selection of the atoms that leave, their
 * records packed from every registered per-atom array and the arrays edited in place for
 * the staying rows (order kept) and the arrivals (core/per_atom.cuh: Migrate, carried out
 * in core/per_atom_migrate.cu), and CommBrick::borders()'s per-swap selection (rows in
 * order, so the send lists are LAMMPS's) with AtomVec::pack_border's records (x + shift,
 * tag, type, mask; the molecule ID while molecule exclusions read the ghosts'). Selections
 * are one ordered cub::DeviceSelect pass over the rows (deterministic), the count copied
 * down with the rows or the other swap's count. Molecular atoms carry LAMMPS's topology
 * rows (atom IDs), from which border_finish makes the bonded lists again
 * (topology/topology_migrate.cu). The messages, the swap table and the order of the swaps
 * are the host's (src/cuda/device_rebuild.cpp). */

#include "core/engine_impl.cuh"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    // a scratch array sized to n elements, contents not kept; a block too small is
    // replaced by one 1/16 larger (the counts creep up over the rebuilds, and each new
    // block costs a cudaMalloc and a synchronising cudaFree)
    template <class T> void size_scratch(DeviceArray<T> &a, size_t n)
    {
      if (n > a.capacity()) a.resize(n + n / 16 + 1024);
      a.resize(n);
    }

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

    // CommBrick::exchange's test: row i leaves (x[dim] outside [lo, hi))
    struct OutsideSlab {
      const acc *x;
      double lo, hi;
      __device__ bool operator()(int i) const
      {
        const double v = static_cast<double>(x[i]);
        return v < lo || v >= hi;
      }
    };

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

    // CommBrick::borders' test: candidate row j lies in the swap's slab (lo <= x[dim] <= hi)
    struct InSlab {
      int nlocal, dim, width;
      double lo, hi;
      const acc *x0, *x1, *x2;
      const double *ghost;
      __device__ bool operator()(int j) const
      {
        const acc *x[3] = {x0, x1, x2};
        const double v = row_coord(j, dim, nlocal, x, ghost, width);
        return v >= lo && v <= hi;
      }
    };

    // the rows of [first, first + count) that pass `pred`, in order, into out; their count
    // into *selected (device). One pass over the rows (was: flags, a scan, a scatter)
    template <class Pred>
    void select_rows(DeviceArray<char> &scratch, int first, int count, Pred pred, int *out,
                     int *selected)
    {
      thrust::counting_iterator<int> rows(first);
      size_t bytes = 0;
      MESOGPU_CUDA_CALL(cub::DeviceSelect::If(nullptr, bytes, rows, out, selected, count, pred));
      size_scratch(scratch, bytes);
      MESOGPU_CUDA_CALL(
          cub::DeviceSelect::If(scratch.get(), bytes, rows, out, selected, count, pred));
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

  namespace {
    __global__ void scan_total_kernel(const int *in, const int *out, int n, int *total)
    {
      *total = out[n - 1] + in[n - 1];
    }
  }    // namespace

  // the total in one copy to the host (was two, each a wait)
  int exclusive_scan_total(DeviceArray<char> &scratch, const int *in, int *out, int n)
  {
    if (n <= 0) return 0;
    size_t bytes = 0;
    MESOGPU_CUDA_CALL(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
    const size_t at = (bytes + 15) / 16 * 16;    // the total after CUB's temporary bytes
    size_scratch(scratch, at + sizeof(int));
    MESOGPU_CUDA_CALL(cub::DeviceScan::ExclusiveSum(scratch.get(), bytes, in, out, n));
    int *total = reinterpret_cast<int *>(scratch.get() + at);
    scan_total_kernel<<<1, 1>>>(in, out, n, total);
    MESOGPU_CUDA_LAUNCH_CHECK();
    int host = 0;
    MESOGPU_CUDA_CALL(cudaMemcpy(&host, total, sizeof(int), cudaMemcpyDeviceToHost));
    return host;
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
    s.mig_nsel_next = -1;
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
    std::vector<int> leave;
    if (n > 0) {
      // the leaving rows in order, their count first (mig_leave[0]); one copy down of the
      // count and room for as many rows as have left lately (the rest, rarely, a second)
      size_scratch(s.mig_leave, (size_t) n + 1);
      select_rows(s.mig_scratch, 0, n, OutsideSlab{s.x[dim].get(), lo, hi}, s.mig_leave.get() + 1,
                  s.mig_leave.get());
      const int cap = std::min(s.mig_leave_cap, n);
      int *host = s.mig_host.reserve((size_t) cap + 1);
      MESOGPU_CUDA_CALL(cudaMemcpyAsync(host, s.mig_leave.get(), ((size_t) cap + 1) * sizeof(int),
                                        cudaMemcpyDeviceToHost, 0));
      MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
      const int found = host[0];
      leave.assign(host + 1, host + 1 + std::min(found, cap));
      if (found > cap) {
        leave.resize(found);
        MESOGPU_CUDA_CALL(cudaMemcpy(leave.data() + cap, s.mig_leave.get() + 1 + cap,
                                     (size_t) (found - cap) * sizeof(int), cudaMemcpyDeviceToHost));
      }
      // (never less: the dimensions take turns, and most of them see no leaver)
      s.mig_leave_cap = std::max(s.mig_leave_cap, found + found / 2 + 1024);
    }
    const int nleave = static_cast<int>(leave.size());
    s.mig_nkeep = n - nleave;
    s.mig_nmove = 0;
    count = nleave;
    const int w = s.per_atom.record_width();
    double *records = exchange_buffer(0, (size_t) nleave * w);
    if (nleave == 0) return records;    // most dimensions of most rebuilds: nothing else
    std::vector<int> order, dst, src;
    replay_exchange(leave, n, order, dst, src);
    // one upload from page-locked memory: the send order, then the holes and the rows
    // that fill them (queued: the pack and the records' copy down follow on the stream)
    const int nmove = static_cast<int>(dst.size());
    order.insert(order.end(), dst.begin(), dst.end());
    order.insert(order.end(), src.begin(), src.end());
    int *staged = s.mig_host.reserve(order.size());
    std::copy(order.begin(), order.end(), staged);
    size_scratch(s.mig_keep, order.size());
    MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.mig_keep.get(), staged, order.size() * sizeof(int),
                                      cudaMemcpyHostToDevice, 0));
    s.mig_nmove = nmove;
    size_scratch(s.mig_rec, (size_t) nleave * w);
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
    if (count > 0) {
      size_scratch(s.mig_rec, (size_t) count * w);
      MESOGPU_CUDA_CALL(cudaMemcpy(s.mig_rec.get(), records, (size_t) count * w * sizeof(double),
                                   cudaMemcpyHostToDevice));
    }
    const int nleave = s.nlocal - s.mig_nkeep, nmove = s.mig_nmove;
    // in place: the leavers' holes filled from the end, the arrivals appended (was: every
    // per-atom array rebuilt into a new block, three times per rebuild)
    const int *moves = s.mig_keep.get() + nleave;
    s.per_atom.edit_all(RowEdit{(int) n, s.mig_nkeep, nmove, nmove ? moves : nullptr,
                                nmove ? moves + nmove : nullptr, count, s.mig_rec.get(), 0, 0});
    s.mig_nmove = 0;
    s.n = s.nlocal = (int) n;
  }

  namespace {
    // the selected rows appended to the send index on the device (was: downloaded into a
    // host vector, which take_plan then uploaded again: 2.4 ms of selection per rebuild at
    // 8.2 M atoms per rank on two H200s, most of it these copies through pageable memory)
    void append_to_send_index(Engine::Impl &s, const int *sel, int nsel)
    {
      if (nsel > 0) {
        AllocLabel plan_label("the ghost exchange plan");
        const size_t at = s.border_send_count;
        grow_keep(s.border_send, at + nsel, at);
        MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.border_send.get() + at, sel,
                                          (size_t) nsel * sizeof(int), cudaMemcpyDeviceToDevice,
                                          0));
      }
      s.border_send_count += nsel;
    }
  }    // namespace

  int Engine::border_select(int dim, const double lo[2], const double hi[2], int nfirst, int nlast)
  {
    Impl &s = *impl;
    const int count = nlast - nfirst;
    if (dim < 0 || dim > 2 || nfirst < 0 || count < 0 || nlast > s.nlocal + s.mig_nghost)
      throw std::logic_error("mesogpu: border_select: rows " + std::to_string(nfirst) + " .. " +
                             std::to_string(nlast) + " outside the " +
                             std::to_string(s.nlocal + s.mig_nghost));
    if (s.mig_nsel_next >= 0)
      throw std::logic_error(
          "mesogpu: border_select: the second swap of the last pair was not taken");
    AllocLabel label("the ghost selection of a rebuild");
    s.mig_nsel = 0;
    s.mig_nsel_next = 0;
    if (count == 0) return 0;
    size_scratch(s.mig_sel, count);
    size_scratch(s.mig_sel_next, count);
    s.mig_sel_count.resize(2);
    // a pass over the candidates per swap, both counts down in one copy (a swap with an
    // empty slab, lo > hi, selects nothing and needs no pass)
    int *sel[2] = {s.mig_sel.get(), s.mig_sel_next.get()};
    for (int k = 0; k < 2; ++k) {
      if (lo[k] > hi[k]) {
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.mig_sel_count.get() + k, 0, sizeof(int), 0));
        continue;
      }
      select_rows(s.mig_scratch, nfirst, count,
                  InSlab{s.nlocal, dim, border_width(), lo[k], hi[k], s.x[0].get(), s.x[1].get(),
                         s.x[2].get(), s.ghost_rec.get()},
                  sel[k], s.mig_sel_count.get() + k);
    }
    int both[2] = {0, 0};
    MESOGPU_CUDA_CALL(
        cudaMemcpy(both, s.mig_sel_count.get(), 2 * sizeof(int), cudaMemcpyDeviceToHost));
    const int nsel = both[0], nnext = both[1];
    append_to_send_index(s, s.mig_sel.get(), nsel);
    s.mig_nsel = nsel;
    s.mig_nsel_next = nnext;
    return nsel;
  }

  int Engine::border_select_second()
  {
    Impl &s = *impl;
    if (s.mig_nsel_next < 0)
      throw std::logic_error("mesogpu: border_select_second: no pair selected");
    s.mig_sel.swap(s.mig_sel_next);
    s.mig_nsel = s.mig_nsel_next;
    s.mig_nsel_next = -1;
    append_to_send_index(s, s.mig_sel.get(), s.mig_nsel);
    return s.mig_nsel;
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
        size_scratch(s.mig_rec, (size_t) count * w);
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
