/* GPU tests of resident runs (run_style verlet/cuda): device forces, energies and
   virial against the CPU styles on the same configuration; 1000-step trajectories
   against CPU runs; reproducibility (output every step vs never) and neighbour-list
   settings; errors for styles without a device part. Needs a GPU: exits 77 (ctest
   "skipped") with a message otherwise. Tolerances depend on MESOGPU_PRECISION.
   Numbers are printed with the prefix [gpu] for the closing note and bench/. */

#include "atom.h"
#include "compute.h"
#include "domain.h"
#include "fix.h"
#include "force.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "neighbor.h"
#include "update.h"

#include "gpu_test_main.h"
#include "gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "engine.h"
#include "precision.h"
#include "verlet_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mpi.h>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using LAMMPS_NS::LAMMPS;

using namespace gpu_test;

namespace {

// FORCE/ENERGY_TOL: one configuration, device vs CPU. TRAJ_PE_TOL: relative pe after
// 1000 steps; in double the trajectories stay together (measured 8e-7 in x after 1000
// LJ steps), in float they separate chaotically within a few hundred steps and the
// comparison becomes statistical: pe per atom fluctuates by ~3e-3 relative (4000 atoms).
#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11, TRAJ_PE_TOL = 1e-6;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-5, TRAJ_PE_TOL = 1e-2;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-5, ENERGY_TOL = 1e-6,
             TRAJ_PE_TOL = 1e-2;    // float pair math, double sums
const char *PREC = "mixed";
#endif

std::string example_dir()
{
  return source_dir() + "/examples/table_r2";
}
std::string potentials_dir()
{
  return source_dir() + "/potentials";
}

struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  // per-atom array in tag order
  std::vector<double> peratom(double **a)
  {
    std::vector<double> out(3 * lmp->atom->natoms);
    for (int i = 0; i < lmp->atom->nlocal; ++i)
      for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = a[i][d];
    return out;
  }
  std::vector<double> forces() { return peratom(lmp->atom->f); }
  // unwrapped positions in tag order
  std::vector<double> positions()
  {
    std::vector<double> out(3 * lmp->atom->natoms);
    auto **x = lmp->atom->x;
    auto *img = lmp->atom->image;
    const double *prd = lmp->domain->prd;
    for (int i = 0; i < lmp->atom->nlocal; ++i) {
      const int im[3] = {(int) (img[i] & IMGMASK) - IMGMAX,
                         (int) (img[i] >> IMGBITS & IMGMASK) - IMGMAX,
                         (int) (img[i] >> IMG2BITS) - IMGMAX};
      for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = x[i][d] + im[d] * prd[d];
    }
    return out;
  }
};

// --- systems ----------------------------------------------------------------------

void lj_liquid(Lmp &l, bool dev, int cells = 10, const char *neigh = "every 1 delay 0 check yes")
{
  l.cmds({"units lj",
          "atom_style atomic",
          "atom_modify map array sort 0 0",
          "lattice fcc 0.8442",
          "region box block 0 " + std::to_string(cells) + " 0 " + std::to_string(cells) + " 0 " +
              std::to_string(cells),
          "create_box 2 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.3 771",
          "mass 1 1.0",
          "mass 2 1.5",
          "velocity all create 1.44 87287 loop geom",
          "pair_style " + S(dev, "lj/cut") + " 2.5",
          "pair_coeff 1 1 1.0 1.0",
          "pair_coeff 1 2 1.2 0.9",
          "pair_coeff 2 2 0.8 1.1 2.2",
          "neighbor 0.3 bin",
          std::string("neigh_modify ") + neigh,
          "timestep 0.005",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// soft-bead melt of examples/table_r2 (table/r2 + harmonic bonds, special lj 0 1 1)
void soft_melt(Lmp &l, bool dev)
{
  l.cmds({"units lj", "atom_style bond", "atom_modify map array sort 0 0",
          "region box block 0 12 0 12 0 12",
          "create_box 1 box bond/types 1 extra/bond/per/atom 2 extra/special/per/atom 6",
          "molecule chain " + example_dir() + "/chain.mol",
          "create_atoms 0 random 90 20260704 NULL mol chain 4711 overlap 0.3 maxtry 100",
          "mass 1 1.0", "pair_style " + S(dev, "table/r2") + " 1000",
          "pair_coeff 1 1 " + potentials_dir() + "/gauss_soft.table GAUSS_SOFT",
          "bond_style " + S(dev, "harmonic"), "bond_coeff 1 20.0 0.9",
          "special_bonds lj 0.0 1.0 1.0", "neighbor 0.4 bin",
          "neigh_modify every 1 delay 0 check yes", "velocity all create 1.0 8675309 loop geom",
          "timestep 0.01", "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// Kremer-Grest melt: chains pushed apart with a soft potential on the CPU first, then
// WCA + FENE (special_bonds fene)
void kg_melt(Lmp &l, bool dev)
{
  l.cmds({"units lj",
          "atom_style bond",
          "atom_modify map array sort 0 0",
          "region box block 0 14 0 14 0 14",
          "create_box 1 box bond/types 1 extra/bond/per/atom 2 extra/special/per/atom 6",
          "molecule chain " + example_dir() + "/chain.mol",
          "create_atoms 0 random 120 1234 NULL mol chain 5678",
          "mass 1 1.0",
          "bond_style fene",
          "bond_coeff 1 30.0 1.5 1.0 1.0",
          "special_bonds fene",
          "pair_style soft 1.122462",
          "pair_coeff * * 0.0",
          "variable a equal ramp(0,60)",
          "fix push all adapt 1 pair soft a * * v_a",
          "velocity all create 1.0 42 loop geom",
          "fix lim all nve/limit 0.05",
          "fix th all langevin 1.0 1.0 1.0 99",
          "timestep 0.005",
          "thermo 0",
          "run 2000",
          "unfix push",
          "unfix lim",
          "unfix th",
          "pair_style " + S(dev, "lj/cut") + " 1.122462",
          "pair_coeff * * 1.0 1.0",
          "pair_modify shift yes",
          "bond_style " + S(dev, "fene"),
          "bond_coeff 1 30.0 1.5 1.0 1.0",
          "neighbor 0.4 bin",
          "neigh_modify every 1 delay 0 check yes",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

}    // namespace

// ---- forces, energy, virial on one configuration --------------------------------------

// CPU: run 0. Device: one step with dt = 0, so the device computes forces on the same
// positions; thermo 1 brings them and the device reductions back.
// tol_factor scales FORCE_TOL where max|F| is small against the single pair forces whose
// float rounding adds up (the error is relative to max|F|)
void compare_forces(void (*setup)(Lmp &, bool), const char *label, bool zero_dt = true,
                    double tol_factor = 1.0)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  cpu.cmds({"thermo_style custom step pe press ebond epair", "run 0 post no"});
  const auto f_cpu = cpu.forces();
  const double pe_cpu = cpu.thermo("pe"), p_cpu = cpu.thermo("press");

  if (zero_dt) dev.cmd("timestep 0.0");
  dev.cmds({"thermo_style custom step pe press ebond epair", "thermo 1", "run 1 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const auto f_dev = dev.forces();
  const double pe_dev = dev.thermo("pe"), p_dev = dev.thermo("press");

  double scale;
  const double df = max_rel_diff(f_dev, f_cpu, &scale);
  printf("[gpu] %-14s %s: max |F_dev - F_cpu| / max|F| = %.3g (max|F| = %.3g); pe %.12g vs %.12g; "
         "press %.10g vs %.10g\n",
         label, PREC, df, scale, pe_dev, pe_cpu, p_dev, p_cpu);
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(df, tol_factor * FORCE_TOL);
  EXPECT_NEAR(pe_dev, pe_cpu, ENERGY_TOL * std::max(1.0, std::fabs(pe_cpu)));
  EXPECT_NEAR(p_dev, p_cpu, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_cpu)));
}

TEST(GpuResident, ForcesLJ)
{
  compare_forces([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj/cut");
}

// boxes of 2 to 3 (cutoff + skin): 2 cells per dimension, whose -1 and +1 neighbours are
// the same cell (6.7 sigma against 2.8); 4 x 4 x 4 fcc cells = 256 atoms
TEST(GpuResident, ForcesLJSmallBoxTwoCells)
{
  compare_forces([](Lmp &l, bool dev) { lj_liquid(l, dev, 4); }, "lj/cut, 2 cells");
}
TEST(GpuResident, SmallBoxTwoCellsFollowsCpu)
{
  Lmp cpu, dev;
  lj_liquid(cpu, false, 4);
  lj_liquid(dev, true, 4);
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  const double d = max_rel_diff(dev.positions(), cpu.positions());
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  printf("[gpu] lj/cut 2 cells, 200 steps: max rel. position difference %.3g\n", d);
  EXPECT_LT(d, dbl ? 1e-9 : 1e-3);
}

TEST(GpuResident, ForcesTableR2HarmonicSpecial)
{
  compare_forces(soft_melt, "table/r2+harm");
}

TEST(GpuResident, ForcesFENEWCA)
{
  compare_forces(kg_melt, "fene+wca");
}

TEST(GpuResident, ForcesGauss)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"pair_style " + S(dev, "gauss") + " 2.0", "pair_coeff 1 1 -2.0 1.5",
                "pair_coeff 1 2 -1.0 1.0", "pair_coeff 2 2 -3.0 2.0 1.8", "pair_modify shift yes"});
      },
      "gauss");
}

TEST(GpuResident, ForcesHarmonicCut)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"pair_style " + S(dev, "harmonic/cut"), "pair_coeff 1 1 20.0 1.4",
                "pair_coeff 1 2 10.0 1.3", "pair_coeff 2 2 5.0 1.5",
                "displace_atoms all random 0.1 0.1 0.1 5 units box"});
      },
      "harmonic/cut");
}

// DPD fluid, rho = 3, rc = 1 (Groot-Warren a = 25, gamma = 4.5)
void dpd_fluid(Lmp &l, bool dev, double temperature, bool integrate = true)
{
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0", "comm_modify vel yes",
          "region box block 0 8 0 8 0 8", "create_box 1 box",
          "create_atoms 1 random 1536 4242 NULL", "mass 1 1.0",
          "velocity all create 1.0 9876 loop geom mom yes",
          "pair_style " + S(dev, "dpd") + " " + std::to_string(temperature) + " 1.0 34387",
          "pair_coeff * * 25.0 4.5", "neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes",
          "timestep 0.04", "group moving " + std::string(integrate ? "type 1" : "empty"),
          "fix 1 moving " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// with T = 0 the random force vanishes: conservative + dissipative forces are deterministic
// (the device's integrator acts on an empty group, so x and v are those of the CPU run 0)
TEST(GpuResident, ForcesDPDWithoutNoise)
{
  // a zero timestep would make LAMMPS's own dpd divide by sqrt(0): keep dt, move nothing
  compare_forces([](Lmp &l, bool dev) { dpd_fluid(l, dev, 0.0, false); }, "dpd (T=0)", false);
}

// ---- several lanes per atom ------------------------------------------------------------

// a scoped environment variable (each Lmp's engine reads it when it is made)
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const std::string &v) : name(n) { setenv(n, v.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name.c_str()); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
};

// the list build and the isotropic pair kernels with `lanes` lanes per atom, fixed through
// the environment the engine reads when it is made (each Lmp makes its own)
struct FixedLanes {
  explicit FixedLanes(int lanes) :
      build("MESOGPU_BUILD_LANES", std::to_string(lanes)),
      pair("MESOGPU_PAIR_LANES", std::to_string(lanes))
  {
  }
  ScopedEnv build, pair;
};

