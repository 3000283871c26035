/* Units for src/physics/soft_aniso.h (the GALAMOST soft anisotropic model). References are
   independent of the evaluator: energies written out again here from the angles (not the cosines
   the evaluator uses), forces and gorques from 4th-order central differences of the energy, the
   analytic Janus minimum, angular momentum conservation, the cutoff, and the i <-> j symmetry of
   the pair. */

#include "physics/soft_aniso.h"

#include "gtest/gtest.h"
#include "vec3_test.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using mesogpu::physics::make_soft_aniso_params;
using mesogpu::physics::soft_aniso_pair;
using mesogpu::physics::soft_aniso_torque;
using mesogpu::physics::SoftAnisoModel;
using Params = mesogpu::physics::SoftAnisoParams<double>;

using namespace mesogpu_test;

namespace {

const double PI = 3.14159265358979323846;
double deg(double d)
{
  return d * PI / 180.0;
}

struct Result {
  double u;
  V3 fj, gi, gj;
  bool inside;
};

Result eval(const Params &p, V3 r, V3 ni, V3 nj)
{
  Result o;
  o.inside = soft_aniso_pair(p, r.v, ni.v, nj.v, o.u, o.fj.v, o.gi.v, o.gj.v);
  return o;
}

struct Rng : RandomDirections {
  Rng() : RandomDirections(20130801) {}
  // a unit vector making angle th with axis e
  V3 at_angle(V3 e, double th)
  {
    V3 t = direction();
    t = unit(t + (-dot(t, e)) * e);
    return std::cos(th) * e + std::sin(th) * t;
  }
};

// -------- the energy written out from the angles (the model's formulas, rc scaling) -------
double a_ref(const Params &p, double th, double beta)
{
  switch (p.model) {
    case SoftAnisoModel::rod:
      return std::sin(th);
    case SoftAnisoModel::disk:
      return std::fabs(std::cos(th));
    case SoftAnisoModel::janus:
      return th < beta ? std::cos(PI * th / (2 * beta)) : 0.0;
    case SoftAnisoModel::aba: {
      const double thp = std::min(th, PI - th);    // angle to the nearer pole
      return thp < beta ? std::cos(PI * thp / (2 * beta)) : 0.0;
    }
    case SoftAnisoModel::bab: {
      const double from_equator = std::fabs(PI / 2 - th);
      return from_equator < beta ? std::cos(PI * from_equator / (2 * beta)) : 0.0;
    }
    default:
      return 0.0;
  }
}

// th_i: angle between n_i and r_ij; th_j: angle between n_j and r_ji = -r_ij
double energy_ref(const Params &p, double beta, double r, double th_i, double th_j)
{
  if (r >= p.rc) return 0.0;
  const double s = r / p.rc;
  const double rep = 0.5 * p.alpha_r * (1 - s) * (1 - s);
  const double f = a_ref(p, th_i, beta) * a_ref(p, th_j, beta);
  switch (p.model) {
    case SoftAnisoModel::iso:
      return rep;
    case SoftAnisoModel::rod:
    case SoftAnisoModel::disk:
      return (1 - p.mu * std::pow(f, p.nu)) * rep;
    default:
      return rep - std::pow(f, p.nu) * 0.5 * p.alpha_a * (s - s * s);
  }
}

struct Case {
  std::string name;
  Params p;
  double beta;    // radians (janus, aba, bab)
};

std::vector<Case> all_cases()
{
  std::vector<Case> c;
  auto add = [&](const std::string &name, SoftAnisoModel m, double ar, double aa, double mu,
                 double nu, double beta_deg, double rc) {
    c.push_back({name, make_soft_aniso_params<double>(m, ar, aa, mu, nu, deg(beta_deg), rc),
                 deg(beta_deg)});
  };
  add("iso", SoftAnisoModel::iso, 25.0, 0, 0, 1, 90, 1.0);
  add("iso_rc1.3", SoftAnisoModel::iso, 25.0, 0, 0, 1, 90, 1.3);
  for (double nu : {1.0, 2.0, 3.5}) {
    add("rod_nu" + std::to_string(nu), SoftAnisoModel::rod, 100.0, 0, 0.8, nu, 90, 1.0);
    add("disk_nu" + std::to_string(nu), SoftAnisoModel::disk, 100.0, 0, 0.6, nu, 90, 1.2);
  }
  add("rod_nu0.5", SoftAnisoModel::rod, 100.0, 0, 0.3, 0.5, 90, 1.0);
  add("disk_nu0.5", SoftAnisoModel::disk, 100.0, 0, 0.3, 0.5, 90, 1.0);
  for (double nu : {0.5, 1.0, 2.0, 6.0})
    for (double b : {30.0, 65.0, 90.0, 145.0, 180.0})
      add("janus_nu" + std::to_string(nu) + "_b" + std::to_string(b), SoftAnisoModel::janus, 396.0,
          132.0, 0, nu, b, 1.0);
  add("janus_rc0.8", SoftAnisoModel::janus, 396.0, 88.0, 0, 0.5, 65, 0.8);
  for (double nu : {0.5, 1.0, 3.0})
    for (double b : {20.0, 45.0, 60.0, 90.0}) {
      add("aba_nu" + std::to_string(nu) + "_b" + std::to_string(b), SoftAnisoModel::aba, 396.0,
          88.0, 0, nu, b, 1.0);
      add("bab_nu" + std::to_string(nu) + "_b" + std::to_string(b), SoftAnisoModel::bab, 396.0,
          88.0, 0, nu, b, 1.4);
    }
  return c;
}

// 4th-order central difference of U along direction 'which' (0: r_ij, 1: n_i, 2: n_j)
// component d, with the other arguments held fixed; n is a free vector here
double dU(const Params &p, V3 r, V3 ni, V3 nj, int which, int d, double h)
{
  auto at = [&](double t) {
    V3 rr = r, a = ni, b = nj;
    (which == 0 ? rr : which == 1 ? a : b)[d] += t;
    return eval(p, rr, a, b).u;
  };
  return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h);
}

