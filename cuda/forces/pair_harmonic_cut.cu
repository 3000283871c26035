/* mesogpu: pair harmonic/cut on the device (pair_isotropic.h). */

#include "forces/pair_isotropic.h"
#include "forces/pair_kernel.cuh"
#include "physics/pair_harmonic_cut.h"

namespace mesogpu {
namespace cuda {

  namespace {
    struct PairHarmonicCutDev : detail::PlainPairEvaluator {
      const physics::HarmonicCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorHarmonicCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
  }    // namespace

  void add_pair_harmonic_cut(Engine &engine, const HostHarmonicCut &p)
  {
    using P = physics::HarmonicCutParams<real>;
    Engine::Impl &s = engine.internals();
    auto h = detail::per_type_pair<P>(s.ntp1(), [&](size_t k) {
      return P{static_cast<real>(p.k[k]), static_cast<real>(p.cut[k])};
    });
    s.add_force(std::make_unique<detail::TypePairTerm<P, PairHarmonicCutDev>>(s, h, p.cutsq));
  }

}    // namespace cuda
}    // namespace mesogpu
