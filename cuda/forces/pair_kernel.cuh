/* mesogpu: the isotropic pair-kernel template (internal to cuda/): one thread (or a group
 * of lanes) per atom over its full neighbour list; every isotropic pair style is an evaluator run
 * by it.
 *
 * Evaluator concept:
 *   cutsq                  per type pair, (ntypes+1)^2; 0 where the style does not act
 *                          (the pairs pair_style hybrid gives to other sub-styles)
 *   site_evaluator         false: eval(ti, tj, ntp1, rsq, fpair, e) gives F/r and E before
 *                          the special factor, which the kernel applies, and false when
 *                          rsq lies below a table (an error is recorded);
 *                          true: eval_site(...) also reads the pair's atoms (velocities,
 *                          tags) and applies the special factors itself; false: skip
 *   AtomI load_i(i)        what eval_site reads of atom i once per atom
 * PlainPairEvaluator gives the defaults of a plain (eval) evaluator. An evaluator is run
 * by several lanes per atom when Impl::pair_group says so: eval and eval_site must not
 * assume one thread per atom. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_KERNEL_CUH
#define MESOGPU_CUDA_FORCES_PAIR_KERNEL_CUH

#include "core/engine_impl.cuh"

#include <stdexcept>
#include <type_traits>

namespace mesogpu {
namespace cuda {
  namespace detail {

    struct PlainPairEvaluator {
      static constexpr bool site_evaluator = false;
      struct AtomI {};
      __device__ AtomI load_i(int) const { return {}; }
    };

    // each pair is evaluated by both of its atoms' threads: no atomics; energy and virial
    // take half of each pair. Group lanes per atom (1, 4, 8, 16 or 32; Impl::pair_group):
    // lane g takes entries g, g + Group, ... and the group's sums meet by warp shuffles.
    // More than one lane when the atoms are too few to fill the device and each has many
    // neighbours (a few thousand atoms, long cutoffs): one lane per atom then leaves most
    // of the device idle while each thread walks hundreds of entries one after another.
    // List: the list's view (neighbor/list_view.cuh), 32-bit or 16-bit cell entries
    // Rows: the launch covers the rows rows[0..nrows) of the list's n (one lane per atom;
    // the overlap of the forward exchange with interior atoms' forces), else rows 0..n
    template <class Pair, class List, bool EV, bool Images = false, int Group = 1,
              bool Rows = false>
    __device__ __forceinline__ void pair_forces(int n, const PosType<real> *pos, BoxD box,
                                                List list, Pair pair, int ntp1, Special4 special_lj,
                                                Vec3Out fout, PerAtomEV ev, ErrorRecord *err,
                                                int nrows = 0, const int *rows = nullptr)
    {
      static_assert(!Images || List::allows_images, "explicit images need 32-bit entries");
      static_assert(Group == 1 || (Group >= 2 && Group <= 32 && (Group & (Group - 1)) == 0),
                    "a group is a power of two within a warp");
      static_assert(!Rows || Group == 1, "a launch over rows takes one lane per atom");
      const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      if (Rows && t >= nrows) return;
      const int i = Rows ? rows[t] : static_cast<int>(t / Group);
      const int lane = static_cast<int>(t % Group);
      // groups share warps: a group past n still takes part in the shuffles (rows are
      // below n)
      if (!Rows && Group == 1 && i >= n) return;
      const bool active = Rows || i < n;
      const PosType<real> pi = active ? pos[i] : PosType<real>{};
      const auto ai = pair.load_i(active ? i : 0);
      acc fx, fy, fz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      if (Group == 1)
        fout.start(i, fx, fy, fz);
      else
        fx = fy = fz = acc(0);
      const int m = active ? list.nnbr[i] : 0;
      // entry k at [k n + i]: a 64-bit pointer step, no int product
      auto cur = list.cursor(active ? i : 0, i + (size_t) lane * n);
      const size_t stride = (size_t) Group * n;
      for (int k = lane; k < m; k += Group, list.advance(cur, stride)) {
        int which;
        int j = list.neighbor(cur, which);
        const int img = take_image<Images>(j, box);
        const PosType<real> pj = pos[j];
        const Delta d = pair_delta<Images>(pi, pj, img, box);    // x_i - x_j
        const real dx = d.x, dy = d.y, dz = d.z;
        const real rsq = dx * dx + dy * dy + dz * dz;
        const int ij = pi.type * ntp1 + pj.type;
        if (rsq >= pair.cutsq[ij]) continue;
        real fpair, en, escale;
        if constexpr (Pair::site_evaluator) {
          if (!pair.eval_site(ai, j, ij, which, dx, dy, dz, rsq, special_lj, fpair, en)) continue;
          escale = real(1);    // the evaluator applied the special factors
        } else {
          if (!pair.eval(pi.type, pj.type, ntp1, rsq, fpair, en)) {
            if (atomicOr(&err->bits, ERR_BELOW_TABLE) == 0) {
              err->i = i;
              err->j = j;
              err->rsq = rsq;
            }
          }
          const real factor = special_lj.w[which];
          fpair *= factor;
          escale = factor;
        }
        fx += dx * fpair;
        fy += dy * fpair;
        fz += dz * fpair;
        if (EV) {
          e += acc(0.5) * escale * en;
          add_half_pair_virial(v, dx, dy, dz, fpair);
        }
      }
      if constexpr (Group > 1) {
        // butterfly sums within the group (all 32 lanes of the warp take part)
        for (int w = Group / 2; w > 0; w /= 2) {
          fx += __shfl_xor_sync(0xffffffffu, fx, w, Group);
          fy += __shfl_xor_sync(0xffffffffu, fy, w, Group);
          fz += __shfl_xor_sync(0xffffffffu, fz, w, Group);
          if (EV) {
            e += __shfl_xor_sync(0xffffffffu, e, w, Group);
            for (int c = 0; c < 6; ++c) v[c] += __shfl_xor_sync(0xffffffffu, v[c], w, Group);
          }
        }
        if (!active || lane != 0) return;
        acc f0, f1, f2;
        fout.start(i, f0, f1, f2);
        fx += f0;
        fy += f1;
        fz += f2;
      }
      fout.store(i, fx, fy, fz);
      if (EV) ev.store<Group>(i, Rows ? nrows : n, e, v);
    }

    template <class Pair, class List, bool EV, bool Images = false, int Group = 1>
    __global__ void pair_forces_kernel(int n, const PosType<real> *pos, BoxD box, List list,
                                       Pair pair, int ntp1, Special4 special_lj, Vec3Out fout,
                                       PerAtomEV ev, ErrorRecord *err)
    {
      pair_forces<Pair, List, EV, Images, Group>(n, pos, box, list, pair, ntp1, special_lj, fout,
                                                 ev, err);
    }

    template <class Pair, class List, bool EV>
    __global__ void pair_forces_rows_kernel(int nrows, const int *rows, int n,
                                            const PosType<real> *pos, BoxD box, List list,
                                            Pair pair, int ntp1, Special4 special_lj, Vec3Out fout,
                                            PerAtomEV ev, ErrorRecord *err)
    {
      pair_forces<Pair, List, EV, false, 1, true>(n, pos, box, list, pair, ntp1, special_lj, fout,
                                                  ev, err, nrows, rows);
    }

    // Cell entries at full occupancy (2048 threads per SM on sm_80/sm_90: 32 registers).
    // Left to itself the compiler gives the cell-entry kernel of LJ 39 registers (the cursor
    // keeps the atom's cell), which leaves room for 75 % of the threads; bounded, its force
    // steps keep 32 without spilling. Only for evaluators that say so (full_occupancy):
    // bounded, DPD spills 120 bytes and table/r2 24. Bounds on the 32-bit kernel made it
    // worse (40 registers instead of 32), and the EV steps spill, so both stay free.
    template <class P, class = void> struct wants_full_occupancy : std::false_type {};
    template <class P>
    struct wants_full_occupancy<P, std::void_t<decltype(P::full_occupancy)>>
        : std::bool_constant<P::full_occupancy> {};
    constexpr int THREADS_PER_SM = 2048;
    template <class Pair, int Group>
    __global__ void __launch_bounds__(BLOCK, THREADS_PER_SM / BLOCK)
        pair_forces_kernel_cell(int n, const PosType<real> *pos, BoxD box, CellList list,
                                Pair pair, int ntp1, Special4 special_lj, Vec3Out fout,
                                PerAtomEV ev, ErrorRecord *err)
    {
      pair_forces<Pair, CellList, false, false, Group>(n, pos, box, list, pair, ntp1, special_lj,
                                                       fout, ev, err);
    }

    // the force steps over rows at full occupancy: left free, the row index costs LJ 37
    // registers (75 % of the threads; the overlap then lost 10 % on four H200s)
    template <class Pair, class List>
    __global__ void __launch_bounds__(BLOCK, THREADS_PER_SM / BLOCK)
        pair_forces_rows_kernel_bounded(int nrows, const int *rows, int n, const PosType<real> *pos,
                                        BoxD box, List list, Pair pair, int ntp1,
                                        Special4 special_lj, Vec3Out fout, PerAtomEV ev,
                                        ErrorRecord *err)
    {
      pair_forces<Pair, List, false, false, 1, true>(n, pos, box, list, pair, ntp1, special_lj,
                                                     fout, ev, err, nrows, rows);
    }

    template <class Pair, class List, int Group>
    void launch_pair_kernel_group(Engine::Impl &s, const ForceStep &c, const Pair &pair,
                                  const List &list)
    {
      auto kernel = pair_forces_kernel<Pair, List, false, false, Group>;
      if (c.ev)
        kernel = pair_forces_kernel<Pair, List, true, false, Group>;
      else if constexpr (std::is_same_v<List, CellList> && Group == 1 &&
                         wants_full_occupancy<Pair>::value)
        kernel = pair_forces_kernel_cell<Pair, Group>;
      kernel<<<blocks64((long long) s.n * Group), BLOCK>>>(s.n, s.pos.get(), c.box, list, pair,
                                                           s.ntp1(), c.special_lj, c.force,
                                                           c.ev_out, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

    template <class Pair>
    void launch_pair_kernel(Engine::Impl &s, const ForceStep &c, const Pair &pair)
    {
      if (c.box.img_bits) {    // small box: explicit images (few atoms; one lane per atom)
        auto kernel = c.ev ? pair_forces_kernel<Pair, WideList, true, true>
                           : pair_forces_kernel<Pair, WideList, false, true>;
        kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, WideList{s.nnbr.get(), s.nbr.get()}, pair,
                                s.ntp1(), c.special_lj, c.force, c.ev_out, s.err.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
        return;
      }
      s.with_list([&](const auto &list) {
        using List = std::decay_t<decltype(list)>;
        if (c.rows) {    // a part of the rows (ForceTerm::takes_rows): one lane per atom
          if (s.pair_group != 1) throw std::logic_error("mesogpu: rows of a multi-lane launch");
          auto kernel = c.ev ? pair_forces_rows_kernel<Pair, List, true>
                             : pair_forces_rows_kernel<Pair, List, false>;
          if constexpr (wants_full_occupancy<Pair>::value)
            if (!c.ev) kernel = pair_forces_rows_kernel_bounded<Pair, List>;
          if (c.nrows > 0)
            kernel<<<blocks(c.nrows), BLOCK, 0, c.stream>>>(
                c.nrows, c.rows, s.n, s.pos.get(), c.box, list, pair, s.ntp1(), c.special_lj,
                c.force, c.ev_out, s.err.get());
          MESOGPU_CUDA_LAUNCH_CHECK();
          return;
        }
        with_lanes(s.pair_group, [&](auto lanes) {
          launch_pair_kernel_group<Pair, List, decltype(lanes)::value>(s, c, pair, list);
        });
      });
    }

    // the common isotropic term: parameters P per type pair and the cutoffs, evaluator
    // Dev{{}, params, cutsq}
    template <class P, class Dev> class TypePairTerm : public ForceTerm {
     public:
      TypePairTerm(Engine::Impl &s, const std::vector<P> &p, const std::vector<double> &cutsq) :
          ForceTerm(ForceGroup::pair)
      {
        AllocLabel label("the pair coefficients");
        params.upload(p);
        cut.upload(s.pair_cutsq_for_term(cutsq));
      }
      bool takes_rows() const override { return true; }
      void launch(Engine::Impl &s, const ForceStep &c) override
      {
        launch_pair_kernel(s, c, Dev{{}, params.get(), cut.get()});
      }

     private:
      DeviceArray<P> params;
      DeviceArray<real> cut;
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
