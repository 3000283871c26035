/* pair_style soft/aniso inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH).
   References: central finite differences of LAMMPS's own total energy (forces: moving
   one atom; torques: turning one dipole), a slow loop over all pairs with the minimum
   image that calls nothing but src/physics/soft_aniso.h with parameters built here,
   newton on against off, restart and data-file round trips, single(), and the errors a
   user sees for bad commands. */

#include "atom.h"
#include "domain.h"
#include "force.h"
#include "info.h"
#include "lammps.h"
#include "pair.h"

#include "lmp_session.h"
#include "physics/soft_aniso.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <mpi.h>
#include <string>
#include <unistd.h>
#include <vector>

using mesogpu::physics::make_soft_aniso_params;
using mesogpu::physics::SoftAnisoModel;
using mesogpu::physics::SoftAnisoParams;

namespace {

const double PI = 3.14159265358979323846;
const double L = 4.0;    // box edge

std::string tmp_name(const std::string &stem)
{
  return "lmp_soft_aniso_" + std::to_string(getpid()) + "_" + stem;
}

// per-atom results ordered by tag
struct State {
  double pe = 0, press[6] = {0, 0, 0, 0, 0, 0};
  std::vector<double> f, t;
};

class SoftAnisoLammps : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  std::string thermo_extra;    // more thermo keywords for run0()
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  LAMMPS_NS::LAMMPS *lmp() { return s->lmp; }

  // 150 solvent (type 1, no dipole) and 42 Janus particles (type 2) at density 3,
  // random positions and orientations; with 'more', 20 triblock ABA (type 3) and 10
  // rods (type 4) as well, so that every model meets every other
  void system(const std::string &newton = "on", bool more = false)
  {
    cmd("units lj");
    cmd("atom_style hybrid sphere dipole");
    cmd("atom_modify map array sort 0 0.0");    // local indices stay put between runs
    cmd("newton " + newton);
    cmd("region box block 0 4 0 4 0 4");
    cmd(std::string("create_box ") + (more ? "4" : "2") + " box");
    cmd("create_atoms 1 random 150 8812 box");
    cmd("create_atoms 2 random 42 1209 box");
    if (more) {
      cmd("create_atoms 3 random 20 3317 box");
      cmd("create_atoms 4 random 10 5521 box");
    }
    cmd("set type * diameter 1.0");
    cmd("set type * density 1.9");
    cmd("mass * 1.0");    // dipole's per-type mass (unused: sphere's rmass counts)
    cmd("set type 2* dipole/random 4471 1.7");    // any length: the direction counts
    cmd("pair_style soft/aniso 1.0");
    cmd("pair_coeff 1 1 25 iso");
    cmd("pair_coeff 1 2 25 iso");
    cmd("pair_coeff 2 2 396 janus 88 0.5 65 1.2");
    if (more) {
      cmd("pair_coeff 1 3 30 iso");
      cmd("pair_coeff 2 3 60 disk 0.5 1.5 1.1");
      cmd("pair_coeff 3 3 396 aba 132 1 50");
      cmd("pair_coeff 1 4 25 iso 0.9");
      cmd("pair_coeff 2 4 80 rod 0.4 2");
      cmd("pair_coeff 3 4 200 bab 88 2 40");
      cmd("pair_coeff 4 4 100 rod 0.7 1");
    }
    cmd("neighbor 0.3 bin");
  }

