/* GPU tests of bond_style, angle_style and dihedral_style table/cuda in resident runs
   (run_style verlet/cuda): device forces, energies and pressure on one configuration
   against the CPU table styles (linear and spline; dihedral tables with forces in
   degrees and without forces, NOF, in radians), a short trajectory against the CPU run,
   and a bond beyond its table stopping the run as the CPU style stops it. The tables are
   written from analytic potentials (lammps/table_bonded_test.h). Needs a GPU: exits 77
   (ctest "skipped") otherwise. Tolerances depend on MESOGPU_PRECISION. */

#include "atom.h"
#include "force.h"
#include "lammps.h"
#include "update.h"

#include "lammps/table_bonded_test.h"
#include "gpu_test_main.h"
#include "gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <string>
#include <vector>

using namespace table_test;

using namespace gpu_test;

namespace {

// as test_gpu_resident.cpp: one configuration device vs CPU; relative pe after a short run.
// The spline NOF dihedral force (e_i - e_i+1) / delta cancels digits in float: tol x 10.
#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11, TRAJ_PE_TOL = 1e-8;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-3, ENERGY_TOL = 1e-5, TRAJ_PE_TOL = 1e-2;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-6, TRAJ_PE_TOL = 1e-3;
const char *PREC = "mixed";
#endif

struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  std::vector<double> forces()
  {
    std::vector<double> out(3 * lmp->atom->natoms);
    for (int i = 0; i < lmp->atom->nlocal; ++i)
      for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = lmp->atom->f[i][d];
    return out;
  }
};

// tables for the chains of chain_adt.mol (bond 0.9, angle 120 degrees): a harmonic bond
// K = 20, r0 = 0.9 on [0.3, 1.8]; the angle and dihedral tables of the LAMMPS-level test
std::string gpu_tables()
{
  const std::string path = table_path("gpu.table");
  std::ofstream out(path);
  out << "# mesogpu GPU test: tabulated bonded terms\n";
  const BondPot bond{20.0, 0.9, 0.0};
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 151; ++i) {
    const double r = 0.3 + 1.5 * i / 150;
    rows.push_back({r, bond.e(r), bond.f(r)});
  }
  write_section(out, "BOND", "N 151", rows);
  rows.clear();
  for (int i = 0; i < 181; ++i)
    rows.push_back({1.0 * i, ANGLE1.e(i * DEG), ANGLE1.f(i * DEG) * DEG});
  write_section(out, "ANGLE", "N 181", rows);
  rows.clear();
  for (int i = 0; i < 72; ++i) {
    const double phi = -PI + 2 * PI * i / 72;
    rows.push_back({phi / DEG, DIH1.e(phi), DIH1.f(phi) * DEG});
  }
  write_section(out, "DIH_F", "N 72 DEGREES", rows);
  rows.clear();
  for (int i = 0; i < 60; ++i) {
    const double phi = 2 * PI * i / 60;
    rows.push_back({phi, DIH2.e(phi)});
  }
  write_section(out, "DIH_NOF", "N 60 RADIANS NOF", rows);
  return path;
}

