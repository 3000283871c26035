/* Units for src/physics/gay_berne.h (Gay-Berne, dissimilar uniaxial particles, Cleaver et
   al. 1996 as in OpenMD). References are independent of the evaluator's scalar algebra:
   - the energy again from 3x3 matrices: with M = sum_k (d_k^2 I + (l_k^2 - d_k^2) u_k u_k^T)
     and M' = sum_k (E_k I + (S_k - E_k) u_k u_k^T) (S = eps_S^(1/mu), E = eps_E^(1/mu)),
     1 - H = (d_i^2 + d_j^2) e^T M^-1 e, 1 - H' = (E_i + E_j) e^T M'^-1 e and
     1 - chi^2 g^2 = det M / ((d_i^2 + d_j^2)(l_i^2 + d_j^2)(d_i^2 + l_j^2));
   - forces by 4th-order central differences of the energy in r_ij, torques by the same in
     the angle of small rotations of u_i, u_j about the lab axes (dU/dtheta_k = -tau_k);
   - Newton's third law under i <-> j, angular momentum, the LJ limit of two spheres, the
     contact distances and well depths of the side-by-side, cross, T and end-to-end pairs
     written out from d, l and the well depths, both sigma0 rules, the cutoff and shift. */

#include "physics/gay_berne.h"

#include "gtest/gtest.h"
#include "vec3_test.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using mesogpu::physics::gay_berne_pair;
using mesogpu::physics::GayBerneSigma0;
using mesogpu::physics::make_gay_berne_params;
using Params = mesogpu::physics::GayBerneParams<double>;
using Type = mesogpu::physics::GayBerneType<double>;

using namespace mesogpu_test;

namespace {

const double PI = 3.14159265358979323846;
const double TWO16 = 1.1224620483093730;    // 2^(1/6)

V3 axis(int k)
{
  V3 e{{0, 0, 0}};
  e[k] = 1;
  return e;
}
// u turned by angle t about the unit axis n (Rodrigues)
V3 rotate(V3 u, V3 n, double t)
{
  return std::cos(t) * u + std::sin(t) * cross(n, u) + (1 - std::cos(t)) * dot(n, u) * n;
}

struct Result {
  double u;
  V3 fj, ti, tj;
  bool inside;
};

Result eval(const Params &p, V3 r, V3 ui, V3 uj)
{
  Result o;
  o.inside = gay_berne_pair(p, r.v, ui.v, uj.v, o.u, o.fj.v, o.ti.v, o.tj.v);
  return o;
}

struct Rng : RandomDirections {
  Rng() : RandomDirections(19960101) {}
};

// ---------------- the model written again, from matrices --------------------------------
struct Case {
  std::string name;
  Type ti, tj;
  double eps0, dw, mu, nu;
  GayBerneSigma0 rule;
  double rc;
  bool shift;
  Params p;
};

Case make_case(const std::string &name, Type ti, Type tj, double eps0, double dw, double mu,
               double nu, GayBerneSigma0 rule, double rc, bool shift = false)
{
  return {name,
          ti,
          tj,
          eps0,
          dw,
          mu,
          nu,
          rule,
          rc,
          shift,
          make_gay_berne_params<double>(ti, tj, eps0, dw, mu, nu, rule, rc, shift)};
}

double sigma0_of(const Case &c)
{
  return c.rule == GayBerneSigma0::arithmetic ? 0.5 * (c.ti.d + c.tj.d)
                                              : std::sqrt(c.ti.d * c.ti.d + c.tj.d * c.tj.d);
}

using M3 = double[3][3];
// c I + k_i u_i u_i^T + k_j u_j u_j^T
void build(double c, double ki, V3 ui, double kj, V3 uj, M3 m)
{
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y)
      m[x][y] = (x == y ? c : 0.0) + ki * ui[x] * ui[y] + kj * uj[x] * uj[y];
}
double det(const M3 m)
{
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
// e^T m^-1 e by Cramer's rule
double quad_inv(const M3 m, V3 e)
{
  double s = 0;
  for (int col = 0; col < 3; ++col) {
    M3 t;
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) t[x][y] = y == col ? e[x] : m[x][y];
    s += e[col] * det(t);
  }
  return s / det(m);
}

