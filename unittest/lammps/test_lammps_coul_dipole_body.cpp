/* pair_style coul/dipole/body inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH).
   References: LAMMPS's own pair_style lj/cut/dipole/cut with epsilon 0 (dipoles along body z,
   atom->mu set here from each quaternion), the documented formulas written out here for two
   beads, a slow loop over all pairs with the minimum image that calls nothing but
   src/physics/bead_electrostatics.h, central finite differences of LAMMPS's total energy
   (forces: moving one bead; torques: turning one quaternion about a lab axis), Newton's third
   law and the angular momentum of a free cluster, newton on against off, hybrid/overlay with
   lj/cut, restart and data-file round trips; the errors are in
   test_lammps_coul_dipole_body_errors.cpp. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "force.h"
#include "info.h"
#include "lammps.h"
#include "pair.h"

#include "lmp_session.h"
#include "oriented_pair_test.h"
#include "physics/bead_electrostatics.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <string>
#include <unistd.h>
#include <vector>

using mesogpu::physics::bead_elec_pair;
using mesogpu::physics::BeadElec;
using mesogpu::physics::body_dipole;
using mesogpu::physics::make_bead_elec_params;
using Params = mesogpu::physics::BeadElecParams<double>;

namespace {

using oriented_pair_test::max_diff;
using oriented_pair_test::State;

const double A = 3.1;      // lattice spacing, Angstrom
const double L = 4 * A;    // box edge of the 4 x 4 x 4 lattice
const double RC = 6.0;     // cutoff of the periodic tests (< L / 2: minimum image)
const double EPS_RF = 78.0;
const double DEBYE = 0.208194;
const double QQR2E = 332.06371;    // LAMMPS real units

// the four bead types of the tests: charge, dipole magnitude (e A), unit body direction
struct TypeDef {
  double q, mu, b[3];
};

std::string tmp_name(const std::string &stem)
{
  return "lmp_cdb_" + std::to_string(getpid()) + "_" + stem;
}

class CoulDipoleBody : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  std::vector<TypeDef> types;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // 64 beads on a simple cubic lattice, displaced by up to 0.15 A per component, random
  // orientations, four types: +1 charge, -1 charge, a neutral dipole, a charge with a dipole
  void lattice(const std::string &newton, bool zaxis, bool periodic = true)
  {
    cmd("units real");
    cmd("atom_style hybrid ellipsoid dipole");
    cmd("atom_modify map array sort 0 0.0");
    cmd("newton " + newton);
    if (!periodic) cmd("boundary f f f");
    cmd("lattice sc 3.1");
    if (periodic) {
      cmd("region box block 0 4 0 4 0 4");
      cmd("create_box 4 box");
      cmd("create_atoms 1 box");
    } else {
      cmd("region box block -4 7 -4 7 -4 7");
      cmd("region cl block 0 3 0 3 0 3");
      cmd("create_box 4 box");
      cmd("create_atoms 1 region cl");
    }
    cmd("displace_atoms all random 0.15 0.15 0.15 7781 units box");
    cmd("set type 1 type/fraction 2 0.25 1234");
    cmd("set type 1 type/fraction 3 0.33 1235");
    cmd("set type 1 type/fraction 4 0.5 1236");
    cmd("set type * shape 1 1 1");
    cmd("set type * mass 72.0");
    cmd("mass * 72.0");    // atom_style dipole's per-type masses (write_data writes them)
    cmd("set type * quat/random 4471");
    cmd("set type 1 charge 1.0");
    cmd("set type 2 charge -1.0");
    cmd("set type 3 charge 0.0");
    cmd("set type 4 charge -0.6");
    cmd("neighbor 1.0 bin");
    const double s3 = 1 / std::sqrt(3.0);
    types = {{0, 0, {0, 0, 1}},
             {1.0, 0, {0, 0, 1}},
             {-1.0, 0, {0, 0, 1}},
             {0, 0, {0, 0, 1}},
             {-0.6, 0, {0, 0, 1}}};
    types[3].mu = 2.8 * DEBYE;
    types[4].mu = 0.45;
    if (!zaxis) {
      types[3].b[0] = 1;    // body x
      types[3].b[2] = 0;
      types[4].b[0] = s3;
      types[4].b[1] = -s3;
      types[4].b[2] = s3;
    }
  }

  void style(const std::string &elec)
  {
    cmd("pair_style coul/dipole/body " + std::to_string(RC) + elec);
    cmd("pair_coeff * *");
    cmd(types[3].b[2] == 1 ? "pair_coeff 3 3 dipole 2.8" : "pair_coeff 3 3 dipole 2.8 1 0 0");
    cmd(types[4].b[2] == 1 ? "pair_coeff 4 4 dipole/eA 0.45"
                           : "pair_coeff 4 4 dipole/eA 0.45 2 -2 2");
  }

  State run0() { return oriented_pair_test::run0_state(*s); }

  double *quat(int i) { return oriented_pair_test::body_quat(lmp(), i); }

  void lab_dipole(int i, double p[3])
  {
    const TypeDef &t = types[lmp()->atom->type[i]];
    body_dipole(quat(i), t.mu, t.b, p);
  }

  // every pair once, minimum image in a periodic box of edge box (0: none), the header only
  State reference(double box, const Params &par)
  {
    auto *a = lmp()->atom;
    const int n = a->nlocal;
    State st;
    st.f.assign(3 * n, 0.0);
    st.t.assign(3 * n, 0.0);
    double w[6] = {0, 0, 0, 0, 0, 0};
    std::vector<double> p(3 * n);
    for (int i = 0; i < n; ++i) lab_dipole(i, &p[3 * i]);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        double r[3];
        for (int d = 0; d < 3; ++d) {
          r[d] = a->x[j][d] - a->x[i][d];
          if (box > 0) r[d] -= box * std::round(r[d] / box);
        }
        double e, fj[3], ti[3], tj[3];
        if (!bead_elec_pair(par, r, a->q[i], a->q[j], &p[3 * i], &p[3 * j], e, fj, ti, tj))
          continue;
        st.ecoul += e;
        const int gi = a->tag[i] - 1, gj = a->tag[j] - 1;
        oriented_pair_test::tally_pair(st.f.data(), st.t.data(), w, gi, gj, r, fj, ti, tj);
      }
    st.pe = st.ecoul;
    const double nktv2p = lmp()->force->nktv2p;
    for (int k = 0; k < 6; ++k) st.press[k] = box > 0 ? w[k] / (box * box * box) * nktv2p : 0;
    return st;
  }

  void expect_matches(const State &st, const State &ref, double tol, const std::string &what,
                      bool press = true)
  {
    double scale;
    EXPECT_NEAR(st.pe, ref.pe, tol * (1 + std::fabs(ref.pe))) << what;
    EXPECT_NEAR(st.ecoul, ref.ecoul, tol * (1 + std::fabs(ref.ecoul))) << what;
    const double df = max_diff(st.f, ref.f, scale);
    EXPECT_LT(df, tol * scale) << what;
    EXPECT_GT(scale, 1.0) << what;
    const double dt = max_diff(st.t, ref.t, scale);
    EXPECT_LT(dt, tol * scale) << what;
    EXPECT_GT(scale, 1.0) << what;
    if (press)
      for (int k = 0; k < 6; ++k)
        EXPECT_NEAR(st.press[k], ref.press[k], tol * (1 + std::fabs(ref.press[0]))) << what << k;
  }
};

}    // namespace

TEST_F(CoulDipoleBody, StyleIsRegistered)
{
  LAMMPS_NS::Info info(lmp());
  EXPECT_TRUE(info.has_style("pair", "coul/dipole/body"));
}

TEST_F(CoulDipoleBody, MatchesLammpsLjCutDipoleCutWithEpsilonZero)
{
  for (const char *newton : {"on", "off"}) {
    lattice(newton, true);
    style("");
    const State st = run0();
    // LAMMPS's dipoles: mu = mu_t R(q) z of each bead, mu[3] = |mu|
    auto *a = lmp()->atom;
    int ndip = 0;
    for (int i = 0; i < a->nlocal; ++i) {
      double p[3];
      lab_dipole(i, p);
      for (int d = 0; d < 3; ++d) a->mu[i][d] = p[d];
      a->mu[i][3] = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      if (a->mu[i][3] > 0) ndip++;
    }
    EXPECT_GT(ndip, 10);
    cmd("pair_style lj/cut/dipole/cut " + std::to_string(RC));
    cmd("pair_coeff * * 0.0 1.0");
    const State ref = run0();
    const std::string what = std::string("newton ") + newton;
    expect_matches(st, ref, 1e-12, what);
    EXPECT_GT(std::fabs(ref.ecoul), 10.0) << what;
    cmd("clear");
  }
}

TEST_F(CoulDipoleBody, TwoBeadsFollowTheDocumentedFormulas)
{
  // a charged dipolar bead (i) and a charged dipolar bead (j) of another type; the energy
  // written out from doc/pair_coul_dipole_body.md, cut and reaction field
  for (const char *elec : {"", " elec rf 78"}) {
    cmd("units real");
    cmd("atom_style hybrid ellipsoid charge");
    cmd("atom_modify map array");
    cmd("boundary f f f");
    cmd("region box block -10 10 -10 10 -10 10");
    cmd("create_box 2 box");
    cmd("create_atoms 1 single 0 0 0 units box");
    cmd("create_atoms 2 single 2.3 -1.7 3.1 units box");
    cmd("set type * shape 1 1 1");
    cmd("set type * mass 1");
    cmd("set atom 1 quat 1 2 3 40");
    cmd("set atom 2 quat -2 1 0.5 100");
    cmd("set atom 1 charge 0.7");
    cmd("set atom 2 charge -1.3");
    cmd(std::string("pair_style coul/dipole/body 8.0") + elec);
    cmd("pair_coeff * *");
    cmd("pair_coeff 1 1 dipole 2.5 0 1 0");
    cmd("pair_coeff 2 2 dipole/eA 0.4 0 0 -1");
    const State st = run0();
    // lab dipoles from LAMMPS's quaternion -> matrix (MathExtra) written out here
    auto *a = lmp()->atom;
    double p[2][3], x[2][3], q[2];
    const double body[2][3] = {{0, 2.5 * DEBYE, 0}, {0, 0, -0.4}};
    for (int m = 0; m < 2; ++m) {
      const int i = a->map(m + 1);
      const double *qq = quat(i);
      const double w = qq[0], qx = qq[1], qy = qq[2], qz = qq[3];
      const double R[3][3] = {
          {w * w + qx * qx - qy * qy - qz * qz, 2 * (qx * qy - w * qz), 2 * (qx * qz + w * qy)},
          {2 * (qx * qy + w * qz), w * w - qx * qx + qy * qy - qz * qz, 2 * (qy * qz - w * qx)},
          {2 * (qx * qz - w * qy), 2 * (qy * qz + w * qx), w * w - qx * qx - qy * qy + qz * qz}};
      for (int d = 0; d < 3; ++d) {
        p[m][d] = R[d][0] * body[m][0] + R[d][1] * body[m][1] + R[d][2] * body[m][2];
        x[m][d] = a->x[i][d];
      }
      q[m] = a->q[i];
    }
    double r[3], R2 = 0;
    for (int d = 0; d < 3; ++d) {
      r[d] = x[1][d] - x[0][d];
      R2 += r[d] * r[d];
    }
    const double R = std::sqrt(R2), rc = 8.0;
    double k = 0, c = 0;
    if (*elec) {
      k = (EPS_RF - 1) / ((2 * EPS_RF + 1) * rc * rc * rc);
      c = 3 * EPS_RF / ((2 * EPS_RF + 1) * rc);
    }
    const double pa = p[0][0] * r[0] + p[0][1] * r[1] + p[0][2] * r[2];
    const double pb = p[1][0] * r[0] + p[1][1] * r[1] + p[1][2] * r[2];
    const double pc = p[0][0] * p[1][0] + p[0][1] * p[1][1] + p[0][2] * p[1][2];
    const double R3 = R2 * R, R5 = R3 * R2;
    const double e =
        QQR2E * (q[0] * q[1] * (1 / R + k * R2 - c) + q[1] * pa * (1 / R3 - 2 * k) -
                 q[0] * pb * (1 / R3 - 2 * k) + pc / R3 - 3 * pa * pb / R5 - 2 * k * pc);
    EXPECT_NEAR(st.pe, e, 1e-12 * std::fabs(e)) << elec;
    EXPECT_GT(std::fabs(e), 1.0);
    cmd("clear");
  }
}

TEST_F(CoulDipoleBody, ReactionFieldChargeEnergyVanishesAtTheCutoff)
{
  for (double r : {6.0 - 1e-9, 6.0 + 1e-9, 5.0}) {
    cmd("units real");
    cmd("atom_style hybrid ellipsoid charge");
    cmd("atom_modify map array");
    cmd("boundary f f f");
    cmd("region box block -10 10 -10 10 -10 10");
    cmd("create_box 1 box");
    cmd("create_atoms 1 single 0 0 0 units box");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", r);
    cmd("create_atoms 1 single " + std::string(buf) + " 0 0 units box");
    cmd("set type 1 mass 1");
    cmd("set atom 1 charge 1.0");
    cmd("set atom 2 charge -1.0");
    cmd("pair_style coul/dipole/body 6.0 elec rf 78");
    cmd("pair_coeff * *");
    cmd("neighbor 1.0 bin");
    const State st = run0();
    const double k = 77.0 / (157.0 * 216.0), c = 3 * 78.0 / (157.0 * 6.0);
    const double expect = r < 6.0 ? -QQR2E * (1 / r + k * r * r - c) : 0.0;
    EXPECT_NEAR(st.pe, expect, 1e-9) << r;
    if (r < 6.0 && r > 5.9) EXPECT_LT(std::fabs(st.pe), 1e-7) << r;
    if (r == 5.0) EXPECT_LT(st.pe, -1.0);
    cmd("clear");
  }
}

TEST_F(CoulDipoleBody, OtherBodyAxesMatchTheReferenceAndFiniteDifferences)
{
  const double h = 1e-5;
  for (const char *elec : {"", " elec rf 78"})
    for (const char *newton : {"on", "off"}) {
      lattice(newton, false);
      style(elec);
      const State st = run0();
      const Params par =
          make_bead_elec_params<double>(*elec ? BeadElec::rf : BeadElec::cut, RC, EPS_RF, QQR2E);
      const std::string what = std::string(elec) + " newton " + newton;
      expect_matches(st, reference(L, par), 1e-11, what);
      auto *a = lmp()->atom;
      for (int d = 0; d < 3; ++d) {
        double sum = 0, big = 0;
        for (int k = 0; k < 64; ++k) {
          sum += st.f[3 * k + d];
          big = std::max(big, std::fabs(st.f[3 * k + d]));
        }
        EXPECT_LT(std::fabs(sum), 1e-11 * big) << what;
      }
      int checked_dipoles = 0;
      for (int tag = 1; tag <= 64; tag += 5) {
        const int i = a->map(tag);
        ASSERT_GE(i, 0);
        const int t = tag - 1;
        const std::string at = what + " tag " + std::to_string(tag);
        auto pe = [&] { return run0().pe; };
        oriented_pair_test::expect_force_fd(a, i, &st.f[3 * t], pe, h, at);
        if (a->type[i] < 3) continue;
        checked_dipoles++;
        oriented_pair_test::expect_torque_fd(quat(i), &st.t[3 * t], pe, h, at);
      }
      EXPECT_GE(checked_dipoles, 3) << what;
      cmd("clear");
    }
}

TEST_F(CoulDipoleBody, FreeClusterConservesMomentumAndAngularMomentumNewtonOnEqualsOff)
{
  for (const char *elec : {"", " elec rf 78"}) {
    State st[2];
    for (int n = 0; n < 2; ++n) {
      lattice(n ? "off" : "on", false, false);
      cmd(std::string("pair_style coul/dipole/body 18.0") + elec);
      cmd("pair_coeff * *");
      cmd("pair_coeff 3 3 dipole 2.8 1 0 0");
      cmd("pair_coeff 4 4 dipole/eA 0.45 2 -2 2");
      st[n] = run0();
      auto *a = lmp()->atom;
      ASSERT_EQ(a->natoms, 64);
      double fsum[3] = {0, 0, 0}, lsum[3] = {0, 0, 0}, fbig = 0, tbig = 0;
      for (int i = 0; i < a->nlocal; ++i) {
        const double *x = a->x[i], *f = a->f[i], *t = a->torque[i];
        const double xf[3] = {x[1] * f[2] - x[2] * f[1], x[2] * f[0] - x[0] * f[2],
                              x[0] * f[1] - x[1] * f[0]};
        for (int d = 0; d < 3; ++d) {
          fsum[d] += f[d];
          lsum[d] += t[d] + xf[d];
          fbig = std::max(fbig, std::fabs(f[d]));
          tbig = std::max(tbig, std::fabs(t[d]) + std::fabs(xf[d]));
        }
      }
      const std::string what = std::string(elec) + (n ? " newton off" : " newton on");
      EXPECT_GT(fbig, 1.0) << what;
      for (int d = 0; d < 3; ++d) {
        EXPECT_LT(std::fabs(fsum[d]), 1e-12 * fbig) << what;
        EXPECT_LT(std::fabs(lsum[d]), 1e-12 * tbig) << what;
      }
      const Params par =
          make_bead_elec_params<double>(*elec ? BeadElec::rf : BeadElec::cut, 18.0, EPS_RF, QQR2E);
      expect_matches(st[n], reference(0.0, par), 1e-11, what, false);
      cmd("clear");
    }
    expect_matches(st[1], st[0], 1e-12, std::string(elec) + " newton off vs on");
  }
}

TEST_F(CoulDipoleBody, HybridOverlayWithLjCutAddsUp)
{
  // charge-only types need no orientation: type 1 loses its ellipsoid bonus here
  auto build = [&](const std::string &pair) {
    lattice("on", false);
    cmd("set type 1 shape 0 0 0");
    if (pair == "overlay") {
      cmd("pair_style hybrid/overlay lj/cut 8.0 coul/dipole/body 6.0 elec rf 78");
      cmd("pair_coeff * * lj/cut 0.2 3.0");
      cmd("pair_coeff * * coul/dipole/body");
      cmd("pair_coeff 3 3 coul/dipole/body dipole 2.8 1 0 0");
      cmd("pair_coeff 4 4 coul/dipole/body dipole/eA 0.45 2 -2 2");
    } else if (pair == "lj") {
      cmd("pair_style lj/cut 8.0");
      cmd("pair_coeff * * 0.2 3.0");
    } else {
      style(" elec rf 78");
    }
    State st = run0();
    cmd("clear");
    return st;
  };
  const State both = build("overlay"), lj = build("lj"), el = build("elec");
  State sum = lj;
  sum.pe += el.pe;
  sum.ecoul += el.ecoul;
  for (int k = 0; k < 6; ++k) sum.press[k] += el.press[k];
  for (size_t k = 0; k < sum.f.size(); ++k) {
    sum.f[k] += el.f[k];
    sum.t[k] += el.t[k];
  }
  expect_matches(both, sum, 1e-12, "hybrid/overlay");
  EXPECT_GT(std::fabs(lj.pe), 1.0);
}

TEST_F(CoulDipoleBody, RestartAndDataFileRoundTrips)
{
  lattice("on", false);
  style(" elec rf 78");
  const State a = run0();
  const std::string restart = tmp_name("r.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  EXPECT_EQ(std::string(lmp()->force->pair_style), "coul/dipole/body");
  cmd("neighbor 1.0 bin");
  const State b = run0();
  expect_matches(b, a, 1e-13, "restart");
  // a different setting after read_restart changes the energy (the test can fail)
  cmd("pair_style coul/dipole/body 6.0 elec rf 2");
  cmd("pair_coeff * *");
  EXPECT_GT(std::fabs(run0().pe - a.pe), 1e-3);
  cmd("clear");

  for (const char *mode : {"ii", "ij"}) {
    lattice("on", false);
    style(" elec rf 78");
    const State c = run0();
    const std::string data = tmp_name("d.data");
    cmd("write_data " + data + " pair " + mode);
    cmd("clear");
    cmd("units real");
    cmd("atom_style hybrid ellipsoid dipole");
    cmd("atom_modify map array");
    cmd("pair_style coul/dipole/body 6.0 elec rf 78");
    cmd("read_data " + data);
    std::remove(data.c_str());
    cmd("neighbor 1.0 bin");
    const State d = run0();
    expect_matches(d, c, 1e-13, std::string("data ") + mode);
    cmd("clear");
  }
}

TEST_F(CoulDipoleBody, SpecialBondsScaleTheWholePair)
{
  auto build = [&](bool bonded) {
    cmd("units real");
    cmd("atom_style hybrid bond ellipsoid charge");
    cmd("atom_modify map array");
    cmd("boundary f f f");
    cmd("region box block -10 10 -10 10 -10 10");
    cmd("create_box 2 box bond/types 1 extra/bond/per/atom 1 extra/special/per/atom 1");
    cmd("create_atoms 1 single 0 0 0 units box");
    cmd("create_atoms 2 single 2.1 1.5 0.7 units box");
    cmd("set type * shape 1 1 1");
    cmd("set type * mass 72");
    cmd("set type * quat/random 8171");
    cmd("set type 1 charge 1.0");
    cmd("set type 2 charge -0.5");
    cmd("pair_style coul/dipole/body 9.0 elec rf 78");
    cmd("pair_coeff * *");
    cmd("pair_coeff 2 2 dipole 2.8 0 1 1");
    cmd("bond_style zero");
    cmd("bond_coeff 1");
    if (bonded) {
      cmd("create_bonds single/bond 1 1 2");
      cmd("special_bonds lj 0.5 0.5 0.5 coul 0.25 0.25 0.25");
    }
    State st = run0();
    cmd("clear");
    return st;
  };
  const State free = build(false);
  const State bonded = build(true);
  EXPECT_GT(std::fabs(free.ecoul), 0.1);
  EXPECT_NEAR(bonded.ecoul, 0.25 * free.ecoul, 1e-12 * std::fabs(free.ecoul));
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(bonded.f[k], 0.25 * free.f[k], 1e-12 * (1 + std::fabs(free.f[k])));
    EXPECT_NEAR(bonded.t[k], 0.25 * free.t[k], 1e-12 * (1 + std::fabs(free.t[k])));
  }
}
