/* fix nve/rigid/single (src/fix_nve_rigid_single.cpp) in LAMMPS:
   - against an independent step-by-step loop written here with LAMMPS's own NO_SQUISH
     (MathExtra::no_squish_rotate, the conversions of fix rigid/nve) and LAMMPS's
     pair_style gayberne forces (run 0 each step);
   - against LAMMPS's fix nve/asphere (Richardson iteration, not NO_SQUISH: both are second
     order, so their difference must shrink as dt^2);
   - energy conservation (drift ~ dt^2), NO_SQUISH = DLM to rounding, free asymmetric top
     (lab L exact), linear body against its analytic motion, restart, hybrid atom styles,
     dipoles following the orientation, bad input. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "domain.h"
#include "info.h"
#include "lammps.h"
#include "math_extra.h"
#include "modify.h"

#include "lmp_session.h"
#include "rigid_single_test.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpi.h>
#include <string>
#include <vector>

using LAMMPS_NS::tagint;
using namespace rigid_single_test;

namespace {

// conjugate momentum of fix rigid/nve from lab angmom, and back (MathExtra only)
void conjqm_of(const double *q, const double *am, double *cq)
{
  double ex[3], ey[3], ez[3], mb[3];
  MathExtra::q_to_exyz(const_cast<double *>(q), ex, ey, ez);
  MathExtra::transpose_matvec(ex, ey, ez, const_cast<double *>(am), mb);
  MathExtra::quatvec(const_cast<double *>(q), mb, cq);
  for (int k = 0; k < 4; ++k) cq[k] *= 2.0;
}
void angmom_of(double *q, double *cq, double *am)
{
  double ex[3], ey[3], ez[3], mb[3];
  MathExtra::q_to_exyz(q, ex, ey, ez);
  MathExtra::invquatvec(q, cq, mb);
  MathExtra::matvec(ex, ey, ez, mb, am);
  for (int d = 0; d < 3; ++d) am[d] *= 0.5;
}

}    // namespace

// the fix against a loop written here from LAMMPS's MathExtra NO_SQUISH, same forces
TEST(LammpsRigidSingle, MatchesMathExtraNoSquishLoop)
{
  const double dt = 0.002;
  const int nsteps = 200;
  LmpSession a, b;
  if (!have_gayberne(a)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
  gb_system(a, dt);
  a.cmd("fix 1 all nve/rigid/single" + inertia_args());
  a.cmd("run " + std::to_string(nsteps));
  const State sa = state_of(a.lmp);

  gb_system(b, dt);
  auto *atom = b.lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  double inertia[3][3];
  for (int t = 1; t <= 2; ++t) {
    const double r[3] = {shape[t][0] / 2, shape[t][1] / 2, shape[t][2] / 2};
    inertia[t][0] = 0.2 * mass[t] * (r[1] * r[1] + r[2] * r[2]);
    inertia[t][1] = 0.2 * mass[t] * (r[0] * r[0] + r[2] * r[2]);
    inertia[t][2] = 0.2 * mass[t] * (r[0] * r[0] + r[1] * r[1]);
  }
  const double dtf = 0.5 * dt;
  b.cmd("run 0 post no");
  for (int s = 0; s < nsteps; ++s) {
    for (int i = 0; i < atom->nlocal; ++i) {
      const double dtfm = dtf / atom->rmass[i];
      for (int d = 0; d < 3; ++d) {
        atom->v[i][d] += dtfm * atom->f[i][d];
        atom->x[i][d] += dt * atom->v[i][d];
        atom->angmom[i][d] += dtf * atom->torque[i][d];
      }
      double *q = avec->bonus[atom->ellipsoid[i]].quat, cq[4];
      double *in = inertia[atom->type[i]];
      conjqm_of(q, atom->angmom[i], cq);
      MathExtra::no_squish_rotate(3, cq, q, in, 0.5 * dt);
      MathExtra::no_squish_rotate(2, cq, q, in, 0.5 * dt);
      MathExtra::no_squish_rotate(1, cq, q, in, dt);
      MathExtra::no_squish_rotate(2, cq, q, in, 0.5 * dt);
      MathExtra::no_squish_rotate(3, cq, q, in, 0.5 * dt);
      angmom_of(q, cq, atom->angmom[i]);
    }
    b.cmd("run 0 post no");
    for (int i = 0; i < atom->nlocal; ++i) {
      const double dtfm = dtf / atom->rmass[i];
      for (int d = 0; d < 3; ++d) {
        atom->v[i][d] += dtfm * atom->f[i][d];
        atom->angmom[i][d] += dtf * atom->torque[i][d];
      }
    }
  }
  const Diff d = diff(sa, state_of(b.lmp));
  std::printf("[ info ] %d GB steps, fix vs MathExtra loop: |dx| %.2e |dv| %.2e |dq| %.2e "
              "|dL| %.2e\n",
              nsteps, d.x, d.v, d.q, d.l);
  EXPECT_LT(d.max(), 1e-10);

  // the fix's scalar: rotational KE with its inertia, summed here from the loop's state
  double ke = 0.0;
  for (int i = 0; i < atom->nlocal; ++i) {
    double *q = avec->bonus[atom->ellipsoid[i]].quat, ex[3], ey[3], ez[3], lb[3];
    MathExtra::q_to_exyz(q, ex, ey, ez);
    MathExtra::transpose_matvec(ex, ey, ez, atom->angmom[i], lb);
    for (int k = 0; k < 3; ++k) ke += lb[k] * lb[k] / (2 * inertia[atom->type[i]][k]);
  }
  a.cmd("variable kr equal f_1");
  EXPECT_NEAR(a.variable("kr"), ke, 1e-10 * ke);
}

// fix nve/asphere (Richardson iteration) and this fix (NO_SQUISH) with the same inertia are
// both second order: their difference over a fixed time must fall ~4x when dt halves
TEST(LammpsRigidSingle, ConvergesToNveAsphere)
{
  double dmax[2];
  for (int h = 0; h < 2; ++h) {
    const double dt = 0.002 / (1 << h);
    const int n = 100 << h;
    LmpSession a, b;
    if (!have_gayberne(a)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
    gb_system(a, dt);
    a.cmd("fix 1 all nve/asphere");
    a.cmd("run " + std::to_string(n));
    gb_system(b, dt);
    b.cmd("fix 1 all nve/rigid/single" + inertia_args());
    b.cmd("run " + std::to_string(n));
    const Diff d = diff(state_of(a.lmp), state_of(b.lmp));
    dmax[h] = d.max();
    std::printf("[ info ] dt %g, t = 0.2: nve/asphere vs nve/rigid/single |dx| %.2e |dv| %.2e "
                "|dq| %.2e |dL| %.2e\n",
                dt, d.x, d.v, d.q, d.l);
  }
  std::printf("[ info ] ratio %.3f (second order: 4)\n", dmax[0] / dmax[1]);
  EXPECT_LT(dmax[0], 1e-3);
  EXPECT_GT(dmax[0] / dmax[1], 3.0);
  EXPECT_LT(dmax[0] / dmax[1], 5.5);
}

// NVE: max |E(t) - E(0)| over t in [0, 2] at dt and dt/2 (E = pe + ke + rotational KE),
// for NO_SQUISH and DLM; and the two schemes give one trajectory (same map in exact arithmetic)
TEST(LammpsRigidSingle, EnergyConservation)
{
  double fluct[2][2];
  const char *schemes[2] = {"no_squish", "dlm"};
  for (int sc = 0; sc < 2; ++sc)
    for (int h = 0; h < 2; ++h) {
      const double dt = 0.004 / (1 << h);
      LmpSession s;
      if (!have_gayberne(s)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
      gb_cluster(s, dt);
      s.cmd("fix 1 all nve/rigid/single" + inertia_args() + " rotation " + schemes[sc]);
      s.cmds({"thermo_modify norm no", "variable e equal pe+ke+f_1", "run 0"});
      const double e0 = s.variable("e");
      double worst = 0.0;
      const int chunk = 10 << h;
      for (int k = 0; k < 50; ++k) {
        s.cmd("run " + std::to_string(chunk) + " pre no post no");
        worst = std::max(worst, std::fabs(s.variable("e") - e0));
      }
      fluct[sc][h] = worst;
      std::printf("[ info ] %s dt %g: E0 %.6f, max |E - E0| %.3e over t = 2\n", schemes[sc], dt, e0,
                  worst);
    }
  for (int sc = 0; sc < 2; ++sc) {
    std::printf("[ info ] %s: ratio %.3f (dt^2: 4)\n", schemes[sc], fluct[sc][0] / fluct[sc][1]);
    EXPECT_LT(fluct[sc][0], 1e-2);
    EXPECT_GT(fluct[sc][0] / fluct[sc][1], 3.0);
    EXPECT_LT(fluct[sc][0] / fluct[sc][1], 5.5);
  }

  LmpSession a, b;
  gb_system(a, 0.002);
  gb_system(b, 0.002);
  a.cmd("fix 1 all nve/rigid/single" + inertia_args() + " rotation no_squish");
  b.cmd("fix 1 all nve/rigid/single" + inertia_args() + " rotation dlm");
  a.cmd("run 200");
  b.cmd("run 200");
  const Diff d = diff(state_of(a.lmp), state_of(b.lmp));
  std::printf("[ info ] 200 GB steps no_squish vs dlm: max diff %.2e\n", d.max());
  EXPECT_LT(d.max(), 1e-10);
}

namespace {

// one free particle (no pair style): atom_style ellipsoid, quaternion q, angmom L
void free_particle(LmpSession &s, const std::string &fixargs, const double q[4], const double L[3],
                   double dt)
{
  s.cmds({"units lj", "atom_style ellipsoid", "atom_modify map array",
          "region box block -5 5 -5 5 -5 5", "create_box 1 box", "create_atoms 1 single 0 0 0",
          "set type 1 shape 1 1 1", "set type 1 mass 1"});
  s.cmd("timestep " + std::to_string(dt));
  s.cmd("thermo 0");
  s.cmd("fix 1 all nve/rigid/single " + fixargs);
  s.cmd("run 0");
  // quaternion and angmom as given, at full precision (set quat takes an axis and an angle)
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(s.lmp->atom->style_match("ellipsoid"));
  for (int k = 0; k < 4; ++k) avec->bonus[s.lmp->atom->ellipsoid[0]].quat[k] = q[k];
  for (int d = 0; d < 3; ++d) s.lmp->atom->angmom[0][d] = L[d];
}

double *quat0(LmpSession &s)
{
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(s.lmp->atom->style_match("ellipsoid"));
  return avec->bonus[s.lmp->atom->ellipsoid[0]].quat;
}

}    // namespace

// asymmetric top, no torque: lab L exactly conserved, |q| = 1, KE bounded with an O(dt^2)
// oscillation (the splitting error; each sub-flow conserves L and its own H_k, not H)
TEST(LammpsRigidSingle, FreeAsymmetricTop)
{
  double q[4] = {0.8, -0.3, 0.4, 0.25};
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double &x : q) x /= n;
  const double L[3] = {0.7, -1.3, 0.45};
  for (const char *scheme : {"no_squish", "dlm"}) {
    double fl[2];
    for (int h = 0; h < 2; ++h) {
      const double dt = 0.01 / (1 << h);
      LmpSession s;
      free_particle(s, std::string("inertia 1 1.0 2.0 3.0 rotation ") + scheme, q, L, dt);
      s.cmd("variable kr equal f_1");
      const double ke0 = s.variable("kr");
      double worst = 0, lerr = 0;
      for (int k = 0; k < 100; ++k) {
        s.cmd("run " + std::to_string(20 << h) + " pre no post no");
        worst = std::max(worst, std::fabs(s.variable("kr") - ke0));
        for (int d = 0; d < 3; ++d)
          lerr = std::max(lerr, std::fabs(s.lmp->atom->angmom[0][d] - L[d]));
      }
      const double *qq = quat0(s);
      const double qn = std::sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
      std::printf("[ info ] free top %s dt %g, t = 20: |dL| %.2e, ||q|-1| %.2e, max |KE-KE0|/KE0 "
                  "%.2e\n",
                  scheme, dt, lerr, std::fabs(qn - 1), worst / ke0);
      EXPECT_LT(lerr, 1e-11);    // measured 1.5e-12 at t = 20 (4000 steps), |L| = 1.5
      EXPECT_LT(std::fabs(qn - 1), 1e-13);
      EXPECT_LT(worst / ke0, 1e-3);
      fl[h] = worst;
    }
    std::printf("[ info ] free top %s: KE oscillation ratio %.3f (dt^2: 4)\n", scheme,
                fl[0] / fl[1]);
    EXPECT_GT(fl[0] / fl[1], 3.5);
    EXPECT_LT(fl[0] / fl[1], 4.5);
  }
}

// linear body (Izz = 0): the spin about the axis is dropped at setup, then the axis turns
// uniformly about the fixed L at the rate |L|/I (exact solution); KE = |L|^2 / (2 I)
TEST(LammpsRigidSingle, LinearBodyAnalytic)
{
  double q[4] = {0.6, 0.2, -0.5, 0.3};
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double &x : q) x /= n;
  const double L[3] = {0.4, 1.1, -0.8}, I = 0.35, dt = 0.01;
  const int nsteps = 1234;
  LmpSession s;
  free_particle(s, "inertia 1 0.35 0.35 0", q, L, dt);
  s.cmd("run " + std::to_string(nsteps));
  double m[3][3], u0[3], lp[3];
  MathExtra::quat_to_mat(q, m);
  for (int d = 0; d < 3; ++d) u0[d] = m[d][2];
  const double lu = L[0] * u0[0] + L[1] * u0[1] + L[2] * u0[2];
  for (int d = 0; d < 3; ++d) lp[d] = L[d] - lu * u0[d];
  const double ln = std::sqrt(lp[0] * lp[0] + lp[1] * lp[1] + lp[2] * lp[2]);
  const double e[3] = {lp[0] / ln, lp[1] / ln, lp[2] / ln}, phi = ln * nsteps * dt / I;
  // Rodrigues: u = u0 cos phi + (e x u0) sin phi (u0 normal to e)
  double ex[3];
  MathExtra::cross3(e, u0, ex);
  MathExtra::quat_to_mat(quat0(s), m);
  double du = 0, dl = 0;
  for (int d = 0; d < 3; ++d) {
    du = std::max(du, std::fabs(m[d][2] - (u0[d] * std::cos(phi) + ex[d] * std::sin(phi))));
    dl = std::max(dl, std::fabs(s.lmp->atom->angmom[0][d] - lp[d]));
  }
  s.cmd("variable kr equal f_1");
  std::printf("[ info ] linear body, %d steps (turned %.1f rad): |du| %.2e, |dL| %.2e\n", nsteps,
              phi, du, dl);
  EXPECT_LT(du, 1e-11);
  EXPECT_LT(dl, 1e-13);
  EXPECT_NEAR(s.variable("kr"), ln * ln / (2 * I), 1e-13);
}

// write_restart after 100 steps, read_restart in a new instance: the next 100 steps agree
TEST(LammpsRigidSingle, RestartContinues)
{
  const std::string file = "rigid_single_test.restart";
  State ref;
  {
    LmpSession a;
    if (!have_gayberne(a)) GTEST_SKIP() << "pair_style gayberne (ASPHERE) not in this LAMMPS";
    gb_system(a, 0.002);
    a.cmd("fix 1 all nve/rigid/single" + inertia_args());
    a.cmd("run 100");
    a.cmd("write_restart " + file);
    a.cmd("run 100");
    ref = state_of(a.lmp);
  }
  LmpSession b;
  b.cmds({"read_restart " + file, "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes",
          "thermo 0", "timestep 0.002", "fix 1 all nve/rigid/single" + inertia_args(), "run 100"});
  const Diff d = diff(ref, state_of(b.lmp));
  std::printf("[ info ] restart at step 100, step 200: max diff %.2e\n", d.max());
  EXPECT_LT(d.max(), 1e-12);
  std::remove(file.c_str());
}

// atom_style hybrid bond ellipsoid: an oriented bead bonded to a plain bead (no bonus). The
// plain bead is translated by velocity Verlet: the same as fix nve moving it
TEST(LammpsRigidSingle, HybridBondedPlainBeads)
{
  State st[2], st0;
  for (int k = 0; k < 2; ++k) {
    LmpSession s;
    s.cmds({"units lj",
            "atom_style hybrid bond ellipsoid",
            "atom_modify map array",
            "region box block -5 5 -5 5 -5 5",
            "create_box 2 box bond/types 1 extra/bond/per/atom 1",
            "create_atoms 1 single 0 0 0",
            "create_atoms 2 single 1.3 0.2 0",
            "create_atoms 1 single 2.5 0.9 0.3",
            "set type 1 shape 1.5 1 1",
            "set type * mass 1.2",
            "set type 1 quat/random 77",
            "set type 1 angmom 0.3 -0.2 0.5",
            "velocity all create 1.0 4411 loop geom",
            "create_bonds single/bond 1 1 2",
            "create_bonds single/bond 1 2 3",
            "bond_style harmonic",
            "bond_coeff 1 20 1.0",
            "pair_style zero 2.0",
            "pair_coeff * *",
            "thermo 0",
            "timestep 0.005",
            "group rods type 1",
            "group beads type 2"});
    if (k == 0) {
      s.cmd("fix 1 all nve/rigid/single inertia 1 0.2 0.4 0.4");
    } else {
      s.cmd("fix 1 rods nve/rigid/single inertia 1 0.2 0.4 0.4");
      s.cmd("fix 2 beads nve");
    }
    if (k == 0) {
      s.cmd("run 0");
      st0 = state_of(s.lmp);
    }
    s.cmd("run 300");
    st[k] = state_of(s.lmp);
  }
  const Diff d = diff(st[0], st[1]);
  EXPECT_EQ(d.max(), 0.0);
  // the rods turned, the plain bead moved
  EXPECT_GT(std::fabs(st[0][1].q[0] - st0[1].q[0]), 1e-3);
  EXPECT_GT(std::fabs(st[0][3].q[1] - st0[3].q[1]), 1e-3);
  EXPECT_GT(std::fabs(st[0][2].x[0] - st0[2].x[0]), 1e-3);
}

// 'dipole yes' (atom_style hybrid ellipsoid dipole): mu = |mu| times body z in the lab
TEST(LammpsRigidSingle, DipoleFollowsOrientation)
{
  LmpSession s;
  s.cmds({"units lj", "atom_style hybrid ellipsoid dipole", "atom_modify map array",
          "region box block -5 5 -5 5 -5 5", "create_box 1 box", "create_atoms 1 single 0 0 0",
          "set type 1 shape 1 1 1", "set type 1 mass 1", "set type 1 dipole 0 0 2.5",
          "set type 1 quat/random 91", "set type 1 angmom 0.5 -0.7 0.2", "thermo 0",
          "fix 1 all nve/rigid/single inertia 1 0.3 0.5 0.7 dipole yes"});
  for (int r = 0; r < 2; ++r) {
    s.cmd(r == 0 ? "run 0" : "run 250");
    double m[3][3];
    MathExtra::quat_to_mat(quat0(s), m);
    const double *mu = s.lmp->atom->mu[0];
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(mu[d], 2.5 * m[d][2], 1e-14) << "run " << r;
    EXPECT_EQ(mu[3], 2.5);
  }
}

TEST(LammpsRigidSingle, BadInput)
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
  expect_error({"units lj", "atom_style atomic", "region box block -5 5 -5 5 -5 5",
                "create_box 1 box", "create_atoms 1 single 0 0 0", "mass 1 1",
                "fix 1 all nve/rigid/single inertia 1 1 1 1"},
               "run 0", "requires atom style ellipsoid");
  expect_error(with(ell, "fix 1 all nve/rigid/single inertia 1 1 1 1"), "run 0",
               "atoms of type 2 have an orientation");
  expect_error(ell, "fix 1 all nve/rigid/single inertia 1 1 -1 1",
               "principal moment y must be finite and >= 0");
  expect_error(ell, "fix 1 all nve/rigid/single inertia 1 1 1", "inertia expects");
  expect_error(ell, "fix 1 all nve/rigid/single inertia 3 1 1 1", "are not a type");
  expect_error(ell, "fix 1 all nve/rigid/single inertia 1 0 0 1", "at most one principal moment");
  expect_error(ell, "fix 1 all nve/rigid/single inertia 1 0 1 2", "must be equal");
  expect_error(ell, "fix 1 all nve/rigid/single inertia * 1 1 1 foo 2", "unknown keyword 'foo'");
  expect_error(ell, "fix 1 all nve/rigid/single inertia * 1 1 1 rotation verlet",
               "rotation expects no_squish or dlm");
  expect_error(with(ell, "fix 1 all nve/rigid/single inertia * 1 1 1 dipole yes"), "run 0",
               "requires atom attribute mu");
}
