/* fix npt/rigid/single and fix nph/rigid/single (src/fix_npt_rigid_single.cpp) in LAMMPS:
   - no rotation possible (plain beads, or spheres with zero angmom and no torques in an
     LJ liquid, atom_style ellipsoid): the trajectory, volume and FixNH scalar equal those
     of LAMMPS's fix npt / fix nph (iso, aniso, couple xy + z) over 200 steps; for the
     spheres fix npt's temperature is a compute temp with 6N - 3 dof (the rotational dof the
     thermostat of npt/rigid/single counts), its pressure then still has kinetic part 2KE/3V;
   - Gay-Berne bodies: <P> (LAMMPS's thermo press: translational compute temp) equals the
     target, T_trans and T_rot (summed here from the atoms) equal T0, within errors;
   - the same means as LAMMPS's fix npt/asphere with a translational pressure
     (fix_modify press on a compute pressure of a compute temp);
   - the conserved quantity pe + KE_trans + KE_rot + f_ID (FixNH: chains, barostat
     kinetic energy, P (V - V0)) over t = 2 at dt and dt/2: fluctuation ~ dt^2;
   - restart: barostat and chain state come back; bad input. */

#include "atom.h"
#include "compute.h"
#include "domain.h"
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

// LJ liquid (256 atoms, fcc 0.8, T 1.5) in atom_style ellipsoid; spheres = true gives every
// atom an ellipsoid bonus (shape 1 1 1, angmom 0), otherwise they are plain beads
void lj_system(LmpSession &s, bool spheres)
{
  s.cmds({"units lj", "atom_style ellipsoid", "atom_modify map array sort 0 0.0", "lattice fcc 0.8",
          "region box block 0 4 0 4 0 4", "create_box 1 box", "create_atoms 1 box",
          "set type 1 mass 1.0"});
  if (spheres) s.cmds({"set type 1 shape 1 1 1", "set type 1 mass 1.0"});
  s.cmds({"velocity all create 1.5 87287 loop geom", "pair_style lj/cut 2.5",
          "pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes",
          "thermo 0", "timestep 0.005"});
}

struct LjRun {
  State state;
  double vol = 0, f = 0, lx = 0, lz = 0;
};

LjRun run_lj(bool spheres, const std::vector<std::string> &fix)
{
  LmpSession s;
  lj_system(s, spheres);
  s.cmds(fix);
  s.cmds({"thermo_style custom step pe f_1", "thermo_modify norm no", "variable f equal f_1",
          "run 200"});
  LjRun r;
  r.state = state_of(s.lmp);
  r.vol = s.lmp->domain->xprd * s.lmp->domain->yprd * s.lmp->domain->zprd;
  r.lx = s.lmp->domain->xprd;
  r.lz = s.lmp->domain->zprd;
  r.f = s.variable("f");
  return r;
}

void expect_same(const LjRun &a, const LjRun &b, double v0, const char *what)
{
  const Diff d = diff(a.state, b.state);
  std::printf("[ info ] %s: max diff x %.2e v %.2e q %.2e L %.2e, V %.10g vs %.10g (V0 %.6g), "
              "f %.10g vs %.10g\n",
              what, d.x, d.v, d.q, d.l, a.vol, b.vol, v0, a.f, b.f);
  EXPECT_LT(d.max(), 1e-10) << what;
  EXPECT_NEAR(a.vol, b.vol, 1e-10 * a.vol) << what;
  EXPECT_NEAR(a.lx, b.lx, 1e-10 * a.lx) << what;
  EXPECT_NEAR(a.lz, b.lz, 1e-10 * a.lz) << what;
  EXPECT_NEAR(a.f, b.f, 1e-9 * (std::fabs(a.f) + 1.0)) << what;
  EXPECT_GT(std::fabs(a.vol - v0), 1e-3 * v0) << what << ": the barostat did not act";
}