// analytic force and gorques against finite differences; h small against the distance
// to the nearest non-smooth point of the configuration
void check_fd(const Case &c, V3 r, V3 ni, V3 nj, double h, double rtol, const std::string &what)
{
  const Result a = eval(c.p, r, ni, nj);
  ASSERT_TRUE(a.inside) << what;
  double scale = std::fabs(a.u);
  for (int d = 0; d < 3; ++d)
    scale = std::max({scale, std::fabs(a.fj[d]), std::fabs(a.gi[d]), std::fabs(a.gj[d])});
  for (int d = 0; d < 3; ++d) {
    const double fj = -dU(c.p, r, ni, nj, 0, d, h);
    const double gi = -dU(c.p, r, ni, nj, 1, d, h);
    const double gj = -dU(c.p, r, ni, nj, 2, d, h);
    EXPECT_NEAR(a.fj[d], fj, rtol * scale) << c.name << " " << what << " F_j[" << d << "]";
    EXPECT_NEAR(a.gi[d], gi, rtol * scale) << c.name << " " << what << " g_i[" << d << "]";
    EXPECT_NEAR(a.gj[d], gj, rtol * scale) << c.name << " " << what << " g_j[" << d << "]";
  }
}

// angles within 0.1 rad of a point where a(c) is not smooth or steep (there the
// difference steps below would cross it), and of th = 0, pi (c = +-1, where a step in n
// along e leaves the domain |c| <= 1); those points get their own tests
bool near_kink(const Case &c, double th)
{
  const double m = 0.1;
  auto near = [&](double x) { return std::fabs(th - x) < m; };
  if (near(0) || near(PI)) return true;
  switch (c.p.model) {
    case SoftAnisoModel::rod:    // a ~ sin th: steep as th -> 0, pi
      return near(0) || near(PI);
    case SoftAnisoModel::disk:
      return near(PI / 2);
    case SoftAnisoModel::janus:
      return near(c.beta) || near(PI);
    case SoftAnisoModel::aba:
      return near(c.beta) || near(PI - c.beta) || near(PI / 2);
    case SoftAnisoModel::bab:
      return near(PI / 2 - c.beta) || near(PI / 2 + c.beta) || near(0) || near(PI);
    default:
      return false;
  }
}

}    // namespace

