/* mesogpu: the full neighbour list's builds from the cell list, by atom and by cell
 * (Engine::build_neighbor_list in neighbor/neighbor_list.cu chooses and launches them). */

#include "neighbor/cell_entry.h"
#include "neighbor/list_build.cuh"
#include <type_traits>

namespace mesogpu {
namespace cuda {

  namespace {

    // a neighbour cell's index c (cell + offset, at most one cell outside 0..nc-1) wrapped
    // into the grid, and the shift of its atoms' image: -prd below, +prd above, 0 inside.
    // Branches, not wrap_cell() of cell_entry.h and a select: every such form tried (nvcc
    // 13, sm_90) changed the registers of the build kernels, some up by 5 to 11
    __device__ __forceinline__ real wrap_cell_shift(int &c, int nc, real prd)
    {
      if (c < 0) {
        c += nc;
        return -prd;
      }
      if (c >= nc) {
        c -= nc;
        return prd;
      }
      return real(0);
    }

    // a cell of the stencil as both builds read it: its atoms (m of them, their rows and
    // positions) and atom i's position less the cell's image shift (ByCell), once per cell
    struct StencilCell {
      int m;
      const int *atoms;
      const PosType<real> *pos;
      real qx, qy, qz;
    };

    // the stencil of both builds: the cells at offsets lo..hi (each -1, 0 or +1) around
    // cell (cx, cy, cz), dz slowest and dx fastest (the order of a row's entries);
    // visit(cell, dx, dy, dz) with the wrapped cell's atoms and pi less its image shift
    template <class Visit>
    __device__ __forceinline__ void
    for_each_stencil_cell(const BoxD &box, int3 ncell, int cx, int cy, int cz, int3 lo, int3 hi,
                          const PosType<real> &pi, const int *cell_count, const int *cell_atoms,
                          const PosType<real> *cell_pos, int cell_cap, Visit &&visit)
    {
      for (int dz = lo.z; dz <= hi.z; ++dz) {
        int oz = cz + dz;
        const real sz = wrap_cell_shift(oz, ncell.z, box.prd_r[2]);
        for (int dy = lo.y; dy <= hi.y; ++dy) {
          int oy = cy + dy;
          const real sy = wrap_cell_shift(oy, ncell.y, box.prd_r[1]);
          for (int dx = lo.x; dx <= hi.x; ++dx) {
            int ox = cx + dx;
            const real sx = wrap_cell_shift(ox, ncell.x, box.prd_r[0]);
            const int oc = (oz * ncell.y + oy) * ncell.x + ox;
            const StencilCell cell{min(cell_count[oc], cell_cap),
                                   cell_atoms + (size_t) oc * cell_cap,
                                   cell_pos + (size_t) oc * cell_cap,
                                   pi.x - sx,
                                   pi.y - sy,
                                   pi.z - sz};
            visit(cell, dx, dy, dz);
          }
        }
      }
    }

