/* bond_style, angle_style and dihedral_style table/cuda on the host: the evaluators of
   src/physics/bond_table.h, angle_table.h and dihedral_table.h, reading the tables the
   /cuda styles pack for the engine (pack(), what device_setup() hands over), against
   LAMMPS's own CPU styles (the /cuda styles' parents), in double precision on one rank:
   - bonds: Bond::single() over r from below the table start to beyond its end, inside
     (same energy and force to ~1e-13) and outside (LAMMPS stops with an error exactly
     where the evaluator refuses);
   - angles and dihedrals: per-molecule energies (pe/atom) and per-atom forces of `run 0`
     for many random geometries and the edge cases (0 and 180 degree angles; cis and
     trans torsions), angle energies also against Angle::single();
   - every table kind: linear and spline, bond tables with and without FP/EQ, dihedral
     tables with and without forces (NOF), in degrees and in radians, starting at a
     negative angle (LAMMPS re-images it);
   - the analytic potential the files were written from (interpolation error only), and
     the evaluators' forces against central differences of their own energy;
   - bad input: the /cuda styles stop with the CPU styles' errors.
   The table files are written here from analytic functions. */

#include "angle.h"
#include "bond.h"
#include "force.h"

#include "cuda/angle_table_cuda.h"
#include "cuda/bond_table_cuda.h"
#include "table_bonded_test.h"

using namespace table_test;

/* ---------------------------------------------------------------------- */
/* bonds                                                                   */

