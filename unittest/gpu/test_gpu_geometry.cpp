/* GPU tests of the box geometries run_style verlet/cuda runs beyond large periodic boxes,
   each against the CPU (the same LAMMPS, host styles, the same input):
   * LAMMPS's examples/melt and examples/UNITS (ar.metal, 500 argon atoms): the normal path;
   * periodic boxes below 2 x (cutoff + skin), down to below 1 x: explicit images;
   * non-periodic boundaries f, s, m (a liquid droplet or column in vacuum), shrink-wrapped
     boxes following the atoms, and atoms lost through a fixed boundary;
   * atom_style template (examples/template/in.tmpl-data-mix, cyclohexane + methane).
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers print with the prefix [gpu]. */

#include "atom.h"
#include "domain.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
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

// FORCE/ENERGY_TOL: one configuration, device vs CPU (as test_gpu_resident.cpp); TRAJ_TOL:
// positions after a short run relative to the largest coordinate (double: the trajectories
// stay together to rounding; float: they separate chaotically, so only loosely)
#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11, TRAJ_TOL = 1e-9;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-5, TRAJ_TOL = 1e-2;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-5, ENERGY_TOL = 1e-6, TRAJ_TOL = 1e-2;
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

using SystemFn = void (*)(Lmp &, bool);

// forces, pe and pressure on one configuration (CPU run 0; device one step of dt = 0).
// The force difference is relative to max|F|, but at least to force_unit: LAMMPS's
// examples start on perfect lattices where every force is ~1e-14 by symmetry.
// tol_factor: where float rounding of many large pair forces adds up (mixed: the template
// mix, measured 2.4e-5)
void compare_forces(SystemFn setup, const char *label, double tol_factor = 1.0,
                    double force_unit = 0.0)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  cpu.cmds({"thermo_style custom step pe press vol", "run 0 post no"});
  const auto f_cpu = cpu.forces();
  const double pe_cpu = cpu.thermo("pe"), p_cpu = cpu.thermo("press"), v_cpu = cpu.thermo("vol");
  dev.cmds({"timestep 0.0", "thermo_style custom step pe press vol", "thermo 1", "run 1 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const auto f_dev = dev.forces();
  const double pe_dev = dev.thermo("pe"), p_dev = dev.thermo("press"), v_dev = dev.thermo("vol");
  double scale;
  double df = max_rel_diff(f_dev, f_cpu, &scale);
  if (scale > 0 && scale < force_unit) df *= scale / force_unit;
  printf(
      "[gpu] %-24s %s: max |F_dev - F_cpu| / max(max|F|, unit) = %.3g (max|F| = %.3g); pe %.12g vs "
      "%.12g; press %.10g vs %.10g\n",
      label, PREC, df, scale, pe_dev, pe_cpu, p_dev, p_cpu);
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(df, tol_factor * FORCE_TOL);
  EXPECT_NEAR(pe_dev, pe_cpu, ENERGY_TOL * std::max(1.0, std::fabs(pe_cpu)));
  EXPECT_NEAR(p_dev, p_cpu, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_cpu)));
  EXPECT_NEAR(v_dev, v_cpu, 1e-12 * v_cpu);
}