const double V0_LJ = 4 * 4 * 4 * 4 / 0.8;

}    // namespace

// plain beads (no ellipsoid bonus): temp/rigid/single is compute temp, so npt/rigid/single
// must be fix npt, step for step, in every coupling
TEST(LammpsNptRigidSingle, PlainBeadsEqualFixNpt)
{
  const char *cases[][2] = {{"temp 1.5 1.5 0.5 iso 3.0 3.0 0.3", "iso"},
                            {"temp 1.5 1.2 0.5 aniso 1.0 1.5 0.5", "aniso, ramps"},
                            {"temp 1.5 1.5 0.5 x 1.0 1.0 0.5 y 1.0 1.0 0.5 z 2.0 2.0 0.7 "
                             "couple xy tchain 4 pchain 2",
                             "x y z couple xy"},
                            {"temp 1.5 1.5 0.5 iso 1.0 1.0 0.5 mtk no drag 0.2", "mtk no, drag"}};
  for (auto &c : cases) {
    const LjRun a = run_lj(false, {std::string("fix 1 all npt ") + c[0]});
    const LjRun b = run_lj(false, {std::string("fix 1 all npt/rigid/single ") + c[0]});
    expect_same(a, b, V0_LJ, c[1]);
  }
  const LjRun a = run_lj(false, {"fix 1 all nph iso 1.0 1.0 0.5"});
  const LjRun b = run_lj(false, {"fix 1 all nph/rigid/single iso 1.0 1.0 0.5"});
  expect_same(a, b, V0_LJ, "nph iso");
}

// spheres with inertia and zero angmom under lj/cut (no torque): nothing rotates, but the
// thermostat counts 6N - 3 dof. fix npt with a compute temp of 6N - 3 dof (extra/dof
// 3 - 3N) is then the same dynamics: same ke_target and chain masses, and its pressure
// (dof k_B T = 2 KE_trans) and MTK term are the translational ones
TEST(LammpsNptRigidSingle, NonRotatingSpheresEqualFixNpt)
{
  const int n = 256;
  const std::string tt = "compute tt all temp";
  const std::string extra = "compute_modify tt extra/dof " + std::to_string(3 - 3 * n);
  for (const char *p : {"iso 1.0 1.0 0.5", "aniso 1.0 1.5 0.5"}) {
    const LjRun a = run_lj(true, {tt, extra, std::string("fix 1 all npt temp 1.5 1.5 0.5 ") + p,
                                  "fix_modify 1 temp tt"});
    const LjRun b = run_lj(true, {std::string("fix 1 all npt/rigid/single temp 1.5 1.5 0.5 ") + p +
                                  " inertia 1 0.1 0.1 0.1"});
    expect_same(a, b, V0_LJ, p);
  }
}

namespace {

struct Sampled {
  Mean ttrans, trot, pe, press, rho;
};

const double T0 = 1.3, P0 = 0.6;

// 125 Gay-Berne particles under `fix` (+ extra commands): equilibrate, sample every 10 steps
Sampled sample(const std::vector<std::string> &fix, int equil, int steps)
{
  LmpSession s;
  gb_system(s, 0.002, 5);
  s.cmds(fix);
  s.cmds({"thermo_style custom step pe press vol", "thermo_modify norm no", "variable e equal pe",
          "variable p equal press", "variable v equal vol"});
  s.cmd("run " + std::to_string(equil) + " post no");
  const int n = s.lmp->atom->nlocal;
  std::vector<double> tt, tr, pe, p, rho;
  for (int k = 0; k < steps / 10; ++k) {
    s.cmd("run 10 pre no post no");
    const Twice w = twice_ke(s.lmp);
    tt.push_back(w.trans / (3.0 * n - 3.0));
    tr.push_back(w.rot / (3.0 * n));
    pe.push_back(s.variable("e") / n);
    p.push_back(s.variable("p"));
    rho.push_back(n / s.variable("v"));
  }
  return {block_mean(tt, 10), block_mean(tr, 10), block_mean(pe, 10), block_mean(p, 10),
          block_mean(rho, 10)};
}

const std::string npt_fix =
    "fix 1 all npt/rigid/single temp 1.3 1.3 0.1 iso 0.6 0.6 0.5" + inertia_args();

}    // namespace