static void check_bonds(TableBonded &T, const std::string &interp, int tablength)
{
  LmpSession *s = T.s;
  const std::string file = bond_file();
  s->cmds({"units lj", "atom_style bond", "region box block 0 10 0 10 0 10",
           "create_box 1 box bond/types 2", "mass 1 1.0",
           "bond_style table/cuda " + interp + " " + std::to_string(tablength),
           "bond_coeff 1 " + file + " BOND_CUBIC", "bond_coeff 2 " + file + " BOND_HARMONIC"});
  LAMMPS_NS::Bond *bond = s->lmp->force->bond;
  ASSERT_STREQ(s->lmp->force->bond_style, "table/cuda");
  const mesogpu::cuda::HostBondTable p = static_cast<LAMMPS_NS::BondTableCuda *>(bond)->pack();
  const bool spline = interp == "spline";
  ASSERT_EQ(p.ntables(), 2);
  EXPECT_EQ(p.tablength, tablength);
  EXPECT_EQ(p.interp, static_cast<int>(spline ? ph::TableInterp::spline : ph::TableInterp::linear));
  EXPECT_EQ(p.table_of_type, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(p.e.size(), 2u * tablength);
  EXPECT_DOUBLE_EQ(bond->equilibrium_distance(2), 1.2);    // EQ of the file

  for (int t = 1; t <= 2; ++t) {
    const BondPot &pot = t == 1 ? BOND1 : BOND2;
    const ph::BondTableView<double> v = p.view(p.table_of_type[t]);
    EXPECT_DOUBLE_EQ(v.lo, t == 1 ? 0.6 : 0.7);
    EXPECT_DOUBLE_EQ(v.hi, t == 1 ? 1.8 : 2.0);
    std::vector<double> radii;
    for (int k = 0; k <= 3000; ++k)    // from lo - 0.4 to hi + 0.4
      radii.push_back(v.lo - 0.4 + (v.hi - v.lo + 0.8) * k / 3000);
    for (double x : {0.0, 0.5, 0.999, 1.0, 1.001, 1.5})
      radii.insert(radii.end(), {v.lo - x * v.delta, v.hi + x * v.delta});
    int matched = 0, refused = 0;
    const double escale = 10.0, fscale = 100.0;
    for (double r0 : radii) {
      const double rsq = r0 * r0, r = std::sqrt(rsq);
      double fb, e;
      const bool ok = ph::bond_table<double>(rsq, v, fb, e);
      SCOPED_TRACE("type " + std::to_string(t) + " r " + num(r));
      if (spline && r > v.hi) {    // LAMMPS would read past its arrays here
        EXPECT_FALSE(ok);
        ++refused;
        continue;
      }
      double fl = 0, el = 0;
      bool lammps_ok = true;
      try {
        el = bond->single(t, rsq, 0, 0, fl);
      } catch (std::exception &) {
        lammps_ok = false;
      }
      EXPECT_EQ(ok, lammps_ok);
      if (!ok) {
        EXPECT_EQ(fb, 0.0);
        EXPECT_EQ(e, 0.0);
        ++refused;
        continue;
      }
      if (!lammps_ok) continue;
      ++matched;
      EXPECT_NEAR(e, el, tol(el, escale));
      EXPECT_NEAR(fb, fl, tol(fl, fscale));
      if (r >= v.lo && r <= v.hi) {    // the potential the file was written from
        // (type 1 has no FP: LAMMPS estimates f' at the ends from the first two points)
        EXPECT_NEAR(e, pot.e(r), (spline ? 1e-5 : 2e-3) * (std::fabs(e) + 1));
        EXPECT_NEAR(fb * r, pot.f(r), (spline ? 1e-4 : 2e-3) * (std::fabs(pot.f(r)) + 10));
      }
      // spline: the force table and the energy table agree to interpolation error
      if (spline && r > v.lo + v.delta && r < v.hi - v.delta) {
        const double h = 1e-6;
        double f1, e1, f2, e2;
        ph::bond_table<double>((r + h) * (r + h), v, f1, e1);
        ph::bond_table<double>((r - h) * (r - h), v, f2, e2);
        EXPECT_NEAR(fb * r, -(e1 - e2) / (2 * h), 1e-4 * (std::fabs(fb * r) + fscale));
      }
    }
    EXPECT_GT(matched, 1500);
    EXPECT_GT(refused, 1000);    // below lo - delta and above hi (+ delta with linear)
  }
}

TEST_F(TableBonded, BondLinear)
{
  check_bonds(*this, "linear", 250);
}
TEST_F(TableBonded, BondSpline)
{
  check_bonds(*this, "spline", 173);
}

/* ---------------------------------------------------------------------- */
/* angles                                                                  */

static void check_angles(TableBonded &T, const std::string &interp, int tablength)
{
  LmpSession *s = T.s;
  const std::string file = angle_file();
  Rng rng(11);
  const auto geoms = angle_geometries(rng, 80);
  std::vector<int> types;
  for (size_t m = 0; m < geoms.size(); ++m) types.push_back(m % 2 + 1);
  const Bonded b =
      T.run_bonded(geoms, types, 2,
                   {"angle_style table/cuda " + interp + " " + std::to_string(tablength),
                    "angle_coeff 1 " + file + " ANGLE_A", "angle_coeff 2 " + file + " ANGLE_B"});
  ASSERT_STREQ(s->lmp->force->angle_style, "table/cuda");
  LAMMPS_NS::Angle *angle = s->lmp->force->angle;
  const mesogpu::cuda::HostAngleTable p = static_cast<LAMMPS_NS::AngleTableCuda *>(angle)->pack();
  ASSERT_EQ(p.ntables(), 2);
  EXPECT_EQ(p.table_of_type, (std::vector<int>{-1, 0, 1}));
  const bool spline = interp == "spline";
  for (size_t m = 0; m < geoms.size(); ++m) {
    const AnglePot &pot = types[m] == 1 ? ANGLE1 : ANGLE2;
    const auto v = p.view(p.table_of_type[types[m]]);
    const std::vector<Vec> &x = b.x[m];
    const double theta = bend_angle(x);
    SCOPED_TRACE("molecule " + std::to_string(m) + " theta " + num(theta / DEG));
    Vec f[3];
    double e;
    ASSERT_TRUE(angle_eval(x, v, f, e));
    // the size of the terms a11 d1, a12 d2 that make a force (a = f / sin, sin >= 0.001)
    const double rmin = std::min(norm(sub(x[0], x[1])), norm(sub(x[2], x[1])));
    const double terms = 2 * 60.0 / std::max(std::sin(theta), 0.001) / rmin + 1;
    EXPECT_NEAR(e, b.e[m], tol(b.e[m], 10));
    const int *idx = b.index[m].data();
    const double es = angle->single(types[m], idx[0], idx[1], idx[2]);
    EXPECT_NEAR(e, es, tol(es, 10));
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[k][d], b.f[m][k][d], tol(b.f[m][k][d], terms));
    EXPECT_NEAR(e, pot.e(theta), (spline ? 1e-5 : 1e-3) * (std::fabs(e) + 10));
    // forces against differences of the evaluator's own energy, away from the sin clamp
    if (spline && theta > 3 * DEG && theta < 177 * DEG) {
      const auto fd = fd_forces(
          x,
          [&](const std::vector<Vec> &y) {
            Vec g[3];
            double en;
            angle_eval(y, v, g, en);
            return en;
          },
          1e-6);
      for (int k = 0; k < 3; ++k)
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(f[k][d], fd[k][d], 1e-4 * (std::fabs(fd[k][d]) + 100));
    }
  }
  // an arm of length 0: no angle, refused as LAMMPS refuses it
  const std::vector<Vec> bad{Vec{0, 0, 0}, Vec{0, 0, 0}, Vec{1, 0, 0}};
  Vec f[3];
  double e;
  EXPECT_FALSE(angle_eval(bad, p.view(0), f, e));
}

