/* mesogpu: the isotropic pair-kernel template (internal to cuda/): one thread per atom
 * over its full neighbour list; every isotropic pair style is an evaluator run by it.
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
 * PlainPairEvaluator gives the defaults of a plain (eval) evaluator. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_KERNEL_CUH
#define MESOGPU_CUDA_FORCES_PAIR_KERNEL_CUH

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {
  namespace detail {

    struct PlainPairEvaluator {
      static constexpr bool site_evaluator = false;
      struct AtomI {};
      __device__ AtomI load_i(int) const { return {}; }
    };

    // each pair is evaluated by both of its atoms' threads: no atomics; energy and virial
    // take half of each pair
    template <class Pair, bool EV, bool Images = false>
    __global__ void pair_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                       const int *nbr, Pair pair, int ntp1, Special4 special_lj,
                                       Vec3Out fout, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const auto ai = pair.load_i(i);
      acc fx, fy, fz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      const int m = nnbr[i];
      const int *nb = nbr + i;    // entry k at nb[k n]: a 64-bit pointer step, no int product
      for (int k = 0; k < m; ++k, nb += n) {
        int j = *nb;
        const int which = (j >> SBBITS) & 3;    // as LAMMPS sbmask(): the shift is arithmetic
        j &= NEIGHMASK;
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
      fout.store(i, fx, fy, fz);
      if (EV) ev.store(i, e, v);
    }

    template <class Pair>
    void launch_pair_kernel(Engine::Impl &s, const ForceStep &c, const Pair &pair)
    {
      auto kernel = c.ev ? pair_forces_kernel<Pair, true> : pair_forces_kernel<Pair, false>;
      if (c.box.img_bits)    // small box: explicit images
        kernel =
            c.ev ? pair_forces_kernel<Pair, true, true> : pair_forces_kernel<Pair, false, true>;
      kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nnbr.get(), s.nbr.get(), pair, s.ntp1(),
                              c.special_lj, c.force, c.ev_out, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
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
