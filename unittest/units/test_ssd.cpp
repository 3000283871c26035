/* Units for src/physics/ssd.h (soft-sticky-dipole water). References are independent of the
   evaluator: MODELS.md's parameter table and the unit constants written out again here, the
   dipole energy of simple geometries from mu^2/r^3, w and w' for hand-computed positions,
   forces and torques from 4th-order central differences of the energy (torques by rotating a
   body frame about a lab axis with Rodrigues' formula, not the header's quaternions), frames
   built by Gram-Schmidt, Newton's third law and angular momentum, the i <-> j swap, the
   invariance under a rotation of the whole pair, and the SSD/E dimer against OpenMD's sample.

   The numbers below that the code must reproduce come from MODELS.md section 5 and the unit
   conventions (1 D = 0.208194 e Angstrom, qqr2e = 332.06371); none was produced by ssd.h. */

#include "physics/ssd.h"

#include "gtest/gtest.h"
#include "vec3_test.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using mesogpu::physics::make_ssd_params;
using mesogpu::physics::quat_to_body_frame;
using mesogpu::physics::quat_to_rotation;
using mesogpu::physics::ssd_pair;
using mesogpu::physics::ssd_rf_self_energy;
using mesogpu::physics::ssd_switch;
using mesogpu::physics::ssd_type;
using mesogpu::physics::ssd_w;
using mesogpu::physics::ssd_wp;
using mesogpu::physics::SsdElectrostatics;
using mesogpu::physics::SsdLj;
using mesogpu::physics::SsdSet;
using Params = mesogpu::physics::SsdParams<double>;
using Type = mesogpu::physics::SsdType<double>;

using namespace mesogpu_test;

namespace {

const double PI = 3.14159265358979323846;
const double DEBYE = 0.208194;              // e Angstrom
const double QQR2E = 332.06371;             // kcal Angstrom / (mol e^2)
const double TETRA = 0.9553166181245093;    // acos(1/sqrt(3)): half the tetrahedral angle

// 3x3 row-major; a body frame A has the body axes as rows (lab -> body)
struct M3 {
  double a[9];
  V3 row(int r) const { return {{a[3 * r], a[3 * r + 1], a[3 * r + 2]}}; }
};
M3 mul(const M3 &x, const M3 &y)
{
  M3 o;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      o.a[3 * r + c] = 0;
      for (int k = 0; k < 3; ++k) o.a[3 * r + c] += x.a[3 * r + k] * y.a[3 * k + c];
    }
  return o;
}
M3 transpose(const M3 &x)
{
  M3 o;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) o.a[3 * r + c] = x.a[3 * c + r];
  return o;
}
V3 apply(const M3 &m, V3 v)
{
  return {{dot(m.row(0), v), dot(m.row(1), v), dot(m.row(2), v)}};
}
M3 frame_rows(V3 ex, V3 ey, V3 ez)
{
  return {{ex[0], ex[1], ex[2], ey[0], ey[1], ey[2], ez[0], ez[1], ez[2]}};
}
const M3 IDENTITY = {{1, 0, 0, 0, 1, 0, 0, 0, 1}};

// Rodrigues: the active rotation by th about the unit axis n
M3 rodrigues(V3 n, double th)
{
  const double c = std::cos(th), s = std::sin(th), k = 1 - c;
  const double x = n[0], y = n[1], z = n[2];
  return {{c + x * x * k, x * y * k - z * s, x * z * k + y * s, y * x * k + z * s, c + y * y * k,
           y * z * k - x * s, z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
}
// the body rotated by th about the lab axis n: R' = Q R, so A' = A Q^T
M3 rotate_body(const M3 &a, V3 n, double th)
{
  return mul(a, transpose(rodrigues(n, th)));
}
// a frame whose body y and z axes span the plane of ez and hint (Gram-Schmidt), right-handed
M3 frame_from_z(V3 ez, V3 hint)
{
  ez = unit(ez);
  const V3 ey = unit(hint - dot(hint, ez) * ez);
  return frame_rows(cross(ey, ez), ey, ez);
}

struct Rng : RandomDirections {
  Rng() : RandomDirections(19960328) {}
  M3 frame() { return frame_from_z(direction(), direction()); }
};

struct Out {
  double ev, ec, u;
  V3 fj, ti, tj;
  bool inside;
};
Out eval(const Params &p, V3 r, const M3 &ai, const M3 &aj)
{
  Out o;
  o.inside = ssd_pair(p, r.v, ai.a, aj.a, o.ev, o.ec, o.fj.v, o.ti.v, o.tj.v);
  o.u = o.ev + o.ec;
  return o;
}
double energy(const Params &p, V3 r, const M3 &ai, const M3 &aj)
{
  return eval(p, r, ai, aj).u;
}

// 4th-order central difference of f at 0
struct Case {
  std::string name;
  Params p;
  double lj_cut, coul_cut;
};

const char *set_name(SsdSet s)
{
  switch (s) {
    case SsdSet::ssd:
      return "ssd";
    case SsdSet::ssd1:
      return "ssd1";
    case SsdSet::ssde:
      return "ssde";
    default:
      return "ssdrf";
  }
}

// every set x electrostatics x LJ truncation at MODELS.md's 9 Angstrom, and two with cutoffs of
// their own (so that the LJ and dipole cutoffs are separate breakpoints)
std::vector<Case> all_cases()
{
  std::vector<Case> c;
  for (SsdSet s : {SsdSet::ssd, SsdSet::ssd1, SsdSet::ssde, SsdSet::ssdrf})
    for (SsdElectrostatics e : {SsdElectrostatics::cut, SsdElectrostatics::rf_constant})
      for (SsdLj l : {SsdLj::cut, SsdLj::shift}) {
        const std::string name = std::string(set_name(s)) +
                                 (e == SsdElectrostatics::cut ? "_cut" : "_rf") +
                                 (l == SsdLj::cut ? "" : "_ljshift");
        c.push_back({name, make_ssd_params<double>(s, l, 9.0, e, 9.0, 80.0), 9.0, 9.0});
      }
  c.push_back({"ssde_lj7.5_rf8.5_eps40",
               make_ssd_params<double>(SsdSet::ssde, SsdLj::shift, 7.5,
                                       SsdElectrostatics::rf_constant, 8.5, 40.0),
               7.5, 8.5});
  c.push_back(
      {"ssd_lj8.5_cut6",
       make_ssd_params<double>(SsdSet::ssd, SsdLj::cut, 8.5, SsdElectrostatics::cut, 6.0, 80.0),
       8.5, 6.0});
  // Allen-Germano shifted force (dipole term only)
  c.push_back(
      {"ssde_sf",
       make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0, SsdElectrostatics::sf, 9.0, 80.0),
       9.0, 9.0});
  c.push_back(
      {"ssd1_lj8.5_shift_sf6",
       make_ssd_params<double>(SsdSet::ssd1, SsdLj::shift, 8.5, SsdElectrostatics::sf, 6.0, 80.0),
       8.5, 6.0});
  // the switched reaction field of Fennell & Gezelter 2004 (OpenMD sample: 7.7 to 9), and one
  // whose switch starts inside the sticky range and ends before the LJ cutoff
  c.push_back({"ssdrf_rfswitch_7.7_9",
               make_ssd_params<double>(SsdSet::ssdrf, SsdLj::cut, 9.0, SsdElectrostatics::rf_switch,
                                       9.0, 80.0, QQR2E, 7.7),
               9.0, 9.0});
  c.push_back({"ssde_lj8.5_shift_rfswitch_3.5_6.5_eps40",
               make_ssd_params<double>(SsdSet::ssde, SsdLj::shift, 8.5,
                                       SsdElectrostatics::rf_switch, 6.5, 40.0, QQR2E, 3.5),
               8.5, 6.5});
  // ljmode switch: LJ times the same S(r) from r_sw to lj_cut (OOPSE's SSD/RF, 7.7 to 9), and
  // one whose LJ switch (3.5 to 8.5) starts inside the sticky range and ends past coul_cut
  c.push_back({"ssdrf_ljswitch_rfswitch_7.7_9",
               make_ssd_params<double>(SsdSet::ssdrf, SsdLj::sw, 9.0, SsdElectrostatics::rf_switch,
                                       9.0, 80.0, QQR2E, 7.7),
               9.0, 9.0});
  c.push_back({"ssde_lj8.5_switch_rfswitch_3.5_6.5_eps40",
               make_ssd_params<double>(SsdSet::ssde, SsdLj::sw, 8.5, SsdElectrostatics::rf_switch,
                                       6.5, 40.0, QQR2E, 3.5),
               8.5, 6.5});
  return c;
}

// the LJ switch factor written out (OOPSE's switcheroo.F90): 1 without a switch or below lj_sw
double lj_switch_ref(const Params &p, double r)
{
  if (!(p.lj_sw > 0) || r < p.lj_sw) return 1.0;
  if (r >= p.lj_cut) return 0.0;
  const double rc = p.lj_cut, rs = p.lj_sw;
  return (rc + 2 * r - 3 * rs) * (rc - r) * (rc - r) / std::pow(rc - rs, 3);
}

// the distance intervals between consecutive points where the pair energy is not smooth:
// the switch edges rl, ru, rl', ru' and the two cutoffs; the first starts at 2 Angstrom (deep
// in the LJ core), the last is beyond every cutoff
std::vector<std::pair<double, double>> regions(const Case &c)
{
  std::vector<double> b = {c.p.rl, c.p.ru, c.p.rlp, c.p.rup, c.lj_cut, c.coul_cut};
  if (c.p.coul_sw > 0) b.push_back(c.p.coul_sw);    // rf_switch: where S(r) starts
  if (c.p.lj_sw > 0) b.push_back(c.p.lj_sw);        // ljmode switch: where the LJ S(r) starts
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  std::vector<std::pair<double, double>> out;
  double lo = 2.0;
  for (double x : b) {
    out.push_back({lo, x});
    lo = x;
  }
  out.push_back({lo, lo + 1.5});
  return out;
}

double scale_of(const Out &a)
{
  return std::max({1.0, maxabs(a.fj), maxabs(a.ti), maxabs(a.tj)});
}

}    // namespace

