/* GPU tests of fix npt/cuda and fix nph/cuda (LAMMPS's Nose-Hoover barostat with its
   loops over atoms on the device, the box changing during a resident run): trajectories
   against LAMMPS's CPU fix npt / nph on the same LJ liquid (in double precision step for
   step, in mixed/single precision the box only), mean volume and pressure over 5000 steps
   against the CPU within their statistical errors, the x/y/z couplings, a box that
   shrinks to less than half its volume (the cell grid laid out again; no pair missed:
   the device energy and forces at the end equal a host evaluation of the same
   configuration), syncing every step, and the error of a box that becomes too small.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers are printed with [gpu]. */

#include "atom.h"
#include "domain.h"
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
#include <mpi.h>
#include <string>
#include <vector>

using namespace gpu_test;

namespace {

// TRAJ_X_TOL: positions after 200 steps relative to the box (double: the device follows
// the CPU, as fix nvt/cuda does to 1e-13 over 300 steps); BOX_TOL: box lengths and
// volume after 200 steps (in float the trajectories separate; the box, a collective
// coordinate, stays close over 200 steps); FORCE_TOL, ENERGY_TOL: one configuration,
// device vs host, as in test_gpu_resident.cpp
#if defined(MESOGPU_PREC_DOUBLE)
const double TRAJ_X_TOL = 1e-8, BOX_TOL = 1e-8, FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double TRAJ_X_TOL = -1, BOX_TOL = 1e-2, FORCE_TOL = 2e-4, ENERGY_TOL = 1e-5;
const char *PREC = "single";
#else
const double TRAJ_X_TOL = -1, BOX_TOL = 1e-3, FORCE_TOL = 2e-5, ENERGY_TOL = 1e-6;
const char *PREC = "mixed";
#endif

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
  // unwrapped positions in tag order (with the box of now)
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
  std::vector<double> box()
  {
    const auto *d = lmp->domain;
    return {d->boxlo[0], d->boxlo[1], d->boxlo[2], d->boxhi[0], d->boxhi[1], d->boxhi[2]};
  }
};

std::string num(double x)
{
  char b[32];
  snprintf(b, sizeof b, "%.10g", x);
  return b;
}

// an LJ liquid from an fcc lattice (4 cells^3 atoms, 4000 by default) at T = 1.5 with the
// barostat `fix 1 all <style> <args>` (style without /cuda)
void lj_barostat(Lmp &l, bool dev, const std::string &style, const std::string &args,
                 double density = 0.8442, int cells = 10, double cut = 2.5)
{
  const std::string c = std::to_string(cells);
  l.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0",
          "lattice fcc " + num(density), "region box block 0 " + c + " 0 " + c + " 0 " + c,
          "create_box 1 box", "create_atoms 1 box", "mass 1 1.0",
          "velocity all create 1.5 87287 loop geom",
          "pair_style " + S(dev, "lj/cut") + " " + num(cut), "pair_coeff 1 1 1.0 1.0",
          "neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "timestep 0.005",
          "thermo_style custom step temp pe press vol lx ly lz",
          "fix 1 all " + S(dev, style) + " " + args, "run_style " + S(dev, "verlet")});
}

// the same barostat on the CPU and on the device for `steps` steps: positions (double
// precision) and box
void compare_barostat(const std::string &style, const std::string &args, int steps = 200)
{
  Lmp cpu, dev;
  lj_barostat(cpu, false, style, args);
  lj_barostat(dev, true, style, args);
  const double vol0 = cpu.lmp->domain->xprd * cpu.lmp->domain->yprd * cpu.lmp->domain->zprd;
  const std::string run = "run " + std::to_string(steps) + " post no";
  cpu.cmd(run);
  dev.cmd(run);
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double db = max_rel_diff(dev.box(), cpu.box());
  const double vc = cpu.thermo("vol"), vd = dev.thermo("vol");
  const double pc = cpu.thermo("press"), pd = dev.thermo("press");
  printf("[gpu] fix %s %s (%s), %d steps: max |x_dev - x_cpu| / L %.3g, box %.3g; vol dev "
         "%.12g cpu %.12g (start %.6g); press dev %.10g cpu %.10g\n",
         style.c_str(), args.c_str(), PREC, steps, dx, db, vd, vc, vol0, pd, pc);
  EXPECT_GT(std::fabs(vc - vol0), 1e-3 * vol0) << "the box should have changed";
  EXPECT_LT(db, BOX_TOL);
  EXPECT_NEAR(vd, vc, 3 * BOX_TOL * vc);
  if (TRAJ_X_TOL > 0) {
    EXPECT_LT(dx, TRAJ_X_TOL);
    EXPECT_NEAR(pd, pc, 1e-6 * std::max(1.0, std::fabs(pc)));
  }
}

