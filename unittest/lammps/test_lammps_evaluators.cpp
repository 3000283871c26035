/* The evaluators of src/physics/ that port LAMMPS styles (the physics of lj/cut/cuda,
   gauss/cuda, harmonic/cut/cuda, dpd/cuda, the harmonic/cuda and fene/cuda bonds, the
   harmonic/cuda and cosine/squared/cuda angles, the harmonic/cuda and charmm/cuda
   dihedrals) against LAMMPS's own CPU styles as an independent implementation, in double
   precision on one rank:
   - pairs and bonds: Pair::single() and Bond::single() over a range of r (near 0, inside,
     at and beyond the cutoff), several type pairs (explicit and mixed coefficients) and
     special factors;
   - dpd: single() gives the conservative part; the dissipative and random terms against
     the header's formula written out here with vectors, and conservative + dissipative
     against LAMMPS's compute() at T = 0 (no random force) with velocities;
   - angles and dihedrals: energies against single() (angles; LAMMPS's dihedrals have
     none) and pe/atom of `run 0`, forces against the per-atom forces of `run 0`, and
     against central differences of the evaluator's own energy.
   The evaluators' parameters are built here from the numbers given to LAMMPS, with the
   conventions of the headers and of Engine::set_*() (engine.cu), and the evaluators are
   called as the kernels of engine.cu call them. */

#include "angle.h"
#include "atom.h"
#include "bond.h"
#include "compute.h"
#include "dihedral.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "pair.h"

#include "lmp_session.h"
#include "physics/angle.h"
#include "physics/bond_fene.h"
#include "physics/bond_harmonic.h"
#include "physics/dihedral.h"
#include "physics/pair_dpd.h"
#include "physics/pair_gauss.h"
#include "physics/pair_harmonic_cut.h"
#include "physics/pair_lj_cut.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <mpi.h>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace ph = mesogpu::physics;