// <P> (thermo press: translational) = P0, <T_trans> = <T_rot> = T0
TEST(LammpsNptRigidSingle, MeansMatchTargets)
{
  {
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  }
  const Sampled r = sample({npt_fix}, 5000, 15000);
  std::printf("[ info ] npt/rigid/single T0 %.2f P0 %.2f: T_trans %.4f +- %.4f, T_rot %.4f +- "
              "%.4f, P %.4f +- %.4f, rho %.4f +- %.4f, pe/N %.4f +- %.4f\n",
              T0, P0, r.ttrans.mean, r.ttrans.err, r.trot.mean, r.trot.err, r.press.mean,
              r.press.err, r.rho.mean, r.rho.err, r.pe.mean, r.pe.err);
  EXPECT_LT(std::fabs(r.ttrans.mean - T0), 4 * r.ttrans.err + 0.01 * T0);
  EXPECT_LT(std::fabs(r.trot.mean - T0), 4 * r.trot.err + 0.01 * T0);
  EXPECT_LT(std::fabs(r.press.mean - P0), 4 * r.press.err + 0.01 * P0);
  EXPECT_LT(r.press.err, 0.05);
}

// fix npt/asphere (Richardson rotation, shape inertia = ours) with a translational
// pressure compute samples the same means
TEST(LammpsNptRigidSingle, MatchesNptAsphereMeans)
{
  {
    LmpSession s;
    if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  }
  const Sampled a =
      sample({"compute ttr all temp", "compute ptr all pressure ttr",
              "fix 1 all npt/asphere temp 1.3 1.3 0.1 iso 0.6 0.6 0.5", "fix_modify 1 press ptr"},
             5000, 20000);
  const Sampled b = sample({npt_fix}, 5000, 20000);
  auto cmp = [](const char *what, const Mean &x, const Mean &y) {
    const double err = std::sqrt(x.err * x.err + y.err * y.err);
    std::printf("[ info ] %s: npt/asphere %.4f +- %.4f, npt/rigid/single %.4f +- %.4f\n", what,
                x.mean, x.err, y.mean, y.err);
    EXPECT_LT(std::fabs(x.mean - y.mean), 4 * err + 0.005 * std::fabs(x.mean)) << what;
  };
  cmp("T_trans", a.ttrans, b.ttrans);
  cmp("T_rot", a.trot, b.trot);
  cmp("P", a.press, b.press);
  cmp("rho", a.rho, b.rho);
  cmp("pe/N", a.pe, b.pe);
}