TEST(SoftAniso, EnergyMatchesTheFormulasWrittenFromAngles)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 300; ++k) {
      const V3 e = rng.direction();
      const double r = rng.uniform(0.01, 0.999) * c.p.rc;
      const double th_i = rng.uniform(0, PI), th_j = rng.uniform(0, PI);
      const V3 ni = rng.at_angle(e, th_i);
      const V3 nj = rng.at_angle(-1.0 * e, th_j);
      const Result a = eval(c.p, r * e, ni, nj);
      const double ref = energy_ref(c.p, c.beta, r, th_i, th_j);
      EXPECT_NEAR(a.u, ref, 1e-11 * (std::fabs(ref) + c.p.alpha_r)) << c.name << " k=" << k;
    }
  }
}

TEST(SoftAniso, ForceAndGorquesAreMinusTheGradient)
{
  Rng rng;
  int checked = 0;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 200; ++k) {
      const V3 e = rng.direction();
      const double r = rng.uniform(0.1, 0.99) * c.p.rc;
      const double th_i = rng.uniform(0, PI), th_j = rng.uniform(0, PI);
      if (near_kink(c, th_i) || near_kink(c, th_j)) continue;
      const V3 ni = rng.at_angle(e, th_i);
      const V3 nj = rng.at_angle(-1.0 * e, th_j);
      check_fd(c, r * e, ni, nj, 2e-6 * c.p.rc, 1e-7,
               "random k=" + std::to_string(k) + " th_i=" + std::to_string(th_i) +
                   " th_j=" + std::to_string(th_j));
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(SoftAniso, ForceAndGorquesJustInsideThePatchEdge)
{
  // cos th just above cos beta (janus, aba) or just inside the belt (bab); nu < 1 makes
  // the derivatives steep there, so h is kept 100x below the distance to the edge
  Rng rng;
  for (const Case &c : all_cases()) {
    const auto m = c.p.model;
    if (m != SoftAnisoModel::janus && m != SoftAnisoModel::aba && m != SoftAnisoModel::bab)
      continue;
    if (c.beta > deg(179)) continue;    // no edge inside (0, pi)
    for (double gap : {1e-2, 1e-3}) {
      for (int k = 0; k < 20; ++k) {
        const V3 e = rng.direction();
        const double r = rng.uniform(0.3, 0.95) * c.p.rc;
        // angle in from the edge by 'gap' in cos
        double th_i;
        if (m == SoftAnisoModel::bab)
          th_i = PI / 2 - std::asin(std::sin(c.beta) - gap);
        else
          th_i = std::acos(std::cos(c.beta) + gap);
        if (m != SoftAnisoModel::janus && k % 2) th_i = PI - th_i;    // the other pole / side
        const double th_j = m == SoftAnisoModel::bab ? PI / 2 : 0.3 * c.beta;
        const V3 ni = rng.at_angle(e, th_i);
        const V3 nj = rng.at_angle(-1.0 * e, th_j);
        ASSERT_GT(std::fabs(eval(c.p, r * e, ni, nj).gi[0]) +
                      std::fabs(eval(c.p, r * e, ni, nj).gi[1]) +
                      std::fabs(eval(c.p, r * e, ni, nj).gi[2]),
                  0.0)
            << c.name << ": inside the patch, the gorque cannot vanish";
        check_fd(c, r * e, ni, nj, gap * 2e-3, 1e-6, "edge gap=" + std::to_string(gap));
      }
    }
  }
}

TEST(SoftAniso, OutsideThePatchOnlyRepulsion)
{
  const Params p =
      make_soft_aniso_params<double>(SoftAnisoModel::janus, 396, 88, 0, 0.5, deg(65), 1.0);
  const V3 e{{0, 0, 1}};
  Rng rng;
  // c_i just below cos beta: f = 0, so no angular terms at all (and no 0^(nu-1) NaN)
  const V3 ni = rng.at_angle(e, deg(65) + 1e-9);
  const V3 nj = rng.at_angle(-1.0 * e, 0.1);
  const Result a = eval(p, 0.7 * e, ni, nj);
  EXPECT_DOUBLE_EQ(a.u, 0.5 * 396 * 0.3 * 0.3);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(a.gi[d], 0.0);
    EXPECT_EQ(a.gj[d], 0.0);
    EXPECT_TRUE(std::isfinite(a.fj[d]));
  }
  EXPECT_NEAR(a.fj[2], 396 * 0.3, 1e-12);
  // exactly on the edge (th = beta within rounding), any nu: finite
  for (double nu : {0.2, 0.5, 1.0}) {
    const Params q =
        make_soft_aniso_params<double>(SoftAnisoModel::janus, 396, 88, 0, nu, deg(90), 1.0);
    const V3 side{{1, 0, 0}};    // th_i = 90 deg = beta
    const Result b = eval(q, 0.5 * e, side, -1.0 * e);
    EXPECT_TRUE(std::isfinite(b.u) && std::isfinite(b.fj[0]) && std::isfinite(b.gi[2]));
  }
}

