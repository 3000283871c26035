/* Tests of the ptmc command (parallel-tempering Monte Carlo of bead-spring polymers):
   - its energy equals LAMMPS's pe (pair lj/cut, bond fene / fene/expand, specials, shift,
     two atom types, a chain across the periodic boundary), also after many accepted moves;
   - detailed balance: the bond-length distribution of a FENE dimer at two temperatures
     against the analytic p(r) ~ r^2 exp(-U(r)/T) (chi^2), with a wrong reference rejected;
   - reweighting: <E> at T1 reweighted to T2 vs <E> measured at T2;
   - swaps: measured swap rate vs the mean of min(1, exp(dbeta dE)) recomputed from the
     energy file;
   - exact restart (N sweeps == N/2 + restart + N/2, files compared bit for bit), determinism;
   - input errors, gpu yes refused without CUDA or a device. */

#include "lmp_session.h"
#include "lammps/ptmc_test.h"

#include "atom.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace ptmc_test;

// a Kremer-Grest-like system: lj/cut 2.5 (types 1, 2, geometric mixing), fene 30 1.5 1 1
void setup(LmpSession &s, const std::string &data, const std::string &shift = "yes",
           const std::string &special = "0 1 1", const std::string &bond = "fene")
{
  s.cmds({"units lj", "atom_style bond", "boundary p p p", "read_data " + data,
          "pair_style lj/cut 2.5", "pair_coeff * * 1.0 1.0 2.5", "pair_modify shift " + shift,
          "special_bonds lj " + special, "thermo_modify norm no"});
  if (s.lmp->atom->ntypes > 1) s.cmds({"pair_coeff 2 2 1.2 0.9 2.2", "pair_coeff 1 2 0.8 0.95"});
  if (bond == "fene")
    s.cmds({"bond_style fene", "bond_coeff 1 30.0 1.5 1.0 1.0"});
  else    // shifted FENE, minimum near 0.9: the Gross/Schnabel form with a WCA part
    s.cmds({"bond_style fene/expand", "bond_coeff 1 40.0 0.7 0.3 0.5 0.45"});
}

double pe_now(LmpSession &s)
{
  s.cmd("run 0");
  return s.thermo("pe");
}

}    // namespace

TEST(PTMC, EnergyEqualsLammpsPE)
{
  int cases = 0;
  for (const char *shift : {"no", "yes"})
    for (const char *special : {"0 1 1", "0.5 0.7 0.9", "0 0 0"})
      for (const char *bond : {"fene", "fene/expand"})
        for (unsigned rs : {1u, 2u}) {
          LmpSession s;
          setup(s, write_data(3, 8, 9.0, rs), shift, special, bond);
          s.cmd("ptmc 0 temp list 1.0 seed 5");
          const double e = s.variable("ptmc_e_1"), pe = pe_now(s);
          EXPECT_NEAR(e, pe, 1e-10 * std::max(1.0, fabs(pe)))
              << "shift " << shift << " special " << special << " bond " << bond;
          EXPECT_GT(fabs(pe), 1.0);
          ++cases;
        }
  EXPECT_EQ(cases, 24);
}

TEST(PTMC, EnergyAfterManyMoves)
{
  for (const char *bond : {"fene", "fene/expand"}) {
    LmpSession s;
    setup(s, write_data(2, 10, 10.0, 3), "yes", "0 1 1", bond);
    const double pe0 = pe_now(s);
    s.cmd("ptmc 300 temp list 0.8 1.5 seed 11 swap 5 delta 0.1 keep 1");
    EXPECT_GT(s.variable("ptmc_acc_1"), 0.1);    // thousands of accepted moves
    EXPECT_LT(s.variable("ptmc_drift"), 1e-10);
    const double e1 = s.variable("ptmc_e_1"), pe = pe_now(s);
    EXPECT_NEAR(e1, pe, 1e-10 * std::max(1.0, fabs(pe))) << bond;
    EXPECT_GT(fabs(pe - pe0), 1e-3);              // the configuration did move
    s.cmd("ptmc 0 temp list 0.8 1.5 seed 11");    // and is what ptmc reads back
    EXPECT_NEAR(s.variable("ptmc_e_1"), pe, 1e-10 * std::max(1.0, fabs(pe)));
  }
}