// forces, energy and virial against the CPU for each width: a plain evaluator (lj/cut,
// two types), special pairs dropped in the build (table/r2 with special lj 0), a site
// evaluator (dpd), excluded pairs
TEST(GpuResident, ForcesWithLanesPerAtom)
{
  for (int lanes : {4, 8, 16, 32}) {
    FixedLanes fixed(lanes);
    const std::string tag = " x" + std::to_string(lanes);
    compare_forces([](Lmp &l, bool dev) { lj_liquid(l, dev); }, ("lj/cut" + tag).c_str());
    compare_forces(soft_melt, ("table/r2+harm" + tag).c_str());
    compare_forces([](Lmp &l, bool dev) { dpd_fluid(l, dev, 0.0, false); },
                   ("dpd (T=0)" + tag).c_str(), false);
    compare_forces(
        [](Lmp &l, bool dev) {
          lj_liquid(l, dev);
          l.cmd("neigh_modify exclude type 1 2");
        },
        // max|F| is half that of the plain liquid, as in ForcesExcludeTypeAndGroup: the
        // same float rounding is twice as large relative to it (2.2e-5 in mixed)
        ("lj excl" + tag).c_str(), true, 2.0);
  }
}

// a few thousand atoms with a long cutoff (the liquid-vapour slab's r_c = 5): the engine
// takes several lanes per atom by itself, and a 300-step trajectory with rebuilds follows
// the CPU's (double) or keeps its energy (float)
TEST(GpuResident, FewAtomsLongCutoffTakeLanes)
{
  const auto setup = [](Lmp &l, bool dev) {
    lj_liquid(l, dev, 8);    // 2048 atoms of two types, 13.4 sigma
    l.cmds({"pair_style " + S(dev, "lj/cut") + " 5.0", "pair_coeff 1 1 1.0 1.0",
            "pair_coeff 1 2 1.2 0.9", "pair_coeff 2 2 0.8 1.1"});
  };
  compare_forces(setup, "lj rc 5 (auto)");
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  const std::string logfile = "log.gpu_lanes_auto";
  dev.cmds({"log " + logfile, "thermo 100", "run 300 post no", "log none"});
  cpu.cmds({"thermo 100", "run 300 post no"});
  std::string text;
  {
    std::ifstream in(logfile);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  std::remove(logfile.c_str());
  const std::string key = "lanes per atom: ";
  const size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  int build = 0, pair = 0;
  ASSERT_EQ(sscanf(text.c_str() + at + key.size(), "%d list build, %d pair", &build, &pair), 2);
  printf("[gpu] lj rc 5, 2048 atoms: lanes per atom %d (build), %d (pair)\n", build, pair);
  EXPECT_GT(build, 1);
  EXPECT_GT(pair, 1);
  const double d = max_rel_diff(dev.positions(), cpu.positions());
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  printf("[gpu] lj rc 5, 300 steps: max rel. position difference %.3g\n", d);
  if (dbl) EXPECT_LT(d, 1e-8);
  EXPECT_NEAR(dev.thermo("etotal"), cpu.thermo("etotal"),
              (dbl ? 1e-8 : 2e-3) * std::fabs(cpu.thermo("etotal")));
}

// a bad width stops the run with the variable's name and the allowed values
TEST(GpuResident, LanesPerAtomRefusesOtherWidths)
{
  ScopedEnv bad("MESOGPU_PAIR_LANES", "3");
  Lmp dev;
  lj_liquid(dev, true);
  const std::string err = dev.error_of("run 1 post no");
  EXPECT_NE(err.find("MESOGPU_PAIR_LANES='3' is not one of 1, 4, 8, 16, 32"), std::string::npos)
      << err;
}

// chains with angles and dihedrals, conformations randomised on the CPU first
void angle_melt(Lmp &l, bool dev, const std::string &angle, const std::string &dihedral)
{
  l.cmds({"units lj",
          "atom_style molecular",
          "atom_modify map array sort 0 0",
          "region box block 0 12 0 12 0 12",
          "create_box 1 box bond/types 1 angle/types 1 dihedral/types 1 extra/bond/per/atom 2 "
          "extra/angle/per/atom 3 extra/dihedral/per/atom 4 extra/special/per/atom 8",
          "molecule chain " + source_dir() + "/unittest/gpu/chain_adt.mol",
          "create_atoms 0 random 60 777 NULL mol chain 888 overlap 0.3 maxtry 100",
          "mass 1 1.0",
          "pair_style table/r2 1000",
          "pair_coeff 1 1 " + potentials_dir() + "/gauss_soft.table GAUSS_SOFT",
          "bond_style harmonic",
          "bond_coeff 1 20.0 0.9",
          "angle_style " + angle,
          angle == "harmonic" ? "angle_coeff 1 5.0 110.0" : "angle_coeff 1 5.0 115.0",
          "dihedral_style " + dihedral,
          dihedral == "harmonic" ? "dihedral_coeff 1 0.8 -1 3" : "dihedral_coeff 1 0.6 3 0 0.0",
          "special_bonds lj 0.0 0.0 0.5",
          "neighbor 0.4 bin",
          "comm_modify cutoff 3.0",
          "velocity all create 1.0 31 loop geom",
          "timestep 0.005",
          "fix th all langevin 1.0 1.0 1.0 99",
          "fix 1 all nve",
          "thermo 0",
          "run 500",
          "unfix th",
          "unfix 1",
          "pair_style " + S(dev, "table/r2") + " 1000",
          "pair_coeff 1 1 " + potentials_dir() + "/gauss_soft.table GAUSS_SOFT",
          "bond_style " + S(dev, "harmonic"),
          "bond_coeff 1 20.0 0.9",
          "angle_style " + S(dev, angle),
          angle == "harmonic" ? "angle_coeff 1 5.0 110.0" : "angle_coeff 1 5.0 115.0",
          "dihedral_style " + S(dev, dihedral),
          dihedral == "harmonic" ? "dihedral_coeff 1 0.8 -1 3" : "dihedral_coeff 1 0.6 3 0 0.0",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// angle_melt with harmonic angles and CHARMM dihedrals (special lj 0 0 0.5: 1-4 pairs
// carry special bits in the list entries), sorted every 20 steps
void angle_melt_sorted(Lmp &l, bool dev)
{
  angle_melt(l, dev, "harmonic", "charmm");
  l.cmd("atom_modify sort 20 0.0");
}

TEST(GpuResident, ForcesAngleHarmonicDihedralCharmm)
{
  compare_forces([](Lmp &l, bool dev) { angle_melt(l, dev, "harmonic", "charmm"); },
                 "ang+dih charmm");
}

TEST(GpuResident, ForcesAngleCosSqDihedralHarmonic)
{
  compare_forces([](Lmp &l, bool dev) { angle_melt(l, dev, "cosine/squared", "harmonic"); },
                 "cos2+dih harm");
}

// ---- trajectories ---------------------------------------------------------------------

void compare_trajectory(void (*setup)(Lmp &, bool), const char *label, int steps, double pe_tol)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  const std::string th = "thermo_style custom step pe ke etotal press";
  cpu.cmds({th, "thermo " + std::to_string(steps), "run " + std::to_string(steps) + " post no"});
  dev.cmds(
      {th, "thermo " + std::to_string(steps / 10), "run " + std::to_string(steps) + " post no"});
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  const double et_c = cpu.thermo("etotal"), et_d = dev.thermo("etotal");
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  double e0 = 0;
  {
    Lmp ref;
    setup(ref, false);
    ref.cmds({th, "run 0 post no"});
    e0 = ref.thermo("etotal");
  }
  printf(
      "[gpu] %-14s %s: %d steps: pe dev %.10g cpu %.10g; etotal dev %.10g cpu %.10g start %.10g; "
      "device drift %.3g per atom; max |x_dev - x_cpu| / L %.3g\n",
      label, PREC, steps, pe_d, pe_c, et_d, et_c, e0, et_d - e0, dx);
  EXPECT_NEAR(pe_d, pe_c, pe_tol * std::fabs(pe_c));
  EXPECT_NEAR(et_d, e0, 2e-3 * std::max(1.0, std::fabs(e0)));    // NVE energy conservation
}

TEST(GpuResident, TrajectoryLJ1000)
{
  compare_trajectory([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj 1000", 1000, TRAJ_PE_TOL);
}
TEST(GpuResident, TrajectoryKGMelt1000)
{
  compare_trajectory(kg_melt, "kg melt 1000", 1000, TRAJ_PE_TOL);
}

// ---- reproducibility -------------------------------------------------------------------

TEST(GpuResident, OutputEveryStepEqualsNever)
{
  Lmp a, b;
  lj_liquid(a, true);
  lj_liquid(b, true);
  a.cmds({"thermo 1", "run 300 post no"});
  b.cmds({"thermo 0", "run 300 post no"});
  const auto xa = a.positions(), xb = b.positions();
  const auto va = a.peratom(a.lmp->atom->v), vb = b.peratom(b.lmp->atom->v);
  EXPECT_EQ(xa, xb) << "syncing every step changed the trajectory";
  EXPECT_EQ(va, vb);
}

TEST(GpuResident, NeighborSettingsAgree)
{
  Lmp a, b;
  lj_liquid(a, true, 10, "every 1 delay 0 check yes");
  lj_liquid(b, true, 10, "every 10 delay 0 check no");
  a.cmds({"run 100 post no"});
  b.cmds({"run 100 post no"});
  const double d = max_rel_diff(a.positions(), b.positions());
  printf("[gpu] neighbour settings (check yes vs every 10): max rel. position difference %.3g "
         "after 100 steps\n",
         d);
  EXPECT_LT(d, 1e-5);
}

// a droplet in a large box: the cells' first capacity (from the mean count, 0.7 atoms a
// cell) is far below the droplet's ~18 atoms a cell, so the first build overflows them and
// grows them (read with the list build's status, one wait per build); forces at step 0
// and a 200-step trajectory against the CPU. The potential is shifted: the crystal block
// relaxes at its surface, pairs cross the cutoff inward on balance, and the unshifted
// energy's jumps (-0.036 per atom in 200 steps, on the CPU alike) would fail the NVE test
void lj_droplet(Lmp &l, bool dev)
{
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0", "lattice fcc 0.8442",
          "region box block 0 12 0 12 0 12", "create_box 1 box", "region drop block 4 8 4 8 4 8",
          "create_atoms 1 region drop", "mass 1 1.0", "velocity all create 0.7 4928 loop geom",
          "pair_style " + S(dev, "lj/cut") + " 2.5", "pair_coeff 1 1 1.0 1.0",
          "pair_modify shift yes", "neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes",
          "timestep 0.005", "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

TEST(GpuResident, CellsGrowForADroplet)
{
  compare_forces(lj_droplet, "lj droplet");
  compare_trajectory(lj_droplet, "lj droplet 200", 200, TRAJ_PE_TOL);
}

TEST(GpuResident, SuffixSelectsRunStyle)
{
  Lmp l(true);
  EXPECT_EQ(std::string(l.lmp->update->integrate_style), "verlet/cuda");
  lj_liquid(l, false);    // with -sf cuda, plain style names pick the /cuda styles
  EXPECT_EQ(std::string(l.lmp->force->pair_style), "lj/cut/cuda");
  l.cmds({"run 20 post no"});
  EXPECT_EQ(l.lmp->update->ntimestep, 20);
}

// sorting along the space-filling curve changes only the summation order
void compare_sorting(void (*setup)(Lmp &, bool), const char *label, int min_sorts = 5)
{
  Lmp a, b;
  setup(a, true);
  setup(b, true);
  b.cmd("atom_modify sort 20 0.0");
  a.cmd("run 100 post no");
  b.cmd("run 100 post no");
  const double d = max_rel_diff(a.positions(), b.positions());
  const double dv = max_rel_diff(a.peratom(a.lmp->atom->v), b.peratom(b.lmp->atom->v));
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  printf("[gpu] sorting every 20 steps (%s): max rel. position difference %.3g, velocity %.3g "
         "after 100 steps\n",
         label, d, dv);
  EXPECT_LT(d, dbl ? 1e-10 : 1e-5);
  EXPECT_LT(dv, dbl ? 1e-8 : 1e-2);
  // the device sort is stable within a cell and the list walks cells in a fixed order, so
  // the positions may even repeat exactly: count the sorts instead (100 steps, every 20,
  // the first at the first list build; a sort waits for a list build, so slow systems
  // that rebuild rarely sort less often: min_sorts)
  auto sorts = [](Lmp &l) {
    // the class lives in the plugin (no typeinfo here): check the style by name
    if (std::string(l.lmp->update->integrate_style) != "verlet/cuda") return -1LL;
    auto *run = static_cast<LAMMPS_NS::VerletCuda *>(l.lmp->update->integrate);
    return run->device_engine() ? run->device_engine()->sorts_done() : -1LL;
  };
  printf("[gpu] sorts done: %lld (sort 20), %lld (sort 0)\n", sorts(b), sorts(a));
  EXPECT_GE(sorts(b), min_sorts);
  EXPECT_EQ(sorts(a), 0);
}

TEST(GpuResident, SortingKeepsResultsLJ)
{
  compare_sorting([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj");
}

// 16-bit cell entries and 32-bit indices hold the same list in the same order: the same
// forces, energies and trajectory to the bit (the 32-bit list follows the CPU in the tests
// above; default runs take cell entries, so those tests check them against the CPU too)
int entry_bits(Lmp &l)
{
  if (std::string(l.lmp->update->integrate_style) != "verlet/cuda") return -1;
  auto *run = static_cast<LAMMPS_NS::VerletCuda *>(l.lmp->update->integrate);
  return run->device_engine() ? run->device_engine()->list_entry_bits() : -1;
}

void compare_list_entries(void (*setup)(Lmp &, bool), const char *label, int steps = 200)
{
  Lmp a, b;
  setup(a, true);
  setup(b, true);
  a.cmds({"run_style verlet/cuda list_entries 16", "thermo_style custom step pe press", "thermo 50",
          "run " + std::to_string(steps) + " post no"});
  b.cmds({"run_style verlet/cuda list_entries 32", "thermo_style custom step pe press", "thermo 50",
          "run " + std::to_string(steps) + " post no"});
  printf("[gpu] list entries (%s): %d-bit vs %d-bit, pe %.17g vs %.17g after %d steps\n", label,
         entry_bits(a), entry_bits(b), a.thermo("pe"), b.thermo("pe"), steps);
  EXPECT_EQ(entry_bits(a), 16);
  EXPECT_EQ(entry_bits(b), 32);
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_EQ(a.peratom(a.lmp->atom->v), b.peratom(b.lmp->atom->v));
  EXPECT_EQ(a.forces(), b.forces());
  EXPECT_EQ(a.thermo("pe"), b.thermo("pe"));
  EXPECT_EQ(a.thermo("press"), b.thermo("press"));
}

TEST(GpuResident, CellEntriesEqualWideEntriesLJ)
{
  // two types, every-step rebuilds: cells and lists change often
  compare_list_entries([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj");
}

TEST(GpuResident, CellEntriesEqualWideEntriesSpecial)
{
  compare_list_entries(angle_melt_sorted, "special 1-4, sorted");
}

TEST(GpuResident, CellEntriesEqualWideEntriesLanes)
{
  // few atoms, long lists: several lanes per atom read the cell entries
  compare_list_entries(
      [](Lmp &l, bool dev) {
        // 4,000 atoms, ~530 neighbours each, 27 cells of ~150 atoms (at most 512 slots)
        lj_liquid(l, dev, 10);
        l.cmds({"pair_style " + S(dev, "lj/cut") + " 5.0", "pair_coeff * * 1.0 1.0"});
      },
      "lanes", 100);
}

// ---- the list build by cell -------------------------------------------------------------

int build_cell_lanes(Lmp &l)
{
  auto *run = static_cast<LAMMPS_NS::VerletCuda *>(l.lmp->update->integrate);
  return run->device_engine() ? run->device_engine()->build_cell_lanes() : -1;
}

// the build by cell (lanes per cell) against the build by atom (one lane per atom), both
// with one lane per atom in the pair kernels: the same lists entry for entry give the
// same forces bit for bit (each atom's force is summed in list order), so the same
// trajectory through `steps` steps of rebuilds
void compare_build_by_cell(void (*setup)(Lmp &, bool), const char *label, int steps = 200)
{
  ScopedEnv pair("MESOGPU_PAIR_LANES", "1");
  for (int lanes : {8, 16, 32}) {
    Lmp a, b;
    {
      ScopedEnv cell("MESOGPU_BUILD_CELL_LANES", std::to_string(lanes));
      setup(a, true);
      a.cmds({"thermo_style custom step pe press", "thermo 50",
              "run " + std::to_string(steps) + " post no"});
    }
    {
      ScopedEnv atom("MESOGPU_BUILD_LANES", "1");
      setup(b, true);
      b.cmds({"thermo_style custom step pe press", "thermo 50",
              "run " + std::to_string(steps) + " post no"});
    }
    printf("[gpu] list build by cell (%s), %d lanes per cell: pe %.17g, by atom %.17g\n", label,
           build_cell_lanes(a), a.thermo("pe"), b.thermo("pe"));
    EXPECT_EQ(build_cell_lanes(a), lanes) << label;
    EXPECT_EQ(build_cell_lanes(b), 0) << label;
    EXPECT_EQ(a.positions(), b.positions()) << label << " x" << lanes;
    EXPECT_EQ(a.peratom(a.lmp->atom->v), b.peratom(b.lmp->atom->v)) << label << " x" << lanes;
    EXPECT_EQ(a.forces(), b.forces()) << label << " x" << lanes;
    EXPECT_EQ(a.thermo("pe"), b.thermo("pe")) << label << " x" << lanes;
    EXPECT_EQ(a.thermo("press"), b.thermo("press")) << label << " x" << lanes;
  }
}

TEST(GpuResident, BuildByCellEqualsByAtomLJ)
{
  // two types with their own cutoffs (2.5 and 2.2): the cutoff read per type pair
  compare_build_by_cell([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj, two cutoffs");
  // one cutoff for every pair: the build's single (cut + skin)^2
  compare_build_by_cell(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"pair_coeff 2 2 0.8 1.1 2.5"});
      },
      "lj, one cutoff");
}

TEST(GpuResident, BuildByCellEqualsByAtomSpecialAndExcluded)
{
  // 1-4 pairs marked, 1-2 and 1-3 dropped
  compare_build_by_cell(angle_melt_sorted, "special 1-4, sorted");
  compare_build_by_cell(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmd("neigh_modify exclude type 1 2");
      },
      "lj, type pairs excluded");
}

TEST(GpuResident, BuildByCellEqualsByAtomCellEntries)
{
  // 16-bit cell entries written by the build by cell
  compare_build_by_cell(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmd("run_style verlet/cuda list_entries 16");
      },
      "lj, 16-bit entries");
}

// ---- the tight list: no skin, built at every step -------------------------------------------

const mesogpu::cuda::Engine *engine_of(Lmp &l)
{
  return static_cast<LAMMPS_NS::VerletCuda *>(l.lmp->update->integrate)->device_engine();
}

// tight_list yes: the forces, energy and virial of one configuration against the CPU styles
// (the list of pairs within the cutoff alone), then `steps` steps against the same device
// run with the skin, its list rebuilt at every step (check no: both wrap the atoms at the
// same steps); the DPD noise follows the pair's tags and the step, so both runs draw the
// same numbers
void compare_tight(void (*setup)(Lmp &, bool), const char *label, bool zero_dt = true,
                   bool against_cpu = true, int steps = 200)
{
  if (against_cpu) {
    Lmp cpu, dev;
    setup(cpu, false);
    {
      ScopedEnv yes("MESOGPU_TIGHT_LIST", "yes");
      setup(dev, true);
    }
    cpu.cmds({"thermo_style custom step pe press", "run 0 post no"});
    if (zero_dt) dev.cmd("timestep 0.0");
    dev.cmds({"thermo_style custom step pe press", "thermo 1", "run 1 post no"});
    ASSERT_TRUE(engine_of(dev)->tight_list())
        << label << ": " << engine_of(dev)->tight_list_refusal();
    EXPECT_EQ(engine_of(dev)->tight_list_builds(), 2) << label;    // the setup and the step
    double scale;
    const double df = max_rel_diff(dev.forces(), cpu.forces(), &scale);
    printf("[gpu] %-14s tight list, %s: max |F_dev - F_cpu| / max|F| = %.3g; pe %.12g vs "
           "%.12g; press %.10g vs %.10g\n",
           label, PREC, df, dev.thermo("pe"), cpu.thermo("pe"), dev.thermo("press"),
           cpu.thermo("press"));
    EXPECT_GT(scale, 0.0);
    // (the pairs summed in another order than with the skin: 1.5 x the tolerance)
    EXPECT_LT(df, 1.5 * FORCE_TOL) << label;
    EXPECT_NEAR(dev.thermo("pe"), cpu.thermo("pe"),
                ENERGY_TOL * std::max(1.0, std::fabs(cpu.thermo("pe"))));
    EXPECT_NEAR(dev.thermo("press"), cpu.thermo("press"),
                10 * ENERGY_TOL * std::max(1.0, std::fabs(cpu.thermo("press"))));
  }
  Lmp a, b;
  {
    ScopedEnv yes("MESOGPU_TIGHT_LIST", "yes");
    setup(a, true);
  }
  {
    ScopedEnv no("MESOGPU_TIGHT_LIST", "no");
    setup(b, true);
  }
  for (Lmp *l : {&a, &b})
    l->cmds({"neigh_modify every 1 delay 0 check no", "thermo_style custom step pe press",
             "thermo 100", "run " + std::to_string(steps) + " post no"});
  EXPECT_EQ(engine_of(a)->tight_list_builds(), steps + 1) << label;
  EXPECT_EQ(engine_of(b)->tight_list_builds(), 0) << label;
  EXPECT_LT(engine_of(a)->neighbor_entries(), engine_of(b)->neighbor_entries()) << label;
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  const double dx = max_rel_diff(a.positions(), b.positions());
  const double dv = max_rel_diff(a.peratom(a.lmp->atom->v), b.peratom(b.lmp->atom->v));
  printf("[gpu] %-14s tight list vs the skin, %d steps, %s: x %.3g v %.3g\n", label, steps, PREC,
         dx, dv);
  EXPECT_LT(dx, dbl ? 1e-9 : 1e-3) << label;
  EXPECT_LT(dv, dbl ? 1e-7 : 1e-1) << label;
}

TEST(GpuResident, TightListLJ)
{
  // two types with their own cutoffs (2.5 and 2.2)
  compare_tight([](Lmp &l, bool dev) { lj_liquid(l, dev); }, "lj/cut");
  // one cutoff for every pair
  compare_tight(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"pair_coeff 2 2 0.8 1.1 2.5"});
      },
      "lj/cut, one cut");
}

TEST(GpuResident, TightListDPD)
{
  compare_tight([](Lmp &l, bool dev) { dpd_fluid(l, dev, 0.0, false); }, "dpd (T=0)", false);
  // with noise (T = 1) and moving particles: the trajectories against the list with the
  // skin over 20 steps (the fluid is chaotic: rounding differences of the sums' order grow
  // to 1e-2 of the box within 200 steps at dt = 0.04, in double as in mixed)
  compare_tight([](Lmp &l, bool dev) { dpd_fluid(l, dev, 1.0); }, "dpd (T=1)", false, false, 20);
}

TEST(GpuResident, TightListSpecialAndExcluded)
{
  // a tabulated potential with bonds, special lj 0 1 1 (1-2 pairs dropped)
  compare_tight(soft_melt, "table/r2+harm");
  compare_tight(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmd("neigh_modify exclude type 1 2");
      },
      "lj, excluded");
}

TEST(GpuResident, TightListGauss)
{
  // a cutoff shorter than LJ's (2.0) and per type pair (1.8)
  compare_tight(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"pair_style " + S(dev, "gauss") + " 2.0", "pair_coeff 1 1 -2.0 1.5",
                "pair_coeff 1 2 -1.0 1.0", "pair_coeff 2 2 -3.0 2.0 1.8",
                "displace_atoms all random 0.1 0.1 0.1 5 units box"});
      },
      "gauss");
}

