/* mesogpu: pair lj/cut on the device (pair_isotropic.h). */

#include "forces/pair_isotropic.h"
#include "forces/pair_kernel.cuh"
#include "physics/pair_lj_cut.h"

namespace mesogpu {
namespace cuda {

  namespace {
    struct PairLJDev : detail::PlainPairEvaluator {
      // 16-bit cell entries: bounded to 32 registers without spills (pair_kernel.cuh)
      static constexpr bool full_occupancy = true;
      const physics::LJCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorLJCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
  }    // namespace

  void add_pair_lj_cut(Engine &engine, const HostLJ &p)
  {
    using P = physics::LJCutParams<real>;
    Engine::Impl &s = engine.internals();
    auto h = detail::per_type_pair<P>(s.ntp1(), [&](size_t k) {
      return P{static_cast<real>(p.lj1[k]), static_cast<real>(p.lj2[k]),
               static_cast<real>(p.lj3[k]), static_cast<real>(p.lj4[k]),
               static_cast<real>(p.offset[k])};
    });
    s.add_force(std::make_unique<detail::TypePairTerm<P, PairLJDev>>(s, h, p.cutsq));
  }

}    // namespace cuda
}    // namespace mesogpu