// ---------------------------------------------------------------------------------------------
TEST(SsdParams, SetsAreMODELSmdTable)
{
  struct Row {
    SsdSet s;
    double sigma, eps, mu, nu0, w0, rl, ru, rlp, rup;
  };
  const Row rows[] = {{SsdSet::ssd, 3.051, 0.152, 2.35, 3.7284, 0.07715, 2.75, 3.35, 2.75, 4.0},
                      {SsdSet::ssd1, 3.016, 0.152, 2.35, 3.6613, 0.07715, 2.75, 3.35, 2.75, 4.0},
                      {SsdSet::ssde, 3.035, 0.152, 2.42, 3.90, 0.07715, 2.40, 3.80, 2.75, 3.35},
                      {SsdSet::ssdrf, 3.019, 0.152, 2.48, 3.90, 0.07715, 2.40, 3.80, 2.75, 3.35}};
  for (const Row &w : rows) {
    const Type t = ssd_type<double>(w.s);
    EXPECT_EQ(t.sigma, w.sigma) << set_name(w.s);
    EXPECT_EQ(t.epsilon, w.eps) << set_name(w.s);
    EXPECT_EQ(t.mu, w.mu) << set_name(w.s);
    EXPECT_EQ(t.nu0, w.nu0) << set_name(w.s);
    EXPECT_EQ(t.nu0p, w.nu0) << set_name(w.s);    // nu0' = nu0 in every published set
    EXPECT_EQ(t.w0, w.w0) << set_name(w.s);
    EXPECT_EQ(t.rl, w.rl) << set_name(w.s);
    EXPECT_EQ(t.ru, w.ru) << set_name(w.s);
    EXPECT_EQ(t.rlp, w.rlp) << set_name(w.s);
    EXPECT_EQ(t.rup, w.rup) << set_name(w.s);
  }
}