TEST(SoftAniso, PatchCentreLimitOfTheGorque)
{
  // th_i -> 0: D = k sin(k th)/sin th -> k^2; the evaluator switches to the series at
  // th < 1e-6. References: the limit written out, and a one-sided difference in c_i.
  for (double beta_deg : {20.0, 65.0, 145.0}) {
    for (double nu : {0.5, 1.0, 2.0}) {
      const double beta = deg(beta_deg), k = PI / (2 * beta), aa = 88, s = 0.6;
      const Params p =
          make_soft_aniso_params<double>(SoftAnisoModel::janus, 396, aa, 0, nu, beta, 1.0);
      const V3 e{{0, 0, 1}};
      const double th_j = 0.4 * beta, aj = std::cos(k * th_j);
      const V3 nj{{std::sin(th_j), 0, -std::cos(th_j)}};
      const Result a = eval(p, s * e, e, nj);    // th_i = 0 exactly
      // g_i = -dU/dc_i e, dU/dc_i = nu W f^(nu-1) k^2 a_j, W = -(aA/2)(s - s^2), f = a_j
      const double w = -0.5 * aa * s * (1 - s);
      const double ref = -nu * w * std::pow(aj, nu - 1) * k * k * aj;
      EXPECT_NEAR(a.gi[2], ref, 1e-12 * std::fabs(ref)) << beta_deg << " " << nu;
      EXPECT_EQ(a.gi[0], 0.0);
      // one-sided 3-point difference in c_i (U depends on n_i only through c_i)
      auto u_at = [&](double c) { return eval(p, s * e, c * e, nj).u; };
      const double h = 1e-6;
      const double du_dc = (3 * u_at(1.0) - 4 * u_at(1.0 - h) + u_at(1.0 - 2 * h)) / (2 * h);
      EXPECT_NEAR(a.gi[2], -du_dc, 1e-6 * std::fabs(ref)) << beta_deg << " " << nu;
      // continuous across the switch to the series
      for (double th : {0.9e-6, 1.1e-6, 1e-4}) {
        const V3 ni{{std::sin(th), 0, std::cos(th)}};
        const Result b = eval(p, s * e, ni, nj);
        EXPECT_NEAR(b.gi[2], a.gi[2], 1e-6 * std::fabs(ref) + 2 * k * k * th * th * std::fabs(ref))
            << th;
      }
    }
  }
}

