/* 'elec sf' (Allen-Germano shifted force) of pair_style coul/dipole/body and pair_style ssd
   inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH). References: LAMMPS's own pair_style
   lj/sf/dipole/sf (DIPOLE package) with epsilon 0 on the same configuration, its atom->mu set
   here to the lab-frame dipole each bead's quaternion gives (for ssd: the sticky term off with
   nu0 = nu0p = 0 and epsilon 0 in a custom set, so only the dipole-dipole term is left);
   central finite differences of LAMMPS's total energy (forces: moving one particle; torques:
   turning one quaternion about a lab axis); energy, forces and torques on both sides of the
   cutoff (rc -+ 1e-6) against the plain cutoff's jump; the sticky and LJ terms unchanged by the
   mode; restart round trips. The errors are in test_lammps_ssd_errors.cpp and
   test_lammps_coul_dipole_body_errors.cpp; MPI in unittest/mpi_oriented_restart.cmake. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "force.h"
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

using mesogpu::physics::body_dipole;

namespace {

using oriented_pair_test::max_diff;
using oriented_pair_test::State;

const double RC = 6.0;    // cutoff of the periodic tests (< half the 12.4 A box)
const double DEBYE = 0.208194;

std::string tmp_name(const std::string &stem)
{
  return "lmp_esf_" + std::to_string(getpid()) + "_" + stem;
}

std::string num(double x)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

double max_abs(const std::vector<double> &a)
{
  double m = 0;
  for (double x : a) m = std::max(m, std::fabs(x));
  return m;
}

// per type: body direction and magnitude (e Angstrom) of the dipole, for the lab dipoles
struct Dip {
  double mu, b[3];
};

class ElecSf : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  std::vector<Dip> dips;    // by type (index 0 unused)
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // 64 particles on a 4 x 4 x 4 simple cubic lattice (3.1 A), displaced by up to 0.15 A,
  // random orientations, ntypes types; atom_style with q and mu (for lj/sf/dipole/sf)
  void lattice(const std::string &newton, int ntypes)
  {
    cmd("units real");
    cmd("atom_style hybrid ellipsoid dipole");
    cmd("atom_modify map array sort 0 0.0");
    cmd("newton " + newton);
    cmd("lattice sc 3.1");
    cmd("region box block 0 4 0 4 0 4");
    cmd("create_box " + std::to_string(ntypes) + " box");
    cmd("create_atoms 1 box");
    cmd("displace_atoms all random 0.15 0.15 0.15 7781 units box");
    if (ntypes == 4) {
      cmd("set type 1 type/fraction 2 0.25 1234");
      cmd("set type 1 type/fraction 3 0.33 1235");
      cmd("set type 1 type/fraction 4 0.5 1236");
    } else if (ntypes == 2) {
      cmd("set type 1 type/fraction 2 0.5 1234");
    }
    cmd("set type * shape 1 1 1");
    cmd("set type * mass 18.0");
    cmd("mass * 18.0");
    cmd("set type * quat/random 4471");
    cmd("set type * charge 0.0");
    cmd("neighbor 1.0 bin");
  }

  // the four bead types of coul/dipole/body: +1, -1, a neutral dipole along body x, a charge
  // -0.6 with a dipole along (1, -1, 1)
  void beads(const std::string &newton, const std::string &elec, double rc = RC)
  {
    lattice(newton, 4);
    cmd("set type 1 charge 1.0");
    cmd("set type 2 charge -1.0");
    cmd("set type 4 charge -0.6");
    cmd("pair_style coul/dipole/body " + num(rc) + elec);
    cmd("pair_coeff * *");
    cmd("pair_coeff 3 3 dipole 2.8 1 0 0");
    cmd("pair_coeff 4 4 dipole/eA 0.45 2 -2 2");
    const double s3 = 1 / std::sqrt(3.0);
    dips = {{0, {0, 0, 1}},
            {0, {0, 0, 1}},
            {0, {0, 0, 1}},
            {2.8 * DEBYE, {1, 0, 0}},
            {0.45, {s3, -s3, s3}}};
  }

  // SSD water with the sticky term and LJ off (custom sets with nu0 = nu0p = epsilon = 0):
  // two types with different dipoles (Debye), body z
  void dipolar_water(const std::string &newton, const std::string &elec)
  {
    lattice(newton, 2);
    cmd("pair_style ssd " + num(RC) + elec);
    cmd("pair_coeff 1 1 custom 3.0 0.0 2.35 0 0 0.07715 2.75 3.35 2.75 4.0");
    cmd("pair_coeff 2 2 custom 3.1 0.0 2.6 0 0 0.07715 2.4 3.8 2.75 3.35");
    dips = {{0, {0, 0, 1}}, {2.35 * DEBYE, {0, 0, 1}}, {2.6 * DEBYE, {0, 0, 1}}};
  }

  State run0() { return oriented_pair_test::run0_state(*s); }

  double *quat(int i) { return oriented_pair_test::body_quat(lmp(), i); }

  // atom->mu of every atom = the lab dipole our styles use (mu R(q) b); returns how many
  // atoms carry one
  int set_lammps_mu()
  {
    auto *a = lmp()->atom;
    int n = 0;
    for (int i = 0; i < a->nlocal; ++i) {
      const Dip &d = dips[a->type[i]];
      double p[3];
      body_dipole(quat(i), d.mu, d.b, p);
      for (int k = 0; k < 3; ++k) a->mu[i][k] = p[k];
      a->mu[i][3] = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      if (a->mu[i][3] > 0) n++;
    }
    return n;
  }

  void expect_matches(const State &st, const State &ref, double tol, const std::string &what)
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
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(st.press[k], ref.press[k], tol * (1 + std::fabs(ref.press[0]))) << what << k;
  }

  // forces of every 5th atom and torques of the dipolar ones against finite differences
  void expect_fd(const State &st, const std::string &what)
  {
    auto *a = lmp()->atom;
    int torques = 0;
    for (int tag = 1; tag <= 64; tag += 5) {
      const int i = a->map(tag);
      ASSERT_GE(i, 0);
      const int t = tag - 1;
      const std::string at = what + " tag " + std::to_string(tag);
      auto pe = [&] { return run0().pe; };
      oriented_pair_test::expect_force_fd(a, i, &st.f[3 * t], pe, 1e-5, at);
      if (dips[a->type[i]].mu == 0) continue;
      torques++;
      oriented_pair_test::expect_torque_fd(quat(i), &st.t[3 * t], pe, 1e-5, at);
    }
    EXPECT_GE(torques, 3) << what;
  }
};

}    // namespace

// ---- coul/dipole/body ---------------------------------------------------------------------

TEST_F(ElecSf, CoulDipoleBodyMatchesLammpsLjSfDipoleSf)
{
  for (const char *newton : {"on", "off"}) {
    beads(newton, " elec sf");
    const State st = run0();
    EXPECT_GT(set_lammps_mu(), 10);
    cmd("pair_style lj/sf/dipole/sf " + num(RC));
    cmd("pair_coeff * * 0.0 1.0");
    const State ref = run0();
    const std::string what = std::string("newton ") + newton;
    expect_matches(st, ref, 1e-10, what);
    EXPECT_GT(std::fabs(ref.ecoul), 10.0) << what;
    EXPECT_EQ(ref.evdwl, 0.0) << what;
    // the comparison can fail: the plain cutoff differs from LAMMPS's shifted force
    cmd("pair_style coul/dipole/body " + num(RC));
    cmd("pair_coeff * *");
    cmd("pair_coeff 3 3 dipole 2.8 1 0 0");
    cmd("pair_coeff 4 4 dipole/eA 0.45 2 -2 2");
    const State cut = run0();
    EXPECT_GT(std::fabs(cut.ecoul - ref.ecoul), 1.0) << what;
    cmd("clear");
  }
}

TEST_F(ElecSf, CoulDipoleBodyForcesAndTorquesAreFiniteDifferences)
{
  for (const char *newton : {"on", "off"}) {
    beads(newton, " elec sf");
    const State st = run0();
    const std::string what = std::string("newton ") + newton;
    for (int d = 0; d < 3; ++d) {
      double sum = 0;
      for (int k = 0; k < 64; ++k) sum += st.f[3 * k + d];
      EXPECT_LT(std::fabs(sum), 1e-11 * max_abs(st.f)) << what;
    }
    expect_fd(st, what);
    cmd("clear");
  }
}

// two charged dipolar beads at rc -+ 1e-6 along a slanted axis: with 'elec sf' energy, force
// and torques are continuous (zero on both sides); with 'elec cut' they jump
TEST_F(ElecSf, CoulDipoleBodyVanishesContinuouslyAtTheCutoff)
{
  const double rc = 8.0, e[3] = {0.48, -0.6, 0.64};
  for (const char *elec : {" elec sf", ""}) {
    State side[2];
    for (int k = 0; k < 2; ++k) {
      const double r = rc + (k ? 1e-6 : -1e-6);
      cmd("units real");
      cmd("atom_style hybrid ellipsoid charge");
      cmd("atom_modify map array");
      cmd("boundary f f f");
      cmd("region box block -12 12 -12 12 -12 12");
      cmd("create_box 2 box");
      cmd("create_atoms 1 single 0 0 0 units box");
      cmd("create_atoms 2 single " + num(r * e[0]) + " " + num(r * e[1]) + " " + num(r * e[2]) +
          " units box");
      cmd("set type * shape 1 1 1");
      cmd("set type * mass 1");
      cmd("set atom 1 quat 1 2 3 40");
      cmd("set atom 2 quat -2 1 0.5 100");
      cmd("set atom 1 charge 0.7");
      cmd("set atom 2 charge -1.3");
      cmd("pair_style coul/dipole/body " + num(rc) + elec);
      cmd("pair_coeff * *");
      cmd("pair_coeff 1 1 dipole 2.5 0 1 0");
      cmd("pair_coeff 2 2 dipole/eA 0.4 0 0 -1");
      cmd("neighbor 1.0 bin");
      side[k] = run0();
      cmd("clear");
    }
    const std::string what = *elec ? "sf" : "cut";
    // beyond the cutoff: nothing
    EXPECT_EQ(side[1].pe, 0.0) << what;
    EXPECT_EQ(max_abs(side[1].f) + max_abs(side[1].t), 0.0) << what;
    if (*elec) {
      // (1 - x)^2 at x = 1 - 1.25e-7 times energies of O(100): ~1e-12
      EXPECT_LT(std::fabs(side[0].pe), 1e-9) << what;
      EXPECT_LT(max_abs(side[0].f), 1e-4) << what;
      EXPECT_LT(max_abs(side[0].t), 1e-4) << what;
    } else {
      EXPECT_GT(std::fabs(side[0].pe), 1.0) << what;
      EXPECT_GT(max_abs(side[0].f), 0.1) << what;
      EXPECT_GT(max_abs(side[0].t), 0.1) << what;
    }
  }
}

TEST_F(ElecSf, CoulDipoleBodyRestartKeepsTheMode)
{
  beads("on", " elec sf");
  const State a = run0();
  const std::string restart = tmp_name("cdb.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  cmd("neighbor 1.0 bin");
  const State b = run0();
  expect_matches(b, a, 1e-13, "restart");
  cmd("pair_style coul/dipole/body " + num(RC) + " elec rf 78");
  cmd("pair_coeff * *");
  EXPECT_GT(std::fabs(run0().pe - a.pe), 1.0);
}

// ---- ssd ----------------------------------------------------------------------------------

TEST_F(ElecSf, SsdDipoleDipoleMatchesLammpsLjSfDipoleSf)
{
  for (const char *newton : {"on", "off"}) {
    dipolar_water(newton, " elec sf");
    const State st = run0();
    EXPECT_EQ(st.evdwl, 0.0);    // sticky and LJ are off
    EXPECT_EQ(set_lammps_mu(), 64);
    cmd("pair_style lj/sf/dipole/sf " + num(RC));
    cmd("pair_coeff * * 0.0 1.0");
    const State ref = run0();
    const std::string what = std::string("newton ") + newton;
    expect_matches(st, ref, 1e-10, what);
    EXPECT_GT(std::fabs(ref.ecoul), 10.0) << what;
    cmd("clear");
  }
}

TEST_F(ElecSf, SsdFullModelIsFiniteDifferencesAndKeepsItsStickyAndLj)
{
  for (const char *newton : {"on", "off"}) {
    const std::string what = std::string("newton ") + newton;
    State st[2];
    for (int k = 0; k < 2; ++k) {
      lattice(newton, 2);
      cmd("pair_style ssd " + num(RC) + (k ? " elec cut" : " elec sf"));
      cmd("pair_coeff 1 1 ssd/e");
      cmd("pair_coeff 2 2 ssd");
      dips = {{0, {0, 0, 1}}, {1, {0, 0, 1}}, {1, {0, 0, 1}}};
      st[k] = run0();
      if (k == 0) expect_fd(st[0], what + " ssd/e+ssd sf");
      cmd("clear");
    }
    // the mode changes the dipole term only
    EXPECT_NEAR(st[0].evdwl, st[1].evdwl, 1e-12 * std::fabs(st[1].evdwl)) << what;
    EXPECT_GT(std::fabs(st[1].evdwl), 1.0) << what;
    EXPECT_GT(std::fabs(st[0].ecoul - st[1].ecoul), 1.0) << what;
  }
}

// two SSD/E molecules at coul_cut -+ 1e-6 (lj_cut 5: only the dipoles reach the cutoff)
TEST_F(ElecSf, SsdVanishesContinuouslyAtTheCutoff)
{
  const double rc = 7.0, e[3] = {0.0, 0.6, 0.8};
  for (const char *elec : {" elec sf", ""}) {
    State side[2];
    for (int k = 0; k < 2; ++k) {
      const double r = rc + (k ? 1e-6 : -1e-6);
      cmd("units real");
      cmd("atom_style ellipsoid");
      cmd("atom_modify map array");
      cmd("boundary f f f");
      cmd("region box block -12 12 -12 12 -12 12");
      cmd("create_box 1 box");
      cmd("create_atoms 1 single 0 0 0 units box");
      cmd("create_atoms 1 single " + num(r * e[0]) + " " + num(r * e[1]) + " " + num(r * e[2]) +
          " units box");
      cmd("set type 1 shape 1 1 1");
      cmd("set type 1 mass 18.0");
      cmd("set atom 1 quat 1 2 3 40");
      cmd("set atom 2 quat -2 1 0.5 100");
      cmd("pair_style ssd " + num(rc) + " lj_cut 5.0" + elec);
      cmd("pair_coeff 1 1 ssd/e");
      cmd("neighbor 1.0 bin");
      side[k] = run0();
      cmd("clear");
    }
    const std::string what = *elec ? "sf" : "cut";
    EXPECT_EQ(side[1].pe, 0.0) << what;
    EXPECT_EQ(max_abs(side[1].f) + max_abs(side[1].t), 0.0) << what;
    EXPECT_EQ(side[0].evdwl, 0.0) << what;
    if (*elec) {
      EXPECT_LT(std::fabs(side[0].pe), 1e-10) << what;
      EXPECT_LT(max_abs(side[0].f), 1e-5) << what;
      EXPECT_LT(max_abs(side[0].t), 1e-5) << what;
    } else {
      EXPECT_GT(std::fabs(side[0].pe), 1e-3) << what;
      EXPECT_GT(max_abs(side[0].f), 1e-4) << what;
      EXPECT_GT(max_abs(side[0].t), 1e-3) << what;
    }
  }
}

TEST_F(ElecSf, SsdRestartKeepsTheMode)
{
  lattice("on", 2);
  cmd("pair_style ssd " + num(RC) + " elec sf");
  cmd("pair_coeff 1 1 ssd/e");
  cmd("pair_coeff 2 2 ssd1");
  const State a = run0();
  const std::string restart = tmp_name("ssd.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  cmd("neighbor 1.0 bin");
  const State b = run0();
  expect_matches(b, a, 1e-13, "restart");
  cmd("pair_style ssd " + num(RC));
  EXPECT_GT(std::fabs(run0().ecoul - a.ecoul), 1.0);
}
