/* mesogpu: pair soft/aniso on the device (pair_soft_aniso.h): forces and torques of the
 * one-site soft anisotropic particles. */

#include "forces/oriented_pair_kernel.cuh"
#include "forces/pair_soft_aniso.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {
    struct SoftAnisoDev {
      const physics::SoftAnisoParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ij, const real rij[3], const real ni[3], const real nj[3], real &e,
                           real fj[3], real gi[3], real gj[3]) const
      {
        return physics::soft_aniso_pair<real>(p[ij], rij, ni, nj, e, fj, gi, gj);
      }
    };

    class SoftAnisoTerm : public detail::ForceTerm {
     public:
      SoftAnisoTerm(Engine::Impl &s, const HostSoftAniso &h) : ForceTerm(detail::ForceGroup::pair)
      {
        detail::AllocLabel label("the pair coefficients");
        using P = physics::SoftAnisoParams<real>;
        params.upload(detail::per_type_pair<P>(s.ntp1(), [&](size_t k) {
          const physics::SoftAnisoParams<double> &q = h.params[k];
          P r;
          r.model = q.model;
          r.alpha_r = static_cast<real>(q.alpha_r);
          r.alpha_a = static_cast<real>(q.alpha_a);
          r.mu = static_cast<real>(q.mu);
          r.nu = static_cast<real>(q.nu);
          r.k = static_cast<real>(q.k);
          r.c_edge = static_cast<real>(q.c_edge);
          r.rc = static_cast<real>(q.rc);
          r.inv_rc = static_cast<real>(q.inv_rc);
          return r;
        }));
        cutsq.upload(s.pair_cutsq_for_term(h.cutsq));
      }
      bool makes_torque() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_oriented_pair_kernel(s, c, SoftAnisoDev{params.get(), cutsq.get()});
      }

     private:
      DeviceArray<physics::SoftAnisoParams<real>> params;
      DeviceArray<real> cutsq;
    };
  }    // namespace

  void add_pair_soft_aniso(Engine &engine, const HostSoftAniso &p)
  {
    Engine::Impl &s = engine.internals();
    if (!s.have_orient)
      throw std::runtime_error("mesogpu: pair soft/aniso needs orientations (upload_orientation)");
    s.add_force(std::make_unique<SoftAnisoTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