TEST(SsdParams, UnitsCutoffsAndReactionField)
{
  const Params p = make_ssd_params<double>(SsdSet::ssdrf, SsdLj::shift, 9.0,
                                           SsdElectrostatics::rf_constant, 9.0, 80.0);
  const double mu = 2.48 * DEBYE;
  EXPECT_NEAR(p.mu_i, mu, 1e-15);
  EXPECT_NEAR(p.dip, QQR2E * mu * mu, 1e-12);
  EXPECT_NEAR(p.rf, 2.0 * 79.0 / (161.0 * 729.0), 1e-16);
  const double sr6 = std::pow(3.019 / 9.0, 6);
  EXPECT_NEAR(p.lj_offset, 4 * 0.152 * (sr6 * sr6 - sr6), 1e-16);
  EXPECT_NEAR(p.cutsq, 81.0, 1e-12);
  EXPECT_NEAR(p.sticky_cut, 3.80, 1e-15);
  // plain cutoff: no RF constant, no LJ shift
  const Params q =
      make_ssd_params<double>(SsdSet::ssd, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  EXPECT_EQ(q.rf, 0.0);
  EXPECT_EQ(q.lj_offset, 0.0);
  EXPECT_NEAR(q.sticky_cut, 4.0, 1e-15);
}

TEST(SsdParams, MixingRules)
{
  // MODELS.md: arithmetic in rl, ru, rl', ru'; geometric in w0, nu0, nu0'; LJ Lorentz-Berthelot
  Type a = ssd_type<double>(SsdSet::ssd), b = ssd_type<double>(SsdSet::ssde);
  b.w0 = 0.09;    // so that the w0 rule is visible
  b.nu0p = 2.5;
  const Params p =
      make_ssd_params<double>(a, b, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  EXPECT_NEAR(p.rl, 0.5 * (2.75 + 2.40), 1e-15);
  EXPECT_NEAR(p.ru, 0.5 * (3.35 + 3.80), 1e-15);
  EXPECT_NEAR(p.rlp, 0.5 * (2.75 + 2.75), 1e-15);
  EXPECT_NEAR(p.rup, 0.5 * (4.0 + 3.35), 1e-15);
  EXPECT_NEAR(p.w0, std::sqrt(0.07715 * 0.09), 1e-15);
  EXPECT_NEAR(p.nu0, std::sqrt(3.7284 * 3.90), 1e-14);
  EXPECT_NEAR(p.nu0p, std::sqrt(3.7284 * 2.5), 1e-14);
  EXPECT_NEAR(p.sigma, 0.5 * (3.051 + 3.035), 1e-15);
  EXPECT_NEAR(p.epsilon, 0.152, 1e-15);
  EXPECT_NEAR(p.mu_i, 2.35 * DEBYE, 1e-15);
  EXPECT_NEAR(p.mu_j, 2.42 * DEBYE, 1e-15);
  EXPECT_NEAR(p.dip, QQR2E * 2.35 * 2.42 * DEBYE * DEBYE, 1e-12);
  // symmetric but for which dipole is which
  const Params q =
      make_ssd_params<double>(b, a, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  EXPECT_DOUBLE_EQ(q.dip, p.dip);
  EXPECT_EQ(q.mu_i, p.mu_j);
  EXPECT_EQ(q.rl, p.rl);
  EXPECT_EQ(q.nu0, p.nu0);
  // a set with itself mixes to itself
  const Params s =
      make_ssd_params<double>(a, a, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  EXPECT_NEAR(s.nu0, 3.7284, 1e-14);
  EXPECT_NEAR(s.w0, 0.07715, 1e-15);
}

TEST(SsdQuaternion, LammpsConventionAgainstRodrigues)
{
  // q = (cos th/2, sin th/2 n) is the rotation by th about n (LAMMPS, MathExtra::quat_to_mat);
  // R(q) is body -> lab and the body frame A = R^T has the body axes as rows
  Rng rng;
  for (int k = 0; k < 200; ++k) {
    const V3 n = rng.direction();
    const double th = rng.uniform(-PI, PI);
    const double q[4] = {std::cos(th / 2), std::sin(th / 2) * n[0], std::sin(th / 2) * n[1],
                         std::sin(th / 2) * n[2]};
    M3 r, a;
    quat_to_rotation(q, r.a);
    quat_to_body_frame(q, a.a);
    const M3 ref = rodrigues(n, th);
    for (int i = 0; i < 9; ++i) {
      EXPECT_NEAR(r.a[i], ref.a[i], 1e-14) << k;
      EXPECT_NEAR(a.a[3 * (i % 3) + i / 3], ref.a[i], 1e-14) << k;
    }
    // -q is the same orientation
    const double mq[4] = {-q[0], -q[1], -q[2], -q[3]};
    M3 a2;
    quat_to_body_frame(mq, a2.a);
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(a2.a[i], a.a[i], 1e-14);
  }
  // 90 degrees about lab z: body x lies along lab y, so A's first row is (0, 1, 0)
  const double h = std::sqrt(0.5);
  const double qz[4] = {h, 0, 0, h};
  M3 a;
  quat_to_body_frame(qz, a.a);
  EXPECT_NEAR(a.a[0], 0.0, 1e-15);
  EXPECT_NEAR(a.a[1], 1.0, 1e-15);
  EXPECT_NEAR(a.a[8], 1.0, 1e-15);
}

TEST(SsdSwitch, ValuesDerivativesAndContinuity)
{
  for (const auto &e : {std::pair<double, double>{2.75, 3.35}, {2.40, 3.80}, {2.75, 4.0}}) {
    const double rl = e.first, ru = e.second, d = ru - rl;
    double s, ds;
    ssd_switch(rl - 1e-3, rl, ru, s, ds);
    EXPECT_EQ(s, 1.0);
    EXPECT_EQ(ds, 0.0);
    ssd_switch(rl, rl, ru, s, ds);    // r = rl: the cubic, already at 1 with zero slope
    EXPECT_NEAR(s, 1.0, 1e-15);
    EXPECT_NEAR(ds, 0.0, 1e-15);
    ssd_switch(ru, rl, ru, s, ds);
    EXPECT_EQ(s, 0.0);
    EXPECT_EQ(ds, 0.0);
    // continuous at both edges: s to O(dr^2), ds/dr = -6 dr / d^2 to O(dr^2)
    ssd_switch(ru - 1e-7, rl, ru, s, ds);
    EXPECT_NEAR(s, 0.0, 1e-12);
    EXPECT_NEAR(ds, -6e-7 / (d * d), 1e-12);
    ssd_switch(rl + 1e-7, rl, ru, s, ds);
    EXPECT_NEAR(s, 1.0, 1e-12);
    EXPECT_NEAR(ds, -6e-7 / (d * d), 1e-12);
    // the midpoint of the cubic: s = 1/2, ds/dr = -3 / (2 d)
    ssd_switch(rl + d / 2, rl, ru, s, ds);
    EXPECT_NEAR(s, 0.5, 1e-15);
    EXPECT_NEAR(ds, -1.5 / d, 1e-14);
    // the derivative is that of the value, across the whole ramp
    for (double f : {0.1, 0.3, 0.55, 0.8, 0.95}) {
      const double r = rl + f * d;
      ssd_switch(r, rl, ru, s, ds);
      const double fd = diff(
          [&](double t) {
            double a, b;
            ssd_switch(r + t, rl, ru, a, b);
            return a;
          },
          1e-4);
      EXPECT_NEAR(ds, fd, 1e-10) << r;
      EXPECT_NEAR(s, (ru - r) * (ru - r) * (ru + 2 * r - 3 * rl) / (d * d * d), 1e-15);
    }
  }
}

TEST(SsdSticky, WAndWPrimeByHand)
{
  const double w0 = 0.07715, r = 2.7;
  double g[3];
  auto at = [&](V3 dir) { return r * unit(dir); };
  // along the dipole (or against it): x = y = 0
  V3 p = at({{0, 0, 1}});
  EXPECT_NEAR(ssd_w(p.v, r, g), 0.0, 1e-15);
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), 0.4 * 0.4 * 1.8 * 1.8 - w0, 1e-15);    // t = 1
  p = at({{0, 0, -1}});
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), 1.6 * 1.6 * 0.2 * 0.2 - w0, 1e-15);    // t = -1
  // toward an H atom (y-z plane, tetrahedral angle): w = 2 (0 - 2/3)(1/sqrt 3) = -4/(3 sqrt 3)
  p = at({{0, std::sin(TETRA), std::cos(TETRA)}});
  EXPECT_NEAR(ssd_w(p.v, r, g), -4.0 / (3.0 * std::sqrt(3.0)), 1e-15);
  const double t = 1 / std::sqrt(3.0);
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), (t - 0.6) * (t - 0.6) * (t + 0.8) * (t + 0.8) - w0, 1e-15);
  // toward a lone pair (x-z plane, z < 0): also -4/(3 sqrt 3), the other attractive lobe
  p = at({{std::sin(TETRA), 0, -std::cos(TETRA)}});
  EXPECT_NEAR(ssd_w(p.v, r, g), -4.0 / (3.0 * std::sqrt(3.0)), 1e-15);
  // (1, 0, 1)/sqrt 2: w = 2 (1/2)(1/sqrt 2) = 1/sqrt 2; (1, 1, 1): x^2 = y^2, w = 0
  p = at({{1, 0, 1}});
  EXPECT_NEAR(ssd_w(p.v, r, g), 1.0 / std::sqrt(2.0), 1e-15);
  p = at({{1, 1, 1}});
  EXPECT_NEAR(ssd_w(p.v, r, g), 0.0, 1e-15);
  // w' = -w0 where its quartic vanishes (t = 0.6, t = -0.8); t = 0 gives 0.36 * 0.64 - w0
  p = at({{0.8, 0, 0.6}});
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), -w0, 1e-15);
  p = at({{0, 0.6, -0.8}});
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), -w0, 1e-15);
  p = at({{0.3, 0.7, 0}});
  EXPECT_NEAR(ssd_wp(p.v, r, w0, g), 0.36 * 0.64 - w0, 1e-15);
  // gradients against differences, random points
  Rng rng;
  for (int k = 0; k < 200; ++k) {
    const V3 q = rng.uniform(2.2, 4.0) * rng.direction();
    double gw[3], gp[3], tmp[3];
    ssd_w(q.v, norm(q), gw);
    ssd_wp(q.v, norm(q), w0, gp);
    for (int d = 0; d < 3; ++d) {
      auto shifted = [&](double h) {
        V3 s = q;
        s[d] += h;
        return s;
      };
      const double fw = diff(
          [&](double h) {
            V3 s = shifted(h);
            return ssd_w(s.v, norm(s), tmp);
          },
          1e-4);
      const double fp = diff(
          [&](double h) {
            V3 s = shifted(h);
            return ssd_wp(s.v, norm(s), w0, tmp);
          },
          1e-4);
      EXPECT_NEAR(gw[d], fw, 1e-10) << k;
      EXPECT_NEAR(gp[d], fp, 1e-10) << k;
    }
  }
}

