/* mesogpu: the cell list and the full neighbour list with skin, special bits and exclusions
 * (see engine.h): binning, the choice of build and the small-box build with explicit
 * images here, the builds by atom and by cell in neighbor/list_build.cu, when to build and
 * with which cutoffs (the displacement test, the tight list) in neighbor/rebuild_decision.cu. */

#include "core/engine_impl.cuh"
#include "neighbor/cell_kernels.cuh"
#include "neighbor/list_build.cuh"
#include <cub/device/device_partition.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    // Domain::pbc() of LAMMPS for an orthogonal box (periodic dimensions), each atom's
    // cell (cell_of: the sort's order), then, with Bin, the atomic slot claim of the cell
    // list (one thread per atom). Overflowing atoms are only counted: the host grows the
    // capacity and bins again. Atoms outside a non-periodic side are counted as lost
    // (status[3]). Without pair forces nothing reads the cell list: Bin false.
    template <bool Bin>
    __global__ void wrap_and_bin_kernel(int n, acc *x0, acc *x1, acc *x2, int *im0, int *im1,
                                        int *im2, acc *h0, acc *h1, acc *h2, PosType<real> *pos,
                                        BoxD box, int3 ncell, int *cell_of, int *cell_count,
                                        int *cell_atoms, int cell_cap, int *status)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc *xs[3] = {x0, x1, x2};
      int *ims[3] = {im0, im1, im2};
      int c[3];
      const int nc[3] = {ncell.x, ncell.y, ncell.z};
      acc w[3];
      for (int d = 0; d < 3; ++d) {
        acc x = xs[d][i];
        const acc hi = box.lo[d] + box.prd[d];
        if (!box.periodic[d]) {
          // outside a fixed (or shrink-wrapped: never, the box was just reset) side: lost,
          // as Comm::exchange() drops it on one rank
          if (x < box.lo[d] || x >= hi) atomicAdd(&status[3], 1);
        } else {
          // Domain::pbc()'s two tests in its order: an atom just below lo that the shift
          // rounds up to hi (x + prd == hi in float for x within ~1e-6 of lo) goes back
          // down to lo with its image unchanged, not to lo one image lower
          if (x < box.lo[d]) {
            x += box.prd[d];
            ims[d][i] -= 1;
          }
          if (x >= hi) {
            x -= box.prd[d];
            x = x > box.lo[d] ? x : box.lo[d];    // MAX(x, lo)
            ims[d][i] += 1;
          }
        }
        xs[d][i] = x;
        w[d] = x;
        int ci = static_cast<int>((x - box.lo[d]) / box.prd[d] * nc[d]);
        c[d] = min(max(ci, 0), nc[d] - 1);
      }
      if (h0) {    // xhold, where held (Impl::holds_xhold)
        h0[i] = w[0];
        h1[i] = w[1];
        h2[i] = w[2];
      }
      pos[i].x = static_cast<real>(w[0]);
      pos[i].y = static_cast<real>(w[1]);
      pos[i].z = static_cast<real>(w[2]);
      const int cell = (c[2] * nc[1] + c[1]) * nc[0] + c[0];
      cell_of[i] = cell;
      if constexpr (!Bin) return;
      const int slot = atomicAdd(&cell_count[cell], 1);
      // only overflowing claims touch the one status word (100 M atomics on one address
      // would serialise)
      if (slot < cell_cap)
        cell_atoms[(size_t) cell * cell_cap + slot] = i;
      else
        atomicMax(&status[0], slot + 1);
    }

    // positions in cell order (slot k of cell c at c * cell_cap + k): the list build then
    // reads each candidate with one contiguous load instead of an index and a gather
    __global__ void fill_cell_pos_kernel(long long nslots, int cell_cap, const int *cell_count,
                                         const int *cell_atoms, const PosType<real> *pos,
                                         PosType<real> *cell_pos)
    {
      const long long idx = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      if (idx >= nslots) return;
      const int c = static_cast<int>(idx / cell_cap), k = static_cast<int>(idx % cell_cap);
      if (k < min(cell_count[c], cell_cap)) cell_pos[idx] = pos[cell_atoms[idx]];
    }

    // Small periodic boxes: every image of every neighbour within cutoff + skin, with its
    // image code above the index bits (BoxD). The stencil runs over the unfolded cell
    // lattice (cell c + s nc is cell c of image s), so each (cell, image) pair is visited
    // once for any box size; non-periodic dimensions stop at their first and last cell.
    // A special pair farther apart than half a periodic box counts as a normal pair, as
    // LAMMPS's Domain::minimum_image_check() makes it in the npair builders.
    __global__ void build_neighbors_images_kernel(
        int n, const PosType<real> *pos, BoxD box, int3 ncell, int3 reach, const int *cell_of,
        const int *cell_count, const int *cell_atoms, const PosType<real> *cell_pos, int cell_cap,
        const real *cutneighsq, int ntp1, const int *nspecial, const int *special, int maxspecial,
        int4 special_flag, ExclusionD ex, int *nnbr, int *nbr, int nbr_cap, int *status)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const int cell = cell_of[i];
      const int c[3] = {cell % ncell.x, (cell / ncell.x) % ncell.y, cell / (ncell.x * ncell.y)};
      const int nc[3] = {ncell.x, ncell.y, ncell.z}, r[3] = {reach.x, reach.y, reach.z};
      int lo[3], hi[3];
      for (int d = 0; d < 3; ++d) {
        lo[d] = box.periodic[d] ? c[d] - r[d] : max(c[d] - 1, 0);
        hi[d] = box.periodic[d] ? c[d] + r[d] : min(c[d] + 1, nc[d] - 1);
      }
      const SpecialLookup spec(nspecial, special, maxspecial, i, special_flag);
      const real half[3] = {real(0.5) * box.prd_r[0], real(0.5) * box.prd_r[1],
                            real(0.5) * box.prd_r[2]};
      int count = 0;
      for (int uz = lo[2]; uz <= hi[2]; ++uz)
        for (int uy = lo[1]; uy <= hi[1]; ++uy)
          for (int ux = lo[0]; ux <= hi[0]; ++ux) {
            const int u[3] = {ux, uy, uz};
            int w[3], sh[3];
            for (int d = 0; d < 3; ++d) {
              w[d] = ((u[d] % nc[d]) + nc[d]) % nc[d];
              sh[d] = (u[d] - w[d]) / nc[d];    // image of the unfolded cell
            }
            const int code =
                (sh[0] + box.img_k[0]) +
                box.img_n[0] * ((sh[1] + box.img_k[1]) + box.img_n[1] * (sh[2] + box.img_k[2]));
            const bool self_image = sh[0] == 0 && sh[1] == 0 && sh[2] == 0;
            const real ox = static_cast<real>(sh[0]) * box.prd_r[0],
                       oy = static_cast<real>(sh[1]) * box.prd_r[1],
                       oz = static_cast<real>(sh[2]) * box.prd_r[2];
            const int oc = (w[2] * ncell.y + w[1]) * ncell.x + w[0];
            const int m = min(cell_count[oc], cell_cap);
            const int *atoms = cell_atoms + (size_t) oc * cell_cap;
            const PosType<real> *cpos = cell_pos + (size_t) oc * cell_cap;
            for (int k = 0; k < m; ++k) {
              const PosType<real> pj = cpos[k];
              const real ddx = (pi.x - pj.x) - ox, ddy = (pi.y - pj.y) - oy,
                         ddz = (pi.z - pj.z) - oz;
              const real rsq = ddx * ddx + ddy * ddy + ddz * ddz;
              if (rsq > cutneighsq[pi.type * ntp1 + pj.type]) continue;
              const int j = atoms[k];
              if (j == i && self_image) continue;
              if (ex.active && excluded(ex, i, j, pi.type, pj.type, ntp1)) continue;
              int entry = j | (code << box.img_bits);
              if (spec.any()) {
                const bool far = (box.periodic[0] && fabs(ddx) > half[0]) ||
                                 (box.periodic[1] && fabs(ddy) > half[1]) ||
                                 (box.periodic[2] && fabs(ddz) > half[2]);
                if (!far && !spec.mark(spec.level(j), entry)) continue;
              }
              if (count < nbr_cap) nbr[(size_t) count * n + i] = entry;
              ++count;
            }
          }
      nnbr[i] = count;
      if (count > nbr_cap) atomicMax(&status[1], count);
    }

    // the cells' fill for groups of 8, 16 and 32 lanes (the slots the groups' rounds offer,
    // summed over cells) and the atoms in cells (Impl::fill_host). A grid-stride loop and a
    // sum per block: one atomic per block and counter (one per warp made ~7,000 atomics on
    // each of four words at 10^6 atoms, serialised). Integer sums: any order, same result
    __global__ void cell_fill_kernel(int ncells, const int *cell_count, int cell_cap,
                                     unsigned long long *fill)
    {
      unsigned long long v[4] = {0, 0, 0, 0};
      for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < ncells; c += blockDim.x * gridDim.x) {
        const unsigned long long m = min(cell_count[c], cell_cap);
        v[0] += (m + 7) / 8 * 8;
        v[1] += (m + 15) / 16 * 16;
        v[2] += (m + 31) / 32 * 32;
        v[3] += m;
      }
      __shared__ unsigned long long warp_sums[BLOCK / 32][4];
      const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
      for (int d = 0; d < 4; ++d) {
        unsigned long long x = v[d];
        for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
        if (lane == 0) warp_sums[warp][d] = x;
      }
      __syncthreads();
      if (threadIdx.x < 4) {
        unsigned long long x = 0;
        for (int w = 0; w < BLOCK / 32; ++w) x += warp_sums[w][threadIdx.x];
        if (x) atomicAdd(&fill[threadIdx.x], x);
      }
    }

    // the binning's status words (read): lost atoms stop the run; true when every cell
    // held its atoms, else the capacity grows for the next try
    bool cells_fit(Engine::Impl &s)
    {
      if (s.status_host[3] > 0) {
        std::ostringstream m;
        m << "lost atoms: " << s.status_host[3] << " atoms left the box through a "
          << "non-periodic boundary (box " << s.lo[0] << " " << s.hi[0] << ", " << s.lo[1] << " "
          << s.hi[1] << ", " << s.lo[2] << " " << s.hi[2]
          << "), as LAMMPS's 'thermo_modify lost error' stops a run (use boundary s or m, or "
             "walls that keep the atoms inside)";
        throw std::runtime_error(m.str());
      }
      if (s.status_host[0] <= s.cell_cap) return true;
      s.cell_cap = static_cast<int>(
          std::min<long long>(s.status_host[0] + s.status_host[0] / 8 + 4, (long long) s.n + 1));
      return false;
    }

    // the fraction of a group's lanes that hold an atom, over the rounds of every cell
    double cell_fill_fraction(const unsigned long long fill[4], int lanes)
    {
      const int k = lanes == 8 ? 0 : lanes == 16 ? 1 : 2;
      return fill[k] > 0 ? static_cast<double>(fill[3]) / static_cast<double>(fill[k]) : 0.0;
    }

    // the tight list's reach past the pair cutoff, relative (Engine::set_neighbor)
    constexpr double TIGHT_MARGIN = 1e-3;

    // lanes per cell of build_by_cell_kernel: the smallest group that holds 1.5 x the mean
    // atoms per cell (LJ, 18.5 per cell of 2.8 sigma: 32; DPD at rho 3, 6.6 per cell of 1.3:
    // 16), fuller cells taking several rounds; 0 (by atom) below 4 atoms per cell, where
    // most lanes of a group would idle (the KG melt, 3 per cell of 1.52 sigma, ran 13 %
    // slower by cell on an H200, 2026-11-27)
    int choose_cell_lanes(double per_cell)
    {
      if (per_cell < 4.0) return 0;
      return 1.5 * per_cell <= 8.0 ? 8 : 1.5 * per_cell <= 16.0 ? 16 : 32;
    }

    // the least fill at which the build by cell is taken: plain builds (one cutoff, no
    // special or excluded pairs) by cell ran faster at 42 % (DPD, +26 %) and 60-62 % (LJ,
    // +5-7 %) on an H200; the filtered path (special pairs) ran 13 % slower for the KG melt,
    // whose 3 beads per cell fill about 37 % of 8 lanes
    constexpr double MIN_FILL_PLAIN = 0.3, MIN_FILL_FILTERED = 0.5;

    // the rows of Impl::split_rows: owned atoms without ghosts in their lists first
    // (ascending), then the others and the ghost rows (descending), from the build's flags
    void partition_rows(Engine::Impl &s)
    {
      AllocLabel label("the rows of the exchange overlap");
      s.split_rows.resize(s.n);
      s.split_count.resize(1);
      thrust::counting_iterator<int> rows(0);
      size_t bytes = 0;
      MESOGPU_CUDA_CALL(cub::DevicePartition::Flagged(
          nullptr, bytes, rows, s.interior.get(), s.split_rows.get(), s.split_count.get(), s.n));
      s.split_scratch.resize(bytes);
      MESOGPU_CUDA_CALL(cub::DevicePartition::Flagged(s.split_scratch.get(), bytes, rows,
                                                      s.interior.get(), s.split_rows.get(),
                                                      s.split_count.get(), s.n));
      s.split_count.download(&s.n_interior, 1);
    }

    // 16-bit cell entries or 32-bit indices for a list of nbr_cap entries per atom:
    // list_entries 32 or 16 (16 where cell entries fit the grid), or auto: 32-bit entries
    // (cell entries cost the pair kernel a second gather: LJ on an H100 ran 16 % slower at
    // 2 M and 16 M atoms with them, 2026-11-27), unless the 32-bit list would leave
    // less than LIST_HEADROOM_PER_ATOM bytes per atom (per-atom energies, should a compute
    // ask for them, a sort's scratch) + LIST_HEADROOM bytes free where cell entries fit
    constexpr size_t LIST_HEADROOM_PER_ATOM = 128, LIST_HEADROOM = 64u << 20;
    bool choose_cell_entries(Engine::Impl &s)
    {
      if (s.list_entries == 32 || !s.cell_entries_fit()) return false;
      if (s.list_entries == 16) return true;
      const size_t want = (size_t) s.nbr_cap * s.n * sizeof(int);
      const size_t held = s.nbr.capacity() * sizeof(int) + s.nbr16.capacity() * sizeof(short);
      if (want <= s.nbr.capacity() * sizeof(int)) return false;    // held already
      const size_t more = want > held ? want - held : 0;
      return !device_fits(more + (size_t) s.n * LIST_HEADROOM_PER_ATOM + LIST_HEADROOM);
    }

    // n rows of `cap` entries: with ghosts (several ranks) the rows change a little at every
    // rebuild: grow with 1/64 slack, else each growth by a few rows frees and allocates the
    // whole list (gigabytes; the free waits for the device) at each rebuild
    template <class T> void size_list(Engine::Impl &s, DeviceArray<T> &list)
    {
      if (s.nlocal < s.n && (size_t) s.nbr_cap * s.n > list.capacity())
        list.resize((size_t) s.nbr_cap * (s.n + s.n / 64 + 256));
      list.resize((size_t) s.nbr_cap * s.n);
    }

    // lanes per atom (1, 4, 8, 16, 32) for `n` atoms with `work` items each (list
    // capacity, candidate slots): wider while the threads stay within twice what the
    // device holds resident and each lane still gets `per_lane` items or more. Measured
    // on an H200 (mixed): LJ 32k (~78 neighbours) 14.5k steps/s with 1 pair lane, 27.9k
    // with 4, 27.2k with 8, 22.6k with 32; the r_c = 5 slab of 6,760 atoms 2.5k with 1,
    // 6.3k with 16 or 32; LJ 2.05 M 1,050 with 1, 722 with 4
    int choose_lanes(long long n, double work, int device_threads, double per_lane)
    {
      int g = 1;
      while (g < 32) {
        const int next = g == 1 ? 4 : 2 * g;
        if (n * next > 2LL * device_threads || work / next < per_lane) break;
        g = next;
      }
      return g;
    }
  }    // namespace

  void Engine::upload_special(const int *nspecial, const int *special, int maxspecial,
                              const int special_flag[4], const double special_lj[4])
  {
    Impl &s = *impl;
    // several ranks: made again from the owned atoms' topology rows after atoms moved
    // (Engine::resolve_topology)
    s.per_atom.add(
        "special",
        [&s](const Permutation &q) {
          if (s.maxspecial <= 0) return;
          permute_rowmajor(s.nspecial, 3, false, q);             // counts
          permute_rowmajor(s.special, s.maxspecial, true, q);    // atom indices
        },
        remade_later());
    for (int k = 0; k < 4; ++k) {
      s.special_flag[k] = special_flag[k];
      s.special_lj[k] = special_lj[k];
    }
    s.maxspecial = maxspecial;
    AllocLabel label("the special-neighbour lists");
    if (maxspecial > 0) {
      s.nspecial.upload(nspecial, 3 * (size_t) s.n);
      s.special.upload(special, (size_t) s.n * maxspecial);
    } else {
      s.nspecial.resize(0);
    }
  }

  void Engine::set_neighbor(double cutneighmax, double skin, const std::vector<double> &cutneighsq,
                            int every, int delay, bool dist_check)
  {
    Impl &s = *impl;
    add_derived(s.per_atom, "cell_of", &s.cell_of);    // rewritten at the next list build
    s.cutneighmax = cutneighmax;
    s.skin = skin;
    s.every = std::max(every, 1);
    s.delay = delay;
    s.dist_check = dist_check;
    // the list's cutoffs with the skin (LAMMPS's) and without it (the tight list), and the
    // largest pair cutoff
    s.cutsq_skin.assign(cutneighsq.begin(), cutneighsq.end());
    s.cutsq_tight.assign(cutneighsq.size(), real(0));
    s.pair_cut_max = 0.0;
    // The tight list reaches 0.1 % past the pair cutoff: the build tests a pair from each
    // atom with the cell's image shift, whose rounding differs between the two atoms (in
    // float by up to an ulp of the box coordinates), so a pair right at the cutoff could
    // enter one atom's list and not the other's; the pair kernels' own cutoff test is
    // symmetric, so with the margin both atoms take or drop each pair (momentum conserved)
    for (size_t k = 0; k < cutneighsq.size(); ++k)
      if (cutneighsq[k] > 0.0) {
        const double with_skin = std::sqrt(cutneighsq[k]);
        const double cut = std::max(0.0, with_skin - skin);
        const double reach = std::min(with_skin, cut * (1.0 + TIGHT_MARGIN));
        s.cutsq_tight[k] = static_cast<real>(reach * reach);
        s.pair_cut_max = std::max(s.pair_cut_max, reach);
      }
    s.tight = false;    // each run starts with the skin; the builds choose
    s.tight_run = s.rebuild_streak = 0;
    s.tight_builds = 0;
    s.set_list_cutoffs(false);
    s.box_check = s.grid_stale = false;    // until the box changes during this run
    // the cell grid, and explicit images for periodic boxes below 2 x (cutoff + skin)
    // (boundary.cu)
    // (the cell slots too, where none were held; the list's capacity per atom is counted
    // by the first build: nbr_cap 0, a pass that stores nothing)
    s.setup_cells();
    s.ago = 0;
    s.built = false;
  }

  void Engine::build_neighbor_list()
  {
    Impl &s = *impl;
    // molecular atoms after a reneighbouring step on the device: the special (and bonded)
    // lists of the new rows first
    if (s.lists_stale)
      throw std::logic_error("mesogpu: build_neighbor_list after border_finish without "
                             "resolve_topology (the special and bonded lists of the new rows)");
    // a tight list or one with the skin (Impl::want_tight); a change of kind lays the cells
    // out again in the other width, with slots for its mean count
    const bool tight = s.want_tight();
    if (tight != s.tight) {
      s.tight = tight;
      s.tight_run = s.rebuild_streak = 0;
      s.set_list_cutoffs(tight);
      s.grid_stale = true;
      s.cell_cap = 0;
    }
    s.tight_run++;
    if (tight) s.tight_builds++;
    if (s.shrink_wrapped()) {    // Domain::reset_box() at each reneighbouring
      s.shrink_wrap();
      s.grid_stale = true;
    }
    // the box changed (barostat, shrink-wrap): cells at least cutneighmax wide, images
    // if a periodic edge fell below 2 x (cutoff + skin)
    if (s.grid_stale) s.setup_cells();
    s.grid_stale = false;
    for (int d = 0; d < 3; ++d) {    // the box of this build, for the rebuild test
      s.lo_hold[d] = s.lo[d];
      s.hi_hold[d] = s.hi[d];
    }
    // the positions of this build (xhold), for the displacement test of check yes and
    // chain growth; with neither nothing reads them and none are held (24 B/atom in mixed)
    for (int d = 0; d < 3; ++d) {
      if (s.holds_xhold())
        s.xhold[d].resize(s.n);
      else
        s.xhold[d].release();
    }
    const BoxD box = s.box();
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    const int ncells = nc.x * nc.y * nc.z;
    AllocLabel label("the cell list");
    // the cell list only where pair forces read it (their list build, cell entries): a
    // build without pair terms wraps the atoms and finds their cells (for the sort)
    const bool bin = s.has_pair_terms();
    const auto wrap_kernel = bin ? wrap_and_bin_kernel<true> : wrap_and_bin_kernel<false>;
    if (!bin) {
      s.cell_atoms.release();
      s.cell_count.zero();
    }
    // bin, then build. Where a list is built and no sort is due, the cells' overflow and
    // lost atoms are read with the build's status (one wait per build instead of two;
    // every kernel reads at most cell_cap atoms of a cell); on overflow the cells grow and
    // both are done again (wrapping wrapped positions is a no-op)
    const bool sort_due = s.sort_every > 0 && s.steps_since_sort >= s.sort_every && s.nlocal == s.n;
    const bool defer_cell_check = bin && s.has_pair_terms() && !sort_due;
    const auto wrap = [&] {
      wrap_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(),
          s.image[2].get(), s.xhold[0].get(), s.xhold[1].get(), s.xhold[2].get(), s.pos.get(), box,
          nc, s.cell_of.get(), s.cell_count.get(), s.cell_atoms.get(), s.cell_cap, s.status.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    };
    for (bool rebin = true; rebin;) {
      rebin = false;
      // bin; grow the cell capacity and bin again on overflow
      for (;;) {
        if (bin) {
          s.cell_atoms.resize((size_t) ncells * s.cell_cap);
          s.cell_count.zero();
        }
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get(), 0, 4 * sizeof(int)));
        wrap();
        if (defer_cell_check) break;    // read with the build's status below
        MESOGPU_CUDA_CALL(
            cudaMemcpy(s.status_host, s.status.get(), 4 * sizeof(int), cudaMemcpyDeviceToHost));
        if (cells_fit(s)) break;
      }
      if (sort_due) {
        sort_atoms();    // reorders every per-atom array; the cell list must be built again
        s.steps_since_sort = 0;
        s.sorts_done++;
        if (bin) s.cell_count.zero();
        wrap();
      }
      if (bin) {
        sort_cells_kernel<<<blocks(ncells), BLOCK>>>(ncells, s.cell_count.get(), s.cell_atoms.get(),
                                                     s.cell_cap);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      // the build by cell needs the cells to give the images (no explicit images, 4 or more
      // cells per periodic dimension)
      const bool cells_give_images = !s.img_bits && by_cell_images(box, nc);
      // the cells' fill, read with this build's status and used by the next build's choice
      // (where the choice is not fixed and the cells give the images)
      const bool measure_fill =
          bin && s.fixed_cell_lanes < 0 && !s.fixed_build_group && cells_give_images;
      if (measure_fill) {
        s.cell_fill.resize(4);
        s.cell_fill.zero();
        cell_fill_kernel<<<std::min(blocks(ncells), 1024), BLOCK>>>(ncells, s.cell_count.get(),
                                                                    s.cell_cap, s.cell_fill.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      if (s.has_pair_terms()) {
        const long long nslots = (long long) ncells * s.cell_cap;
        s.cell_pos.resize(nslots);
        fill_cell_pos_kernel<<<blocks64(nslots), BLOCK>>>(nslots, s.cell_cap, s.cell_count.get(),
                                                          s.cell_atoms.get(), s.pos.get(),
                                                          s.cell_pos.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      const int4 sflag =
          make_int4(s.special_flag[0], s.special_flag[1], s.special_flag[2], s.special_flag[3]);
      // without pair forces nothing reads the list: binning (wrap, sort) is all a build does
      AllocLabel nlabel("the neighbour list");
      // lanes per atom of the build: ~27 cells of candidates each (cells of cut + skin)
      s.build_group = s.fixed_build_group
                          ? s.fixed_build_group
                          : choose_lanes(s.nlocal, 27.0 * s.n / ncells, s.device_threads, 16.0);
      // lanes per cell instead (build_by_cell_kernel) where the atoms fill the device and the
      // cells' shifts give the images; MESOGPU_BUILD_LANES keeps lanes per atom
      // (or MESOGPU_BUILD_CELL_LANES: by cell wherever the images allow, or never)
      s.build_cell_lanes = 0;
      if (cells_give_images) {
        if (s.fixed_cell_lanes >= 0)
          s.build_cell_lanes = s.fixed_cell_lanes;
        else if (!s.fixed_build_group && s.build_group == 1) {
          // from the mean atoms per cell; then, from the fill of the cells at the last build,
          // back to lanes per atom where the groups' lanes would mostly idle (clustered atoms:
          // a few full cells take several rounds each, many hold an atom or two)
          s.build_cell_lanes = choose_cell_lanes(static_cast<double>(s.n) / ncells);
          if (s.build_cell_lanes && s.fill_valid &&
              cell_fill_fraction(s.fill_host, s.build_cell_lanes) <
                  (s.build_plain() ? MIN_FILL_PLAIN : MIN_FILL_FILTERED))
            s.build_cell_lanes = 0;
        }
      }
      s.split_valid = false;
      if (s.split_wanted()) {
        AllocLabel label("the rows of the exchange overlap");
        s.interior.resize(s.n);
      }
      while (s.has_pair_terms()) {
        // the layout of this build (again after a growth); the other layout's array is freed
        // before this one grows
        s.cell_entries = choose_cell_entries(s);
        if (s.cell_entries)
          s.nbr.release();
        else
          s.nbr16.release();
        // nbr_cap entries per atom, column-major: 64-bit size (past 2^31 at ~30 M LJ atoms)
        if (s.cell_entries)
          size_list(s, s.nbr16);
        else
          size_list(s, s.nbr);
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 1, 0, sizeof(int)));
        if (s.img_bits && s.nlocal < s.n)
          throw std::logic_error("mesogpu: a rank's box with ghosts takes no explicit images");
        if (s.img_bits)    // a periodic box below 2 x (cutoff + skin): explicit images
          build_neighbors_images_kernel<<<blocks(s.n), BLOCK>>>(
              s.n, s.pos.get(), box, nc, make_int3(s.img_reach[0], s.img_reach[1], s.img_reach[2]),
              s.cell_of.get(), s.cell_count.get(), s.cell_atoms.get(), s.cell_pos.get(), s.cell_cap,
              s.cutneighsq.get(), s.ntp1(), s.maxspecial ? s.nspecial.get() : nullptr,
              s.maxspecial ? s.special.get() : nullptr, s.maxspecial, sflag, s.exclusion_view(),
              s.nnbr.get(), s.nbr.get(), s.nbr_cap, s.status.get());
        else if (s.build_cell_lanes)    // (neighbor/list_build.cu)
          launch_build_by_cell(s, box, nc, sflag);
        else
          launch_build_by_atom(s, box, nc, sflag);
        MESOGPU_CUDA_LAUNCH_CHECK();
        if (measure_fill)    // (finished by the synchronous copy below)
          MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.fill_host, s.cell_fill.get(),
                                            4 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                            0));
        // (with the binning's words where their wait was left to this one)
        if (defer_cell_check)
          MESOGPU_CUDA_CALL(
              cudaMemcpy(s.status_host, s.status.get(), 4 * sizeof(int), cudaMemcpyDeviceToHost));
        else
          MESOGPU_CUDA_CALL(cudaMemcpy(s.status_host + 1, s.status.get() + 1, sizeof(int),
                                       cudaMemcpyDeviceToHost));
        s.fill_valid = measure_fill;
        if (defer_cell_check && !cells_fit(s)) {
          rebin = true;    // bin and build again with the grown cells
          break;
        }
        if (s.status_host[1] <= s.nbr_cap) break;
        // grow, never truncate; the old list is freed before the new one is allocated. A
        // margin of 1/32 + 4 above the longest list: the list is most of the engine's
        // memory (LJ liquid: capacity 93 for a mean of 77.6, 2026-11-27), and a growth
        // costs one build
        s.nbr_cap = static_cast<int>(
            std::min<double>(s.status_host[1] + s.status_host[1] / 32 + 4, s.nbr_limit()));
      }
    }
    // lanes per atom of the pair kernels until the next build: the list's capacity per
    // atom (a little above the longest list) as the work per atom
    if (s.has_pair_terms())
      s.pair_group = s.fixed_pair_group ? s.fixed_pair_group
                                        : choose_lanes(s.nlocal, s.nbr_cap, s.device_threads, 16.0);
    if (s.split_wanted() && s.pair_group == 1) {
      partition_rows(s);
      s.split_valid = true;
    }
    s.ago = 0;
    s.built = true;
  }

  int Engine::list_entry_bits() const
  {
    return impl->cell_entries ? 16 : 32;
  }

  std::string Engine::cell_entries_refusal() const
  {
    const Impl &s = *impl;
    if (s.img_bits)
      return "the box needs explicit images (a periodic side shorter than two cutoffs + skin)";
    if (s.cell_cap > CELL_ENTRY_MAX_SLOTS)
      return "a cell needs " + std::to_string(s.cell_cap) + " slots, more than the " +
             std::to_string(CELL_ENTRY_MAX_SLOTS) + " a 16-bit entry can name";
    return "";
  }

  void Engine::set_list_entries(int bits)
  {
    if (bits != 0 && bits != 16 && bits != 32)
      throw std::invalid_argument("mesogpu: neighbour list entries of " + std::to_string(bits) +
                                  " bits (0 for auto, 16 or 32)");
    impl->list_entries = bits;
    impl->built = false;    // the next build writes the new layout
  }

  int Engine::build_lanes() const
  {
    return impl->build_group;
  }

  int Engine::build_cell_lanes() const
  {
    return impl->build_cell_lanes;
  }

  double Engine::build_cell_fill() const
  {
    const Impl &s = *impl;
    return s.fill_valid && s.build_cell_lanes ? cell_fill_fraction(s.fill_host, s.build_cell_lanes)
                                              : 0.0;
  }

  int Engine::pair_lanes() const
  {
    return impl->pair_group;
  }

  void Engine::set_exclusions(const HostExclusions &e)
  {
    Impl &s = *impl;
    ExclusionD ex{};
    if (e.group1.size() > (size_t) MAX_EXCLUDE || e.mol_bit.size() > (size_t) MAX_EXCLUDE)
      throw std::runtime_error("mesogpu: at most " + std::to_string(MAX_EXCLUDE) + " group and " +
                               std::to_string(MAX_EXCLUDE) +
                               " molecule entries of neigh_modify exclude on the device");
    if (!e.ex_type.empty()) {
      if ((int) e.ex_type.size() != s.ntp1() * s.ntp1())
        throw std::runtime_error("mesogpu: set_exclusions: type matrix of the wrong size");
      s.ex_type.upload(e.ex_type);
    } else {
      s.ex_type.resize(0);
    }
    ex.ngroup = (int) e.group1.size();
    for (int m = 0; m < ex.ngroup; ++m) {
      ex.group1[m] = e.group1[m];
      ex.group2[m] = e.group2[m];
    }
    ex.nmol = (int) e.mol_bit.size();
    for (int m = 0; m < ex.nmol; ++m) {
      ex.mol_bit[m] = e.mol_bit[m];
      ex.mol_intra[m] = e.mol_intra[m];
    }
    if (ex.nmol) {
      if ((int) e.molecule.size() != s.n)
        throw std::runtime_error("mesogpu: molecule exclusions need one molecule ID per atom");
      s.molecule.upload(e.molecule);
    }
    // the molecule IDs move with the atoms (the ghosts' come with their border records);
    // with molecule entries even from an empty array (a rank that held no rows)
    s.per_atom.add(
        "molecule",
        [&s](const Permutation &q) {
          if (s.molecule.size()) permute_rows(s.molecule, 1, q);
        },
        column_migration(&s.molecule, ex.nmol == 0));
    ex.active = !e.ex_type.empty() || ex.ngroup > 0 || ex.nmol > 0;
    s.exclusion = ex;
    s.built = false;    // the next build applies them
  }

}    // namespace cuda
}    // namespace mesogpu
