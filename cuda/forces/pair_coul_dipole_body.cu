/* mesogpu: pair coul/dipole/body on the device (pair_coul_dipole_body.h): charges and
 * body-frame point dipoles of coarse-grained beads, forces and torques from the
 * rigid-body quaternions. The physics is src/physics/bead_electrostatics.h's body_dipole
 * and bead_elec_pair, called as the CPU style calls them. */

#include "forces/oriented_pair_kernel.cuh"
#include "forces/pair_coul_dipole_body.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {
    using physics::BeadElecParams;

    // a bead: its charge and lab dipole p = mu R(q) b (0 for types without a dipole and
    // atoms without a body); special bonds scale everything by special_coul
    struct CoulDipoleBodyDev {
      // 7 blocks of 128 per SM (72 registers, no spills; ptxas -v, sm_90): the 'elec sf'
      // factors of bead_elec_pair gave the kernel without energies 80 (6 blocks; 67 before)
      static constexpr int min_blocks = 7;
      BeadElecParams<real> p;
      const real *cutsq;
      const real4 *quat;
      const acc *charge;
      const real *mu;     // per type
      const real *dir;    // 3 per type
      Special4 special_coul;
      struct Site {
        real q;
        real p[3];
      };
      __device__ Site site(int i, int type) const
      {
        Site s{static_cast<real>(charge[i]), {real(0), real(0), real(0)}};
        const real m = mu[type];
        if (m != real(0)) {
          real q[4];
          detail::load_quat(quat, i, q);
          physics::body_dipole<real>(q, m, dir + 3 * type, s.p);
        }
        return s;
      }
      __device__ bool eval(int, int which, const real rij[3], const Site &si, const Site &sj,
                           real &e, real fj[3], real ti[3]) const
      {
        real tj[3];
        if (!physics::bead_elec_pair<real>(p, rij, si.q, sj.q, si.p, sj.p, e, fj, ti, tj))
          return false;
        // the energy is linear in the charges and dipoles: special bonds scale all of it
        const real factor = special_coul.w[which];
        if (factor != real(1)) {
          e *= factor;
          for (int d = 0; d < 3; ++d) {
            fj[d] *= factor;
            ti[d] *= factor;
          }
        }
        return true;
      }
    };

    class CoulDipoleBodyTerm : public detail::ForceTerm {
     public:
      CoulDipoleBodyTerm(Engine::Impl &s, const HostCoulDipoleBody &h) :
          ForceTerm(detail::ForceGroup::pair)
      {
        detail::AllocLabel label("the pair coefficients");
        const physics::BeadElecParams<double> &q = h.params;
        p.qqrd2e = static_cast<real>(q.qqrd2e);
        p.cutsq = static_cast<real>(q.cutsq);
        p.mode = q.mode;
        p.eps_rf = static_cast<real>(q.eps_rf);
        p.k_rf = static_cast<real>(q.k_rf);
        p.c_rf = static_cast<real>(q.c_rf);
        p.rc_inv = static_cast<real>(q.rc_inv);
        cutsq.upload(s.pair_cutsq_for_term(h.cutsq));
        mu.upload(std::vector<real>(h.mu.begin(), h.mu.end()));
        dir.upload(std::vector<real>(h.dir.begin(), h.dir.end()));
        special_coul.w[0] = real(1);
        for (int k = 1; k < 4; ++k) special_coul.w[k] = static_cast<real>(h.special_coul[k]);
      }
      bool makes_torque() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        if (s.n == 0) return;
        const acc *charge = s.slot_data("q");    // follows sorts: look it up at each launch
        if (!charge) throw std::runtime_error("mesogpu: pair coul/dipole/body: no charges");
        detail::launch_oriented_pair_kernel(s, c,
                                            CoulDipoleBodyDev{p, cutsq.get(), s.quat_packed.get(),
                                                              charge, mu.get(), dir.get(),
                                                              special_coul});
      }

     private:
      BeadElecParams<real> p{};
      DeviceArray<real> cutsq, mu, dir;
      Special4 special_coul{};
    };
  }    // namespace

  void add_pair_coul_dipole_body(Engine &engine, const HostCoulDipoleBody &p)
  {
    Engine::Impl &s = engine.internals();
    if (!s.have_bodies)
      throw std::runtime_error(
          "mesogpu: pair coul/dipole/body needs rigid-body quaternions (upload_bodies)");
    if ((int) p.mu.size() != s.ntp1() || (int) p.dir.size() != 3 * s.ntp1())
      throw std::runtime_error("mesogpu: pair coul/dipole/body: one dipole per type expected");
    if (!p.charge && s.n > 0)
      throw std::runtime_error("mesogpu: pair coul/dipole/body needs the charges");
    // (every rank, rows or none: the registries of all ranks list the same arrays; the
    // ghosts' charges are read, so a device rebuild sends them)
    engine.upload_per_atom("q", 1, p.charge, true);
    s.add_force(std::make_unique<CoulDipoleBodyTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
