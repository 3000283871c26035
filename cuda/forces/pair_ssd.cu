/* mesogpu: pair ssd on the device (pair_ssd.h): the soft-sticky-dipole water models,
 * forces and torques of single-site rigid bodies from their quaternions. The physics is
 * src/physics/ssd.h's ssd_pair, called as the CPU style calls it. */

#include "forces/oriented_pair_kernel.cuh"
#include "forces/pair_ssd.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {
    using physics::SsdParams;

    // orientation: the body frame A = R(q)^T of the quaternion; special bonds scale the van
    // der Waals part by special_lj and the dipole part by special_coul (as the CPU style)
    struct SsdDev {
      const SsdParams<real> *p;
      const real *cutsq;
      const real4 *quat;
      Special4 special_lj, special_coul;
      struct Site {
        real a[9];
      };
      __device__ Site site(int i, int) const
      {
        real q[4];
        detail::load_quat(quat, i, q);
        Site s;
        physics::quat_to_body_frame<real>(q, s.a);
        return s;
      }
      __device__ bool eval(int ij, int which, const real rij[3], const Site &si, const Site &sj,
                           real &e, real fj[3], real ti[3]) const
      {
        real e_vdw, e_coul, tj[3];
        bool hit;
        if (which) {
          const SsdParams<real> q =
              physics::ssd_special_scaled<real>(p[ij], special_lj.w[which], special_coul.w[which]);
          hit = physics::ssd_pair<real>(q, rij, si.a, sj.a, e_vdw, e_coul, fj, ti, tj);
        } else {
          hit = physics::ssd_pair<real>(p[ij], rij, si.a, sj.a, e_vdw, e_coul, fj, ti, tj);
        }
        e = e_vdw + e_coul;
        return hit;
      }
    };

    SsdParams<real> to_real(const SsdParams<double> &q)
    {
      SsdParams<real> r;
      r.sigma = static_cast<real>(q.sigma);
      r.epsilon = static_cast<real>(q.epsilon);
      r.lj1 = static_cast<real>(q.lj1);
      r.lj2 = static_cast<real>(q.lj2);
      r.lj_cutsq = static_cast<real>(q.lj_cutsq);
      r.lj_offset = static_cast<real>(q.lj_offset);
      r.lj_cut = static_cast<real>(q.lj_cut);
      r.lj_sw = static_cast<real>(q.lj_sw);
      r.mu_i = static_cast<real>(q.mu_i);
      r.mu_j = static_cast<real>(q.mu_j);
      r.dip = static_cast<real>(q.dip);
      r.elec = q.elec;
      r.coul_cutsq = static_cast<real>(q.coul_cutsq);
      r.coul_rcinv = static_cast<real>(q.coul_rcinv);
      r.coul_cut = static_cast<real>(q.coul_cut);
      r.coul_sw = static_cast<real>(q.coul_sw);
      r.eps_rf = static_cast<real>(q.eps_rf);
      r.rf = static_cast<real>(q.rf);
      r.nu0 = static_cast<real>(q.nu0);
      r.nu0p = static_cast<real>(q.nu0p);
      r.w0 = static_cast<real>(q.w0);
      r.rl = static_cast<real>(q.rl);
      r.ru = static_cast<real>(q.ru);
      r.rlp = static_cast<real>(q.rlp);
      r.rup = static_cast<real>(q.rup);
      r.sticky_cut = static_cast<real>(q.sticky_cut);
      r.cutsq = static_cast<real>(q.cutsq);
      return r;
    }

    class SsdTerm : public detail::ForceTerm {
     public:
      SsdTerm(Engine::Impl &s, const HostSsd &h) : ForceTerm(detail::ForceGroup::pair)
      {
        detail::AllocLabel label("the pair coefficients");
        params.upload(detail::per_type_pair<SsdParams<real>>(
            s.ntp1(), [&](size_t k) { return to_real(h.params[k]); }));
        cutsq.upload(s.pair_cutsq_for_term(h.cutsq));
        special_coul.w[0] = real(1);
        for (int k = 1; k < 4; ++k) special_coul.w[k] = static_cast<real>(h.special_coul[k]);
      }
      bool makes_torque() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_oriented_pair_kernel(
            s, c,
            SsdDev{params.get(), cutsq.get(), s.quat_packed.get(), c.special_lj, special_coul});
      }

     private:
      DeviceArray<SsdParams<real>> params;
      DeviceArray<real> cutsq;
      Special4 special_coul{};
    };
  }    // namespace

  void add_pair_ssd(Engine &engine, const HostSsd &p)
  {
    Engine::Impl &s = engine.internals();
    if (!s.have_bodies)
      throw std::runtime_error("mesogpu: pair ssd needs rigid-body quaternions (upload_bodies)");
    s.add_force(std::make_unique<SsdTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