// mean volume and pressure over `blocks` blocks of 500 steps after 1000 steps of
// equilibration, with the standard error of the block means
struct Stats {
  double vol, vol_se, press, press_se;
};
Stats barostat_stats(bool dev, const std::string &style, const std::string &args, int blocks,
                     const std::string &pre)
{
  Lmp l;
  lj_barostat(l, dev, style, args);
  if (!pre.empty()) l.cmd(pre);
  l.cmds({"run 1000 post no", "variable vol equal vol",
          "fix av all ave/time 10 50 500 v_vol c_thermo_press", "variable mv equal f_av[1]",
          "variable mp equal f_av[2]"});
  std::vector<double> v, p;
  for (int b = 0; b < blocks; ++b) {
    l.cmd("run 500 post no");
    v.push_back(l.variable("mv"));
    p.push_back(l.variable("mp"));
  }
  auto mean_se = [](const std::vector<double> &x, double &se) {
    double m = 0, s = 0;
    for (double y : x) m += y;
    m /= x.size();
    for (double y : x) s += (y - m) * (y - m);
    se = std::sqrt(s / (x.size() - 1) / x.size());
    return m;
  };
  Stats st;
  st.vol = mean_se(v, st.vol_se);
  st.press = mean_se(p, st.press_se);
  return st;
}

// pre: a command before the equilibration (the same on both)
void compare_stats(const std::string &style, const std::string &args, double p_target,
                   const std::string &pre = "")
{
  const int blocks = 8;    // 1000 + 8 x 500 = 5000 steps
  const Stats c = barostat_stats(false, style, args, blocks, pre);
  const Stats d = barostat_stats(true, style, args, blocks, pre);
  printf("[gpu] fix %s %s (%s), 5000 steps: <vol> dev %.6g +- %.2g cpu %.6g +- %.2g; <press> dev "
         "%.5g +- %.2g cpu %.5g +- %.2g (target %.4g)\n",
         style.c_str(), args.c_str(), PREC, d.vol, d.vol_se, c.vol, c.vol_se, d.press, d.press_se,
         c.press, c.press_se, p_target);
  // four combined standard errors, and a floor of 0.2% of the volume / 0.02 in pressure
  // against block means that happen to agree too well
  const double tv = 4 * std::hypot(d.vol_se, c.vol_se) + 2e-3 * c.vol;
  const double tp = 4 * std::hypot(d.press_se, c.press_se) + 0.02;
  EXPECT_NEAR(d.vol, c.vol, tv);
  EXPECT_NEAR(d.press, c.press, tp);
  // the barostat holds the mean pressure near its target on both
  EXPECT_NEAR(d.press, p_target, 0.1 * p_target + 4 * d.press_se);
}

}    // namespace

// ---- step for step against the CPU fix --------------------------------------------------

TEST(GpuNpt, NptIsoFollowsCpu)
{
  compare_barostat("npt", "temp 1.5 1.5 0.5 iso 2.0 2.0 1.0");
}

TEST(GpuNpt, NphAnisoFollowsCpu)
{
  compare_barostat("nph", "aniso 2.0 2.0 1.0");
}

// x/y/z couplings: an uncontrolled dimension keeps its length, coupled ones stay equal
TEST(GpuNpt, CouplingsFollowCpu)
{
  const std::vector<std::string> cases = {
      "temp 1.5 1.5 0.5 x 2.0 2.0 1.0 z 2.0 2.0 1.0 couple xz",
      "temp 1.5 1.5 0.5 x 1.0 1.0 1.0 y 3.0 3.0 1.0",
      "temp 1.5 1.5 0.5 aniso 2.0 2.0 1.0 couple xyz mtk no tchain 1 pchain 0",
      "temp 1.5 1.5 0.5 iso 2.0 2.0 1.0 fixedpoint 0 0 0 drag 0.2",
  };
  for (const auto &args : cases) {
    SCOPED_TRACE(args);
    compare_barostat("npt", args);
  }
  Lmp dev;
  lj_barostat(dev, true, "npt", cases[0]);
  const double ly0 = dev.lmp->domain->yprd;
  dev.cmd("run 200 post no");
  EXPECT_EQ(dev.lmp->domain->yprd, ly0) << "y is not barostatted";
  EXPECT_EQ(dev.lmp->domain->xprd, dev.lmp->domain->zprd) << "couple xz";
  EXPECT_NE(dev.lmp->domain->xprd, ly0);
}

// ---- averages over longer runs ----------------------------------------------------------

TEST(GpuNpt, NptIsoAveragesAgree)
{
  compare_stats("npt", "temp 1.5 1.5 0.5 iso 2.0 2.0 1.0", 2.0);
}

