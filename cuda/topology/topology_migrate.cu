/* mesogpu: molecular atoms on a reneighbouring step on the device on several MPI ranks
 * (engine.h, OwnedTopologyLayout). The engine's bond, angle, dihedral and special lists
 * hold device rows, which mean nothing once atoms moved between ranks; what moves with an
 * atom is LAMMPS's own topology of it (partners as atom IDs, one row of ints per atom,
 * core/per_atom_migrate.cu: rowmajor_migration). Once the ghosts are known (border_finish) the
 * lists of every device row are made again from those rows, as the host path builds them
 * from LAMMPS's arrays (src/cuda/device_topology.cpp):
 *   - every partner's ID found among the rows (the (tag, row) pairs sorted with CUB),
 *     the image closest to the atom that stores the term (Domain::closest_image);
 *   - the atoms that list a term: with newton_bond (a term stored once) every atom of
 *     it, ghost rows too (their forces go back with the reverse exchange); without, the
 *     atom that stores it;
 *   - each row's entries in the order of the terms (storing atom, slot): the entries of
 *     all terms (slot order) sorted by the listing row with a stable radix sort, so the
 *     forces sum in the host path's order.
 * A bond, angle or dihedral partner that is no row is an error naming both atoms; a
 * special partner that is none is -1 (no neighbour anyway), as on the host. */

#include "core/engine_impl.cuh"
#include "topology/closest_row.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>

