/* pair_style ssd inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH).
   References: central finite differences of LAMMPS's own total energy (forces: moving one
   molecule; torques: turning one molecule's quaternion about a lab axis), a slow loop over all
   pairs with the minimum image that calls nothing but src/physics/ssd.h with parameters built
   here from the named sets (not from the style), Newton's third law and the angular momentum
   of a free cluster, newton on against off, special bonds, restart and data-file round trips,
   the annealed SSD/E dimer; the errors a user sees are in test_lammps_ssd_errors.cpp. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "force.h"
#include "info.h"
#include "lammps.h"
#include "pair.h"

#include "lmp_session.h"
#include "oriented_pair_test.h"
#include "physics/ssd.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <string>
#include <unistd.h>
#include <vector>

using mesogpu::physics::make_ssd_params;
using mesogpu::physics::quat_to_body_frame;
using mesogpu::physics::ssd_pair;
using mesogpu::physics::ssd_type;
using mesogpu::physics::SsdElectrostatics;
using mesogpu::physics::SsdLj;
using mesogpu::physics::SsdSet;
using Params = mesogpu::physics::SsdParams<double>;

namespace {

using oriented_pair_test::max_diff;
using oriented_pair_test::State;

const double A = 3.1;      // lattice spacing, Angstrom (liquid-water density)
const double L = 4 * A;    // box edge of the 4 x 4 x 4 lattice
const double RC = 6.0;     // cutoffs of the periodic tests (< L / 2: minimum image)
const double EPS_RF = 80.0;

struct Case {
  const char *name;    // pair_coeff set name
  SsdSet set;
  bool rf;
};
const Case CASES[] = {{"ssd", SsdSet::ssd, false},      {"ssd", SsdSet::ssd, true},
                      {"ssd1", SsdSet::ssd1, false},    {"ssd1", SsdSet::ssd1, true},
                      {"ssd/e", SsdSet::ssde, false},   {"ssd/e", SsdSet::ssde, true},
                      {"ssd/rf", SsdSet::ssdrf, false}, {"ssd/rf", SsdSet::ssdrf, true}};

std::string tmp_name(const std::string &stem)
{
  return "lmp_ssd_" + std::to_string(getpid()) + "_" + stem;
}

// per-atom results ordered by tag
std::string style_args(bool rf)
{
  return "pair_style ssd " + std::to_string(RC) + (rf ? " elec rf 80" : "");
}

class SsdLammps : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // 64 molecules on a simple cubic lattice at liquid density, displaced by up to 0.15 A per
  // component (every O-O distance >= 2.58 A), random orientations; with two types, about half
  // the molecules become type 2
  void lattice(const std::string &newton, int ntypes = 1)
  {
    cmd("units real");
    cmd("atom_style ellipsoid");
    cmd("atom_modify map array sort 0 0.0");    // local indices stay put between runs
    cmd("newton " + newton);
    cmd("lattice sc 3.1");
    cmd("region box block 0 4 0 4 0 4");
    cmd("create_box " + std::to_string(ntypes) + " box");
    cmd("create_atoms 1 box");
    cmd("displace_atoms all random 0.15 0.15 0.15 7781 units box");
    if (ntypes > 1) cmd("set type 1 type/fraction 2 0.5 1234");
    cmd("set type * shape 1 1 1");
    cmd("set type * mass 18.0153");
    cmd("set type * quat/random 4471");
    cmd("neighbor 1.0 bin");
  }

  State run0() { return oriented_pair_test::run0_state(*s); }

  double *quat(int i) { return oriented_pair_test::body_quat(lmp(), i); }

  // every pair once, minimum image in a periodic box of edge box (0: none), the physics
  // header only; par(ti, tj) gives the pair's parameters
  template <class P> State reference(double box, P par)
  {
    auto *a = lmp()->atom;
    const int n = a->nlocal;
    State st;
    st.f.assign(3 * n, 0.0);
    st.t.assign(3 * n, 0.0);
    double w[6] = {0, 0, 0, 0, 0, 0};
    std::vector<double> frames(9 * n);
    for (int i = 0; i < n; ++i) quat_to_body_frame(quat(i), &frames[9 * i]);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        double r[3];
        for (int d = 0; d < 3; ++d) {
          r[d] = a->x[j][d] - a->x[i][d];
          if (box > 0) r[d] -= box * std::round(r[d] / box);
        }
        const Params p = par(a->type[i], a->type[j]);
        double ev, ec, fj[3], ti[3], tj[3];
        if (!ssd_pair(p, r, &frames[9 * i], &frames[9 * j], ev, ec, fj, ti, tj)) continue;
        st.evdwl += ev;
        st.ecoul += ec;
        const int gi = a->tag[i] - 1, gj = a->tag[j] - 1;
        oriented_pair_test::tally_pair(st.f.data(), st.t.data(), w, gi, gj, r, fj, ti, tj);
      }
    st.pe = st.evdwl + st.ecoul;
    // real units: pressure in atm from kcal/mol/A^3 (T = 0: no kinetic part)
    const double nktv2p = lmp()->force->nktv2p;
    for (int k = 0; k < 6; ++k) st.press[k] = w[k] / (L * L * L) * nktv2p;
    return st;
  }

  // the style as set now: a run 0 against the all-pairs reference of pair parameters p,
  // then the forces and torques of atoms 1 and 43 against central differences (h 1e-5) of
  // LAMMPS's energy; returns the run 0 state
  State expect_reference_and_gradient(const Params &p, const std::string &what)
  {
    const State st = run0();
    expect_matches(st, reference(L, [&](int, int) { return p; }), 1e-11, what);
    auto *a = lmp()->atom;
    for (int tag : {1, 43}) {
      const int i = a->map(tag), t = tag - 1;
      EXPECT_GE(i, 0) << what;
      if (i < 0) continue;
      auto pe = [&] { return run0().pe; };
      oriented_pair_test::expect_force_fd(a, i, &st.f[3 * t], pe, 1e-5, what);
      oriented_pair_test::expect_torque_fd(quat(i), &st.t[3 * t], pe, 1e-5, what);
    }
    return st;
  }

  void expect_matches(const State &st, const State &ref, double tol, const std::string &what)
  {
    double scale;
    EXPECT_NEAR(st.pe, ref.pe, tol * (1 + std::fabs(ref.pe))) << what;
    EXPECT_NEAR(st.evdwl, ref.evdwl, tol * (1 + std::fabs(ref.evdwl))) << what;
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
};

Params named(const Case &c)
{
  return make_ssd_params<double>(c.set, SsdLj::cut, RC,
                                 c.rf ? SsdElectrostatics::rf_constant : SsdElectrostatics::cut, RC,
                                 EPS_RF);
}

}    // namespace

TEST_F(SsdLammps, StyleIsRegistered)
{
  LAMMPS_NS::Info info(lmp());
  EXPECT_TRUE(info.has_style("pair", "ssd"));
}

TEST_F(SsdLammps, EveryModelMatchesTheAllPairsReference)
{
  for (const Case &c : CASES)
    for (const char *newton : {"on", "off"}) {
      lattice(newton);
      cmd(style_args(c.rf));
      cmd(std::string("pair_coeff 1 1 ") + c.name);
      const State st = run0();
      const Params p = named(c);
      const State ref = reference(L, [&](int, int) { return p; });
      const std::string what = std::string(c.name) + (c.rf ? " rf" : " cut") + " newton " + newton;
      expect_matches(st, ref, 1e-11, what);
      EXPECT_GT(std::fabs(ref.evdwl), 1.0) << what;
      EXPECT_GT(std::fabs(ref.ecoul), 1.0) << what;
      // the reaction field changes the energy and the torques, not the forces
      cmd("clear");
    }
}

TEST_F(SsdLammps, PerAtomEnergyAndVirialSumToTheGlobalOnes)
{
  lattice("on");
  cmd(style_args(true));
  cmd("pair_coeff 1 1 ssd/rf");
  cmd("compute pe all pe/atom pair");
  cmd("compute pes all reduce sum c_pe");
  cmd("compute s all stress/atom NULL virial");
  cmd("compute ss all reduce sum c_s[1] c_s[2] c_s[4] c_s[6]");
  cmd("variable pes equal c_pes");
  cmd("variable sxx equal -c_ss[1]/vol");
  cmd("variable syy equal -c_ss[2]/vol");
  cmd("variable sxy equal -c_ss[3]/vol");
  cmd("variable syz equal -c_ss[4]/vol");
  cmd("thermo_style custom step pe c_pes c_ss[1] pxx pyy pxy pyz");
  cmd("thermo_modify norm no");
  cmd("run 0 post no");
  const double pe = s->thermo("pe");
  EXPECT_NEAR(s->variable("pes"), pe, 1e-10 * std::fabs(pe));
  for (const char *k : {"xx", "yy", "xy", "yz"}) {
    const double p = s->thermo((std::string("p") + k).c_str());
    EXPECT_NEAR(s->variable((std::string("s") + k).c_str()), p, 1e-9 * (1 + std::fabs(p))) << k;
  }
}

TEST_F(SsdLammps, ForcesAndTorquesAreFiniteDifferencesOfTheEnergy)
{
  const double h = 1e-5;
  for (const Case &c : CASES)
    for (const char *newton : {"on", "off"}) {
      lattice(newton);
      cmd(style_args(c.rf));
      cmd(std::string("pair_coeff 1 1 ") + c.name);
      const State st = run0();
      const std::string what = std::string(c.name) + (c.rf ? " rf" : " cut") + " newton " + newton;
      auto *a = lmp()->atom;
      // Newton's third law (periodic box: the sum of the forces still vanishes)
      for (int d = 0; d < 3; ++d) {
        double sum = 0, big = 0;
        for (int k = 0; k < 64; ++k) {
          sum += st.f[3 * k + d];
          big = std::max(big, std::fabs(st.f[3 * k + d]));
        }
        EXPECT_LT(std::fabs(sum), 1e-11 * big) << what;
      }
      for (int tag : {1, 22, 43, 64}) {
        const int i = a->map(tag);
        ASSERT_GE(i, 0);
        const int t = tag - 1;
        const std::string at = what + " tag " + std::to_string(tag);
        auto pe = [&] { return run0().pe; };
        oriented_pair_test::expect_force_fd(a, i, &st.f[3 * t], pe, h, at);
        oriented_pair_test::expect_torque_fd(quat(i), &st.t[3 * t], pe, h, at);
      }
      cmd("clear");
    }
}

TEST_F(SsdLammps, FreeClusterConservesMomentumAndAngularMomentum)
{
  // 64 molecules in a non-periodic box, every pair within the cutoffs: the sum of the forces
  // and the sum of torque + x cross F vanish (a whole-body rotation leaves the energy alone)
  for (const Case &c : CASES)
    for (const char *newton : {"on", "off"}) {
      cmd("units real");
      cmd("atom_style ellipsoid");
      cmd("atom_modify map array");
      cmd("boundary f f f");
      cmd(std::string("newton ") + newton);
      cmd("lattice sc 3.1");
      cmd("region box block -4 7 -4 7 -4 7");
      cmd("region cl block 0 3 0 3 0 3");
      cmd("create_box 1 box");
      cmd("create_atoms 1 region cl");
      cmd("displace_atoms all random 0.15 0.15 0.15 991 units box");
      cmd("set type 1 shape 1 1 1");
      cmd("set type 1 mass 18.0153");
      cmd("set type 1 quat/random 5513");
      cmd(std::string("pair_style ssd 18.0") + (c.rf ? " elec rf 80" : ""));
      cmd(std::string("pair_coeff 1 1 ") + c.name);
      const State st = run0();
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
      const std::string what = std::string(c.name) + (c.rf ? " rf" : " cut") + " newton " + newton;
      EXPECT_GT(fbig, 1.0) << what;
      for (int d = 0; d < 3; ++d) {
        EXPECT_LT(std::fabs(fsum[d]), 1e-12 * fbig) << what;
        EXPECT_LT(std::fabs(lsum[d]), 1e-12 * tbig) << what;
      }
      const Params p = make_ssd_params<double>(
          c.set, SsdLj::cut, 18.0, c.rf ? SsdElectrostatics::rf_constant : SsdElectrostatics::cut,
          18.0, EPS_RF);
      const State ref = reference(0.0, [&](int, int) { return p; });
      EXPECT_NEAR(st.pe, ref.pe, 1e-11 * std::fabs(ref.pe)) << what;
      cmd("clear");
    }
}

TEST_F(SsdLammps, MixturesMixAsTheEvaluatorAndLjOverridesTheUnlikePair)
{
  // SSD (type 1) with SSD/E (type 2), LJ shifted and a shorter LJ cutoff, reaction field
  const std::string style = "pair_style ssd 6.0 lj_cut 5.0 ljmode shift elec rf 80";
  auto par = [&](int ti, int tj, double sig12, double eps12) {
    const SsdSet sets[3] = {SsdSet::ssd, SsdSet::ssd, SsdSet::ssde};
    Params p =
        make_ssd_params<double>(ssd_type<double>(sets[ti]), ssd_type<double>(sets[tj]),
                                SsdLj::shift, 5.0, SsdElectrostatics::rf_constant, 6.0, EPS_RF);
    if (ti != tj && sig12 > 0) {    // the explicit unlike LJ of the override
      const double s6 = std::pow(sig12, 6), ic6 = std::pow(5.0, -6);
      p.lj1 = 4 * eps12 * s6 * s6;
      p.lj2 = 4 * eps12 * s6;
      p.lj_offset = ic6 * (p.lj1 * ic6 - p.lj2);
    }
    return p;
  };
  for (const char *newton : {"on", "off"}) {
    lattice(newton, 2);
    cmd(style);
    cmd("pair_coeff 1 1 ssd");
    cmd("pair_coeff 2 2 ssd/e");
    const State mixed = run0();
    const State ref = reference(L, [&](int a, int b) { return par(a, b, 0, 0); });
    expect_matches(mixed, ref, 1e-11, std::string("mixed newton ") + newton);
    cmd("pair_coeff 1 2 lj 3.3 0.4");
    const State over = run0();
    const State ref2 = reference(L, [&](int a, int b) { return par(a, b, 3.3, 0.4); });
    expect_matches(over, ref2, 1e-11, std::string("lj override newton ") + newton);
    EXPECT_GT(std::fabs(over.evdwl - mixed.evdwl), 1e-3);
    cmd("clear");
  }
  // pair_modify mix geometric: sigma_12 = sqrt(sigma_1 sigma_2); type 2 is SSD/E with
  // sigma = 3.5 (arithmetic 3.2755, geometric 3.2677)
  lattice("on", 2);
  cmd(style);
  cmd("pair_coeff 1 1 ssd");
  cmd("pair_coeff 2 2 custom 3.5 0.152 2.42 3.90 3.90 0.07715 2.40 3.80 2.75 3.35");
  cmd("pair_modify mix geometric");
  const State geo = run0();
  auto t2 = ssd_type<double>(SsdSet::ssde);
  t2.sigma = 3.5;
  const auto t1 = ssd_type<double>(SsdSet::ssd);
  const State ref3 = reference(L, [&](int a, int b) {
    Params p = make_ssd_params<double>(a == 1 ? t1 : t2, b == 1 ? t1 : t2, SsdLj::shift, 5.0,
                                       SsdElectrostatics::rf_constant, 6.0, EPS_RF);
    if (a != b) {
      const double s6 = std::pow(std::sqrt(3.051 * 3.5), 6), ic6 = std::pow(5.0, -6);
      p.lj1 = 4 * 0.152 * s6 * s6;
      p.lj2 = 4 * 0.152 * s6;
      p.lj_offset = ic6 * (p.lj1 * ic6 - p.lj2);
    }
    return p;
  });
  expect_matches(geo, ref3, 1e-11, "mix geometric");
}

TEST_F(SsdLammps, OpenMdDimerFrameGivesTheEvaluatorsEnergy)
{
  // OpenMD's annealed SSD/E dimer (samples/water/dimer/ssd.in, as in unittest/units/test_ssd.cpp)
  // placed through LAMMPS commands: the style's energy, forces and torques are the evaluator's
  cmd("units real");
  cmd("atom_style ellipsoid");
  cmd("atom_modify map array");
  cmd("boundary f f f");
  cmd("region box block -10 10 -10 10 -10 10");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 1.192654 0.024173 0.011944 units box");
  cmd("create_atoms 1 single 3.837346 -0.024173 -0.011944 units box");
  cmd("set type 1 shape 1 1 1");
  cmd("set type 1 mass 18.0153");
  const double qf[2][4] = {{0.651417, -0.626611, -0.305117, 0.299865},
                           {0.661391, 0.258281, -0.664463, 0.233112}};
  double qn[2][4];
  for (int m = 0; m < 2; ++m) {
    const double n = std::sqrt(qf[m][0] * qf[m][0] + qf[m][1] * qf[m][1] + qf[m][2] * qf[m][2] +
                               qf[m][3] * qf[m][3]);
    for (int k = 0; k < 4; ++k) qn[m][k] = qf[m][k] / n;
    double *q = quat(lmp()->atom->map(m + 1));
    for (int k = 0; k < 4; ++k) q[k] = qn[m][k];
  }
  cmd("pair_style ssd 9.0");
  cmd("pair_coeff 1 1 ssd/e");
  const State st = run0();
  const Params p =
      make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  double a0[9], a1[9], r[3] = {3.837346 - 1.192654, -2 * 0.024173, -2 * 0.011944};
  quat_to_body_frame(qn[0], a0);
  quat_to_body_frame(qn[1], a1);
  double ev, ec, fj[3], ti[3], tj[3];
  ASSERT_TRUE(ssd_pair(p, r, a0, a1, ev, ec, fj, ti, tj));
  EXPECT_LT(ev + ec, -1.0);    // a hydrogen-bonded dimer
  EXPECT_NEAR(st.pe, ev + ec, 1e-12 * std::fabs(ev + ec));
  EXPECT_NEAR(st.evdwl, ev, 1e-12 * std::fabs(ev));
  EXPECT_NEAR(st.ecoul, ec, 1e-12 * std::fabs(ec));
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(st.f[3 + d], fj[d], 1e-12 * (1 + std::fabs(fj[d])));
    EXPECT_NEAR(st.f[d], -fj[d], 1e-12 * (1 + std::fabs(fj[d])));
    EXPECT_NEAR(st.t[d], ti[d], 1e-12 * (1 + std::fabs(ti[d])));
    EXPECT_NEAR(st.t[3 + d], tj[d], 1e-12 * (1 + std::fabs(tj[d])));
  }
}

TEST_F(SsdLammps, AnnealedSsdEDimerIsOpenMdsHydrogenBond)
{
  // two SSD/E molecules from random orientations, annealed at T = 0 by LAMMPS's own
  // integrator (fix nve/asphere + fix langevin with angmom friction): the torques must turn
  // the molecules downhill. OpenMD's sample samples/water/dimer anneals the same model to an
  // O-O distance of 2.67 A (see unittest/units/test_ssd.cpp; software documentation, hence the
  // loose tolerance). The end point is stationary, and its energy is below that of OpenMD's
  // annealed frame evaluated with the evaluator (-7.90 kcal/mol; it lies in the same basin).
  cmd("units real");
  cmd("atom_style ellipsoid");
  cmd("atom_modify map array");
  cmd("boundary f f f");
  cmd("region box block -10 10 -10 10 -10 10");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 0 0 0 units box");
  cmd("create_atoms 1 single 2.9 0.3 -0.4 units box");
  cmd("set type 1 shape 0.002 1.13236 0.82595");    // SSD's inertia (doc/pair_ssd.md)
  cmd("set type 1 mass 18.0153");
  cmd("set atom 1 quat/random 11");
  cmd("set atom 2 quat/random 12");
  cmd("pair_style ssd 9.0");
  cmd("pair_coeff 1 1 ssd/e");
  cmd("fix 1 all nve/asphere");
  cmd("fix 2 all langevin 0.0 0.0 50.0 4471 angmom 3.0");
  cmd("timestep 1.0");
  cmd("thermo_style custom step pe");
  cmd("run 0 post no");
  const double e0 = s->thermo("pe");
  EXPECT_GT(e0, 0.0);    // a repulsive start
  cmd("run 20000 post no");
  cmd("unfix 2");
  const State st = run0();
  auto *a = lmp()->atom;
  const int i = a->map(1), j = a->map(2);
  double r[3], fmax = 0, tmax = 0;
  for (int d = 0; d < 3; ++d) r[d] = a->x[j][d] - a->x[i][d];
  const double roo = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (size_t k = 0; k < st.f.size(); ++k) {
    fmax = std::max(fmax, std::fabs(st.f[k]));
    tmax = std::max(tmax, std::fabs(st.t[k]));
  }
  EXPECT_NEAR(roo, 2.67, 0.02);
  EXPECT_LT(fmax, 1e-8);
  EXPECT_LT(tmax, 1e-8);
  EXPECT_LT(st.pe, -7.90);
  // the style's energy is the evaluator's at the end point
  const Params p =
      make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  double ai[9], aj[9], ev, ec, fj[3], ti[3], tj[3];
  quat_to_body_frame(quat(i), ai);
  quat_to_body_frame(quat(j), aj);
  ASSERT_TRUE(ssd_pair(p, r, ai, aj, ev, ec, fj, ti, tj));
  EXPECT_NEAR(st.pe, ev + ec, 1e-12 * std::fabs(ev + ec));
  // a minimum: turning either molecule a little about any axis raises the energy
  for (int m : {i, j}) {
    double *q = quat(m);
    const double q0[4] = {q[0], q[1], q[2], q[3]};
    for (int k = 0; k < 3; ++k)
      for (double phi : {-1e-3, 1e-3}) {
        const double c = std::cos(phi / 2), sn = std::sin(phi / 2);
        double dq[4] = {c, 0, 0, 0};
        dq[1 + k] = sn;
        q[0] = dq[0] * q0[0] - dq[1] * q0[1] - dq[2] * q0[2] - dq[3] * q0[3];
        q[1] = dq[0] * q0[1] + dq[1] * q0[0] + dq[2] * q0[3] - dq[3] * q0[2];
        q[2] = dq[0] * q0[2] - dq[1] * q0[3] + dq[2] * q0[0] + dq[3] * q0[1];
        q[3] = dq[0] * q0[3] + dq[1] * q0[2] - dq[2] * q0[1] + dq[3] * q0[0];
        EXPECT_GT(run0().pe, st.pe) << "molecule " << m << " axis " << k << " phi " << phi;
      }
    for (int n = 0; n < 4; ++n) q[n] = q0[n];
  }
}

TEST_F(SsdLammps, HybridAtomStyleAndSpecialBonds)
{
  // atom_style hybrid bond ellipsoid; two molecules joined by a (zero) bond: special_bonds
  // scale the van der Waals part (LJ + sticky) by lj and the dipole part by coul
  auto build = [&](bool bonded) {
    cmd("units real");
    cmd("atom_style hybrid bond ellipsoid");
    cmd("atom_modify map array");
    cmd("boundary f f f");
    cmd("region box block -10 10 -10 10 -10 10");
    cmd("create_box 1 box bond/types 1 extra/bond/per/atom 1 extra/special/per/atom 1");
    cmd("create_atoms 1 single 0 0 0 units box");
    cmd("create_atoms 1 single 2.1 1.5 0.7 units box");
    cmd("set type 1 shape 1 1 1");
    cmd("set type 1 mass 18.0153");
    cmd("set type 1 quat/random 8171");
    cmd("pair_style ssd 9.0 elec rf 80");
    cmd("pair_coeff 1 1 ssd/rf");
    cmd("bond_style zero");
    cmd("bond_coeff 1");
    cmd("special_bonds lj 0.0 0.5 0.5 coul 0.0 0.25 0.25");
    if (bonded) {
      cmd("create_bonds single/bond 1 1 2");
      cmd("special_bonds lj 0.5 0.5 0.5 coul 0.25 0.25 0.25");
    }
    return run0();
  };
  const State free = build(false);
  cmd("clear");
  const State bonded = build(true);
  EXPECT_GT(std::fabs(free.evdwl), 0.01);
  EXPECT_GT(std::fabs(free.ecoul), 0.1);
  EXPECT_NEAR(bonded.evdwl, 0.5 * free.evdwl, 1e-12 * std::fabs(free.evdwl));
  EXPECT_NEAR(bonded.ecoul, 0.25 * free.ecoul, 1e-12 * std::fabs(free.ecoul));
  EXPECT_NEAR(free.pe, free.evdwl + free.ecoul, 1e-12 * std::fabs(free.pe));
}

TEST_F(SsdLammps, SubStyleOfPairHybrid)
{
  // water (type 1, ssd) among plain LJ particles without an orientation (type 2, no ellipsoid
  // bonus) whose LJ is switched off: the hybrid energy is that of the water alone
  lattice("on", 2);
  cmd("pair_style hybrid ssd 6.0 elec rf 80 lj/cut 6.0");
  cmd("pair_coeff 1 1 ssd ssd/rf");
  cmd("pair_coeff 1 2 lj/cut 0.0 3.0");
  cmd("pair_coeff 2 2 lj/cut 0.0 3.0");
  cmd("set type 2 shape 0 0 0");    // removes the bonus: no orientation
  const State mixed = run0();
  cmd("clear");
  lattice("on", 2);
  cmd("group lj type 2");
  cmd("delete_atoms group lj compress no");
  cmd("pair_style ssd 6.0 elec rf 80");
  cmd("pair_coeff * * ssd/rf");
  const State water = run0();
  EXPECT_GT(std::fabs(water.pe), 1.0);
  EXPECT_NEAR(mixed.pe, water.pe, 1e-11 * std::fabs(water.pe));
  EXPECT_NEAR(mixed.ecoul, water.ecoul, 1e-11 * std::fabs(water.ecoul));
  double big = 0;
  for (size_t k = 0; k < water.t.size(); ++k) {
    EXPECT_NEAR(mixed.t[k], water.t[k], 1e-11 * (1 + std::fabs(water.t[k])));
    EXPECT_NEAR(mixed.f[k], water.f[k], 1e-11 * (1 + std::fabs(water.f[k])));
    big = std::max(big, std::fabs(water.t[k]));
  }
  EXPECT_GT(big, 1.0);
}

TEST_F(SsdLammps, RestartRoundTrip)
{
  lattice("on", 2);
  cmd("pair_style ssd 6.0 lj_cut 5.0 ljmode shift elec rf 80");
  cmd("pair_coeff 1 1 ssd1");
  cmd("pair_coeff 2 2 custom 3.1 0.16 2.4 3.8 3.7 0.08 2.5 3.6 2.7 3.9");
  cmd("pair_coeff 1 2 lj 3.2 0.3");
  const State a = run0();
  const std::string restart = tmp_name("r.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  EXPECT_EQ(std::string(lmp()->force->pair_style), "ssd");
  const State b = run0();
  double scale;
  EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe));
  EXPECT_NEAR(b.ecoul, a.ecoul, 1e-13 * std::fabs(a.ecoul));
  const double d1 = max_diff(b.f, a.f, scale);
  EXPECT_LE(d1, 1e-13 * scale);
  const double d2 = max_diff(b.t, a.t, scale);
  EXPECT_LE(d2, 1e-13 * scale);
  // a different pair_style after read_restart changes the energy (the test can fail)
  cmd("pair_style ssd 6.0 lj_cut 5.0 ljmode shift elec rf 40");
  cmd("pair_coeff 1 1 ssd1");
  cmd("pair_coeff 2 2 custom 3.1 0.16 2.4 3.8 3.7 0.08 2.5 3.6 2.7 3.9");
  EXPECT_GT(std::fabs(run0().pe - a.pe), 1e-3);
}

// 'elec rfswitch': the style against the all-pairs reference built here (switch 4.5 to 6 A, so
// the lattice's 5.4 A neighbours are inside the switch), forces and torques against finite
// differences of LAMMPS's energy, and a restart that must keep r_sw
TEST_F(SsdLammps, ReactionFieldSwitchMatchesTheReferenceTheGradientAndRestarts)
{
  const Params p =
      make_ssd_params<double>(SsdSet::ssdrf, SsdLj::cut, RC, SsdElectrostatics::rf_switch, RC,
                              EPS_RF, mesogpu::physics::ssd_qqr2e, 4.5);
  for (const char *newton : {"on", "off"}) {
    lattice(newton);
    cmd("pair_style ssd " + std::to_string(RC) + " elec rfswitch 80 4.5");
    cmd("pair_coeff 1 1 ssd/rf");
    const std::string what = std::string("rfswitch newton ") + newton;
    const State st = expect_reference_and_gradient(p, what);
    if (newton[1] == 'n') {
      const std::string restart = tmp_name("rfswitch.restart");
      cmd("write_restart " + restart);
      cmd("clear");
      cmd("read_restart " + restart);
      std::remove(restart.c_str());
      const State b = run0();
      EXPECT_NEAR(b.pe, st.pe, 1e-13 * std::fabs(st.pe));
      double scale;
      const double dt = max_diff(b.t, st.t, scale);    // sets scale first
      EXPECT_LE(dt, 1e-13 * scale);
      // the switch matters: unswitched RF, or another r_sw, change the energy
      cmd("pair_style ssd " + std::to_string(RC) + " elec rf 80");
      cmd("pair_coeff 1 1 ssd/rf");
      EXPECT_GT(std::fabs(run0().ecoul - st.ecoul), 1e-2);
      cmd("pair_style ssd " + std::to_string(RC) + " elec rfswitch 80 5.0");
      cmd("pair_coeff 1 1 ssd/rf");
      EXPECT_GT(std::fabs(run0().ecoul - st.ecoul), 1e-2);
    }
    cmd("clear");
  }
}

// 'ljmode switch': LJ times OOPSE's S(r) from the r_sw of 'elec rfswitch' (4.5 A) to lj_cut
// (6 A, and 5.5 A apart from coul_cut) against the all-pairs reference, forces and torques
// against finite differences of LAMMPS's energy, and a restart that must keep the LJ mode
TEST_F(SsdLammps, LjSwitchMatchesTheReferenceTheGradientAndRestarts)
{
  for (double lj_cut : {RC, 5.5}) {
    const Params p =
        make_ssd_params<double>(SsdSet::ssdrf, SsdLj::sw, lj_cut, SsdElectrostatics::rf_switch, RC,
                                EPS_RF, mesogpu::physics::ssd_qqr2e, 4.5);
    ASSERT_EQ(p.lj_sw, 4.5);
    for (const char *newton : {"on", "off"}) {
      lattice(newton);
      const std::string style = "pair_style ssd " + std::to_string(RC) + " lj_cut " +
                                std::to_string(lj_cut) + " ljmode switch elec rfswitch 80 4.5";
      cmd(style);
      cmd("pair_coeff 1 1 ssd/rf");
      const std::string what =
          "ljswitch lj_cut " + std::to_string(lj_cut) + " newton " + std::string(newton);
      const State st = expect_reference_and_gradient(p, what);
      if (newton[1] == 'n') {
        const std::string restart = tmp_name("ljswitch.restart");
        cmd("write_restart " + restart);
        cmd("clear");
        cmd("read_restart " + restart);
        std::remove(restart.c_str());
        const State b = run0();
        EXPECT_NEAR(b.pe, st.pe, 1e-13 * std::fabs(st.pe)) << what;
        EXPECT_NEAR(b.evdwl, st.evdwl, 1e-13 * std::fabs(st.evdwl)) << what;
        double scale;
        const double df = max_diff(b.f, st.f, scale);    // sets scale first
        EXPECT_LE(df, 1e-13 * scale) << what;
        // the switch matters: unswitched LJ changes evdwl (the lattice's 5.4 A neighbours
        // are inside the switch), ecoul stays
        cmd("pair_style ssd " + std::to_string(RC) + " lj_cut " + std::to_string(lj_cut) +
            " elec rfswitch 80 4.5");
        cmd("pair_coeff 1 1 ssd/rf");
        const State c = run0();
        EXPECT_GT(std::fabs(c.evdwl - st.evdwl), 1e-3) << what;
        EXPECT_NEAR(c.ecoul, st.ecoul, 1e-12 * std::fabs(st.ecoul)) << what;
      }
      cmd("clear");
    }
  }
}

TEST_F(SsdLammps, DataFileRoundTrip)
{
  for (const char *mode : {"ii", "ij"}) {
    lattice("on", 2);
    cmd("pair_style ssd 6.0 lj_cut 5.5 elec rf 80");
    cmd("pair_coeff 1 1 ssd/e");
    cmd("pair_coeff 2 2 custom 3.1 0.16 2.4 3.8 3.7 0.08 2.5 3.6 2.7 3.9");
    if (std::string(mode) == "ij") cmd("pair_coeff 1 2 lj 3.2 0.3");
    const State a = run0();
    const std::string data = tmp_name("d.data");
    cmd("write_data " + data + " pair " + mode);
    cmd("clear");
    cmd("units real");
    cmd("atom_style ellipsoid");
    cmd("atom_modify map array");
    cmd("pair_style ssd 6.0 lj_cut 5.5 elec rf 80");
    cmd("read_data " + data);
    std::remove(data.c_str());
    cmd("neighbor 1.0 bin");
    const State b = run0();
    double scale;
    EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe)) << mode;
    const double d3 = max_diff(b.f, a.f, scale);
    EXPECT_LE(d3, 1e-13 * scale) << mode;
    const double d4 = max_diff(b.t, a.t, scale);
    EXPECT_LE(d4, 1e-13 * scale) << mode;
    cmd("clear");
  }
}