  // the same parameters, written again for the reference loop
  SoftAnisoParams<double> ref_params(int a, int b)
  {
    if (a > b) std::swap(a, b);
    const double r = PI / 180;
    using M = SoftAnisoModel;
    if (a == 2 && b == 2)
      return make_soft_aniso_params<double>(M::janus, 396, 88, 0, 0.5, 65 * r, 1.2);
    if (a == 1 && b == 3) return make_soft_aniso_params<double>(M::iso, 30, 0, 0, 1, 0, 1.0);
    if (a == 2 && b == 3) return make_soft_aniso_params<double>(M::disk, 60, 0, 0.5, 1.5, 0, 1.1);
    if (a == 3 && b == 3)
      return make_soft_aniso_params<double>(M::aba, 396, 132, 0, 1, 50 * r, 1.0);
    if (a == 1 && b == 4) return make_soft_aniso_params<double>(M::iso, 25, 0, 0, 1, 0, 0.9);
    if (a == 2 && b == 4) return make_soft_aniso_params<double>(M::rod, 80, 0, 0.4, 2, 0, 1.0);
    if (a == 3 && b == 4) return make_soft_aniso_params<double>(M::bab, 200, 88, 0, 2, 40 * r, 1.0);
    if (a == 4 && b == 4) return make_soft_aniso_params<double>(M::rod, 100, 0, 0.7, 1, 0, 1.0);
    return make_soft_aniso_params<double>(M::iso, 25, 0, 0, 1, 0, 1.0);
  }

  State run0()
  {
    cmd("thermo_style custom step pe pxx pyy pzz pxy pxz pyz" + thermo_extra);
    cmd("run 0 post no");
    State st;
    auto *a = lmp()->atom;
    st.pe = s->thermo("pe") * a->natoms;
    const char *p[6] = {"pxx", "pyy", "pzz", "pxy", "pxz", "pyz"};
    for (int k = 0; k < 6; ++k) st.press[k] = s->thermo(p[k]);
    st.f.assign(3 * a->natoms, 0.0);
    st.t.assign(3 * a->natoms, 0.0);
    for (int i = 0; i < a->nlocal; ++i)
      for (int d = 0; d < 3; ++d) {
        st.f[3 * (a->tag[i] - 1) + d] = a->f[i][d];
        st.t[3 * (a->tag[i] - 1) + d] = a->torque[i][d];
      }
    return st;
  }

  // every pair once, minimum image, the physics header only (one rank)
  State reference()
  {
    auto *a = lmp()->atom;
    const int n = a->nlocal;
    State st;
    st.f.assign(3 * n, 0.0);
    st.t.assign(3 * n, 0.0);
    double w[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        double r[3], ni[3], nj[3];
        for (int d = 0; d < 3; ++d) {
          r[d] = a->x[j][d] - a->x[i][d];
          r[d] -= L * std::round(r[d] / L);
        }
        auto unit = [&](int k, double *out) {
          const double *m = a->mu[k];
          const double len = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
          for (int d = 0; d < 3; ++d) out[d] = len > 0 ? m[d] / len : 0.0;
        };
        unit(i, ni);
        unit(j, nj);
        const auto p = ref_params(a->type[i], a->type[j]);
        double u, fj[3], gi[3], gj[3];
        if (!mesogpu::physics::soft_aniso_pair(p, r, ni, nj, u, fj, gi, gj)) continue;
        st.pe += u;
        const int ti = a->tag[i] - 1, tj = a->tag[j] - 1;
        double taui[3], tauj[3];
        mesogpu::physics::soft_aniso_torque(ni, gi, taui);
        mesogpu::physics::soft_aniso_torque(nj, gj, tauj);
        for (int d = 0; d < 3; ++d) {
          st.f[3 * ti + d] -= fj[d];
          st.f[3 * tj + d] += fj[d];
          st.t[3 * ti + d] += taui[d];
          st.t[3 * tj + d] += tauj[d];
        }
        // virial sum over pairs of (x_i - x_j) F_i = r_ij F_j
        w[0] += r[0] * fj[0];
        w[1] += r[1] * fj[1];
        w[2] += r[2] * fj[2];
        w[3] += r[0] * fj[1];
        w[4] += r[0] * fj[2];
        w[5] += r[1] * fj[2];
      }
    for (int k = 0; k < 6; ++k) st.press[k] = w[k] / (L * L * L);    // T = 0, lj units
    return st;
  }
};

double max_diff(const std::vector<double> &a, const std::vector<double> &b, double &scale)
{
  double d = 0;
  scale = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    d = std::max(d, std::fabs(a[k] - b[k]));
    scale = std::max(scale, std::fabs(b[k]));
  }
  return d;
}

}    // namespace

