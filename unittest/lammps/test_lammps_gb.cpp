/* pair_style gb inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH).
   References: LAMMPS's own pair_style gayberne (ASPHERE) where the two are the same function
   (identical uniaxial rods; a rod-sphere mixture at mu = 1, with the mapping of
   src/physics/gay_berne.h and unittest/lammps/test_lammps_gay_berne.cpp); a slow loop over
   all pairs with the minimum image that calls nothing but src/physics/gay_berne.h, with the
   long axes taken from the quaternions by LAMMPS's MathExtra and the mixing written out here
   (not taken from the style); central finite differences of LAMMPS's own total energy (forces:
   moving one particle; torques: turning its quaternion about a lab axis); Newton's third law
   and the angular momentum of a free cluster; newton on against off; restart and data-file
   round trips. The errors a user sees are in test_lammps_gb_errors.cpp. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "force.h"
#include "info.h"
#include "lammps.h"
#include "math_extra.h"

#include "lmp_session.h"
#include "oriented_pair_test.h"
#include "physics/gay_berne.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <mpi.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace ph = mesogpu::physics;
using Type = ph::GayBerneType<double>;
using Params = ph::GayBerneParams<double>;
using Rule = ph::GayBerneSigma0;

namespace {

using oriented_pair_test::max_diff;
using oriented_pair_test::State;

const double A = 4.5;      // lattice spacing: near the well of many pairs (beyond R -> inf)
const double L = 4 * A;    // box edge of the 4 x 4 x 4 lattice
const double RC = 8.5;     // global cutoff (< L / 2: minimum image)

std::string num(double x)
{
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::string tmp_name(const std::string &stem)
{
  return "lmp_gb_" + std::to_string(getpid()) + "_" + stem;
}

// per-atom results ordered by tag
// the three types of the mixture tests, as the pair_coeff lines give them
struct Mixture {
  Rule rule;
  bool shift;
  // type 1: rod (gb 1 3 eps_X 1.0 eps_S 1.0 eps_E 0.2 dw 1.0); type 2: oblate disc
  // (gb 2 0.7, eps_X 0.9, eps_S 1.0, eps_E 3.0, dw 0.8); type 3: LJ sphere (lj 1.5 0.7,
  // dw 1.2, cut 7)
  std::vector<std::string> lines() const
  {
    return {std::string("pair_style gb ") + num(RC) + " sigma0 " +
                (rule == Rule::cleaver ? "cleaver" : "arithmetic") + " shift " +
                (shift ? "yes" : "no") + " mu 2 nu 1",
            "pair_coeff 1 1 gb 1.0 3.0 1.0 1.0 0.2",
            "pair_coeff 2 2 gb 2.0 0.7 0.9 1.0 3.0 dw 0.8",
            "pair_coeff 3 3 lj 1.5 0.7 dw 1.2 cut 7.0",
            "pair_coeff 1 2 eps0 1.4 mu 1.5 nu 2 cut 8.0",
            "pair_coeff 1 3 eps0 0.6 dw 1.1 mu 3"};
  }
  // the evaluator's parameters of the ordered pair, mixed here by OpenMD's rules
  Params params(int a, int b) const
  {
    const double ds = rule == Rule::cleaver ? 1.5 / std::sqrt(2.0) : 1.5;
    const Type t[4] = {
        {0, 0, 0, 0}, {1.0, 3.0, 1.0, 0.2}, {2.0, 0.7, 1.0, 3.0}, {ds, ds, 0.7, 0.7}};
    const double epsx[4] = {0, 1.0, 0.9, 0.7}, dw[4] = {0, 1.0, 0.8, 1.2},
                 cut[4] = {0, RC, RC, 7.0};
    double eps0 = std::sqrt(epsx[a] * epsx[b]), w = 0.5 * (dw[a] + dw[b]), mu = 2, nu = 1,
           rc = std::max(cut[a], cut[b]);
    const int lo = std::min(a, b), hi = std::max(a, b);
    if (lo == 1 && hi == 2) {
      eps0 = 1.4;
      mu = 1.5;
      nu = 2;
      rc = 8.0;
    } else if (lo == 1 && hi == 3) {
      eps0 = 0.6;
      w = 1.1;
      mu = 3;
    }
    return ph::make_gay_berne_params<double>(t[a], t[b], eps0, w, mu, nu, rule, rc, shift);
  }
};

class GbLammps : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // 64 particles on a simple cubic lattice, displaced by up to 0.2 per component, random
  // orientations; with several types, type/fraction spreads them. shapes: 'set' arguments
  void lattice(const std::string &newton, int ntypes, const std::vector<std::string> &shapes)
  {
    cmd("units lj");
    cmd("atom_style ellipsoid");
    cmd("atom_modify map array sort 0 0.0");    // local indices stay put between runs
    cmd("newton " + newton);
    cmd("region box block 0 " + num(L) + " 0 " + num(L) + " 0 " + num(L) + " units box");
    cmd("create_box " + std::to_string(ntypes) + " box");
    // in lj units the lattice scale is a density: spacing A
    cmd("lattice sc " + num(1 / (A * A * A)) + " origin 0.25 0.25 0.25");
    cmd("create_atoms 1 box");
    cmd("displace_atoms all random 0.15 0.15 0.15 7781 units box");
    if (ntypes > 1) cmd("set type 1 type/fraction 2 0.5 1234");
    if (ntypes > 2) cmd("set type 2 type/fraction 3 0.5 4321");
    for (int t = 0; t < ntypes; ++t)
      cmd("set type " + std::to_string(t + 1) + " shape " + shapes[t]);
    cmd("set type * density 1.0");
    cmd("set type * quat/random 4471");
    cmd("neighbor 1.0 bin");
  }

  State run0() { return oriented_pair_test::run0_state(*s); }

  double *quat(int i) { return oriented_pair_test::body_quat(lmp(), i); }

  // every pair once, minimum image in a periodic box of edge box (0: none), the physics
  // header only; u = body z from LAMMPS's lab-to-body matrix (0 without a bonus)
  State reference(double box, const std::function<Params(int, int)> &par)
  {
    auto *a = lmp()->atom;
    const int n = a->nlocal;
    State st;
    st.f.assign(3 * n, 0.0);
    st.t.assign(3 * n, 0.0);
    double w[6] = {0, 0, 0, 0, 0, 0};
    std::vector<double> u(3 * n, 0.0);
    for (int i = 0; i < n; ++i)
      if (double *q = quat(i)) {
        double m[3][3];
        MathExtra::quat_to_mat_trans(q, m);
        for (int d = 0; d < 3; ++d) u[3 * i + d] = m[2][d];
      }
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        double r[3];
        for (int d = 0; d < 3; ++d) {
          r[d] = a->x[j][d] - a->x[i][d];
          if (box > 0) r[d] -= box * std::round(r[d] / box);
        }
        const Params p = par(a->type[i], a->type[j]);
        double e, fj[3], ti[3], tj[3];
        if (!ph::gay_berne_pair(p, r, &u[3 * i], &u[3 * j], e, fj, ti, tj)) continue;
        st.pe += e;
        const int gi = a->tag[i] - 1, gj = a->tag[j] - 1;
        oriented_pair_test::tally_pair(st.f.data(), st.t.data(), w, gi, gj, r, fj, ti, tj);
      }
    for (int k = 0; k < 6; ++k) st.press[k] = w[k] / (L * L * L);    // lj units, T = 0
    return st;
  }

  void expect_matches(const State &st, const State &ref, double tol, const std::string &what,
                      bool torques = true)
  {
    double scale;
    EXPECT_NEAR(st.pe, ref.pe, tol * (1 + std::fabs(ref.pe))) << what;
    const double df = max_diff(st.f, ref.f, scale);
    EXPECT_LT(df, tol * scale) << what;
    EXPECT_GT(scale, 1e-3) << what;
    if (torques) {
      const double dt = max_diff(st.t, ref.t, scale);
      EXPECT_LT(dt, tol * scale) << what;
      EXPECT_GT(scale, 1e-3) << what;
    }
    double pbig = 0;
    for (int k = 0; k < 6; ++k) pbig = std::max(pbig, std::fabs(ref.press[k]));
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(st.press[k], ref.press[k], tol * (1e-6 + pbig)) << what << " press " << k;
  }

  void mixture(const std::string &newton, const Mixture &m, bool sphere_bonus = true)
  {
    lattice(newton, 3, {"1.4 1.4 4.2", "2.8 2.8 1.0", "1.5 1.5 1.5"});
    if (!sphere_bonus) cmd("set type 3 shape 0 0 0");    // no bonus: no orientation
    for (const auto &c : m.lines()) cmd(c);
  }
};

// LAMMPS's constant factor of eta for unlike shapes (test_lammps_gay_berne.cpp), radii
// sc (d, d, l)
double eta_c(const Type &ti, const Type &tj, double sc, double nu)
{
  const double ai = sc * ti.d, ci = sc * ti.l, aj = sc * tj.d, cj = sc * tj.l;
  const double lsi = (ai * ai + ci * ci) * ai, lsj = (aj * aj + cj * cj) * aj;
  const double p = ai * ai + aj * aj;
  const double pi = p + ci * ci - ai * ai, pj = p + cj * cj - aj * aj;
  return std::pow(2 * lsi * lsj / (p * pi * pj), 0.5 * nu);
}

}    // namespace

TEST_F(GbLammps, StyleIsRegistered)
{
  LAMMPS_NS::Info info(lmp());
  EXPECT_TRUE(info.has_style("pair", "gb"));
}

TEST_F(GbLammps, IdenticalRodsMatchLammpsGayberne)
{
  if (!LAMMPS_NS::Info(lmp()).has_style("pair", "gayberne"))
    GTEST_SKIP() << "host LAMMPS has no pair_style gayberne (ASPHERE)";
  // rods with eps_S/eps_E = 5, eps_X 1.3, dw 0.9: d = 1, l = 3 under Cleaver's rule, d = 1.4,
  // l = 4.2 under the arithmetic one (the same contact distances), two exponent sets
  struct C {
    Rule rule;
    double d, mu, nu;
  };
  for (const C c : {C{Rule::cleaver, 1.0, 2.0, 1.0}, C{Rule::arithmetic, 1.4, 1.3, 2.5}})
    for (const char *newton : {"on", "off"}) {
      // radii sc (d, d, l): LAMMPS's side-by-side contact 2 sc d equals sigma0
      const double sigma0 = c.rule == Rule::cleaver ? std::sqrt(2.0) * c.d : c.d;
      const double sc = sigma0 / (2 * c.d);
      const std::string shape =
          num(2 * sc * c.d) + " " + num(2 * sc * c.d) + " " + num(2 * sc * 3 * c.d);
      const std::string what =
          std::string(c.rule == Rule::cleaver ? "cleaver" : "arithmetic") + " newton " + newton;
      lattice(newton, 1, {shape});
      cmd("pair_style gayberne 1.0 " + num(c.nu) + " " + num(c.mu) + " " + num(RC));
      cmd("pair_coeff 1 1 1.3 " + num(0.9 * sigma0) + " 1 1 0.2 1 1 0.2");
      const State lmp_gb = run0();
      cmd(std::string("pair_style gb ") + num(RC) + " mu " + num(c.mu) + " nu " + num(c.nu) +
          (c.rule == Rule::cleaver ? "" : " sigma0 arithmetic"));
      cmd("pair_coeff 1 1 gb " + num(c.d) + " " + num(3 * c.d) + " 1.3 1.0 0.2 dw 0.9");
      const State ours = run0();
      expect_matches(ours, lmp_gb, 1e-12, what);
      EXPECT_GT(std::fabs(lmp_gb.pe), 1.0) << what;
      cmd("clear");
    }
}

TEST_F(GbLammps, RodSphereMixtureAtMu1MatchesLammpsGayberne)
{
  if (!LAMMPS_NS::Info(lmp()).has_style("pair", "gayberne"))
    GTEST_SKIP() << "host LAMMPS has no pair_style gayberne (ASPHERE)";
  // type 1 rod (dw 0.8), type 2 sphere with eps_S = eps_E = the rod's eps_E (LAMMPS's wells
  // are relative) and dw 1 (LAMMPS's sphere-sphere pair is plain LJ). Unlike pair mixed by
  // the style: eps0 = sqrt(1.3 * 0.5), dw = 0.9; Cleaver's rule (radii d / sqrt(2) for every
  // pair). LAMMPS's GB-sphere torque is right only at mu = 1.
  const Type rod{1.0, 3.0, 1.0, 0.2}, sph{1.2, 1.2, 0.2, 0.2};
  const double sc = 1 / std::sqrt(2.0), s2 = std::sqrt(2.0);
  const double eps12 = std::sqrt(1.3 * 0.5) / eta_c(rod, sph, sc, 1.0);
  for (const char *newton : {"on", "off"}) {
    lattice(newton, 2,
            {num(s2) + " " + num(s2) + " " + num(3 * s2),
             num(1.2 * s2) + " " + num(1.2 * s2) + " " + num(1.2 * s2)});
    cmd("pair_style gayberne 1.0 1.0 1.0 " + num(RC));
    cmd("pair_coeff 1 1 1.3 " + num(0.8 * s2) + " 1 1 0.2 1 1 0.2");
    cmd("pair_coeff 2 2 0.5 " + num(1.2 * s2) + " 1 1 1 1 1 1");
    cmd("pair_coeff 1 2 " + num(eps12) + " " + num(0.9 * std::sqrt(1 + 1.44)) + " 0 0 0 0 0 0");
    const State lmp_gb = run0();
    cmd("pair_style gb " + num(RC) + " mu 1 nu 1");
    cmd("pair_coeff 1 1 gb 1.0 3.0 1.3 1.0 0.2 dw 0.8");
    cmd("pair_coeff 2 2 gb 1.2 1.2 0.5 0.2 0.2");
    const State ours = run0();
    expect_matches(ours, lmp_gb, 1e-12, std::string("rod-sphere newton ") + newton);
    cmd("clear");
  }
}

TEST_F(GbLammps, DissimilarTypesMatchTheAllPairsReference)
{
  for (const Mixture m : {Mixture{Rule::cleaver, false}, Mixture{Rule::arithmetic, true}})
    for (const char *newton : {"on", "off"})
      for (bool bonus : {true, false}) {
        mixture(newton, m, bonus);
        const State st = run0();
        const State ref = reference(L, [&](int a, int b) { return m.params(a, b); });
        const std::string what = std::string(m.rule == Rule::cleaver ? "cleaver" : "arithmetic") +
                                 (m.shift ? " shift" : "") + " newton " + newton +
                                 (bonus ? "" : " spheres without bonus");
        expect_matches(st, ref, 1e-11, what);
        EXPECT_GT(std::fabs(ref.pe), 1.0) << what;
        cmd("clear");
      }
}

TEST_F(GbLammps, ForcesAndTorquesAreFiniteDifferencesOfTheEnergy)
{
  const double h = 1e-5;
  for (const Mixture m : {Mixture{Rule::cleaver, true}, Mixture{Rule::arithmetic, false}}) {
    mixture("on", m);
    const State st = run0();
    const std::string what = m.rule == Rule::cleaver ? "cleaver shift" : "arithmetic";
    auto *a = lmp()->atom;
    int checked[4] = {0, 0, 0, 0};
    for (int tag = 1; tag <= 64; ++tag) {
      const int i = a->map(tag);
      ASSERT_GE(i, 0);
      if (checked[a->type[i]]++ >= 3) continue;    // three particles of each type
      const int t = tag - 1;
      const std::string at = what + " tag " + std::to_string(tag);
      auto pe = [&] { return run0().pe; };
      oriented_pair_test::expect_force_fd(a, i, &st.f[3 * t], pe, h, at);
      oriented_pair_test::expect_torque_fd(quat(i), &st.t[3 * t], pe, h, at);
      if (a->type[i] == 3)
        for (int k = 0; k < 3; ++k) EXPECT_EQ(st.t[3 * t + k], 0.0) << at << " sphere";
    }
    for (int ty = 1; ty <= 3; ++ty) EXPECT_GE(checked[ty], 3) << what;
    cmd("clear");
  }
}

TEST_F(GbLammps, FreeClusterConservesMomentumAndAngularMomentum)
{
  // 27 particles in a non-periodic box, every pair within the cutoff: the sum of the forces and
  // the sum of torque + x cross F vanish
  for (const Mixture m : {Mixture{Rule::cleaver, true}, Mixture{Rule::arithmetic, false}})
    for (const char *newton : {"on", "off"}) {
      cmd("units lj");
      cmd("atom_style ellipsoid");
      cmd("atom_modify map array");
      cmd("boundary f f f");
      cmd(std::string("newton ") + newton);
      cmd("region box block -10 30 -10 30 -10 30 units box");
      cmd("create_box 3 box");
      cmd("lattice sc " + num(1 / (A * A * A)));    // lj units: a density; spacing A
      cmd("region cl block 0 2.9 0 2.9 0 2.9");
      cmd("create_atoms 1 region cl");
      cmd("displace_atoms all random 0.2 0.2 0.2 991 units box");
      cmd("set type 1 type/fraction 2 0.5 1234");
      cmd("set type 2 type/fraction 3 0.5 4321");
      cmd("set type * shape 1 1 1");
      cmd("set type * density 1.0");
      cmd("set type * quat/random 5513");
      Mixture big = m;
      for (const auto &c : big.lines()) cmd(c);
      cmd("pair_style gb 30.0 sigma0 " +
          std::string(m.rule == Rule::cleaver ? "cleaver" : "arithmetic") +
          (m.shift ? " shift yes" : "") + " mu 2 nu 1");
      cmd("pair_coeff 3 3 lj 1.5 0.7 dw 1.2 cut 30");
      cmd("pair_coeff 1 2 eps0 1.4 mu 1.5 nu 2 cut 30");
      const State st = run0();
      auto *a = lmp()->atom;
      ASSERT_EQ(a->natoms, 27);
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
      const std::string what =
          std::string(m.rule == Rule::cleaver ? "cleaver" : "arithmetic") + " newton " + newton;
      EXPECT_GT(fbig, 1e-2) << what;
      for (int d = 0; d < 3; ++d) {
        EXPECT_LT(std::fabs(fsum[d]), 1e-12 * fbig) << what;
        EXPECT_LT(std::fabs(lsum[d]), 1e-12 * tbig) << what;
      }
      cmd("clear");
    }
}

TEST_F(GbLammps, PerAtomEnergyAndVirialSumToTheGlobalOnes)
{
  mixture("on", Mixture{Rule::cleaver, true});
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
  EXPECT_GT(std::fabs(pe), 1.0);
  EXPECT_NEAR(s->variable("pes"), pe, 1e-10 * std::fabs(pe));
  for (const char *k : {"xx", "yy", "xy", "yz"}) {
    const double p = s->thermo((std::string("p") + k).c_str());
    EXPECT_NEAR(s->variable((std::string("s") + k).c_str()), p, 1e-9 * (1e-3 + std::fabs(p))) << k;
  }
}

TEST_F(GbLammps, SpecialBondsScaleThePair)
{
  // two bonded rods: special_bonds lj 0.5 halves energy, forces and torques of the pair
  auto build = [&](bool bonded) {
    cmd("units lj");
    cmd("atom_style hybrid bond ellipsoid");
    cmd("atom_modify map array");
    cmd("boundary f f f");
    cmd("region box block -10 10 -10 10 -10 10");
    cmd("create_box 1 box bond/types 1 extra/bond/per/atom 1 extra/special/per/atom 1");
    cmd("create_atoms 1 single 0 0 0 units box");
    cmd("create_atoms 1 single 2.1 1.5 0.7 units box");
    cmd("set type 1 shape 1 1 3");
    cmd("set type 1 density 1.0");
    cmd("set type 1 quat/random 8171");
    cmd("pair_style gb 9.0");
    cmd("pair_coeff 1 1 gb 1.0 3.0 1.0 1.0 0.2");
    cmd("bond_style zero");
    cmd("bond_coeff 1");
    if (bonded) {
      cmd("create_bonds single/bond 1 1 2");
      cmd("special_bonds lj 0.5 0.5 0.5");
    }
    return run0();
  };
  const State free = build(false);
  cmd("clear");
  const State bonded = build(true);
  EXPECT_GT(std::fabs(free.pe), 1e-3);
  EXPECT_NEAR(bonded.pe, 0.5 * free.pe, 1e-14 * std::fabs(free.pe));
  for (size_t k = 0; k < free.f.size(); ++k) {
    EXPECT_NEAR(bonded.f[k], 0.5 * free.f[k], 1e-14 * (1 + std::fabs(free.f[k])));
    EXPECT_NEAR(bonded.t[k], 0.5 * free.t[k], 1e-14 * (1 + std::fabs(free.t[k])));
  }
}

TEST_F(GbLammps, RestartRoundTrip)
{
  mixture("on", Mixture{Rule::arithmetic, true});
  const State a = run0();
  const std::string restart = tmp_name("r.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  EXPECT_EQ(std::string(lmp()->force->pair_style), "gb");
  cmd("neighbor 1.0 bin");
  const State b = run0();
  double scale;
  EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe));
  const double d1 = max_diff(b.f, a.f, scale);
  EXPECT_LE(d1, 1e-13 * scale);
  const double d2 = max_diff(b.t, a.t, scale);
  EXPECT_LE(d2, 1e-13 * scale);
  // the restart kept the unlike-pair values: without them the energy changes
  cmd("pair_coeff 1 2");
  cmd("pair_coeff 1 3");
  EXPECT_GT(std::fabs(run0().pe - a.pe), 1e-3);
}

TEST_F(GbLammps, DataFileRoundTrip)
{
  for (const char *mode : {"ii", "ij"}) {
    const Mixture m{Rule::cleaver, true};
    mixture("on", m);
    const State a = run0();
    const std::string data = tmp_name("d.data");
    cmd("write_data " + data + " pair " + mode);
    cmd("clear");
    cmd("units lj");
    cmd("atom_style ellipsoid");
    cmd("atom_modify map array");
    cmd(m.lines()[0]);
    cmd("read_data " + data);
    std::remove(data.c_str());
    cmd("neighbor 1.0 bin");
    if (std::string(mode) == "ii")    // Pair Coeffs has the types only
      for (int k = 4; k < 6; ++k) cmd(m.lines()[k]);
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
