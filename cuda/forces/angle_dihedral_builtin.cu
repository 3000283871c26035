/* mesogpu: angle harmonic and cosine/squared, dihedral harmonic and charmm on the device
 * (bonded_builtin.h). */

#include "forces/bonded_builtin.h"
#include "forces/bonded_kernels.cuh"
#include "physics/angle.h"
#include "physics/dihedral.h"

#include <cmath>

namespace mesogpu {
namespace cuda {

  namespace {
    template <physics::AngleKind Kind> struct AngleDev {
      const physics::AngleParams<real> *p;
      __device__ bool eval(int t, const real d1[3], const real d2[3], real f1[3], real f3[3],
                           real &e) const
      {
        physics::angle_force<Kind, real>(d1, d2, p[t], f1, f3, e);
        return true;
      }
    };
    struct DihedralDev {
      const physics::DihedralParams<real> *p;
      __device__ bool eval(int t, const real vb1[3], const real vb2[3], const real vb3[3],
                           real g1[3], real g2[3], real g3[3], real g4[3], real &e) const
      {
        physics::dihedral_force<real>(vb1, vb2, vb3, p[t], g1, g2, g3, g4, e);
        return true;
      }
    };

    template <physics::AngleKind Kind>
    class AngleTerm : public detail::BondedTerm<detail::ForceGroup::angle> {
     public:
      explicit AngleTerm(const std::vector<physics::AngleParams<real>> &h)
      {
        detail::AllocLabel label("the angle coefficients");
        params.upload(h);
      }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_angle_kernel(s, c, AngleDev<Kind>{params.get()});
      }

     private:
      DeviceArray<physics::AngleParams<real>> params;
    };

    class DihedralTerm : public detail::BondedTerm<detail::ForceGroup::dihedral> {
     public:
      explicit DihedralTerm(const std::vector<physics::DihedralParams<real>> &h)
      {
        detail::AllocLabel label("the dihedral coefficients");
        params.upload(h);
      }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_dihedral_kernel(s, c, DihedralDev{params.get()});
      }

     private:
      DeviceArray<physics::DihedralParams<real>> params;
    };
  }    // namespace

  void add_angle(Engine &engine, const HostAngle &p)
  {
    std::vector<physics::AngleParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.theta0[t]),
              static_cast<real>(std::cos(p.theta0[t]))};
    using physics::AngleKind;
    if (p.kind == static_cast<int>(AngleKind::harmonic))
      engine.internals().add_force(std::make_unique<AngleTerm<AngleKind::harmonic>>(h));
    else
      engine.internals().add_force(std::make_unique<AngleTerm<AngleKind::cosine_squared>>(h));
  }

  void add_dihedral(Engine &engine, const HostDihedral &p)
  {
    std::vector<physics::DihedralParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.cos_shift[t]),
              static_cast<real>(p.sin_shift[t]), p.multiplicity[t]};
    engine.internals().add_force(std::make_unique<DihedralTerm>(h));
  }

}    // namespace cuda
}    // namespace mesogpu