TEST(SsdSticky, TheJTermSeesRji)
{
  // LJ and dipoles off: the pair energy is V_sp alone. r < rl and r < rl' (s = s' = 1)
  Type t = ssd_type<double>(SsdSet::ssde);
  t.epsilon = 0;
  t.mu = 0;
  const Params p =
      make_ssd_params<double>(t, t, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  const double r = 2.3, nu0 = 3.90, w0 = 0.07715, c = std::cos(TETRA), s = std::sin(TETRA);
  const double wt = -4.0 / (3.0 * std::sqrt(3.0));
  auto fp = [&](double z) { return (z - 0.6) * (z - 0.6) * (z + 0.8) * (z + 0.8) - w0; };
  // both frames the lab frame, j toward i's H: from j, i is at -r_ij: w_j = -w_i, w = 0
  const V3 e{{0, s, c}};
  Out o = eval(p, r * e, IDENTITY, IDENTITY);
  EXPECT_NEAR(o.ec, 0.0, 1e-15);
  EXPECT_NEAR(o.u, 0.5 * nu0 * (wt - wt) + 0.5 * nu0 * (fp(c) + fp(-c)), 1e-13);
  // j turned by 180 degrees about x (body y, z reversed): j also sees i toward its H
  const M3 flip = {{1, 0, 0, 0, -1, 0, 0, 0, -1}};
  o = eval(p, r * e, IDENTITY, flip);
  EXPECT_NEAR(o.u, 0.5 * nu0 * (2 * wt) + 0.5 * nu0 * (2 * fp(c)), 1e-13);
  EXPECT_LT(o.u, 0.0);    // a double hydrogen-bond geometry of the sticky term is attractive
  // ... and the switches: at r = (rl + ru)/2 = 3.1 (s = 1/2) and ru' = 3.35 <= r (s' = 0)
  const double r2 = 3.1, s_half = 0.5;
  double sp, dsp;
  ssd_switch(r2, 2.75, 3.35, sp, dsp);
  o = eval(p, r2 * e, IDENTITY, flip);
  EXPECT_NEAR(o.u, 0.5 * nu0 * s_half * (2 * wt) + 0.5 * nu0 * sp * (2 * fp(c)), 1e-13);
  o = eval(p, 3.5 * e, IDENTITY, flip);
  double s35, ds35;
  ssd_switch(3.5, 2.40, 3.80, s35, ds35);
  EXPECT_NEAR(o.u, 0.5 * nu0 * s35 * (2 * wt), 1e-13);
}

TEST(SsdDipole, HeadToTailAndSideBySide)
{
  // C = qqr2e mu^2: head to tail V = -2C/r^3, side by side antiparallel -C/r^3, parallel +C/r^3;
  // the reaction field adds -C k_rf u_i.u_j, k_rf = 2(eps-1)/((2 eps+1) rc^3)
  Rng rng;
  for (SsdSet set : {SsdSet::ssd, SsdSet::ssde, SsdSet::ssdrf}) {
    const double mu = ssd_type<double>(set).mu * DEBYE, cc = QQR2E * mu * mu;
    const double krf = 2.0 * 79.0 / (161.0 * 729.0);
    const Params pc =
        make_ssd_params<double>(set, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
    const Params pr =
        make_ssd_params<double>(set, SsdLj::cut, 9.0, SsdElectrostatics::rf_constant, 9.0, 80.0);
    for (int k = 0; k < 20; ++k) {
      const V3 e = rng.direction(), side = unit(cross(e, rng.direction()));
      const double r = rng.uniform(2.5, 8.9), r3 = r * r * r;
      const M3 along = frame_from_z(e, rng.direction());
      const M3 up = frame_from_z(side, rng.direction());
      const M3 down = frame_from_z(-1.0 * side, rng.direction());
      EXPECT_NEAR(eval(pc, r * e, along, along).ec, -2 * cc / r3, 1e-12 * cc) << r;
      EXPECT_NEAR(eval(pc, r * e, up, down).ec, -cc / r3, 1e-12 * cc) << r;
      EXPECT_NEAR(eval(pc, r * e, up, up).ec, cc / r3, 1e-12 * cc) << r;
      EXPECT_NEAR(eval(pr, r * e, along, along).ec, -2 * cc / r3 - cc * krf, 1e-12 * cc) << r;
      EXPECT_NEAR(eval(pr, r * e, up, down).ec, -cc / r3 + cc * krf, 1e-12 * cc) << r;
      // the electrostatics mode leaves LJ and sticky alone
      EXPECT_EQ(eval(pr, r * e, up, down).ev, eval(pc, r * e, up, down).ev);
      // head to tail: the force on j is -dV/dr along e = -6C/r^4 e (attraction toward i)
      const Out o = eval(pc, r * e, along, along);
      if (r > 4.0) {    // beyond the sticky term, with LJ written out
        const double sr6 = std::pow(pc.sigma / r, 6);
        const double flj = 4 * pc.epsilon * (12 * sr6 * sr6 - 6 * sr6) / r;
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(o.fj[d], (-6 * cc / (r3 * r) + flj) * e[d], 1e-11 * cc) << r;
      }
    }
  }
}

TEST(SsdPair, ForceIsMinusTheGradientInEveryRegion)
{
  Rng rng;
  int checked = 0;
  for (const Case &c : all_cases()) {
    const auto reg = regions(c);
    for (size_t k = 0; k < reg.size(); ++k) {
      const bool beyond = k + 1 == reg.size();
      for (int n = 0; n < 40; ++n) {
        // 0.01 Angstrom from the edges: the difference steps (2h = 2e-4) stay inside
        const double r = rng.uniform(reg[k].first + 0.01, reg[k].second - 0.01);
        const V3 e = rng.direction();
        const M3 ai = rng.frame(), aj = rng.frame();
        const Out a = eval(c.p, r * e, ai, aj);
        ASSERT_EQ(a.inside, !beyond) << c.name << " r=" << r;
        const double tol = 1e-8 * scale_of(a);
        for (int d = 0; d < 3; ++d) {
          V3 step{{0, 0, 0}};
          step[d] = 1;
          // moving j changes r_ij by +h, moving i by -h
          const double fj =
              -diff([&](double h) { return energy(c.p, r * e + h * step, ai, aj); }, 1e-4);
          const double fi =
              -diff([&](double h) { return energy(c.p, r * e - h * step, ai, aj); }, 1e-4);
          EXPECT_NEAR(a.fj[d], fj, tol) << c.name << " r=" << r << " F_j[" << d << "]";
          EXPECT_NEAR(-a.fj[d], fi, tol) << c.name << " r=" << r << " F_i[" << d << "]";
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 4000);
}

TEST(SsdPair, TorqueIsMinusTheAngularGradientInEveryRegion)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    const auto reg = regions(c);
    for (size_t k = 0; k + 1 < reg.size(); ++k) {
      for (int n = 0; n < 40; ++n) {
        const double r = rng.uniform(reg[k].first + 0.01, reg[k].second - 0.01);
        const V3 rij = r * rng.direction();
        const M3 ai = rng.frame(), aj = rng.frame();
        const Out a = eval(c.p, rij, ai, aj);
        const double tol = 1e-8 * scale_of(a);
        for (int d = 0; d < 3; ++d) {
          V3 axis{{0, 0, 0}};
          axis[d] = 1;
          const double ti = -diff(
              [&](double th) { return energy(c.p, rij, rotate_body(ai, axis, th), aj); }, 1e-4);
          const double tj = -diff(
              [&](double th) { return energy(c.p, rij, ai, rotate_body(aj, axis, th)); }, 1e-4);
          EXPECT_NEAR(a.ti[d], ti, tol) << c.name << " r=" << r << " tau_i[" << d << "]";
          EXPECT_NEAR(a.tj[d], tj, tol) << c.name << " r=" << r << " tau_j[" << d << "]";
        }
      }
    }
  }
}

TEST(SsdPair, AngularMomentumIsConserved)
{
  // tau_i + tau_j + r_ij x F_j = 0 (F_i = -F_j by construction; the force test checks it)
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int n = 0; n < 300; ++n) {
      const V3 rij = rng.uniform(2.0, 9.5) * rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const Out a = eval(c.p, rij, ai, aj);
      const V3 total = a.ti + a.tj + cross(rij, a.fj);
      const double tol =
          1e-13 * std::max({1.0, maxabs(a.ti), maxabs(a.tj), norm(rij) * maxabs(a.fj)});
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(total[d], 0.0, tol) << c.name << " n=" << n;
    }
  }
}

TEST(SsdPair, SwappingIAndJ)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int n = 0; n < 200; ++n) {
      const V3 rij = rng.uniform(2.0, 9.5) * rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const Out a = eval(c.p, rij, ai, aj);
      const Out b = eval(c.p, -1.0 * rij, aj, ai);    // i' = j, j' = i
      const double tol = 1e-13 * std::max(1.0, scale_of(a));
      EXPECT_NEAR(a.u, b.u, 1e-13 * std::max(1.0, std::fabs(a.u))) << c.name;
      EXPECT_NEAR(a.ev, b.ev, 1e-13 * std::max(1.0, std::fabs(a.ev))) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(b.fj[d], -a.fj[d], tol) << c.name;    // the force on i' = i is -F_j
        EXPECT_NEAR(b.ti[d], a.tj[d], tol) << c.name;
        EXPECT_NEAR(b.tj[d], a.ti[d], tol) << c.name;
      }
    }
  }
}

