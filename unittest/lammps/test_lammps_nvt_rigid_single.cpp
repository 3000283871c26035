/* fix nvt/rigid/single and compute temp/rigid/single (src/fix_nvt_rigid_single.cpp,
   src/compute_temp_rigid_single.cpp) in LAMMPS, on the Gay-Berne systems of
   test_lammps_rigid_single.cpp:
   - the compute against a hand sum (translation + rotation with the given inertia) / dof,
     linear bodies and plain beads included;
   - equipartition: mean translational and rotational temperatures (summed here from the
     atoms) reach the target within their statistical error;
   - LAMMPS's fix nvt/asphere with the same (uniform-ellipsoid) inertia samples the same
     means (temperatures, potential energy), not the same trajectory;
   - the Nose-Hoover chain's conserved quantity pe + KE(trans + rot) + ecouple: its
     fluctuation scales as dt^2;
   - restart: the chain state comes back from the restart file;
   - fix nve/rigid/single langevin: every axis of an ideal gas of asymmetric and linear
     bodies gets kT, and equipartition on the Gay-Berne system;
   - bad input. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "compute.h"
#include "force.h"
#include "lammps.h"
#include "math_extra.h"
#include "modify.h"

#include "lmp_session.h"
#include "rigid_single_test.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <string>
#include <vector>

using namespace rigid_single_test;

namespace {

struct Sampled {
  Mean ttrans, trot, pe;
};

// 125 Gay-Berne particles under `fix`: equilibrate, then sample every 10 steps
Sampled sample(const std::string &fix, int equil, int steps)
{
  LmpSession s;
  gb_system(s, 0.002, 5);
  s.cmds({fix, "thermo_modify norm no", "variable e equal pe"});
  s.cmd("run " + std::to_string(equil) + " post no");
  const int n = s.lmp->atom->nlocal;
  std::vector<double> tt, tr, pe;
  for (int k = 0; k < steps / 10; ++k) {
    s.cmd("run 10 pre no post no");
    const Twice w = twice_ke(s.lmp);
    tt.push_back(w.trans / (3.0 * n - 3.0));
    tr.push_back(w.rot / (3.0 * n));
    pe.push_back(s.variable("e") / n);
  }
  return {block_mean(tt, 10), block_mean(tr, 10), block_mean(pe, 10)};
}

const double T0 = 1.3;
const std::string nvt_fix = "fix 1 all nvt/rigid/single temp 1.3 1.3 0.1" + inertia_args();

}    // namespace

// compute temp/rigid/single against a hand sum; oriented atoms of an asymmetric and a linear
// type and plain beads (no ellipsoid bonus) in one group
TEST(LammpsNvtRigidSingle, ComputeMatchesHandSum)
{
  LmpSession s;
  s.cmds({"units lj",
          "atom_style ellipsoid",
          "atom_modify map array",
          "region box block -5 5 -5 5 -5 5",
          "create_box 3 box",
          "create_atoms 1 random 7 1234 NULL",
          "create_atoms 2 random 5 4321 NULL",
          "create_atoms 3 random 4 999 NULL",
          "set type 1 shape 1.5 1 0.8",
          "set type 2 shape 2 1 1",
          "set type 3 shape 0 0 0",
          "set type 1 mass 1.2",
          "set type 2 mass 0.7",
          "set type 3 mass 1.9",
          "set type 1*2 quat/random 31",
          "velocity all create 1.0 5151 loop geom",
          "variable ax atom 0.6*sin(1.7*id)",
          "variable ay atom 0.5*cos(2.3*id)",
          "variable az atom 0.4*sin(0.9*id+1)",
          "set type * angmom v_ax v_ay v_az",
          "pair_style zero 2.0",
          "pair_coeff * *",
          "compute t all temp/rigid/single inertia 1 0.3 0.5 0.7 inertia 2 0.4 0.4 0",
          "variable t equal c_t",
          "thermo_style custom step c_t c_t[1] c_t[2] c_t[3] c_t[4]",
          "run 0"});
  auto *atom = s.lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  const double in[3][3] = {{0.3, 0.5, 0.7}, {0.4, 0.4, 0.0}, {0, 0, 0}};
  double sum = 0, xy = 0;
  int dof = -3;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double *v = atom->v[i];
    sum += atom->rmass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    xy += atom->rmass[i] * v[0] * v[1];
    dof += 3;
    const int t = atom->type[i];
    if (t == 3) {
      EXPECT_LT(atom->ellipsoid[i], 0);
      continue;
    }
    double m[3][3], lb[3], w[3];
    MathExtra::quat_to_mat(avec->bonus[atom->ellipsoid[i]].quat, m);
    MathExtra::transpose_matvec(m, atom->angmom[i], lb);
    for (int d = 0; d < 3; ++d) {
      if (in[t - 1][d] > 0) sum += lb[d] * lb[d] / in[t - 1][d];
      lb[d] = in[t - 1][d] > 0 ? lb[d] / in[t - 1][d] : 0.0;
    }
    MathExtra::matvec(m, lb, w);
    xy += 0.5 * (w[0] * atom->angmom[i][1] + w[1] * atom->angmom[i][0]);
    dof += t == 1 ? 3 : 2;
  }
  EXPECT_EQ(dof, 16 * 3 + 7 * 3 + 5 * 2 - 3);
  auto *c = s.lmp->modify->get_compute_by_id("t");
  ASSERT_NE(c, nullptr);
  EXPECT_DOUBLE_EQ(c->dof, dof);
  const double t = s.variable("t");
  std::printf("[ info ] temp/rigid/single %.15g, hand %.15g (dof %d)\n", t, sum / dof, dof);
  EXPECT_NEAR(t, sum / dof, 1e-13 * t);
  c->compute_vector();
  EXPECT_NEAR(c->vector[0] + c->vector[1] + c->vector[2], sum, 1e-13 * sum);
  EXPECT_NEAR(c->vector[3], xy, 1e-13 * sum);

  // compute_modify extra/dof 0: the center-of-mass dof are counted again
  s.cmds({"compute_modify t extra/dof 0", "run 0"});
  EXPECT_NEAR(s.variable("t"), sum / (dof + 3), 1e-13 * t);
}

// the fix's own compute has the fix's inertia and 6 N - 3 dof on the Gay-Berne system
TEST(LammpsNvtRigidSingle, FixTemperatureCompute)
{
  LmpSession s;
  if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  gb_system(s, 0.002);
  s.cmds({nvt_fix, "variable t equal c_1_temp", "run 20"});
  const Twice w = twice_ke(s.lmp);
  const int n = s.lmp->atom->nlocal;
  auto *c = s.lmp->modify->get_compute_by_id("1_temp");
  ASSERT_NE(c, nullptr);
  EXPECT_DOUBLE_EQ(c->dof, 6.0 * n - 3.0);
  EXPECT_NEAR(s.variable("t"), (w.trans + w.rot) / (6.0 * n - 3.0), 1e-13);
}

// 125 particles from T_rot ~ 0.3 and T_trans = 1: both temperatures reach T0 = 1.3
TEST(LammpsNvtRigidSingle, Equipartition)
{
  {
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  }
  const Sampled r = sample(nvt_fix, 1000, 6000);
  std::printf("[ info ] nvt/rigid/single T0 %.2f: T_trans %.4f +- %.4f, T_rot %.4f +- %.4f, "
              "pe/N %.4f +- %.4f\n",
              T0, r.ttrans.mean, r.ttrans.err, r.trot.mean, r.trot.err, r.pe.mean, r.pe.err);
  EXPECT_LT(std::fabs(r.ttrans.mean - T0), 4 * r.ttrans.err + 0.01 * T0);
  EXPECT_LT(std::fabs(r.trot.mean - T0), 4 * r.trot.err + 0.01 * T0);
  EXPECT_LT(r.ttrans.err, 0.03);
  EXPECT_LT(r.trot.err, 0.03);
}

// fix nvt/asphere (Richardson rotation, shape inertia = ours here) samples the same means
TEST(LammpsNvtRigidSingle, MatchesNvtAsphereMeans)
{
  {
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  }
  const Sampled a = sample("fix 1 all nvt/asphere temp 1.3 1.3 0.1", 1000, 6000);
  const Sampled b = sample(nvt_fix, 1000, 6000);
  auto cmp = [](const char *what, const Mean &x, const Mean &y) {
    const double err = std::sqrt(x.err * x.err + y.err * y.err);
    std::printf("[ info ] %s: nvt/asphere %.4f +- %.4f, nvt/rigid/single %.4f +- %.4f\n", what,
                x.mean, x.err, y.mean, y.err);
    EXPECT_LT(std::fabs(x.mean - y.mean), 4 * err + 0.005 * std::fabs(x.mean)) << what;
  };
  cmp("T_trans", a.ttrans, b.ttrans);
  cmp("T_rot", a.trot, b.trot);
  cmp("pe/N", a.pe, b.pe);
}

// H = pe + KE(trans + rot) + ecouple over t = 2 at dt and dt/2: max |H - H0| ~ dt^2
TEST(LammpsNvtRigidSingle, ConservedQuantity)
{
  double fluct[2];
  for (int h = 0; h < 2; ++h) {
    const double dt = 0.004 / (1 << h);
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
    gb_cluster(s, dt);
    s.cmds({"fix 1 all nvt/rigid/single temp 0.8 0.8 0.1" + inertia_args(), "thermo_modify norm no",
            "run 0"});
    const double dof = s.lmp->modify->get_compute_by_id("1_temp")->dof;
    s.cmd("variable h equal pe+0.5*" + std::to_string(dof) + "*c_1_temp+ecouple");
    s.cmd("variable ec equal ecouple");
    const double h0 = s.variable("h");
    double worst = 0.0, ecmax = 0.0;
    const int chunk = 10 << h;
    for (int k = 0; k < 50; ++k) {
      s.cmd("run " + std::to_string(chunk) + " pre no post no");
      worst = std::max(worst, std::fabs(s.variable("h") - h0));
      ecmax = std::max(ecmax, std::fabs(s.variable("ec")));
    }
    fluct[h] = worst;
    std::printf("[ info ] nvt dt %g: H0 %.6f, max |H - H0| %.3e, max |ecouple| %.3e\n", dt, h0,
                worst, ecmax);
    EXPECT_GT(ecmax, 100 * worst);    // the thermostat did exchange energy
  }
  std::printf("[ info ] ratio %.3f (dt^2: 4)\n", fluct[0] / fluct[1]);
  EXPECT_LT(fluct[0], 2e-2);    // |H0| ~ 100
  EXPECT_GT(fluct[0] / fluct[1], 3.0);
  EXPECT_LT(fluct[0] / fluct[1], 5.5);
}

// write_restart after 100 steps, read_restart in a new instance: the next 100 steps agree
// (and differ with a fresh chain: the test sees the restored state)
TEST(LammpsNvtRigidSingle, RestartKeepsChainState)
{
  const std::string file = "nvt_rigid_single_test.restart";
  State ref;
  double ec_ref = 0;
  {
    LmpSession a;
    if (!have_gayberne(a)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
    gb_system(a, 0.002);
    a.cmds({nvt_fix, "thermo_modify norm no", "variable ec equal f_1", "run 100",
            "write_restart " + file, "run 100"});
    ref = state_of(a.lmp);
    ec_ref = a.variable("ec");
  }
  double dfresh = 0;
  for (const char *fid : {"1", "2"}) {
    LmpSession b;
    std::string fix = nvt_fix;
    fix.replace(4, 1, fid);
    b.cmds({"read_restart " + file, "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes",
            "thermo 0", "thermo_modify norm no", "timestep 0.002", fix,
            std::string("variable ec equal f_") + fid, "run 100"});
    const Diff d = diff(ref, state_of(b.lmp));
    std::printf("[ info ] restart at step 100 (fix ID %s), step 200: max diff %.2e, f %.10g vs "
                "%.10g\n",
                fid, d.max(), b.variable("ec"), ec_ref);
    if (fid[0] == '1') {
      EXPECT_LT(d.max(), 1e-12);
      EXPECT_NEAR(b.variable("ec"), ec_ref, 1e-10 * std::fabs(ec_ref));
    } else {
      dfresh = d.max();
    }
  }
  EXPECT_GT(dfresh, 1e-6);    // a new fix ID starts a new chain: another trajectory
  std::remove(file.c_str());
}

// fix nve/rigid/single langevin, ideal gas of free asymmetric tops (type 1) and linear
// bodies (type 2), started without rotation: every translational and rotational axis gets
// <m v_d^2> = <L_k^2 / I_k> = kT (the linear bodies' axis none), per type
TEST(LammpsNvtRigidSingle, LangevinIdealGasPerAxis)
{
  const double T = 1.5, in1[3] = {0.1, 0.25, 0.4}, in2[3] = {0.3, 0.3, 0.0};
  LmpSession s;
  s.cmds({"units lj",
          "atom_style ellipsoid",
          "atom_modify map array",
          "lattice sc 0.125",
          "region box block 0 7 0 7 0 7",
          "create_box 2 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.5 4321",
          "set type * shape 1 1 1",
          "set type 1 mass 1.0",
          "set type 2 mass 2.0",
          "set type * quat/random 2718",
          "velocity all create 0.3 87287 loop geom",
          "pair_style zero 1.0",
          "pair_coeff * *",
          "neighbor 0.3 bin",
          "thermo 0",
          "timestep 0.005",
          "fix 1 all nve/rigid/single inertia 1 0.1 0.25 0.4 inertia 2 0.3 0.3 0 langevin 1.5 "
          "1.0 4242",
          "run 2000"});
  auto *atom = s.lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  // series: per type, 3 translational axes, 3 rotational axes, and |L_z| of linear bodies
  std::vector<double> series[2][7];
  for (int k = 0; k < 320; ++k) {
    s.cmd("run 50 post no");
    double sum[2][7] = {}, cnt[2] = {};
    for (int i = 0; i < atom->nlocal; ++i) {
      const int t = atom->type[i] - 1;
      const double *in = t == 0 ? in1 : in2;
      double m[3][3], lb[3];
      MathExtra::quat_to_mat(avec->bonus[atom->ellipsoid[i]].quat, m);
      MathExtra::transpose_matvec(m, atom->angmom[i], lb);
      for (int d = 0; d < 3; ++d) {
        sum[t][d] += atom->rmass[i] * atom->v[i][d] * atom->v[i][d];
        if (in[d] > 0) sum[t][3 + d] += lb[d] * lb[d] / in[d];
      }
      if (t == 1) sum[t][6] = std::max(sum[t][6], std::fabs(lb[2]));
      cnt[t] += 1;
    }
    for (int t = 0; t < 2; ++t)
      for (int c = 0; c < 7; ++c) series[t][c].push_back(c < 6 ? sum[t][c] / cnt[t] : sum[t][c]);
  }
  const char *names[6] = {"m vx^2", "m vy^2", "m vz^2", "Lx^2/Ix", "Ly^2/Iy", "Lz^2/Iz"};
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < 6; ++c) {
      if (t == 1 && c == 5) continue;    // linear body: no spin about its axis
      const Mean m = block_mean(series[t][c], 10);
      std::printf("[ info ] langevin ideal gas type %d <%s> = %.4f +- %.4f (kT %.2f)\n", t + 1,
                  names[c], m.mean, m.err, T);
      EXPECT_LT(std::fabs(m.mean - T), 4 * m.err + 0.01 * T) << "type " << t + 1 << " " << names[c];
    }
  }
  double lz = 0;
  for (double x : series[1][6]) lz = std::max(lz, x);
  EXPECT_LT(lz, 1e-12);    // linear bodies: no spin about the axis
}

// fix nve/rigid/single langevin on the Gay-Berne system: both temperatures reach T0
TEST(LammpsNvtRigidSingle, LangevinEquipartition)
{
  {
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  }
  const Sampled r =
      sample("fix 1 all nve/rigid/single" + inertia_args() + " langevin 1.3 0.5 4242", 1000, 6000);
  std::printf("[ info ] nve/rigid/single langevin T0 %.2f: T_trans %.4f +- %.4f, T_rot %.4f +- "
              "%.4f, pe/N %.4f +- %.4f\n",
              T0, r.ttrans.mean, r.ttrans.err, r.trot.mean, r.trot.err, r.pe.mean, r.pe.err);
  EXPECT_LT(std::fabs(r.ttrans.mean - T0), 4 * r.ttrans.err + 0.01 * T0);
  EXPECT_LT(std::fabs(r.trot.mean - T0), 4 * r.trot.err + 0.01 * T0);
}

TEST(LammpsNvtRigidSingle, BadInput)
{
  auto expect_error = [](const std::vector<std::string> &setup, const std::string &last,
                         const std::string &what) {
    LmpSession s;
    s.cmds(setup);
    const std::string e = s.error_of(last);
    EXPECT_NE(e.find(what), std::string::npos) << "'" << last << "' said: " << e;
  };
  const std::vector<std::string> ell = {"units lj",
                                        "atom_style ellipsoid",
                                        "region box block -5 5 -5 5 -5 5",
                                        "create_box 2 box",
                                        "create_atoms 1 single 0 0 0",
                                        "create_atoms 2 single 2 0 0",
                                        "set type * shape 1 1 1",
                                        "set type * mass 1"};
  auto with = [&](std::vector<std::string> v, const std::string &c) {
    v.push_back(c);
    return v;
  };
  const std::string f = "fix 1 all nvt/rigid/single ";
  expect_error({"units lj", "atom_style atomic", "region box block -5 5 -5 5 -5 5",
                "create_box 1 box", "create_atoms 1 single 0 0 0", "mass 1 1",
                f + "temp 1 1 0.1 inertia 1 1 1 1"},
               "run 0", "requires atom style ellipsoid");
  expect_error(with(ell, f + "temp 1 1 0.1 inertia 1 1 1 1"), "run 0",
               "atoms of type 2 have an orientation");
  expect_error(ell, f + "inertia * 1 1 1 tchain 3", "temperature control");
  expect_error(ell, f + "temp 1 1 0.1 iso 1 1 1 inertia * 1 1 1", "pressure control");
  expect_error(ell, f + "temp 1 1 0.1 inertia * 1 1 1 foo 2",
               "Unknown fix nvt/rigid/single "
               "keyword: foo");
  expect_error(ell, f + "temp 1 1 0.1 inertia 1 1 -1 1", "principal moment y must be finite");
  expect_error(ell, f + "temp 1 1 0.1 inertia 1 1 1", "inertia expects");
  expect_error(ell, f + "temp 1 1 0.1 inertia * 1 1 1 rotation verlet",
               "rotation expects no_squish or dlm");
  expect_error(ell, f + "temp 1 1 0.1 inertia * 1 1 1 update dipole", "'/sphere'");
  expect_error(with(ell, f + "temp 1 1 0.1 inertia * 1 1 1 dipole yes"), "run 0",
               "requires atom attribute mu");
  const std::string g = "fix 1 all nve/rigid/single inertia * 1 1 1 langevin ";
  expect_error(ell, g + "1 1", "langevin expects 'T Tdamp seed'");
  expect_error(ell, g + "-1 1 5", "langevin T must be >= 0");
  expect_error(ell, g + "1 0 5", "langevin Tdamp must be > 0");
  expect_error(ell, g + "1 1 0", "langevin seed must be > 0");
  expect_error(ell, "compute t all temp/rigid/single inertia * 1 1 1 rotation dlm",
               "unknown keyword 'rotation'");
  expect_error(ell, "compute t all temp/rigid/single inertia 1 0 0 1",
               "at most one principal moment");
  expect_error(with(with(ell, "compute t all temp/rigid/single inertia 2 1 1 1"),
                    "thermo_style custom step c_t"),
               "run 0", "Compute temp/rigid/single: atoms of type 1 have an orientation");
}
