/* GPU tests of pair_style hybrid/cuda and hybrid/overlay/cuda: several pair terms on the
   device at once (the engine's force-term list), against LAMMPS's own hybrid styles
   over the CPU sub-styles on the same configuration and over short trajectories. Needs
   a GPU: exits 77 (ctest "skipped") otherwise. Tolerances depend on MESOGPU_PRECISION. */

#include "atom.h"
#include "force.h"
#include "lammps.h"
#include "update.h"

#include "engine.h"
#include "gpu_test_main.h"
#include "gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <string>
#include <type_traits>
#include <vector>

using namespace gpu_test;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11, TRAJ_TOL = 1e-9;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-5, TRAJ_TOL = 1e-3;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-5, ENERGY_TOL = 1e-6, TRAJ_TOL = 1e-3;
const char *PREC = "mixed";
#endif

struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  std::vector<double> peratom(double **a)
  {
    std::vector<double> out(3 * lmp->atom->natoms);
    for (int i = 0; i < lmp->atom->nlocal; ++i)
      for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = a[i][d];
    return out;
  }
  std::vector<double> forces() { return peratom(lmp->atom->f); }
  std::vector<double> torques() { return peratom(lmp->atom->torque); }
  std::vector<double> positions() { return peratom(lmp->atom->x); }
};

