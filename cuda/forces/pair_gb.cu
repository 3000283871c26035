/* mesogpu: pair gb on the device (pair_gb.h): Gay-Berne forces and torques of uniaxial
 * ellipsoids (long axis = body z of the quaternion) and spheres. The physics is
 * src/physics/gay_berne.h's gay_berne_pair, called as the CPU style calls it. */

#include "forces/oriented_pair_kernel.cuh"
#include "forces/pair_gb.h"
#include "physics/quaternion.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {
    using physics::GayBerneParams;

    // orientation: the long axis u, the third column of R(q) (0 for sphere types and atoms
    // without a body); special bonds scale eps0 by special_lj, and a factor 0 skips the pair
    struct GayBerneDev {
      const GayBerneParams<real> *p;
      const real *cutsq;
      const real4 *quat;
      const int *sphere;
      Special4 special_lj;
      struct Site {
        real u[3];
      };
      __device__ Site site(int i, int type) const
      {
        Site s{{real(0), real(0), real(0)}};
        if (sphere[type]) return s;
        real q[4], m[9];
        detail::load_quat(quat, i, q);
        physics::quat_to_rotation<real>(q, m);
        s.u[0] = m[2];
        s.u[1] = m[5];
        s.u[2] = m[8];
        return s;
      }
      __device__ bool eval(int ij, int which, const real rij[3], const Site &si, const Site &sj,
                           real &e, real fj[3], real ti[3]) const
      {
        real tj[3];
        const real factor = special_lj.w[which];
        if (factor == real(0)) return false;
        if (factor != real(1)) {
          // energy, forces and torques are proportional to eps0 (the shift too)
          GayBerneParams<real> q = p[ij];
          q.eps0 *= factor;
          return physics::gay_berne_pair<real>(q, rij, si.u, sj.u, e, fj, ti, tj);
        }
        return physics::gay_berne_pair<real>(p[ij], rij, si.u, sj.u, e, fj, ti, tj);
      }
    };

    GayBerneParams<real> to_real(const GayBerneParams<double> &q)
    {
      GayBerneParams<real> r;
      r.sigma0 = static_cast<real>(q.sigma0);
      r.dw_sigma0 = static_cast<real>(q.dw_sigma0);
      r.eps0 = static_cast<real>(q.eps0);
      r.mu = static_cast<real>(q.mu);
      r.nu = static_cast<real>(q.nu);
      r.chi_a2 = static_cast<real>(q.chi_a2);
      r.chi_ai2 = static_cast<real>(q.chi_ai2);
      r.chi2 = static_cast<real>(q.chi2);
      r.chip_a2 = static_cast<real>(q.chip_a2);
      r.chip_ai2 = static_cast<real>(q.chip_ai2);
      r.chip2 = static_cast<real>(q.chip2);
      r.rc = static_cast<real>(q.rc);
      r.shift = q.shift;
      return r;
    }

    class GayBerneTerm : public detail::ForceTerm {
     public:
      GayBerneTerm(Engine::Impl &s, const HostGayBerne &h) : ForceTerm(detail::ForceGroup::pair)
      {
        detail::AllocLabel label("the pair coefficients");
        params.upload(detail::per_type_pair<GayBerneParams<real>>(
            s.ntp1(), [&](size_t k) { return to_real(h.params[k]); }));
        cutsq.upload(s.pair_cutsq_for_term(h.cutsq));
        sphere.upload(h.sphere);
      }
      bool makes_torque() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_oriented_pair_kernel(s, c,
                                            GayBerneDev{params.get(), cutsq.get(),
                                                        s.quat_packed.get(), sphere.get(),
                                                        c.special_lj});
      }

     private:
      DeviceArray<GayBerneParams<real>> params;
      DeviceArray<real> cutsq;
      DeviceArray<int> sphere;
    };
  }    // namespace

  void add_pair_gb(Engine &engine, const HostGayBerne &p)
  {
    Engine::Impl &s = engine.internals();
    if (!s.have_bodies)
      throw std::runtime_error("mesogpu: pair gb needs rigid-body quaternions (upload_bodies)");
    if ((int) p.sphere.size() != s.ntp1())
      throw std::runtime_error("mesogpu: pair gb: one sphere flag per type expected");
    s.add_force(std::make_unique<GayBerneTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