#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    using mesogpu::topology::closest_row;

    // a missing partner: [0] set once, [1] kind (1 bond, 2 angle, 3 dihedral), [2] the
    // storing atom's ID, [3] the partner's ID
    __device__ void report_missing(int *status, int kind, int owner_tag, int partner_tag)
    {
      if (atomicCAS(status, 0, 1) == 0) {
        status[1] = kind;
        status[2] = owner_tag;
        status[3] = partner_tag;
      }
    }

    struct Rows {
      const unsigned *sorted_tag;
      const int *sorted_row;
      int n;
      const acc *x, *y, *z;
      __device__ int find(int tag, int i) const
      {
        return closest_row(static_cast<unsigned>(tag), sorted_tag, sorted_row, n, x, y, z,
                           static_cast<double>(x[i]), static_cast<double>(y[i]),
                           static_cast<double>(z[i]));
      }
    };

    __global__ void tag_pairs_kernel(int n, const int *tag, unsigned *key, int *row)
    {
      const int r = blockIdx.x * blockDim.x + threadIdx.x;
      if (r >= n) return;
      key[r] = static_cast<unsigned>(tag[r]);
      row[r] = r;
    }

    // the terms of one kind, one thread per (owned atom i, slot k < per_atom): its atoms'
    // rows (term_rows[4 term ..]) and for each of its `nper` entries the listing row
    // (key; `none` for no entry), the count of each listing row
    struct TermKind {
      int kind;        // 1 bond, 2 angle, 3 dihedral
      int nper;        // atoms per term
      int per_atom;    // slots per atom in the row
      int off_num;     // the count's place in a row
      int off_type;    // the types' place
      int off_atom;    // the atoms' place (bonds: the partner, 1 per slot; else nper)
    };

    __global__ void terms_kernel(int nlocal, int width, const int *owned, const int *tag, Rows rows,
                                 TermKind t, bool newton, int none, int *term_rows, int *key,
                                 int *slot, int *count, int *status)
    {
      const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      if (e >= (long long) nlocal * t.per_atom) return;
      const int i = (int) (e / t.per_atom), k = (int) (e % t.per_atom);
      const int *row = owned + (size_t) i * width;
      const long long term = e;
      int atoms[4] = {-1, -1, -1, -1};
      bool valid = k < row[t.off_num] && row[t.off_type + k] > 0;    // type <= 0: turned off
      if (valid) {
        if (t.kind == 1) {
          atoms[0] = i;
          atoms[1] = rows.find(row[t.off_atom + k], i);
          if (atoms[1] < 0) {
            report_missing(status, t.kind, tag[i], row[t.off_atom + k]);
            valid = false;
          }
        } else {
          for (int a = 0; a < t.nper && valid; ++a) {
            const int id = row[t.off_atom + t.nper * k + a];
            atoms[a] = rows.find(id, i);
            if (atoms[a] < 0) {
              report_missing(status, t.kind, tag[i], id);
              valid = false;
            }
          }
        }
      }
      for (int a = 0; a < 4; ++a) term_rows[4 * term + a] = atoms[a];
      for (int a = 0; a < t.nper; ++a) {
        // newton_bond: every atom of the term lists it; else the atom that stores it
        int lister = none;
        if (valid) lister = newton ? atoms[a] : (a == 0 ? i : none);
        key[t.nper * term + a] = lister;
        slot[t.nper * term + a] = (int) (t.nper * term + a);
        if (lister != none) atomicAdd(&count[lister], 1);
      }
    }

    // entry p of the sorted entries (p < the number of entries) into its row's lists:
    // bonds the other atom and the type, angles the int4 (atoms, type), dihedrals the int4
    // of atoms and the type; column-major (entry m of row r at [m n + r])
    __global__ void scatter_kernel(int nentries, int n, int width, const int *owned, TermKind t,
                                   const int *key, const int *slot, const int *start,
                                   const int *term_rows, int *out_int, int *out_type,
                                   int4 *out_int4)
    {
      const int p = blockIdx.x * blockDim.x + threadIdx.x;
      if (p >= nentries) return;
      const int r = key[p];
      const int m = p - start[r];
      const int sl = slot[p];
      const long long term = sl / t.nper;
      const int a = sl % t.nper;
      const int i = (int) (term / t.per_atom), k = (int) (term % t.per_atom);
      const int type = owned[(size_t) i * width + t.off_type + k];
      const int *e = term_rows + 4 * term;
      const size_t at = (size_t) m * n + r;
      if (t.kind == 1) {
        out_int[at] = a == 0 ? e[1] : e[0];
        out_type[at] = type;
      } else if (t.kind == 2) {
        out_int4[at] = make_int4(e[0], e[1], e[2], type);
      } else {
        out_int4[at] = make_int4(e[0], e[1], e[2], e[3]);
        out_type[at] = type;
      }
    }

    // nspecial of every row (ghosts: none) and the 1-3 total per row
    __global__ void special_count_kernel(int n, int nlocal, int width, int off_nspecial,
                                         const int *owned, int *nspecial, int *count)
    {
      const int r = blockIdx.x * blockDim.x + threadIdx.x;
      if (r >= n) return;
      for (int c = 0; c < 3; ++c)
        nspecial[3 * r + c] = r < nlocal ? owned[(size_t) r * width + off_nspecial + c] : 0;
      count[r] = r < nlocal ? owned[(size_t) r * width + off_nspecial + 2] : 0;
    }

    // special[r ms + s]: the closest row of the partner, -1 past the count, for ghosts and
    // for partners that are no row (beyond the ghost cutoff: no neighbour)
    __global__ void special_kernel(int n, int nlocal, int width, int off_nspecial, int off_special,
                                   const int *owned, Rows rows, int ms, int *special)
    {
      const long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      if (e >= (long long) n * ms) return;
      const int r = (int) (e / ms), s = (int) (e % ms);
      int out = -1;
      if (r < nlocal) {
        const int *row = owned + (size_t) r * width;
        if (s < row[off_nspecial + 2]) out = rows.find(row[off_special + s], r);
      }
      special[e] = out;
    }

    __global__ void gather_double_kernel(int n, const int *src, const double *in, double *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = in[src[i]];
    }

    // bits of the sort keys 0 .. n (n: no entry)
    inline int key_bits(int n)
    {
      int bits = 1;
      while ((1LL << bits) <= (long long) n) ++bits;
      return bits;
    }

    // the array sized to n, with slack when it grows: the row counts change a little at
    // every rebuild, and each small growth would free and allocate the block again
    template <typename T> void sized(DeviceArray<T> &a, size_t n)
    {
      if (n > a.capacity()) a.resize(n + n / 64 + 256);
      a.resize(n);
    }

    // the largest of n ints (into res_status[4], one read)
    int max_of(Engine::Impl &s, const int *a, int n)
    {
      if (n <= 0) return 0;
      int *out = s.res_status.get() + 4;
      size_t bytes = 0;
      MESOGPU_CUDA_CALL(cub::DeviceReduce::Max(nullptr, bytes, a, out, n));
      if (s.res_scratch.size() < bytes) s.res_scratch.resize(bytes);
      MESOGPU_CUDA_CALL(cub::DeviceReduce::Max(s.res_scratch.get(), bytes, a, out, n));
      int m = 0;
      MESOGPU_CUDA_CALL(cudaMemcpy(&m, out, sizeof(int), cudaMemcpyDeviceToHost));
      return m;
    }

    // the lists of one kind for every row: counts into `counts` (n), entries sorted by row,
    // scattered column-major; returns the most entries of a row
    int make_lists(Engine::Impl &s, const TermKind &t, const Rows &rows, DeviceArray<int> &counts,
                   DeviceArray<int> *out_int, DeviceArray<int> *out_type,
                   DeviceArray<int4> *out_int4)
    {
      const int n = s.n, nlocal = s.nlocal, width = s.owned_layout.width;
      sized(counts, n);
      counts.zero();
      const long long nterm = (long long) nlocal * t.per_atom;
      const long long nslot = nterm * t.nper;
      if (nslot > 0x7fffffffLL)
        throw std::runtime_error("mesogpu: resolve_topology: " + std::to_string(nslot) +
                                 " bonded entries on one rank (at most 2^31)");
      int maxn = 0;
      if (nslot > 0) {
        sized(s.res_term_rows, (size_t) nterm * 4);
        sized(s.res_key, nslot);
        sized(s.res_slot, nslot);
        sized(s.res_key_sorted, nslot);
        sized(s.res_slot_sorted, nslot);
        terms_kernel<<<blocks64(nterm), BLOCK>>>(
            nlocal, width, s.owned_rows.get(), s.tag.get(), rows, t, s.owned_layout.newton_bond, n,
            s.res_term_rows.get(), s.res_key.get(), s.res_slot.get(), counts.get(),
            s.res_status.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
        // stable: a row's entries stay in slot order (storing atom, slot, position)
        size_t bytes = 0;
        const int bits = key_bits(n);
        MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
            nullptr, bytes, s.res_key.get(), s.res_key_sorted.get(), s.res_slot.get(),
            s.res_slot_sorted.get(), (int) nslot, 0, bits));
        if (s.res_scratch.size() < bytes) s.res_scratch.resize(bytes);
        MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
            s.res_scratch.get(), bytes, s.res_key.get(), s.res_key_sorted.get(), s.res_slot.get(),
            s.res_slot_sorted.get(), (int) nslot, 0, bits));
        maxn = max_of(s, counts.get(), n);
      }
      // column-major lists of maxn entries per row (unused entries 0, as the host's)
      const size_t cells = (size_t) maxn * n;
      if (out_int) {
        sized(*out_int, cells);
        out_int->zero();
      }
      if (out_type) {
        sized(*out_type, cells);
        out_type->zero();
      }
      if (out_int4) {
        sized(*out_int4, cells);
        out_int4->zero();
      }
      if (maxn == 0) return 0;
      // where each row's entries start among the sorted ones
      sized(s.res_start, n);
      const int nentries = exclusive_scan_total(s.res_scratch, counts.get(), s.res_start.get(), n);
      if (nentries > 0) {
        scatter_kernel<<<blocks(nentries), BLOCK>>>(
            nentries, n, width, s.owned_rows.get(), t, s.res_key_sorted.get(),
            s.res_slot_sorted.get(), s.res_start.get(), s.res_term_rows.get(),
            out_int ? out_int->get() : nullptr, out_type ? out_type->get() : nullptr,
            out_int4 ? out_int4->get() : nullptr);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      return maxn;
    }

  }    // namespace

  void Engine::upload_owned_topology(const OwnedTopologyLayout &layout, const int *rows,
                                     const double *q)
  {
    Impl &s = *impl;
    OwnedTopologyLayout l = layout;
    l.finish();
    const int width = l.width;
    // the rows move with the atoms (their records); no sort runs on several ranks, but a
    // registered array follows one
    s.per_atom.add(
        "topology rows",
        [&s](const Permutation &p) {
          if (s.owned_rows.size()) permute_rowmajor(s.owned_rows, s.owned_layout.width, false, p);
        },
        rowmajor_migration(&s.owned_rows, width));
    AllocLabel label("the topology rows of the owned atoms");
    s.owned_layout = l;
    s.owned_topology = true;
    // owned rows from the host, ghost rows zero
    s.owned_rows.resize((size_t) s.n * width);
    s.owned_rows.zero();
    if (s.nlocal > 0 && width > 0)
      MESOGPU_CUDA_CALL(cudaMemcpy(s.owned_rows.get(), rows,
                                   (size_t) s.nlocal * width * sizeof(int),
                                   cudaMemcpyHostToDevice));
    if (q) {
      s.per_atom.add(
          "q",
          [&s](const Permutation &p) {
            if (!s.owned_q.size()) return;
            DeviceArray<double> out;
            out.resize(p.n);
            gather_double_kernel<<<blocks(p.n), BLOCK>>>(p.n, p.src, s.owned_q.get(), out.get());
            MESOGPU_CUDA_LAUNCH_CHECK();
            s.owned_q.swap(out);
          },
          rowmajor_migration(&s.owned_q, 1));
      s.owned_q.resize(s.n);
      s.owned_q.zero();
      if (s.nlocal > 0)
        MESOGPU_CUDA_CALL(cudaMemcpy(s.owned_q.get(), q, (size_t) s.nlocal * sizeof(double),
                                     cudaMemcpyHostToDevice));
    } else {
      s.owned_q.release();    // an empty array migrates as nothing
    }
  }

  bool Engine::has_owned_topology() const
  {
    return impl->owned_topology;
  }

  const OwnedTopologyLayout &Engine::owned_topology_layout() const
  {
    return impl->owned_layout;
  }

  void Engine::download_owned_topology(int *rows, double *q) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    if (!s.owned_topology) throw std::logic_error("mesogpu: no topology rows on the device");
    if (rows) s.owned_rows.download(rows, (size_t) s.nlocal * s.owned_layout.width);
    if (q && s.owned_q.size()) s.owned_q.download(q, s.nlocal);
  }

  void Engine::download_lists(HostLists &out) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.n;
    out = HostLists();
    out.maxspecial = s.maxspecial;
    if (s.maxspecial > 0) {
      out.nspecial.resize(3 * (size_t) n);
      out.special.resize((size_t) n * s.maxspecial);
      s.nspecial.download(out.nspecial.data(), out.nspecial.size());
      s.special.download(out.special.data(), out.special.size());
    }
    // column-major on the device (entry k of row i at [k n + i])
    auto rows_of = [n](const std::vector<int> &col, int width, int max) {
      std::vector<int> row((size_t) n * max * width, 0);
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < max; ++k)
          for (int a = 0; a < width; ++a)
            row[((size_t) i * max + k) * width + a] = col[((size_t) k * n + i) * width + a];
      return row;
    };
    auto counts = [n](const DeviceArray<int> &a, std::vector<int> &c) {
      if (a.size() < (size_t) n) return false;
      c.resize(n);
      a.download(c.data(), n);
      return true;
    };
    if (counts(s.nbond, out.nbond)) {
      out.maxbond = s.maxbond;
      std::vector<int> p((size_t) n * s.maxbond), t(p.size());
      s.bond_partner.download(p.data(), p.size());
      s.bond_type.download(t.data(), t.size());
      out.bond_partner = rows_of(p, 1, s.maxbond);
      out.bond_type = rows_of(t, 1, s.maxbond);
    }
    if (counts(s.nangle, out.nangle)) {
      out.maxangle = s.maxangle;
      std::vector<int4> a((size_t) n * s.maxangle);
      s.angle_atoms.download(a.data(), a.size());
      std::vector<int> atoms(3 * a.size()), type(a.size());
      for (size_t e = 0; e < a.size(); ++e) {
        atoms[3 * e] = a[e].x;
        atoms[3 * e + 1] = a[e].y;
        atoms[3 * e + 2] = a[e].z;
        type[e] = a[e].w;
      }
      out.angle_atoms = rows_of(atoms, 3, s.maxangle);
      out.angle_type = rows_of(type, 1, s.maxangle);
    }
    if (counts(s.ndihedral, out.ndihedral)) {
      out.maxdihedral = s.maxdihedral;
      std::vector<int4> a((size_t) n * s.maxdihedral);
      std::vector<int> type(a.size());
      s.dihedral_atoms.download(a.data(), a.size());
      s.dihedral_type.download(type.data(), type.size());
      std::vector<int> atoms(4 * a.size());
      for (size_t e = 0; e < a.size(); ++e) {
        atoms[4 * e] = a[e].x;
        atoms[4 * e + 1] = a[e].y;
        atoms[4 * e + 2] = a[e].z;
        atoms[4 * e + 3] = a[e].w;
      }
      out.dihedral_atoms = rows_of(atoms, 4, s.maxdihedral);
      out.dihedral_type = rows_of(type, 1, s.maxdihedral);
    }
  }

  void Engine::resolve_topology()
  {
    Impl &s = *impl;
    if (!s.owned_topology) throw std::logic_error("mesogpu: resolve_topology: no topology rows");
    AllocLabel label("the bonded lists of a rebuild");
    const OwnedTopologyLayout &l = s.owned_layout;
    const int n = s.n;
    // every row's tag, sorted with its row (stable: images of one atom by row)
    sized(s.res_tag, n);
    sized(s.res_row, n);
    sized(s.res_tag_sorted, n);
    sized(s.res_row_sorted, n);
    s.res_status.resize(8);    // [0..3] a missing partner, [4] a maximum
    s.res_status.zero();
    if (n > 0) {
      tag_pairs_kernel<<<blocks(n), BLOCK>>>(n, s.tag.get(), s.res_tag.get(), s.res_row.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      size_t bytes = 0;
      MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(nullptr, bytes, s.res_tag.get(),
                                                        s.res_tag_sorted.get(), s.res_row.get(),
                                                        s.res_row_sorted.get(), n));
      if (s.res_scratch.size() < bytes) s.res_scratch.resize(bytes);
      MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(s.res_scratch.get(), bytes, s.res_tag.get(),
                                                        s.res_tag_sorted.get(), s.res_row.get(),
                                                        s.res_row_sorted.get(), n));
    }
    const Rows rows{s.res_tag_sorted.get(), s.res_row_sorted.get(), n,
                    s.x[0].get(),           s.x[1].get(),           s.x[2].get()};

    // special neighbours of the owned rows (ghost rows: none)
    {
      sized(s.res_count, n);
      sized(s.nspecial, 3 * (size_t) n);
      if (n > 0) {
        special_count_kernel<<<blocks(n), BLOCK>>>(n, s.nlocal, l.width, l.NSPECIAL,
                                                   s.owned_rows.get(), s.nspecial.get(),
                                                   s.res_count.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      const int ms = l.maxspecial > 0 ? max_of(s, s.res_count.get(), n) : 0;
      s.maxspecial = ms;
      if (ms > 0) {
        sized(s.special, (size_t) n * ms);
        special_kernel<<<blocks64((long long) n * ms), BLOCK>>>(n, s.nlocal, l.width, l.NSPECIAL,
                                                                l.special, s.owned_rows.get(), rows,
                                                                ms, s.special.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
      } else {
        s.nspecial.resize(0);
      }
    }

    // (the lists of a kind the run has are remade in their blocks; others stay empty)
    s.maxbond = s.maxangle = s.maxdihedral = 0;
    if (!l.bonds) {
      s.nbond.release();
      s.bond_partner.release();
      s.bond_type.release();
    }
    if (!l.angles) {
      s.nangle.release();
      s.angle_atoms.release();
    }
    if (!l.dihedrals) {
      s.ndihedral.release();
      s.dihedral_atoms.release();
      s.dihedral_type.release();
    }
    if (l.bonds) {
      const TermKind t{1, 2, l.bond_per_atom, l.NUM_BOND, l.bond_type, l.bond_atom};
      s.maxbond = make_lists(s, t, rows, s.nbond, &s.bond_partner, &s.bond_type, nullptr);
    }
    if (l.angles) {
      const TermKind t{2, 3, l.angle_per_atom, l.NUM_ANGLE, l.angle_type, l.angle_atom};
      s.maxangle = make_lists(s, t, rows, s.nangle, nullptr, nullptr, &s.angle_atoms);
    }
    if (l.dihedrals) {
      const TermKind t{3, 4, l.dihedral_per_atom, l.NUM_DIHEDRAL, l.dihedral_type, l.dihedral_atom};
      s.maxdihedral =
          make_lists(s, t, rows, s.ndihedral, nullptr, &s.dihedral_type, &s.dihedral_atoms);
    }

    s.lists_stale = false;
    int status[4] = {0, 0, 0, 0};
    s.res_status.download(status, 4);
    if (status[0]) {
      const char *what = status[1] == 1 ? "bond" : status[1] == 2 ? "angle" : "dihedral";
      throw std::runtime_error(std::string(what) + " atom missing: the " + what + " of atom " +
                               std::to_string(status[2]) + " refers to atom " +
                               std::to_string(status[3]) +
                               ", which is neither owned nor a ghost on this rank after a "
                               "reneighbouring step on the device (raise comm_modify cutoff)");
    }
  }

}    // namespace cuda
}    // namespace mesogpu