// H = pe + KE_trans + KE_rot + f_1 on a free cluster (no pair crosses the cutoff) under a
// small external pressure: the box breathes, f_1 carries P (V - V0) and the barostat KE.
// H is conserved only if the barostat's kinetic terms (pressure, mtk_term1, mtk_term2) all
// take the translational KE: with rotational KE in any of them energy leaks.
TEST(LammpsNptRigidSingle, ConservedQuantity)
{
  for (const char *style : {"npt", "nph"}) {
    double fluct[2];
    for (int h = 0; h < 2; ++h) {
      const double dt = 0.004 / (1 << h);
      LmpSession s;
      if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
      gb_cluster(s, dt);
      // npt: aniso with the barostat's chain; nph: iso without it (pchain 0): in iso,
      // FixNH::compute_scalar() gives the barostat chain's first thermostat 3 kT eta while
      // nhc_press_integrate() drives it with kT (LAMMPS's own fix nph/npt drift the same
      // way here), aniso is consistent
      const std::string baro =
          style[2] == 't' ? "temp 0.8 0.8 0.1 aniso 2e-4 2e-4 0.5" : "iso 2e-4 2e-4 0.5 pchain 0";
      s.cmds({std::string("fix 1 all ") + style + "/rigid/single " + baro + inertia_args(),
              "thermo_style custom step pe ke vol f_1", "thermo_modify norm no", "run 0"});
      auto h_now = [&]() {
        const Twice w = twice_ke(s.lmp);
        s.cmd("variable h equal pe+f_1");
        return s.variable("h") + 0.5 * (w.trans + w.rot);
      };
      s.cmd("variable f equal f_1");
      s.cmd("variable v equal vol");
      const double h0 = h_now(), v0 = s.variable("v");
      double worst = 0.0, fmax = 0.0, dv = 0.0;
      const int chunk = 10 << h;
      for (int k = 0; k < 50; ++k) {
        s.cmd("run " + std::to_string(chunk) + " pre no post no");
        worst = std::max(worst, std::fabs(h_now() - h0));
        fmax = std::max(fmax, std::fabs(s.variable("f")));
        dv = std::max(dv, std::fabs(s.variable("v") - v0) / v0);
      }
      fluct[h] = worst;
      std::printf("[ info ] %s/rigid/single dt %g: H0 %.6f, max |H - H0| %.3e, max |f_1| %.3e, "
                  "max |V/V0 - 1| %.3f\n",
                  style, dt, h0, worst, fmax, dv);
      EXPECT_GT(fmax, 100 * worst) << style;    // barostat (and chain) exchanged energy
      EXPECT_GT(dv, 0.02) << style;             // the box moved
    }
    std::printf("[ info ] %s ratio %.3f (dt^2: 4)\n", style, fluct[0] / fluct[1]);
    EXPECT_GT(fluct[0] / fluct[1], 3.0) << style;
    EXPECT_LT(fluct[0] / fluct[1], 5.5) << style;
  }
}