TEST_F(SoftAnisoLammps, StyleIsRegistered)
{
  LAMMPS_NS::Info info(lmp());
  EXPECT_TRUE(info.has_style("pair", "soft/aniso"));
}

TEST_F(SoftAnisoLammps, ForcesAndTorquesMatchAllPairsReference)
{
  for (bool more : {false, true}) {
    system("on", more);
    const State st = run0();
    const State ref = reference();
    double scale;
    EXPECT_GT(std::fabs(ref.pe), 10.0);
    EXPECT_NEAR(st.pe, ref.pe, 1e-11 * std::fabs(ref.pe));
    const double diff1 = max_diff(st.f, ref.f, scale);
    EXPECT_LT(diff1, 1e-11 * scale);
    EXPECT_GT(scale, 1.0);
    const double diff2 = max_diff(st.t, ref.t, scale);
    EXPECT_LT(diff2, 1e-11 * scale);
    EXPECT_GT(scale, 1.0);    // Janus pairs do turn each other
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(st.press[k], ref.press[k], 1e-10 * std::fabs(ref.press[0])) << k;
    // per-atom virial (ev_tally_xyz path) sums to the global one (fdotr)
    cmd("compute s all stress/atom NULL virial");
    cmd("compute ss all reduce sum c_s[1] c_s[2] c_s[4]");
    cmd("variable sxx equal -c_ss[1]/vol");
    cmd("variable syy equal -c_ss[2]/vol");
    cmd("variable sxy equal -c_ss[3]/vol");
    thermo_extra = " c_ss[1]";
    run0();
    thermo_extra.clear();
    EXPECT_NEAR(s->variable("sxx"), ref.press[0], 1e-10 * std::fabs(ref.press[0]));
    EXPECT_NEAR(s->variable("syy"), ref.press[1], 1e-10 * std::fabs(ref.press[0]));
    EXPECT_NEAR(s->variable("sxy"), ref.press[3], 1e-10 * std::fabs(ref.press[0]));
    cmd("clear");
  }
}

TEST_F(SoftAnisoLammps, ForcesAndTorquesAreFiniteDifferencesOfTheEnergy)
{
  system("on", true);
  const State st = run0();
  auto *a = lmp()->atom;
  const double h = 1e-5;
  int checked = 0;
  // tags of a few atoms of each type
  for (int tag : {3, 77, 151, 170, 193, 205, 214, 220}) {
    const int i = a->map(tag);
    ASSERT_GE(i, 0);
    const int t = tag - 1;
    for (int d = 0; d < 3; ++d) {
      const double x0 = a->x[i][d];
      a->x[i][d] = x0 + h;
      const double ep = run0().pe;
      a->x[i][d] = x0 - h;
      const double em = run0().pe;
      a->x[i][d] = x0;
      const double fd = -(ep - em) / (2 * h);
      EXPECT_NEAR(st.f[3 * t + d], fd, 1e-6 * (1 + std::fabs(fd))) << "tag " << tag << " d " << d;
      ++checked;
    }
    if (a->type[i] == 1) continue;
    // torque: turning n by a small angle phi about axis k changes U by -tau_k phi
    const double m0[3] = {a->mu[i][0], a->mu[i][1], a->mu[i][2]};
    for (int k = 0; k < 3; ++k) {
      auto turn = [&](double phi) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        a->mu[i][k] = m0[k];
        a->mu[i][k1] = std::cos(phi) * m0[k1] - std::sin(phi) * m0[k2];
        a->mu[i][k2] = std::sin(phi) * m0[k1] + std::cos(phi) * m0[k2];
        return run0().pe;
      };
      const double ep = turn(h), em = turn(-h);
      turn(0.0);
      const double fd = -(ep - em) / (2 * h);
      EXPECT_NEAR(st.t[3 * t + k], fd, 1e-6 * (1 + std::fabs(fd))) << "tag " << tag << " k " << k;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8 * 3 + 6 * 3);
}