TEST(SoftAniso, AnalyticJanusMinimum)
{
  // th_i = th_j = 0 (f = 1): U(s) = (aR/2)(1-s)^2 - (aA/2)(s - s^2) has its minimum at
  // s* = d = (aR + aA/2)/(aR + aA) with U = -Gamma = -aA (1 - d)/4 (from dU/ds = 0);
  // aR = 396, aA = 88: d = 440/484 = 0.9091, Gamma = 2.000
  const double ar = 396, aa = 88;
  const double d = (ar + aa / 2) / (ar + aa), gamma = aa * (1 - d) / 4;
  EXPECT_NEAR(d, 0.9091, 5e-5);
  EXPECT_NEAR(gamma, 2.000, 5e-4);
  const V3 e = unit(V3{{0.3, -0.5, 0.8}});
  for (SoftAnisoModel m : {SoftAnisoModel::janus, SoftAnisoModel::aba, SoftAnisoModel::bab}) {
    for (double rc : {1.0, 1.5}) {
      const Params p = make_soft_aniso_params<double>(m, ar, aa, 0, 0.5, deg(65), rc);
      // orientations with f = 1: patch centres face each other (janus, aba: any pole;
      // bab: both belts' equators contain e)
      V3 ni = e, nj = -1.0 * e;
      if (m == SoftAnisoModel::aba) ni = -1.0 * e;    // the other pole of i
      if (m == SoftAnisoModel::bab) {
        ni = unit(cross(e, V3{{1, 0, 0}}));
        nj = unit(cross(e, V3{{0, 1, 0}}));
      }
      const Result a = eval(p, d * rc * e, ni, nj);
      EXPECT_NEAR(a.u, -gamma, 1e-12) << static_cast<int>(m);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.fj[k], 0.0, 1e-11) << static_cast<int>(m);
      EXPECT_GT(eval(p, (d - 0.01) * rc * e, ni, nj).u, a.u);
      EXPECT_GT(eval(p, (d + 0.01) * rc * e, ni, nj).u, a.u);
      // turning a particle away from the patch centre raises the energy
      EXPECT_GT(eval(p, d * rc * e, unit(ni + V3{{0.1, 0.2, -0.1}}), nj).u, a.u);
    }
  }
}

TEST(SoftAniso, AngularMomentumIsConserved)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 100; ++k) {
      const V3 r = rng.uniform(0.05, 0.99) * c.p.rc * rng.direction();
      const V3 ni = rng.direction(), nj = rng.direction();
      const Result a = eval(c.p, r, ni, nj);
      V3 ti, tj;
      soft_aniso_torque(ni.v, a.gi.v, ti.v);
      soft_aniso_torque(nj.v, a.gj.v, tj.v);
      const V3 total = ti + tj + cross(r, a.fj);
      double scale = 1e-12 * (c.p.alpha_r + c.p.alpha_a);
      for (int d = 0; d < 3; ++d)
        scale = std::max(scale, 1e-12 * (std::fabs(ti[d]) + std::fabs(a.gi[d]) +
                                         std::fabs(a.gj[d]) + std::fabs(a.fj[d]) * norm(r)));
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(total[d], 0.0, scale) << c.name << " k=" << k;
    }
  }
}

TEST(SoftAniso, ZeroBeyondTheCutoffAndContinuousAtIt)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 20; ++k) {
      const V3 e = rng.direction(), ni = rng.direction(), nj = rng.direction();
      for (double s : {1.0 + 1e-12, 1.3, 7.0}) {
        const Result a = eval(c.p, s * c.p.rc * e, ni, nj);
        EXPECT_FALSE(a.inside);
        EXPECT_EQ(a.u, 0.0);
        for (int d = 0; d < 3; ++d) EXPECT_EQ(a.fj[d] + a.gi[d] + a.gj[d], 0.0);
      }
      const Result b = eval(c.p, (1 - 1e-12) * c.p.rc * e, ni, nj);
      EXPECT_TRUE(b.inside);
      EXPECT_NEAR(b.u, 0.0, 1e-11 * (c.p.alpha_r + c.p.alpha_a)) << c.name;
    }
  }
  // exactly at rc: outside
  const Params p = all_cases()[2].p;
  EXPECT_FALSE(eval(p, V3{{0, 0, p.rc}}, V3{{1, 0, 0}}, V3{{0, 1, 0}}).inside);
  // coincident particles have no direction: skipped, as LAMMPS dpd does
  const Result z = eval(all_cases()[3].p, V3{{0, 0, 0}}, V3{{0, 0, 1}}, V3{{0, 0, 1}});
  EXPECT_FALSE(z.inside);
}