// FENE dimer, LJ excluded (special lj 0): p(r) ~ r^2 exp(-U(r)/T), U = FENE + WCA
TEST(PTMC, DetailedBalanceDimer)
{
  const std::string dir = tmpdir();
  FILE *fp = fopen((dir + "/data.dimer").c_str(), "w");
  fprintf(fp, "dimer\n\n2 atoms\n1 bonds\n1 atom types\n1 bond types\n\n-10 10 xlo xhi\n-10 10 "
              "ylo yhi\n-10 10 zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # bond\n\n1 1 1 0 0 0\n2 1 "
              "1 0.97 0 0\n\nBonds\n\n1 1 1 2\n");
  fclose(fp);
  LmpSession s;
  setup(s, dir + "/data.dimer", "no", "0 1 1");
  s.cmd("bond_coeff 1 10.0 1.5 1.0 0.5");    // broad p(r): FENE K = 10 with WCA of sigma 0.5
  s.cmd("ptmc 40200 temp list 1.0 2.0 seed 2024 swap 10 delta 0.3 tune 0.5 10 equil 200 dump "
        "10 " +
        dir + "/dimer 1 2");
  for (int k = 1; k <= 2; ++k) {
    const double T = k;
    auto U = [](double r) {
      double e = -0.5 * 10 * 1.5 * 1.5 * log(1 - r * r / 2.25);
      if (r < 0.5 * pow(2.0, 1.0 / 6)) e += 4 * (pow(r / 0.5, -12) - pow(r / 0.5, -6)) + 1;
      return e;
    };
    const int nb = 24;
    const double lo = 0.3, hi = 1.5;
    std::vector<double> h(nb + 1, 0.0), pexp(nb + 1, 0.0), pwrong(nb + 1, 0.0);
    // analytic bin probabilities (the last entry: outside [lo, hi))
    double z = 0, zw = 0;
    for (double r = 0.2; r < 1.5 - 1e-9; r += 1e-5) {
      const double w = exp(-U(r + 0.5e-5) / T) * 1e-5;
      const int b = (r < lo || r >= hi) ? nb : (int) ((r - lo) / (hi - lo) * nb);
      pexp[b] += (r + 0.5e-5) * (r + 0.5e-5) * w;
      pwrong[b] += w;    // without the r^2 Jacobian: must be rejected
      z += (r + 0.5e-5) * (r + 0.5e-5) * w;
      zw += w;
    }
    std::ifstream in(dir + "/dimer." + std::to_string(k));
    std::string line;
    std::vector<double> xs;
    int nsamp = 0;
    while (std::getline(in, line)) {
      if (line != "ITEM: ATOMS id type xu yu zu") continue;
      double a[2][3];
      for (int i = 0; i < 2; ++i) {
        int id, t;
        in >> id >> t >> a[i][0] >> a[i][1] >> a[i][2];
      }
      double r2 = 0;
      for (int d = 0; d < 3; ++d) {
        double dd = a[0][d] - a[1][d];
        dd -= 20 * std::round(dd / 20);
        r2 += dd * dd;
      }
      const double r = sqrt(r2);
      h[(r < lo || r >= hi) ? nb : (int) ((r - lo) / (hi - lo) * nb)] += 1;
      ++nsamp;
    }
    ASSERT_EQ(nsamp, 4020);
    double chi2 = 0, chi2w = 0;
    int dof = 0;
    for (int b = 0; b <= nb; ++b) {
      const double e = nsamp * pexp[b] / z, ew = nsamp * pwrong[b] / zw;
      if (e < 5) continue;
      chi2 += (h[b] - e) * (h[b] - e) / e;
      chi2w += (h[b] - ew) * (h[b] - ew) / std::max(ew, 1.0);
      ++dof;
    }
    // dof - 1 degrees of freedom; samples 20 trials apart are nearly independent: allow
    // mean + 6 standard deviations of chi^2
    const double nu = dof - 1;
    EXPECT_LT(chi2, nu + 6 * sqrt(2 * nu)) << "T = " << T << " dof " << dof;
    EXPECT_GT(chi2w, 200.0) << "T = " << T;
    std::printf("dimer T=%g: chi2 %.1f (%d bins), wrong-reference chi2 %.0f\n", T, chi2, dof,
                chi2w);
  }
}

