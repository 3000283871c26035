/* GPU tests of fix npt/rigid/single/cuda and nph/rigid/single/cuda (the CPU fix's MTK
   barostat and Nose-Hoover chains for single-site rigid bodies, its loops over atoms on
   the device, the box changing during a resident run): trajectories against the CPU fix
   in a second LAMMPS instance. SSD water (pair ssd/cuda: forces and torques, 216
   molecules, real units, equilibrated on the host first) with iso coupling and both
   chains (NO_SQUISH), aniso with a pressure ramp (DLM), nph with x/y/z couple xy; an LJ
   mix of asymmetric tops and plain spheres (no bonus: translated only) under aniso.
   Compared: unwrapped positions, velocities, quaternions, lab angular momenta, box
   lengths and volume, FixNH's scalar and vector (chain and barostat state: eta, eta_dot,
   omega, omega_dot, etap, etap_dot and their energies), the thermostat's temperature
   (c_1_temp) and the barostat's pressure (c_1_press). Host syncs every step change
   nothing. The init errors are tested without a GPU in
   unittest/lammps/test_lammps_rigid_single_cuda.cpp.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers are printed with [gpu]. */

#include "domain.h"
#include "fix.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "update.h"

#include "gpu_test_main.h"
#include "gpu_test_util.h"
#include "lammps/rigid_single_test.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <ostream>
#include <string>
#include <vector>

using namespace gpu_test;
using rigid_single_test::State;