// without a thermostat the lattice's kinetic energy is shared with the potential energy:
// start hotter so that the system is a liquid (T ~ 1.5) at P = 2, not a metastable crystal
TEST(GpuNpt, NphAnisoAveragesAgree)
{
  compare_stats("nph", "aniso 2.0 2.0 1.0", 2.0, "velocity all create 3.0 4928459 loop geom");
}

// ---- a box that shrinks -----------------------------------------------------------------

// from density 0.3 at pressure target 5: the box loses more than half its volume, the
// cells (at least cutoff + skin wide) are laid out again for fewer cells per edge; the
// device's energy and forces at the end equal a host evaluation of the same
// configuration (a missed pair would show), and the first 200 steps follow the CPU
TEST(GpuNpt, ShrinkingBox)
{
  const std::string args = "temp 1.5 1.5 0.5 iso 5.0 5.0 1.0";
  Lmp cpu, dev;
  lj_barostat(cpu, false, "npt", args, 0.3);
  lj_barostat(dev, true, "npt", args, 0.3);
  const double vol0 = dev.lmp->domain->xprd * dev.lmp->domain->yprd * dev.lmp->domain->zprd;
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  const double db = max_rel_diff(dev.box(), cpu.box());
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  dev.cmd("run 1300 post no");
  const double vol = dev.lmp->domain->xprd * dev.lmp->domain->yprd * dev.lmp->domain->zprd;
  const double pe_dev = dev.thermo("pe");
  const auto f_dev = dev.forces();
  // the same configuration on the host: run_style verlet runs the CPU code of lj/cut/cuda
  dev.cmds({"run_style verlet", "run 0 post no"});
  const double pe_host = dev.thermo("pe");
  const double df = max_rel_diff(f_dev, dev.forces());
  printf("[gpu] shrinking box (%s): 200 steps: box %.3g, x %.3g vs CPU; volume %.6g -> %.6g "
         "(density %.4g -> %.4g) in 1500 steps; pe device %.12g host %.12g; forces %.3g\n",
         PREC, db, dx, vol0, vol, 4000 / vol0, 4000 / vol, pe_dev, pe_host, df);
  EXPECT_LT(db, 10 * BOX_TOL);
  if (TRAJ_X_TOL > 0) EXPECT_LT(dx, TRAJ_X_TOL);
  EXPECT_LT(vol, 0.5 * vol0);
  EXPECT_NEAR(pe_dev, pe_host, ENERGY_TOL * std::max(1.0, std::fabs(pe_host)));
  EXPECT_LT(df, FORCE_TOL);
}

// ---- syncing, errors ---------------------------------------------------------------------

// a thermo keyword the device cannot supply (pxx) brings the atoms back every step (and
// the host rebuilds ghosts for the box of that step): the trajectory does not change
TEST(GpuNpt, SyncEveryStepEqualsNever)
{
  Lmp a, b;
  lj_barostat(a, true, "npt", "temp 1.5 1.5 0.5 aniso 2.0 2.0 1.0");
  lj_barostat(b, true, "npt", "temp 1.5 1.5 0.5 aniso 2.0 2.0 1.0");
  a.cmds({"thermo_style custom step temp press pxx vol", "thermo 1", "run 200 post no"});
  b.cmds({"thermo 0", "run 200 post no"});
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_EQ(a.box(), b.box());
}

// a box whose edge falls below 2 x (cutoff + skin) during the run: the list switches to
// explicit images at the next build; the device forces and energy at the end equal a host
// run 0 on the same configuration (no pair missed or counted twice)
TEST(GpuNpt, ShrinksIntoSmallBox)
{
  Lmp l;
  // 256 atoms at density 0.3: edge 9.5 > 2 x 4.3; at liquid density it would be 6.7
  lj_barostat(l, true, "npt", "temp 1.5 1.5 0.5 iso 5.0 5.0 1.0", 0.3, 4, 4.0);
  l.cmd("run 3000 post no");
  const double edge = l.lmp->domain->xprd;
  const double pe_dev = l.thermo("pe");
  const auto f_dev = l.forces();
  l.cmds({"run_style verlet", "run 0 post no"});
  const double pe_host = l.thermo("pe");
  const double df = max_rel_diff(f_dev, l.forces());
  printf("[gpu] shrinks into a small box (%s): edge 9.52 -> %.4g (2 x (cutoff + skin) = 8.6); pe "
         "device %.12g host %.12g; forces %.3g\n",
         PREC, edge, pe_dev, pe_host, df);
  EXPECT_LT(edge, 8.6);
  EXPECT_NEAR(pe_dev, pe_host, ENERGY_TOL * std::max(1.0, std::fabs(pe_host)));
  EXPECT_LT(df, FORCE_TOL);
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
