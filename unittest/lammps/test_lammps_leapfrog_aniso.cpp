/* fix leapfrog/aniso inside LAMMPS (plugin from LAMMPS_PLUGIN_PATH), with LAMMPS's
   pair lj/cut/dipole/cut (DIPOLE package) or fix efield as the torque source.
   References are physics, never numbers this code produced: |mu| invariant, the
   small-oscillation period 2 pi sqrt(I/(mu E)) of a dipole in a field (lj and real
   units: checks I and LAMMPS's unit conversions), total-energy conservation in NVE
   (second order in dt), Berendsen reaching its target, the temperatures recomputed
   from the atom arrays and by LAMMPS's compute temp, a restart that continues the run,
   and the error messages of bad commands. */

#include "lmp_session.h"

#include "atom.h"
#include "compute.h"
#include "fix.h"
#include "force.h"
#include "info.h"
#include "modify.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string tmp_name(const std::string &stem)
{
  return "lmp_leapfrog_aniso_" + std::to_string(getpid()) + "_" + stem;
}

// inertia of the two dipolar types of dipole_system(); type 3 has no dipole
constexpr double kInertia1 = 0.4, kInertia2 = 0.25;

// 216 atoms on a simple cubic lattice at density 0.5, LJ + point dipoles: type 1
// |mu| = 1, type 2 |mu| = 0.5, type 3 no dipole (translation only). omega from a
// deterministic function of the atom ID (the same on any number of ranks).
void dipole_system(LmpSession &s, double temp = 1.5, double wscale = 0.8,
                   const std::string &pair = "lj/cut/dipole/cut")
{
  s.cmds({"units lj",
          "atom_style hybrid sphere dipole",
          "atom_modify map array sort 0 0.0",
          "lattice sc 0.5",
          "region box block 0 6 0 6 0 6",
          "create_box 3 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.3 4321",
          "set type 1 type/fraction 3 0.2 8765",
          "set group all mass 1.0",
          "set type 1 dipole/random 1234 1.0",
          "set type 2 dipole/random 5678 0.5",
          "velocity all create " + std::to_string(temp) + " 87287 loop geom",
          "variable wx atom " + std::to_string(wscale) + "*sin(1.3*id)",
          "variable wy atom " + std::to_string(wscale) + "*cos(0.7*id)",
          "variable wz atom " + std::to_string(wscale) + "*sin(2.1*id+0.5)",
          "set group all omega v_wx v_wy v_wz",
          "pair_style " + pair + " 2.5",
          "pair_coeff * * 1.0 1.0",
          "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.002",
          "thermo_modify norm no"});
}

const char *kFix = "fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25";

double inertia_of(int type)
{
  return type == 1 ? kInertia1 : (type == 2 ? kInertia2 : 0.0);
}

struct Snapshot {
  std::map<long, std::vector<double>> x, mu;
};

Snapshot snapshot(LAMMPS_NS::Atom *atom)
{
  Snapshot s;
  for (int i = 0; i < atom->nlocal; ++i) {
    const long t = atom->tag[i];
    s.x[t] = {atom->x[i][0], atom->x[i][1], atom->x[i][2]};
    s.mu[t] = {atom->mu[i][0], atom->mu[i][1], atom->mu[i][2], atom->mu[i][3]};
  }
  return s;
}

// kinetic energies from the atom arrays; rotational at the full step from the half-step
// omega: omega(t) = omega(t+dt/2) - dt/2 tau_perp(t)/I (the leapfrog mean of t-dt/2, t+dt/2)
void kinetic(LAMMPS_NS::Atom *atom, double dt, double &ke_tr, double &ke_rot_half,
             double &ke_rot_full)
{
  ke_tr = ke_rot_half = ke_rot_full = 0.0;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double *v = atom->v[i];
    ke_tr += 0.5 * atom->rmass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (atom->mu[i][3] == 0.0) continue;
    const double I = inertia_of(atom->type[i]);
    double n[3], w[3];
    for (int d = 0; d < 3; ++d) n[d] = atom->mu[i][d] / atom->mu[i][3];
    const double *tq = atom->torque[i];
    const double tn = tq[0] * n[0] + tq[1] * n[1] + tq[2] * n[2];
    for (int d = 0; d < 3; ++d) w[d] = atom->omega[i][d] - 0.5 * dt * (tq[d] - tn * n[d]) / I;
    const double *o = atom->omega[i];
    ke_rot_half += 0.5 * I * (o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    ke_rot_full += 0.5 * I * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  }
}

struct Drift {
  double max_dev = 0.0;    // max |E(t) - E(0)| per atom
  double drift = 0.0;      // |mean over last fifth - mean over first fifth| per atom
};

