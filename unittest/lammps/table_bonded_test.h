/* Shared by test_lammps_table_bonded.cpp and test_lammps_table_dihedral.cpp: the table
   files (written from analytic potentials), geometries, the evaluators called as the
   kernels call them, central differences, and the fixture that builds molecules and
   runs `run 0`. */
#ifndef MESOGPU_UNITTEST_TABLE_BONDED_TEST_H
#define MESOGPU_UNITTEST_TABLE_BONDED_TEST_H

#include "atom.h"
#include "compute.h"
#include "lammps.h"
#include "modify.h"

#include "lmp_session.h"
#include <mpi.h>
#include "physics/angle_table.h"
#include "physics/bond_table.h"
#include "physics/dihedral_table.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace ph = mesogpu::physics;

namespace table_test {

const double PI = 3.14159265358979323846;
const double DEG = PI / 180.0;

using Vec = std::array<double, 3>;
inline Vec sub(const Vec &a, const Vec &b)
{
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec add(const Vec &a, const Vec &b)
{
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec scaled(const Vec &a, double s)
{
  return {a[0] * s, a[1] * s, a[2] * s};
}
inline double dot(const Vec &a, const Vec &b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline double norm(const Vec &a)
{
  return std::sqrt(dot(a, a));
}
inline Vec cross(const Vec &a, const Vec &b)
{
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

struct Rng {
  std::mt19937_64 g;
  explicit Rng(unsigned seed) : g(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
  Vec unit()
  {
    std::normal_distribution<double> n(0.0, 1.0);
    Vec v{n(g), n(g), n(g)};
    return scaled(v, 1.0 / norm(v));
  }
  Vec perpendicular(const Vec &e)
  {
    Vec v = unit();
    v = sub(v, scaled(e, dot(v, e)));
    return scaled(v, 1.0 / norm(v));
  }
};

inline std::string num(double x)
{
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

// the same arithmetic in the same order: equal to the last bits; 1e-13 leaves room for
// a compiler's reassociation only
const double REL = 1e-13;
inline double tol(double ref, double scale, double rel = REL)
{
  return rel * (std::fabs(ref) + scale);
}

// a file in a fresh folder of this process, removed at the end of the test program
inline std::string table_path(const std::string &name)
{
  static const std::string dir = [] {
    std::string d = "/tmp/mesogpu_table_bonded_" + std::to_string(getpid());
    std::string c = "mkdir -p " + d;
    EXPECT_EQ(std::system(c.c_str()), 0);
    return d;
  }();
  return dir + "/" + name;
}

// a section of a LAMMPS table file: keyword, parameter line, rows (index, x, e[, f])
inline void write_section(std::ofstream &out, const std::string &keyword, const std::string &params,
                          const std::vector<std::vector<double>> &rows)
{
  out << "\n" << keyword << "\n" << params << "\n\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    out << i + 1;
    for (double v : rows[i]) out << " " << num(v);
    out << "\n";
  }
}

/* ---------------------------------------------------------------------- */
/* analytic potentials the tables are written from                         */

// bonds: E = K (r - r0)^2 + A (r - r0)^3, f = -dE/dr
struct BondPot {
  double k, r0, a;
  double e(double r) const { return k * (r - r0) * (r - r0) + a * std::pow(r - r0, 3); }
  double f(double r) const { return -(2 * k * (r - r0) + 3 * a * (r - r0) * (r - r0)); }
  double fp(double r) const { return -(2 * k + 6 * a * (r - r0)); }    // df/dr
};
const BondPot BOND1{50.0, 1.0, -20.0}, BOND2{30.0, 1.2, 0.0};

// angles (theta in radians): E = K (theta - t0)^2 + B (cos theta - c0)^2, f = -dE/dtheta
struct AnglePot {
  double k, t0, b, c0;
  double e(double t) const
  {
    return k * (t - t0) * (t - t0) + b * (std::cos(t) - c0) * (std::cos(t) - c0);
  }
  double f(double t) const
  {
    return -(2 * k * (t - t0) - 2 * b * (std::cos(t) - c0) * std::sin(t));
  }
};
const AnglePot ANGLE1{20.0, 110 * DEG, 0.0, 0.0}, ANGLE2{5.0, 150 * DEG, 10.0, -0.5};

// dihedrals: E = K1 (1 + cos phi) + K2 (1 - cos 2 phi) + K3 sin(phi - 0.3), f = -dE/dphi
struct DihedralPot {
  double k1, k2, k3;
  double e(double p) const
  {
    return k1 * (1 + std::cos(p)) + k2 * (1 - std::cos(2 * p)) + k3 * std::sin(p - 0.3);
  }
  double f(double p) const
  {
    return -(-k1 * std::sin(p) + 2 * k2 * std::sin(2 * p) + k3 * std::cos(p - 0.3));
  }
};
const DihedralPot DIH1{2.0, 1.0, 0.5}, DIH2{1.0, 0.5, -0.8};

// the bond file: BOND1 on [0.6, 1.8] (81 points, r0 from the minimum), BOND2 on
// [0.7, 2.0] (61 points, FP and EQ given)
inline std::string bond_file()
{
  const std::string path = table_path("bond.table");
  std::ofstream out(path);
  out << "# mesogpu test: tabulated bonds\n";
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 81; ++i) {
    const double r = 0.6 + 1.2 * i / 80;
    rows.push_back({r, BOND1.e(r), BOND1.f(r)});
  }
  write_section(out, "BOND_CUBIC", "N 81", rows);
  rows.clear();
  for (int i = 0; i < 61; ++i) {
    const double r = 0.7 + 1.3 * i / 60;
    rows.push_back({r, BOND2.e(r), BOND2.f(r)});
  }
  write_section(out, "BOND_HARMONIC",
                "N 61 FP " + num(BOND2.fp(0.7)) + " " + num(BOND2.fp(2.0)) + " EQ 1.2", rows);
  return path;
}

// the angle file (degrees, forces per degree): ANGLE1 on 181 points, ANGLE2 on 91
inline std::string angle_file()
{
  const std::string path = table_path("angle.table");
  std::ofstream out(path);
  out << "# mesogpu test: tabulated angles\n";
  for (int which = 1; which <= 2; ++which) {
    const AnglePot &p = which == 1 ? ANGLE1 : ANGLE2;
    const int n = which == 1 ? 181 : 91;
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i) {
      const double deg = 180.0 * i / (n - 1);
      rows.push_back({deg, p.e(deg * DEG), p.f(deg * DEG) * DEG});
    }
    write_section(out, which == 1 ? "ANGLE_A" : "ANGLE_B", "N " + std::to_string(n), rows);
  }
  // bad: ends at 170 degrees
  std::vector<std::vector<double>> rows;
  for (int i = 0; i <= 17; ++i) rows.push_back({10.0 * i, ANGLE1.e(10 * i * DEG), 0.0});
  write_section(out, "ANGLE_SHORT", "N 18", rows);
  return path;
}

// the dihedral file: DIH1 in degrees from -180 (72 points, forces per degree), DIH1 in
// radians from 0 without forces (NOF, 60 points), DIH2 in degrees from -90 without
// forces (90 points), DIH2 in radians from -pi/3 with forces (50 points)
inline std::string dihedral_file()
{
  const std::string path = table_path("dihedral.table");
  std::ofstream out(path);
  out << "# mesogpu test: tabulated dihedrals\n";
  auto section = [&](const std::string &key, const DihedralPot &p, int n, double start_rad,
                     bool degrees, bool forces) {
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i) {
      const double phi = start_rad + 2 * PI * i / n;
      std::vector<double> row{degrees ? phi / DEG : phi, p.e(phi)};
      if (forces) row.push_back(degrees ? p.f(phi) * DEG : p.f(phi));
      rows.push_back(row);
    }
    std::string params = "N " + std::to_string(n) + (degrees ? " DEGREES" : " RADIANS");
    if (!forces) params += " NOF";
    write_section(out, key, params, rows);
  };
  section("DIH_DEG_F", DIH1, 72, -PI, true, true);
  section("DIH_RAD_NOF", DIH1, 60, 0.0, false, false);
  section("DIH_DEG_NOF", DIH2, 90, -PI / 2, true, false);
  section("DIH_RAD_F", DIH2, 50, -PI / 3, false, true);
  // bad: 0 to 360 degrees (a full period plus one point)
  std::vector<std::vector<double>> rows;
  for (int i = 0; i <= 36; ++i) rows.push_back({10.0 * i, DIH1.e(10 * i * DEG)});
  write_section(out, "DIH_WIDE", "N 37 DEGREES NOF", rows);
  // bad: forces of the wrong sign
  rows.clear();
  for (int i = 0; i < 36; ++i)
    rows.push_back({10.0 * i, DIH1.e(10 * i * DEG), -DIH1.f(10 * i * DEG) * DEG});
  write_section(out, "DIH_BADF", "N 36 DEGREES", rows);
  // bad: not increasing
  rows = {{0.0, 1.0}, {20.0, 2.0}, {10.0, 3.0}, {30.0, 4.0}};
  write_section(out, "DIH_ORDER", "N 4 DEGREES NOF", rows);
  return path;
}

/* ---------------------------------------------------------------------- */
/* geometry                                                                */

inline std::vector<Vec> angle_geometry(Rng &rng, double theta)
{
  const Vec u = rng.unit(), p = rng.perpendicular(u);
  const Vec v = add(scaled(u, std::cos(theta)), scaled(p, std::sin(theta)));
  return {scaled(u, rng.uniform(0.8, 1.5)), Vec{0, 0, 0}, scaled(v, rng.uniform(0.8, 1.5))};
}

// random angles, exactly 0 and 180 degrees (axis-aligned), and close to them
inline std::vector<std::vector<Vec>> angle_geometries(Rng &rng, int nrandom)
{
  std::vector<std::vector<Vec>> g;
  for (int k = 0; k < nrandom; ++k) g.push_back(angle_geometry(rng, rng.uniform(1, 179) * DEG));
  g.push_back({Vec{1.1, 0, 0}, Vec{0, 0, 0}, Vec{-0.9, 0, 0}});
  g.push_back({Vec{0, 1.1, 0}, Vec{0, 0, 0}, Vec{0, 0.7, 0}});
  for (double t : {0.05, 1.0, 90.0, 179.0, 179.9, 179.99})
    g.push_back(angle_geometry(rng, t * DEG));
  return g;
}

inline std::vector<Vec> dihedral_geometry(Rng &rng, double b1, double b2, double b3, double th1,
                                          double th2, double phi)
{
  const Vec e = rng.unit(), p = rng.perpendicular(e), q = cross(e, p);
  const Vec x3 = scaled(e, b2);
  const Vec x1 = add(scaled(e, b1 * std::cos(th1)), scaled(p, b1 * std::sin(th1)));
  const Vec u3 = add(scaled(e, -std::cos(th2)), add(scaled(p, std::sin(th2) * std::cos(phi)),
                                                    scaled(q, std::sin(th2) * std::sin(phi))));
  return {x1, Vec{0, 0, 0}, x3, add(x3, scaled(u3, b3))};
}

// random torsions (bond angles 35..145 degrees) and cis, trans and a few fixed torsions
inline std::vector<std::vector<Vec>> dihedral_geometries(Rng &rng, int nrandom)
{
  std::vector<std::vector<Vec>> g;
  auto one = [&](double phi) {
    return dihedral_geometry(rng, rng.uniform(0.9, 1.5), rng.uniform(0.9, 1.5),
                             rng.uniform(0.9, 1.5), rng.uniform(35, 145) * DEG,
                             rng.uniform(35, 145) * DEG, phi);
  };
  for (int k = 0; k < nrandom; ++k) g.push_back(one(rng.uniform(-180, 180) * DEG));
  for (double phi : {0.0, 180.0, 90.0, -90.0, 60.0, -120.0, 1e-7, -1e-7})
    g.push_back(one(phi * DEG));
  // planar, axis-aligned: phi exactly 0 (cis) and exactly pi (trans)
  g.push_back({Vec{1, 1, 0}, Vec{0, 0, 0}, Vec{1.2, 0, 0}, Vec{0.2, 1, 0}});
  g.push_back({Vec{1, 1, 0}, Vec{0, 0, 0}, Vec{1.2, 0, 0}, Vec{2.2, -1, 0}});
  return g;
}

// -dE/dx of every coordinate by central differences of energy(x)
inline std::vector<Vec> fd_forces(std::vector<Vec> x,
                                  const std::function<double(const std::vector<Vec> &)> &energy,
                                  double h)
{
  std::vector<Vec> f(x.size());
  for (size_t a = 0; a < x.size(); ++a)
    for (int d = 0; d < 3; ++d) {
      const double x0 = x[a][d];
      x[a][d] = x0 + h;
      const double ep = energy(x);
      x[a][d] = x0 - h;
      const double em = energy(x);
      x[a][d] = x0;
      f[a][d] = -(ep - em) / (2 * h);
    }
  return f;
}

// the evaluators called as the kernels call them (bonded.cu): differences x1 - x2,
// x3 - x2 (angles), x1 - x2, x3 - x2, x4 - x3 (dihedrals)
inline bool angle_eval(const std::vector<Vec> &x, const ph::AngleTableView<double> &t, Vec f[3],
                       double &e)
{
  const Vec d1 = sub(x[0], x[1]), d2 = sub(x[2], x[1]);
  const bool ok = ph::angle_table<double>(d1.data(), d2.data(), t, f[0].data(), f[2].data(), e);
  for (int d = 0; d < 3; ++d) f[1][d] = -f[0][d] - f[2][d];
  return ok;
}
inline bool dihedral_eval(const std::vector<Vec> &x, const ph::DihedralTableView<double> &t,
                          Vec f[4], double &e)
{
  const Vec vb1 = sub(x[0], x[1]), vb2 = sub(x[2], x[1]), vb3 = sub(x[3], x[2]);
  return ph::dihedral_table<double>(vb1.data(), vb2.data(), vb3.data(), t, f[0].data(), f[1].data(),
                                    f[2].data(), f[3].data(), e);
}

inline double bend_angle(const std::vector<Vec> &x)
{
  const Vec d1 = sub(x[0], x[1]), d2 = sub(x[2], x[1]);
  return std::acos(std::max(-1.0, std::min(1.0, dot(d1, d2) / (norm(d1) * norm(d2)))));
}
// LAMMPS's phi in [0, 2 pi) from the same vectors (an independent formula)
inline double torsion(const std::vector<Vec> &x)
{
  const Vec b1 = sub(x[1], x[0]), b2 = sub(x[2], x[1]), b3 = sub(x[3], x[2]);
  const Vec n1 = cross(b1, b2), n2 = cross(b2, b3);
  const double phi = std::atan2(norm(b2) * dot(b1, n2), dot(n1, n2));
  return phi < 0 ? phi + 2 * PI : phi;
}

/* ---------------------------------------------------------------------- */

// per molecule: coordinates, forces of `run 0`, energy (pe/atom summed), local indices
struct Bonded {
  std::vector<std::vector<Vec>> x, f;
  std::vector<double> e;
  std::vector<std::vector<int>> index;
};

class TableBonded : public ::testing::Test {
 public:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // one molecule per entry of mols (3 atoms: an angle, 4: a dihedral) of type types[m] on
  // its own grid site in a non-periodic box; the style's commands, `run 0`
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
    cmd("compute tot all reduce sum c_pea");
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

}    // namespace table_test

#endif