TEST_F(SoftAnisoLammps, NewtonOnAndOffAgree)
{
  system("on", true);
  const State on = run0();
  cmd("clear");
  system("off", true);
  const State off = run0();
  double scale;
  EXPECT_NEAR(on.pe, off.pe, 1e-12 * std::fabs(on.pe));
  const double diff3 = max_diff(off.f, on.f, scale);
  EXPECT_LT(diff3, 1e-12 * scale);
  const double diff4 = max_diff(off.t, on.t, scale);
  EXPECT_LT(diff4, 1e-12 * scale);
  EXPECT_GT(scale, 1.0);
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(on.press[k], off.press[k], 1e-12 * std::fabs(on.press[0]));
}

TEST_F(SoftAnisoLammps, NveConservesEnergyWhileTorquesTurnTheParticles)
{
  // LAMMPS's own rigid-sphere integrator turns the dipoles with the torques; with a
  // torque of the wrong sign or size, rotational energy would come from nowhere. The
  // Janus attraction's force jumps at rc (aA/2 f^nu), so energy is conserved to O(dt),
  // here about 1e-5 of the total; the particles pick up about 25 of rotational energy.
  cmd("units lj");
  cmd("atom_style hybrid sphere dipole");
  cmd("atom_modify map array");
  cmd("region box block 0 4 0 4 0 4");
  cmd("create_box 3 box");
  cmd("create_atoms 1 random 150 8812 box");
  cmd("create_atoms 2 random 30 1209 box");
  cmd("create_atoms 3 random 12 3317 box");
  cmd("set type * diameter 1.0");
  cmd("set type * density 1.9");
  cmd("set type 2* dipole/random 4471 1.0");
  cmd("velocity all create 1.0 87287 loop geom");
  cmd("pair_style soft/aniso 1.0");
  cmd("pair_coeff 1 1 25 iso");
  cmd("pair_coeff 1 2 25 iso");
  cmd("pair_coeff 1 3 25 iso");
  cmd("pair_coeff 2 2 100 janus 60 2 65");
  cmd("pair_coeff 2 3 60 bab 40 2 45");
  cmd("pair_coeff 3 3 50 rod 0.5 2");
  cmd("neighbor 0.3 bin");
  cmd("neigh_modify every 1 delay 0 check yes");
  cmd("timestep 0.001");
  cmd("fix 1 all nve/sphere update dipole");
  cmd("compute er all erotate/sphere");
  cmd("variable et equal pe+ke+c_er");
  cmd("variable er equal c_er");
  cmd("thermo_style custom step pe ke c_er v_et");
  cmd("thermo_modify norm no");
  cmd("run 0 post no");
  const double e0 = s->variable("et");
  cmd("run 1000 post no");
  EXPECT_GT(s->variable("er"), 10.0);
  EXPECT_NEAR(s->variable("et"), e0, 0.1) << "of " << e0;
}

TEST_F(SoftAnisoLammps, RestartRoundTrip)
{
  system("on", true);
  const State a = run0();
  const std::string restart = tmp_name("r.restart");
  cmd("write_restart " + restart);
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  EXPECT_EQ(std::string(lmp()->force->pair_style), "soft/aniso");
  const State b = run0();
  double scale;
  EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe));
  const double diff5 = max_diff(b.f, a.f, scale);
  EXPECT_LE(diff5, 1e-13 * scale);
  const double diff6 = max_diff(b.t, a.t, scale);
  EXPECT_LE(diff6, 1e-13 * scale);
  int dim;
  auto cut = (double **) lmp()->force->pair->extract("cut", dim);
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(dim, 2);
  EXPECT_DOUBLE_EQ(cut[2][2], 1.2);
  EXPECT_DOUBLE_EQ(cut[2][3], 1.1);
  EXPECT_DOUBLE_EQ(cut[4][1], 0.9);
  EXPECT_DOUBLE_EQ(cut[1][1], 1.0);
  auto aa = (double **) lmp()->force->pair->extract("alpha_A", dim);
  ASSERT_NE(aa, nullptr);
  EXPECT_DOUBLE_EQ(aa[3][3], 132.0);
  EXPECT_EQ(lmp()->force->pair->extract("nonsense", dim), nullptr);
}