// auto: a tight list only where the list with the skin lives one step. With check no (a
// rebuild at every step) the list is tight after 16 such steps; the LJ liquid's list lives
// several steps with check yes, so it keeps the skin
TEST(GpuResident, TightListAutoFollowsTheRebuilds)
{
  Lmp every, lives;
  lj_liquid(every, true, 10, "every 1 delay 0 check no");
  lj_liquid(lives, true);
  for (Lmp *l : {&every, &lives}) l->cmd("run 100 post no");
  printf("[gpu] tight_list auto: %lld of 100 steps (check no), %lld (check yes, %d list "
         "builds)\n",
         engine_of(every)->tight_list_builds(), engine_of(lives)->tight_list_builds(),
         lives.lmp->neighbor->ncalls);
  EXPECT_TRUE(engine_of(every)->tight_list());
  EXPECT_GT(engine_of(every)->tight_list_builds(), 50);
  EXPECT_LT(engine_of(every)->tight_list_builds(), 100);
  EXPECT_EQ(engine_of(lives)->tight_list_builds(), 0);
  EXPECT_LT(lives.lmp->neighbor->ncalls, 50);
}

// yes where the list cannot be tight: the skin, and the reason
TEST(GpuResident, TightListRefusals)
{
  ScopedEnv yes("MESOGPU_TIGHT_LIST", "yes");
  Lmp l;
  // 3 fcc cells of 1.68: 5.0 across, below 2 x (2.5 + 0.3)
  lj_liquid(l, true, 3);
  l.cmd("run 2 post no");
  EXPECT_FALSE(engine_of(l)->tight_list());
  EXPECT_EQ(engine_of(l)->tight_list_builds(), 0);
  EXPECT_NE(engine_of(l)->tight_list_refusal().find("explicit images"), std::string::npos)
      << engine_of(l)->tight_list_refusal();
}