TEST(SsdPair, RotatingThePairAsAWhole)
{
  // rotating r_ij and both bodies by Q leaves the energy and rotates force and torques
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int n = 0; n < 100; ++n) {
      const V3 rij = rng.uniform(2.0, 9.5) * rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const M3 q = rodrigues(rng.direction(), rng.uniform(-PI, PI));
      const Out a = eval(c.p, rij, ai, aj);
      const Out b = eval(c.p, apply(q, rij), mul(ai, transpose(q)), mul(aj, transpose(q)));
      const double tol = 1e-12 * std::max(1.0, scale_of(a));
      EXPECT_NEAR(a.u, b.u, 1e-12 * std::max(1.0, std::fabs(a.u))) << c.name;
      const V3 f = apply(q, a.fj), ti = apply(q, a.ti), tj = apply(q, a.tj);
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(b.fj[d], f[d], tol) << c.name;
        EXPECT_NEAR(b.ti[d], ti[d], tol) << c.name;
        EXPECT_NEAR(b.tj[d], tj[d], tol) << c.name;
      }
    }
  }
}

TEST(SsdPair, ContinuousAtTheSwitchEdgesAndZeroBeyondTheCutoffs)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    Params sticky = c.p;    // the sticky term alone
    sticky.lj1 = sticky.lj2 = sticky.lj_offset = 0;
    sticky.dip = 0;
    for (int n = 0; n < 20; ++n) {
      const V3 e = rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      // the sticky switches are C1: across every edge the energy changes by the slope times the
      // step (no jump; a jump shows as ~nu0 w), the force not at all (sticky part alone: LJ's
      // own slope would hide a small jump)
      for (double b : {c.p.rl, c.p.ru, c.p.rlp, c.p.rup}) {
        const double dl = 1e-7;
        const Out lo = eval(c.p, (b - dl) * e, ai, aj), hi = eval(c.p, (b + dl) * e, ai, aj);
        const double slope = -0.5 * dot(lo.fj + hi.fj, e);
        EXPECT_NEAR(hi.u - lo.u, 2 * dl * slope, 1e-9) << c.name << " edge " << b;
        const Out slo = eval(sticky, (b - 1e-9) * e, ai, aj);
        const Out shi = eval(sticky, (b + 1e-9) * e, ai, aj);
        EXPECT_NEAR(slo.u, shi.u, 1e-8) << c.name << " edge " << b;
        for (int d = 0; d < 3; ++d) {
          EXPECT_NEAR(slo.fj[d], shi.fj[d], 1e-7) << c.name << " edge " << b;
          EXPECT_NEAR(slo.ti[d], shi.ti[d], 1e-7) << c.name << " edge " << b;
        }
      }
      // the sticky term has ended at max(ru, ru'): between it and the cutoffs only LJ + dipole
      const double rr = c.p.sticky_cut + 0.01;
      const Out o = eval(c.p, rr * e, ai, aj);
      const double sr6 = std::pow(c.p.sigma / rr, 6);
      EXPECT_NEAR(o.ev,
                  lj_switch_ref(c.p, rr) * (4 * c.p.epsilon * (sr6 * sr6 - sr6)) - c.p.lj_offset,
                  1e-13)
          << c.name;
      // past every cutoff: nothing, and false
      for (double s : {1e-12, 0.3, 20.0}) {
        const double rc = std::max(c.lj_cut, c.coul_cut);
        const Out z = eval(c.p, (rc + s) * e, ai, aj);
        EXPECT_FALSE(z.inside);
        EXPECT_EQ(z.u, 0.0);
        for (int d = 0; d < 3; ++d) EXPECT_EQ(z.fj[d] + z.ti[d] + z.tj[d], 0.0);
      }
    }
  }
  // LJ shift: V_LJ vanishes at the LJ cutoff (dipoles off to see it)
  Type t = ssd_type<double>(SsdSet::ssd);
  t.mu = 0;
  const Params p =
      make_ssd_params<double>(t, t, SsdLj::shift, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  const V3 e{{0.6, 0, 0.8}};
  EXPECT_NEAR(eval(p, (9.0 - 1e-10) * e, IDENTITY, IDENTITY).u, 0.0, 1e-12);
  // coincident centres have no direction: skipped
  EXPECT_FALSE(eval(p, V3{{0, 0, 0}}, IDENTITY, IDENTITY).inside);
}