// soft-bead chains (examples/table_r2's chain.mol): table/r2 between all beads, plus a
// Gaussian attraction overlaid on the 1-1 and 1-2 pairs; two bead types
void soft_melt_overlay(Lmp &l, bool dev)
{
  const std::string tbl = source_dir() + "/potentials/gauss_soft.table GAUSS_SOFT";
  l.cmds({"units lj",
          "atom_style bond",
          "atom_modify map array sort 0 0",
          "region box block 0 12 0 12 0 12",
          "create_box 2 box bond/types 1 extra/bond/per/atom 2 extra/special/per/atom 6",
          "molecule chain " + source_dir() + "/examples/table_r2/chain.mol",
          "create_atoms 0 random 90 20260704 NULL mol chain 4711 overlap 0.3 maxtry 100",
          "set type 1 type/fraction 2 0.4 99",
          "mass * 1.0",
          "pair_style " + S(dev, "hybrid/overlay") + " " + S(dev, "table/r2") + " 1000 " +
              S(dev, "gauss") + " 2.0",
          "pair_coeff * * " + S(dev, "table/r2") + " " + tbl,
          "pair_coeff 1 1 " + S(dev, "gauss") + " -0.5 1.2",
          "pair_coeff 1 2 " + S(dev, "gauss") + " -0.3 1.0 1.8",
          "pair_modify shift yes",
          "bond_style " + S(dev, "harmonic"),
          "bond_coeff 1 20.0 0.9",
          "special_bonds lj 0.0 1.0 1.0",
          "neighbor 0.4 bin",
          "neigh_modify every 1 delay 0 check yes",
          "velocity all create 1.0 8675309 loop geom",
          "timestep 0.01",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// an LJ liquid whose 1-2 pairs are Gaussian (pair_style hybrid: one sub-style per pair)
void lj_gauss_hybrid(Lmp &l, bool dev)
{
  l.cmds({"units lj",
          "atom_style atomic",
          "atom_modify map array sort 0 0",
          "lattice fcc 0.8442",
          "region box block 0 8 0 8 0 8",
          "create_box 2 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.3 771",
          "mass 1 1.0",
          "mass 2 1.5",
          "velocity all create 1.44 87287 loop geom",
          "pair_style " + S(dev, "hybrid") + " " + S(dev, "lj/cut") + " 2.5 " + S(dev, "gauss") +
              " 2.0",
          "pair_coeff 1 1 " + S(dev, "lj/cut") + " 1.0 1.0",
          "pair_coeff 2 2 " + S(dev, "lj/cut") + " 0.8 1.1 2.2",
          "pair_coeff 1 2 " + S(dev, "gauss") + " -1.0 1.0",
          "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.005",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// soft anisotropic particles with a Lennard-Jones core overlaid on every pair; the
// random start is relaxed on the CPU styles (same in both instances)
void aniso_lj_overlay(Lmp &l, bool dev)
{
  const std::vector<std::string> coeffs = {"1 1 396 rod 0.5 2.0", "2 2 300 disk 0.4 2.0",
                                           "1 2 200 iso"};
  l.cmds({"units lj", "atom_style hybrid sphere dipole", "atom_modify map array sort 0 0",
          "region box block 0 8 0 8 0 8", "create_box 2 box", "create_atoms 1 random 800 4711 NULL",
          "create_atoms 2 random 600 4712 NULL", "set type * diameter 1.0", "set type 1 mass 1.0",
          "set type 2 mass 1.3", "set type * dipole/random 97 1.0",
          "velocity all create 1.0 8821 loop geom", "pair_style soft/aniso 1.0"});
  for (const auto &c : coeffs) l.cmd("pair_coeff " + c);
  l.cmds({"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "comm_modify vel yes",
          "timestep 0.002", "fix 1 all leapfrog/aniso inertia 1 1.0 2 0.5 berendsen 1.0 0.1 0.1",
          "thermo 0", "run 300 post no", "unfix 1",
          "pair_style " + S(dev, "hybrid/overlay") + " " + S(dev, "soft/aniso") + " 1.0 " +
              S(dev, "lj/cut") + " 0.8"});
  for (const auto &c : coeffs) {
    const auto sp = c.find(' ', c.find(' ') + 1);    // after "i j"
    l.cmd("pair_coeff " + c.substr(0, sp) + " " + S(dev, "soft/aniso") + c.substr(sp));
  }
  l.cmds({"pair_coeff * * " + S(dev, "lj/cut") + " 0.05 0.35", "pair_modify shift yes",
          "fix 1 all " + S(dev, "leapfrog/aniso") + " inertia 1 1.0 2 0.5",
          "run_style " + S(dev, "verlet")});
}

// CPU run 0 against one device step with dt = 0 (forces on the same positions)
// tol_factor: as in test_gpu_resident, where max|F| is small against the single pair
// forces whose float rounding adds up
void compare_forces(void (*setup)(Lmp &, bool), const char *label, bool torques = false,
                    double tol_factor = 1.0)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  cpu.cmds({"thermo_style custom step pe press epair", "run 0 post no"});
  dev.cmds(
      {"timestep 0.0", "thermo_style custom step pe press epair", "thermo 1", "run 1 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  double fs = 0, ts = 0;
  const double df = max_rel_diff(dev.forces(), cpu.forces(), &fs);
  const double dt = torques ? max_rel_diff(dev.torques(), cpu.torques(), &ts) : 0.0;
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  const double p_c = cpu.thermo("press"), p_d = dev.thermo("press");
  printf("[gpu] %-22s %s: max |F_dev - F_cpu| / max|F| = %.3g (max %.3g); torque %.3g; pe "
         "%.12g vs %.12g; press %.10g vs %.10g\n",
         label, PREC, df, fs, dt, pe_d, pe_c, p_d, p_c);
  EXPECT_GT(fs, 0.0);
  const double tol = tol_factor * (torques ? 10 * FORCE_TOL : FORCE_TOL);    // as soft/aniso
  EXPECT_LT(df, tol);
  if (torques) {
    EXPECT_GT(ts, 0.0);
    EXPECT_LT(dt, tol);
  }
  EXPECT_NEAR(pe_d, pe_c, ENERGY_TOL * std::max(1.0, std::fabs(pe_c)));
  EXPECT_NEAR(p_d, p_c, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_c)));
}

void compare_trajectory(void (*setup)(Lmp &, bool), const char *label, int steps)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  cpu.cmd("run " + std::to_string(steps) + " post no");
  dev.cmd("run " + std::to_string(steps) + " post no");
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  printf("[gpu] %-22s %s, %d steps: max rel. position difference %.3g; pe %.12g vs %.12g\n", label,
         PREC, steps, dx, pe_d, pe_c);
  EXPECT_LT(dx, TRAJ_TOL);
}

}    // namespace

TEST(GpuHybrid, OverlayTableR2Gauss)
{
  compare_forces(soft_melt_overlay, "overlay table/r2+gauss");
}
TEST(GpuHybrid, OverlayTableR2GaussTrajectory)
{
  compare_trajectory(soft_melt_overlay, "overlay table/r2+gauss", 200);
}

TEST(GpuHybrid, HybridLJGaussByTypePair)
{
  compare_forces(lj_gauss_hybrid, "hybrid lj/cut|gauss", false, 2.0);    // max|F| 8 (LJ: 16)
}
TEST(GpuHybrid, HybridLJGaussTrajectory)
{
  compare_trajectory(lj_gauss_hybrid, "hybrid lj/cut|gauss", 200);
}

TEST(GpuHybrid, OverlaySoftAnisoLJ)
{
  compare_forces(aniso_lj_overlay, "overlay soft/aniso+lj", true);
}
TEST(GpuHybrid, OverlaySoftAnisoLJTrajectory)
{
  compare_trajectory(aniso_lj_overlay, "overlay soft/aniso+lj", 20);
}

// per-atom energies of the hybrid style (compute pe/atom) sum to the device's pair energy
TEST(GpuHybrid, PerAtomEnergySumsToTotal)
{
  Lmp dev;
  soft_melt_overlay(dev, true);
  dev.cmds({"compute pea all pe/atom pair", "compute sum all reduce sum c_pea",
            "thermo_style custom step epair c_sum", "thermo 1", "run 1 post no"});
  const double epair = dev.thermo("epair") * dev.lmp->atom->natoms;    // thermo normalises
  const double sum =
      *(double *) lammps_extract_compute(dev.lmp, "sum", LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR);
  printf("[gpu] hybrid per-atom pair energy sum %.12g vs total %.12g\n", sum, epair);
  EXPECT_NEAR(sum, epair, 10 * ENERGY_TOL * std::max(1.0, std::fabs(epair)));
}

// -sf cuda turns pair_style hybrid/overlay and its sub-styles into their /cuda variants
TEST(GpuHybrid, SuffixPicksDeviceHybrid)
{
  Lmp dev(true);
  dev.cmds({"units lj", "atom_style atomic", "region box block 0 6 0 6 0 6", "create_box 1 box",
            "create_atoms 1 random 300 5 NULL", "mass 1 1.0",
            "pair_style hybrid/overlay lj/cut 1.5 gauss 1.5", "pair_coeff * * lj/cut 0.1 0.5",
            "pair_coeff * * gauss -0.5 1.0", "fix 1 all nve", "run 1 post no"});
  EXPECT_EQ(std::string(dev.lmp->force->pair_style), "hybrid/overlay/cuda");
  EXPECT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
}

// a sub-style without a device part, and per-sub-style special factors, are refused
TEST(GpuHybrid, Errors)
{
  {
    Lmp dev;
    dev.cmds({"units lj", "atom_style atomic", "region box block 0 6 0 6 0 6", "create_box 1 box",
              "create_atoms 1 random 300 5 NULL", "mass 1 1.0",
              "pair_style hybrid/overlay/cuda lj/cut 1.5 gauss/cuda 1.5",
              "pair_coeff * * lj/cut 0.1 0.5", "pair_coeff * * gauss/cuda -0.5 1.0",
              "fix 1 all nve/cuda", "run_style verlet/cuda"});
    const std::string m = dev.error_of("run 1");
    EXPECT_NE(m.find("sub-style lj/cut has no device part"), std::string::npos) << m;
  }
  {
    Lmp dev;
    dev.cmds({"units lj", "atom_style bond", "region box block 0 6 0 6 0 6",
              "create_box 1 box bond/types 1", "create_atoms 1 random 300 5 NULL", "mass 1 1.0",
              "pair_style hybrid/overlay/cuda lj/cut/cuda 1.5 gauss/cuda 1.5",
              "pair_coeff * * lj/cut/cuda 0.1 0.5", "pair_coeff * * gauss/cuda -0.5 1.0",
              "pair_modify pair gauss/cuda special lj 0.0 0.5 1.0", "fix 1 all nve/cuda",
              "run_style verlet/cuda"});
    const std::string m = dev.error_of("run 1");
    EXPECT_NE(m.find("special"), std::string::npos) << m;
  }
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