// a bad value stops the run with the variable's name and the allowed values
TEST(GpuResident, BuildCellLanesRefusesOtherWidths)
{
  ScopedEnv bad("MESOGPU_BUILD_CELL_LANES", "4");
  Lmp dev;
  lj_liquid(dev, true);
  const std::string err = dev.error_of("run 1 post no");
  EXPECT_NE(err.find("MESOGPU_BUILD_CELL_LANES='4' is not one of 0, 8, 16, 32"), std::string::npos)
      << err;
}

TEST(GpuResident, SmallBoxKeepsWideEntries)
{
  // a periodic side below two cutoffs + skin: explicit images, which cell entries cannot
  // name; list_entries 16 falls back to 32-bit entries and says why
  Lmp l;
  lj_liquid(l, true, 2);
  l.cmds({"run_style verlet/cuda list_entries 16", "run 10 post no"});
  auto *run = static_cast<LAMMPS_NS::VerletCuda *>(l.lmp->update->integrate);
  ASSERT_NE(run->device_engine(), nullptr);
  EXPECT_EQ(entry_bits(l), 32);
  EXPECT_NE(run->device_engine()->cell_entries_refusal().find("explicit images"),
            std::string::npos);
}

TEST(GpuResident, SortingKeepsResultsTopology)
{
  compare_sorting([](Lmp &l, bool dev) { angle_melt(l, dev, "harmonic", "charmm"); },
                  "bonds+angles+dihedrals");
}

// ---- thermostats and momentum --------------------------------------------------------

// mean of thermo temp over `blocks` runs of `every` steps (each output syncs the host)
double mean_temp(Lmp &l, int blocks, int every)
{
  double t = 0;
  for (int b = 0; b < blocks; ++b) {
    l.cmd("run " + std::to_string(every) + " post no");
    t += l.thermo("temp");
  }
  return t / blocks;
}

// Nose-Hoover: the same deterministic algorithm as the CPU fix; in double precision the
// two trajectories stay together, in float they agree statistically
TEST(GpuResident, NoseHooverFollowsCpu)
{
  Lmp cpu, dev;
  lj_liquid(cpu, false);
  lj_liquid(dev, true);
  cpu.cmds({"unfix 1", "fix 1 all nvt temp 1.2 1.2 0.5", "run 300 post no"});
  dev.cmds({"unfix 1", "fix 1 all nvt/cuda temp 1.2 1.2 0.5", "run 300 post no"});
  const double d = max_rel_diff(dev.positions(), cpu.positions());
  const double tc = mean_temp(cpu, 10, 100), td = mean_temp(dev, 10, 100);
  printf("[gpu] nvt/cuda: max rel. position difference to the CPU fix after 300 steps %.3g; mean T "
         "steps "
         "400..1300 dev %.4f cpu %.4f (target 1.2)\n",
         d, td, tc);
  if (std::is_same<mesogpu::cuda::real, double>::value) EXPECT_LT(d, 1e-8);
  EXPECT_NEAR(td, 1.2, 0.04);
}

TEST(GpuResident, LangevinReachesTarget)
{
  Lmp l;
  lj_liquid(l, true);
  l.cmds(
      {"velocity all scale 0.5", "fix th all langevin/cuda 1.5 1.5 0.5 48279", "run 2000 post no"});
  const double t = mean_temp(l, 10, 100);
  // 4000 atoms: the instantaneous T fluctuates by sqrt(2/3N) = 1.3 %; 10 nearly independent samples
  printf("[gpu] langevin/cuda: mean T over steps 2100..3000 = %.4f (target 1.5)\n", t);
  EXPECT_NEAR(t, 1.5, 0.03);
}

TEST(GpuResident, LangevinStreamIsReproducible)
{
  Lmp a, b, c;
  for (Lmp *l : {&a, &b, &c}) lj_liquid(*l, true);
  a.cmds({"fix th all langevin/cuda 1.0 1.0 1.0 777", "run 200 post no"});
  b.cmds({"fix th all langevin/cuda 1.0 1.0 1.0 777", "run 200 post no"});
  c.cmds({"fix th all langevin/cuda 1.0 1.0 1.0 778", "run 200 post no"});
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_GT(max_rel_diff(a.positions(), c.positions()), 1e-6);
}

// fix langevin/cuda's force added in fix nve/cuda's final half step (one kernel, the
// default) against the two kernels one after the other (MESOGPU_FUSED_FINAL=no): bitwise
// the same positions, velocities and forces after 200 steps; the setup's log line says
// which run fused
void compare_fused_final(const std::vector<std::string> &fixes, const char *label)
{
  std::vector<double> x[2], v[2], f[2];
  std::string text[2];
  for (int r = 0; r < 2; ++r) {
    unsetenv("MESOGPU_FUSED_FINAL");    // the default: fused
    std::unique_ptr<ScopedEnv> off;
    if (r == 1) off.reset(new ScopedEnv("MESOGPU_FUSED_FINAL", "no"));
    Lmp dev;
    lj_liquid(dev, true);
    dev.cmds(fixes);
    const std::string logfile = std::string("log.gpu_fused_final_") + (r ? "no" : "yes");
    dev.cmds({"log " + logfile, "thermo 50", "run 200 post no", "log none"});
    ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
    x[r] = dev.positions();
    v[r] = dev.peratom(dev.lmp->atom->v);
    f[r] = dev.forces();
    std::ifstream in(logfile);
    std::stringstream ss;
    ss << in.rdbuf();
    text[r] = ss.str();
    std::remove(logfile.c_str());
  }
  const std::string line = "verlet/cuda: fix th (langevin/cuda) adds its force in fix 1 "
                           "(nve/cuda)'s final half step";
  EXPECT_NE(text[0].find(line), std::string::npos) << label << ":\n" << text[0];
  EXPECT_EQ(text[1].find("adds its force in fix"), std::string::npos) << label << ":\n" << text[1];
  // (a NaN or a length mismatch gives HUGE_VAL)
  const double dx = max_rel_diff(x[0], x[1]), dv = max_rel_diff(v[0], v[1]),
               df = max_rel_diff(f[0], f[1]);
  printf("[gpu] %s, fused vs separate kernels, 200 steps: x %.3g v %.3g f %.3g\n", label, dx, dv,
         df);
  EXPECT_EQ(dx, 0.0) << label;
  EXPECT_EQ(dv, 0.0) << label;
  EXPECT_EQ(df, 0.0) << label;
}

TEST(GpuResident, LangevinFusedFinalIsBitwiseSame)
{
  compare_fused_final({"fix th all langevin/cuda 1.2 1.2 0.5 4711"}, "same group");
  // the thermostat on atoms 1..2000, the integrator on 1001..4000: atoms with the force
  // alone, with both, with the half step alone
  compare_fused_final({"group lg id <= 2000", "group ng id >= 1001", "unfix 1", "fix 1 ng nve/cuda",
                       "fix th lg langevin/cuda 1.2 1.2 0.5 4711"},
                      "other groups");
}

// the displacement test of check yes made in fix nve/cuda's first half step against the
// separate kernel (MESOGPU_FUSED_CHECK=no): the same test on the same values, so the same
// rebuild steps and the same trajectory to the bit; the integrator made the tests where it
// is the only fix that moves atoms and acts on all of them
void compare_fused_check(const std::vector<std::string> &cmds, const char *label, bool fused)
{
  std::vector<double> x[2], v[2];
  int builds[2] = {0, 0};
  long long checks[2] = {0, 0};
  for (int r = 0; r < 2; ++r) {
    unsetenv("MESOGPU_FUSED_CHECK");    // the default: in the integrator's pass
    std::unique_ptr<ScopedEnv> off;
    if (r == 1) off.reset(new ScopedEnv("MESOGPU_FUSED_CHECK", "no"));
    Lmp dev;
    lj_liquid(dev, true);
    dev.cmds(cmds);
    dev.cmds({"thermo 50", "run 300 post no"});
    ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
    x[r] = dev.positions();
    v[r] = dev.peratom(dev.lmp->atom->v);
    builds[r] = dev.lmp->neighbor->ncalls;
    checks[r] = engine_of(dev)->integrator_checks();
  }
  const double dx = max_rel_diff(x[0], x[1]), dv = max_rel_diff(v[0], v[1]);
  printf("[gpu] %s, displacement test in the integrator (%lld tests) vs its own kernel, 300 "
         "steps: x %.3g v %.3g; list builds %d / %d\n",
         label, checks[0], dx, dv, builds[0], builds[1]);
  EXPECT_EQ(dx, 0.0) << label;
  EXPECT_EQ(dv, 0.0) << label;
  EXPECT_EQ(builds[0], builds[1]) << label;
  EXPECT_GT(builds[0], 2) << label;    // the test asked for rebuilds
  EXPECT_EQ(checks[1], 0) << label;
  if (fused)
    EXPECT_GT(checks[0], 100) << label;
  else
    EXPECT_EQ(checks[0], 0) << label;
}

TEST(GpuResident, DisplacementTestInIntegratorIsBitwiseSame)
{
  compare_fused_check({}, "every 1 delay 0", true);
  compare_fused_check({"neigh_modify every 2 delay 4 check yes"}, "every 2 delay 4", true);
  // a group that is not all, and a second fix that moves atoms: the separate kernel
  compare_fused_check({"group half id <= 2000", "unfix 1", "fix 1 half nve/cuda"}, "group half",
                      false);
  compare_fused_check({"group lo id <= 2000", "group hi id > 2000", "unfix 1", "fix 1 lo nve/cuda",
                       "fix 2 hi nve/cuda"},
                      "two integrators", false);
}