TEST_F(TableBonded, AngleLinear)
{
  check_angles(*this, "linear", 721);
}
TEST_F(TableBonded, AngleSpline)
{
  check_angles(*this, "spline", 181);
}

/* ---------------------------------------------------------------------- */
/* bad input: the /cuda styles stop where and as the CPU styles stop         */

// the error of the last command of cmds (all earlier ones must pass), with STYLE replaced
// by style; in the message the /cuda style's name is replaced by the CPU style's
static std::string error_with(const std::vector<std::string> &cmds, const std::string &style)
{
  LmpSession s;
  std::string err;
  for (size_t k = 0; k < cmds.size(); ++k) {
    std::string c = cmds[k];
    for (size_t at; (at = c.find("STYLE")) != std::string::npos;) c.replace(at, 5, style);
    err = s.error_of(c);
    if (k + 1 < cmds.size() && !err.empty()) return "unexpected error in '" + c + "': " + err;
  }
  for (size_t at; (at = err.find("table/cuda")) != std::string::npos;) err.replace(at, 10, "table");
  return err;
}

static void expect_same_error(const std::vector<std::string> &cmds, const std::string &expected)
{
  const std::string cpu = error_with(cmds, "table"), dev = error_with(cmds, "table/cuda");
  SCOPED_TRACE(cmds.back());
  EXPECT_NE(cpu.find(expected), std::string::npos) << cpu;
  EXPECT_EQ(dev, cpu);
}

TEST(TableBondedErrors, Bond)
{
  const std::string file = bond_file();
  const std::vector<std::string> box{
      "units lj", "atom_style bond", "region box block 0 10 0 10 0 10",
      "create_box 1 box bond/types 1 extra/bond/per/atom 1", "mass 1 1.0"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> c = box;
    c.insert(c.end(), more.begin(), more.end());
    return c;
  };
  expect_same_error(with({"bond_style STYLE cubic 100"}), "Unknown table style cubic");
  expect_same_error(with({"bond_style STYLE linear 1"}), "Illegal number of bond table entries");
  expect_same_error(with({"bond_style STYLE linear"}), "must have 2 arguments");
  expect_same_error(with({"bond_style STYLE linear 100", "bond_coeff 1 " + file + " NOSUCH"}),
                    "Did not find keyword NOSUCH");
  expect_same_error(with({"bond_style STYLE linear 100", "bond_coeff 1 " + file}),
                    "must have 3 arguments");
  // a bond beyond the table (r = 2.5 > 1.8 + delta) and one below it (0.3 < 0.6 - delta)
  for (double r : {2.5, 0.3})
    expect_same_error(
        with({"create_atoms 1 single 5 5 5", "create_atoms 1 single " + num(5 + r) + " 5 5",
              "create_bonds single/bond 1 1 2", "bond_style STYLE linear 100",
              "bond_coeff 1 " + file + " BOND_CUBIC", "run 0 post no"}),
        r > 1 ? "Bond length > table outer cutoff" : "Bond length < table inner cutoff");
}