    // neighbours from the 27 surrounding cells within (cut + skin), special pairs marked
    // or dropped as LAMMPS does; column-major (nbr[k * n + i]) so reads coalesce.
    // Group lanes per atom (Impl::build_group): the lanes test a cell's slots Group at a
    // time and place their hits by a ballot in slot order, so the list is the same as
    // with one lane, entry for entry. Cell: 16-bit cell entries into nbr16
    // (neighbor/cell_entry.h) instead of 32-bit indices into nbr, in the same order.
    // ByCell (by_cell_images): the image of a cell across a periodic side follows from the
    // wrap of its index, and that shift (taken from the atom's position once per cell)
    // replaces the minimum image of each candidate: the same image for every pair within
    // cut + skin, since with 4 or more cells (each at least cut + skin) in a periodic
    // dimension two atoms of adjacent cells are less than half the box apart (with 2 cells
    // the minimum image can be the other one); it saves the three roundings of each
    // candidate.
    template <int Group, bool Cell, bool ByCell>
    __global__ void
    build_neighbors_kernel(int n, int nlocal, const PosType<real> *pos, BoxD box, int3 ncell,
                           const int *cell_of, const int *cell_count, const int *cell_atoms,
                           const PosType<real> *cell_pos, int cell_cap, const real *cutneighsq,
                           int ntp1, const int *nspecial, const int *special, int maxspecial,
                           int4 special_flag, ExclusionD ex, int *nnbr, int *nbr,
                           unsigned short *nbr16, int nbr_cap, int *status, unsigned char *interior)
    {
      static_assert(Group == 1 || (Group >= 2 && Group <= 32 && (Group & (Group - 1)) == 0),
                    "a group is a power of two within a warp");
      const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      const int i = static_cast<int>(t / Group);
      const int lane = static_cast<int>(t % Group);
      // a whole group shares i, so it leaves together (the ballots name the group's lanes)
      if (i >= n) return;
      if (i >= nlocal) {    // a ghost row (several ranks): no list, its owner has one
        if (lane == 0) {
          nnbr[i] = 0;
          if (interior) interior[i] = 0;
        }
        return;
      }
      const int warp_lane = threadIdx.x & 31;
      const unsigned group_mask =
          Group == 32 ? 0xffffffffu : ((1u << Group) - 1) << (warp_lane / Group * Group);
      const unsigned below = (1u << warp_lane) - 1;    // lanes before this one
      const PosType<real> pi = pos[i];
      const int cell = cell_of[i];
      const int cx = cell % ncell.x, cy = (cell / ncell.x) % ncell.y,
                cz = cell / (ncell.x * ncell.y);
      const SpecialLookup spec(nspecial, special, maxspecial, i, special_flag);
      int count = 0;
      bool ghost_neighbour = false;    // a ghost in the list (Impl::interior)
      // the 27 surrounding cells; with 2 cells in a periodic dimension the offsets -1 and
      // +1 name the same cell, so that dimension visits 2 (a box of 2 to 3 cutoffs); a
      // non-periodic dimension stops at its first and last cell (no wrap, no duplicates)
      const int lx = box.periodic[0] || cx > 0 ? -1 : 0, ly = box.periodic[1] || cy > 0 ? -1 : 0,
                lz = box.periodic[2] || cz > 0 ? -1 : 0;
      const int hx = box.periodic[0] ? (ncell.x > 2 ? 1 : 0) : (cx < ncell.x - 1 ? 1 : 0),
                hy = box.periodic[1] ? (ncell.y > 2 ? 1 : 0) : (cy < ncell.y - 1 ? 1 : 0),
                hz = box.periodic[2] ? (ncell.z > 2 ? 1 : 0) : (cz < ncell.z - 1 ? 1 : 0);
      const real *cut_row = cutneighsq + pi.type * ntp1;
      for_each_stencil_cell(
          box, ncell, cx, cy, cz, make_int3(lx, ly, lz), make_int3(hx, hy, hz), pi, cell_count,
          cell_atoms, cell_pos, cell_cap, [&](const StencilCell &cell, int dx, int dy, int dz) {
            // every lane of a group runs the same trips (m is the group's), so the ballots
            // meet
            for (int base = 0; base < cell.m; base += Group) {
              const int k = base + lane;
              bool hit = false;
              int entry = 0;
              if (k < cell.m) {
                const PosType<real> pj = cell.pos[k];
                real ddx, ddy, ddz;
                if constexpr (ByCell) {
                  ddx = cell.qx - pj.x;
                  ddy = cell.qy - pj.y;
                  ddz = cell.qz - pj.z;
                } else {
                  ddx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
                  ddy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
                  ddz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
                }
                const real rsq = ddx * ddx + ddy * ddy + ddz * ddz;
                if (rsq <= cut_row[pj.type]) {
                  const int j = cell.atoms[k];
                  entry = j;
                  hit = j != i && !(ex.active && excluded(ex, i, j, pi.type, pj.type, ntp1)) &&
                        !(spec.any() && !spec.mark(spec.level(j), entry));
                  ghost_neighbour |= hit && j >= nlocal;
                }
              }
              int at = count;
              if constexpr (Group == 1) {
                count += hit;
              } else {
                const unsigned hits = __ballot_sync(group_mask, hit);
                at += __popc(hits & below);
                count += __popc(hits);
              }
              // column k of the list starts at k n: past 2^31 entries at ~30 M atoms
              if (hit && at < nbr_cap) {
                if constexpr (Cell)
                  nbr16[(size_t) at * n + i] =
                      make_cell_entry(k, dx, dy, dz, (entry >> SBBITS) & 3);
                else
                  nbr[(size_t) at * n + i] = entry;
              }
            }
          });
      if constexpr (Group > 1)
        if (interior) ghost_neighbour = __any_sync(group_mask, ghost_neighbour);
      if (lane != 0) return;
      nnbr[i] = count;
      if (interior) interior[i] = !ghost_neighbour;
      if (count > nbr_cap) atomicMax(&status[1], count);
    }