TEST(GpuResident, BerendsenReachesTarget)
{
  Lmp cpu, dev;
  lj_liquid(cpu, false);
  lj_liquid(dev, true);
  cpu.cmds({"fix th all temp/berendsen 0.8 0.8 0.1", "run 2000 post no"});
  dev.cmds({"fix th all temp/berendsen/cuda 0.8 0.8 0.1", "run 2000 post no"});
  const double tc = mean_temp(cpu, 5, 100), td = mean_temp(dev, 5, 100);
  printf("[gpu] temp/berendsen/cuda: mean T %.4f (CPU fix: %.4f, target 0.8)\n", td, tc);
  EXPECT_NEAR(td, 0.8, 0.02);
  EXPECT_NEAR(td, tc, 0.02);
}

TEST(GpuResident, MomentumRemovesDrift)
{
  Lmp l;
  lj_liquid(l, true);
  l.cmds({"velocity all set 0.3 -0.2 0.1 sum yes units box",
          "fix m all momentum/cuda 10 linear 1 1 1", "variable vx equal vcm(all,x)",
          "variable vy equal vcm(all,y)", "variable vz equal vcm(all,z)",
          "thermo_style custom step temp v_vx v_vy v_vz", "thermo 10"});
  EXPECT_NEAR(l.variable("vx"), 0.3, 1e-12);    // drifting before the fix acts
  l.cmd("run 10 post no");
  const double vx = l.variable("vx"), vy = l.variable("vy"), vz = l.variable("vz");
  ASSERT_TRUE(std::isfinite(vx) && std::isfinite(vy) && std::isfinite(vz));
  printf("[gpu] momentum/cuda: vcm after removal (%.3g, %.3g, %.3g)\n", vx, vy, vz);
  const double tol =
      std::is_same<mesogpu::cuda::acc, float>::value ? 1e-6 : 1e-12;    // v in acc precision
  EXPECT_NEAR(vx, 0.0, tol);
  EXPECT_NEAR(vy, 0.0, tol);
  EXPECT_NEAR(vz, 0.0, tol);
}

// the DPD thermostat holds the temperature LAMMPS's own pair dpd holds in the same
// system (velocity Verlet at dt = 0.04 runs a little hot, Groot and Warren 1997, so the
// reference is LAMMPS, not 1.0): means over 3000 steps sampled every 2 steps, after 1000
// steps of equilibration; momentum stays zero
TEST(GpuResident, DPDThermostatAndMomentum)
{
  Lmp cpu, dev;
  dpd_fluid(cpu, false, 1.0);
  dpd_fluid(dev, true, 1.0);
  const std::vector<std::string> c = {"variable vx equal vcm(all,x)",
                                      "variable vy equal vcm(all,y)",
                                      "variable vz equal vcm(all,z)",
                                      "thermo_style custom step temp v_vx v_vy v_vz",
                                      "thermo 1000",
                                      "run 1000 post no",
                                      "fix tave all ave/time 2 1500 4000 c_thermo_temp",
                                      "run 3000 post no"};
  cpu.cmds(c);
  dev.cmds(c);
  const auto mean_t = [](Lmp &l) {
    auto *p = (double *) lammps_extract_fix(l.lmp, "tave", LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR, 0, 0);
    const double t = p ? *p : NAN;
    lammps_free(p);
    return t;
  };
  const double tc = mean_t(cpu), td = mean_t(dev);
  const double vcm =
      std::fabs(dev.variable("vx")) + std::fabs(dev.variable("vy")) + std::fabs(dev.variable("vz"));
  printf("[gpu] dpd/cuda: mean T over steps 1002..4000 = %.4f, LAMMPS pair dpd (CPU) %.4f "
         "(target 1.0); |vcm| = %.3g\n",
         td, tc, vcm);
  // 1536 particles, 1500 samples 2 steps apart (T decorrelates within ~10 steps): the
  // means scatter by ~0.2 % each
  EXPECT_NEAR(td, tc, 0.015);
  EXPECT_NEAR(td, 1.0, 0.06);
  // each pair's two threads compute the same force with opposite sign: momentum stays zero
  const double tol = std::is_same<mesogpu::cuda::acc, float>::value ? 1e-5 : 1e-12;
  EXPECT_LT(vcm, tol);
}

TEST(GpuResident, MomentumRemovesRotation)
{
  // the liquid set spinning about z (L ~ 1e4); angular removal must leave no angular
  // momentum, measured by LAMMPS's own group functions on the synced host data
  Lmp l;
  lj_liquid(l, true);
  l.cmds({"velocity all set 0.0 0.0 0.0", "variable vx atom -0.3*(y-8.4)",
          "variable vy atom 0.3*(x-8.4)", "velocity all set v_vx v_vy 0.0",
          "fix m all momentum/cuda 5 linear 1 1 1 angular", "variable lz equal angmom(all,z)",
          "variable lx equal angmom(all,x)", "thermo_style custom step temp v_lx v_lz",
          "thermo 5"});
  EXPECT_GT(std::fabs(l.variable("lz")), 1e3);    // it spins before the fix acts
  l.cmd("run 5 post no");
  const double lz = l.variable("lz"), lx = l.variable("lx");
  ASSERT_TRUE(std::isfinite(lz) && std::isfinite(lx));
  printf("[gpu] momentum/cuda angular: L after removal (x %.3g, z %.3g)\n", lx, lz);
  const double tol = std::is_same<mesogpu::cuda::acc, float>::value ? 1e-1 : 1e-6;
  EXPECT_NEAR(lz, 0.0, tol);
  EXPECT_NEAR(lx, 0.0, tol);
}

// ---- host output in resident runs ----------------------------------------------------

// per-atom data of a compute in tag order (after it was invoked)
std::vector<double> compute_peratom(Lmp &l, const char *id, int cols)
{
  const int n = l.lmp->atom->nlocal;
  std::vector<double> out((size_t) cols * l.lmp->atom->natoms);
  if (cols == 1) {
    auto *v = (double *) lammps_extract_compute(l.lmp, id, LMP_STYLE_ATOM, LMP_TYPE_VECTOR);
    for (int i = 0; i < n; ++i) out[l.lmp->atom->tag[i] - 1] = v[i];
  } else {
    auto **a = (double **) lammps_extract_compute(l.lmp, id, LMP_STYLE_ATOM, LMP_TYPE_ARRAY);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < cols; ++c) out[(size_t) cols * (l.lmp->atom->tag[i] - 1) + c] = a[i][c];
  }
  return out;
}

// compute pe/atom and stress/atom in a resident run equal the CPU styles' per-atom
// values on the same configuration, and sum to the global energy and pressure
TEST(GpuResident, PerAtomEnergyAndStress)
{
  Lmp cpu, dev;
  angle_melt(cpu, false, "harmonic", "charmm");
  angle_melt(dev, true, "harmonic", "charmm");
  const std::vector<std::string> c = {
      "compute pa all pe/atom", "compute sa all stress/atom NULL virial",
      "compute spa all reduce sum c_pa", "compute ssa all reduce sum c_sa[1] c_sa[2] c_sa[3]",
      "thermo_style custom step pe c_spa c_ssa[1] c_ssa[2] c_ssa[3]"};
  cpu.cmds(c);
  dev.cmds(c);
  cpu.cmds({"run 0 post no"});
  dev.cmds({"timestep 0.0", "thermo 1", "run 1 post no"});
  const auto pe_c = compute_peratom(cpu, "pa", 1), pe_d = compute_peratom(dev, "pa", 1);
  const auto st_c = compute_peratom(cpu, "sa", 6), st_d = compute_peratom(dev, "sa", 6);
  const double de = max_rel_diff(pe_d, pe_c), ds = max_rel_diff(st_d, st_c);
  const double sum_pe =
      *(double *) lammps_extract_compute(dev.lmp, "spa", LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR);
  const double pe = dev.thermo("pe");
  printf("[gpu] per-atom %s: max |pe_dev - pe_cpu| / max = %.3g, stress %.3g; sum pe/atom %.12g, "
         "pe %.12g\n",
         PREC, de, ds, sum_pe, pe);
  EXPECT_LT(de, FORCE_TOL);
  EXPECT_LT(ds, FORCE_TOL);
  EXPECT_NEAR(sum_pe, pe * dev.lmp->atom->natoms,
              ENERGY_TOL * std::fabs(pe * dev.lmp->atom->natoms));
}

// thermo temperature from the device reduction (compute temp/cuda, no download) equals
// the temperature from the host velocities after the run
TEST(GpuResident, ThermoTemperatureFromDevice)
{
  Lmp l(true);    // -sf cuda: thermo_temp is temp/cuda
  lj_liquid(l, true);
  ASSERT_EQ(std::string(l.lmp->modify->get_compute_by_id("thermo_temp")->style), "temp/cuda");
  l.cmds({"thermo_style custom step temp pe press", "thermo 50", "run 100 post no"});
  const double t_dev = l.thermo("temp");
  double mv2 = 0;
  for (int i = 0; i < l.lmp->atom->nlocal; ++i) {
    const double *v = l.lmp->atom->v[i];
    mv2 += l.lmp->atom->mass[l.lmp->atom->type[i]] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  const double t_host = mv2 / (3.0 * (l.lmp->atom->natoms - 1));
  printf("[gpu] thermo temp %s: device %.15g host %.15g\n", PREC, t_dev, t_host);
  EXPECT_NEAR(t_dev, t_host, 1e-12 * t_host);
}

// host fixes that observe (ave/time, print) see the device state of their step: the
// averages equal those of the CPU run
TEST(GpuResident, HostObserverFixes)
{
  Lmp cpu, dev(true);
  lj_liquid(cpu, false);
  lj_liquid(dev, true);
  const std::string file = "gpu_print_" + std::string(PREC) + ".txt";
  const std::vector<std::string> c = {"variable t equal temp",
                                      "fix av all ave/time 10 5 50 c_thermo_pe v_t",
                                      "fix pr all print 25 \"$(step) $(pe:%.15g)\" file " + file +
                                          " screen no",
                                      "thermo_style custom step pe temp",
                                      "thermo 0",
                                      "run 100 post no"};
  cpu.cmds(c);
  dev.cmds(c);
  const double t_c = cpu.variable("t"), t_d = dev.variable("t");
  double av_c[2], av_d[2];
  for (int k = 0; k < 2; ++k) {
    av_c[k] =
        *(double *) lammps_extract_fix(cpu.lmp, "av", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, k, 0);
    av_d[k] =
        *(double *) lammps_extract_fix(dev.lmp, "av", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, k, 0);
  }
  printf("[gpu] ave/time %s: <pe> dev %.12g cpu %.12g, <T> dev %.12g cpu %.12g (T now %g %g)\n",
         PREC, av_d[0], av_c[0], av_d[1], av_c[1], t_d, t_c);
  // 100 steps: the trajectories still agree to rounding in every precision
  const double tol = std::max(ENERGY_TOL, 1e-9);
  EXPECT_NEAR(av_d[0], av_c[0], 100 * tol * std::fabs(av_c[0]));
  EXPECT_NEAR(av_d[1], av_c[1], 100 * tol * std::fabs(av_c[1]));
  // fix print wrote steps 0, 25, 50, 75, 100
  std::ifstream in(file);
  std::string line;
  int lines = 0;
  long step = 0;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') {
      ++lines;
      step = std::stol(line);
    }
  EXPECT_EQ(lines, 5);    // steps 0 (setup), 25, 50, 75, 100
  EXPECT_EQ(step, 100);
  std::remove(file.c_str());
}