// write_restart after 100 steps, read_restart in a new instance: the next 100 steps agree
// (and differ with a fresh barostat: the test sees the restored state)
TEST(LammpsNptRigidSingle, RestartKeepsBarostatState)
{
  const std::string file = "npt_rigid_single_test.restart";
  const std::string fix =
      "fix 1 all npt/rigid/single temp 1.3 1.3 0.1 aniso 0.6 0.6 0.3" + inertia_args();
  State ref;
  double f_ref = 0, v_ref = 0;
  {
    LmpSession a;
    if (!have_gayberne(a)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
    gb_system(a, 0.002);
    a.cmds({fix, "thermo_modify norm no", "variable f equal f_1", "variable v equal vol",
            "thermo_style custom step pe vol f_1", "run 100", "write_restart " + file, "run 100"});
    ref = state_of(a.lmp);
    f_ref = a.variable("f");
    v_ref = a.variable("v");
  }
  double dfresh = 0;
  for (const char *fid : {"1", "2"}) {
    LmpSession b;
    std::string f = fix;
    f.replace(4, 1, fid);
    b.cmds({"read_restart " + file, "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes",
            "thermo 0", "thermo_modify norm no", "timestep 0.002", f,
            std::string("variable f equal f_") + fid, "variable v equal vol",
            std::string("thermo_style custom step pe vol f_") + fid, "run 100"});
    const Diff d = diff(ref, state_of(b.lmp));
    std::printf("[ info ] restart at step 100 (fix ID %s), step 200: max diff %.2e, V %.12g vs "
                "%.12g, f %.10g vs %.10g\n",
                fid, d.max(), b.variable("v"), v_ref, b.variable("f"), f_ref);
    if (fid[0] == '1') {
      EXPECT_LT(d.max(), 1e-12);
      EXPECT_NEAR(b.variable("v"), v_ref, 1e-12 * v_ref);
      EXPECT_NEAR(b.variable("f"), f_ref, 1e-10 * (std::fabs(f_ref) + 1));
    } else {
      dfresh = d.max();
    }
  }
  EXPECT_GT(dfresh, 1e-6);
  std::remove(file.c_str());
}

TEST(LammpsNptRigidSingle, BadInput)
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
  std::vector<std::string> tri = ell;
  tri[2] = "region box prism -5 5 -5 5 -5 5 0.5 0 0";
  const std::string f = "fix 1 all npt/rigid/single ";
  const std::string in = " inertia * 1 1 1";
  expect_error(ell, f + "iso 1 1 1" + in, "temperature control");
  expect_error(ell, f + "temp 1 1 0.1" + in, "pressure control");
  expect_error(ell, "fix 1 all nph/rigid/single temp 1 1 0.1 iso 1 1 1" + in,
               "temperature control (temp) can not be used");
  expect_error(ell, "fix 1 all nph/rigid/single drag 0.1" + in, "pressure control");
  expect_error(tri, f + "temp 1 1 0.1 iso 1 1 1" + in, "only orthogonal boxes");
  expect_error(tri, f + "temp 1 1 0.1 tri 1 1 1" + in, "only orthogonal boxes");
  expect_error(ell, f + "temp 1 1 0.1 xy 0 0 1" + in,
               "non-triclinic box");    // FixNH: not triclinic
  expect_error(ell, f + "temp 1 1 0.1 iso 1 1 1 inertia * 1 1", "inertia expects");
  expect_error(ell, f + "temp 1 1 0.1 iso 1 1 1 foo 2" + in, "keyword: foo");
  std::vector<std::string> ok = ell;
  ok.push_back(f + "temp 1 1 0.1 iso 1 1 1" + in);
  ok.push_back("compute p all pressure thermo_temp");
  expect_error(ok, "fix_modify 1 press p", "fix_modify press is not supported");
  expect_error({"units lj", "dimension 2", "atom_style ellipsoid",
                "region box block -5 5 -5 5 -0.5 0.5", "create_box 1 box",
                "create_atoms 1 single 0 0 0", "set type * shape 1 1 1", "set type * mass 1"},
               f + "temp 1 1 0.1 iso 1 1 1" + in, "requires a 3d system");
}

// with rotation: the fix's pressure (c_1_press) is LAMMPS's thermo press (compute temp:
// translation only), not a pressure of the thermostat's temperature; fix_modify temp
// changes the thermostat's temperature, not the pressure's
TEST(LammpsNptRigidSingle, PressureIsTranslational)
{
  LmpSession s;
  lj_system(s, true);
  s.cmds({"variable ax atom 0.6*sin(1.7*id)", "variable ay atom 0.5*cos(2.3*id)",
          "set type 1 angmom v_ax v_ay 0.3",
          "fix 1 all npt/rigid/single temp 1.5 1.5 0.5 iso 1.0 1.0 0.5 inertia 1 0.1 0.1 0.1",
          "compute prot all pressure 1_temp", "thermo_style custom step press c_1_press c_prot",
          "variable p equal press", "variable q equal c_1_press", "variable r equal c_prot",
          "run 0"});
  std::printf("[ info ] thermo press %.10g, c_1_press %.10g, pressure of 1_temp %.10g\n",
              s.variable("p"), s.variable("q"), s.variable("r"));
  EXPECT_NEAR(s.variable("p"), s.variable("q"), 1e-12 * std::fabs(s.variable("p")));
  EXPECT_GT(s.variable("r") - s.variable("p"), 0.1);    // rotational KE counted there
  s.cmds({"thermo_style custom step press c_1_press", "uncompute prot",
          "compute t2 all temp/rigid/single inertia 1 0.2 0.2 0.2", "fix_modify 1 temp t2",
          "run 0"});
  EXPECT_NEAR(s.variable("p"), s.variable("q"), 1e-12 * std::fabs(s.variable("p")));
}