TEST_F(SoftAnisoLammps, FixAdaptChangesCoefficients)
{
  // only Janus pairs (2 2) attract; doubling alpha_A of 2 2 through fix adapt must give
  // what the same pair_coeff with the doubled value gives
  system("on", false);
  cmd("pair_coeff 2 2 396 janus 176 0.5 65 1.2");
  const State want = run0();
  cmd("pair_coeff 2 2 396 janus 88 0.5 65 1.2");
  const State before = run0();
  cmd("variable aa equal 176");
  cmd("fix ad all adapt 1 pair soft/aniso alpha_A 2 2 v_aa");
  const State after = run0();
  EXPECT_GT(std::fabs(after.pe - before.pe), 1.0);
  EXPECT_NEAR(after.pe, want.pe, 1e-12 * std::fabs(want.pe));
  double scale;
  const double diff = max_diff(after.t, want.t, scale);
  EXPECT_LT(diff, 1e-12 * scale);
}

TEST_F(SoftAnisoLammps, FixAdaptOutOfRangeIsAnError)
{
  // pair_coeff refuses nu <= 0; fix adapt driving nu of the Janus pair through 0 must be
  // refused the same way (the range is checked whenever the coefficients change)
  system("on", false);
  cmd("variable nu equal 0.5-step/10");    // 0.5, 0.4, ..., 0 at step 5
  cmd("fix ad all adapt 1 pair soft/aniso nu 2 2 v_nu");
  cmd("fix nve all nve");
  std::string msg = s->error_of("run 3 post no");
  EXPECT_EQ(msg, "");    // nu = 0.2 still fine
  msg = s->error_of("run 10 post no");
  EXPECT_NE(msg.find("nu = 0 for atom types 2 2 (janus) is out of range (finite, > 0)"),
            std::string::npos)
      << msg;
  cmd("unfix ad");
  cmd("pair_coeff 2 2 396 janus 88 0.5 65 1.2");    // the stopped run left nu = 0

  // a negative alpha_R and a mu >= 1 are refused too
  cmd("variable ar equal -1");
  cmd("fix ad all adapt 1 pair soft/aniso alpha_R 1 2 v_ar");
  msg = s->error_of("run 1 post no");
  EXPECT_NE(msg.find("alpha_R = -1 for atom types 1 2 (iso) is out of range (finite, >= 0)"),
            std::string::npos)
      << msg;
  cmd("unfix ad");
  cmd("pair_coeff 1 2 25 disk 0.5 2");
  cmd("set type 1 dipole 0 0 1");
  cmd("variable m equal 1.0");
  cmd("fix ad all adapt 1 pair soft/aniso mu 1 2 v_m");
  msg = s->error_of("run 1 post no");
  EXPECT_NE(msg.find("mu = 1 for atom types 1 2 (disk) is out of range (0 <= mu < 1)"),
            std::string::npos)
      << msg;
  cmd("unfix ad");
  cmd("pair_coeff 1 2 25 iso");

  // the cutoff cannot change during a run (the neighbour lists keep the old one)
  cmd("variable rc equal 1.1");
  cmd("fix ad all adapt 1 pair soft/aniso cut 1 1 v_rc");
  msg = s->error_of("run 1 post no");
  EXPECT_NE(msg.find("the cutoff of atom types 1 1 changed from 1 to 1.1 during a run"),
            std::string::npos)
      << msg;
}