// a compute with its own neighbour list (rdf) run by a host fix in a resident run sees the
// current atoms and ghosts: its g(r) equals the one computed afterwards on the host
TEST(GpuResident, HostComputeWithOwnNeighborList)
{
  Lmp dev(true);
  lj_liquid(dev, true);
  dev.cmds({"compute rdf all rdf 40", "fix ar all ave/time 100 1 100 c_rdf[*] mode vector",
            "thermo 0", "run 100 post no"});
  const int rows = 40;
  std::vector<double> g_dev(rows);
  for (int r = 0; r < rows; ++r)
    g_dev[r] =
        *(double *) lammps_extract_fix(dev.lmp, "ar", LMP_STYLE_GLOBAL, LMP_TYPE_ARRAY, r, 1);
  // host reference on the same (synced) positions: a second rdf in a run 0 thermo line
  dev.cmds({"unfix ar", "compute rdf2 all rdf 40",
            "fix ar2 all ave/time 1 1 1 c_rdf2[*] mode vector", "run 0 post no"});
  double diff = 0, sum = 0;
  for (int r = 0; r < rows; ++r) {
    const double g =
        *(double *) lammps_extract_fix(dev.lmp, "ar2", LMP_STYLE_GLOBAL, LMP_TYPE_ARRAY, r, 1);
    diff += std::fabs(g - g_dev[r]);
    sum += std::fabs(g);
  }
  printf("[gpu] rdf from a host fix in a resident run vs host: sum |dg| / sum g = %.3g\n",
         diff / sum);
  EXPECT_GT(sum, 0.0);
  EXPECT_LT(diff / sum, 1e-6);
}

// ---- oriented particles: pair soft/aniso, fix leapfrog/aniso ----------------------------

// three types in a rho = 3 fluid with every model of soft/aniso among the type pairs;
// random orientations (dipole direction), per-atom masses of the sphere style
// smooth: only rod, disk (nu = 2) and iso pairs, whose forces are continuous everywhere
// (janus, aba, bab jump by (aA/2) f^nu / rc at the cutoff; nu < 1 diverges at patch edges)
void aniso_fluid(Lmp &l, bool dev, bool berendsen = false, bool smooth = false)
{
  const std::vector<std::string> smooth_coeffs = {
      "pair_coeff 1 1 396 rod 0.5 2.0", "pair_coeff 2 2 300 disk 0.4 2.0",
      "pair_coeff 3 3 100 rod 0.3 2.0", "pair_coeff 1 2 200 disk 0.3 2.0",
      "pair_coeff 1 3 150 iso",         "pair_coeff 2 3 250 iso"};
  const std::vector<std::string> all_coeffs = {
      "pair_coeff 1 1 396 janus 88 1.0 90", "pair_coeff 2 2 396 aba 132 0.5 65",
      "pair_coeff 3 3 100 rod 0.5 2.0",     "pair_coeff 1 2 200 bab 60 1.5 40",
      "pair_coeff 1 3 150 disk 0.3 1.0",    "pair_coeff 2 3 250 iso"};
  const std::vector<std::string> &coeffs = smooth ? smooth_coeffs : all_coeffs;
  l.cmds({"units lj", "atom_style hybrid sphere dipole", "atom_modify map array sort 0 0",
          "region box block 0 8 0 8 0 8", "create_box 3 box", "create_atoms 1 random 700 4711 NULL",
          "create_atoms 2 random 500 4712 NULL", "create_atoms 3 random 336 4713 NULL",
          "set type * diameter 1.0", "set type 1 mass 1.0", "set type 2 mass 1.3",
          "set type 3 mass 0.8", "set type * dipole/random 97 1.0",
          "velocity all create 1.0 8821 loop geom", "pair_style soft/aniso 1.0"});
  l.cmds(coeffs);
  // leave the random start on the CPU styles with the thermostat (both runs identical)
  l.cmds({"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "comm_modify vel yes",
          "timestep 0.002",
          "fix 1 all leapfrog/aniso inertia 1 1.0 2 0.5 3 2.0 berendsen 1.0 0.1 0.1", "thermo 0",
          "run 300 post no", "unfix 1", "pair_style " + S(dev, "soft/aniso") + " 1.0"});
  l.cmds(coeffs);
  l.cmds({std::string("fix 1 all ") + S(dev, "leapfrog/aniso") + " inertia 1 1.0 2 0.5 3 2.0" +
              (berendsen ? " berendsen 1.0 0.3 0.1" : ""),
          "run_style " + S(dev, "verlet")});
}

// torques in tag order
std::vector<double> torques(Lmp &l)
{
  return l.peratom(l.lmp->atom->torque);
}
std::vector<double> orientations(Lmp &l)
{
  std::vector<double> out(3 * l.lmp->atom->natoms);
  for (int i = 0; i < l.lmp->atom->nlocal; ++i)
    for (int d = 0; d < 3; ++d) out[3 * (l.lmp->atom->tag[i] - 1) + d] = l.lmp->atom->mu[i][d];
  return out;
}

TEST(GpuResident, ForcesTorquesSoftAniso)
{
  Lmp cpu, dev;
  aniso_fluid(cpu, false);
  aniso_fluid(dev, true);
  // relax the random start a little on the CPU styles so forces are moderate
  cpu.cmds({"thermo_style custom step pe press", "run 0 post no"});
  dev.cmds({"timestep 0.0", "thermo_style custom step pe press", "thermo 1", "run 1 post no"});
  double fs, ts;
  const double df = max_rel_diff(dev.forces(), cpu.forces(), &fs);
  const double dt = max_rel_diff(torques(dev), torques(cpu), &ts);
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  const double p_c = cpu.thermo("press"), p_d = dev.thermo("press");
  printf("[gpu] soft/aniso %s: max |F_dev - F_cpu| / max|F| = %.3g (max %.3g); torque %.3g (max "
         "%.3g); pe %.12g vs %.12g; press %.10g vs %.10g\n",
         PREC, df, fs, dt, ts, pe_d, pe_c, p_d, p_c);
  EXPECT_GT(fs, 0.0);
  EXPECT_GT(ts, 0.0);
  // float: acos near |c| = 1 and pow(f, nu - 1) near patch edges lose more digits than
  // the radial potentials, so the angular terms get ten times the radial tolerance
  EXPECT_LT(df, 10 * FORCE_TOL);
  EXPECT_LT(dt, 10 * FORCE_TOL);
  EXPECT_NEAR(pe_d, pe_c, ENERGY_TOL * std::max(1.0, std::fabs(pe_c)));
  EXPECT_NEAR(p_d, p_c, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_c)));
}

// 20 steps with every model: the device integrator follows the CPU fix step by step
// (double: to rounding; float: to float rounding, before chaos takes over)
TEST(GpuResident, TrajectorySoftAnisoShort)
{
  Lmp cpu, dev;
  aniso_fluid(cpu, false);
  aniso_fluid(dev, true);
  cpu.cmds({"run 20 post no"});
  dev.cmds({"run 20 post no"});
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double dn = max_rel_diff(orientations(dev), orientations(cpu));
  const double dw =
      max_rel_diff(dev.peratom(dev.lmp->atom->omega), cpu.peratom(cpu.lmp->atom->omega));
  printf("[gpu] soft/aniso 20 steps %s: max rel. dx %.3g, dn %.3g, domega %.3g\n", PREC, dx, dn,
         dw);
  const double tol = std::is_same<mesogpu::cuda::real, double>::value ? 1e-10 : 1e-3;
  EXPECT_LT(dx, tol);
  EXPECT_LT(dn, tol);
  EXPECT_LT(dw, 10 * tol);
}

// 1000 NVE steps with the smooth models: energy (translation + rotation + potential) is
// conserved on the device as the leapfrog promises (CPU, same input: |dE|/E < 2e-5)
TEST(GpuResident, SoftAnisoNVEConservesEnergy)
{
  Lmp dev;
  aniso_fluid(dev, true, false, true);
  dev.cmds({"variable erot equal (f_1[2]*count(all))",    // sum I|u|^2/2 = N_rot k T_rot
            "variable etot equal ke*atoms+pe*atoms+v_erot", "thermo_style custom step pe ke v_etot",
            "thermo 100", "run 0 post no"});
  const double e0 = dev.variable("etot");
  double worst = 0;
  for (int b = 0; b < 10; ++b) {
    dev.cmd("run 100 post no");
    worst = std::max(worst, std::fabs(dev.variable("etot") - e0));
  }
  double mu_err = 0;
  for (int i = 0; i < dev.lmp->atom->nlocal; ++i) {
    const double *m = dev.lmp->atom->mu[i];
    mu_err = std::max(mu_err, std::fabs(std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) - 1.0));
  }
  printf("[gpu] soft/aniso smooth NVE %s: max |E - E0| / |E0| over 1000 steps %.3g; max ||mu| - "
         "1| %.3g\n",
         PREC, worst / std::fabs(e0), mu_err);
  EXPECT_LT(worst / std::fabs(e0), 2e-4);
  EXPECT_LT(mu_err, 1e-5);
}

// Berendsen with separate translational and rotational coupling on the device: both
// temperatures reach the target; the fix's vector (device sums during the run) equals the
// host recomputation after it
TEST(GpuResident, LeapfrogAnisoBerendsen)
{
  Lmp dev;
  aniso_fluid(dev, true, true);
  dev.cmds({"velocity all scale 3.0", "thermo_style custom step f_1[1] f_1[2]", "thermo 100",
            "run 1500 post no"});
  double t_tr = 0, t_rot = 0;
  const int blocks = 20;
  for (int b = 0; b < blocks; ++b) {
    dev.cmd("run 50 post no");
    t_tr += *(double *) lammps_extract_fix(dev.lmp, "1", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 0, 0);
    t_rot += *(double *) lammps_extract_fix(dev.lmp, "1", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, 1, 0);
  }
  t_tr /= blocks;
  t_rot /= blocks;
  printf("[gpu] leapfrog/aniso/cuda berendsen %s: <T_tr> %.4f <T_rot> %.4f (target 1)\n", PREC,
         t_tr, t_rot);
  // fluctuations of 1536 atoms (~2 % per sample) and the janus model's heating at rc
  EXPECT_NEAR(t_tr, 1.0, 0.05);
  EXPECT_NEAR(t_rot, 1.0, 0.05);
}

// the energy the device thermostat exchanges (ecouple, accumulated on the host from the
// device's kinetic sums and the scale factors) equals the CPU fix's over the same short
// run; a fix_modify temp compute the device cannot honour is named in an error
TEST(GpuResident, LeapfrogAnisoEcoupleMatchesCpu)
{
  Lmp cpu, dev;
  aniso_fluid(cpu, false, true);
  aniso_fluid(dev, true, true);
  for (Lmp *l : {&cpu, &dev})
    l->cmds({"velocity all scale 3.0", "thermo_style custom step pe ecouple", "thermo 10",
             "run 20 post no"});
  const double e_cpu = cpu.thermo("ecouple"), e_dev = dev.thermo("ecouple");
  printf("[gpu] leapfrog/aniso/cuda ecouple after 20 steps %s: device %.12g, cpu %.12g\n", PREC,
         e_dev, e_cpu);
  // T_tr 3 -> 1 and T_rot: far from zero (ecouple is per atom: thermo normalises in lj
  // units; 0.48 on the H100)
  EXPECT_GT(std::fabs(e_cpu), 0.1);
  const double tol = std::is_same<mesogpu::cuda::real, double>::value ? 1e-9 : 1e-3;
  EXPECT_NEAR(e_dev, e_cpu, tol * std::fabs(e_cpu));
  dev.cmds({"compute tp all temp/partial 1 1 0", "fix_modify 1 temp tp"});
  const std::string msg = dev.error_of("run 1 post no");
  EXPECT_NE(msg.find("fix_modify temp tp (compute style temp/partial) cannot be used on the "
                     "device"),
            std::string::npos)
      << msg;
}