namespace {

// Tolerances, relative (max |dev - cpu| / max |cpu| per quantity).
// double: the device follows the CPU step for step (fix npt/cuda: x to 1e-8 of the box over
// 200 steps, fix nve|nvt/rigid/single/cuda: 1e-13); summation order (virial, kinetic sums)
// differs in the last bits and the liquid's chaos amplifies that over 200 steps: 1e-10 for
// the atoms, box and pressure, 1e-8 for FixNH's vector (omega_dot is a small difference,
// (P - P0) V / W, integrated).
// mixed, single: forces, torques and the virial are float (2e-5 and 2e-4 relative, as
// test_gpu_body_pairs.cpp measures), so the trajectories separate. The atoms are compared
// after TRAJ_STEPS = 30 steps only, at the tolerance of test_gpu_body_pairs.cpp's SSD
// trajectory (1e-3 in x; v, q, L 10x looser: they follow the float torques directly); the
// box, a collective coordinate, after 200 steps at test_gpu_npt.cpp's BOX_TOL; FixNH's
// vector integrates P - P0, which the float virial moves by more than its own size: not
// compared there.
#if defined(MESOGPU_PREC_DOUBLE)
const int TRAJ_STEPS = 200;
const double X_TOL = 1e-10, VQL_TOL = 1e-10, BOX_TOL = 1e-10, NH_TOL = 1e-8;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const int TRAJ_STEPS = 30;
const double X_TOL = 1e-3, VQL_TOL = 1e-2, BOX_TOL = 1e-2, NH_TOL = -1;
const char *PREC = "single";
#else
const int TRAJ_STEPS = 30;
const double X_TOL = 1e-3, VQL_TOL = 1e-2, BOX_TOL = 1e-3, NH_TOL = -1;
const char *PREC = "mixed";
#endif
const int STEPS = 200;

// SSD water (test_gpu_body_pairs.cpp's ssd_water, variant 0): 216 molecules on a perturbed
// simple-cubic lattice (18.6 A box, 1.0 g/cm^3), ssd and ssd1 types, random quaternions,
// 300 K, small random angmom; the SSD inertia of doc/fix_npt_rigid_single.md for both.
// The random orientations start far from equilibrium (the rotational temperature climbs to
// ~800 K and a perturbation grows ~500x in 200 steps): 1000 steps of the CPU fix (iso, 1
// atm) on the host first, the same code in both instances (run_style verlet; pair
// ssd/cuda is pair ssd there), then the fix under test from that state with fresh chains
// (a 1e-5 A perturbation then moves x by 5e-5 and the volume by 3e-6 in 150 steps on the
// CPU)
const std::string SSD_INERTIA = " inertia 1 1.7696 0.6145 1.1550 inertia 2 1.7696 0.6145 1.1550";
void ssd_water(LmpSession &l, bool dev, const std::string &fix)
{
  l.cmds({"units real",
          "atom_style ellipsoid",
          "atom_modify map array sort 0 0.0",
          "lattice sc 3.1",
          "region box block 0 6 0 6 0 6",
          "create_box 2 box",
          "create_atoms 1 box",
          "displace_atoms all random 0.15 0.15 0.15 7781 units box",
          "set type 1 type/fraction 2 0.5 1234",
          "set type * shape 1 1 1",
          "set type * mass 18.0153",
          "set type * quat/random 4471",
          "velocity all create 300.0 8821 loop geom",
          "variable ax atom 0.02*sin(1.7*id)",
          "variable ay atom 0.02*cos(2.3*id)",
          "variable az atom 0.015*sin(0.9*id+1)",
          "set type * angmom v_ax v_ay v_az",
          "pair_style " + S(dev, "ssd") + " 7.0",
          "pair_coeff 1 1 ssd",
          "pair_coeff 2 2 ssd1",
          "neighbor 1.0 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 1.0",
          "thermo 0",
          "run_style verlet",
          "fix eq all npt/rigid/single temp 300 300 100 iso 1 1 200" + SSD_INERTIA,
          "run 1000 post no",
          "unfix eq",
          "fix 1 all " + fix + SSD_INERTIA,
          "run_style " + S(dev, "verlet")});
}

// test_gpu_rigid_single.cpp's LJ mix: 216 atoms, types 1 and 2 asymmetric tops, type 3
// plain spheres (no bonus), lj/cut 2.5, T = 1
void lj_mix(LmpSession &l, bool dev, const std::string &fix)
{
  l.cmds({"units lj",
          "atom_style ellipsoid",
          "atom_modify map array sort 0 0.0",
          "lattice sc 0.6",
          "region box block 0 6 0 6 0 6",
          "create_box 3 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.4 4321",
          "set type 1 type/fraction 3 0.3 8765",
          "set type 1 shape 1.4 1.0 0.8",
          "set type 2 shape 1.6 0.9 0.9",
          "set type 1 mass 1.0",
          "set type 2 mass 1.3",
          "set type 3 mass 0.8",
          "set type 1 quat/random 2718",
          "set type 2 quat/random 3141",
          "velocity all create 1.0 87287 loop geom",
          "variable ax atom 1.5*sin(1.7*id)",
          "variable ay atom 1.2*cos(2.3*id)",
          "variable az atom 0.9*sin(0.9*id+1)",
          "set type * angmom v_ax v_ay v_az",
          "pair_style " + S(dev, "lj/cut") + " 2.5",
          "pair_coeff * * 1.0 1.0",
          "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.005",
          "thermo 0",
          "fix 1 all " + fix + " inertia 1 0.9 0.55 0.3 inertia 2 0.4 0.75 1.1",
          "run_style " + S(dev, "verlet")});
}

using SystemFn = void (*)(LmpSession &, bool, const std::string &);

struct Case {
  const char *name;
  SystemFn system;
  const char *style;    // npt/rigid/single or nph/rigid/single
  const char *args;
};
// gtest names a failing case by this
void PrintTo(const Case &c, std::ostream *os)
{
  *os << c.name << ": " << c.style << " " << c.args;
}

std::vector<double> box_of(LmpSession &l)
{
  const auto *d = l.lmp->domain;
  return {d->boxlo[0], d->boxlo[1], d->boxlo[2], d->boxhi[0], d->boxhi[1], d->boxhi[2]};
}
double volume_of(LmpSession &l)
{
  const auto *d = l.lmp->domain;
  return d->xprd * d->yprd * d->zprd;
}

// FixNH's vector (chain and barostat state) and scalar of fix 1
std::vector<double> nh_state(LmpSession &l)
{
  auto *f = l.lmp->modify->get_fix_by_id("1");
  std::vector<double> s;
  for (int i = 0; i < f->size_vector; ++i) s.push_back(f->compute_vector(i));
  s.push_back(f->compute_scalar());
  return s;
}

// the largest per-entry |a - b| / max(|b|, floor) (floor 1e-12 of the largest |b|: entries
// that are exactly zero on both sides, unused chain slots, pass)
double per_entry_rel(const std::vector<double> &a, const std::vector<double> &b)
{
  if (a.size() != b.size()) return HUGE_VAL;
  double scale = 0, worst = 0;
  for (double y : b) scale = std::max(scale, std::fabs(y));
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return HUGE_VAL;
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(std::fabs(b[i]), 1e-12 * scale));
  }
  return worst;
}