TEST(SsdPair, SinglePrecisionAgrees)
{
  using Pf = mesogpu::physics::SsdParams<float>;
  const Pf pf = make_ssd_params<float>(SsdSet::ssde, SsdLj::cut, 9.0f,
                                       SsdElectrostatics::rf_constant, 9.0f, 80.0f);
  const Params pd = make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0,
                                            SsdElectrostatics::rf_constant, 9.0, 80.0);
  Rng rng;
  for (int n = 0; n < 500; ++n) {
    const V3 rij = rng.uniform(2.3, 8.9) * rng.direction();
    const M3 ai = rng.frame(), aj = rng.frame();
    const Out a = eval(pd, rij, ai, aj);
    float rf[3], aif[9], ajf[9], ev, ec, ff[3], tif[3], tjf[3];
    for (int d = 0; d < 3; ++d) rf[d] = float(rij[d]);
    for (int i = 0; i < 9; ++i) {
      aif[i] = float(ai.a[i]);
      ajf[i] = float(aj.a[i]);
    }
    ASSERT_TRUE(ssd_pair(pf, rf, aif, ajf, ev, ec, ff, tif, tjf));
    const double sc = std::max(std::fabs(a.u), scale_of(a));
    EXPECT_NEAR(ev + ec, a.u, 1e-4 * sc) << n;
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(ff[d], a.fj[d], 1e-4 * sc) << n;
      EXPECT_NEAR(tif[d], a.ti[d], 1e-4 * sc) << n;
      EXPECT_NEAR(tjf[d], a.tj[d], 1e-4 * sc) << n;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The water dimer. No published SSD/E dimer energy was found; OpenMD's sample
// samples/water/dimer (README.md and the annealed frame ssd.in; github.com/OpenMD/OpenMD) gives
// an O-O distance of 2.67 Angstrom for two SSD/E molecules annealed to 0.1 K, with DUFF's SSD_E
// (a pure 2.42 D dipole, as here) and a 7.8-9 Angstrom switched cutoff that does not reach the
// dimer. That is software documentation, not a paper: it is compared with a loose tolerance.
namespace {

struct Dimer {
  V3 r;    // r_ij, i at the origin
  M3 ai, aj;
  double u, grad;
  int iterations;
};

// steepest descent on the 12 rigid-body coordinates with an adaptive step: j moves along F_j,
// each body turns about its torque by step |tau|; a step that raises the energy is halved
Dimer minimise(const Params &p, V3 r, M3 ai, M3 aj)
{
  Dimer d{r, ai, aj, energy(p, r, ai, aj), 0.0, 0};
  double step = 0.01;
  for (d.iterations = 0; d.iterations < 2000000; ++d.iterations) {
    const Out o = eval(p, d.r, d.ai, d.aj);
    d.grad = std::sqrt(dot(o.fj, o.fj) + dot(o.ti, o.ti) + dot(o.tj, o.tj));
    if (d.grad < 1e-7 || step < 1e-14) break;
    const V3 nr = d.r + step * o.fj;
    const M3 nai = norm(o.ti) > 0 ? rotate_body(d.ai, unit(o.ti), step * norm(o.ti)) : d.ai;
    const M3 naj = norm(o.tj) > 0 ? rotate_body(d.aj, unit(o.tj), step * norm(o.tj)) : d.aj;
    const double nu = energy(p, nr, nai, naj);
    if (nu < d.u) {
      d = {nr, nai, naj, nu, d.grad, d.iterations};
      step *= 1.2;
    } else {
      step *= 0.5;
    }
  }
  return d;
}

// a linear hydrogen bond to start from: i (lab frame) accepts along one lone pair, j donates
// with one H pointing at i; tetrahedral directions, O-O = r0
Dimer hbond_start(double r0)
{
  const double c = std::cos(TETRA), s = std::sin(TETRA);
  const V3 e{{s, 0, -c}};    // i's lone pair: x-z plane, z < 0
  // j's body z at the tetrahedral angle from j -> i, in the lab x-z plane, H toward i
  const V3 m = -1.0 * e, perp{{-m[2], 0, m[0]}};
  const V3 ez = c * m + s * perp, ey = s * m - c * perp;
  return {r0 * e, IDENTITY, frame_rows(cross(ey, ez), ey, ez), 0.0, 0.0, 0};
}

// body coordinates of the partner, as unit vectors: of j from i, of i from j
void partners(const Dimer &d, V3 &from_i, V3 &from_j)
{
  from_i = unit(apply(d.ai, d.r));
  from_j = unit(apply(d.aj, -1.0 * d.r));
}

}    // namespace

TEST(SsdDimer, SsdEBindsAsALinearHydrogenBond)
{
  const Params p =
      make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  const Dimer start = hbond_start(2.9);
  const Dimer d = minimise(p, start.r, start.ai, start.aj);
  const double roo = norm(d.r);
  V3 from_i, from_j;
  partners(d, from_i, from_j);
  std::printf("SSD/E dimer (plain 9 A cutoffs): E = %.5f kcal/mol, O-O = %.5f A, |grad| = %.1e "
              "after %d steps\n  j seen from i (body) = (%.4f, %.4f, %.4f), i seen from j = "
              "(%.4f, %.4f, %.4f)\n",
              d.u, roo, d.grad, d.iterations, from_i[0], from_i[1], from_i[2], from_j[0], from_j[1],
              from_j[2]);
  EXPECT_LT(d.grad, 1e-5);
  EXPECT_LT(d.u, 0.0);
  EXPECT_GT(roo, 2.6);
  EXPECT_LT(roo, 3.2);
  // still a linear H bond: j in i's lone-pair plane (x-z, z < 0), i in j's H plane (y-z, z > 0)
  EXPECT_LT(std::fabs(from_i[1]), 1e-3);
  EXPECT_LT(from_i[2], -0.5);
  EXPECT_LT(std::fabs(from_j[0]), 1e-3);
  EXPECT_GT(from_j[2], 0.5);
  // OpenMD's annealed SSD/E dimer: 2.67 Angstrom (see above)
  EXPECT_NEAR(roo, 2.67, 0.02);
  // a local minimum: every small displacement of the minimum raises the energy
  Rng rng;
  for (int k = 0; k < 50; ++k) {
    const V3 dr = 1e-3 * rng.direction();
    EXPECT_GT(energy(p, d.r + dr, rotate_body(d.ai, rng.direction(), 1e-3),
                     rotate_body(d.aj, rng.direction(), 1e-3)),
              d.u);
  }
}

TEST(SsdDimer, EverySetBindsAndTheElectrostaticsModesAgreeInKind)
{
  for (SsdSet s : {SsdSet::ssd, SsdSet::ssd1, SsdSet::ssde, SsdSet::ssdrf})
    for (SsdElectrostatics e : {SsdElectrostatics::cut, SsdElectrostatics::rf_constant}) {
      const Params p = make_ssd_params<double>(s, SsdLj::cut, 9.0, e, 9.0, 80.0);
      const Dimer start = hbond_start(2.9);
      const Dimer d = minimise(p, start.r, start.ai, start.aj);
      std::printf("%-6s %-11s dimer: E = %.4f kcal/mol, O-O = %.4f A\n", set_name(s),
                  e == SsdElectrostatics::cut ? "cut" : "rf_constant", d.u, norm(d.r));
      EXPECT_LT(d.grad, 1e-5) << set_name(s);
      EXPECT_LT(d.u, 0.0) << set_name(s);
      EXPECT_GT(norm(d.r), 2.6) << set_name(s);
      EXPECT_LT(norm(d.r), 3.2) << set_name(s);
    }
}

TEST(SsdDimer, OpenMdAnnealedFrameIsOurMinimum)
{
  // OpenMD samples/water/dimer/ssd.in (commit 51f25a11 of github.com/OpenMD/OpenMD): positions
  // and quaternions (w, x, y, z) of two SSD_E molecules after annealing. (Its copy in ssd.omd
  // flips the sign of molecule 1's w, a different orientation that is repulsive here.)
  // OpenMD's rotation matrix of q is A = R(q)^T (Quaternion::toRotationMatrix3), as ours.
  const V3 x0{{1.192654, 0.024173, 0.011944}}, x1{{3.837346, -0.024173, -0.011944}};
  const double q0[4] = {0.651417, -0.626611, -0.305117, 0.299865};
  const double q1[4] = {0.661391, 0.258281, -0.664463, 0.233112};
  auto normalised = [](const double *q, double *o) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) o[k] = q[k] / n;    // the file keeps 6 digits
  };
  double n0[4], n1[4];
  normalised(q0, n0);
  normalised(q1, n1);
  M3 a0, a1;
  quat_to_body_frame(n0, a0.a);
  quat_to_body_frame(n1, a1.a);
  const Params p =
      make_ssd_params<double>(SsdSet::ssde, SsdLj::cut, 9.0, SsdElectrostatics::cut, 9.0, 80.0);
  const V3 r = x1 - x0;
  const Out o = eval(p, r, a0, a1);
  const Dimer d = minimise(p, r, a0, a1);
  const Dimer h = hbond_start(2.9);
  const Dimer ours = minimise(p, h.r, h.ai, h.aj);
  std::printf("OpenMD's annealed SSD/E frame: O-O = %.4f A, E here = %.4f kcal/mol, |F_j| = "
              "%.3f, |tau_i| = %.3f, |tau_j| = %.3f; relaxed: O-O = %.4f A, E = %.4f\n",
              norm(r), o.u, norm(o.fj), norm(o.ti), norm(o.tj), norm(d.r), d.u);
  // the frame lies in the basin of our minimum, close to it in energy and distance
  EXPECT_NEAR(o.u, ours.u, 0.1);
  EXPECT_NEAR(d.u, ours.u, 1e-6);
  EXPECT_NEAR(norm(d.r), norm(ours.r), 1e-4);
  EXPECT_NEAR(norm(r), norm(ours.r), 0.05);
  // and it is nearly stationary: the torques are small against the scale of V_dp's torques
  // (C / r^3 ~ 4 kcal/mol here)
  EXPECT_LT(norm(o.ti), 0.1);
  EXPECT_LT(norm(o.tj), 0.1);
}

