/* mesogpu: bond harmonic and fene on the device (bonded_builtin.h). */

#include "forces/bonded_builtin.h"
#include "forces/bonded_kernels.cuh"
#include "physics/bond_fene.h"
#include "physics/bond_harmonic.h"

#include <cmath>
#include <sstream>

namespace mesogpu {
namespace cuda {

  namespace {
    struct BondHarmonicDev {
      const physics::BondHarmonicParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_harmonic<real>(rsq, p[t], fbond, e);
      }
    };
    struct BondFENEDev {
      const physics::BondFENEParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_fene<real>(rsq, p[t], fbond, e);
      }
    };

    template <class P, class Dev>
    class BondTerm : public detail::BondedTerm<detail::ForceGroup::bond> {
     public:
      BondTerm(const std::vector<P> &h, const char *name) : name(name)
      {
        detail::AllocLabel label("the bond coefficients");
        params.upload(h);
      }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_bond_kernel(s, c, Dev{params.get()});
      }
      std::string describe_error(const detail::ErrorRecord &e) const override
      {
        if (!this->owns(e)) return "";
        std::ostringstream m;
        m << "bad " << name << " bond between atoms at device index " << e.i << " and " << e.j
          << ": length " << std::sqrt(e.rsq) << " is at least twice R0";
        return m.str();
      }

     private:
      DeviceArray<P> params;
      const char *name;
    };
  }    // namespace

  void add_bond_harmonic(Engine &engine, const HostBondHarmonic &p)
  {
    using P = physics::BondHarmonicParams<real>;
    std::vector<P> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t])};
    engine.internals().add_force(std::make_unique<BondTerm<P, BondHarmonicDev>>(h, "harmonic"));
  }

  void add_bond_fene(Engine &engine, const HostBondFENE &p)
  {
    using P = physics::BondFENEParams<real>;
    std::vector<P> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t]),
              static_cast<real>(p.epsilon[t]), static_cast<real>(p.sigma[t])};
    engine.internals().add_force(std::make_unique<BondTerm<P, BondFENEDev>>(h, "FENE"));
  }

}    // namespace cuda
}    // namespace mesogpu
