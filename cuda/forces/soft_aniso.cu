/* mesogpu: pair soft/aniso on the device (pair_soft_aniso.h): forces and torques of the
 * one-site soft anisotropic particles. */

#include "forces/oriented_pair_kernel.cuh"
#include "forces/pair_soft_aniso.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {
    // orientation: the unit vector n (s.orient_packed); one special factor (special_lj)
    // scales energy, force and torque
    struct SoftAnisoDev {
      // 8 blocks of 128 per SM (64 registers): the general template gave this kernel 70,
      // 7 blocks, and triblock-1536k 4 % fewer steps/s on an H100 (2026-11-25)
      static constexpr int min_blocks = 8;
      const physics::SoftAnisoParams<real> *p;
      const real *cutsq;
      const real4 *orient;
      Special4 special_lj;
      struct Site {
        real n[3];
      };
      __device__ Site site(int i, int) const
      {
        const real4 o = orient[i];
        return Site{{o.x, o.y, o.z}};
      }
      __device__ bool eval(int ij, int which, const real rij[3], const Site &si, const Site &sj,
                           real &e, real fj[3], real ti[3]) const
      {
        real gi[3], gj[3];
        if (!physics::soft_aniso_pair<real>(p[ij], rij, si.n, sj.n, e, fj, gi, gj)) return false;
        const real *n = si.n;    // torque on i: n_i x g_i
        ti[0] = n[1] * gi[2] - n[2] * gi[1];
        ti[1] = n[2] * gi[0] - n[0] * gi[2];
        ti[2] = n[0] * gi[1] - n[1] * gi[0];
        // always scaled (w[0] = 1): a branch on `which` costs the kernel registers
        const real factor = special_lj.w[which];
        e *= factor;
        for (int d = 0; d < 3; ++d) {
          fj[d] *= factor;
          ti[d] *= factor;
        }
        return true;
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
        detail::launch_oriented_pair_kernel(
            s, c, SoftAnisoDev{params.get(), cutsq.get(), s.orient_packed.get(), c.special_lj});
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