// ---- 'elec rfswitch': the switched reaction field of Fennell & Gezelter 2004 (OOPSE) ---------

namespace {

// OOPSE's cubic switch written out again (switcheroo.F90): 1 below rsw, 0 from rc on
double oopse_switch(double r, double rsw, double rc)
{
  if (r < rsw) return 1.0;
  if (r >= rc) return 0.0;
  return (rc + 2 * r - 3 * rsw) * (rc - r) * (rc - r) / std::pow(rc - rsw, 3);
}

// the dipole part of the pair energy from the formula, nothing from ssd.h: S(r) [C (u_i.u_j/r^3 -
// 3 (u_i.r)(u_j.r)/r^5) - C k_rf u_i.u_j] with C = qqr2e mu_i mu_j (Debye -> e Angstrom),
// k_rf = 2 (eps - 1) / ((2 eps + 1) rc^3)
double slow_rfswitch(double mu_i_debye, double mu_j_debye, double eps, double rsw, double rc, V3 r,
                     V3 ui, V3 uj)
{
  const double d = std::sqrt(dot(r, r));
  if (d >= rc) return 0.0;
  const double cc = QQR2E * mu_i_debye * DEBYE * mu_j_debye * DEBYE;
  const double k = 2 * (eps - 1) / ((2 * eps + 1) * rc * rc * rc);
  const double direct =
      cc * (dot(ui, uj) / std::pow(d, 3) - 3 * dot(ui, r) * dot(uj, r) / std::pow(d, 5));
  return oopse_switch(d, rsw, rc) * (direct - cc * k * dot(ui, uj));
}

Params rfswitch(SsdSet set, double eps, double rsw, double rc, double lj_cut = 9.0)
{
  return make_ssd_params<double>(set, SsdLj::cut, lj_cut, SsdElectrostatics::rf_switch, rc, eps,
                                 QQR2E, rsw);
}

}    // namespace

TEST(SsdReactionFieldSwitch, ParamsAndSelfTerm)
{
  const Params p = rfswitch(SsdSet::ssdrf, 80.0, 7.7, 9.0);
  const double mu = 2.48 * DEBYE, krf = 2.0 * 79.0 / (161.0 * 729.0);
  EXPECT_EQ(p.elec, SsdElectrostatics::rf_switch);
  EXPECT_NEAR(p.rf, krf, 1e-16);
  EXPECT_EQ(p.coul_sw, 7.7);
  EXPECT_EQ(p.coul_cut, 9.0);
  EXPECT_NEAR(p.cutsq, 81.0, 1e-12);
  // OOPSE's self term -pre mu^2 / 2 per dipole (about -0.0596 kcal/mol for SSD/RF at 80, 9 A)
  EXPECT_NEAR(ssd_rf_self_energy(p), -0.5 * QQR2E * mu * mu * krf, 1e-15);
  EXPECT_NEAR(ssd_rf_self_energy(p), -0.0596, 5e-4);
  // other modes: no switch radius and no self term
  const Params q = make_ssd_params<double>(SsdSet::ssdrf, SsdLj::cut, 9.0,
                                           SsdElectrostatics::rf_constant, 9.0, 80.0, QQR2E, 7.7);
  EXPECT_EQ(q.coul_sw, 0.0);
  EXPECT_EQ(ssd_rf_self_energy(q), 0.0);
}

TEST(SsdReactionFieldSwitch, AgainstTheFormulaWrittenOut)
{
  Rng rng;
  struct Sw {
    SsdSet a, b;
    double eps, rsw, rc;
  };
  int in_switch = 0;
  for (const Sw &w : {Sw{SsdSet::ssdrf, SsdSet::ssdrf, 80.0, 7.7, 9.0},
                      Sw{SsdSet::ssde, SsdSet::ssd, 40.0, 3.5, 6.5},
                      Sw{SsdSet::ssd1, SsdSet::ssdrf, 1.0, 5.0, 8.0}}) {
    const Type ta = ssd_type<double>(w.a), tb = ssd_type<double>(w.b);
    const Params p = make_ssd_params<double>(ta, tb, SsdLj::cut, 9.0, SsdElectrostatics::rf_switch,
                                             w.rc, w.eps, QQR2E, w.rsw);
    const Params pc =
        make_ssd_params<double>(ta, tb, SsdLj::cut, 9.0, SsdElectrostatics::cut, w.rc, w.eps);
    const Params prf = make_ssd_params<double>(ta, tb, SsdLj::cut, 9.0,
                                               SsdElectrostatics::rf_constant, w.rc, w.eps);
    for (int n = 0; n < 400; ++n) {
      const double r = rng.uniform(2.5, w.rc + 0.5);
      const V3 e = rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const Out o = eval(p, r * e, ai, aj);
      const double ref =
          slow_rfswitch(ta.mu, tb.mu, w.eps, w.rsw, w.rc, r * e, ai.row(2), aj.row(2));
      EXPECT_NEAR(o.ec, ref, 1e-12 * std::max(1.0, std::fabs(ref))) << r;
      // LJ and sticky are untouched by the electrostatics mode
      EXPECT_EQ(o.ev, eval(pc, r * e, ai, aj).ev) << r;
      // below the switch it is the constant reaction field exactly
      if (r < w.rsw) {
        EXPECT_NEAR(o.ec, eval(prf, r * e, ai, aj).ec, 1e-13 * std::max(1.0, std::fabs(o.ec)));
      } else if (r < w.rc) {
        ++in_switch;
      }
    }
  }
  EXPECT_GT(in_switch, 100);
}