// device reductions sum in a fixed order: a run whose thermostat reads them every step
// repeats bit for bit (with atomic block totals the order, and after some hundred
// steps the trajectory, changed from run to run)
TEST(GpuResident, ThermostattedRunsRepeatExactly)
{
  std::vector<double> x[2], v[2];
  for (int r = 0; r < 2; ++r) {
    Lmp dev;
    lj_liquid(dev, true, 12);    // 6912 atoms: 54 blocks of partial sums
    dev.cmds({"fix th all temp/berendsen/cuda 0.8 0.8 0.1", "thermo 0", "run 1500 post no"});
    x[r] = dev.positions();
    v[r] = dev.peratom(dev.lmp->atom->v);
  }
  EXPECT_EQ(x[0], x[1]) << "two identical thermostatted runs differ";
  EXPECT_EQ(v[0], v[1]);
  std::vector<double> n[2];
  for (int r = 0; r < 2; ++r) {
    Lmp dev;
    aniso_fluid(dev, true, true);
    dev.cmds({"thermo 0", "run 1000 post no"});
    n[r] = dev.positions();
  }
  EXPECT_EQ(n[0], n[1]) << "two identical leapfrog/aniso Berendsen runs differ";
}

// past dt |omega x n| = 1: the device stops with the CPU's message, or with 'limit
// normalize' takes the normalised step n <- (n + dt w)/|n + dt w| (w = omega x n =
// (0, 600, 0) for n = x, so n = (1, 1.2, 0)/|.| after one step of dt 0.002)
TEST(GpuResident, LeapfrogAnisoLimit)
{
  {
    Lmp dev;
    aniso_fluid(dev, true);
    dev.cmds({"set type 1 omega 0 0 600", "set type 1 dipole 1 0 0"});
    const std::string m = dev.error_of("run 1 post no");
    EXPECT_NE(m.find("turns by more than 1 radian"), std::string::npos) << m;
  }
  Lmp dev;
  aniso_fluid(dev, true);
  dev.cmds({"set type 1 omega 0 0 600", "set type 1 dipole 1 0 0",
            "fix 1 all leapfrog/aniso/cuda inertia 1 1.0 2 0.5 3 2.0 limit normalize",
            "run 1 post no"});
  const double len = std::sqrt(1.0 + 1.44);
  double worst = 0.0;
  int checked = 0;
  for (int i = 0; i < dev.lmp->atom->nlocal; ++i) {
    if (dev.lmp->atom->type[i] != 1) continue;
    const double *mu = dev.lmp->atom->mu[i];
    worst = std::max(
        {worst, std::fabs(mu[0] - 1.0 / len), std::fabs(mu[1] - 1.2 / len), std::fabs(mu[2])});
    ++checked;
  }
  printf("[gpu] leapfrog/aniso/cuda limit normalize %s: %d atoms, max |mu - expected| %.3g\n", PREC,
         checked, worst);
  EXPECT_EQ(checked, 700);
  const bool acc_double = std::is_same<mesogpu::cuda::acc, double>::value;
  EXPECT_LT(worst, acc_double ? 1e-12 : 1e-5);
}

// ---- errors ---------------------------------------------------------------------------

// ---- neigh_modify exclude ----------------------------------------------------------------

TEST(GpuResident, ForcesExcludeTypeAndGroup)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        lj_liquid(l, dev);
        l.cmds({"group low id <= 1500", "neigh_modify exclude type 1 2 exclude group low low"});
      },
      // max|F| is half that of the plain liquid (8.3 vs 16): the same rounding, relative
      // to it, measured 2.2e-5 in mixed precision
      "exclude t/g", true, 2.0);
}
TEST(GpuResident, ForcesExcludeMoleculeInter)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        kg_melt(l, dev);
        l.cmd("neigh_modify exclude molecule/inter all");
      },
      "exclude inter");
}
TEST(GpuResident, ForcesExcludeMoleculeIntra)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        kg_melt(l, dev);
        l.cmd("neigh_modify exclude molecule/intra all");
      },
      "exclude intra");
}

// sorting moves every registered per-atom array: oriented particles with per-atom masses,
// and molecule IDs of an exclusion together with bonds
TEST(GpuResident, SortingKeepsResultsAniso)
{
  compare_sorting([](Lmp &l, bool dev) { aniso_fluid(l, dev, false, true); }, "soft/aniso", 2);
}
TEST(GpuResident, SortingKeepsResultsExclusions)
{
  compare_sorting(
      [](Lmp &l, bool dev) {
        kg_melt(l, dev);
        l.cmd("neigh_modify exclude molecule/intra all");
      },
      "kg melt, exclude molecule/intra", 2);
}

// ---- MD-SCF (fix mdscf/cuda) -------------------------------------------------------------

// A/B blend of 20-bead Gaussian chains with no pair forces (pair zero), field on an
// 8x6x10 grid (unequal spacings catch axis mix-ups), chi_AB 2 so the field has structure
void mdscf_blend(Lmp &l, bool dev, const std::string &deposit, int every)
{
  l.cmds({"units lj", "atom_style bond", "atom_modify map array sort 0 0",
          "region box block 0 8 0 7 0 9",
          "create_box 3 box bond/types 1 extra/bond/per/atom 2 extra/special/per/atom 6",
          "molecule chain " + source_dir() + "/examples/mdscf/blend/chain.mol",
          "create_atoms 0 random 75 4242 NULL mol chain 4343", "set mol 31*60 type 2",
          "set mol 61*75 type 3", "mass * 1.0", "bond_style " + S(dev, "harmonic"),
          "bond_coeff 1 1.5 0.0", "special_bonds lj 1.0 1.0 1.0",
          "pair_style " + S(dev, "zero") + " 0.1 nocoeff", "pair_coeff * *",
          // the ghost cutoff must exceed the longest bond (a Gaussian bond longer than it
          // gets the wrong image on the CPU; 3.4: 17 kT of bond energy)
          "comm_modify cutoff 3.4", "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes",
          // type 3 is not in the field: it feels bonds only
          "fix field all " + S(dev, "mdscf") + " grid 8 6 10 temp 1.0 kappa 0.1 chi 1 2 2.0 " +
              "every " + std::to_string(every) + " types 1 2 profile z deposit " + deposit,
          "fix_modify field energy yes", "velocity all create 1.0 5151 loop geom", "timestep 0.01",
          "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// the fix's profile (phi of each type per z plane) and W_chi, W_kappa
std::vector<double> mdscf_output(Lmp &l)
{
  auto *fix = l.lmp->modify->get_fix_by_id("field");
  std::vector<double> out;
  for (int i = 0; i < fix->size_array_rows; ++i)
    for (int j = 1; j < fix->size_array_cols; ++j) out.push_back(fix->compute_array(i, j));
  out.push_back(fix->compute_vector(0));
  out.push_back(fix->compute_vector(1));
  return out;
}

// densities (profile), energies, pressure and forces of a field built on the device from
// the same positions as the CPU's
void compare_mdscf_forces(const std::string &deposit)
{
  Lmp cpu, dev;
  mdscf_blend(cpu, false, deposit, 1);
  mdscf_blend(dev, true, deposit, 1);
  const char *th = "thermo_style custom step pe press ebond f_field f_field[1] f_field[2]";
  auto W = [](Lmp &l, int which) {    // lammps_get_thermo() knows no f_ keywords
    auto *fix = l.lmp->modify->get_fix_by_id("field");
    return which < 0 ? fix->compute_scalar() : fix->compute_vector(which);
  };
  cpu.cmds({th, "run 0 post no"});
  dev.cmds({"timestep 0.0", th, "thermo 1", "run 1 post no"});    // step 1 rebuilds the field
  const auto f_cpu = cpu.forces(), f_dev = dev.forces();
  const auto o_cpu = mdscf_output(cpu), o_dev = mdscf_output(dev);
  double scale;
  const double df = max_rel_diff(f_dev, f_cpu, &scale);
  const double dphi = max_rel_diff(o_dev, o_cpu);
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  const double p_c = cpu.thermo("press"), p_d = dev.thermo("press");
  const double w_c = W(cpu, -1), w_d = W(dev, -1);
  printf("[gpu] mdscf %-7s %s: max |F_dev - F_cpu| / max|F| = %.3g (max|F| = %.3g); profile+W "
         "%.3g; W %.12g vs %.12g; pe %.12g vs %.12g; press %.10g vs %.10g\n",
         deposit.c_str(), PREC, df, scale, dphi, w_d, w_c, pe_d, pe_c, p_d, p_c);
  EXPECT_GT(scale, 0.0);
  EXPECT_GT(std::fabs(W(cpu, 0)), 0.0);    // the chi term is present
  EXPECT_LT(df, FORCE_TOL);
  EXPECT_LT(dphi, ENERGY_TOL);
  EXPECT_NEAR(w_d, w_c, ENERGY_TOL * std::max(1.0, std::fabs(w_c)));
  EXPECT_NEAR(pe_d, pe_c, ENERGY_TOL * std::max(1.0, std::fabs(pe_c)));
  EXPECT_NEAR(p_d, p_c, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_c)));
}

TEST(GpuResident, ForcesMDSCFAtomic)
{
  compare_mdscf_forces("atomic");
}
TEST(GpuResident, ForcesMDSCFGather)
{
  compare_mdscf_forces("gather");
}

// 200 NVE steps with the field rebuilt every 7 steps: the frozen-field schedule and the
// interpolation between updates agree with the CPU (in double to rounding; in float the
// comparison is of pe, as for the other trajectories)
TEST(GpuResident, TrajectoryMDSCF)
{
  Lmp cpu, dev;
  mdscf_blend(cpu, false, "atomic", 7);
  mdscf_blend(dev, true, "atomic", 7);
  const char *th = "thermo_style custom step pe ke f_field";
  cpu.cmds({th, "thermo 200", "run 200 post no"});
  dev.cmds({th, "thermo 50", "run 200 post no"});
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  printf("[gpu] mdscf trajectory %s: 200 steps, every 7: pe dev %.10g cpu %.10g, max |x_dev - "
         "x_cpu| / max|x| %.3g\n",
         PREC, pe_d, pe_c, dx);
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  EXPECT_LT(dx, dbl ? 1e-9 : 1e-3);
  EXPECT_NEAR(pe_d, pe_c, (dbl ? 1e-8 : TRAJ_PE_TOL) * std::fabs(pe_c));
}

// a run split at a step that is not an update step continues with the stored field (device
// -> host at the end of the first run, host -> device at the setup of the second), as one
// run does. Deposit gather sums in a fixed order; what remains is the host's recomputed
// forces at the second setup (double arithmetic: the same to rounding in double, to
// float rounding in mixed/single). A field rebuilt or lost at the split moves atoms by
// orders of magnitude more.
TEST(GpuResident, MDSCFSplitRunEqualsOneRun)
{
  Lmp a, b;
  mdscf_blend(a, true, "gather", 10);
  mdscf_blend(b, true, "gather", 10);
  a.cmds({"thermo 0", "run 100 post no"});
  b.cmds({"thermo 0", "run 45 post no", "run 55 post no"});
  const double dx = max_rel_diff(a.positions(), b.positions());
  const double dw = std::fabs(a.lmp->modify->get_fix_by_id("field")->compute_scalar() -
                              b.lmp->modify->get_fix_by_id("field")->compute_scalar());
  printf("[gpu] mdscf split run %s: 100 vs 45 + 55 steps: max rel. position difference %.3g, "
         "|dW| %.3g\n",
         PREC, dx, dw);
  EXPECT_EQ(b.lmp->update->ntimestep, 100);
  const bool dbl = std::is_same<mesogpu::cuda::real, double>::value;
  EXPECT_LT(dx, dbl ? 1e-12 : 1e-6);
  EXPECT_LT(dw, dbl ? 1e-9 : 1e-3);
}

// the density grid sums to the particle count on the device: sum_g phi_K v_c rho0 = N_K
// (read through the synced host grid's profile: plane means times nodes per plane)
TEST(GpuResident, MDSCFDensityCountsAtoms)
{
  Lmp dev;
  mdscf_blend(dev, true, "atomic", 1);
  dev.cmds({"thermo 0", "run 3 post no"});
  auto *fix = dev.lmp->modify->get_fix_by_id("field");
  const double rho0 = fix->compute_vector(2);
  const double vc = 8.0 * 7.0 * 9.0 / (8 * 6 * 10);
  for (int type = 1; type <= 2; ++type) {
    double sum = 0;
    for (int i = 0; i < fix->size_array_rows; ++i) sum += fix->compute_array(i, type);
    const double count = sum * (8 * 6) * vc * rho0;
    printf("[gpu] mdscf %s: type %d: sum phi v_c rho0 = %.10g (atoms: 600)\n", PREC, type, count);
    EXPECT_NEAR(count, 600.0,
                600.0 * (std::is_same<mesogpu::cuda::acc, double>::value ? 1e-12 : 1e-4));
  }
}

// ---- sizes past 32-bit indices --------------------------------------------------------

// device memory in use by the whole process (the engine lives in the plugin)
size_t device_used()
{
  size_t free_b = 0, total_b = 0;
  mesogpu::cuda::Engine::device_memory(&free_b, &total_b);
  return total_b - free_b;
}

// A random LJ liquid of 4000 atoms (fcc 0.8442 with random displacements), forces and
// pe on the CPU; the same liquid replicated 20 x 20 x 20 (32 M atoms) so that the
// device's column-major neighbour list (entry k of atom i at k N + i) passes 2^31
// entries: N x 77.6 neighbours (4/3 pi 2.8^3 x 0.8442 within cutoff 2.5 + skin 0.3)
// = 2.5e9 > 2^31 = 2.1e9. Periodic replicas have the forces of the small system, so
// every device force is compared with the CPU force of its original atom
// ((tag - 1) mod 4000 + 1), and pe and pressure per atom with the small system's.
TEST(GpuResident, ForcesPast32BitNeighborIndex)
{
  const int cells = 10, rep = 20;
  const std::vector<std::string> liquid = {"units lj",
                                           "atom_style atomic",
                                           "atom_modify map array",
                                           "lattice fcc 0.8442",
                                           "region box block 0 " + std::to_string(cells) + " 0 " +
                                               std::to_string(cells) + " 0 " +
                                               std::to_string(cells),
                                           "create_box 1 box",
                                           "create_atoms 1 box",
                                           "mass 1 1.0",
                                           "displace_atoms all random 0.1 0.1 0.1 31337 units box"};
  const std::vector<std::string> pair = {"pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin",
                                         "thermo_style custom step pe press"};
  Lmp cpu;
  cpu.cmds(liquid);
  cpu.cmd("pair_style lj/cut 2.5");
  cpu.cmds(pair);
  cpu.cmds({"run 0 post no"});
  const auto f_ref = cpu.forces();
  const double pe_ref = cpu.thermo("pe"), p_ref = cpu.thermo("press");
  const long long n_small = cpu.lmp->atom->natoms;
  // full-list neighbours within cutoff + skin = 2.8, counted over all pairs (minimum image)
  double nb_small = 0;
  {
    auto **x = cpu.lmp->atom->x;
    const double *prd = cpu.lmp->domain->prd;
    const int n = cpu.lmp->atom->nlocal;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        double rsq = 0;
        for (int d = 0; d < 3; ++d) {
          double dd = x[i][d] - x[j][d];
          dd -= prd[d] * std::round(dd / prd[d]);
          rsq += dd * dd;
        }
        if (rsq <= 2.8 * 2.8) nb_small += 1;
      }
  }
  const long long n_big = n_small * rep * rep * rep;
  const double entries = nb_small * rep * rep * rep;
  printf("[gpu] past 2^31: %lld atoms (%d^3 replicas of %lld), %.2f neighbours per atom within "
         "2.8, %.4g list entries in use (2^31 = %.4g)\n",
         n_big, rep, n_small, nb_small / n_small, entries, 2147483648.0);
  ASSERT_GT(entries, 2147483648.0) << "the test must pass the 32-bit index range";

  const size_t used0 = device_used();
  Lmp dev;
  const std::string logname = "gpu_past32bit_" + std::string(PREC) + ".log";
  dev.cmd("log " + logname);
  dev.cmds(liquid);
  dev.cmd("replicate " + std::to_string(rep) + " " + std::to_string(rep) + " " +
          std::to_string(rep));
  dev.cmd("pair_style lj/cut/cuda 2.5");
  dev.cmds(pair);
  dev.cmds({"run_style verlet/cuda", "run 0 post no"});
  const size_t used1 = device_used();
  dev.cmd("log none");
  ASSERT_EQ(dev.lmp->atom->natoms, n_big);

  auto **f = dev.lmp->atom->f;
  const auto *tag = dev.lmp->atom->tag;
  double dmax = 0, fmax = 0;
  long long bad = 0;
  for (int i = 0; i < dev.lmp->atom->nlocal; ++i) {
    const long long t0 = (tag[i] - 1) % n_small;
    for (int d = 0; d < 3; ++d) {
      const double r = f_ref[3 * t0 + d];
      if (!std::isfinite(f[i][d])) ++bad;
      dmax = std::max(dmax, std::fabs(f[i][d] - r));
      fmax = std::max(fmax, std::fabs(r));
    }
  }
  const double pe = dev.thermo("pe"), press = dev.thermo("press");
  printf("[gpu] past 2^31 %s: max |F_dev - F_cpu(original)| / max|F| = %.3g over all %lld atoms "
         "(%lld non-finite); pe/atom %.12g vs %.12g; press %.10g vs %.10g; device memory in use "
         "%.2f GiB (%.0f bytes per atom)\n",
         PREC, dmax / fmax, n_big, bad, pe, pe_ref, press, p_ref, (used1 - used0) / 1073741824.0,
         double(used1 - used0) / n_big);
  // the setup line of run_style verlet/cuda: where the setup time goes
  {
    std::ifstream in(logname);
    std::string line;
    while (std::getline(in, line))
      if (line.find("verlet/cuda setup:") != std::string::npos) printf("[gpu] %s\n", line.c_str());
  }
  std::remove(logname.c_str());
  // with float positions (mixed, single) a pair distance is resolved to the float spacing
  // at the coordinates, which grows with the box: 20x the small box's; and the maximum
  // runs over 8000x more atoms, deeper into the tail of the rounding errors: 2 x 20x the
  // tolerance (an index error would misplace whole pair forces, far beyond it; first H100
  // run, mixed: 4.2e-4 = 21x FORCE_TOL)
  const double tol =
      FORCE_TOL * (std::is_same<mesogpu::cuda::real, float>::value ? 2.0 * rep : 1.0);
  EXPECT_EQ(bad, 0);
  EXPECT_LT(dmax / fmax, tol);
  EXPECT_NEAR(pe, pe_ref, ENERGY_TOL * std::max(1.0, std::fabs(pe_ref)) * 10);
  EXPECT_NEAR(press, p_ref, 100 * ENERGY_TOL * std::max(1.0, std::fabs(p_ref)));
}

