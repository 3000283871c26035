/* dihedral_style table/cuda on the host: physics/dihedral_table.h, reading the tables
   the /cuda style packs for the engine, against LAMMPS's CPU dihedral_style table (see
   test_lammps_table_bonded.cpp for the scheme): energies and all four forces of `run 0`
   for random torsions and cis/trans; linear and spline; tables with forces and without
   (NOF), in degrees and in radians, starting at -180, 0, -90 degrees and -pi/3; the
   analytic potential against an independent torsion angle (atan2); forces against central
   differences of the evaluator's energy (spline; exact for NOF, whose force is the
   derivative of the energy spline). */

#include "dihedral.h"
#include "force.h"

#include "cuda/dihedral_table_cuda.h"
#include "table_bonded_test.h"

using namespace table_test;

static void check_dihedrals(TableBonded &T, const std::string &interp, int tablength)
{
  const std::string file = dihedral_file();
  Rng rng(23);
  const auto geoms = dihedral_geometries(rng, 120);
  std::vector<int> types;
  for (size_t m = 0; m < geoms.size(); ++m) types.push_back(m % 4 + 1);
  const Bonded b = T.run_bonded(
      geoms, types, 4,
      {"dihedral_style table/cuda " + interp + " " + std::to_string(tablength),
       "dihedral_coeff 1 " + file + " DIH_DEG_F", "dihedral_coeff 2 " + file + " DIH_RAD_NOF",
       "dihedral_coeff 3 " + file + " DIH_DEG_NOF", "dihedral_coeff 4 " + file + " DIH_RAD_F"});
  LAMMPS_NS::LAMMPS *lmp = T.s->lmp;
  ASSERT_STREQ(lmp->force->dihedral_style, "table/cuda");
  const mesogpu::cuda::HostDihedralTable p =
      static_cast<LAMMPS_NS::DihedralTableCuda *>(lmp->force->dihedral)->pack();
  ASSERT_EQ(p.ntables(), 4);
  EXPECT_EQ(p.table_of_type, (std::vector<int>{-1, 0, 1, 2, 3}));
  EXPECT_EQ(p.f_unspecified, (std::vector<int>{0, 1, 1, 0}));
  const bool spline = interp == "spline";
  const DihedralPot pots[5] = {{}, DIH1, DIH1, DIH2, DIH2};
  for (size_t m = 0; m < geoms.size(); ++m) {
    const auto v = p.view(p.table_of_type[types[m]]);
    const std::vector<Vec> &x = b.x[m];
    const double phi = torsion(x);
    SCOPED_TRACE("molecule " + std::to_string(m) + " type " + std::to_string(types[m]) + " phi " +
                 num(phi / DEG));
    Vec f[4];
    double e;
    ASSERT_TRUE(dihedral_eval(x, v, f, e));
    EXPECT_NEAR(e, b.e[m], tol(b.e[m], 5));
    for (int k = 0; k < 4; ++k)
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[k][d], b.f[m][k][d], tol(b.f[m][k][d], 20));
    // the potential the file was written from: linear interpolation of 5 to 7 degree data
    EXPECT_NEAR(e, pots[types[m]].e(phi), spline ? 2e-3 : 3e-2);
    // (not within 0.5 degrees of cis or trans: there phi = acos(cos phi), LAMMPS's formula,
    // has an absolute error near 1e-16 / |sin phi|, which the differences would magnify)
    if (spline && std::fabs(std::sin(phi)) > 0.01) {
      const auto fd = fd_forces(
          x,
          [&](const std::vector<Vec> &y) {
            Vec g[4];
            double en;
            dihedral_eval(y, v, g, en);
            return en;
          },
          1e-6);
      const double rel = v.f_unspecified ? 1e-7 : 1e-3;
      for (int k = 0; k < 4; ++k)
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(f[k][d], fd[k][d], rel * (std::fabs(fd[k][d]) + 10));
    }
  }
  // non-finite coordinates: refused
  std::vector<Vec> bad = geoms[0];
  bad[3][0] = NAN;
  Vec f[4];
  double e;
  EXPECT_FALSE(dihedral_eval(bad, p.view(0), f, e));
}

TEST_F(TableBonded, DihedralLinear)
{
  check_dihedrals(*this, "linear", 360);
}
TEST_F(TableBonded, DihedralSpline)
{
  check_dihedrals(*this, "spline", 500);
}