struct Columns {
  std::vector<double> x, v, q, l;
};
Columns columns(const State &s)
{
  Columns c;
  for (const auto &[tag, a] : s) {
    c.x.insert(c.x.end(), a.x.begin(), a.x.end());
    c.v.insert(c.v.end(), a.v.begin(), a.v.end());
    c.q.insert(c.q.end(), a.q.begin(), a.q.end());
    c.l.insert(c.l.end(), a.l.begin(), a.l.end());
  }
  return c;
}

void expect_atoms_follow(const std::string &what, LmpSession &dev, LmpSession &cpu)
{
  const Columns d = columns(rigid_single_test::state_of(dev.lmp));
  const Columns c = columns(rigid_single_test::state_of(cpu.lmp));
  const double rx = max_rel_diff(d.x, c.x), rv = max_rel_diff(d.v, c.v);
  const double rq = max_rel_diff(d.q, c.q), rl = max_rel_diff(d.l, c.l);
  printf("[gpu] %s (%s): rel. diff device vs CPU: x %.3g v %.3g q %.3g L %.3g\n", what.c_str(),
         PREC, rx, rv, rq, rl);
  EXPECT_LT(rx, X_TOL) << what;
  EXPECT_LT(rv, VQL_TOL) << what;
  EXPECT_LT(rq, VQL_TOL) << what;
  EXPECT_LT(rl, VQL_TOL) << what;
}

}    // namespace

// ---- step for step against the CPU fix ----------------------------------------------------

class GpuRigidNpt : public ::testing::TestWithParam<Case> {};