TEST(SsdReactionFieldSwitch, ContinuousAtTheSwitchAndTheCutoff)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    if (c.p.elec != SsdElectrostatics::rf_switch) continue;
    Params dip = c.p;    // the dipole term alone
    dip.lj1 = dip.lj2 = dip.lj_offset = 0;
    dip.nu0 = dip.nu0p = 0;
    const double rsw = c.p.coul_sw, rc = c.p.coul_cut;
    for (int n = 0; n < 50; ++n) {
      const V3 e = rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const double scale = std::max(1.0, maxabs(eval(dip, rsw * e, ai, aj).fj));
      // at r_sw: energy, force and torques continuous (S = 1, S' = 0 on both sides)
      const Out lo = eval(dip, (rsw - 1e-9) * e, ai, aj), hi = eval(dip, (rsw + 1e-9) * e, ai, aj);
      // no jump: the energy changes by the slope times the step
      const double slope = -0.5 * dot(lo.fj + hi.fj, e);
      EXPECT_NEAR(hi.u - lo.u, 2e-9 * slope, 1e-12 * std::max(1.0, std::fabs(lo.u))) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(lo.fj[d], hi.fj[d], 1e-7 * scale) << c.name;
        EXPECT_NEAR(lo.ti[d], hi.ti[d], 1e-7 * scale) << c.name;
        EXPECT_NEAR(lo.tj[d], hi.tj[d], 1e-7 * scale) << c.name;
      }
      // at r_c: energy, force and torques go to zero (S = S' = 0; near r_c |F| ~ 6 |V| (r_c - r)
      // / (r_c - r_sw)^2, hence 1e-10 A inside); LJ and sticky are off here
      const Out in = eval(dip, (rc - 1e-10) * e, ai, aj);
      EXPECT_NEAR(in.u, 0.0, 1e-12) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(in.fj[d], 0.0, 1e-9) << c.name;
        EXPECT_NEAR(in.ti[d], 0.0, 1e-9) << c.name;
        EXPECT_NEAR(in.tj[d], 0.0, 1e-9) << c.name;
      }
      // and not trivially: halfway through the switch the dipole term is alive
      const Out mid = eval(dip, 0.5 * (rsw + rc) * e, ai, aj);
      EXPECT_GT(std::fabs(mid.u), 1e-6) << c.name;
    }
  }
}

// ---- 'ljmode switch': OOPSE's switched LJ (do_lj_pair: sw * pot and the dS/dr force) --------

namespace {

Params ljswitch(const Type &a, const Type &b, double lj_cut, double rsw, double rc = 9.0)
{
  return make_ssd_params<double>(a, b, SsdLj::sw, lj_cut, SsdElectrostatics::rf_switch, rc, 80.0,
                                 QQR2E, rsw);
}

}    // namespace

TEST(SsdLjSwitch, Params)
{
  const Type t = ssd_type<double>(SsdSet::ssdrf);
  const Params p = ljswitch(t, t, 9.0, 7.7);
  EXPECT_EQ(p.lj_sw, 7.7);
  EXPECT_EQ(p.lj_cut, 9.0);
  EXPECT_EQ(p.lj_offset, 0.0);    // switched, not shifted
  EXPECT_NEAR(p.cutsq, 81.0, 1e-12);
  for (SsdLj l : {SsdLj::cut, SsdLj::shift})
    EXPECT_EQ(
        make_ssd_params<double>(t, t, l, 9.0, SsdElectrostatics::rf_switch, 9.0, 80.0, QQR2E, 7.7)
            .lj_sw,
        0.0);
}

TEST(SsdLjSwitch, AgainstTheFormulaWrittenOut)
{
  Rng rng;
  struct Sw {
    SsdSet a, b;
    double lj_cut, rsw, rc;
  };
  int in_switch = 0;
  for (const Sw &w : {Sw{SsdSet::ssdrf, SsdSet::ssdrf, 9.0, 7.7, 9.0},
                      Sw{SsdSet::ssde, SsdSet::ssd, 8.5, 3.5, 6.5},
                      Sw{SsdSet::ssd1, SsdSet::ssdrf, 10.0, 5.0, 8.0}}) {
    Type ta = ssd_type<double>(w.a), tb = ssd_type<double>(w.b);
    const Params p = ljswitch(ta, tb, w.lj_cut, w.rsw, w.rc);
    const Params pc = make_ssd_params<double>(
        ta, tb, SsdLj::cut, w.lj_cut, SsdElectrostatics::rf_switch, w.rc, 80.0, QQR2E, w.rsw);
    // LJ alone: no dipoles, no sticky term
    Type la = ta, lb = tb;
    la.mu = lb.mu = la.nu0 = lb.nu0 = la.nu0p = lb.nu0p = 0;
    const Params pl = ljswitch(la, lb, w.lj_cut, w.rsw, w.rc);
    // Lorentz-Berthelot written out
    const double sig = 0.5 * (ta.sigma + tb.sigma), eps = std::sqrt(ta.epsilon * tb.epsilon);
    for (int n = 0; n < 400; ++n) {
      const double r = rng.uniform(2.5, w.lj_cut + 0.5);
      const V3 e = rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      double sw = 1.0;
      if (r >= w.lj_cut) {
        sw = 0.0;
      } else if (r >= w.rsw) {
        sw = (w.lj_cut + 2 * r - 3 * w.rsw) * std::pow(w.lj_cut - r, 2) /
             std::pow(w.lj_cut - w.rsw, 3);
        ++in_switch;
      }
      const double sr6 = std::pow(sig / r, 6), vlj = 4 * eps * (sr6 * sr6 - sr6);
      const double ref = r < w.lj_cut ? sw * vlj : 0.0;
      const Out l = eval(pl, r * e, ai, aj);
      EXPECT_NEAR(l.u, ref, 1e-12 * std::max(1.0, std::fabs(ref))) << r;
      // with dipoles and the sticky term: only the LJ part differs from ljmode cut
      const Out o = eval(p, r * e, ai, aj), oc = eval(pc, r * e, ai, aj);
      EXPECT_EQ(o.ec, oc.ec) << r;
      const double dref = r < w.lj_cut ? (sw - 1.0) * vlj : 0.0;
      EXPECT_NEAR(o.ev - oc.ev, dref, 1e-12 * std::max(1.0, std::fabs(oc.ev))) << r;
    }
  }
  EXPECT_GT(in_switch, 100);
}

TEST(SsdLjSwitch, ContinuousAtTheSwitchAndZeroAtTheCutoff)
{
  Rng rng;
  int ncases = 0;
  for (const Case &c : all_cases()) {
    if (!(c.p.lj_sw > 0)) continue;
    ++ncases;
    Params lj = c.p;    // the LJ term alone
    lj.dip = 0;
    lj.nu0 = lj.nu0p = 0;
    const double rsw = c.p.lj_sw, rc = c.p.lj_cut;
    EXPECT_EQ(rc, c.lj_cut) << c.name;
    for (int n = 0; n < 20; ++n) {
      const V3 e = rng.direction();
      const M3 ai = rng.frame(), aj = rng.frame();
      const Out lo = eval(lj, (rsw - 1e-9) * e, ai, aj), hi = eval(lj, (rsw + 1e-9) * e, ai, aj);
      const double slope = -0.5 * dot(lo.fj + hi.fj, e);
      EXPECT_NEAR(hi.u - lo.u, 2e-9 * slope, 1e-13) << c.name;
      // the force changes only by its smooth slope over the 2e-9 A step (|dF/dr| <~ 1 here)
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(lo.fj[d], hi.fj[d], 1e-8) << c.name;
      // the LJ force is radial and no torque comes from it
      for (int d = 0; d < 3; ++d) EXPECT_EQ(lo.ti[d], 0.0) << c.name;
      // at lj_cut: energy and force go to zero (S = S' = 0)
      const Out in = eval(lj, (rc - 1e-10) * e, ai, aj);
      EXPECT_NEAR(in.u, 0.0, 1e-15) << c.name;
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(in.fj[d], 0.0, 1e-12) << c.name;
      // and not trivially: unswitched LJ at lj_cut is not negligible on these scales
      const double sr6 = std::pow(c.p.sigma / rc, 6);
      EXPECT_GT(std::fabs(4 * c.p.epsilon * (sr6 * sr6 - sr6)), 1e-4) << c.name;
      // the full pair too (electrostatics ends at coul_cut <= lj_cut in these cases)
      const Out full = eval(c.p, (rc - 1e-10) * e, ai, aj);
      EXPECT_NEAR(full.u, 0.0, 1e-11) << c.name;
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(full.fj[d], 0.0, 1e-9) << c.name;
    }
  }
  EXPECT_EQ(ncases, 2);
}
