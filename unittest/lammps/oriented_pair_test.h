/* Helpers of the LAMMPS-level tests of the oriented pair styles (ssd, gb,
   coul/dipole/body): the state a 'run 0' leaves, one pair's share of the reference forces,
   torques and virial, and forces and torques against central differences of the total
   energy. */
#ifndef MESOGPU_UNITTEST_ORIENTED_PAIR_TEST_H
#define MESOGPU_UNITTEST_ORIENTED_PAIR_TEST_H

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "lmp_session.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace oriented_pair_test {

// what a 'run 0' leaves: pe, evdwl, ecoul and the pressure tensor (thermo, not normalised),
// forces and torques by atom ID (tags may have gaps)
struct State {
  double pe = 0, evdwl = 0, ecoul = 0, press[6] = {0, 0, 0, 0, 0, 0};
  std::vector<double> f, t;
};

inline State run0_state(LmpSession &s)
{
  s.cmd("thermo_style custom step pe evdwl ecoul pxx pyy pzz pxy pxz pyz");
  s.cmd("thermo_modify norm no");
  s.cmd("run 0 post no");
  State st;
  const LAMMPS_NS::Atom *a = s.lmp->atom;
  st.pe = s.thermo("pe");
  st.evdwl = s.thermo("evdwl");
  st.ecoul = s.thermo("ecoul");
  const char *p[6] = {"pxx", "pyy", "pzz", "pxy", "pxz", "pyz"};
  for (int k = 0; k < 6; ++k) st.press[k] = s.thermo(p[k]);
  st.f.assign(3 * a->map_tag_max, 0.0);
  st.t.assign(3 * a->map_tag_max, 0.0);
  for (int i = 0; i < a->nlocal; ++i)
    for (int d = 0; d < 3; ++d) {
      st.f[3 * (a->tag[i] - 1) + d] = a->f[i][d];
      st.t[3 * (a->tag[i] - 1) + d] = a->torque[i][d];
    }
  return st;
}

// max |a_k - b_k|; scale = max |b_k|
inline double max_diff(const std::vector<double> &a, const std::vector<double> &b, double &scale)
{
  double d = 0;
  scale = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    d = std::max(d, std::fabs(a[k] - b[k]));
    scale = std::max(scale, std::fabs(b[k]));
  }
  return d;
}

// the quaternion of local atom i's ellipsoid bonus, nullptr without one
inline double *body_quat(LAMMPS_NS::LAMMPS *lmp, int i)
{
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(lmp->atom->style_match("ellipsoid"));
  const int e = lmp->atom->ellipsoid[i];
  return e < 0 ? nullptr : avec->bonus[e].quat;
}

// one pair of a reference loop: r = x_j - x_i, fj the force on j, ti and tj the torques;
// f and t by tag (3 per atom, gi = tag_i - 1), w the virial sum of r_ij F_j (xx yy zz xy xz yz)
inline void tally_pair(double *f, double *t, double w[6], int gi, int gj, const double r[3],
                       const double fj[3], const double ti[3], const double tj[3])
{
  for (int d = 0; d < 3; ++d) {
    f[3 * gi + d] -= fj[d];
    f[3 * gj + d] += fj[d];
    t[3 * gi + d] += ti[d];
    t[3 * gj + d] += tj[d];
  }
  w[0] += r[0] * fj[0];
  w[1] += r[1] * fj[1];
  w[2] += r[2] * fj[2];
  w[3] += r[0] * fj[1];
  w[4] += r[0] * fj[2];
  w[5] += r[1] * fj[2];
}

// q = dq q0 with dq a rotation by phi about lab axis k (Hamilton product, (w, x, y, z))
inline void turn_quat(double *q, const double q0[4], int k, double phi)
{
  double dq[4] = {std::cos(phi / 2), 0, 0, 0};
  dq[1 + k] = std::sin(phi / 2);
  q[0] = dq[0] * q0[0] - dq[1] * q0[1] - dq[2] * q0[2] - dq[3] * q0[3];
  q[1] = dq[0] * q0[1] + dq[1] * q0[0] + dq[2] * q0[3] - dq[3] * q0[2];
  q[2] = dq[0] * q0[2] - dq[1] * q0[3] + dq[2] * q0[0] + dq[3] * q0[1];
  q[3] = dq[0] * q0[3] + dq[1] * q0[2] - dq[2] * q0[1] + dq[3] * q0[0];
}

// the force f (3 values) on local atom i against central differences of pe() when the atom
// moves by +-h along x, y, z
template <class Pe>
void expect_force_fd(LAMMPS_NS::Atom *a, int i, const double *f, Pe pe, double h,
                     const std::string &what)
{
  for (int d = 0; d < 3; ++d) {
    const double x0 = a->x[i][d];
    a->x[i][d] = x0 + h;
    const double ep = pe();
    a->x[i][d] = x0 - h;
    const double em = pe();
    a->x[i][d] = x0;
    const double fd = -(ep - em) / (2 * h);
    EXPECT_NEAR(f[d], fd, 1e-6 * (1 + std::fabs(fd))) << what << " d " << d;
  }
}

// the torque tau (3 values, lab frame) of a particle with quaternion q against central
// differences of pe(): turning it by phi about lab axis k changes the energy by -tau_k phi
template <class Pe>
void expect_torque_fd(double *q, const double *tau, Pe pe, double h, const std::string &what)
{
  const double q0[4] = {q[0], q[1], q[2], q[3]};
  for (int k = 0; k < 3; ++k) {
    turn_quat(q, q0, k, h);
    const double ep = pe();
    turn_quat(q, q0, k, -h);
    const double em = pe();
    for (int m = 0; m < 4; ++m) q[m] = q0[m];
    const double fd = -(ep - em) / (2 * h);
    EXPECT_NEAR(tau[k], fd, 1e-6 * (1 + std::fabs(fd))) << what << " k " << k;
  }
}

}    // namespace oriented_pair_test

#endif