TEST_P(GpuRigidNpt, FollowsCpu)
{
  const Case &c = GetParam();
  LmpSession cpu, dev;
  c.system(cpu, false, std::string(c.style) + " " + c.args);
  c.system(dev, true, std::string(c.style) + "/cuda " + c.args);
  for (LmpSession *l : {&cpu, &dev})
    l->cmds({"variable t equal c_1_temp", "variable p equal c_1_press"});
  const double vol0 = volume_of(cpu);
  const State start = rigid_single_test::state_of(cpu.lmp);
  const std::string label = std::string(c.name) + ": fix " + c.style + " " + c.args;

  // the atoms after TRAJ_STEPS (all STEPS in double), then the box after STEPS
  const std::string run1 = "run " + std::to_string(TRAJ_STEPS) + " post no";
  cpu.cmd(run1);
  dev.cmd(run1);
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  ASSERT_EQ(std::string(dev.lmp->modify->get_fix_by_id("1")->style),
            std::string(c.style) + "/cuda");
  expect_atoms_follow(label + ", " + std::to_string(TRAJ_STEPS) + " steps", dev, cpu);
  {
    const Columns s0 = columns(start), s1 = columns(rigid_single_test::state_of(cpu.lmp));
    EXPECT_GT(max_rel_diff(s1.q, s0.q), 1e-3) << "the bodies should have turned";
  }
  if (TRAJ_STEPS < STEPS) {
    const std::string run2 = "run " + std::to_string(STEPS - TRAJ_STEPS) + " post no";
    cpu.cmd(run2);
    dev.cmd(run2);
  }

  const double vc = volume_of(cpu), vd = volume_of(dev);
  const double db = max_rel_diff(box_of(dev), box_of(cpu));
  const std::vector<double> nc = nh_state(cpu), nd = nh_state(dev);
  const double dnh = per_entry_rel(nd, nc);
  const double tc = cpu.variable("t"), td = dev.variable("t");
  const double pc = cpu.variable("p"), pd = dev.variable("p");
  printf("[gpu] %s (%s), %d steps: box %.3g; vol dev %.12g cpu %.12g (start %.8g); FixNH "
         "vector+scalar (%zu values) %.3g; T dev %.12g cpu %.12g; P dev %.10g cpu %.10g\n",
         label.c_str(), PREC, STEPS, db, vd, vc, vol0, nc.size(), dnh, td, tc, pd, pc);
  EXPECT_GT(std::fabs(vc - vol0), 1e-4 * vol0) << "the box should have changed";
  EXPECT_LT(db, BOX_TOL);
  EXPECT_NEAR(vd, vc, 3 * BOX_TOL * vc);
  if (NH_TOL > 0) {
    EXPECT_LT(dnh, NH_TOL);
    EXPECT_NEAR(td, tc, X_TOL * tc);
    // the pressure: kinetic and virial terms of either sign; relative to the larger of |P|
    // and the ideal-gas pressure N k_B T / V of the thermostat's temperature
    const auto *force = cpu.lmp->force;
    const double pid = force->nktv2p * cpu.lmp->atom->natoms * force->boltz * tc / vc;
    EXPECT_NEAR(pd, pc, 1e2 * X_TOL * std::max(std::fabs(pc), pid));
  }
}

INSTANTIATE_TEST_SUITE_P(Couplings, GpuRigidNpt,
                         ::testing::Values(Case{"ssd iso", ssd_water, "npt/rigid/single",
                                                "temp 300 300 100 iso 1 1 200 tchain 3 pchain 2"},
                                           Case{"ssd aniso dlm", ssd_water, "npt/rigid/single",
                                                "temp 300 320 100 aniso 1 1000 200 rotation dlm"},
                                           Case{"ssd nph couple xy", ssd_water, "nph/rigid/single",
                                                "x 1 1 200 y 1 1 200 z 500 500 200 couple xy"},
                                           Case{"lj tops and spheres aniso", lj_mix,
                                                "npt/rigid/single",
                                                "temp 1.0 1.0 0.1 aniso 2.0 2.0 0.5"}),
                         [](const ::testing::TestParamInfo<Case> &i) {
                           std::string n = i.param.name;
                           for (char &ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// ---- syncs -------------------------------------------------------------------------------

// thermo every step with keywords the device does not supply (the thermostat's
// temp/rigid/single, the fix's pressure) brings the atoms to the host every step: the device
// trajectory and box do not change
TEST(GpuRigidNptSync, SyncEveryStepEqualsNever)
{
  LmpSession a, b;
  const std::string fix = "npt/rigid/single/cuda temp 300 300 100 aniso 1 1 200";
  ssd_water(a, true, fix);
  ssd_water(b, true, fix);
  a.cmds(
      {"thermo_style custom step temp c_1_temp c_1_press vol f_1", "thermo 1", "run 100 post no"});
  b.cmds({"run 100 post no"});
  const State sa = rigid_single_test::state_of(a.lmp), sb = rigid_single_test::state_of(b.lmp);
  for (const auto &[tag, x] : sa) {
    const auto &y = sb.at(tag);
    EXPECT_EQ(x.x, y.x) << "atom " << tag;
    EXPECT_EQ(x.v, y.v) << "atom " << tag;
    EXPECT_EQ(x.q, y.q) << "atom " << tag;
    EXPECT_EQ(x.l, y.l) << "atom " << tag;
  }
  EXPECT_EQ(box_of(a), box_of(b));
  EXPECT_EQ(nh_state(a), nh_state(b));
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
