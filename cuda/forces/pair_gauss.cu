/* mesogpu: pair gauss on the device (pair_isotropic.h). */

#include "forces/pair_isotropic.h"
#include "forces/pair_kernel.cuh"
#include "physics/pair_gauss.h"

namespace mesogpu {
namespace cuda {

  namespace {
    struct PairGaussDev : detail::PlainPairEvaluator {
      const physics::GaussParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorGauss<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
  }    // namespace

  void add_pair_gauss(Engine &engine, const HostGauss &p)
  {
    using P = physics::GaussParams<real>;
    Engine::Impl &s = engine.internals();
    auto h = detail::per_type_pair<P>(s.ntp1(), [&](size_t k) {
      return P{static_cast<real>(p.a[k]), static_cast<real>(p.b[k]),
               static_cast<real>(p.offset[k])};
    });
    s.add_force(std::make_unique<detail::TypePairTerm<P, PairGaussDev>>(s, h, p.cutsq));
  }

}    // namespace cuda
}    // namespace mesogpu