// energy samples of a short chain: swap statistics and reweighting between neighbours
TEST(PTMC, SwapsAndReweighting)
{
  const std::string out = tmpdir() + "/sw";
  LmpSession s;
  setup(s, write_data(1, 8, 20.0, 9, 1), "yes", "0 1 1");
  s.cmd("ptmc 30500 temp geom 0.9 1.6 4 seed 77 swap 5 sample 5 delta 0.2 tune 0.5 10 equil 500 "
        "output " +
        out);
  std::ifstream in(out + ".energy");
  std::string line;
  std::vector<std::vector<double>> e(4);
  std::vector<long> sw;
  while (std::getline(in, line)) {
    if (line[0] == '#') continue;
    std::istringstream ls(line);
    long c;
    ls >> c;
    sw.push_back(c);
    for (int k = 0; k < 4; ++k) {
      double v;
      ls >> v;
      e[k].push_back(v);
    }
  }
  ASSERT_EQ(sw.size(), 6000u);
  std::vector<double> b(4);
  for (int k = 0; k < 4; ++k) b[k] = 1.0 / (0.9 * pow(1.6 / 0.9, k / 3.0));
  // swaps: pair k is tried at swap attempts q = sweep/5 with q % 2 == k % 2
  for (int k = 0; k < 3; ++k) {
    double sum = 0;
    long nt = 0;
    for (size_t i = 0; i < sw.size(); ++i)
      if ((sw[i] / 5) % 2 == k % 2) {
        sum += std::min(1.0, exp((e[k][i] - e[k + 1][i]) * (b[k] - b[k + 1])));
        ++nt;
      }
    const double expect = sum / nt,
                 rate = s.variable(("ptmc_swap_" + std::to_string(k + 1)).c_str());
    EXPECT_NEAR(s.variable(("ptmc_swap_expect_" + std::to_string(k + 1)).c_str()), expect, 1e-9);
    EXPECT_NEAR(rate, expect, 4 * sqrt(expect * (1 - expect) / nt) + 1e-3) << "pair " << k + 1;
    EXPECT_GT(rate, 0.05);
    std::printf("swap pair %d: rate %.4f expected %.4f (%ld tries)\n", k + 1, rate, expect, nt);
  }
  // reweighting: T_k -> T_{k+1}, errors from blocks of 200 samples
  for (int k = 0; k < 3; ++k) {
    const int nblk = 30, len = (int) sw.size() / nblk;
    std::vector<double> rw(nblk), dir(nblk);
    for (int bl = 0; bl < nblk; ++bl) {
      double num = 0, den = 0, d = 0, e0 = e[k][0];
      for (int i = bl * len; i < (bl + 1) * len; ++i) {
        const double w = exp(-(b[k + 1] - b[k]) * (e[k][i] - e0));
        num += w * e[k][i];
        den += w;
        d += e[k + 1][i];
      }
      rw[bl] = num / den;
      dir[bl] = d / len;
    }
    auto stats = [&](const std::vector<double> &v, double &m, double &err) {
      m = 0;
      for (double a : v) m += a;
      m /= v.size();
      double var = 0;
      for (double a : v) var += (a - m) * (a - m);
      err = sqrt(var / (v.size() - 1) / v.size());
    };
    double m1, s1, m2, s2;
    stats(rw, m1, s1);
    stats(dir, m2, s2);
    EXPECT_NEAR(m1, m2, 4 * sqrt(s1 * s1 + s2 * s2)) << "T" << k + 1 << " -> T" << k + 2;
    std::printf("reweighted <E> T%d->T%d %.4f +- %.4f, measured %.4f +- %.4f\n", k + 1, k + 2, m1,
                s1, m2, s2);
  }
  // the .cv file: <E> of the multiple-histogram estimate at T_1 agrees with the samples
  std::ifstream cv(out + ".cv");
  int rows = 0;
  double t0 = 0, e0 = 0;
  while (std::getline(cv, line))
    if (line[0] != '#' && rows++ == 0) std::istringstream(line) >> t0 >> e0;
  EXPECT_EQ(rows, 100);
  EXPECT_NEAR(t0, 0.9, 1e-12);
  EXPECT_NEAR(e0, s.variable("ptmc_mean_e_1"), 0.05 * fabs(e0));
}

TEST(PTMC, RestartIsExactAndDeterministic)
{
  const std::string d = tmpdir(), data = write_data(1, 10, 15.0, 4, 1);
  const std::string kw =
      " temp geom 0.7 1.5 3 seed 99 swap 3 delta 0.1 tune 0.4 5 equil 60 output ";
  {
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 100" + kw + d + "/full write " + d + "/full.rst");
  }
  {
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 50" + kw + d + "/h1 write " + d + "/half.rst");
  }
  {
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 50" + kw + d + "/h2 read " + d + "/half.rst write " + d + "/cont.rst");
  }
  {
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 100" + kw + d + "/again write " + d + "/again.rst");
  }
  {
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 100 temp geom 0.7 1.5 3 seed 98 swap 3 delta 0.1 tune 0.4 5 equil 60 write " + d +
          "/other.rst");
  }
  const std::string full = slurp(d + "/full.rst");
  ASSERT_GT(full.size(), 1000u);
  EXPECT_NE(full.find("sweep 100"), std::string::npos);
  EXPECT_EQ(full, slurp(d + "/cont.rst"));
  EXPECT_EQ(full, slurp(d + "/again.rst"));
  EXPECT_NE(full, slurp(d + "/other.rst"));
  // the energy lines of sweeps 51..100 of the full run are those of the continuation
  const std::string ef = slurp(d + "/full.energy"), e2 = slurp(d + "/h2.energy");
  const std::string tail = e2.substr(e2.find("\n", e2.find("# sweep")) + 1);
  ASSERT_GT(tail.size(), 100u);
  EXPECT_NE(ef.find(tail), std::string::npos);
}