// NVE over time t_total, energy sampled every 0.02 time units
Drift nve_energy(double dt, double t_total)
{
  // lj/cut/dipole/cut jumps in energy where pairs cross the cutoff (LAMMPS's own
  // nve/sphere drifts by 0.1 per atom over t = 20 with it); lj/sf/dipole/sf is smooth
  LmpSession s;
  dipole_system(s, 1.5, 0.8, "lj/sf/dipole/sf");
  s.cmd("timestep " + std::to_string(dt));
  s.cmd(kFix);
  s.cmd("thermo 0");
  s.cmd("run 0");
  const int every = static_cast<int>(std::lround(0.02 / dt));
  const int samples = static_cast<int>(std::lround(t_total / 0.02));
  std::vector<double> e;
  const double natoms = s.lmp->atom->natoms;
  for (int k = 0; k <= samples; ++k) {
    if (k > 0) s.cmd("run " + std::to_string(every) + " pre no post no");
    double ke_tr, ke_half, ke_full;
    kinetic(s.lmp->atom, dt, ke_tr, ke_half, ke_full);
    e.push_back((ke_tr + ke_full + s.thermo("pe")) / natoms);
  }
  Drift d;
  const int fifth = samples / 5;
  double first = 0.0, last = 0.0;
  for (size_t k = 0; k < e.size(); ++k) {
    d.max_dev = std::max(d.max_dev, std::fabs(e[k] - e[0]));
    if ((int) k < fifth) first += e[k] / fifth;
    if ((int) k > samples - fifth) last += e[k] / fifth;
  }
  d.drift = std::fabs(last - first);
  return d;
}

// period of a dipole started at angle theta0 from a field along z, from the crossings of
// n_x through zero downwards (linear interpolation between steps)
double pendulum_period(const std::string &units, double dt, double inertia, double mu,
                       double efield, double theta0, int steps)
{
  LmpSession s;
  s.cmds({"units " + units, "atom_style hybrid sphere dipole", "atom_modify map array",
          "region box block -5 5 -5 5 -5 5", "create_box 1 box",
          "create_atoms 1 single 0 0 0 units box", "set group all mass 1.0",
          "set group all dipole " + std::to_string(mu * std::sin(theta0)) + " 0 " +
              std::to_string(mu * std::cos(theta0)),
          "fix e all efield 0 0 " + std::to_string(efield), "timestep " + std::to_string(dt),
          "fix 1 all leapfrog/aniso inertia 1 " + std::to_string(inertia), "thermo 0", "run 0"});
  std::vector<double> crossings;
  double prev = s.lmp->atom->mu[0][0];
  for (int k = 1; k <= steps; ++k) {
    s.cmd("run 1 pre no post no");
    const double cur = s.lmp->atom->mu[0][0];
    if (prev > 0.0 && cur <= 0.0) crossings.push_back(dt * (k - 1 + prev / (prev - cur)));
    prev = cur;
  }
  if (crossings.size() < 2) return NAN;
  return (crossings.back() - crossings.front()) / (crossings.size() - 1);
}

}    // namespace

TEST(LeapfrogAniso, StyleIsRegistered)
{
  LmpSession s;
  LAMMPS_NS::Info info(s.lmp);
  EXPECT_TRUE(info.has_style("fix", "leapfrog/aniso"));
}

TEST(LeapfrogAniso, OrientationLengthKeptAndIsotropicAtomsTranslateOnly)
{
  LmpSession s;
  dipole_system(s);
  s.cmd(kFix);
  s.cmd("run 0");
  auto *atom = s.lmp->atom;
  const Snapshot a = snapshot(atom);
  std::map<long, std::vector<double>> omega0;
  int n_iso = 0;
  for (int i = 0; i < atom->nlocal; ++i) {
    omega0[atom->tag[i]] = {atom->omega[i][0], atom->omega[i][1], atom->omega[i][2]};
    if (atom->mu[i][3] == 0.0) ++n_iso;
  }
  ASSERT_GT(n_iso, 10);
  s.cmd("run 500");
  const Snapshot b = snapshot(atom);
  double worst_len = 0.0, worst_perp = 0.0, min_turn = 1e9;
  for (int i = 0; i < atom->nlocal; ++i) {
    const long t = atom->tag[i];
    const double *mu = atom->mu[i];
    const double *w = atom->omega[i];
    const double len = std::sqrt(mu[0] * mu[0] + mu[1] * mu[1] + mu[2] * mu[2]);
    const double len0 = a.mu.at(t)[3];
    EXPECT_EQ(mu[3], len0);
    if (len0 == 0.0) {
      // no orientation: mu stays zero, omega untouched, the atom still moves
      EXPECT_EQ(len, 0.0);
      for (int d = 0; d < 3; ++d) EXPECT_EQ(w[d], omega0.at(t)[d]);
      const auto &x0 = a.x.at(t);
      EXPECT_GT(std::fabs(b.x.at(t)[0] - x0[0]) + std::fabs(b.x.at(t)[1] - x0[1]), 1e-3);
      continue;
    }
    worst_len = std::max(worst_len, std::fabs(len - len0) / len0);
    const double wn = (w[0] * mu[0] + w[1] * mu[1] + w[2] * mu[2]) / len;
    worst_perp = std::max(worst_perp, std::fabs(wn));
    const auto &m0 = a.mu.at(t);
    const double cosang = (m0[0] * mu[0] + m0[1] * mu[1] + m0[2] * mu[2]) / (len0 * len);
    min_turn = std::min(min_turn, 1.0 - cosang);
  }
  EXPECT_LT(worst_len, 1e-14);
  EXPECT_LT(worst_perp, 1e-12);
  EXPECT_GT(min_turn, 0.0);    // every dipole turned
}

