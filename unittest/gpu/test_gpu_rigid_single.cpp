/* GPU tests of fix nve/rigid/single/cuda and fix nvt/rigid/single/cuda (single-site rigid
   bodies resident on the device): trajectories against the CPU fixes in a second LAMMPS
   instance (positions, velocities, quaternions and lab angmom after 200 steps) for
   ellipsoids of two types with asymmetric per-type inertia plus plain spheres (no bonus,
   translated only) under pair lj/cut (forces, no torques: the free rotation of asymmetric
   tops is what the rotation step must get right), NO_SQUISH and DLM, a linear body type
   (one zero moment), a sub-group; the Nose-Hoover chain on translation and rotation; host
   syncs every step change nothing; 'dipole yes' gives the CPU's mu; and the laws of free
   rotation on the device (lab angmom of every top conserved to rounding, the rotational
   kinetic energy bounded near its start). The init errors of resident runs are tested
   without a GPU in unittest/lammps/test_lammps_rigid_single_cuda.cpp.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers are printed with [gpu]. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "domain.h"
#include "lammps.h"
#include "update.h"

#include "gpu_test_main.h"
#include "gpu_test_util.h"
#include "lammps/rigid_single_test.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <string>
#include <vector>

using namespace gpu_test;

namespace {

// X_TOL, V_TOL: positions (relative to the largest |x|) and velocities after 200 steps:
// in double the device follows the CPU step for step (fix nvt/cuda: 1e-13 over 300
// steps); in mixed and single the forces are float and the trajectories separate (as in
// test_gpu_npt.cpp): not compared. Q_TOL, L_TOL: quaternions and angmom; without torques
// the rotation of a body depends on its own (q, L) only, which mixed precision keeps in
// double: so 1e-10 there as well under fix nve (NVE_QL), while under the thermostat the
// chain's factor follows the float forces through the temperature (NVT_QL). ROT_*: the
// laws of free rotation over 2000 steps; FROZEN_TOL: atoms outside the fix group (float
// state in single precision).
#if defined(MESOGPU_PREC_DOUBLE)
const double X_TOL = 1e-10, V_TOL = 1e-10, NVE_QL = 1e-10, NVT_QL = 1e-10;
const double ROT_L_TOL = 1e-12, ROT_E_TOL = 1e-4, FROZEN_TOL = 0;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double X_TOL = -1, V_TOL = -1, NVE_QL = 1e-3, NVT_QL = 1e-2;
// single: float rounding (6e-8) of each of 2000 steps' rotations adds up (measured 5e-4 on
// an H100, 2026-11-25)
const double ROT_L_TOL = 3e-3, ROT_E_TOL = 3e-3, FROZEN_TOL = 1e-5;
const char *PREC = "single";
#else
const double X_TOL = -1, V_TOL = -1, NVE_QL = 1e-10, NVT_QL = 1e-4;
const double ROT_L_TOL = 1e-12, ROT_E_TOL = 1e-4, FROZEN_TOL = 0;
const char *PREC = "mixed";
#endif

using rigid_single_test::State;

std::string num(double x)
{
  char b[32];
  snprintf(b, sizeof b, "%.17g", x);
  return b;
}

// per-type inertia of the system below: type 1 and 2 asymmetric tops, type 3 plain
// spheres (no bonus, no inertia); with `linear`, type 2 is a linear body (Izz = 0)
const double INERTIA[3][3] = {{0.9, 0.55, 0.3}, {0.4, 0.75, 1.1}, {0.6, 0.6, 0.0}};
std::string inertia_args(bool linear)
{
  std::string s =
      " inertia 1 " + num(INERTIA[0][0]) + " " + num(INERTIA[0][1]) + " " + num(INERTIA[0][2]);
  const double *i2 = linear ? INERTIA[2] : INERTIA[1];
  s += " inertia 2 " + num(i2[0]) + " " + num(i2[1]) + " " + num(i2[2]);
  return s;
}

// 216 atoms on a simple cubic lattice at density 0.6 (box edge 7.1), three types by
// fraction: 1 and 2 ellipsoids (random quaternions, angmom of up to 1.5 per component),
// 3 plain spheres; LJ 2.5, T = 1; `fix 1 <group> <style> <args>` (style without /cuda)
void system(LmpSession &l, bool dev, const std::string &fix, const std::string &extra = "")
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
          "thermo 0"});
  // extra: commands separated by newlines (a pair style replacing lj/cut, a timestep)
  for (size_t a = 0; a < extra.size();) {
    const size_t b = std::min(extra.find('\n', a), extra.size());
    if (b > a) l.cmd(extra.substr(a, b - a));
    a = b + 1;
  }
  l.cmds({"fix 1 " + fix, "run_style " + S(dev, "verlet")});
}

// x, v, q, L of a state in tag order, for max_rel_diff
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

struct Rel {
  double x, v, q, l;
};
Rel compare(const State &dev, const State &cpu)
{
  const Columns d = columns(dev), c = columns(cpu);
  return {max_rel_diff(d.x, c.x), max_rel_diff(d.v, c.v), max_rel_diff(d.q, c.q),
          max_rel_diff(d.l, c.l)};
}

void expect_follows(const std::string &what, const State &d, const State &c, double ql_tol)
{
  const Rel r = compare(d, c);
  printf("[gpu] %s (%s), rel. diff device vs CPU: x %.3g v %.3g q %.3g L %.3g\n", what.c_str(),
         PREC, r.x, r.v, r.q, r.l);
  if (X_TOL > 0) EXPECT_LT(r.x, X_TOL) << what;
  if (V_TOL > 0) EXPECT_LT(r.v, V_TOL) << what;
  EXPECT_LT(r.q, ql_tol) << what;
  EXPECT_LT(r.l, ql_tol) << what;
}

}    // namespace

// ---- step for step against the CPU fixes -------------------------------------------------

class GpuRigidSingleNve : public ::testing::TestWithParam<const char *> {};

TEST_P(GpuRigidSingleNve, FollowsCpu)
{
  const std::string scheme = GetParam();
  LmpSession cpu, dev;
  auto fix = [&](bool d) {
    return "all nve/rigid/single" + std::string(d ? "/cuda" : "") + inertia_args(false) +
           " rotation " + scheme;
  };
  system(cpu, false, fix(false), "variable er equal f_1");
  system(dev, true, fix(true), "variable er equal f_1");
  const State start = rigid_single_test::state_of(cpu.lmp);
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
  EXPECT_GT(compare(start, c).q, 0.1) << "the bodies should have turned";
  expect_follows("fix nve/rigid/single rotation " + scheme + ", 200 steps", d, c, NVE_QL);
  // the fix's scalar: the rotational kinetic energy with the fix's inertia
  const double ec = cpu.variable("er"), ed = dev.variable("er");
  printf("[gpu]   E_rot device %.15g cpu %.15g\n", ed, ec);
  EXPECT_NEAR(ed, ec, NVE_QL * ec);
}

INSTANTIATE_TEST_SUITE_P(Schemes, GpuRigidSingleNve, ::testing::Values("no_squish", "dlm"));

// Gay-Berne ellipsoids (pair gb/cuda: forces and torques) turned by their torques: the
// whole resident step of oriented beads (pair kernel writing torques, rigid kick and
// rotation, packed quaternions for the next step) against the CPU styles
TEST(GpuRigidSingle, GayBerneTorquesFollowCpu)
{
#if defined(MESOGPU_PREC_DOUBLE)
  const int steps = 200;
  const double tol = 1e-10;
#elif defined(MESOGPU_PREC_SINGLE)
  const int steps = 50;
  const double tol = 1e-2;
#else
  const int steps = 50;
  const double tol = 1e-4;
#endif
  LmpSession cpu, dev;
  auto setup = [&](LmpSession &l, bool d) {
    system(l, d, "all nve/rigid/single" + std::string(d ? "/cuda" : "") + inertia_args(false),
           "pair_style " + S(d, "gb") + " 2.5\npair_coeff 1 1 gb 0.4 0.9 1.0 1.0 0.4\n" +
               "pair_coeff 2 2 gb 0.5 1.0 0.8 0.8 0.5\npair_coeff 3 3 lj 0.6 1.0\n" +
               "timestep 0.002\nvariable pe equal pe");
  };
  setup(cpu, false);
  setup(dev, true);
  const State start = rigid_single_test::state_of(cpu.lmp);
  const std::string run = "run " + std::to_string(steps) + " post no";
  cpu.cmd(run);
  dev.cmd(run);
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  double tmax = 0;
  for (int i = 0; i < cpu.lmp->atom->nlocal; ++i)
    for (int d = 0; d < 3; ++d) tmax = std::max(tmax, std::fabs(cpu.lmp->atom->torque[i][d]));
  EXPECT_GT(tmax, 1e-3) << "the Gay-Berne pairs should exert torques";
  const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
  EXPECT_GT(compare(start, c).q, 1e-3) << "the bodies should have turned";
  expect_follows("pair gb + fix nve/rigid/single, " + std::to_string(steps) + " steps", d, c, tol);
  const double pc = cpu.variable("pe"), pd = dev.variable("pe");
  printf("[gpu]   pe device %.15g cpu %.15g, max |torque| %.3g\n", pd, pc, tmax);
  EXPECT_NEAR(pd, pc, tol * std::max(1.0, std::fabs(pc)));
}

// a linear body type (Izz = 0): spin about the axis dropped at setup (on the host, carried
// to the device), the exact flow about L, the kicks projected
TEST(GpuRigidSingle, LinearBodyFollowsCpu)
{
  LmpSession cpu, dev;
  system(cpu, false, "all nve/rigid/single" + inertia_args(true));
  system(dev, true, "all nve/rigid/single/cuda" + inertia_args(true));
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
  expect_follows("fix nve/rigid/single, linear type 2, 200 steps", d, c, NVE_QL);
  // no spin about the axis (body z of type 2) on the device
  auto *atom = dev.lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  double worst = 0;
  for (int i = 0; i < atom->nlocal; ++i) {
    if (atom->type[i] != 2) continue;
    double m[3][3];
    MathExtra::quat_to_mat(avec->bonus[atom->ellipsoid[i]].quat, m);
    const double *l = atom->angmom[i];
    worst = std::max(worst, std::fabs(m[0][2] * l[0] + m[1][2] * l[1] + m[2][2] * l[2]));
  }
  printf("[gpu] linear bodies (%s): max |L . axis| %.3g\n", PREC, worst);
  EXPECT_LT(worst, X_TOL > 0 ? 1e-12 : NVE_QL);
}

// the fix on a sub-group: the other atoms keep x, v, q, L
TEST(GpuRigidSingle, SubGroupFollowsCpu)
{
  LmpSession cpu, dev;
  const std::string grp = "group half id <= 120";
  system(cpu, false, "half nve/rigid/single" + inertia_args(false), grp);
  system(dev, true, "half nve/rigid/single/cuda" + inertia_args(false), grp);
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
  expect_follows("fix nve/rigid/single on ids <= 120, 200 steps", d, c, NVE_QL);
  // atoms outside the group did not move at all
  LmpSession ref;
  system(ref, false, "half nve/rigid/single" + inertia_args(false), grp);
  const State s0 = rigid_single_test::state_of(ref.lmp);
  for (const auto &[tag, a] : d) {
    if (tag <= 120) continue;
    const auto &b = s0.at(tag);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(a.x[k], b.x[k], FROZEN_TOL) << tag;
      EXPECT_NEAR(a.v[k], b.v[k], FROZEN_TOL) << tag;
      EXPECT_NEAR(a.l[k], b.l[k], FROZEN_TOL) << tag;
    }
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(a.q[k], b.q[k], FROZEN_TOL) << tag;
  }
}

// the Nose-Hoover chain on translation and rotation (FixNH on the host, device sums)
TEST(GpuRigidSingle, NvtFollowsCpu)
{
  for (const std::string rot : {"no_squish", "dlm"}) {
    LmpSession cpu, dev;
    const std::string args =
        " temp 1.0 1.4 0.1 tchain 3" + inertia_args(false) + " rotation " + rot;
    system(cpu, false, "all nvt/rigid/single" + args);
    system(dev, true, "all nvt/rigid/single/cuda" + args);
    cpu.cmds({"variable t equal c_1_temp", "run 200 post no"});
    dev.cmds({"variable t equal c_1_temp", "run 200 post no"});
    const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
    expect_follows("fix nvt/rigid/single rotation " + rot + ", 200 steps", d, c, NVT_QL);
    // the thermostat's state: its energy (f_1) and the temperature of the chain
    const double ec = cpu.variable("t"), ed = dev.variable("t");
    printf("[gpu]   T of the chain: device %.15g cpu %.15g\n", ed, ec);
    EXPECT_NEAR(ed, ec, (X_TOL > 0 ? 1e-9 : 1e-2) * ec);
  }
}

// a linear body type under the thermostat (2 rotational dof)
TEST(GpuRigidSingle, NvtLinearFollowsCpu)
{
  LmpSession cpu, dev;
  const std::string args = " temp 1.2 1.2 0.2" + inertia_args(true);
  system(cpu, false, "all nvt/rigid/single" + args);
  system(dev, true, "all nvt/rigid/single/cuda" + args);
  cpu.cmd("run 200 post no");
  dev.cmd("run 200 post no");
  const State c = rigid_single_test::state_of(cpu.lmp), d = rigid_single_test::state_of(dev.lmp);
  expect_follows("fix nvt/rigid/single, linear type 2, 200 steps", d, c, NVT_QL);
}

// ---- syncs, output -----------------------------------------------------------------------

// thermo with the fix's scalar every step brings the atoms to the host every step (and
// 'dipole yes' sets mu there): the device trajectory does not change
TEST(GpuRigidSingle, SyncEveryStepEqualsNever)
{
  for (const std::string style : {"nve/rigid/single/cuda", "nvt/rigid/single/cuda temp 1 1 0.1"}) {
    LmpSession a, b;
    system(a, true, "all " + style + inertia_args(false));
    system(b, true, "all " + style + inertia_args(false));
    a.cmds({"thermo_style custom step temp f_1", "thermo 1", "run 100 post no"});
    b.cmds({"run 100 post no"});
    const State sa = rigid_single_test::state_of(a.lmp), sb = rigid_single_test::state_of(b.lmp);
    for (const auto &[tag, x] : sa) {
      const auto &y = sb.at(tag);
      EXPECT_EQ(x.x, y.x) << style << " atom " << tag;
      EXPECT_EQ(x.v, y.v) << style << " atom " << tag;
      EXPECT_EQ(x.q, y.q) << style << " atom " << tag;
      EXPECT_EQ(x.l, y.l) << style << " atom " << tag;
    }
  }
}

// the fix's scalar (rotational kinetic energy with the fix's inertia) after a device run
// equals the CPU fix's; 'dipole yes' gives the CPU's mu (atom_style hybrid ellipsoid dipole)
TEST(GpuRigidSingle, ScalarAndDipoles)
{
  LmpSession cpu, dev;
  auto build = [&](LmpSession &l, bool d) {
    l.cmds({"units lj",
            "atom_style hybrid ellipsoid dipole",
            "atom_modify map array sort 0 0.0",
            "lattice sc 0.6",
            "region box block 0 5 0 5 0 5",
            "create_box 2 box",
            "create_atoms 1 box",
            "set type 1 type/fraction 2 0.5 4321",
            "set type * shape 1.4 1.0 0.8",
            "set type * mass 1.0",
            "set type * dipole 0 0 1.5",
            "set type * quat/random 2718",
            "velocity all create 1.0 87287 loop geom",
            "variable ax atom 1.5*sin(1.7*id)",
            "variable ay atom 1.2*cos(2.3*id)",
            "variable az atom 0.9*sin(0.9*id+1)",
            "set type * angmom v_ax v_ay v_az",
            "pair_style " + S(d, "lj/cut") + " 2.5",
            "pair_coeff * * 1.0 1.0",
            "neighbor 0.3 bin",
            "timestep 0.005",
            "thermo 0",
            "fix 1 all " + S(d, "nve/rigid/single") + inertia_args(false) + " dipole yes",
            "run_style " + S(d, "verlet"),
            "variable er equal f_1",
            "run 150 post no"});
  };
  build(cpu, false);
  build(dev, true);
  const double ec = cpu.variable("er"), ed = dev.variable("er");
  std::vector<double> mc, md;
  for (auto *l : {&cpu, &dev}) {
    auto *atom = l->lmp->atom;
    std::vector<double> &m = l == &cpu ? mc : md;
    m.assign(4 * atom->natoms, 0.0);
    for (int i = 0; i < atom->nlocal; ++i)
      for (int k = 0; k < 4; ++k) m[4 * (atom->tag[i] - 1) + k] = atom->mu[i][k];
  }
  const double dmu = max_rel_diff(md, mc);
  printf("[gpu] dipole yes (%s), 150 steps: E_rot device %.15g cpu %.15g; mu rel. diff %.3g\n",
         PREC, ed, ec, dmu);
  EXPECT_NEAR(ed, ec, NVE_QL * ec);
  EXPECT_LT(dmu, NVE_QL);
}

// ---- the laws of free rotation on the device ---------------------------------------------

// free asymmetric tops of two types (pair zero: no forces, no torques), 2000 steps:
// each body's lab angmom is a constant of its motion (every sub-flow of the splitting is a
// rotation-invariant flow) to rounding; the rotational kinetic energy is not conserved
// exactly by the splitting but stays within O((dt omega)^2) of its start
TEST(GpuRigidSingle, FreeTopsConserveAngmomAndEnergy)
{
  for (const std::string rot : {"no_squish", "dlm"}) {
    LmpSession l;
    l.cmds({"units lj",
            "atom_style ellipsoid",
            "atom_modify map array sort 0 0.0",
            "lattice sc 0.2",
            "region box block 0 4 0 4 0 4",
            "create_box 2 box",
            "create_atoms 1 box",
            "set type 1 type/fraction 2 0.5 4321",
            "set type * shape 1.4 1.0 0.8",
            "set type * mass 1.0",
            "set type * quat/random 99",
            "variable ax atom 1.5*sin(1.7*id)",
            "variable ay atom 1.2*cos(2.3*id)",
            "variable az atom 0.9*sin(0.9*id+1)",
            "set type * angmom v_ax v_ay v_az",
            "pair_style zero/cuda 1.0",
            "pair_coeff * *",
            "timestep 0.005",
            "thermo 0",
            "fix 1 all nve/rigid/single/cuda" + inertia_args(false) + " rotation " + rot,
            "run_style verlet/cuda",
            "variable er equal f_1",
            "run 0 post no"});
    const State s0 = rigid_single_test::state_of(l.lmp);
    const double e0 = l.variable("er");
    double emax = 0;
    for (int b = 0; b < 20; ++b) {
      l.cmd("run 100 post no");
      emax = std::max(emax, std::fabs(l.variable("er") - e0) / e0);
    }
    const State s1 = rigid_single_test::state_of(l.lmp);
    double dl = 0, lmax = 0;
    for (const auto &[tag, a] : s0)
      for (int d = 0; d < 3; ++d) {
        dl = std::max(dl, std::fabs(a.l[d] - s1.at(tag).l[d]));
        lmax = std::max(lmax, std::fabs(a.l[d]));
      }
    const double dq = compare(s0, s1).q;
    printf("[gpu] free tops, %s (%s), 2000 steps: max |dL| / max |L| %.3g; max |dE_rot| / E_rot "
           "%.3g; quaternions moved by %.3g\n",
           rot.c_str(), PREC, dl / lmax, emax, dq);
    EXPECT_GT(dq, 0.5) << "the tops should have turned";
    EXPECT_LT(dl / lmax, ROT_L_TOL);
    EXPECT_LT(emax, ROT_E_TOL);    // the CPU fix: 8.7e-7 (sampled every 100 steps)
    EXPECT_GT(emax, 0.0) << "an asymmetric top's splitting does not conserve E_rot exactly";
  }
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
