/* mesogpu: pair table/r2 on the device (pair_isotropic.h): cubic splines in r^2. */

#include "forces/pair_isotropic.h"
#include "forces/pair_kernel.cuh"
#include "physics/table_r2.h"

namespace mesogpu {
namespace cuda {

  namespace {
    struct PairTableDev : detail::PlainPairEvaluator {
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

    class PairTableTerm : public detail::ForceTerm {
     public:
      PairTableTerm(Engine::Impl &s, const HostTableR2 &p) : ForceTerm(detail::ForceGroup::pair)
      {
        detail::AllocLabel label("the table/r2 tables");
        const int np = s.ntp1() * s.ntp1();
        std::vector<real> c(p.coeff.begin(), p.coeff.end());
        coeff.upload(c);
        std::vector<size_t> start(p.n.size());
        size_t off = 0;
        for (size_t t = 0; t < p.n.size(); ++t) {
          start[t] = off;
          off += 4 * (size_t) p.n[t];
        }
        std::vector<physics::TableR2View<real>> v(np);
        std::vector<real> o(np);
        for (int k = 0; k < np; ++k) {
          const int t = p.table_of_pair[k];
          physics::TableR2View<real> w{};
          if (t >= 0) {
            w.coeff = coeff.get() + start[t];
            w.z_lo = static_cast<real>(p.z_lo[t]);
            w.dz = static_cast<real>(p.dz[t]);
            w.inv_dz = static_cast<real>(1.0 / p.dz[t]);
            w.n = p.n[t];
            w.inner = static_cast<physics::InnerMode>(p.inner);
          }
          v[k] = w;
          o[k] = static_cast<real>(p.offset[k]);
        }
        views.upload(v);
        offset.upload(o);
        cutsq.upload(s.pair_cutsq_for_term(p.cutsq));
      }
      bool takes_rows() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_pair_kernel(s, c, PairTableDev{{}, views.get(), offset.get(), cutsq.get()});
      }

     private:
      DeviceArray<real> coeff, offset, cutsq;
      DeviceArray<physics::TableR2View<real>> views;
    };
  }    // namespace

  void add_pair_table_r2(Engine &engine, const HostTableR2 &p)
  {
    Engine::Impl &s = engine.internals();
    s.add_force(std::make_unique<PairTableTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