TEST(LeapfrogAniso, SmallOscillationPeriodInAField)
{
  // I theta'' = -mu E sin(theta): T = 2 pi sqrt(I / (mu E)) (1 + theta0^2/16 + ...)
  const double theta0 = 0.05, corr = 1.0 + theta0 * theta0 / 16.0;
  {
    // lj units: I = 2.5, mu E = 2 x 0.5 = 1 -> T = 2 pi sqrt(2.5) = 9.93
    const double expect = 2 * M_PI * std::sqrt(2.5 / 1.0) * corr;
    const double t = pendulum_period("lj", 0.005, 2.5, 2.0, 0.5, theta0, 7000);
    std::printf("lj: period %.6f, expected %.6f\n", t, expect);
    EXPECT_NEAR(t / expect, 1.0, 1e-4) << "period " << t << " expected " << expect;
  }
  {
    // real units: mu = 1 e A, E = 1 V/A, mu E = 23.060549 kcal/mol (LAMMPS's qe2f);
    // I = 100 g/mol A^2; force-to-velocity factor ftm2v = 1/48.88821291^2 (fs units):
    // omega0^2 = mu E ftm2v / I, T = 640 fs
    const double k = 23.060549, ftm2v = 1.0 / (48.88821291 * 48.88821291);
    const double expect = 2 * M_PI * std::sqrt(100.0 / (k * ftm2v)) * corr;
    const double t = pendulum_period("real", 1.0, 100.0, 1.0, 1.0, theta0, 2300);
    std::printf("real: period %.4f fs, expected %.4f fs\n", t, expect);
    EXPECT_NEAR(t / expect, 1.0, 1e-4) << "period " << t << " expected " << expect;
  }
}

TEST(LeapfrogAniso, NVETotalEnergyConserved)
{
  // E = KE_tr + sum I |omega|^2 / 2 + PE per atom (T = 1.5, energies O(1) per atom);
  // over t = 20 (10000 steps of dt = 0.002): fluctuation and drift bounded, and the
  // fluctuation is second order in dt
  const Drift a = nve_energy(0.002, 20.0);
  const Drift b = nve_energy(0.001, 20.0);
  std::printf("NVE t = 20: dt 0.002 max|dE|/N = %.3e drift/N = %.3e; dt 0.001 max|dE|/N = "
              "%.3e drift/N = %.3e\n",
              a.max_dev, a.drift, b.max_dev, b.drift);
  EXPECT_LT(a.max_dev, 5e-4);
  EXPECT_LT(a.drift, 1e-4);
  EXPECT_NEAR(a.max_dev / b.max_dev, 4.0, 1.0);
}

TEST(LeapfrogAniso, BerendsenBringsBothTemperaturesToTarget)
{
  LmpSession s;
  dipole_system(s, 3.0, 0.2);    // T_tr = 3, T_rot about 0.03: far from T0 on both sides
  s.cmd("fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.1 0.05");
  s.cmds({"variable ttr equal f_1[1]", "variable trot equal f_1[2]", "thermo 0", "run 0"});
  const double ttr0 = s.variable("ttr"), trot0 = s.variable("trot");
  EXPECT_NEAR(ttr0, 3.0, 0.01);    // velocity create sets exactly 3 (3N-3 dof)
  EXPECT_LT(trot0, 0.1);
  s.cmd("run 2000");    // t = 4 = 40 tau_T = 80 tau_R
  double ttr = 0.0, trot = 0.0;
  const int nsample = 50;
  for (int k = 0; k < nsample; ++k) {
    s.cmd("run 20 pre no post no");
    ttr += s.variable("ttr") / nsample;
    trot += s.variable("trot") / nsample;
  }
  std::printf("Berendsen T0 = 1: start T_tr = %.4f, T_rot = %.4f; mean over the last 1000 "
              "steps T_tr = %.4f, T_rot = %.4f\n",
              ttr0, trot0, ttr, trot);
  EXPECT_NEAR(ttr, 1.0, 0.03);
  EXPECT_NEAR(trot, 1.0, 0.03);
  auto *fix = s.lmp->modify->get_fix_by_id("1");
  int dim = -1;
  auto *t0 = (double *) fix->extract("t_target", dim);
  ASSERT_NE(t0, nullptr);
  EXPECT_EQ(dim, 0);
  EXPECT_EQ(*t0, 1.0);
}