// chains with table bonds, angles and dihedrals, randomised on the CPU first (CPU table
// styles), then the styles under test
void table_melt(Lmp &l, bool dev, const std::string &interp, const std::string &dih)
{
  const std::string file = gpu_tables();
  const std::vector<std::string> styles{"bond_style " + S(dev, "table") + " " + interp + " 400",
                                        "bond_coeff 1 " + file + " BOND",
                                        "angle_style " + S(dev, "table") + " " + interp + " 361",
                                        "angle_coeff 1 " + file + " ANGLE",
                                        "dihedral_style " + S(dev, "table") + " " + interp + " 720",
                                        "dihedral_coeff 1 " + file + " " + dih};
  l.cmds({"units lj", "atom_style molecular", "atom_modify map array sort 0 0",
          "region box block 0 12 0 12 0 12",
          "create_box 1 box bond/types 1 angle/types 1 dihedral/types 1 extra/bond/per/atom 2 "
          "extra/angle/per/atom 3 extra/dihedral/per/atom 4 extra/special/per/atom 8",
          "molecule chain " + source_dir() + "/unittest/gpu/chain_adt.mol",
          "create_atoms 0 random 60 777 NULL mol chain 888 overlap 0.3 maxtry 100", "mass 1 1.0",
          "pair_style zero 1.0", "pair_coeff * *", "special_bonds lj 0.0 0.0 0.5",
          "neighbor 0.4 bin", "comm_modify cutoff 3.0"});
  // the pre-run with the CPU styles
  for (std::string c : styles) {
    for (size_t at; (at = c.find("table/cuda")) != std::string::npos;) c.replace(at, 10, "table");
    l.cmd(c);
  }
  l.cmds({"velocity all create 1.0 31 loop geom", "timestep 0.005",
          "fix th all langevin 1.0 1.0 1.0 99", "fix 1 all nve", "thermo 0", "run 500", "unfix th",
          "unfix 1", "pair_style " + S(dev, "zero") + " 1.0", "pair_coeff * *"});
  l.cmds(styles);
  l.cmds({"fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

void compare_forces(const std::string &interp, const std::string &dih)
{
  const std::string label = "table " + interp + " " + dih;
  Lmp cpu, dev;
  table_melt(cpu, false, interp, dih);
  table_melt(dev, true, interp, dih);
  const char *thermo = "thermo_style custom step pe press ebond eangle edihed";
  cpu.cmds({thermo, "run 0 post no"});
  const auto f_cpu = cpu.forces();
  dev.cmds({"timestep 0.0", thermo, "thermo 1", "run 1 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const auto f_dev = dev.forces();
  double scale;
  const double df = max_rel_diff(f_dev, f_cpu, &scale);
  printf("[gpu] %-24s %s: max |F_dev - F_cpu| / max|F| = %.3g (max|F| = %.3g)\n", label.c_str(),
         PREC, df, scale);
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(df, FORCE_TOL);
  for (const char *q : {"pe", "ebond", "eangle", "edihed", "press"}) {
    const double a = dev.thermo(q), b = cpu.thermo(q);
    printf("[gpu]   %-7s %.14g vs %.14g\n", q, a, b);
    EXPECT_NEAR(a, b, 10 * ENERGY_TOL * std::max(1.0, std::fabs(b))) << q;
  }
}

void compare_trajectory(const std::string &interp, const std::string &dih, int steps)
{
  Lmp cpu, dev;
  table_melt(cpu, false, interp, dih);
  table_melt(dev, true, interp, dih);
  for (Lmp *l : {&cpu, &dev})
    l->cmds({"thermo_style custom step pe ke", "thermo " + std::to_string(steps),
             "run " + std::to_string(steps) + " post no"});
  const double a = dev.thermo("pe"), b = cpu.thermo("pe");
  printf("[gpu] table %s %s %d steps: pe %.12g vs %.12g\n", interp.c_str(), dih.c_str(), steps, a,
         b);
  EXPECT_NEAR(a, b, TRAJ_PE_TOL * std::max(1.0, std::fabs(b)));
}

}    // namespace

TEST(GpuTableBonded, ForcesLinearDihedralWithForces)
{
  compare_forces("linear", "DIH_F");
}
TEST(GpuTableBonded, ForcesSplineDihedralNOF)
{
  compare_forces("spline", "DIH_NOF");
}
TEST(GpuTableBonded, ForcesSplineDihedralWithForces)
{
  compare_forces("spline", "DIH_F");
}
TEST(GpuTableBonded, TrajectorySpline200)
{
  compare_trajectory("spline", "DIH_NOF", 200);
}

// a bond stretched beyond its table: the device run stops with an error, as the CPU does
TEST(GpuTableBonded, BondBeyondTableStops)
{
  const std::string file = gpu_tables();
  for (bool dev : {false, true}) {
    Lmp l;
    l.cmds({"units lj", "atom_style bond", "region box block 0 10 0 10 0 10",
            "create_box 1 box bond/types 1 extra/bond/per/atom 1", "mass 1 1.0",
            "create_atoms 1 single 5 5 5", "create_atoms 1 single 7.5 5 5",
            "create_bonds single/bond 1 1 2", "pair_style " + S(dev, "zero") + " 1.0",
            "pair_coeff * *", "bond_style " + S(dev, "table") + " linear 400",
            "bond_coeff 1 " + file + " BOND", "fix 1 all " + S(dev, "nve"),
            "run_style " + S(dev, "verlet")});
    const std::string m = l.error_of("run 1 post no");
    printf("[gpu] %s: %s\n", dev ? "device" : "cpu", m.c_str());
    EXPECT_NE(m.find("Bond length > table outer cutoff"), std::string::npos) << m;
  }
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