TEST(TableBondedErrors, Angle)
{
  const std::string file = angle_file();
  const std::vector<std::string> box{"units lj", "atom_style angle",
                                     "region box block 0 10 0 10 0 10",
                                     "create_box 1 box angle/types 1", "mass 1 1.0"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> c = box;
    c.insert(c.end(), more.begin(), more.end());
    return c;
  };
  expect_same_error(with({"angle_style STYLE quadratic 100"}), "Unknown table style quadratic");
  expect_same_error(with({"angle_style STYLE spline 1"}), "Illegal number of angle table entries");
  expect_same_error(
      with({"angle_style STYLE linear 100", "angle_coeff 1 " + file + " ANGLE_SHORT"}),
      "Angle table must range from 0 to 180 degrees");
  expect_same_error(with({"angle_style STYLE linear 100", "angle_coeff 1 " + file + " NOSUCH"}),
                    "Did not find keyword NOSUCH");
}

TEST(TableBondedErrors, Dihedral)
{
  const std::string file = dihedral_file();
  const std::vector<std::string> box{"units lj", "atom_style molecular",
                                     "region box block 0 10 0 10 0 10",
                                     "create_box 1 box dihedral/types 1", "mass 1 1.0"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> c = box;
    c.insert(c.end(), more.begin(), more.end());
    return c;
  };
  expect_same_error(with({"dihedral_style STYLE cubic 100"}), "Unknown table style cubic");
  expect_same_error(with({"dihedral_style STYLE linear 2"}),
                    "Illegal number of dihedral table entries");
  expect_same_error(with({"dihedral_style STYLE spline"}), "must have 2 arguments");
  expect_same_error(
      with({"dihedral_style STYLE linear 360", "dihedral_coeff 1 " + file + " DIH_WIDE"}),
      "Dihedral table angle range must be < 360 degrees");
  expect_same_error(
      with({"dihedral_style STYLE spline 360", "dihedral_coeff 1 " + file + " DIH_BADF"}),
      "Dihedral table has inconsistent forces and energies");
  expect_same_error(
      with({"dihedral_style STYLE linear 360", "dihedral_coeff 1 " + file + " DIH_ORDER"}),
      "Dihedral table values are not increasing");
}

// registered: -sf cuda turns the plain table styles into the /cuda ones
TEST(TableBondedRegistration, SuffixPicksCudaStyles)
{
  const std::string bf = bond_file(), af = angle_file(), df = dihedral_file();
  LmpSession s(true);
  s.cmds({"units lj", "atom_style molecular", "region box block 0 10 0 10 0 10",
          "create_box 1 box bond/types 1 angle/types 1 dihedral/types 1", "mass 1 1.0",
          "bond_style table linear 100", "bond_coeff 1 " + bf + " BOND_CUBIC",
          "angle_style table spline 181", "angle_coeff 1 " + af + " ANGLE_A",
          "dihedral_style table spline 360", "dihedral_coeff 1 " + df + " DIH_RAD_NOF"});
  EXPECT_STREQ(s.lmp->force->bond_style, "table/cuda");
  EXPECT_STREQ(s.lmp->force->angle_style, "table/cuda");
  EXPECT_STREQ(s.lmp->force->dihedral_style, "table/cuda");
}