// orientation-dependent contact distance and well depth
void sigma_eps_ref(const Case &c, V3 e, V3 ui, V3 uj, double &sigma, double &eps)
{
  const double di2 = c.ti.d * c.ti.d, li2 = c.ti.l * c.ti.l;
  const double dj2 = c.tj.d * c.tj.d, lj2 = c.tj.l * c.tj.l;
  M3 m;
  build(di2 + dj2, li2 - di2, ui, lj2 - dj2, uj, m);
  const double one_h = (di2 + dj2) * quad_inv(m, e);
  const double one_chi2g2 = det(m) / ((di2 + dj2) * (li2 + dj2) * (di2 + lj2));
  const double si = std::pow(c.ti.eps_s, 1 / c.mu), ei = std::pow(c.ti.eps_e, 1 / c.mu);
  const double sj = std::pow(c.tj.eps_s, 1 / c.mu), ej = std::pow(c.tj.eps_e, 1 / c.mu);
  M3 mp;
  build(ei + ej, si - ei, ui, sj - ej, uj, mp);
  const double one_hp = (ei + ej) * quad_inv(mp, e);
  sigma = sigma0_of(c) / std::sqrt(one_h);
  eps = c.eps0 * std::pow(one_chi2g2, -0.5 * c.nu) * std::pow(one_hp, c.mu);
}

double energy_ref(const Case &c, V3 r_ij, V3 ui, V3 uj)
{
  const double r = norm(r_ij);
  if (r >= c.rc) return 0.0;
  const V3 e = (1.0 / r) * r_ij;
  double sigma, eps;
  sigma_eps_ref(c, e, ui, uj, sigma, eps);
  const double w = c.dw * sigma0_of(c);
  auto lj = [&](double x) {
    const double rr = w / (x - sigma + w), r6 = std::pow(rr, 6);
    return 4 * eps * (r6 * r6 - r6);
  };
  return lj(r) - (c.shift ? lj(c.rc) : 0.0);
}

// ------------------------------- cases --------------------------------------------------
const Type ROD{1.0, 3.0, 1.0, 0.2};       // l/d = 3, eps_S/eps_E = 5
const Type SHORT{0.8, 1.6, 0.7, 0.5};     // another prolate type
const Type DISC{2.0, 0.7, 1.0, 3.0};      // oblate, deeper end-to-end (face-to-face) well
const Type SPHERE{1.2, 1.2, 0.9, 0.9};    // d = l, eps_S = eps_E
const Type SPHERE2{0.9, 0.9, 1.3, 1.3};

std::vector<Case> all_cases()
{
  using R = GayBerneSigma0;
  return {
      make_case("rod_rod", ROD, ROD, 1.0, 1.0, 2.0, 1.0, R::cleaver, 9.0),
      make_case("rod_rod_arith_general", ROD, ROD, 0.8, 0.7, 1.3, 2.5, R::arithmetic, 7.0),
      make_case("rod_short", ROD, SHORT, 1.1, 0.9, 2.0, 1.0, R::cleaver, 9.0),
      make_case("short_rod", SHORT, ROD, 1.1, 0.9, 2.0, 1.0, R::cleaver, 9.0),
      make_case("disc_rod_arith", DISC, ROD, 0.6, 1.2, 1.0, 3.0, R::arithmetic, 9.0),
      make_case("disc_disc", DISC, DISC, 1.0, 1.0, 2.0, 1.0, R::cleaver, 9.0),
      make_case("rod_sphere", ROD, SPHERE, 0.9, 1.0, 2.0, 1.0, R::cleaver, 9.0),
      make_case("sphere_rod", SPHERE, ROD, 0.9, 1.0, 2.0, 1.0, R::cleaver, 9.0),
      make_case("rod_sphere_arith_mu1", ROD, SPHERE, 0.9, 0.8, 1.0, 2.0, R::arithmetic, 9.0),
      make_case("disc_sphere", DISC, SPHERE2, 1.4, 1.0, 1.7, 0.5, R::cleaver, 9.0),
      make_case("rod_short_shift", ROD, SHORT, 1.1, 0.9, 2.0, 1.0, R::cleaver, 4.5, true),
      make_case("rod_sphere_shift", ROD, SPHERE, 0.9, 1.0, 2.0, 1.0, R::arithmetic, 4.0, true),
  };
}