TEST(SoftAnisoWarnings, FixAdaptOfAnUnusedParameterWarns)
{
  // alpha_A of an iso pair does nothing: fix adapt changing it is legal but surprising
  const std::string log = tmp_name("adapt.log");
  {
    LAMMPS_NS::LAMMPS::argv args = {"test", "-log",    log.c_str(), "-echo",
                                    "none", "-screen", "none",      "-nocite"};
    LAMMPS_NS::LAMMPS lmp(args, MPI_COMM_WORLD);
    for (const char *c :
         {"units lj", "atom_style hybrid sphere dipole", "region box block 0 3 0 3 0 3",
          "create_box 2 box", "create_atoms 1 random 40 733 box", "set type 1 mass 1.0",
          "pair_style soft/aniso 1.0", "pair_coeff * * 25 iso", "variable a equal 10",
          "fix ad all adapt 1 pair soft/aniso alpha_A 1 2 v_a", "run 0"})
      lmp.input->one(c);
  }
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(log.c_str());
  EXPECT_NE(text.str().find("alpha_A of atom types 1 2 was changed (fix adapt?), but their model "
                            "iso does not use it"),
            std::string::npos)
      << text.str();
}

TEST_F(SoftAnisoLammps, TailCorrectionIsRefused)
{
  system("on", false);
  cmd("pair_modify tail yes");
  const std::string msg = s->error_of("run 0");
  EXPECT_NE(msg.find("Pair soft/aniso has no tail correction"), std::string::npos) << msg;
  cmd("pair_modify tail no");
  EXPECT_EQ(s->error_of("run 0"), "");
}

TEST_F(SoftAnisoLammps, HugeDipolesGiveTheSameForcesAsUnitOnes)
{
  // the orientation is mu/|mu|: |mu| = 1e200 (|mu|^2 overflows) and 1e-200 (underflows)
  // must give exactly what the unit dipoles give
  system("on", true);
  const State a = run0();
  auto *atom = lmp()->atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double scale = (atom->tag[i] % 2) ? 1e200 : 1e-200;
    for (int d = 0; d < 3; ++d) atom->mu[i][d] *= scale;
  }
  const State b = run0();
  double fscale, tscale;
  EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe));
  const double df = max_diff(b.f, a.f, fscale);
  const double dt = max_diff(b.t, a.t, tscale);
  EXPECT_LE(df, 1e-13 * fscale);
  EXPECT_LE(dt, 1e-13 * tscale);
  EXPECT_GT(fscale, 1.0);
  EXPECT_GT(tscale, 1.0);
}

TEST_F(SoftAnisoLammps, NonFiniteDipoleIsNamedAtSetup)
{
  system("on", false);
  auto *atom = lmp()->atom;
  const int i = atom->map(160);    // a Janus particle (type 2)
  ASSERT_GE(i, 0);
  atom->mu[i][1] = NAN;
  std::string msg = s->error_of("run 0");
  EXPECT_NE(msg.find("atom 160 of type 2 has a non-finite dipole moment"), std::string::npos)
      << msg;
  atom->mu[i][1] = INFINITY;
  msg = s->error_of("run 0");
  EXPECT_NE(msg.find("atom 160 of type 2 has a non-finite dipole moment"), std::string::npos)
      << msg;
  // and a solvent atom's dipole may be zero, but not NaN
  const int k = atom->map(3);
  atom->mu[i][1] = 0.5;
  atom->mu[k][0] = NAN;
  msg = s->error_of("run 0");
  EXPECT_NE(msg.find("atom 3 of type 1 has a non-finite dipole moment"), std::string::npos) << msg;
}

TEST_F(SoftAnisoLammps, TypeLabelsInPairCoeff)
{
  // pair_coeff takes LAMMPS type labels (LAMMPS expands them before coeff())
  system("on", false);
  const State a = run0();
  cmd("labelmap atom 1 W 2 J");
  cmd("pair_coeff W W 25 iso");
  cmd("pair_coeff W J 25 iso");
  cmd("pair_coeff J J 396 janus 88 0.5 65 1.2");
  const State b = run0();
  EXPECT_EQ(b.pe, a.pe);
  cmd("pair_coeff J J 396 janus 44 0.5 65 1.2");
  const State c = run0();
  EXPECT_GT(std::fabs(c.pe - a.pe), 1e-3);
}