TEST(SoftAniso, SwappingIAndJ)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 100; ++k) {
      const V3 r = rng.uniform(0.05, 0.99) * c.p.rc * rng.direction();
      const V3 ni = rng.direction(), nj = rng.direction();
      const Result a = eval(c.p, r, ni, nj);
      const Result b = eval(c.p, -1.0 * r, nj, ni);    // i' = j, j' = i
      const double tol = 1e-12 * (c.p.alpha_r + c.p.alpha_a);
      EXPECT_NEAR(a.u, b.u, tol) << c.name;
      for (int d = 0; d < 3; ++d) {
        const double sc = tol * (1 + std::fabs(a.fj[d]) + std::fabs(a.gi[d]) + std::fabs(a.gj[d]));
        EXPECT_NEAR(b.fj[d], -a.fj[d], sc) << c.name;    // force on i' = i is -F_j
        EXPECT_NEAR(b.gi[d], a.gj[d], sc) << c.name;
        EXPECT_NEAR(b.gj[d], a.gi[d], sc) << c.name;
      }
    }
  }
}

TEST(SoftAniso, ShapeFactorsActTheRightWay)
{
  // disk: face to face (f = 1) lowers the repulsion by (1 - mu); edge on (f = 0) full
  // rod: side by side (f = 1) lowers it, end to end full
  const V3 e{{1, 0, 0}}, side{{0, 0, 1}};
  const double full = 0.5 * 50 * 0.5 * 0.5;
  const Params disk = make_soft_aniso_params<double>(SoftAnisoModel::disk, 50, 0, 0.7, 1.5, 0, 1.0);
  EXPECT_NEAR(eval(disk, 0.5 * e, e, -1.0 * e).u, 0.3 * full, 1e-12);
  EXPECT_NEAR(eval(disk, 0.5 * e, e, e).u, 0.3 * full, 1e-12);    // |cos|: either face
  EXPECT_NEAR(eval(disk, 0.5 * e, side, side).u, full, 1e-12);
  const Params rod = make_soft_aniso_params<double>(SoftAnisoModel::rod, 50, 0, 0.7, 1.5, 0, 1.0);
  EXPECT_NEAR(eval(rod, 0.5 * e, side, side).u, 0.3 * full, 1e-12);
  EXPECT_NEAR(eval(rod, 0.5 * e, e, e).u, full, 1e-12);
  for (int d = 0; d < 3; ++d) {    // rod end to end: a'(c) ~ 1/sin th is guarded
    EXPECT_TRUE(std::isfinite(eval(rod, 0.5 * e, e, e).gi[d]));
    EXPECT_TRUE(std::isfinite(eval(rod, 0.5 * e, e, e).fj[d]));
  }
}

TEST(SoftAniso, SinglePrecisionAgrees)
{
  using Pf = mesogpu::physics::SoftAnisoParams<float>;
  Rng rng;
  for (const Case &c : all_cases()) {
    const Pf pf =
        make_soft_aniso_params<float>(c.p.model, float(c.p.alpha_r), float(c.p.alpha_a),
                                      float(c.p.mu), float(c.p.nu), float(c.beta), float(c.p.rc));
    for (int k = 0; k < 50; ++k) {
      const V3 e = rng.direction();
      const double r = rng.uniform(0.1, 0.95) * c.p.rc;
      const double th_i = rng.uniform(0, PI), th_j = rng.uniform(0, PI);
      if (near_kink(c, th_i) || near_kink(c, th_j)) continue;
      const V3 ni = rng.at_angle(e, th_i), nj = rng.at_angle(-1.0 * e, th_j);
      const Result a = eval(c.p, r * e, ni, nj);
      float rf[3], nif[3], njf[3], uf, ff[3], gif[3], gjf[3];
      for (int d = 0; d < 3; ++d) {
        rf[d] = float(r * e[d]);
        nif[d] = float(ni[d]);
        njf[d] = float(nj[d]);
      }
      ASSERT_TRUE(soft_aniso_pair(pf, rf, nif, njf, uf, ff, gif, gjf));
      double scale = std::fabs(a.u);
      for (int d = 0; d < 3; ++d) scale = std::max({scale, std::fabs(a.fj[d]), std::fabs(a.gi[d])});
      EXPECT_NEAR(uf, a.u, 2e-3 * scale) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(ff[d], a.fj[d], 2e-3 * scale) << c.name;
        EXPECT_NEAR(gif[d], a.gi[d], 2e-3 * scale) << c.name;
      }
    }
  }
}