namespace {

const double PI = 3.14159265358979323846;
const double DEG = PI / 180.0;

// where evaluator and LAMMPS do the same arithmetic (at most in another order, or with
// pow() against products) they agree to a few ulp
const double REL = 1e-12;

// allowed |a - b| for reference value ref: relative, with the quantity's natural scale
// as the floor where it goes through zero
double tol(double ref, double scale, double rel = REL)
{
  return rel * (std::fabs(ref) + scale);
}

using Vec = std::array<double, 3>;

Vec sub(const Vec &a, const Vec &b)
{
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec &a, const Vec &b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const Vec &a)
{
  return std::sqrt(dot(a, a));
}
Vec cross(const Vec &a, const Vec &b)
{
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec scaled(const Vec &a, double s)
{
  return {a[0] * s, a[1] * s, a[2] * s};
}
Vec add(const Vec &a, const Vec &b)
{
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}

struct Rng {
  std::mt19937_64 g;
  explicit Rng(unsigned seed) : g(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
  double gauss() { return std::normal_distribution<double>(0.0, 1.0)(g); }
  Vec unit()
  {
    Vec v{gauss(), gauss(), gauss()};
    return scaled(v, 1.0 / norm(v));
  }
  // a unit vector perpendicular to the unit vector e
  Vec perpendicular(const Vec &e)
  {
    Vec v = unit();
    v = sub(v, scaled(e, dot(v, e)));
    return scaled(v, 1.0 / norm(v));
  }
};

// full precision in commands, so that LAMMPS holds the same doubles
std::string num(double x)
{
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

/* ---------------------------------------------------------------------- */
/* pairs                                                                   */

// one pair's evaluation: F/r and energy for rsq, without gate or special factor
using PairEval = std::function<void(double rsq, double &fdivr, double &e)>;

struct PairCase {
  PairEval eval;
  double rmin;              // smallest distance probed
  double escale, fscale;    // floors of the tolerance for energy and F/r
};

// the pair as pair_forces_kernel handles it (engine.cu): nothing at or beyond the
// cutoff, the special factor on force and energy
void kernel_pair(const PairEval &eval, double rsq, double cutsq, double factor, double &fdivr,
                 double &e)
{
  fdivr = e = 0.0;
  if (rsq >= cutsq) return;
  eval(rsq, fdivr, e);
  fdivr *= factor;
  e *= factor;
}

// the pair as LAMMPS's compute() handles it, through single()
void lammps_pair(LAMMPS_NS::Pair *pair, int it, int jt, double rsq, double factor, double &fdivr,
                 double &e)
{
  fdivr = e = 0.0;
  if (rsq >= pair->cutsq[it][jt]) return;
  e = pair->single(0, 1, it, jt, rsq, 1.0, factor, fdivr);
}

// distances from rmin to 1.25 rc, and the cutoff itself with its two neighbours
std::vector<double> radii(double rmin, double rc)
{
  std::vector<double> r;
  const int n = 400;
  for (int k = 0; k <= n; ++k) r.push_back(rmin + (1.25 * rc - rmin) * k / n);
  for (double x : {1.0 - 1e-9, 1.0, 1.0 + 1e-9}) r.push_back(rc * x);
  return r;
}

// every type pair (both orders), distance and special factor; the gate is LAMMPS's cutsq,
// as the device gets it from device_setup()
void compare_pairs(LAMMPS_NS::LAMMPS *lmp, const std::function<PairCase(int, int)> &make,
                   const std::vector<double> &factors = {1.0, 0.5, 0.0})
{
  LAMMPS_NS::Pair *pair = lmp->force->pair;
  const int nt = lmp->atom->ntypes;
  int checked = 0;
  for (int it = 1; it <= nt; ++it)
    for (int jt = 1; jt <= nt; ++jt) {
      const PairCase c = make(it, jt);
      const double cutsq = pair->cutsq[it][jt];
      for (double r : radii(c.rmin, std::sqrt(cutsq)))
        for (double factor : factors) {
          const double rsq = r * r;
          double fe, ee, fl, el;
          kernel_pair(c.eval, rsq, cutsq, factor, fe, ee);
          lammps_pair(pair, it, jt, rsq, factor, fl, el);
          SCOPED_TRACE("types " + std::to_string(it) + " " + std::to_string(jt) + " r " + num(r) +
                       " factor " + num(factor));
          EXPECT_NEAR(ee, el, tol(el, c.escale));
          EXPECT_NEAR(fe, fl, tol(fl, c.fscale));
          ++checked;
        }
    }
  EXPECT_GT(checked, 1000);
}

// LAMMPS's LJ mixing (geometric, the lj/cut default) for the pairs not given explicitly
struct LJCoeff {
  double eps, sigma, cut;
};
LJCoeff lj_mix(const LJCoeff &a, const LJCoeff &b)
{
  return {std::sqrt(a.eps * b.eps), std::sqrt(a.sigma * b.sigma), std::sqrt(a.cut * b.cut)};
}

// the conversion the header documents (lj1..lj4, offset = V(rc) with shift)
ph::LJCutParams<double> lj_params(const LJCoeff &c, bool shift)
{
  const double s6 = c.sigma * c.sigma * c.sigma * c.sigma * c.sigma * c.sigma;
  const double s12 = s6 * s6;
  ph::LJCutParams<double> p{48.0 * c.eps * s12, 24.0 * c.eps * s6, 4.0 * c.eps * s12,
                            4.0 * c.eps * s6, 0.0};
  if (shift) {
    const double x6 = s6 / std::pow(c.cut, 6.0);
    p.offset = 4.0 * c.eps * (x6 * x6 - x6);
  }
  return p;
}

/* ---------------------------------------------------------------------- */
/* angles and dihedrals: many small molecules in one LAMMPS system          */

// what `run 0` gives back, per molecule: coordinates as LAMMPS holds them, per-atom
// forces, and the style's energy (pe/atom summed over the molecule's atoms)
struct Bonded {
  std::vector<std::vector<Vec>> x, f;
  std::vector<double> e;
  std::vector<std::vector<int>> index;    // local indices, for single()
};

class EvaluatorsLammps : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // a box with ntypes atom types and no atoms, for single()
  void empty_box(int ntypes, const std::string &extra = "")
  {
    cmd("units lj");
    cmd("atom_style full");
    cmd("region box block 0 10 0 10 0 10");
    cmd("create_box " + std::to_string(ntypes) + " box " + extra);
    cmd("mass * 1.0");
  }

  // one molecule per entry of mols (n = 3: an angle 1-2-3, n = 4: a dihedral 1-2-3-4) of
  // type types[m], each centred on its own site of a grid in a non-periodic box; the
  // style's commands, `run 0`, and the results by molecule
  Bonded run_bonded(const std::vector<std::vector<Vec>> &mols, const std::vector<int> &types,
                    int ntypes, const std::vector<std::string> &style)
  {
    const int nmol = mols.size(), n = mols[0].size();
    const std::string kind = n == 3 ? "angle" : "dihedral";
    const double spacing = 8.0;
    int side = 1;
    while (side * side * side < nmol) ++side;
    const double half = 0.5 * spacing * side;
    cmd("units lj");
    cmd("atom_style full");
    cmd("boundary f f f");
    cmd("atom_modify map array sort 0 0.0");
    cmd("region box block " + num(-half) + " " + num(half) + " " + num(-half) + " " + num(half) +
        " " + num(-half) + " " + num(half));
    cmd("create_box 1 box " + kind + "/types " + std::to_string(ntypes) + " extra/" + kind +
        "/per/atom 1");
    cmd("mass 1 1.0");
    for (int m = 0; m < nmol; ++m) {
      const Vec c{-half + spacing * (m % side + 0.5), -half + spacing * (m / side % side + 0.5),
                  -half + spacing * (m / (side * side) + 0.5)};
      for (const Vec &a : mols[m]) {
        const Vec p = add(c, a);
        cmd("create_atoms 1 single " + num(p[0]) + " " + num(p[1]) + " " + num(p[2]));
      }
      std::string line = "create_bonds single/" + kind + " " + std::to_string(types[m]);
      for (int k = 1; k <= n; ++k) line += " " + std::to_string(n * m + k);
      cmd(line + " special no");
    }
    s->cmds(style);
    cmd("compute pea all pe/atom " + kind);
    cmd("compute tot all reduce sum c_pea");    // makes pe/atom be tallied on step 0
    cmd("thermo_style custom step pe c_tot");
    cmd("run 0 post no");

    auto *atom = lmp()->atom;
    const double *pea = lmp()->modify->get_compute_by_id("pea")->vector_atom;
    Bonded b;
    b.x.assign(nmol, std::vector<Vec>(n));
    b.f = b.x;
    b.e.assign(nmol, 0.0);
    b.index.assign(nmol, std::vector<int>(n));
    for (int m = 0; m < nmol; ++m)
      for (int k = 0; k < n; ++k) {
        const int i = atom->map(n * m + k + 1);
        b.index[m][k] = i;
        b.x[m][k] = {atom->x[i][0], atom->x[i][1], atom->x[i][2]};
        b.f[m][k] = {atom->f[i][0], atom->f[i][1], atom->f[i][2]};
        b.e[m] += pea[i];
      }
    return b;
  }
};

/* angles ---------------------------------------------------------------- */

struct AngleCoeff {
  double k, theta0_deg;
};

// as Engine::set_angle(): theta0 in radians and its cosine
ph::AngleParams<double> angle_params(const AngleCoeff &c)
{
  const double t = c.theta0_deg * DEG;
  return {c.k, t, std::cos(t)};
}

template <ph::AngleKind Kind>
double angle_eval(const std::vector<Vec> &x, const ph::AngleParams<double> &p, Vec f[3])
{
  // as angle_forces_kernel: d1 = x1 - x2, d2 = x3 - x2, atom 2 takes -f1 - f3
  const Vec d1 = sub(x[0], x[1]), d2 = sub(x[2], x[1]);
  double e;
  ph::angle_force<Kind, double>(d1.data(), d2.data(), p, f[0].data(), f[2].data(), e);
  for (int d = 0; d < 3; ++d) f[1][d] = -f[0][d] - f[2][d];
  return e;
}

double bend_angle(const std::vector<Vec> &x)
{
  const Vec d1 = sub(x[0], x[1]), d2 = sub(x[2], x[1]);
  return std::acos(std::max(-1.0, std::min(1.0, dot(d1, d2) / (norm(d1) * norm(d2)))));
}

// the size of the terms a11 d1 and a12 d2 whose sum is a force: near 0 and 180 degrees
// the harmonic prefactor a = -2 K dtheta / sin grows (up to the clamp sin = 0.001) while
// the force stays small, so one rounding of a (LAMMPS multiplies by 1/sin, the evaluator
// divides by sin) shows at ~1e-16 of these terms rather than of the force
double angle_term_scale(const std::vector<Vec> &x, const AngleCoeff &c, bool harmonic)
{
  const double r = std::min(norm(sub(x[0], x[1])), norm(sub(x[2], x[1])));
  const double a = harmonic ? 2.0 * c.k * PI / std::max(std::sin(bend_angle(x)), 0.001) : 4.0 * c.k;
  return c.k + 2.0 * a / r;
}

// an angle of theta (radians) with random orientation and arm lengths, apex at 0
std::vector<Vec> angle_geometry(Rng &rng, double theta)
{
  const Vec u = rng.unit(), p = rng.perpendicular(u);
  const Vec v = add(scaled(u, std::cos(theta)), scaled(p, std::sin(theta)));
  return {scaled(u, rng.uniform(0.8, 1.5)), Vec{0, 0, 0}, scaled(v, rng.uniform(0.8, 1.5))};
}

// random angles from 2 to 178 degrees, and the edge cases: exactly 0 and 180 degrees
// (axis-aligned, so the cosine is exactly +-1), near them (0.05 degrees is inside
// LAMMPS's sin clamp of 0.001), and 90 degrees
std::vector<std::vector<Vec>> angle_geometries(Rng &rng, int nrandom)
{
  std::vector<std::vector<Vec>> g;
  for (int k = 0; k < nrandom; ++k) g.push_back(angle_geometry(rng, rng.uniform(2, 178) * DEG));
  g.push_back({Vec{1.1, 0, 0}, Vec{0, 0, 0}, Vec{-0.9, 0, 0}});
  g.push_back({Vec{0, 1.1, 0}, Vec{0, 0, 0}, Vec{0, 0.7, 0}});
  for (double t : {0.05, 1.0, 90.0, 179.9, 179.99}) g.push_back(angle_geometry(rng, t * DEG));
  return g;
}

/* dihedrals ------------------------------------------------------------- */

// a dihedral with bonds b1..b3, bond angles th1, th2 and torsion phi (radians), randomly
// oriented, atom 2 at 0
std::vector<Vec> dihedral_geometry(Rng &rng, double b1, double b2, double b3, double th1,
                                   double th2, double phi)
{
  const Vec e = rng.unit(), p = rng.perpendicular(e), q = cross(e, p);
  const Vec x2{0, 0, 0};
  const Vec x3 = scaled(e, b2);
  const Vec x1 = add(scaled(e, b1 * std::cos(th1)), scaled(p, b1 * std::sin(th1)));
  const Vec u3 = add(scaled(e, -std::cos(th2)), add(scaled(p, std::sin(th2) * std::cos(phi)),
                                                    scaled(q, std::sin(th2) * std::sin(phi))));
  return {x1, x2, x3, add(x3, scaled(u3, b3))};
}

double min_distance(const std::vector<Vec> &x)
{
  double d = 1e300;
  for (size_t a = 0; a < x.size(); ++a)
    for (size_t b = a + 1; b < x.size(); ++b) d = std::min(d, norm(sub(x[a], x[b])));
  return d;
}

// random torsions with bond angles 35..145 degrees (away from the collinear
// singularity) and the planar cis/trans cases and a few fixed torsions; no two atoms
// closer than 0.75, so that a pair style of cutoff 0.6 sees nothing
std::vector<std::vector<Vec>> dihedral_geometries(Rng &rng, int nrandom)
{
  std::vector<std::vector<Vec>> g;
  auto one = [&](double phi) {
    for (;;) {
      auto x = dihedral_geometry(rng, rng.uniform(0.9, 1.5), rng.uniform(0.9, 1.5),
                                 rng.uniform(0.9, 1.5), rng.uniform(35, 145) * DEG,
                                 rng.uniform(35, 145) * DEG, phi);
      if (min_distance(x) > 0.75) return x;
    }
  };
  for (int k = 0; k < nrandom; ++k) g.push_back(one(rng.uniform(-180, 180) * DEG));
  for (double phi : {0.0, 180.0, 90.0, -90.0, 60.0, -120.0}) g.push_back(one(phi * DEG));
  return g;
}

double dihedral_eval(const std::vector<Vec> &x, const ph::DihedralParams<double> &p, Vec f[4])
{
  // as dihedral_forces_kernel: vb1 = x1 - x2, vb2 = x3 - x2, vb3 = x4 - x3
  const Vec vb1 = sub(x[0], x[1]), vb2 = sub(x[2], x[1]), vb3 = sub(x[3], x[2]);
  double e;
  ph::dihedral_force<double>(vb1.data(), vb2.data(), vb3.data(), p, f[0].data(), f[1].data(),
                             f[2].data(), f[3].data(), e);
  return e;
}

/* central differences ---------------------------------------------------- */

// -dE/dx of every coordinate of every atom by central differences of energy(x).
// h = 1e-5 against lengths of order 1: the truncation error h^2/6 |E'''| stays below
// 3e-8 of the force scale for these geometries (bond angles kept away from 0 and 180
// degrees where it matters; largest for the harmonic angle near sin = 0.05), rounding,
// ~1e-16 |E| / h, is near 1e-11; the tolerance, 1e-6 of the force scale, is well above
// both and far below a wrong term.
const double FD_H = 1e-5;
const double FD_REL = 1e-6;

std::vector<Vec> fd_forces(std::vector<Vec> x,
                           const std::function<double(const std::vector<Vec> &)> &energy)
{
  std::vector<Vec> f(x.size());
  for (size_t a = 0; a < x.size(); ++a)
    for (int d = 0; d < 3; ++d) {
      const double x0 = x[a][d];
      x[a][d] = x0 + FD_H;
      const double ep = energy(x);
      x[a][d] = x0 - FD_H;
      const double em = energy(x);
      x[a][d] = x0;
      f[a][d] = -(ep - em) / (2 * FD_H);
    }
  return f;
}

}    // namespace

/* ---------------------------------------------------------------------- */
/* pair styles                                                             */

// lj/cut: types 1..3 of their own coefficients, 1-2 given explicitly, 1-3 and 2-3 mixed
// (geometric); with and without pair_modify shift
static void check_lj_cut(LmpSession *s, bool shift)
{
  const LJCoeff c11{1.0, 1.0, 2.5}, c22{0.5, 1.2, 3.0}, c33{2.0, 0.8, 2.0}, c12{0.75, 1.1, 2.8};
  s->cmd("units lj");
  s->cmd("atom_style atomic");
  s->cmd("region box block 0 10 0 10 0 10");
  s->cmd("create_box 3 box");
  s->cmd("mass * 1.0");
  s->cmd("pair_style lj/cut 2.5");
  s->cmd(std::string("pair_modify shift ") + (shift ? "yes" : "no"));
  s->cmd("pair_coeff 1 1 1.0 1.0 2.5");
  s->cmd("pair_coeff 2 2 0.5 1.2 3.0");
  s->cmd("pair_coeff 3 3 2.0 0.8 2.0");
  s->cmd("pair_coeff 1 2 0.75 1.1 2.8");
  s->lmp->init();
  const LJCoeff diag[4] = {{}, c11, c22, c33};
  compare_pairs(s->lmp, [&](int i, int j) {
    const LJCoeff c = (std::min(i, j) == 1 && std::max(i, j) == 2)
                          ? c12
                          : (i == j ? diag[i] : lj_mix(diag[i], diag[j]));
    const auto p = lj_params(c, shift);
    return PairCase{[p](double rsq, double &f, double &e) {
                      ph::EvaluatorLJCut<double>(rsq, p).evaluate(f, e);
                    },
                    0.5 * c.sigma, c.eps, 48.0 * c.eps / (c.sigma * c.sigma)};
  });
}

TEST_F(EvaluatorsLammps, PairLJCutShift)
{
  check_lj_cut(s, true);
  // the documented offset makes the energy vanish at the cutoff
  double f, e;
  ph::EvaluatorLJCut<double>(2.5 * 2.5, lj_params({1.0, 1.0, 2.5}, true)).evaluate(f, e);
  EXPECT_NEAR(e, 0.0, 1e-15);
}

TEST_F(EvaluatorsLammps, PairLJCutNoShift)
{
  check_lj_cut(s, false);
}

// gauss: every type pair given, attractive (A > 0) and repulsive (A < 0, GALAMOST's
// Gaussian repulsion), shift on; r down to 0 where the potential is finite
TEST_F(EvaluatorsLammps, PairGauss)
{
  struct C {
    double a, b, cut;
  };
  const C c[4][4] = {{},
                     {{}, {2.0, 1.5, 2.5}, {-1.0, 0.8, 3.0}, {0.5, 3.0, 1.5}},
                     {{}, {-1.0, 0.8, 3.0}, {-3.0, 0.5, 3.5}, {1.2, 1.0, 2.0}},
                     {{}, {0.5, 3.0, 1.5}, {1.2, 1.0, 2.0}, {-0.4, 2.2, 2.2}}};
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("region box block 0 10 0 10 0 10");
  cmd("create_box 3 box");
  cmd("mass * 1.0");
  cmd("pair_style gauss 2.5");
  cmd("pair_modify shift yes");
  for (int i = 1; i <= 3; ++i)
    for (int j = i; j <= 3; ++j)
      cmd("pair_coeff " + std::to_string(i) + " " + std::to_string(j) + " " + num(c[i][j].a) + " " +
          num(c[i][j].b) + " " + num(c[i][j].cut));
  lmp()->init();
  compare_pairs(lmp(), [&](int i, int j) {
    const C &q = c[i][j];
    // offset as LAMMPS's offset[i][j] = A exp(-B rc^2), which device_setup() passes on
    const ph::GaussParams<double> p{q.a, q.b, q.a * std::exp(-q.b * q.cut * q.cut)};
    return PairCase{[p](double rsq, double &f, double &e) {
                      ph::EvaluatorGauss<double>(rsq, p).evaluate(f, e);
                    },
                    0.0, std::fabs(q.a), 2.0 * std::fabs(q.a) * q.b};
  });
  // with that offset the energy vanishes at the cutoff
  const ph::GaussParams<double> p{-1.0, 0.8, -1.0 * std::exp(-0.8 * 3.0 * 3.0)};
  double f, e;
  ph::EvaluatorGauss<double>(9.0, p).evaluate(f, e);
  EXPECT_NEAR(e, 0.0, 1e-15);
}

// harmonic/cut: every type pair given; near r = 0 (F/r ~ 1/r), and at r = 0 itself,
// where LAMMPS divides by zero and the evaluator returns no force
TEST_F(EvaluatorsLammps, PairHarmonicCut)
{
  struct C {
    double k, cut;
  };
  const C c[4][4] = {{},
                     {{}, {5.0, 1.0}, {0.5, 2.0}, {12.0, 0.7}},
                     {{}, {0.5, 2.0}, {3.0, 1.5}, {1.0, 1.2}},
                     {{}, {12.0, 0.7}, {1.0, 1.2}, {25.0, 0.9}}};
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("region box block 0 10 0 10 0 10");
  cmd("create_box 3 box");
  cmd("mass * 1.0");
  cmd("pair_style harmonic/cut");
  for (int i = 1; i <= 3; ++i)
    for (int j = i; j <= 3; ++j)
      cmd("pair_coeff " + std::to_string(i) + " " + std::to_string(j) + " " + num(c[i][j].k) + " " +
          num(c[i][j].cut));
  lmp()->init();
  compare_pairs(lmp(), [&](int i, int j) {
    const ph::HarmonicCutParams<double> p{c[i][j].k, c[i][j].cut};
    return PairCase{[p](double rsq, double &f, double &e) {
                      ph::EvaluatorHarmonicCut<double>(rsq, p).evaluate(f, e);
                    },
                    1e-6, c[i][j].k * c[i][j].cut * c[i][j].cut, 2.0 * c[i][j].k};
  });
  const ph::HarmonicCutParams<double> p{5.0, 1.0};
  double f, e;
  ph::EvaluatorHarmonicCut<double>(0.0, p).evaluate(f, e);
  EXPECT_EQ(f, 0.0);
  EXPECT_EQ(e, 5.0);
}

/* dpd -------------------------------------------------------------------- */

namespace {
struct DPDCoeff {
  double a0, gamma, cut;
};
const DPDCoeff DPD_C[3][3] = {
    {}, {{}, {25.0, 4.5, 1.0}, {40.0, 3.0, 1.2}}, {{}, {40.0, 3.0, 1.2}, {15.0, 6.0, 0.8}}};

// as PairDPD::init_one() and device_setup(): sigma = sqrt(2 kB T gamma), lj units
ph::DPDParams<double> dpd_params(const DPDCoeff &c, double temperature)
{
  return {c.a0, c.gamma, std::sqrt(2.0 * temperature * c.gamma), c.cut};
}

void dpd_system(LmpSession *s, double temperature, bool atoms_box = false)
{
  s->cmd("units lj");
  s->cmd("atom_style atomic");
  s->cmd("comm_modify vel yes");
  s->cmd("atom_modify map array sort 0 0.0");
  s->cmd(atoms_box ? "region box block 0 24 0 24 0 24" : "region box block 0 10 0 10 0 10");
  s->cmd("create_box 2 box");
  s->cmd("mass * 1.0");
  s->cmd("pair_style dpd " + num(temperature) + " 1.0 34387");
  for (int i = 1; i <= 2; ++i)
    for (int j = i; j <= 2; ++j)
      s->cmd("pair_coeff " + std::to_string(i) + " " + std::to_string(j) + " " +
             num(DPD_C[i][j].a0) + " " + num(DPD_C[i][j].gamma) + " " + num(DPD_C[i][j].cut));
}
}    // namespace

// the conservative part: single() against the evaluator with xi = 0 and no relative
// velocity (dot = 0); the kernel skips r < 1e-10 as LAMMPS does
TEST_F(EvaluatorsLammps, PairDPDConservative)
{
  dpd_system(s, 1.0);
  lmp()->init();
  const double dtinvsqrt = 1.0 / std::sqrt(0.04);
  auto *pair = lmp()->force->pair;
  int checked = 0;
  for (int i = 1; i <= 2; ++i)
    for (int j = 1; j <= 2; ++j) {
      const auto p = dpd_params(DPD_C[i][j], 1.0);
      const double cutsq = pair->cutsq[i][j];
      std::vector<double> r = radii(1e-6, std::sqrt(cutsq));
      r.push_back(0.0);
      r.push_back(1e-11);
      for (double rr : r)
        for (double factor : {1.0, 0.5, 0.0}) {
          const double rsq = rr * rr;
          double fe = 0, ee = 0, fl, el;
          // dpd_forces_kernel: the cutoff test, then dpd_pair() (which takes the factor)
          if (rsq < cutsq &&
              !ph::dpd_pair<double>(rsq, 0.0, 0.0, dtinvsqrt, factor, std::sqrt(factor), p, fe, ee))
            fe = ee = 0.0;
          lammps_pair(pair, i, j, rsq, factor, fl, el);
          SCOPED_TRACE("types " + std::to_string(i) + " " + std::to_string(j) + " r " + num(rr) +
                       " factor " + num(factor));
          EXPECT_NEAR(ee, el, tol(el, p.a0 * p.cut));
          EXPECT_NEAR(fe, fl, tol(fl, p.a0));
          ++checked;
        }
    }
  EXPECT_GT(checked, 1000);
}

// the whole force against the header's formula written out with vectors,
//   F_i = f_s [a0 w - gamma w^2 (rhat.v)] rhat + sqrt(f_s) sigma w xi / sqrt(dt) rhat,
// with w = 1 - r/rc, v = v_i - v_j, and V = f_s a0 rc w^2 / 2 (whose -dV/dr is the
// conservative term: checked by central differences, h = 1e-6, where V is a quadratic in r
// and the difference quotient is exact up to rounding ~1e-16 a0 rc / h)
TEST_F(EvaluatorsLammps, PairDPDDissipativeRandom)
{
  Rng rng(2024);
  const double dt = 0.04, dtinvsqrt = 1.0 / std::sqrt(dt);
  for (int k = 0; k < 2000; ++k) {
    const DPDCoeff &c = DPD_C[1 + k % 2][1 + (k / 2) % 2];
    const auto p = dpd_params(c, rng.uniform(0.1, 2.0));
    const Vec del = scaled(rng.unit(), rng.uniform(0.01, 0.999) * c.cut);
    const Vec dv{rng.gauss(), rng.gauss(), rng.gauss()};
    const double xi = rng.gauss();
    const double factor = (k % 3 == 0) ? 1.0 : (k % 3 == 1 ? 0.5 : 0.25);
    double fdivr, e;
    ASSERT_TRUE(ph::dpd_pair<double>(dot(del, del), dot(del, dv), xi, dtinvsqrt, factor,
                                     std::sqrt(factor), p, fdivr, e));
    const double r = norm(del), w = 1.0 - r / c.cut;
    const Vec rhat = scaled(del, 1.0 / r);
    const Vec fc = scaled(rhat, c.a0 * w);
    const Vec fd = scaled(rhat, -c.gamma * w * w * dot(rhat, dv));
    const Vec fr = scaled(rhat, p.sigma * w * xi / std::sqrt(dt));
    const Vec fref = add(scaled(add(fc, fd), factor), scaled(fr, std::sqrt(factor)));
    const double scale = norm(fc) + norm(fd) + norm(fr);
    SCOPED_TRACE("sample " + std::to_string(k));
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(fdivr * del[d], fref[d], tol(fref[d], scale));
    EXPECT_NEAR(e, factor * 0.5 * c.a0 * c.cut * w * w, tol(e, c.a0 * c.cut));
    // conservative force = -dV/dr (gamma = sigma = 0)
    const ph::DPDParams<double> pc{c.a0, 0.0, 0.0, c.cut};
    double fp, ep, fm, em, f0, e0;
    const double h = 1e-6;
    ph::dpd_pair<double>((r + h) * (r + h), 0.0, 0.0, dtinvsqrt, factor, 0.0, pc, fp, ep);
    ph::dpd_pair<double>((r - h) * (r - h), 0.0, 0.0, dtinvsqrt, factor, 0.0, pc, fm, em);
    ph::dpd_pair<double>(r * r, 0.0, 0.0, dtinvsqrt, factor, 0.0, pc, f0, e0);
    EXPECT_NEAR(f0 * r, -(ep - em) / (2 * h), 1e-8 * c.a0);
  }
}

// conservative + dissipative against LAMMPS's compute() on pairs of atoms with velocities
// at T = 0, where sigma = 0 and LAMMPS's random force vanishes (the device's xi is drawn
// anyway, as the kernel does); every pair of atoms far from the others
TEST_F(EvaluatorsLammps, PairDPDCompute)
{
  dpd_system(s, 0.0, true);
  Rng rng(77);
  const int npair = 60;
  std::vector<int> ti(npair), tj(npair);
  for (int m = 0; m < npair; ++m) {
    ti[m] = 1 + m % 2;
    tj[m] = 1 + (m / 2) % 2;
    const Vec c{4.0 * (m % 6) + 2.0, 4.0 * (m / 6 % 6) + 2.0, 4.0 * (m / 36) + 2.0};
    const Vec del = scaled(rng.unit(), rng.uniform(0.05, 1.3) * DPD_C[ti[m]][tj[m]].cut);
    const Vec a = add(c, scaled(del, 0.5)), b = sub(c, scaled(del, 0.5));
    cmd("create_atoms " + std::to_string(ti[m]) + " single " + num(a[0]) + " " + num(a[1]) + " " +
        num(a[2]));
    cmd("create_atoms " + std::to_string(tj[m]) + " single " + num(b[0]) + " " + num(b[1]) + " " +
        num(b[2]));
  }
  auto *atom = lmp()->atom;
  for (int i = 0; i < atom->nlocal; ++i)
    for (int d = 0; d < 3; ++d) atom->v[i][d] = rng.gauss();
  cmd("timestep 0.04");
  cmd("thermo_style custom step pe");
  cmd("run 0 post no");

  const double dtinvsqrt = 1.0 / std::sqrt(0.04);
  double etot = 0.0, escale = 0.0;
  int inside = 0;
  for (int m = 0; m < npair; ++m) {
    const int i = atom->map(2 * m + 1), j = atom->map(2 * m + 2);
    Vec del, dv;
    for (int d = 0; d < 3; ++d) {
      del[d] = atom->x[i][d] - atom->x[j][d];
      dv[d] = atom->v[i][d] - atom->v[j][d];
    }
    const double rsq = dot(del, del);
    const auto p = dpd_params(DPD_C[ti[m]][tj[m]], 0.0);
    double fdivr = 0.0, e = 0.0;
    const double xi = ph::dpd_gaussian(34387u, 2 * m + 1, 2 * m + 2, 0);
    if (rsq < lmp()->force->pair->cutsq[ti[m]][tj[m]]) {
      ASSERT_TRUE(ph::dpd_pair<double>(rsq, dot(del, dv), xi, dtinvsqrt, 1.0, 1.0, p, fdivr, e));
      ++inside;
    }
    etot += e;
    escale += p.a0 * p.cut;
    SCOPED_TRACE("pair " + std::to_string(m));
    for (int d = 0; d < 3; ++d) {
      const double scale = p.a0 + p.gamma * norm(dv);
      EXPECT_NEAR(fdivr * del[d], atom->f[i][d], tol(atom->f[i][d], scale));
      EXPECT_NEAR(-fdivr * del[d], atom->f[j][d], tol(atom->f[j][d], scale));
    }
  }
  EXPECT_GT(inside, 30);
  EXPECT_LT(inside, npair);
  EXPECT_NEAR(etot, lmp()->force->pair->eng_vdwl, tol(etot, escale));
}

/* ---------------------------------------------------------------------- */
/* bonds                                                                   */

TEST_F(EvaluatorsLammps, BondHarmonic)
{
  empty_box(1, "bond/types 3");
  cmd("bond_style harmonic");
  const double k[4] = {0, 100.0, 5.0, 0.5}, r0[4] = {0, 1.0, 1.5, 0.0};
  for (int t = 1; t <= 3; ++t)
    cmd("bond_coeff " + std::to_string(t) + " " + num(k[t]) + " " + num(r0[t]));
  auto *bond = lmp()->force->bond;
  for (int t = 1; t <= 3; ++t) {
    const ph::BondHarmonicParams<double> p{k[t], r0[t]};
    for (int n = 0; n <= 300; ++n) {
      const double r = 3.0 * n / 300;    // from r = 0, where both give no force
      double fe, ee, fl;
      ASSERT_TRUE(ph::bond_harmonic<double>(r * r, p, fe, ee));
      const double el = bond->single(t, r * r, 0, 1, fl);
      SCOPED_TRACE("type " + std::to_string(t) + " r " + num(r));
      EXPECT_NEAR(ee, el, tol(el, k[t]));
      EXPECT_NEAR(fe, fl, tol(fl, 2 * k[t]));
    }
  }
}

// fene: Kremer-Grest, a softer one, and one without the WCA part; r from deep in the
// WCA core through the clamp region (r^2 > 0.9 R0^2, LAMMPS warns) to just below 2 R0
TEST_F(EvaluatorsLammps, BondFENE)
{
  empty_box(1, "bond/types 3");
  cmd("bond_style fene");
  const double k[4] = {0, 30.0, 10.0, 50.0}, r0[4] = {0, 1.5, 2.0, 1.2},
               eps[4] = {0, 1.0, 0.5, 0.0}, sig[4] = {0, 1.0, 1.2, 1.0};
  for (int t = 1; t <= 3; ++t)
    cmd("bond_coeff " + std::to_string(t) + " " + num(k[t]) + " " + num(r0[t]) + " " + num(eps[t]) +
        " " + num(sig[t]));
  auto *bond = lmp()->force->bond;
  for (int t = 1; t <= 3; ++t) {
    const ph::BondFENEParams<double> p{k[t], r0[t], eps[t], sig[t]};
    std::vector<double> rs;
    for (int n = 0; n <= 400; ++n)
      rs.push_back(0.7 * sig[t] + (2.0 * r0[t] - 0.7 * sig[t]) * n / 401);
    const double rclamp = std::sqrt(0.9) * r0[t];
    for (double x : {rclamp * (1 - 1e-9), rclamp * (1 + 1e-9), r0[t], 2.0 * r0[t] * (1 - 1e-12),
                     std::pow(2.0, 1.0 / 6.0) * sig[t]})
      rs.push_back(x);
    for (double r : rs) {
      double fe, ee, fl;
      const bool ok = ph::bond_fene<double>(r * r, p, fe, ee);
      const double el = bond->single(t, r * r, 0, 1, fl);
      SCOPED_TRACE("type " + std::to_string(t) + " r " + num(r));
      EXPECT_TRUE(ok);
      EXPECT_NEAR(ee, el, tol(el, k[t] * r0[t] * r0[t]));
      EXPECT_NEAR(fe, fl, tol(fl, k[t] + 48 * eps[t] / (sig[t] * sig[t])));
    }
  }
}

// at r >= 2 R0 LAMMPS stops ("Bad FENE bond"); the evaluator says false (the kernel then
// records ERR_BAD_FENE and the run stops) and still gives the clamped values
TEST_F(EvaluatorsLammps, BondFENETooLong)
{
  empty_box(1, "bond/types 1");
  cmd("bond_style fene");
  cmd("bond_coeff 1 30.0 1.5 1.0 1.0");
  const ph::BondFENEParams<double> p{30.0, 1.5, 1.0, 1.0};
  for (double r : {3.0, 3.1, 10.0}) {
    double fe, ee, fl;
    EXPECT_FALSE(ph::bond_fene<double>(r * r, p, fe, ee)) << "r " << r;
    EXPECT_DOUBLE_EQ(fe, -30.0 / 0.1);
    EXPECT_ANY_THROW(lmp()->force->bond->single(1, r * r, 0, 1, fl)) << "r " << r;
  }
}

/* ---------------------------------------------------------------------- */
/* angles                                                                  */

class AnglesLammps : public EvaluatorsLammps {
 protected:
  template <ph::AngleKind Kind>
  void check(const std::string &style, const std::vector<AngleCoeff> &coeffs, unsigned seed)
  {
    Rng rng(seed);
    std::vector<std::vector<Vec>> mols;
    std::vector<int> types;
    const int nt = coeffs.size();
    for (int t = 1; t <= nt; ++t)
      for (auto &g : angle_geometries(rng, 40)) {
        mols.push_back(g);
        types.push_back(t);
      }
    std::vector<std::string> cmds{"angle_style " + style};
    for (int t = 1; t <= nt; ++t)
      cmds.push_back("angle_coeff " + std::to_string(t) + " " + num(coeffs[t - 1].k) + " " +
                     num(coeffs[t - 1].theta0_deg));
    const Bonded b = run_bonded(mols, types, nt, cmds);
    auto *angle = lmp()->force->angle;
    double etot = 0.0, escale = 0.0;
    for (size_t m = 0; m < mols.size(); ++m) {
      const AngleCoeff &c = coeffs[types[m] - 1];
      Vec f[3];
      const double e = angle_eval<Kind>(b.x[m], angle_params(c), f);
      const double es = angle->single(types[m], b.index[m][0], b.index[m][1], b.index[m][2]);
      SCOPED_TRACE("molecule " + std::to_string(m) + " type " + std::to_string(types[m]) +
                   " theta " + num(bend_angle(b.x[m]) / DEG));
      EXPECT_NEAR(e, es, tol(es, c.k));
      EXPECT_NEAR(e, b.e[m], tol(b.e[m], c.k));
      const double fscale = angle_term_scale(b.x[m], c, Kind == ph::AngleKind::harmonic);
      for (int a = 0; a < 3; ++a)
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[a][d], b.f[m][a][d], tol(b.f[m][a][d], fscale));
      etot += e;
      escale += c.k;
    }
    EXPECT_NEAR(etot, angle->energy, tol(etot, escale));
  }
};

// theta0 = 180 (straight chains) among them: the harmonic 180-degree geometry then sits at
// the minimum, another type has it at the clamped sin
TEST_F(AnglesLammps, Harmonic)
{
  check<ph::AngleKind::harmonic>("harmonic",
                                 {{30.0, 110.0}, {100.0, 180.0}, {2.5, 60.0}, {50.0, 90.0}}, 11);
}

TEST_F(AnglesLammps, CosineSquared)
{
  check<ph::AngleKind::cosine_squared>(
      "cosine/squared", {{20.0, 180.0}, {5.0, 109.47}, {50.0, 90.0}, {12.0, 30.0}}, 12);
}

// forces against central differences of the evaluator's energy; the harmonic angle only
// where sin(theta) > 0.05: below LAMMPS's clamp (sin < 0.001) the force is not -dE/dx
// by design, and near it E''' grows as 1/sin^2
template <ph::AngleKind Kind>
static void angle_fd(const std::vector<AngleCoeff> &coeffs, unsigned seed)
{
  Rng rng(seed);
  int checked = 0;
  for (const AngleCoeff &c : coeffs) {
    const auto p = angle_params(c);
    for (auto &x : angle_geometries(rng, 100)) {
      const double th = bend_angle(x);
      if (Kind == ph::AngleKind::harmonic && std::sin(th) < 0.05) continue;
      Vec f[3];
      angle_eval<Kind>(x, p, f);
      const auto fd = fd_forces(x, [&](const std::vector<Vec> &y) {
        Vec g[3];
        return angle_eval<Kind>(y, p, g);
      });
      double scale = c.k;
      for (int a = 0; a < 3; ++a) scale = std::max(scale, norm(f[a]));
      SCOPED_TRACE("k " + num(c.k) + " theta0 " + num(c.theta0_deg) + " theta " + num(th / DEG));
      for (int a = 0; a < 3; ++a)
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[a][d], fd[a][d], FD_REL * scale);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(EvaluatorFiniteDifferences, AngleHarmonic)
{
  angle_fd<ph::AngleKind::harmonic>({{30.0, 110.0}, {100.0, 180.0}, {2.5, 60.0}, {50.0, 90.0}}, 21);
}

// including exactly 0 and 180 degrees, where cos^2 is smooth
TEST(EvaluatorFiniteDifferences, AngleCosineSquared)
{
  angle_fd<ph::AngleKind::cosine_squared>(
      {{20.0, 180.0}, {5.0, 109.47}, {50.0, 90.0}, {12.0, 30.0}}, 22);
}

/* ---------------------------------------------------------------------- */
/* dihedrals                                                               */

namespace {
// dihedral_style harmonic K d n: cos_shift = d, sin_shift = 0 (as DihedralHarmonic::coeff())
struct HarmonicDihedral {
  double k;
  int d, n;
};
ph::DihedralParams<double> dihedral_params(const HarmonicDihedral &c)
{
  return {c.k, double(c.d), 0.0, c.n};
}
// dihedral_style charmm K n shift(degrees) weight: cos and sin of the shift
struct CharmmDihedral {
  double k;
  int n, shift;
};
ph::DihedralParams<double> dihedral_params(const CharmmDihedral &c)
{
  return {c.k, std::cos(c.shift * DEG), std::sin(c.shift * DEG), c.n};
}

const std::vector<HarmonicDihedral> HARMONIC_DIHEDRALS = {
    {2.5, 1, 1}, {1.2, -1, 2}, {0.8, 1, 3}, {3.0, -1, 4}, {1.5, -1, 1}, {0.6, 1, 2}, {1.0, 1, 0}};
const std::vector<CharmmDihedral> CHARMM_DIHEDRALS = {{1.5, 1, 0},  {0.7, 2, 180}, {2.0, 3, -60},
                                                      {0.4, 4, 90}, {1.1, 1, 45},  {0.9, 0, 30}};
}    // namespace

class DihedralsLammps : public EvaluatorsLammps {
 protected:
  // weight > 0: eps14 and sigma14 for the charmm pair style, whose 1-4 LJ
  // force LAMMPS adds to atoms 1 and 4 (the torsion itself does not depend on the weight)
  template <class Coeff>
  void check(const std::string &style, const std::vector<Coeff> &coeffs,
             const std::function<std::string(const Coeff &)> &coeff_args, unsigned seed,
             double weight = 0.0, double eps14 = 0.0, double sigma14 = 1.0)
  {
    Rng rng(seed);
    std::vector<std::vector<Vec>> mols;
    std::vector<int> types;
    const int nt = coeffs.size();
    for (int t = 1; t <= nt; ++t)
      for (auto &g : dihedral_geometries(rng, 30)) {
        mols.push_back(g);
        types.push_back(t);
      }
    std::vector<std::string> cmds;
    if (weight > 0.0) {
      // cutoffs below every distance in the molecules (min_distance > 0.75): the pair
      // style computes nothing itself, only the dihedral's weighted 1-4 term
      cmds = {"pair_style lj/charmm/coul/charmm 0.5 0.6",
              "pair_coeff 1 1 0.2 1.1 " + num(eps14) + " " + num(sigma14), "special_bonds charmm"};
    }
    cmds.push_back("dihedral_style " + style);
    for (int t = 1; t <= nt; ++t)
      cmds.push_back("dihedral_coeff " + std::to_string(t) + " " + coeff_args(coeffs[t - 1]));
    const Bonded b = run_bonded(mols, types, nt, cmds);
    double etot = 0.0, escale = 0.0, e14tot = 0.0;
    for (size_t m = 0; m < mols.size(); ++m) {
      const Coeff &c = coeffs[types[m] - 1];
      Vec f[4];
      const double e = dihedral_eval(b.x[m], dihedral_params(c), f);
      double fscale = c.k * std::max(c.n, 1);
      if (weight > 0.0) {
        // LAMMPS's 1-4 LJ: weight 4 eps14 [(s/r)^12 - (s/r)^6], written out here
        const Vec del = sub(b.x[m][0], b.x[m][3]);
        const double rsq = dot(del, del), sr2 = sigma14 * sigma14 / rsq;
        const double sr6 = sr2 * sr2 * sr2;
        const double fpair = weight * 24.0 * eps14 * sr6 * (2.0 * sr6 - 1.0) / rsq;
        e14tot += weight * 4.0 * eps14 * sr6 * (sr6 - 1.0);
        fscale += std::fabs(fpair) * std::sqrt(rsq);
        for (int d = 0; d < 3; ++d) {
          f[0][d] += del[d] * fpair;
          f[3][d] -= del[d] * fpair;
        }
      }
      SCOPED_TRACE("molecule " + std::to_string(m) + " type " + std::to_string(types[m]));
      EXPECT_NEAR(e, b.e[m], tol(b.e[m], c.k));
      for (int a = 0; a < 4; ++a)
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[a][d], b.f[m][a][d], tol(b.f[m][a][d], fscale));
      etot += e;
      escale += c.k;
    }
    EXPECT_NEAR(etot, lmp()->force->dihedral->energy, tol(etot, escale));
    if (weight > 0.0) EXPECT_NEAR(e14tot, lmp()->force->pair->eng_vdwl, tol(e14tot, eps14));
  }
};

// d = +1 and -1, n = 0..4
TEST_F(DihedralsLammps, Harmonic)
{
  check<HarmonicDihedral>(
      "harmonic", HARMONIC_DIHEDRALS,
      [](const HarmonicDihedral &c) {
        return num(c.k) + " " + std::to_string(c.d) + " " + std::to_string(c.n);
      },
      31);
}

// weight 0: the torsion alone (what charmm/cuda supports)
TEST_F(DihedralsLammps, CharmmWeight0)
{
  check<CharmmDihedral>(
      "charmm", CHARMM_DIHEDRALS,
      [](const CharmmDihedral &c) {
        return num(c.k) + " " + std::to_string(c.n) + " " + std::to_string(c.shift) + " 0.0";
      },
      32);
}

// weight 1: LAMMPS adds the 1-4 LJ to atoms 1 and 4 (charmm/cuda refuses this); the
// torsion part is the same
TEST_F(DihedralsLammps, CharmmWeight1)
{
  check<CharmmDihedral>(
      "charmm", CHARMM_DIHEDRALS,
      [](const CharmmDihedral &c) {
        return num(c.k) + " " + std::to_string(c.n) + " " + std::to_string(c.shift) + " 1.0";
      },
      33, 1.0, 0.35, 0.95);
}

template <class Coeff> static void dihedral_fd(const std::vector<Coeff> &coeffs, unsigned seed)
{
  Rng rng(seed);
  int checked = 0;
  for (const Coeff &c : coeffs) {
    const auto p = dihedral_params(c);
    for (auto &x : dihedral_geometries(rng, 60)) {
      Vec f[4];
      dihedral_eval(x, p, f);
      const auto fd = fd_forces(x, [&](const std::vector<Vec> &y) {
        Vec g[4];
        return dihedral_eval(y, p, g);
      });
      double scale = c.k * std::max(c.n, 1);
      for (int a = 0; a < 4; ++a) scale = std::max(scale, norm(f[a]));
      SCOPED_TRACE("k " + num(c.k) + " n " + std::to_string(c.n));
      for (int a = 0; a < 4; ++a)
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[a][d], fd[a][d], FD_REL * scale);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(EvaluatorFiniteDifferences, DihedralHarmonic)
{
  dihedral_fd(HARMONIC_DIHEDRALS, 41);
}

TEST(EvaluatorFiniteDifferences, DihedralCharmm)
{
  dihedral_fd(CHARMM_DIHEDRALS, 42);
}