// a run that does not fit stops with the memory it needs, not with an illegal access:
// a cap of 1.2 MB (MESOGPU_DEVICE_MEMORY_LIMIT) holds the 4000 atoms and the cell list
// (about 0.85 MB) but not the neighbour list (4000 x 116 entries x 4 bytes = 1.9 MB)
TEST(GpuResident, MemoryShortageIsAnError)
{
  setenv("MESOGPU_DEVICE_MEMORY_LIMIT", "1.2e6", 1);
  std::string m;
  {
    Lmp l;
    lj_liquid(l, true);
    m = l.error_of("run 1");
  }
  unsetenv("MESOGPU_DEVICE_MEMORY_LIMIT");
  printf("[gpu] memory cap 1.2 MB: %s\n", m.c_str());
  EXPECT_NE(m.find("not enough GPU memory for the neighbour list"), std::string::npos) << m;
  EXPECT_NE(m.find("bytes) more"), std::string::npos) << m;
  EXPECT_NE(m.find("MESOGPU_DEVICE_MEMORY_LIMIT"), std::string::npos) << m;
  // the same system runs without the cap (the engine of the failed run is gone)
  Lmp ok;
  lj_liquid(ok, true);
  EXPECT_EQ(ok.error_of("run 1 post no"), "");
}

// list_entries auto: 32-bit entries, unless the 32-bit list would leave too little free
// (below 128 bytes per atom + 64 MiB) where 16-bit cell entries fit: under a cap of 10 MB
// (MESOGPU_DEVICE_MEMORY_LIMIT) the 4000 atoms take cell entries (the whole engine then
// holds ~2 MB), and follow the uncapped 32-bit run to the bit
TEST(GpuResident, AutoEntriesShrinkToFitMemory)
{
  Lmp wide;
  lj_liquid(wide, true);
  wide.cmds({"thermo_style custom step pe press", "thermo 50", "run 100 post no"});
  setenv("MESOGPU_DEVICE_MEMORY_LIMIT", "1e7", 1);
  Lmp capped;
  lj_liquid(capped, true);
  capped.cmds({"thermo_style custom step pe press", "thermo 50", "run 100 post no"});
  const int bits_capped = entry_bits(capped);
  unsetenv("MESOGPU_DEVICE_MEMORY_LIMIT");
  printf("[gpu] list_entries auto: %d-bit without a cap, %d-bit under a 10 MB cap\n",
         entry_bits(wide), bits_capped);
  EXPECT_EQ(entry_bits(wide), 32);
  EXPECT_EQ(bits_capped, 16);
  EXPECT_EQ(capped.positions(), wide.positions());
  EXPECT_EQ(capped.forces(), wide.forces());
  EXPECT_EQ(capped.thermo("pe"), wide.thermo("pe"));
}

// fix_modify temp with a compute temp of another group: the device thermostats use that
// group's temperature, as the CPU fixes do. The heavy atoms start at T = 3, so the
// heavy-group temperature and that of all atoms (about 1.9) set very different
// rescalings; 50 steps later device and CPU still agree to rounding
TEST(GpuResident, ThermostatsHonourFixModifyTemp)
{
  for (const std::string fix : {"nvt", "temp/berendsen"}) {
    Lmp cpu, dev;
    lj_liquid(cpu, false);
    lj_liquid(dev, true);
    for (Lmp *l : {&cpu, &dev}) {
      const bool d = l == &dev;
      l->cmds({"group heavy type 2", "velocity heavy scale 3.0", "compute theavy heavy temp"});
      if (fix == "nvt")
        l->cmds({"unfix 1", "fix th all " + S(d, "nvt") + " temp 1.2 1.2 0.1"});
      else
        l->cmd("fix th all " + S(d, "temp/berendsen") + " 1.2 1.2 0.1");
      l->cmds({"fix_modify th temp theavy", "thermo_style custom step c_theavy temp", "thermo 50",
               "run 50 post no"});
    }
    const double tc = cpu.thermo("c_theavy"), td = dev.thermo("c_theavy");
    const double ac = cpu.thermo("temp"), ad = dev.thermo("temp");
    const double dx = max_rel_diff(dev.positions(), cpu.positions());
    printf("[gpu] %s/cuda with fix_modify temp (group type 2, started at T = 3): after 50 steps "
           "T(type 2) dev %.8f cpu %.8f, T(all) dev %.8f cpu %.8f, max rel. position "
           "difference %.3g\n",
           fix.c_str(), td, tc, ad, ac, dx);
    EXPECT_NEAR(td, tc, 1e-3 * tc);
    EXPECT_NEAR(ad, ac, 1e-3 * ac);
    if (std::is_same<mesogpu::cuda::real, double>::value) EXPECT_LT(dx, 1e-8);
  }
}

TEST(GpuResident, HostOnlyStylesAreNamed)
{
  {
    Lmp l;
    lj_liquid(l, true);
    l.cmds({"pair_style soft 1.0", "pair_coeff * * 1.0"});
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("pair style soft has no device part"), std::string::npos) << m;
  }
  {
    Lmp l;
    lj_liquid(l, true);
    l.cmds({"fix th all langevin 1.0 1.0 1.0 5"});
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("fix th (style langevin) acts during the step and has no device part"),
              std::string::npos)
        << m;
  }
  // (boxes below 2 x (cutoff + skin) run now, with explicit images: test_gpu_geometry.cpp)
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