    // The same lists as build_neighbors_kernel (ByCell, one lane per atom), entry for
    // entry, with Lanes lanes per cell instead of per atom: lane l of cell c's group takes
    // the cell's atoms l, l + Lanes, ..., and all lanes walk the same 27 neighbour cells
    // slot by slot, so every lane of a group runs the same trips (no lane waits for a
    // longer cell of another atom) and reads the same candidate (one load for the group,
    // from consecutive slots) where a lane per atom gathers its own. The groups take the
    // cells in the Morton order of the row sort (cell_order): the list columns written at
    // a time then belong to nearby rows, as with a lane per atom in row order. Measured on the GPU
    // machine (bench/RESULTS.md); chosen where the atoms fill the device (one lane per
    // atom) and cells of cut + skin give images by cell.
    template <int Lanes, bool Cell, bool Plain>
    __global__ void
    build_by_cell_kernel(int ncells, const int *cell_order, int nlocal, int n, BoxD box, int3 ncell,
                         const int *cell_count, const int *cell_atoms,
                         const PosType<real> *cell_pos, int cell_cap, const real *cutneighsq,
                         int ntp1, real uniform_cutsq, const int *nspecial, const int *special,
                         int maxspecial, int4 special_flag, ExclusionD ex, int *nnbr, int *nbr,
                         unsigned short *nbr16, int nbr_cap, int *status, unsigned char *interior)
    {
      static_assert(Lanes >= 4 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0,
                    "a cell's group is a power of two within a warp");
      const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      const int g = static_cast<int>(t / Lanes);
      const int lane = static_cast<int>(t % Lanes);
      if (g >= ncells) return;    // the whole group
      const int c = cell_order[g];
      const unsigned group_mask =
          Lanes == 32 ? 0xffffffffu : ((1u << Lanes) - 1) << ((threadIdx.x & 31) / Lanes * Lanes);
      const int mine = min(cell_count[c], cell_cap);
      const int cx = c % ncell.x, cy = (c / ncell.x) % ncell.y, cz = c / (ncell.x * ncell.y);
      // the stencil of build_neighbors_kernel with 4 or more cells per periodic dimension
      const int lx = box.periodic[0] || cx > 0 ? -1 : 0, ly = box.periodic[1] || cy > 0 ? -1 : 0,
                lz = box.periodic[2] || cz > 0 ? -1 : 0;
      const int hx = box.periodic[0] || cx < ncell.x - 1 ? 1 : 0,
                hy = box.periodic[1] || cy < ncell.y - 1 ? 1 : 0,
                hz = box.periodic[2] || cz < ncell.z - 1 ? 1 : 0;
      for (int first = 0; first < mine; first += Lanes) {
        const int slot = first + lane;
        int i = -1;
        PosType<real> pi{};
        if (slot < mine) {
          i = cell_atoms[(size_t) c * cell_cap + slot];
          pi = cell_pos[(size_t) c * cell_cap + slot];
        }
        const bool owned = i >= 0 && i < nlocal;
        if (i >= nlocal) {    // a ghost row (several ranks): no list, its owner has one
          nnbr[i] = 0;
          if (interior) interior[i] = 0;
        }
        if (!__any_sync(group_mask, owned)) continue;    // a chunk of ghosts only
        const SpecialLookup spec(owned ? nspecial : nullptr, special, maxspecial, i, special_flag);
        const real *cut_row = cutneighsq + (owned ? pi.type : 0) * ntp1;
        // a lane without an owned atom takes no pair: its cutoff is negative
        const real lane_uniform_cutsq = owned ? uniform_cutsq : real(-1);
        const bool filtered = owned && (ex.active || spec.any());
        size_t at = owned ? static_cast<size_t>(i) : 0;    // entry `count` of row i
        int count = 0, ghost_neighbour = 0;
        // the candidate's row is read for the entry, the filters or the ghost flag (tested
        // here, not in the stencil's lambda: there it took the filtered Cell kernels from 72
        // to 84 registers)
        const bool read_row = !Cell || filtered || interior;
        for_each_stencil_cell(
            box, ncell, cx, cy, cz, make_int3(lx, ly, lz), make_int3(hx, hy, hz), pi, cell_count,
            cell_atoms, cell_pos, cell_cap, [&](const StencilCell &cell, int dx, int dy, int dz) {
              // build_neighbors_kernel's arithmetic (the helper's), so the same pairs pass
              const int self = dx == 0 && dy == 0 && dz == 0 ? slot : -1;    // atom i's slot
              if constexpr (Plain) {
                // one cutoff, no special or excluded pairs: no branch per candidate, the
                // store predicated (a branch here ran for nearly every candidate, since
                // some lane of the group had a hit)
                const unsigned short cell_code = make_cell_entry(0, dx, dy, dz, 0);
                for (int k = 0; k < cell.m; ++k) {
                  const PosType<real> pj = cell.pos[k];    // the same slot for the whole group
                  const int j = cell.atoms[k];
                  const real ddx = cell.qx - pj.x, ddy = cell.qy - pj.y, ddz = cell.qz - pj.z;
                  const real rsq = ddx * ddx + ddy * ddy + ddz * ddz;
                  const bool hit = rsq <= lane_uniform_cutsq && k != self;
                  if (hit && count < nbr_cap) {
                    if constexpr (Cell)
                      nbr16[at] = static_cast<unsigned short>(cell_code | k);
                    else
                      nbr[at] = j;
                  }
                  at += hit ? static_cast<size_t>(n) : 0;
                  count += hit;
                  ghost_neighbour |= hit && j >= nlocal;
                }
              } else {
                for (int k = 0; k < cell.m; ++k) {
                  const PosType<real> pj = cell.pos[k];    // the same slot for the whole group
                  const real ddx = cell.qx - pj.x, ddy = cell.qy - pj.y, ddz = cell.qz - pj.z;
                  const real rsq = ddx * ddx + ddy * ddy + ddz * ddz;
                  const real cutsq = uniform_cutsq > real(0) ? lane_uniform_cutsq
                                     : owned                 ? cut_row[pj.type]
                                                             : real(-1);
                  if (rsq > cutsq || k == self) continue;
                  int entry = 0;    // the row, with special bits where marked
                  if (read_row) {
                    const int j = cell.atoms[k];
                    entry = j;
                    if (filtered && ((ex.active && excluded(ex, i, j, pi.type, pj.type, ntp1)) ||
                                     (spec.any() && !spec.mark(spec.level(j), entry))))
                      continue;
                    ghost_neighbour |= j >= nlocal;
                  }
                  if (count < nbr_cap) {
                    if constexpr (Cell)
                      nbr16[at] = make_cell_entry(k, dx, dy, dz, (entry >> SBBITS) & 3);
                    else
                      nbr[at] = entry;
                  }
                  at += n;
                  ++count;
                }
              }
            });
        if (!owned) continue;
        nnbr[i] = count;
        if (interior) interior[i] = !ghost_neighbour;
        if (count > nbr_cap) atomicMax(&status[1], count);
      }
    }