TEST(PTMC, Errors)
{
  const std::string data = write_data(1, 5, 15.0, 5, 1);
  auto err = [&](const std::string &c, const std::string &pre = "") {
    LmpSession s;
    setup(s, data);
    if (!pre.empty()) s.cmd(pre);
    return s.error_of(c);
  };
  auto has = [](const std::string &e, const char *what) {
    EXPECT_NE(e.find(what), std::string::npos) << "error text: " << e;
  };
  has(err("ptmc 10 temp list 1.0 0.9 seed 1"), "not increasing");
  has(err("ptmc 10 temp list 0 1.0 seed 1"), "is not positive");
  has(err("ptmc 10 temp list -1 1.0 seed 1"), "is not positive");
  has(err("ptmc 10 temp geom 1 2 1 seed 1"), "at least 2 temperatures");
  has(err("ptmc 10 temp list 1 2 seed 1 delta 0.1 0.2 0.3"), "give 1 or 2 values");
  has(err("ptmc 10 temp list 1 2"), "seed is required");
  has(err("ptmc 10 seed 3"), "no temperature ladder");
  has(err("ptmc -1 temp list 1 seed 3"), "sweeps");
  has(err("ptmc 10 temp list 1 2 seed 3 dump 5 f 3"), "temperature index 3");
  has(err("ptmc 10 temp list 1 2 seed 3 bogus 1"), "unknown keyword");
  has(err("ptmc 10 temp list 1 2 seed 3", "bond_style harmonic"), "bond_style fene or fene/expand");
  has(err("ptmc 10 temp list 1 2 seed 3", "pair_style soft 1.0"), "pair_style lj/cut only");
  has(err("ptmc 10 temp list 1 2 seed 3 read /nonexistent/file"), "cannot read restart");
  {
    LmpSession s;
    s.cmds({"units lj", "atom_style bond", "region b block 0 10 0 10 0 10",
            "create_box 1 b bond/types 1 extra/bond/per/atom 1", "create_atoms 1 single 1 1 1",
            "create_atoms 1 single 2 1 1", "mass 1 1", "pair_style lj/cut 2.5",
            "pair_coeff 1 1 1 1", "bond_style fene", "bond_coeff 1 30 1.5 1 1"});
    has(s.error_of("ptmc 10 temp list 1 2 seed 3"), "needs bonds");
  }
  {
    LmpSession s;
    s.cmds({"units lj", "atom_style atomic", "region b block 0 10 0 10 0 10", "create_box 1 b",
            "create_atoms 1 single 1 1 1", "mass 1 1", "pair_style lj/cut 2.5",
            "pair_coeff 1 1 1 1"});
    has(s.error_of("ptmc 10 temp list 1 2 seed 3"), "atom_style bond or molecular");
  }
  {    // a restart of another ladder
    const std::string f = tmpdir() + "/err.rst";
    LmpSession s;
    setup(s, data);
    s.cmd("ptmc 2 temp list 1 2 seed 3 write " + f);
    has(s.error_of("ptmc 2 temp list 1 3 seed 3 read " + f), "differs from the ladder");
    has(s.error_of("ptmc 2 temp list 1 2 3 seed 3 read " + f), "replica count differs");
  }
}

// gpu yes where it cannot run: a plugin built without CUDA, or no device visible (all
// devices are hidden here, so the test means the same on the GPU machine); gpu no is the CPU
TEST(PTMC, GpuKeywordRefusedWithoutDevice)
{
  setenv("CUDA_VISIBLE_DEVICES", "", 1);    // before this process's first CUDA call
  const std::string data = write_data(1, 5, 15.0, 5, 1);
  LmpSession s;
  setup(s, data);
  const std::string e = s.error_of("ptmc 10 temp list 1 2 seed 3 gpu yes");
  EXPECT_TRUE(e.find("ptmc gpu yes: this mesogpu plugin was built without CUDA") !=
                  std::string::npos ||
              e.find("ptmc gpu yes: no CUDA device visible") != std::string::npos)
      << "error text: " << e;
  EXPECT_NE(s.error_of("ptmc 10 temp list 1 2 seed 3 gpu maybe").find("maybe"), std::string::npos);
  EXPECT_EQ(s.error_of("ptmc 10 temp list 1 2 seed 3 gpu no"), "");
  EXPECT_EQ(s.variable("ptmc_sweep"), 10.0);
}
