/* src/physics/gay_berne.h against LAMMPS's own pair_style gayberne (ASPHERE), an
   independent implementation in matrix form (Berardi et al.; Brown's supplement in the
   LAMMPS docs), where the two forms are the same function. Two particles in a large
   periodic box, atom_style ellipsoid; for many random orientations and distances the
   quaternions and positions are written into LAMMPS, `run 0` computes the pair, and
   energy, forces and torques of both atoms are compared with the evaluator's.

   The mapping (MODELS.md section 5): gamma = 1, upsilon = nu (LAMMPS halves it on input
   and raises 2 s1 s2 / det(G12) to upsilon / 2), mu = mu, radii s (d, d, l) with
   s = sigma0 / (sqrt(2) sqrt(d_i^2 + d_j^2)) (for identical particles: shape sqrt(2) (d, d, l)
   under Cleaver's rule, (d, d, l) under the arithmetic one), sigma = dw sigma0,
   eps_a = eps_b = 1, eps_c = eps_E / eps_S, epsilon = eps0 / eta_c, where
   - eta_c = [2 s1 s2 / (P (P + k_i)(P + k_j))]^(nu/2), P = a_i^2 + a_j^2, k = c^2 - a^2
     (radii a across, c along), is 1 for identical particles: the constant LAMMPS's eta
     leaves over for unlike shapes (GB-sphere pairs too), absorbed into epsilon here;
   - LAMMPS's chi_12 = (1 - H')^mu with OpenMD's chi' rule needs equal eps_E of the two
     particles (a sphere: its eps = the ellipsoid's eps_E), since LAMMPS's well matrices
     are relative; the cases here keep that.
   Identical particles are the comparison the task names; unlike rods with equal eps_E and
   GB-sphere pairs are the same function as well (up to eta_c) and checked the same way.
   LAMMPS's ellipsoid-sphere torque (gayberne_lj) lacks a factor mu chi^((mu-1)/mu) for
   mu != 1 (MODELS.md): GB-sphere torques are compared only at mu = 1; at mu = 2 energy and
   forces are compared and the torque difference is only reported. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "info.h"
#include "lammps.h"
#include "math_extra.h"

#include "lmp_session.h"
#include "physics/gay_berne.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <random>
#include <sstream>
#include <string>

namespace ph = mesogpu::physics;
using Type = ph::GayBerneType<double>;
using Rule = ph::GayBerneSigma0;

namespace {

// full precision in commands, so that LAMMPS holds the same doubles
std::string num(double x)
{
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

struct Case {
  std::string name;
  Type ti, tj;    // atom 1 (type 1) and atom 2 (type 2); a sphere has d = l
  double eps0, dw, mu, nu;
  Rule rule;
  double rc;
  bool torques;    // compare torques (not for GB-sphere at mu != 1)
};

bool is_sphere(const Type &t)
{
  return t.d == t.l;
}

// what the comparison found, worst over all configurations: |ours - LAMMPS| / scale,
// scale = the largest |energy|, |force| or |torque| component of the configuration
struct Worst {
  double u = 0, f = 0, t = 0;
  int n = 0;
};

class GayBerneLammps : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }

  bool have_gayberne()
  {
    LAMMPS_NS::Info info(s->lmp);
    return info.has_style("pair", "gayberne");
  }

  // radii scale: LAMMPS's side-by-side contact sqrt(2 (a_i^2 + a_j^2)) equals sigma0
  static double radius_scale(const Case &c, double sigma0)
  {
    return sigma0 / (std::sqrt(2.0) * std::sqrt(c.ti.d * c.ti.d + c.tj.d * c.tj.d));
  }

  // LAMMPS's constant factor of eta for unlike particles
  static double eta_c(const Case &c, double sc)
  {
    const double ai = sc * c.ti.d, ci = sc * c.ti.l, aj = sc * c.tj.d, cj = sc * c.tj.l;
    const double lsi = (ai * ai + ci * ci) * ai, lsj = (aj * aj + cj * cj) * aj;
    const double p = ai * ai + aj * aj;
    const double pi = p + ci * ci - ai * ai, pj = p + cj * cj - aj * aj;
    return std::pow(2 * lsi * lsj / (p * pi * pj), 0.5 * c.nu);
  }

  // sigma0 of the rule, written here (LAMMPS must not inherit an error of the header's)
  static double sigma0_of(const Case &c)
  {
    return c.rule == Rule::arithmetic ? 0.5 * (c.ti.d + c.tj.d)
                                      : std::sqrt(c.ti.d * c.ti.d + c.tj.d * c.tj.d);
  }

  void setup(const Case &c)
  {
    const double sc = radius_scale(c, sigma0_of(c));
    cmd("clear");    // a test may compare several cases in one session
    cmd("units lj");
    cmd("atom_style ellipsoid");
    cmd("atom_modify map array sort 0 0.0");
    cmd("region box block -30 30 -30 30 -30 30");
    cmd("create_box 2 box");
    cmd("create_atoms 1 single 0 0 0");
    cmd("create_atoms 2 single 5 0 0");
    auto shape = [&](int type, const Type &t) {
      cmd("set type " + std::to_string(type) + " shape " + num(2 * sc * t.d) + " " +
          num(2 * sc * t.d) + " " + num(2 * sc * t.l));
    };
    shape(1, c.ti);
    shape(2, c.tj);
    cmd("set type * density 1.0");
    cmd("set type * quat/random 4711");
    cmd("pair_style gayberne 1.0 " + num(c.nu) + " " + num(c.mu) + " " + num(c.rc));
    auto wells = [&](const Type &t) {
      return is_sphere(t) ? std::string(" 1 1 1") : " 1 1 " + num(t.eps_e / t.eps_s);
    };
    // the i-i and j-j pairs are never evaluated (one atom of each type)
    cmd("pair_coeff 1 1 1.0 1.0" + wells(c.ti) + wells(c.ti));
    cmd("pair_coeff 2 2 1.0 1.0" + wells(c.tj) + wells(c.tj));
    cmd("pair_coeff 1 2 " + num(c.eps0 / eta_c(c, sc)) + " " + num(c.dw * sigma0_of(c)) +
        " 0 0 0 0 0 0");
    cmd("neighbor 1.0 bin");
    cmd("thermo_style custom step pe");
    cmd("thermo_modify norm no");
  }

  // one atom's orientation: written as a quaternion, u = body z in the lab frame (the
  // third row of LAMMPS's lab-to-body matrix, the axis its shape's third value lies on)
  static void orient(LAMMPS_NS::LAMMPS *lmp, int tag, std::mt19937_64 &gen, double u[3])
  {
    auto *atom = lmp->atom;
    auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
    const int i = atom->map(tag);
    double *q = avec->bonus[atom->ellipsoid[i]].quat;
    std::normal_distribution<double> g;
    double n = 0;
    for (int k = 0; k < 4; ++k) {
      q[k] = g(gen);
      n += q[k] * q[k];
    }
    for (int k = 0; k < 4; ++k) q[k] /= std::sqrt(n);
    double a[3][3];
    MathExtra::quat_to_mat_trans(q, a);
    for (int k = 0; k < 3; ++k) u[k] = a[2][k];
  }

  // side-by-side-relative distance sigma(orientations) for choosing r
  static double sigma_of(const ph::GayBerneParams<double> &p, const double e[3], const double ui[3],
                         const double uj[3])
  {
    double h, ha, hb, hg;
    const double a = ui[0] * e[0] + ui[1] * e[1] + ui[2] * e[2];
    const double b = uj[0] * e[0] + uj[1] * e[1] + uj[2] * e[2];
    const double g = ui[0] * uj[0] + ui[1] * uj[1] + ui[2] * uj[2];
    ph::gay_berne_h(p.chi_a2, p.chi_ai2, p.chi2, a, b, g, h, ha, hb, hg);
    return p.sigma0 / std::sqrt(1 - h);
  }

  // n random configurations, r = sigma + t dw sigma0 with t in [-0.1, 3] inside rc
  Worst compare(const Case &c, int n, unsigned seed)
  {
    const auto p = ph::make_gay_berne_params<double>(c.ti, c.tj, c.eps0, c.dw, c.mu, c.nu, c.rule,
                                                     c.rc, false);
    setup(c);
    auto *lmp = s->lmp;
    auto *atom = lmp->atom;
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    std::normal_distribution<double> gauss;
    Worst w;
    while (w.n < n) {
      double ui[3], uj[3], e[3], en = 0;
      orient(lmp, 1, gen, ui);
      orient(lmp, 2, gen, uj);
      for (int k = 0; k < 3; ++k) {
        e[k] = gauss(gen);
        en += e[k] * e[k];
      }
      for (int k = 0; k < 3; ++k) e[k] /= std::sqrt(en);
      const double r = sigma_of(p, e, ui, uj) + (-0.1 + 3.1 * uni(gen)) * p.dw_sigma0;
      if (r >= 0.98 * c.rc) continue;
      // atom 1 off the origin, so that nothing sits on a cell or box boundary
      const double x1[3] = {0.37, -0.21, 0.13};
      double rij[3];
      for (int k = 0; k < 3; ++k) {
        rij[k] = r * e[k];
        atom->x[atom->map(1)][k] = x1[k];
        atom->x[atom->map(2)][k] = x1[k] + rij[k];
      }
      // rij as LAMMPS will see it (x_2 - x_1 in its doubles)
      for (int k = 0; k < 3; ++k) rij[k] = atom->x[atom->map(2)][k] - atom->x[atom->map(1)][k];
      cmd("run 0 post no");
      const double pe = s->thermo("pe");
      const int i1 = atom->map(1), i2 = atom->map(2);

      double u, fj[3], ti[3], tj[3];
      EXPECT_TRUE(ph::gay_berne_pair(p, rij, ui, uj, u, fj, ti, tj));
      double scale = std::fabs(u);
      for (int k = 0; k < 3; ++k)
        scale = std::max({scale, std::fabs(fj[k]), std::fabs(ti[k]), std::fabs(tj[k])});
      const double tol = 1e-10 * scale;
      const std::string at = c.name + " config " + std::to_string(w.n) + " r=" + num(r);
      EXPECT_NEAR(u, pe, tol) << at;
      w.u = std::max(w.u, std::fabs(u - pe) / scale);
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(fj[k], atom->f[i2][k], tol) << at << " F_2[" << k << "]";
        EXPECT_NEAR(-fj[k], atom->f[i1][k], tol) << at << " F_1[" << k << "]";
        w.f = std::max({w.f, std::fabs(fj[k] - atom->f[i2][k]) / scale,
                        std::fabs(fj[k] + atom->f[i1][k]) / scale});
        if (c.torques) {
          EXPECT_NEAR(ti[k], atom->torque[i1][k], tol) << at << " tau_1[" << k << "]";
          EXPECT_NEAR(tj[k], atom->torque[i2][k], tol) << at << " tau_2[" << k << "]";
        }
        w.t = std::max({w.t, std::fabs(ti[k] - atom->torque[i1][k]) / scale,
                        std::fabs(tj[k] - atom->torque[i2][k]) / scale});
      }
      ++w.n;
    }
    return w;
  }

  void report(const Case &c, const Worst &w)
  {
    std::printf("[ gb/lammps ] %-28s %4d configs, max |diff|/scale: energy %.2e force %.2e "
                "torque %.2e%s\n",
                c.name.c_str(), w.n, w.u, w.f, w.t, c.torques ? "" : " (torque not compared)");
    RecordProperty(c.name + ":max_rel_energy", num(w.u));
    RecordProperty(c.name + ":max_rel_force", num(w.f));
    RecordProperty(c.name + ":max_rel_torque", num(w.t));
  }

  // Which torque is right where they differ: -dU/dtheta of LAMMPS's own energy, turning
  // atom 1's quaternion by +-h, +-2h about each lab axis (4th-order central difference).
  // Returns the worst |tau - fd| / |fd|_max of ours and of LAMMPS's over n configurations.
  void torque_by_lammps_energy(const Case &c, int n, double &ours, double &lammps)
  {
    const auto p = ph::make_gay_berne_params<double>(c.ti, c.tj, c.eps0, c.dw, c.mu, c.nu, c.rule,
                                                     c.rc, false);
    setup(c);
    auto *lmp = s->lmp;
    auto *atom = lmp->atom;
    auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
    std::mt19937_64 gen(1996);
    ours = lammps = 0;
    for (int m = 0; m < n; ++m) {
      double ui[3], uj[3];
      orient(lmp, 1, gen, ui);
      orient(lmp, 2, gen, uj);
      const double e[3] = {0.48, 0.6, 0.64};    // a unit vector
      const double r = sigma_of(p, e, ui, uj) + (0.05 + 0.1 * m) * p.dw_sigma0;
      double rij[3];
      for (int k = 0; k < 3; ++k) {
        atom->x[atom->map(1)][k] = 0.1;
        atom->x[atom->map(2)][k] = 0.1 + r * e[k];
        rij[k] = atom->x[atom->map(2)][k] - 0.1;
      }
      double u, fj[3], ti[3], tj[3];
      ph::gay_berne_pair(p, rij, ui, uj, u, fj, ti, tj);
      cmd("run 0 post no");
      double t_lmp[3];
      for (int k = 0; k < 3; ++k) t_lmp[k] = atom->torque[atom->map(1)][k];
      double *q = avec->bonus[atom->ellipsoid[atom->map(1)]].quat;
      const double q0[4] = {q[0], q[1], q[2], q[3]};
      auto energy_turned = [&](int axis, double t) {
        // q = (cos t/2, sin t/2 e_axis) * q0: a turn by t about the lab axis
        double w = std::cos(0.5 * t), v[3] = {0, 0, 0};
        v[axis] = std::sin(0.5 * t);
        q[0] = w * q0[0] - v[0] * q0[1] - v[1] * q0[2] - v[2] * q0[3];
        q[1] = w * q0[1] + v[0] * q0[0] + v[1] * q0[3] - v[2] * q0[2];
        q[2] = w * q0[2] - v[0] * q0[3] + v[1] * q0[0] + v[2] * q0[1];
        q[3] = w * q0[3] + v[0] * q0[2] - v[1] * q0[1] + v[2] * q0[0];
        cmd("run 0 post no");
        return s->thermo("pe");
      };
      const double h = 1e-4;
      double fd[3], big = 0;
      for (int k = 0; k < 3; ++k) {
        fd[k] = -(-energy_turned(k, 2 * h) + 8 * energy_turned(k, h) - 8 * energy_turned(k, -h) +
                  energy_turned(k, -2 * h)) /
                (12 * h);
        big = std::max(big, std::fabs(fd[k]));
      }
      for (int k = 0; k < 4; ++k) q[k] = q0[k];
      for (int k = 0; k < 3; ++k) {
        ours = std::max(ours, std::fabs(ti[k] - fd[k]) / big);
        lammps = std::max(lammps, std::fabs(t_lmp[k] - fd[k]) / big);
      }
    }
  }

  void run_case(const Case &c, int n = 200)
  {
    if (!have_gayberne()) GTEST_SKIP() << "host LAMMPS has no pair_style gayberne (ASPHERE)";
    const Worst w = compare(c, n, 20260704);
    report(c, w);
  }
};

const Type ROD{1.0, 3.0, 1.0, 0.2};    // l/d = 3, eps_S/eps_E = 5
const Type ROD2{1.0, 2.5, 1.5, 0.4};
const Type DISC{2.0, 0.7, 1.0, 3.0};      // oblate
const Type SHORT{0.8, 1.6, 0.7, 0.2};     // unlike ROD, same eps_E
const Type SPHERE{1.2, 1.2, 0.2, 0.2};    // eps = ROD's eps_E

}    // namespace

TEST_F(GayBerneLammps, IdenticalRodsCleaverCanonical)
{
  run_case({"rod_rod_cleaver_mu2_nu1", ROD, ROD, 1.0, 1.0, 2.0, 1.0, Rule::cleaver, 9.0, true});
}

TEST_F(GayBerneLammps, IdenticalRodsArithmeticGeneralExponents)
{
  run_case(
      {"rod_rod_arith_mu1.3_nu2.5", ROD2, ROD2, 0.8, 0.7, 1.3, 2.5, Rule::arithmetic, 7.0, true});
}

TEST_F(GayBerneLammps, IdenticalRodsCleaverMu1Softer)
{
  run_case({"rod_rod_cleaver_mu1_dw1.3", ROD, ROD, 1.2, 1.3, 1.0, 1.0, Rule::cleaver, 10.0, true});
}

TEST_F(GayBerneLammps, IdenticalDiscs)
{
  run_case({"disc_disc_cleaver_mu2_nu3", DISC, DISC, 0.9, 1.0, 2.0, 3.0, Rule::cleaver, 9.0, true});
}

TEST_F(GayBerneLammps, UnlikeRodsEqualEndToEndWells)
{
  run_case({"rod_short_cleaver_mu2_nu1", ROD, SHORT, 1.1, 0.9, 2.0, 1.0, Rule::cleaver, 9.0, true});
  run_case(
      {"rod_short_arith_mu1.5_nu2", ROD, SHORT, 1.1, 0.9, 1.5, 2.0, Rule::arithmetic, 9.0, true});
}

TEST_F(GayBerneLammps, RodSphereMu1)
{
  // LAMMPS: ELLIPSE_SPHERE (gayberne_lj(i, j)); the sphere's eps_S = eps_E = the rod's eps_E
  run_case({"rod_sphere_cleaver_mu1", ROD, SPHERE, 0.9, 1.0, 1.0, 1.0, Rule::cleaver, 9.0, true});
  run_case({"rod_sphere_arith_mu1", ROD, SPHERE, 0.9, 0.8, 1.0, 1.0, Rule::arithmetic, 9.0, true});
}

TEST_F(GayBerneLammps, SphereRodMu1)
{
  // LAMMPS: SPHERE_ELLIPSE (gayberne_lj(j, i)), the sphere is atom 1
  run_case({"sphere_rod_cleaver_mu1", SPHERE, ROD, 0.9, 1.0, 1.0, 1.0, Rule::cleaver, 9.0, true});
}

TEST_F(GayBerneLammps, RodSphereMu2EnergyAndForces)
{
  // torques not compared: LAMMPS's gayberne_lj torque misses mu chi^((mu-1)/mu)
  const Case c{
      "rod_sphere_cleaver_mu2", ROD, SPHERE, 0.9, 1.0, 2.0, 1.0, Rule::cleaver, 9.0, false};
  run_case(c);
  // ours is -dU/dtheta of LAMMPS's own energy; LAMMPS's torque is not
  double ours, lammps;
  torque_by_lammps_energy(c, 10, ours, lammps);
  std::printf("[ gb/lammps ] %-28s torque against -dU/dtheta of LAMMPS's energy: ours %.2e, "
              "LAMMPS's %.2e\n",
              c.name.c_str(), ours, lammps);
  EXPECT_LT(ours, 1e-7);
  EXPECT_GT(lammps, 1e-2) << "LAMMPS's gayberne_lj torque now right for mu != 1? Compare it";
}

TEST_F(GayBerneLammps, RodSphereMu1TorqueByEnergy)
{
  // the same check where LAMMPS is right: both agree with the differences
  if (!have_gayberne()) GTEST_SKIP() << "host LAMMPS has no pair_style gayberne (ASPHERE)";
  const Case c{"rod_sphere_cleaver_mu1", ROD, SPHERE, 0.9, 1.0, 1.0, 1.0, Rule::cleaver, 9.0, true};
  double ours, lammps;
  torque_by_lammps_energy(c, 10, ours, lammps);
  std::printf("[ gb/lammps ] %-28s torque against -dU/dtheta of LAMMPS's energy: ours %.2e, "
              "LAMMPS's %.2e\n",
              c.name.c_str(), ours, lammps);
  EXPECT_LT(ours, 1e-7);
  EXPECT_LT(lammps, 1e-7);
}
