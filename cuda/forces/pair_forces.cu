/* mesogpu: isotropic pair forces over the full neighbour list (see engine.h). */

#include "core/engine_impl.cuh"
#include <cmath>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    // ---- forces ------------------------------------------------------------------------
    // Isotropic pair evaluators (the device side of a pair style), one concept:
    //   cutsq                     per type pair, (ntypes+1)^2
    //   site_evaluator            false: eval(ti, tj, ntp1, rsq, fpair, e) gives F/r and E
    //                             before the special factor, which the kernel applies, and
    //                             false when rsq lies below a table (an error is recorded);
    //                             true: eval_site(...) also reads the pair's atoms (their
    //                             velocities, tags) and applies the special factors itself,
    //                             false: skip the pair
    //   AtomI load_i(i)           what eval_site reads of atom i once per atom
    // Every such evaluator runs in pair_forces_kernel: the neighbour loop exists once.
    struct PlainPairEvaluator {
      static constexpr bool site_evaluator = false;
      struct AtomI {};
      __device__ AtomI load_i(int) const { return {}; }
    };

    struct PairLJDev : PlainPairEvaluator {
      const physics::LJCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorLJCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
    struct PairTableDev : PlainPairEvaluator {
      const physics::TableR2View<real> *t;
      const real *offset;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        const int ij = ti * ntp1 + tj;
        const bool ok = physics::EvaluatorTableR2<real>(rsq, t[ij]).evaluate(fpair, e);
        e -= offset[ij];
        return ok;
      }
    };

    struct PairGaussDev : PlainPairEvaluator {
      const physics::GaussParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorGauss<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
    struct PairHarmonicCutDev : PlainPairEvaluator {
      const physics::HarmonicCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorHarmonicCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };

    // DPD reads both atoms' velocities and draws a random number per pair and step (the
    // pair's two threads draw the same number from the tags, so the random forces cancel)
    struct PairDPDDev {
      static constexpr bool site_evaluator = true;
      const physics::DPDParams<real> *p;
      const real *cutsq;
      const acc *v0, *v1, *v2;
      const int *tag;
      Special4 special_sqrt;
      uint32_t seed, step;
      real dtinvsqrt;
      struct AtomI {
        real vx, vy, vz;
        uint32_t tag;
      };
      __device__ AtomI load_i(int i) const
      {
        return {real(v0[i]), real(v1[i]), real(v2[i]), static_cast<uint32_t>(tag[i])};
      }
      __device__ bool eval_site(const AtomI &ai, int j, int ij, int which, real dx, real dy,
                                real dz, real rsq, const Special4 &special_lj, real &fpair,
                                real &e) const
      {
        const real dot =
            dx * (ai.vx - real(v0[j])) + dy * (ai.vy - real(v1[j])) + dz * (ai.vz - real(v2[j]));
        const real xi = static_cast<real>(
            physics::dpd_gaussian(seed, ai.tag, static_cast<uint32_t>(tag[j]), step));
        return physics::dpd_pair<real>(rsq, dot, xi, dtinvsqrt, special_lj.w[which],
                                       special_sqrt.w[which], p[ij], fpair, e);
      }
    };

    // one thread per atom over its full neighbour list: each pair is evaluated twice and
    // no atomics are needed; energy and virial take half of each pair
    template <class Pair, bool EV, bool Images = false>
    __global__ void pair_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                       const int *nbr, Pair pair, int ntp1, Special4 special_lj,
                                       acc *f0, acc *f1, acc *f2, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const auto ai = pair.load_i(i);
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
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
      f0[i] = fx;
      f1[i] = fy;
      f2[i] = fz;
      if (EV) ev.store(i, e, v);
    }

  }    // namespace

  void Engine::set_pair_none()
  {
    impl->pair_kind = Impl::PairKind::none;
  }

  void Engine::set_pair_lj(const HostLJ &p)
  {
    impl->upload_pair(impl->lj, p.cutsq, Impl::PairKind::lj, [&](int k) {
      return physics::LJCutParams<real>{static_cast<real>(p.lj1[k]), static_cast<real>(p.lj2[k]),
                                        static_cast<real>(p.lj3[k]), static_cast<real>(p.lj4[k]),
                                        static_cast<real>(p.offset[k])};
    });
  }

  void Engine::set_pair_table_r2(const HostTableR2 &p)
  {
    Impl &s = *impl;
    const int np = s.ntp1() * s.ntp1();
    std::vector<real> coeff(p.coeff.begin(), p.coeff.end());
    s.table_coeff.upload(coeff);
    std::vector<size_t> start(p.n.size());
    size_t off = 0;
    for (size_t t = 0; t < p.n.size(); ++t) {
      start[t] = off;
      off += 4 * (size_t) p.n[t];
    }
    std::vector<physics::TableR2View<real>> views(np);
    std::vector<real> offset(np), cutsq(np);
    for (int k = 0; k < np; ++k) {
      const int t = p.table_of_pair[k];
      physics::TableR2View<real> v{};
      if (t >= 0) {
        v.coeff = s.table_coeff.get() + start[t];
        v.z_lo = static_cast<real>(p.z_lo[t]);
        v.dz = static_cast<real>(p.dz[t]);
        v.inv_dz = static_cast<real>(1.0 / p.dz[t]);
        v.n = p.n[t];
        v.inner = static_cast<physics::InnerMode>(p.inner);
      }
      views[k] = v;
      offset[k] = static_cast<real>(p.offset[k]);
      cutsq[k] = static_cast<real>(p.cutsq[k]);
    }
    s.table_view.upload(views);
    s.pair_offset.upload(offset);
    s.pair_cutsq.upload(cutsq);
    s.pair_kind = Impl::PairKind::table;
  }

  void Engine::set_pair_gauss(const HostGauss &p)
  {
    impl->upload_pair(impl->gauss, p.cutsq, Impl::PairKind::gauss, [&](int k) {
      return physics::GaussParams<real>{static_cast<real>(p.a[k]), static_cast<real>(p.b[k]),
                                        static_cast<real>(p.offset[k])};
    });
  }

  void Engine::set_pair_harmonic_cut(const HostHarmonicCut &p)
  {
    impl->upload_pair(impl->harmonic_cut, p.cutsq, Impl::PairKind::harmonic_cut, [&](int k) {
      return physics::HarmonicCutParams<real>{static_cast<real>(p.k[k]),
                                              static_cast<real>(p.cut[k])};
    });
  }

  void Engine::set_pair_dpd(const HostDPD &p)
  {
    impl->upload_pair(impl->dpd, p.cutsq, Impl::PairKind::dpd, [&](int k) {
      return physics::DPDParams<real>{static_cast<real>(p.a0[k]), static_cast<real>(p.gamma[k]),
                                      static_cast<real>(p.sigma[k]), static_cast<real>(p.cut[k])};
    });
    for (int k = 0; k < 4; ++k) impl->dpd_special_sqrt[k] = p.special_sqrt[k];
    impl->dpd_seed = p.seed;
  }

  void Engine::Impl::launch_pair_forces(const ForceLaunch &c)
  {
    Impl &s = *this;
    const int nb = c.nb;
    auto pair_launch = [&](auto pair) {
      using Pair = decltype(pair);
      auto kernel = c.ev ? pair_forces_kernel<Pair, true> : pair_forces_kernel<Pair, false>;
      if (c.box.img_bits)    // small box: explicit images
        kernel =
            c.ev ? pair_forces_kernel<Pair, true, true> : pair_forces_kernel<Pair, false, true>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nnbr.get(), s.nbr.get(), pair, s.ntp1(),
                            c.special_lj, s.f[0].get(), s.f[1].get(), s.f[2].get(), c.ev_pair,
                            s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    };
    switch (s.pair_kind) {
      case PairKind::lj:
        pair_launch(PairLJDev{{}, s.lj.get(), s.pair_cutsq.get()});
        break;
      case PairKind::table:
        pair_launch(PairTableDev{{}, s.table_view.get(), s.pair_offset.get(), s.pair_cutsq.get()});
        break;
      case PairKind::gauss:
        pair_launch(PairGaussDev{{}, s.gauss.get(), s.pair_cutsq.get()});
        break;
      case PairKind::harmonic_cut:
        pair_launch(PairHarmonicCutDev{{}, s.harmonic_cut.get(), s.pair_cutsq.get()});
        break;
      case PairKind::dpd: {
        PairDPDDev dpd{};
        dpd.p = s.dpd.get();
        dpd.cutsq = s.pair_cutsq.get();
        dpd.v0 = s.v[0].get();
        dpd.v1 = s.v[1].get();
        dpd.v2 = s.v[2].get();
        dpd.tag = s.tag.get();
        for (int k = 0; k < 4; ++k)
          dpd.special_sqrt.w[k] = static_cast<real>(s.dpd_special_sqrt[k]);
        dpd.seed = s.dpd_seed;
        dpd.step = static_cast<uint32_t>(s.step);
        // a step of length 0 (used to evaluate forces in place) carries no noise
        dpd.dtinvsqrt = s.dt > 0.0 ? static_cast<real>(1.0 / std::sqrt(s.dt)) : real(0);
        pair_launch(dpd);
        break;
      }
      case PairKind::soft_aniso:    // forces/soft_aniso.cu
        throw std::logic_error("mesogpu: launch_pair_forces called for soft/aniso");
      case PairKind::none:
        for (int d = 0; d < 3; ++d) s.f[d].zero();
        break;
    }
  }

}    // namespace cuda
}    // namespace mesogpu