// a random configuration with r = sigma(orientations) + t dw sigma0, t in [t_lo, t_hi],
// kept inside the cutoff
bool random_config(Rng &rng, const Case &c, double t_lo, double t_hi, V3 &r, V3 &ui, V3 &uj)
{
  const V3 e = rng.direction();
  ui = rng.direction();
  uj = rng.direction();
  double sigma, eps;
  sigma_eps_ref(c, e, ui, uj, sigma, eps);
  const double x = sigma + rng.uniform(t_lo, t_hi) * c.dw * sigma0_of(c);
  if (x >= 0.98 * c.rc) return false;
  r = x * e;
  return true;
}

double scale_of(const Result &a)
{
  double s = std::fabs(a.u);
  for (int d = 0; d < 3; ++d)
    s = std::max({s, std::fabs(a.fj[d]), std::fabs(a.ti[d]), std::fabs(a.tj[d])});
  return s;
}

// 4th-order central difference of f(t) at t = 0
}    // namespace

TEST(GayBerne, EnergyMatchesTheMatrixForm)
{
  Rng rng;
  int checked = 0;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 400; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, -0.2, 4.0, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      ASSERT_TRUE(a.inside);
      const double ref = energy_ref(c, r, ui, uj);
      EXPECT_NEAR(a.u, ref, 1e-11 * (std::fabs(ref) + c.eps0)) << c.name << " k=" << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(GayBerne, ForceIsMinusTheEnergyGradient)
{
  Rng rng;
  int checked = 0;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 200; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, -0.15, 3.0, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      const double s = scale_of(a);
      for (int d = 0; d < 3; ++d) {
        const double fd = -diff([&](double t) { return eval(c.p, r + t * axis(d), ui, uj).u; },
                                1e-4 * c.dw * sigma0_of(c));
        EXPECT_NEAR(a.fj[d], fd, 1e-7 * s) << c.name << " k=" << k << " F_j[" << d << "]";
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(GayBerne, TorquesAreMinusTheRotationDerivatives)
{
  // turning u by theta about lab axis n changes U by -theta n . tau
  Rng rng;
  int checked = 0;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 200; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, -0.15, 3.0, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      const double s = scale_of(a);
      for (int d = 0; d < 3; ++d) {
        const double ti =
            -diff([&](double t) { return eval(c.p, r, rotate(ui, axis(d), t), uj).u; }, 1e-4);
        const double tj =
            -diff([&](double t) { return eval(c.p, r, ui, rotate(uj, axis(d), t)).u; }, 1e-4);
        EXPECT_NEAR(a.ti[d], ti, 1e-7 * s) << c.name << " k=" << k << " tau_i[" << d << "]";
        EXPECT_NEAR(a.tj[d], tj, 1e-7 * s) << c.name << " k=" << k << " tau_j[" << d << "]";
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(GayBerne, ThirdLawAndAngularMomentum)
{
  // F_i = -F_j: the pair (j, i) seen from j (swapped types, r_ji = -r_ij) must return
  // F_i as its "force on j", the same energy and the torques swapped; and
  // tau_i + tau_j + r_ij x F_j = 0 (rotating the whole pair leaves U unchanged)
  Rng rng;
  for (const Case &c : all_cases()) {
    const Case sw =
        make_case(c.name + "_swapped", c.tj, c.ti, c.eps0, c.dw, c.mu, c.nu, c.rule, c.rc, c.shift);
    for (int k = 0; k < 200; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, -0.15, 3.0, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      const Result b = eval(sw.p, -1.0 * r, uj, ui);
      const double s = scale_of(a);
      EXPECT_NEAR(a.u, b.u, 1e-13 * s) << c.name << " k=" << k;
      const V3 l = a.ti + a.tj + cross(r, a.fj);
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(a.fj[d] + b.fj[d], 0.0, 1e-13 * s) << c.name << " k=" << k << " F_i+F_j";
        EXPECT_NEAR(a.ti[d], b.tj[d], 1e-13 * s) << c.name << " k=" << k << " tau_i";
        EXPECT_NEAR(a.tj[d], b.ti[d], 1e-13 * s) << c.name << " k=" << k << " tau_j";
        EXPECT_NEAR(l[d], 0.0, 1e-13 * s * norm(r)) << c.name << " k=" << k << " L[" << d << "]";
      }
    }
  }
}

TEST(GayBerne, TwoSpheresAreLennardJones)
{
  // d = l and eps_S = eps_E for both: U = 4 eps0 [R^12 - R^6], R = dw sigma0 / (r - sigma0
  // + dw sigma0); dw = 1 is plain LJ(sigma0, eps0). An LJ sphere of diameter sigma is
  // d = sigma / sqrt(2) under Cleaver's rule and d = sigma under the arithmetic rule.
  Rng rng;
  const double sig = 1.3, eps0 = 0.7;
  for (auto rule : {GayBerneSigma0::cleaver, GayBerneSigma0::arithmetic}) {
    const double d = rule == GayBerneSigma0::cleaver ? sig / std::sqrt(2.0) : sig;
    for (double dw : {1.0, 0.6}) {
      for (double mu : {2.0, 1.0}) {
        const Type s1{d, d, 0.4, 0.4}, s2{d, d, 2.0, 2.0};    // eps_S only shapes chi'
        const Params p = make_gay_berne_params<double>(s1, s2, eps0, dw, mu, 1.0, rule, 5.0, false);
        EXPECT_NEAR(p.sigma0, sig, 1e-15);
        for (int k = 0; k < 100; ++k) {
          const double r = rng.uniform(0.85 * sig, 4.9);
          const V3 e = rng.direction();
          // any orientation, also zero vectors: a sphere's u is never used
          const V3 ui = k % 3 == 0 ? V3{{0, 0, 0}} : rng.direction();
          const V3 uj = k % 5 == 0 ? V3{{0, 0, 0}} : rng.direction();
          const Result a = eval(p, r * e, ui, uj);
          const double w = dw * sig, rr = w / (r - sig + w), r6 = std::pow(rr, 6);
          const double u = 4 * eps0 * (r6 * r6 - r6);
          const double fr = 4 * eps0 * (12 * r6 * r6 - 6 * r6) * rr / w;    // -dU/dr
          if (dw == 1.0) {
            const double x6 = std::pow(sig / r, 6);
            EXPECT_NEAR(u, 4 * eps0 * (x6 * x6 - x6), 1e-12 * (std::fabs(u) + eps0));
          }
          EXPECT_NEAR(a.u, u, 1e-12 * (std::fabs(u) + eps0)) << "r=" << r;
          for (int x = 0; x < 3; ++x) {
            EXPECT_NEAR(a.fj[x], fr * e[x], 1e-12 * (std::fabs(fr) + eps0)) << "r=" << r;
            EXPECT_EQ(a.ti[x], 0.0);
            EXPECT_EQ(a.tj[x], 0.0);
          }
        }
      }
    }
  }
}

TEST(GayBerne, Sigma0Rules)
{
  // the side-by-side contact is sigma0 of the rule, for like and unlike widths
  for (const Type &tj : {ROD, SHORT, DISC, SPHERE}) {
    const Params pc = make_gay_berne_params<double>(ROD, tj, 1.0, 1.0, 2.0, 1.0,
                                                    GayBerneSigma0::cleaver, 9.0, false);
    const Params pa = make_gay_berne_params<double>(ROD, tj, 1.0, 1.0, 2.0, 1.0,
                                                    GayBerneSigma0::arithmetic, 9.0, false);
    EXPECT_DOUBLE_EQ(pc.sigma0, std::sqrt(ROD.d * ROD.d + tj.d * tj.d));
    EXPECT_DOUBLE_EQ(pa.sigma0, 0.5 * (ROD.d + tj.d));
    // side by side: u_i = u_j = x, e = z: U(sigma0) = 0 under each rule
    const V3 x = axis(0), z = axis(2);
    EXPECT_NEAR(eval(pc, pc.sigma0 * z, x, x).u, 0.0, 1e-13);
    EXPECT_NEAR(eval(pa, pa.sigma0 * z, x, x).u, 0.0, 1e-13);
    EXPECT_GT(eval(pc, 0.99 * pc.sigma0 * z, x, x).u, 0.0);
    EXPECT_LT(eval(pa, 1.01 * pa.sigma0 * z, x, x).u, 0.0);
  }
  // identical particles: the side-by-side contact is sqrt(2) d (Cleaver) or d (arithmetic)
  const Params pc = make_gay_berne_params<double>(ROD, ROD, 1.0, 1.0, 2.0, 1.0,
                                                  GayBerneSigma0::cleaver, 9.0, false);
  const Params pa = make_gay_berne_params<double>(ROD, ROD, 1.0, 1.0, 2.0, 1.0,
                                                  GayBerneSigma0::arithmetic, 9.0, false);
  EXPECT_DOUBLE_EQ(pc.sigma0, std::sqrt(2.0) * ROD.d);
  EXPECT_DOUBLE_EQ(pa.sigma0, ROD.d);
}

namespace {
// configurations named by MODELS.md / the header, with their contact distance and well
// depth written from d, l and the well depths
struct Named {
  std::string name;
  V3 e, ui, uj;
  double sigma, eps;
};

std::vector<Named> named_configs(const Case &c)
{
  const double di2 = c.ti.d * c.ti.d, li2 = c.ti.l * c.ti.l;
  const double dj2 = c.tj.d * c.tj.d, lj2 = c.tj.l * c.tj.l;
  const double s0 = sigma0_of(c);
  const double chi2 = (li2 - di2) * (lj2 - dj2) / ((li2 + dj2) * (lj2 + di2));
  const double si = std::pow(c.ti.eps_s, 1 / c.mu), ei = std::pow(c.ti.eps_e, 1 / c.mu);
  const double sj = std::pow(c.tj.eps_s, 1 / c.mu), ej = std::pow(c.tj.eps_e, 1 / c.mu);
  const V3 x = axis(0), y = axis(1), z = axis(2);
  const double par = c.eps0 * std::pow(1 - chi2, -0.5 * c.nu);
  return {
      {"side_by_side", z, x, x, s0, par},
      {"side_by_side_antiparallel", z, x, -1.0 * x, s0, par},
      {"cross", z, x, y, s0, c.eps0},
      // T: i's axis along e, j's across; chi' term of i alone
      {"T", z, z, x, s0 * std::sqrt((li2 + dj2) / (di2 + dj2)),
       c.eps0 * std::pow(1 - (si - ei) / (si + ej), c.mu)},
      {"end_to_end", z, z, z, s0 * std::sqrt((li2 + lj2) / (di2 + dj2)),
       par * std::pow((ei + ej) / (si + sj), c.mu)},
  };
}
}    // namespace

TEST(GayBerne, ContactDistancesAndWellDepths)
{
  // U = 0 at r = sigma, U = -eps and no force at r = sigma + (2^(1/6) - 1) dw sigma0
  for (const Case &c : all_cases()) {
    if (c.shift) continue;
    const double w = c.dw * sigma0_of(c);
    for (const Named &n : named_configs(c)) {
      const Result at_contact = eval(c.p, n.sigma * n.e, n.ui, n.uj);
      EXPECT_NEAR(at_contact.u, 0.0, 1e-12 * n.eps) << c.name << " " << n.name;
      const double rmin = n.sigma + (TWO16 - 1) * w;
      const Result at_min = eval(c.p, rmin * n.e, n.ui, n.uj);
      EXPECT_NEAR(at_min.u, -n.eps, 1e-12 * n.eps) << c.name << " " << n.name;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(at_min.fj[d], 0.0, 1e-11 * n.eps / w) << c.name << " " << n.name;
      // a true minimum along e
      EXPECT_GT(eval(c.p, (rmin - 0.01 * w) * n.e, n.ui, n.uj).u, at_min.u);
      EXPECT_GT(eval(c.p, (rmin + 0.01 * w) * n.e, n.ui, n.uj).u, at_min.u);
    }
  }
}

TEST(GayBerne, IdenticalParticlesTheClassicNumbers)
{
  // Gay and Berne's own form for identical particles: chi = (l^2 - d^2)/(l^2 + d^2),
  // chi' = (eps_S^(1/mu) - eps_E^(1/mu)) / (eps_S^(1/mu) + eps_E^(1/mu)); under Cleaver's
  // rule contacts sqrt(2) d (side by side) and sqrt(2) l (end to end); side-by-side depth
  // eps_X (1 - chi^2)^(-nu/2); end-to-end / side-by-side depth = eps_E / eps_S
  for (double nu : {1.0, 2.0}) {
    for (double mu : {2.0, 1.0, 3.0}) {
      const Type t = ROD;
      const double eps_x = 0.85;
      const Case c = make_case("rod", t, t, eps_x, 1.0, mu, nu, GayBerneSigma0::cleaver, 9.0);
      const double chi = (t.l * t.l - t.d * t.d) / (t.l * t.l + t.d * t.d);
      const double eps_ss = eps_x * std::pow(1 - chi * chi, -0.5 * nu);
      const V3 x = axis(0), z = axis(2);
      const double sig_ss = std::sqrt(2.0) * t.d, sig_ee = std::sqrt(2.0) * t.l;
      const double w = sig_ss;    // dw sigma0
      EXPECT_NEAR(eval(c.p, sig_ss * z, x, x).u, 0.0, 1e-12);
      EXPECT_NEAR(eval(c.p, sig_ee * z, z, z).u, 0.0, 1e-12);
      const double u_ss = eval(c.p, (sig_ss + (TWO16 - 1) * w) * z, x, x).u;
      const double u_ee = eval(c.p, (sig_ee + (TWO16 - 1) * w) * z, z, z).u;
      EXPECT_NEAR(u_ss, -eps_ss, 1e-12 * eps_ss) << "mu=" << mu << " nu=" << nu;
      EXPECT_NEAR(u_ee / u_ss, t.eps_e / t.eps_s, 1e-12) << "mu=" << mu << " nu=" << nu;
    }
  }
  // for the ROD type (l/d = 3, eps_S/eps_E = 5, mu = 2, nu = 1: Gay and Berne's set as it
  // is usually quoted; the 1981 paper not read here) chi = 0.8, the side-by-side well is
  // 1/sqrt(1 - 0.64) = 5/3 deep and the end-to-end one 1/3
  const Case c = make_case("gb81", ROD, ROD, 1.0, 1.0, 2.0, 1.0, GayBerneSigma0::cleaver, 9.0);
  const V3 x = axis(0), z = axis(2);
  const double w = std::sqrt(2.0);
  EXPECT_NEAR(eval(c.p, (w + (TWO16 - 1) * w) * z, x, x).u, -5.0 / 3.0, 1e-12);
  EXPECT_NEAR(eval(c.p, (3 * w + (TWO16 - 1) * w) * z, z, z).u, -1.0 / 3.0, 1e-12);
}

TEST(GayBerne, SphereFeelsNoTorqueAndHasNoOrientation)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    const bool i_sphere = c.ti.d == c.ti.l, j_sphere = c.tj.d == c.tj.l;
    if (!i_sphere && !j_sphere) continue;
    for (int k = 0; k < 100; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, -0.1, 3.0, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      // the sphere's u replaced by another direction, or by zero
      const V3 other = k % 2 ? rng.direction() : V3{{0, 0, 0}};
      const Result b = i_sphere ? eval(c.p, r, other, uj) : eval(c.p, r, ui, other);
      EXPECT_NEAR(b.u, a.u, 1e-14 * scale_of(a)) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(i_sphere ? a.ti[d] : a.tj[d], 0.0) << c.name;
        EXPECT_NEAR(b.fj[d], a.fj[d], 1e-13 * scale_of(a)) << c.name;
      }
      // the ellipsoid alone carries the torque that balances the moment of the force
      EXPECT_GT(norm(i_sphere ? a.tj : a.ti), 0.0) << c.name;
    }
  }
}

TEST(GayBerne, CutoffAndShift)
{
  Rng rng;
  for (const Case &c : all_cases()) {
    for (int k = 0; k < 50; ++k) {
      const V3 e = rng.direction(), ui = rng.direction(), uj = rng.direction();
      // at (along an axis: |r| exactly rc) and beyond the cutoff: nothing, outputs zeroed
      for (V3 r : {c.rc * axis(k % 3), c.rc * (1 + 1e-12) * e, 1.5 * c.rc * e}) {
        Result a;
        a.u = 1;
        a.fj = a.ti = a.tj = V3{{1, 1, 1}};
        a.inside = gay_berne_pair(c.p, r.v, ui.v, uj.v, a.u, a.fj.v, a.ti.v, a.tj.v);
        EXPECT_FALSE(a.inside);
        EXPECT_EQ(a.u, 0.0);
        for (int d = 0; d < 3; ++d) EXPECT_TRUE(a.fj[d] == 0 && a.ti[d] == 0 && a.tj[d] == 0);
      }
      EXPECT_FALSE(eval(c.p, 1e-11 * c.rc * e, ui, uj).inside);    // no direction
      // just inside: the shifted energy goes to 0 for every orientation, the plain one not
      const Result in = eval(c.p, c.rc * (1 - 1e-9) * e, ui, uj);
      ASSERT_TRUE(in.inside);
      double sigma, eps;
      sigma_eps_ref(c, e, ui, uj, sigma, eps);
      const double w = c.dw * sigma0_of(c), rr = w / (c.rc - sigma + w), r6 = std::pow(rr, 6);
      const double u_rc = 4 * eps * (r6 * r6 - r6);
      if (c.shift) {
        EXPECT_NEAR(in.u, 0.0, 1e-15 * c.eps0 + 1e-6 * std::fabs(u_rc)) << c.name;
      } else {
        EXPECT_NEAR(in.u, u_rc, 1e-8 * std::fabs(u_rc)) << c.name;
        EXPECT_LT(in.u, 0.0) << c.name;
      }
    }
  }
  // the shift U(rc, orientations) is a constant at fixed e, u_i, u_j: the energies differ by
  // it and the force along e (-dU/dr at fixed cosines) is the same; the angular force and
  // the torques change, since the shift depends on the orientations
  const Case a = make_case("a", ROD, SHORT, 1.1, 0.9, 2.0, 1.0, GayBerneSigma0::cleaver, 4.5);
  const Case b = make_case("b", ROD, SHORT, 1.1, 0.9, 2.0, 1.0, GayBerneSigma0::cleaver, 4.5, true);
  const V3 e = unit(V3{{0.2, 0.3, 0.9}}), ui = unit(V3{{0.5, -0.4, 0.3}}), uj = axis(1);
  const double r = 3.0;
  const Result ra = eval(a.p, r * e, ui, uj), rb = eval(b.p, r * e, ui, uj);
  EXPECT_NEAR(ra.u - rb.u, energy_ref(a, a.rc * (1 - 1e-15) * e, ui, uj), 1e-12 * std::fabs(ra.u));
  EXPECT_NEAR(dot(ra.fj, e), dot(rb.fj, e), 1e-13 * norm(ra.fj));
  EXPECT_GT(norm(ra.fj - rb.fj), 1e-3 * norm(ra.fj));
  EXPECT_GT(norm(ra.ti - rb.ti), 1e-3 * norm(ra.ti));
}

TEST(GayBerne, FloatInstantiation)
{
  // the same template in float (the GPU's precision) follows the double result
  using PF = mesogpu::physics::GayBerneParams<float>;
  using TF = mesogpu::physics::GayBerneType<float>;
  Rng rng;
  for (const Case &c : all_cases()) {
    const TF ti{float(c.ti.d), float(c.ti.l), float(c.ti.eps_s), float(c.ti.eps_e)};
    const TF tj{float(c.tj.d), float(c.tj.l), float(c.tj.eps_s), float(c.tj.eps_e)};
    const PF pf = make_gay_berne_params<float>(ti, tj, float(c.eps0), float(c.dw), float(c.mu),
                                               float(c.nu), c.rule, float(c.rc), c.shift);
    for (int k = 0; k < 50; ++k) {
      V3 r, ui, uj;
      if (!random_config(rng, c, 0.05, 2.5, r, ui, uj)) continue;
      const Result a = eval(c.p, r, ui, uj);
      float rf[3], uif[3], ujf[3], u, fj[3], ti_[3], tj_[3];
      for (int d = 0; d < 3; ++d) {
        rf[d] = float(r[d]);
        uif[d] = float(ui[d]);
        ujf[d] = float(uj[d]);
      }
      ASSERT_TRUE(gay_berne_pair(pf, rf, uif, ujf, u, fj, ti_, tj_));
      const double s = scale_of(a);
      EXPECT_NEAR(u, a.u, 2e-4 * s) << c.name;
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(fj[d], a.fj[d], 2e-4 * s) << c.name;
        EXPECT_NEAR(ti_[d], a.ti[d], 2e-4 * s) << c.name;
        EXPECT_NEAR(tj_[d], a.tj[d], 2e-4 * s) << c.name;
      }
    }
  }
}