TEST(SoftAnisoCite, CitationsAreRegistered)
{
  // without -nocite LAMMPS collects the citations of the styles used into the -cite file
  const std::string file = tmp_name("cite.txt");
  {
    LAMMPS_NS::LAMMPS::argv args = {"test",    "-log", "none",  "-echo",     "none",
                                    "-screen", "none", "-cite", file.c_str()};
    LAMMPS_NS::LAMMPS lmp(args, MPI_COMM_WORLD);
    lmp.input->one("units lj");
    lmp.input->one("atom_style hybrid sphere dipole");
    lmp.input->one("region box block 0 3 0 3 0 3");
    lmp.input->one("create_box 1 box");
    lmp.input->one("pair_style soft/aniso 1.0");
    lmp.input->one("fix 1 all leapfrog/aniso");
  }
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(file.c_str());
  const std::string t = text.str();
  EXPECT_NE(t.find("10.1002/jcc.23365"), std::string::npos) << t;            // GALAMOST
  EXPECT_NE(t.find("Soft Matter"), std::string::npos) << t;                  // Janus model
  EXPECT_NE(t.find("10.1080/08927029208022474"), std::string::npos) << t;    // Fincham
}

TEST_F(SoftAnisoLammps, DataFileRoundTrip)
{
  system("on", true);
  const State a = run0();
  const std::string data = tmp_name("d.data");
  cmd("write_data " + data + " pair ij");
  cmd("clear");
  cmd("units lj");
  cmd("atom_style hybrid sphere dipole");
  cmd("atom_modify map array");
  cmd("pair_style soft/aniso 0.5");    // every pair line carries its own rc
  cmd("read_data " + data);
  std::remove(data.c_str());
  cmd("neighbor 0.3 bin");
  const State b = run0();
  double scale;
  EXPECT_NEAR(b.pe, a.pe, 1e-13 * std::fabs(a.pe));
  const double diff7 = max_diff(b.f, a.f, scale);
  EXPECT_LE(diff7, 1e-13 * scale);
  const double diff8 = max_diff(b.t, a.t, scale);
  EXPECT_LE(diff8, 1e-13 * scale);
}

TEST_F(SoftAnisoLammps, SingleGivesEnergyRadialForceAndTorque)
{
  cmd("units lj");
  cmd("atom_style hybrid sphere dipole");
  cmd("atom_modify map array");
  cmd("region box block -3 3 -3 3 -3 3");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 0 0 0 units box");
  cmd("create_atoms 1 single 0.3 0.4 -0.2 units box");
  cmd("set atom 1 dipole 0.2 0.1 0.9");
  cmd("set atom 2 dipole 0.1 -0.2 1");
  cmd("set type 1 mass 1.0");
  cmd("pair_style soft/aniso 1.0");
  cmd("pair_coeff 1 1 396 bab 88 1.5 60");
  const State st = run0();
  auto *a = lmp()->atom;
  auto *pair = lmp()->force->pair;
  const int i = a->map(1), j = a->map(2);
  double del[3], rsq = 0;
  for (int d = 0; d < 3; ++d) {
    del[d] = a->x[i][d] - a->x[j][d];
    rsq += del[d] * del[d];
  }
  double fforce;
  const double e = pair->single(i, j, 1, 1, rsq, 1.0, 1.0, fforce);
  EXPECT_NEAR(e, st.pe, 1e-13 * std::fabs(st.pe));
  EXPECT_GT(std::fabs(st.t[0]) + std::fabs(st.t[1]) + std::fabs(st.t[2]), 1.0);
  ASSERT_EQ(pair->single_extra, 6);
  double radial = 0;
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(pair->svector[d], st.f[d], 1e-12 * (1 + std::fabs(st.f[d])));
    EXPECT_NEAR(pair->svector[3 + d], st.t[d], 1e-12 * (1 + std::fabs(st.t[d])));
    radial += st.f[d] * del[d];
  }
  EXPECT_NEAR(fforce, radial / rsq, 1e-12 * (1 + std::fabs(fforce)));
  // no such pair of atoms (pair_write's single(0, 1, ...) at other distances): the
  // isotropic repulsion alone
  const double e2 = pair->single(0, 1, 1, 1, 0.25, 1.0, 1.0, fforce);
  EXPECT_NEAR(e2, 0.5 * 396 * 0.25, 1e-12);
  EXPECT_NEAR(fforce, 396 * 0.5 / 0.5, 1e-12);
}