TEST(LeapfrogAniso, VectorEqualsTemperaturesFromTheAtomArrays)
{
  LmpSession s;
  dipole_system(s);
  s.cmd(kFix);
  s.cmds({"variable ttr equal f_1[1]", "variable trot equal f_1[2]", "thermo 0", "run 200"});
  auto *atom = s.lmp->atom;
  double mv2 = 0.0, iw2 = 0.0;
  int n = 0, nrot = 0;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double *v = atom->v[i], *w = atom->omega[i];
    mv2 += atom->rmass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ++n;
    if (atom->mu[i][3] > 0.0) {
      iw2 += inertia_of(atom->type[i]) * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      ++nrot;
    }
  }
  const double ttr = mv2 / (3.0 * n - 3.0), trot = iw2 / (2.0 * nrot);
  EXPECT_NEAR(s.variable("ttr"), ttr, 1e-13 * ttr);
  EXPECT_NEAR(s.variable("trot"), trot, 1e-13 * trot);
  // and LAMMPS's own compute temp (thermo temp) on the same group
  EXPECT_NEAR(s.thermo("temp"), ttr, 1e-13 * ttr);
  EXPECT_GT(trot, 0.1);

  // on a subgroup: only its atoms count; 3N-3 with N of the subgroup
  s.cmds({"group sub type 1 3", "fix 1 sub leapfrog/aniso inertia 1 0.4", "run 0"});
  mv2 = iw2 = 0.0;
  n = nrot = 0;
  for (int i = 0; i < atom->nlocal; ++i) {
    if (atom->type[i] == 2) continue;
    const double *v = atom->v[i], *w = atom->omega[i];
    mv2 += atom->rmass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ++n;
    if (atom->type[i] == 1) {
      iw2 += kInertia1 * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      ++nrot;
    }
  }
  EXPECT_NEAR(s.variable("ttr"), mv2 / (3.0 * n - 3.0), 1e-13 * mv2 / n);
  EXPECT_NEAR(s.variable("trot"), iw2 / (2.0 * nrot), 1e-13 * iw2 / nrot);
}