    template <int Group, bool Cell>
    void launch_build_neighbors_group(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag)
    {
      auto kernel = by_cell_images(box, nc) ? build_neighbors_kernel<Group, Cell, true>
                                            : build_neighbors_kernel<Group, Cell, false>;
      kernel<<<blocks64((long long) s.n * Group), BLOCK>>>(
          s.n, s.nlocal, s.pos.get(), box, nc, s.cell_of.get(), s.cell_count.get(),
          s.cell_atoms.get(), s.cell_pos.get(), s.cell_cap, s.cutneighsq.get(), s.ntp1(),
          s.maxspecial ? s.nspecial.get() : nullptr, s.maxspecial ? s.special.get() : nullptr,
          s.maxspecial, sflag, s.exclusion_view(), s.nnbr.get(), s.nbr.get(), s.nbr16.get(),
          s.nbr_cap, s.status.get(), s.split_wanted() ? s.interior.get() : nullptr);
    }

    // build_by_cell_kernel with Impl::build_cell_lanes lanes per cell
    template <bool Cell>
    void launch_build_by_cell_kernel(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag)
    {
      const int ncells = nc.x * nc.y * nc.z;
      s.order_cells();
      const auto launch = [&](auto kernel, int lanes) {
        kernel<<<blocks64((long long) ncells * lanes), BLOCK>>>(
            ncells, s.cell_order.get(), s.nlocal, s.n, box, nc, s.cell_count.get(),
            s.cell_atoms.get(), s.cell_pos.get(), s.cell_cap, s.cutneighsq.get(), s.ntp1(),
            s.uniform_cutneighsq, s.maxspecial ? s.nspecial.get() : nullptr,
            s.maxspecial ? s.special.get() : nullptr, s.maxspecial, sflag, s.exclusion_view(),
            s.nnbr.get(), s.nbr.get(), s.nbr16.get(), s.nbr_cap, s.status.get(),
            s.split_wanted() ? s.interior.get() : nullptr);
      };
      // Plain: one (cut + skin)^2 for every type pair, no special or excluded pairs
      const bool plain = s.build_plain();
      const auto lanes = [&](auto plain_v) {
        constexpr bool P = decltype(plain_v)::value;
        if (s.build_cell_lanes == 8)
          launch(build_by_cell_kernel<8, Cell, P>, 8);
        else if (s.build_cell_lanes == 16)
          launch(build_by_cell_kernel<16, Cell, P>, 16);
        else
          launch(build_by_cell_kernel<32, Cell, P>, 32);
      };
      if (plain)
        lanes(std::true_type{});
      else
        lanes(std::false_type{});
    }

  }    // namespace

  void launch_build_by_atom(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag)
  {
    with_lanes(s.build_group, [&](auto lanes) {
      if (s.cell_entries)
        launch_build_neighbors_group<decltype(lanes)::value, true>(s, box, nc, sflag);
      else
        launch_build_neighbors_group<decltype(lanes)::value, false>(s, box, nc, sflag);
    });
  }

  void launch_build_by_cell(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag)
  {
    if (s.cell_entries)
      launch_build_by_cell_kernel<true>(s, box, nc, sflag);
    else
      launch_build_by_cell_kernel<false>(s, box, nc, sflag);
  }

}    // namespace cuda
}    // namespace mesogpu