// a run of `steps` on both; positions (unwrapped), pe and the box afterwards
void compare_run(SystemFn setup, const char *label, int steps, double traj_tol = TRAJ_TOL)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  const std::string run = "run " + std::to_string(steps) + " post no";
  for (Lmp *l : {&cpu, &dev}) l->cmds({"thermo_style custom step pe ke vol lx ly lz", run});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double pe_cpu = cpu.thermo("pe"), pe_dev = dev.thermo("pe");
  const double ke_cpu = cpu.thermo("ke"), ke_dev = dev.thermo("ke");
  printf("[gpu] %-24s %s, %d steps: max rel. position difference %.3g; pe %.12g vs %.12g; ke "
         "%.12g vs %.12g; vol %.12g vs %.12g\n",
         label, PREC, steps, dx, pe_dev, pe_cpu, ke_dev, ke_cpu, dev.thermo("vol"),
         cpu.thermo("vol"));
  EXPECT_LT(dx, traj_tol);
  const double etol = std::is_same<mesogpu::cuda::real, double>::value ? 1e-8 : 1e-2;
  EXPECT_NEAR(pe_dev, pe_cpu, etol * std::max(1.0, std::fabs(pe_cpu)));
  EXPECT_NEAR(ke_dev, ke_cpu, etol * std::max(1.0, std::fabs(ke_cpu)));
  // the box (shrink-wrapped: reset at the last reneighbouring on both)
  for (int d = 0; d < 3; ++d) {
    const double l = cpu.lmp->domain->prd[d];
    EXPECT_NEAR(dev.lmp->domain->boxlo[d], cpu.lmp->domain->boxlo[d], traj_tol * 10 * l) << d;
    EXPECT_NEAR(dev.lmp->domain->boxhi[d], cpu.lmp->domain->boxhi[d], traj_tol * 10 * l) << d;
  }
}

// ---- systems ---------------------------------------------------------------------------