TEST(LeapfrogAniso, RestartContinuesIdentically)
{
  const std::string restart = tmp_name("a.restart");
  Snapshot a;
  {
    LmpSession s;
    dipole_system(s);
    s.cmds({kFix, "thermo 0", "run 100", "write_restart " + restart, "run 100"});
    a = snapshot(s.lmp->atom);
  }
  LmpSession s;
  s.cmds({"read_restart " + restart, "atom_modify sort 0 0.0", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", kFix, "thermo 0", "run 100"});
  std::remove(restart.c_str());
  const Snapshot b = snapshot(s.lmp->atom);
  ASSERT_EQ(a.x.size(), b.x.size());
  double worst = 0.0;
  for (const auto &kv : a.x) {
    for (int d = 0; d < 3; ++d)
      worst = std::max(worst, std::fabs(kv.second[d] - b.x.at(kv.first)[d]));
    for (int d = 0; d < 3; ++d)
      worst = std::max(worst, std::fabs(a.mu.at(kv.first)[d] - b.mu.at(kv.first)[d]));
  }
  std::printf("restart: max |difference| of x and mu after 100 steps = %.3e\n", worst);
  EXPECT_LT(worst, 1e-10);
}

// past dt |omega x n| = 1 the run stops (BadInputIsNamed), or with
TEST(LeapfrogAniso, LimitNormalizeTakesTheNormalisedStep)
{
  LmpSession s;
  dipole_system(s);
  // 'limit normalize': n <- (n + dt w)/|n + dt w|, w = omega x n = (0, 600, 0),
  // so n = (1, 1.2, 0)/|(1, 1.2, 0)| after one step, whatever the forces (the drift uses
  // the half-step omega)
  s.cmds({"set type 1 omega 0 0 600", "set type 1 dipole 1 0 0",
          "fix 1 all leapfrog/aniso inertia 1*2 1.0 limit normalize", "run 1 post no"});
  const double len = std::sqrt(1.0 + 1.44);
  int checked = 0;
  for (int i = 0; i < s.lmp->atom->nlocal; ++i) {
    if (s.lmp->atom->type[i] != 1) continue;
    const double *mu = s.lmp->atom->mu[i];
    EXPECT_NEAR(mu[0], 1.0 / len, 1e-12);
    EXPECT_NEAR(mu[1], 1.2 / len, 1e-12);
    EXPECT_NEAR(mu[2], 0.0, 1e-12);
    EXPECT_NEAR(mu[3], 1.0, 1e-12);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(LeapfrogAniso, BadInputIsNamed)
{
  LmpSession s;
  dipole_system(s);
  auto expect_error = [&](const std::string &cmd, const std::string &text) {
    const std::string msg = s.error_of(cmd);
    EXPECT_NE(msg.find(text), std::string::npos) << cmd << "\n  -> " << msg;
  };
  const std::string f = "fix 1 all leapfrog/aniso ";
  expect_error(f + "foo", "unknown keyword 'foo' (allowed: inertia, berendsen, limit)");
  expect_error(f + "limit", "limit expects stop or normalize");
  expect_error(f + "limit go", "limit expects stop or normalize (got 'go')");
  expect_error(f + "inertia", "inertia expects one or more '<types> <I>' pairs");
  expect_error(f + "inertia 1", "inertia expects '<types> <I>' pairs; types '1' has no value");
  expect_error(f + "inertia 1 berendsen 1 1 1", "types '1' has no value");
  expect_error(f + "inertia 4 1.0",
               "atom types '4' are not a type, type label or range within 1-3");
  expect_error(f + "inertia 2*5 1.0",
               "atom types '2*5' are not a type, type label or range within 1-3");
  expect_error(f + "inertia A 1.0",
               "atom types 'A' are not a type, type label or range within 1-3");
  expect_error(f + "inertia 1 abc", "inertia for types 1: 'abc' is not a number");
  expect_error(f + "inertia 1 -2", "inertia for types 1 must be > 0 (got -2)");
  expect_error(f + "inertia 1 0", "inertia for types 1 must be > 0 (got 0)");
  expect_error(f + "berendsen 1.0 0.1", "berendsen expects 3 values: T0 tau_T tau_R (got 2)");
  expect_error(f + "berendsen x 0.1 0.1", "berendsen T0: 'x' is not a number");
  expect_error(f + "berendsen -1 0.1 0.1", "berendsen T0 must be >= 0 (got -1)");
  expect_error(f + "berendsen 1 0 0.1", "berendsen tau_T must be > 0 (got 0)");
  expect_error(f + "berendsen 1 0.1 -0.5", "berendsen tau_R must be > 0 (got -0.5)");

  // type 3 has no dipole: giving it an inertia is an error at run time
  s.cmd(f + "inertia 1*3 1.0");
  expect_error("run 0", "of type 3 has no orientation (|mu| = 0) but type 3 was given an inertia");
  s.cmd(f + "inertia 1*2 1.0");
  s.cmd("run_style respa 2 2 pair 2");
  expect_error("run 0", "Fix leapfrog/aniso does not support run_style respa");
  s.cmd("run_style verlet");
  EXPECT_EQ(s.error_of("run 0"), "");

  // more than one radian per step
  s.cmds({"set type 1 omega 0 0 600", "set type 1 dipole 1 0 0"});
  expect_error("run 1", "turns by more than 1 radian per step (dt*|omega| = 1.2 >= 1)");

  // an atom style without mu/omega/torque
  LmpSession t;
  t.cmds({"units lj", "atom_style atomic", "region box block 0 3 0 3 0 3", "create_box 1 box",
          "create_atoms 1 single 1 1 1", "mass 1 1.0", "fix 1 all leapfrog/aniso"});
  const std::string msg = t.error_of("run 0");
  EXPECT_NE(msg.find("requires atom attributes mu, omega and torque: use atom_style hybrid "
                     "sphere dipole"),
            std::string::npos)
      << msg;
}

TEST(LeapfrogAniso, BerendsenTauBelowTimestepIsRefused)
{
  // tau < dt overshoots (T jumps between 0 and far above T0): refused at init, also when
  // the timestep changes after the fix was defined
  LmpSession s;
  dipole_system(s);
  s.cmd("fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.001 0.1");
  std::string msg = s.error_of("run 0");
  EXPECT_NE(msg.find("berendsen tau_T = 0.001 and tau_R = 0.1 must both be >= the timestep dt = "
                     "0.002"),
            std::string::npos)
      << msg;
  s.cmd("fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.01 0.01");
  EXPECT_EQ(s.error_of("run 0"), "");
  s.cmd("timestep 0.01");
  EXPECT_EQ(s.error_of("run 0"), "");    // tau = dt is allowed (lambda^2 = T0/T)
  s.cmd("timestep 0.05");                // between runs: the next run decides
  msg = s.error_of("run 0");
  EXPECT_NE(msg.find("tau_T = 0.01 and tau_R = 0.01 must both be >= the timestep dt = 0.05"),
            std::string::npos)
      << msg;
}

TEST(LeapfrogAniso, EcoupleBalancesTheThermostat)
{
  // energy conservation with a thermostat: pe + KE_tr + KE_rot + ecouple stays constant,
  // ecouple = the energy the Berendsen scaling took out (translation and rotation).
  // T_tr starts at 3 and T_rot near 0, T0 = 1: the thermostat exchanges O(1) per atom in
  // both directions; the sum must stay within the NVE error of this integrator
  LmpSession s;
  dipole_system(s, 3.0, 0.2, "lj/sf/dipole/sf");
  s.cmd("fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.1 0.05");
  s.cmds({"thermo_style custom step pe ke ecouple econserve", "thermo_modify norm no",
          "variable ec equal f_1", "thermo 0", "run 0"});
  auto *atom = s.lmp->atom;
  const double natoms = atom->natoms;
  auto total = [&]() {
    double ke_tr, ke_half, ke_full;
    kinetic(atom, 0.002, ke_tr, ke_half, ke_full);
    return ke_tr + ke_full + s.thermo("pe") + s.variable("ec");
  };
  const double e0 = total();
  double worst = 0.0, ke_rot_start, ke_rot_end, ke_tr_start, ke_tr_end, dummy;
  kinetic(atom, 0.002, ke_tr_start, dummy, ke_rot_start);
  for (int k = 0; k < 40; ++k) {
    s.cmd("run 50 pre no post no");
    worst = std::max(worst, std::fabs(total() - e0));
  }
  kinetic(atom, 0.002, ke_tr_end, dummy, ke_rot_end);
  const double exchanged = s.variable("ec");
  std::printf("ecouple after t = 4: %.4f per atom (KE_tr %.3f -> %.3f, KE_rot %.3f -> %.3f per "
              "atom); max |E + ecouple - E0| = %.3e per atom\n",
              exchanged / natoms, ke_tr_start / natoms, ke_tr_end / natoms, ke_rot_start / natoms,
              ke_rot_end / natoms, worst / natoms);
  // both channels moved: translation cooled, rotation heated (so neither part can be
  // missing from ecouple without breaking the balance)
  EXPECT_LT(ke_tr_end, 0.6 * ke_tr_start);
  EXPECT_GT(ke_rot_end - ke_rot_start, 0.2 * natoms);
  EXPECT_GT(std::fabs(exchanged), 0.5 * natoms);
  EXPECT_LT(worst, 0.01 * (ke_rot_end - ke_rot_start));
  EXPECT_LT(worst / natoms, 2e-3);
  // LAMMPS's thermo keywords: ecouple is this fix's scalar, econserve = pe + ke + ecouple
  EXPECT_DOUBLE_EQ(s.thermo("ecouple"), exchanged);
  EXPECT_NEAR(s.thermo("econserve"), s.thermo("pe") + s.thermo("ke") + exchanged, 1e-12 * natoms);

  // ecouple survives a restart
  const std::string restart = tmp_name("e.restart");
  s.cmd("write_restart " + restart);
  LmpSession t;
  t.cmds({"read_restart " + restart,
          "fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen "
          "1.0 0.1 0.05",
          "variable ec equal f_1", "run 0"});
  std::remove(restart.c_str());
  EXPECT_DOUBLE_EQ(t.variable("ec"), exchanged);
}

TEST(LeapfrogAniso, FixModifyTempSetsTheTranslationalTemperature)
{
  // a temperature compute with 300 extra degrees of freedom removed reads higher than the
  // fix's own T_tr for the same velocities; with fix_modify temp the thermostat brings
  // that compute's temperature to T0, and f_ID[1] reports it
  LmpSession s;
  dipole_system(s, 1.0, 0.8);
  s.cmds({"compute t2 all temp", "compute_modify t2 extra/dof 303",
          "fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.1 0.05",
          "fix_modify 1 temp t2", "variable ttr equal f_1[1]", "variable t2 equal c_t2", "thermo 0",
          "run 1500"});
  double ttr = 0.0, t2 = 0.0, own = 0.0;
  const int nsample = 25;
  auto *atom = s.lmp->atom;
  for (int k = 0; k < nsample; ++k) {
    s.cmd("run 20 pre no post no");
    ttr += s.variable("ttr") / nsample;
    t2 += s.variable("t2") / nsample;
    double mv2 = 0.0;
    for (int i = 0; i < atom->nlocal; ++i)
      mv2 += atom->rmass[i] * (atom->v[i][0] * atom->v[i][0] + atom->v[i][1] * atom->v[i][1] +
                               atom->v[i][2] * atom->v[i][2]);
    own += mv2 / (3.0 * atom->natoms - 3.0) / nsample;
  }
  std::printf("fix_modify temp: c_t2 = %.4f, f_1[1] = %.4f, 3N-3 temperature = %.4f\n", t2, ttr,
              own);
  EXPECT_NEAR(t2, 1.0, 0.05);
  EXPECT_NEAR(ttr, t2, 1e-12);
  EXPECT_NEAR(own, (3.0 * atom->natoms - 3.0 - 300.0) / (3.0 * atom->natoms - 3.0), 0.05);

  auto expect_error = [&](const std::string &cmd, const std::string &text) {
    const std::string msg = s.error_of(cmd);
    EXPECT_NE(msg.find(text), std::string::npos) << cmd << "\n  -> " << msg;
  };
  expect_error("fix_modify 1 temp nosuch", "fix_modify temp: compute nosuch does not exist");
  // the compute deleted after fix_modify: named, not a dangling pointer
  s.cmd("uncompute t2");
  expect_error("print $(f_1[1])", "temperature compute t2 (fix_modify temp) does not exist");
  s.cmd("compute p all pe");
  expect_error("fix_modify 1 temp p", "fix_modify temp: compute p (style pe) does not compute a "
                                      "temperature");
}

TEST(LeapfrogAniso, OneThermostatStepIsTheBerendsenFormula)
{
  // no forces (pair zero), so one step changes v only through the thermostat and |omega|
  // not at all (free rotors): v_x, v_y scale by lambda_T = sqrt(1 + dt/tau_T (T0/T - 1))
  // with T of compute temp/partial 1 1 0 (fix_modify temp); v_z, its bias, is left alone;
  // omega scales by lambda_R from T_rot; ecouple grows by
  // dof k T (1 - lambda_T^2)/2 + N_rot k T_rot (1 - lambda_R^2)
  LmpSession s;
  dipole_system(s, 3.0, 0.2);
  s.cmds({"pair_style zero 2.5", "pair_coeff * *", "compute tp all temp/partial 1 1 0",
          "fix 1 all leapfrog/aniso inertia 1 0.4 2 0.25 berendsen 1.0 0.1 0.05",
          "fix_modify 1 temp tp", "variable ec equal f_1", "variable trot equal f_1[2]",
          "variable tp equal c_tp", "thermo 0", "run 0"});
  auto *atom = s.lmp->atom;
  const double t = s.variable("tp"), t_rot = s.variable("trot");
  const double dof = s.lmp->modify->get_compute_by_id("tp")->dof;
  std::map<long, std::vector<double>> v0, w0;
  int n_rot = 0;
  for (int i = 0; i < atom->nlocal; ++i) {
    v0[atom->tag[i]] = {atom->v[i][0], atom->v[i][1], atom->v[i][2]};
    w0[atom->tag[i]] = {atom->omega[i][0], atom->omega[i][1], atom->omega[i][2]};
    if (atom->mu[i][3] > 0.0) ++n_rot;
  }
  EXPECT_NEAR(dof, 2.0 * atom->natoms - 2.0, 1e-12);    // x and y, minus 2 (extra/dof 3 * 2/3)
  s.cmd("run 1 post no");
  const double dt = 0.002;
  const double lt = std::sqrt(1.0 + dt / 0.1 * (1.0 / t - 1.0));
  const double lr = std::sqrt(1.0 + dt / 0.05 * (1.0 / t_rot - 1.0));
  double worst = 0.0;
  for (int i = 0; i < atom->nlocal; ++i) {
    const auto &v = v0.at(atom->tag[i]);
    const auto &w = w0.at(atom->tag[i]);
    worst = std::max(worst, std::fabs(atom->v[i][0] - lt * v[0]));
    worst = std::max(worst, std::fabs(atom->v[i][1] - lt * v[1]));
    worst = std::max(worst, std::fabs(atom->v[i][2] - v[2]));
    const double l = atom->mu[i][3] > 0.0 ? lr : 1.0;
    for (int d = 0; d < 3; ++d) worst = std::max(worst, std::fabs(atom->omega[i][d] - l * w[d]));
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(lt, 0.995);    // T = 3 > T0: cooling
  EXPECT_GT(lr, 1.01);     // T_rot < T0: heating
  const double expect = 0.5 * dof * t * (1 - lt * lt) + n_rot * t_rot * (1 - lr * lr);
  EXPECT_NEAR(s.variable("ec"), expect, 1e-12 * std::fabs(expect));
}

TEST(LeapfrogAniso, InertiaTakesTypeLabels)
{
  LmpSession s;
  dipole_system(s);
  s.cmds({"labelmap atom 1 A 2 B 3 C", "fix 1 all leapfrog/aniso inertia A 0.4 B 0.25"});
  auto *fix = s.lmp->modify->get_fix_by_id("1");
  int dim = -1;
  auto *inertia = (double *) fix->extract("inertia", dim);
  ASSERT_NE(inertia, nullptr);
  EXPECT_EQ(inertia[1], 0.4);
  EXPECT_EQ(inertia[2], 0.25);
  EXPECT_EQ(inertia[3], 1.0);
  const std::string msg = s.error_of("fix 1 all leapfrog/aniso inertia D 0.4");
  EXPECT_NE(msg.find("D not found in labelmap"), std::string::npos) << msg;
}

// a soft/aniso Janus fluid whose orientations are integrated by the fix; the trajectory
// of the orientations must not depend on |mu| (the pair uses only mu/|mu|)
std::map<long, std::vector<double>> janus_orientations(double mu_scale, bool as_set_does)
{
  LmpSession s;
  s.cmds({"units lj",
          "atom_style hybrid sphere dipole",
          "atom_modify map array sort 0 0.0",
          "region box block 0 4 0 4 0 4",
          "create_box 1 box",
          "create_atoms 1 random 150 733 box",
          "set type 1 diameter 1.0",
          "set type 1 density 1.9",
          "mass 1 1.0",
          "set type 1 dipole/random 4471 1.0",
          "velocity all create 1.0 5511 loop geom",
          "variable wx atom sin(1.3*id)",
          "variable wy atom cos(0.7*id)",
          "variable wz atom sin(2.1*id+0.5)",
          "set group all omega v_wx v_wy v_wz",
          "pair_style soft/aniso 1.0",
          "pair_coeff 1 1 396 janus 88 1 65",
          "neighbor 0.3 bin",
          "timestep 0.002",
          "fix 1 all leapfrog/aniso inertia 1 0.4",
          "thermo 0"});
  auto *atom = s.lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    for (int d = 0; d < 3; ++d) atom->mu[i][d] *= mu_scale;
    // 'set dipole' stores |mu| = sqrt(mux^2 + ...), which overflows for |mu| = 1e200
    atom->mu[i][3] =
        as_set_does ? std::sqrt(atom->mu[i][0] * atom->mu[i][0] + atom->mu[i][1] * atom->mu[i][1] +
                                atom->mu[i][2] * atom->mu[i][2])
                    : atom->mu[i][3] * mu_scale;
  }
  s.cmd("run 200");
  std::map<long, std::vector<double>> n;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double *m = atom->mu[i];
    EXPECT_TRUE(std::isfinite(m[0]) && std::isfinite(m[1]) && std::isfinite(m[2]) &&
                std::isfinite(m[3]));
    n[atom->tag[i]] = {m[0] / m[3], m[1] / m[3], m[2] / m[3]};
  }
  return n;
}

TEST(LeapfrogAniso, HugeDipolesTurnLikeUnitOnes)
{
  const auto ref = janus_orientations(1.0, false);
  const auto big = janus_orientations(1e200, true);      // |mu|^2 = inf in 'set dipole'
  const auto tiny = janus_orientations(1e-200, true);    // |mu|^2 = 0 there
  double worst = 0.0;
  for (const auto &kv : ref)
    for (int d = 0; d < 3; ++d) {
      worst = std::max(worst, std::fabs(big.at(kv.first)[d] - kv.second[d]));
      worst = std::max(worst, std::fabs(tiny.at(kv.first)[d] - kv.second[d]));
    }
  std::printf("|mu| = 1e200, 1e-200 vs 1 after 200 steps: max |n difference| = %.3e\n", worst);
  EXPECT_LT(worst, 1e-9);
}

TEST(LeapfrogAniso, NonFiniteDipoleIsNamedAtSetup)
{
  LmpSession s;
  dipole_system(s);
  s.cmd(kFix);
  auto *atom = s.lmp->atom;
  int i = -1;
  for (int k = 0; k < atom->nlocal; ++k)
    if (atom->type[k] == 1 && (i < 0 || atom->tag[k] < atom->tag[i])) i = k;
  ASSERT_GE(i, 0);
  const long tag = atom->tag[i];
  atom->mu[i][2] = NAN;
  std::string msg = s.error_of("run 0");
  EXPECT_NE(msg.find("atom " + std::to_string(tag) + " has a dipole moment that is not finite"),
            std::string::npos)
      << msg;
  atom->mu[i][2] = -INFINITY;
  msg = s.error_of("run 0");
  EXPECT_NE(msg.find("atom " + std::to_string(tag) + " has a dipole moment that is not finite"),
            std::string::npos)
      << msg;
}

TEST(LeapfrogAniso, ColdRotationWarns)
{
  // omega = 0 and no torques (an isotropic pair): scaling cannot heat the rotation, and
  // the run says so (the warning goes to the log file)
  const std::string log = tmp_name("cold.log");
  {
    LAMMPS_NS::LAMMPS::argv args = {"test", "-log",    log.c_str(), "-echo",
                                    "none", "-screen", "none",      "-nocite"};
    LAMMPS_NS::LAMMPS lmp(args, MPI_COMM_WORLD);
    for (const char *c :
         {"units lj", "atom_style hybrid sphere dipole", "region box block 0 4 0 4 0 4",
          "create_box 1 box", "create_atoms 1 random 100 733 box", "set type 1 mass 1.0",
          "set type 1 dipole/random 4471 1.0", "velocity all create 1.0 5511",
          "pair_style soft/aniso 1.0", "pair_coeff 1 1 25 iso",
          "fix 1 all leapfrog/aniso berendsen 1.0 0.1 0.1", "thermo 0", "run 10"})
      lmp.input->one(c);
  }
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(log.c_str());
  EXPECT_NE(text.str().find("berendsen: the rotational temperature is 0, and scaling the "
                            "velocities cannot raise it to T0 = 1"),
            std::string::npos)
      << text.str();
}