TEST_F(SoftAnisoLammps, CommandErrorsNameTheProblem)
{
  cmd("units lj");
  cmd("atom_style hybrid sphere dipole");
  cmd("region box block 0 3 0 3 0 3");
  cmd("create_box 2 box");
  auto has = [&](const std::string &c, const std::string &want) {
    const std::string msg = s->error_of(c);
    EXPECT_NE(msg.find(want), std::string::npos) << c << " -> '" << msg << "'";
  };
  has("pair_style soft/aniso", "expected 'pair_style soft/aniso rc'");
  has("pair_style soft/aniso -1", "cutoff rc = -1 must be > 0");
  cmd("pair_style soft/aniso 1.0");
  has("pair_coeff 1 1 25", "expected 'pair_coeff I J alpha_R model");
  has("pair_coeff 1 1 -2 iso", "alpha_R = -2 must be >= 0");
  has("pair_coeff 1 1 25 cube", "unknown model 'cube' (allowed: iso, rod, disk, janus, aba, bab)");
  has("pair_coeff 1 1 25 rod 0.5", "model rod expects 'pair_coeff I J alpha_R rod mu nu [rc]'");
  has("pair_coeff 1 1 25 janus 88 1 60 1 2", "model janus expects");
  has("pair_coeff 1 1 25 rod 1.0 2", "rod mu = 1.0 is out of range (0 <= mu < 1)");
  has("pair_coeff 1 1 25 disk -0.1 2", "disk mu = -0.1 is out of range (0 <= mu < 1)");
  has("pair_coeff 1 1 25 disk 0.5 0", "disk nu = 0 must be > 0");
  has("pair_coeff 1 1 25 janus -1 1 60", "janus alpha_A = -1 must be >= 0");
  has("pair_coeff 1 1 25 janus 88 -1 60", "janus nu = -1 must be > 0");
  has("pair_coeff 1 1 25 janus 88 1 181",
      "janus beta = 181 degrees is out of range (0 < beta <= 180)");
  has("pair_coeff 1 1 25 janus 88 1 0", "janus beta = 0 degrees is out of range");
  has("pair_coeff 1 1 25 aba 88 1 91", "aba beta = 91 degrees is out of range (0 < beta <= 90)");
  has("pair_coeff 1 1 25 bab 88 1 95", "bab beta = 95 degrees is out of range (0 < beta <= 90)");
  has("pair_coeff 1 1 25 iso 0", "cutoff rc = 0 must be > 0");
  has("pair_coeff 1 1 25 janus 88 1 x", "Expected floating point parameter");
  has("pair_coeff 1 3 25 iso", "Numeric index 3 is out of bounds");

  // never mixed: a missing pair is named
  cmd("pair_coeff 1 1 25 iso");
  cmd("pair_coeff 2 2 396 janus 88 1 60");
  cmd("create_atoms 1 single 0.5 0.5 0.5 units box");
  cmd("create_atoms 2 single 1.0 0.5 0.5 units box");
  has("run 0", "no pair_coeff for atom types 1 2");

  // a Janus atom without a dipole has no orientation
  cmd("pair_coeff 1 2 25 iso");
  has("run 0", "atom 2 of type 2 has a zero dipole moment");
  cmd("set atom 2 dipole 0 0 1");
  EXPECT_EQ(s->error_of("run 0"), "");
}

TEST_F(SoftAnisoLammps, NeedsDipoleAndSphere)
{
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("region box block 0 3 0 3 0 3");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 0.5 0.5 0.5 units box");
  cmd("mass 1 1.0");
  cmd("pair_style soft/aniso 1.0");
  cmd("pair_coeff 1 1 25 iso");
  const std::string msg = s->error_of("run 0");
  EXPECT_NE(msg.find("use 'atom_style hybrid sphere dipole'"), std::string::npos) << msg;
}