// LAMMPS examples/melt/in.melt (3d LJ melt; neighbour list every 20 steps, no check)
void melt(Lmp &l, bool dev)
{
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array", "lattice fcc 0.8442",
          "region box block 0 10 0 10 0 10", "create_box 1 box", "create_atoms 1 box", "mass 1 1.0",
          "velocity all create 3.0 87287 loop geom", "pair_style " + S(dev, "lj/cut") + " 2.5",
          "pair_coeff 1 1 1.0 1.0 2.5", "neighbor 0.3 bin",
          "neigh_modify every 20 delay 0 check no", "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// LAMMPS examples/UNITS/in.ar.metal: 500 argon atoms (5 x 5 x 5 fcc cells), metal units,
// the reduced parameters of in.ar.lj converted as that input does
void argon_metal(Lmp &l, bool dev)
{
  const double kb = 8.617343e-5, epskb = 117.7, sigma = 3.504, mass = 39.95;
  const double epsilon = epskb * kb, avogadro = 6.02214129e23;
  const double epsJ = epsilon * 1.602e-19, m_kg = mass / 1000.0 / avogadro, sM = sigma / 1e10;
  const double tscale = 1.0e12 / std::sqrt(epsJ / m_kg / (sM * sM));
  const double alat = std::pow(4.0 * sigma * sigma * sigma / 0.8842, 1.0 / 3.0);
  auto str = [](double v) {
    char b[64];
    snprintf(b, sizeof b, "%.17g", v);
    return std::string(b);
  };
  l.cmds({"units metal", "atom_style atomic", "atom_modify map array", "lattice fcc " + str(alat),
          "region box block 0 5 0 5 0 5", "create_box 1 box", "create_atoms 1 box",
          "mass 1 " + str(mass), "velocity all create " + str(1.0 * epskb) + " 12345",
          "pair_style " + S(dev, "lj/cut") + " " + str(2.5 * sigma),
          "pair_coeff 1 1 " + str(epsilon) + " " + str(sigma),
          "neighbor " + str(0.3 * sigma) + " bin", "neigh_modify delay 0 every 20 check no",
          "fix 1 all " + S(dev, "nve"), "timestep " + str(0.005 * tscale),
          "run_style " + S(dev, "verlet")});
}

// an LJ liquid in a periodic box of nx x ny x nz fcc cells (a = 1.68): cutoff + skin = 2.8,
// so 2 cells are 1.2 x, 3 cells 1.8 x and 1 cell 0.6 x (cutoff + skin)
void small_box(Lmp &l, bool dev, int nx, int ny, int nz)
{
  l.cmds({"units lj",
          "atom_style atomic",
          "atom_modify map array sort 0 0",
          "lattice fcc 0.8442",
          "region box block 0 " + std::to_string(nx) + " 0 " + std::to_string(ny) + " 0 " +
              std::to_string(nz),
          "create_box 2 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.3 771",
          "mass 1 1.0",
          "mass 2 1.5",
          "displace_atoms all random 0.05 0.05 0.05 4321 units box",
          "velocity all create 1.2 87287 loop geom",
          "pair_style " + S(dev, "lj/cut") + " 2.5",
          "pair_coeff 1 1 1.0 1.0",
          "pair_coeff 1 2 1.2 0.9",
          "pair_coeff 2 2 0.8 1.1 2.2",
          "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.005",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// dimers (harmonic bonds between the first two and the last two atoms of each fcc cell,
// nearest neighbours at 1.19) with special_bonds lj 0 1 1 in the 1.2 x 1.8 x 1.8 box: the
// bonded partner is excluded, its farther images (more than half a box away) are normal
// pairs, as LAMMPS's minimum_image_check() makes them
void small_box_dimers(Lmp &l, bool dev)
{
  l.cmds({"units lj", "atom_style bond", "atom_modify map array sort 0 0", "lattice fcc 0.8442",
          "region box block 0 2 0 3 0 3",
          "create_box 1 box bond/types 1 extra/bond/per/atom 1 extra/special/per/atom 2",
          "create_atoms 1 box", "mass 1 1.0"});
  const int n = static_cast<int>(l.lmp->atom->natoms);
  for (int k = 0; k + 3 < n; k += 4)
    l.cmds({"create_bonds single/bond 1 " + std::to_string(k + 1) + " " + std::to_string(k + 2),
            "create_bonds single/bond 1 " + std::to_string(k + 3) + " " + std::to_string(k + 4)});
  l.cmds({"displace_atoms all random 0.05 0.05 0.05 4321 units box",
          "pair_style " + S(dev, "lj/cut") + " 2.5", "pair_coeff 1 1 1.0 1.0",
          "bond_style " + S(dev, "harmonic"), "bond_coeff 1 20.0 1.19",
          "special_bonds lj 0.0 1.0 1.0", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", "velocity all create 1.0 8675309 loop geom",
          "timestep 0.005", "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// an LJ liquid column along z (periodic) in vacuum, boundaries `bnd` in x and y; with s or
// m the box shrinks to the atoms, with f it stays 0..24 (atoms stay well inside)
void column(Lmp &l, bool dev, const std::string &bnd)
{
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0",
          "boundary " + bnd + " " + bnd + " p", "lattice fcc 0.8442",
          "region box block 0 14 0 14 0 4", "create_box 1 box",
          "region col cylinder z 7 7 3.5 INF INF", "create_atoms 1 region col", "mass 1 1.0",
          "velocity all create 0.7 5511 loop geom mom yes rot yes",
          "pair_style " + S(dev, "lj/cut") + " 2.5", "pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", "timestep 0.005", "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// a droplet, non-periodic in all three dimensions
void droplet(Lmp &l, bool dev, const std::string &bnd)
{
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0",
          "boundary " + bnd + " " + bnd + " " + bnd, "lattice fcc 0.8442",
          "region box block 0 12 0 12 0 12", "create_box 1 box", "region drop sphere 6 6 6 3.2",
          "create_atoms 1 region drop", "mass 1 1.0",
          "velocity all create 0.6 5511 loop geom mom yes rot yes",
          "pair_style " + S(dev, "lj/cut") + " 2.5", "pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", "timestep 0.005", "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

// LAMMPS examples/template/in.tmpl-data-mix (atom_style template: cyclohexane rings from
// cyclohexane.mol, methane atoms), NVE instead of NVT, without the tail correction
void template_mix(Lmp &l, bool dev)
{
  const std::string in = source_dir() + "/unittest/gpu/inputs/template";
  l.cmds({"units real", "boundary p p p", "molecule cychex " + in + "/cyclohexane.mol",
          "atom_style template cychex", "atom_modify map array",
          "pair_style " + S(dev, "lj/cut") + " 12.0", "pair_modify mix geometric",
          "bond_style " + S(dev, "harmonic"), "angle_style " + S(dev, "harmonic"),
          "dihedral_style " + S(dev, "harmonic"), "read_data " + in + "/template-mix.data",
          "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

}    // namespace

// ---- the normal path on LAMMPS's own examples ---------------------------------------------

TEST(GpuGeometry, MeltExample)
{
  // fcc lattice: forces ~1e-14; mixed: 2.7e-5 of a force unit (float LJ pair forces)
  compare_forces(melt, "examples/melt", 2.0, 1.0);
  compare_run(melt, "examples/melt", 250);
}

TEST(GpuGeometry, UnitsArgonMetal)
{
  compare_forces(argon_metal, "examples/UNITS metal", 1.0, 0.1);    // eV/A; fcc lattice
  compare_run(argon_metal, "examples/UNITS metal", 100);
}

// ---- periodic boxes below 2 x (cutoff + skin): explicit images ------------------------------

TEST(GpuGeometry, SmallBox1p2To1p8)
{
  auto setup = [](Lmp &l, bool dev) { small_box(l, dev, 2, 3, 3); };
  compare_forces(setup, "small box 1.2/1.8/1.8");
  compare_run(setup, "small box 1.2/1.8/1.8", 200);
}

TEST(GpuGeometry, SmallBoxBelowOneCutoff)
{
  // 0.6 x (cutoff + skin) in x: an atom sees up to two images each way, its own included
  auto setup = [](Lmp &l, bool dev) { small_box(l, dev, 1, 2, 3); };
  compare_forces(setup, "small box 0.6/1.2/1.8");
  compare_run(setup, "small box 0.6/1.2/1.8", 200);
}

TEST(GpuGeometry, SmallBoxBondsAndSpecials)
{
  compare_forces(small_box_dimers, "small box dimers");
  compare_run(small_box_dimers, "small box dimers", 200);
}

// the oriented kernel (pair soft/aniso, every model among the type pairs) in a box of
// 1.8 = 1.4 x (cutoff + skin): forces, torques, energy (the setup of test_gpu_resident's
// aniso_fluid at the same density, in a small box)
TEST(GpuGeometry, SmallBoxSoftAnisoForcesTorques)
{
  auto setup = [](Lmp &l, bool dev) {
    const std::vector<std::string> coeffs = {
        "pair_coeff 1 1 396 janus 88 1.0 90", "pair_coeff 2 2 396 aba 132 0.5 65",
        "pair_coeff 3 3 100 rod 0.5 2.0",     "pair_coeff 1 2 200 bab 60 1.5 40",
        "pair_coeff 1 3 150 disk 0.3 1.0",    "pair_coeff 2 3 250 iso"};
    l.cmds({"units lj", "atom_style hybrid sphere dipole", "atom_modify map array sort 0 0",
            "region box block 0 1.8 0 1.8 0 1.8", "create_box 3 box",
            "create_atoms 1 random 8 4711 NULL", "create_atoms 2 random 6 4712 NULL",
            "create_atoms 3 random 4 4713 NULL", "set type * diameter 1.0", "set type 1 mass 1.0",
            "set type 2 mass 1.3", "set type 3 mass 0.8", "set type * dipole/random 97 1.0",
            "velocity all create 1.0 8821 loop geom", "pair_style soft/aniso 1.0"});
    l.cmds(coeffs);
    l.cmds({"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "comm_modify vel yes",
            "timestep 0.002",
            "fix 1 all leapfrog/aniso inertia 1 1.0 2 0.5 3 2.0 berendsen 1.0 0.1 0.1", "thermo 0",
            "run 100 post no", "unfix 1", "pair_style " + S(dev, "soft/aniso") + " 1.0"});
    l.cmds(coeffs);
    l.cmds({"fix 1 all " + S(dev, "leapfrog/aniso") + " inertia 1 1.0 2 0.5 3 2.0",
            "run_style " + S(dev, "verlet")});
  };
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  cpu.cmds({"thermo_style custom step pe press", "run 0 post no"});
  dev.cmds({"timestep 0.0", "thermo_style custom step pe press", "thermo 1", "run 1 post no"});
  double fs, ts;
  const double df = max_rel_diff(dev.forces(), cpu.forces(), &fs);
  const double dt =
      max_rel_diff(dev.peratom(dev.lmp->atom->torque), cpu.peratom(cpu.lmp->atom->torque), &ts);
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  printf("[gpu] small box soft/aniso %s: max |F_dev - F_cpu| / max|F| = %.3g (max %.3g); torque "
         "%.3g (max %.3g); pe %.12g vs %.12g\n",
         PREC, df, fs, dt, ts, pe_d, pe_c);
  EXPECT_GT(fs, 0.0);
  EXPECT_GT(ts, 0.0);
  EXPECT_LT(df, 10 * FORCE_TOL);    // as test_gpu_resident's soft/aniso tolerances
  EXPECT_LT(dt, 10 * FORCE_TOL);
  EXPECT_NEAR(pe_d, pe_c, ENERGY_TOL * std::max(1.0, std::fabs(pe_c)));
}

// ---- non-periodic boundaries ------------------------------------------------------------------

TEST(GpuGeometry, FixedBoundaryColumn)
{
  auto setup = [](Lmp &l, bool dev) { column(l, dev, "f"); };
  compare_forces(setup, "column f f p");
  compare_run(setup, "column f f p", 300);
}

TEST(GpuGeometry, ShrinkWrappedColumn)
{
  auto setup = [](Lmp &l, bool dev) { column(l, dev, "s"); };
  compare_forces(setup, "column s s p");
  compare_run(setup, "column s s p", 300);
}

TEST(GpuGeometry, ShrinkWrappedMinimumColumn)
{
  auto setup = [](Lmp &l, bool dev) { column(l, dev, "m"); };
  compare_forces(setup, "column m m p");
  compare_run(setup, "column m m p", 300);
}

TEST(GpuGeometry, DropletAllNonPeriodic)
{
  for (const char *b : {"f", "s"}) {
    const SystemFn setup = b[0] == 'f' ? SystemFn([](Lmp &l, bool dev) { droplet(l, dev, "f"); })
                                       : SystemFn([](Lmp &l, bool dev) { droplet(l, dev, "s"); });
    const std::string label = std::string("droplet ") + b + " " + b + " " + b;
    compare_forces(setup, label.c_str());
    compare_run(setup, label.c_str(), 300);
  }
}

// an atom shot through a fixed wall is lost: the run stops, as LAMMPS's default
// 'thermo_modify lost error' stops the CPU run
TEST(GpuGeometry, LostAtomThroughFixedBoundary)
{
  for (bool dev : {false, true}) {
    Lmp l;
    column(l, dev, "f");
    l.cmds({"group one id 1", "velocity one set 50.0 0.0 0.0", "thermo 10"});
    const std::string m = l.error_of("run 200 post no");
    printf("[gpu] lost atom (%s): %s\n", dev ? "device" : "cpu", m.c_str());
    EXPECT_NE(m.find(dev ? "lost atoms" : "Lost atoms"), std::string::npos) << m;
  }
}

// ---- atom_style template -------------------------------------------------------------------

TEST(GpuGeometry, TemplateDataMix)
{
  compare_forces(template_mix, "tmpl-data-mix", 2.0);
  // real units, 1 fs: 200 steps as the brief's NVE check
  compare_run(template_mix, "tmpl-data-mix", 200);
}

// molecule IDs of atom_style template serve neigh_modify exclude molecule/intra
TEST(GpuGeometry, TemplateExcludeMolecule)
{
  compare_forces(
      [](Lmp &l, bool dev) {
        template_mix(l, dev);
        l.cmd("neigh_modify exclude molecule/intra all");
      },
      "tmpl-data-mix exclude", 2.0);
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
