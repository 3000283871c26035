/* GPU tests of ptmc gpu yes (cuda/mc/ptmc_device.cu, src/ptmc_gpu.cpp) against the CPU path
   of the same command (the reference, unittest/lammps/test_lammps_ptmc.cpp tests it against
   LAMMPS's pe and analytic distributions). Same data, same seed, gpu no and gpu yes:
   - the Markov chain is the same: per temperature the accepted-trial counts (ptmc_acc_k,
     exact), the swap decisions (ptmc_swap_k, exact; the temperature index of every replica
     in the restart file, exact), the tuned step sizes and tuning windows (exact), the final
     positions of every replica (1e-10, bit for bit expected: -fmad=false), the bookkept
     energies (1e-10 relative), every sampled energy of the .energy file and the mean Rg^2
     (1e-10), the dumped frames (1e-10);
   - cases: 8 replicas of a 30-mer and of a 300-mer (200 sweeps, tuning in equilibration,
     swaps every 5, samples every 3, a dump), several chains, fene/expand (the Gross model)
     with specials 0 1 1, positions in global instead of shared memory
     (MESOGPU_PTMC_SHARED=0), 64 and 512 threads per block (MESOGPU_PTMC_THREADS);
   - both kernels (internal variable ptmc_gpu_npl says which ran: monomers per lane of the
     one-warp-per-replica kernel, 0 for one block per replica): the warp kernel by default
     for the 30-mer (1 monomer per lane), the three 20-mers (2), a 100-mer (4) and, forced
     (MESOGPU_PTMC_KERNEL=warp), a 200-mer (8); 1, 3 (a block with an idle warp) and 16
     warps per block (MESOGPU_PTMC_WARPS); the block kernel by default for the 300-mer and
     forced for the 30-mer and the 20-mers; the 30-mer through both kernels gives the same
     positions bit for bit; bad MESOGPU_PTMC_KERNEL / MESOGPU_PTMC_WARPS values and a forced
     warp kernel for a 300-mer are LAMMPS errors;
   - the chain is not trivial: acceptance in (0.05, 0.95), some swaps accepted, and another
     seed on the GPU gives other positions;
   - restart: N sweeps on the GPU == N/2 + write + read + N/2 on the GPU (restart files equal
     bit for bit), and N/2 on the CPU + read + N/2 on the GPU == N on the CPU (1e-10).
   The Monte Carlo is double precision in every build (MESOGPU_PRECISION does not apply to
   it), so the tolerances are the same in single, mixed and double builds.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. */

#include "gpu_test_main.h"
#include "lmp_session.h"
#include "lammps/ptmc_test.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace ptmc_test;

// Kremer-Grest-like (lj/cut 2.5, two types, fene 30 1.5 1 1) or the Gross model
// (fene/expand, examples/ptmc)
void setup(LmpSession &s, const std::string &data, bool gross)
{
  s.cmds({"units lj", "atom_style bond", "boundary p p p", "read_data " + data,
          "thermo_modify norm no"});
  if (gross) {
    const double sig = 0.7 / pow(2.0, 1.0 / 6.0), rc = 2.5 * sig;
    s.cmds({"pair_style lj/cut " + std::to_string(rc),
            "pair_coeff * * 1.0 " + std::to_string(sig) + " " + std::to_string(rc),
            "pair_modify shift yes", "bond_style fene/expand",
            "bond_coeff 1 40.0 0.3 0.0 " + std::to_string(sig) + " 0.7",
            "special_bonds lj 0.0 1.0 1.0"});
  } else {
    s.cmds({"pair_style lj/cut 2.5", "pair_coeff * * 1.0 1.0 2.5", "pair_modify shift yes",
            "special_bonds lj 0.0 1.0 1.0", "bond_style fene", "bond_coeff 1 30.0 1.5 1.0 1.0"});
    s.cmds({"pair_coeff 2 2 1.2 0.9 2.2", "pair_coeff 1 2 0.8 0.95"});
  }
}

struct Restart {
  std::vector<double> delta, energy, x;
  std::vector<long> window;
  std::vector<int> tindex;
  long sweep = -1;
};

Restart read_restart(const std::string &f)
{
  Restart r;
  std::ifstream in(f);
  std::string line, w;
  int n = 0, M = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    ls >> w;
    if (w == "monomers") {
      ls >> n >> w >> M >> w >> w >> w >> w >> r.sweep;
    } else if (w == "delta") {
      double d;
      while (ls >> d) r.delta.push_back(d);
    } else if (w == "window") {
      long a;
      while (ls >> a) r.window.push_back(a);
    } else if (w == "replica") {
      int k;
      double e;
      ls >> w >> w >> k >> w >> e;
      r.tindex.push_back(k);
      r.energy.push_back(e);
      for (int i = 0; i < n; ++i) {
        double p[3];
        in >> p[0] >> p[1] >> p[2];
        r.x.insert(r.x.end(), p, p + 3);
      }
      std::getline(in, line);
    }
  }
  EXPECT_EQ((int) r.tindex.size(), M) << f;
  return r;
}

// all numbers of the non-comment lines of a text file
std::vector<double> numbers(const std::string &f)
{
  std::vector<double> v;
  std::ifstream in(f);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("ITEM", 0) == 0) continue;
    std::istringstream ls(line);
    double a;
    while (ls >> a) v.push_back(a);
  }
  return v;
}

void expect_close(const std::vector<double> &a, const std::vector<double> &b, double tol,
                  const std::string &what)
{
  ASSERT_EQ(a.size(), b.size()) << what;
  ASSERT_GT(a.size(), 0u) << what;
  double worst = 0.0;
  size_t at = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = fabs(a[i] - b[i]) / std::max(1.0, fabs(b[i]));
    if (!(d <= worst)) {
      worst = d;
      at = i;
    }
  }
  EXPECT_LE(worst, tol) << what << ": entry " << at << " " << a[at] << " vs " << b[at];
  std::printf("  %s: %zu values, largest relative difference %.3g\n", what.c_str(), a.size(),
              worst);
}

struct Outcome {
  std::vector<double> acc, swap, rg2, mean_e;
  Restart rst;
  std::vector<double> energy_file, dump;
  double npl = -1;    // ptmc_gpu_npl of a GPU run
};

const int M = 8;

Outcome run_ptmc(const std::string &data, bool gross, bool gpu, const std::string &tag,
                 const std::string &extra = "", int sweeps = 200, unsigned seed = 2024)
{
  const std::string p = tmpdir() + "/" + tag;
  LmpSession s;
  setup(s, data, gross);
  s.cmd("ptmc " + std::to_string(sweeps) + " temp geom " + (gross ? "0.3 2.0 " : "0.6 2.5 ") +
        std::to_string(M) + " seed " + std::to_string(seed) +
        " swap 5 sample 3 delta 0.1 tune 0.4 10 equil 50 output " + p + " dump 40 " + p +
        ".dump 1 8 write " + p + ".rst " + extra + (gpu ? " gpu yes" : " gpu no"));
  Outcome o;
  for (int k = 1; k <= M; ++k) {
    const std::string ks = std::to_string(k);
    o.acc.push_back(s.variable(("ptmc_acc_" + ks).c_str()));
    o.rg2.push_back(s.variable(("ptmc_rg2_" + ks).c_str()));
    o.mean_e.push_back(s.variable(("ptmc_mean_e_" + ks).c_str()));
    if (k < M) o.swap.push_back(s.variable(("ptmc_swap_" + ks).c_str()));
  }
  if (gpu) o.npl = s.variable("ptmc_gpu_npl");
  o.rst = read_restart(p + ".rst");
  o.energy_file = numbers(p + ".energy");
  o.dump = numbers(p + ".dump.1");
  const std::vector<double> d8 = numbers(p + ".dump.8");
  o.dump.insert(o.dump.end(), d8.begin(), d8.end());
  return o;
}

void compare(const Outcome &cpu, const Outcome &gpu)
{
  for (int k = 0; k < M; ++k) {
    EXPECT_EQ(cpu.acc[k], gpu.acc[k]) << "acceptance at T" << k + 1;
    EXPECT_GT(cpu.acc[k], 0.05);
    EXPECT_LT(cpu.acc[k], 0.95);
  }
  double swaps = 0;
  for (int k = 0; k + 1 < M; ++k) {
    EXPECT_EQ(cpu.swap[k], gpu.swap[k]) << "swap rate of pair " << k + 1;
    swaps += cpu.swap[k];
  }
  EXPECT_GT(swaps, 0.0) << "no swap accepted: the swap comparison would be empty";
  EXPECT_EQ(cpu.rst.sweep, gpu.rst.sweep);
  EXPECT_EQ(cpu.rst.tindex, gpu.rst.tindex) << "temperature of each replica (swap decisions)";
  EXPECT_EQ(cpu.rst.window, gpu.rst.window) << "tuning windows";
  EXPECT_EQ(cpu.rst.delta, gpu.rst.delta) << "tuned step sizes";
  expect_close(gpu.rst.x, cpu.rst.x, 1e-10, "final positions");
  expect_close(gpu.rst.energy, cpu.rst.energy, 1e-10, "bookkept energies");
  expect_close(gpu.energy_file, cpu.energy_file, 1e-10, "sampled energies (.energy)");
  expect_close(gpu.rg2, cpu.rg2, 1e-10, "mean Rg^2 per temperature");
  expect_close(gpu.mean_e, cpu.mean_e, 1e-10, "mean energy per temperature");
  expect_close(gpu.dump, cpu.dump, 1e-10, "dumped frames");
}

class Env {
 public:
  Env(const char *name, const char *value) : name(name) { setenv(name, value, 1); }
  ~Env() { unsetenv(name); }

 private:
  const char *name;
};

}    // namespace

TEST(GpuPtmc, SameChain30mer)
{
  const std::string data = write_data(1, 30, 20.0, 11, 2);
  const Outcome cpu = run_ptmc(data, false, false, "c30");
  const Outcome warp = run_ptmc(data, false, true, "g30");
  EXPECT_EQ(warp.npl, 1) << "the 30-mer runs one warp per replica by default";
  compare(cpu, warp);
  Outcome block;
  {
    Env k("MESOGPU_PTMC_KERNEL", "block");
    block = run_ptmc(data, false, true, "g30_block");
  }
  EXPECT_EQ(block.npl, 0) << "MESOGPU_PTMC_KERNEL=block";
  compare(cpu, block);
  // the two kernels: the same chain, bit for bit
  EXPECT_EQ(warp.acc, block.acc);
  EXPECT_EQ(warp.rst.tindex, block.rst.tindex);
  EXPECT_EQ(warp.rst.x, block.rst.x) << "positions of the warp and block kernels";
}

TEST(GpuPtmc, SameChain300mer)
{
  const std::string data = write_data(1, 300, 40.0, 12, 2);
  const Outcome gpu = run_ptmc(data, false, true, "g300");
  EXPECT_EQ(gpu.npl, 0) << "the 300-mer runs one block per replica";
  compare(run_ptmc(data, false, false, "c300"), gpu);
}

TEST(GpuPtmc, SameChainWarp100merAnd200mer)
{
  {
    const std::string data = write_data(1, 100, 30.0, 16, 2);
    const Outcome gpu = run_ptmc(data, false, true, "g100");
    EXPECT_EQ(gpu.npl, 4) << "the 100-mer runs one warp per replica, 4 monomers per lane";
    compare(run_ptmc(data, false, false, "c100"), gpu);
  }
  const std::string data = write_data(1, 200, 40.0, 17, 2);
  const Outcome cpu = run_ptmc(data, false, false, "c200");
  Env k("MESOGPU_PTMC_KERNEL", "warp");
  Env w("MESOGPU_PTMC_WARPS", "16");
  const Outcome gpu = run_ptmc(data, false, true, "g200");
  EXPECT_EQ(gpu.npl, 8) << "MESOGPU_PTMC_KERNEL=warp: 8 monomers per lane";
  compare(cpu, gpu);
}

TEST(GpuPtmc, SameChainGrossModelSeveralChains)
{
  const std::string data = write_data(3, 20, 12.0, 13, 1, 0.8, 0.15);    // FENE 0.4 .. 1.0
  const Outcome cpu = run_ptmc(data, true, false, "cg");
  {
    const Outcome gpu = run_ptmc(data, true, true, "gg");
    EXPECT_EQ(gpu.npl, 2) << "60 monomers: one warp per replica, 2 monomers per lane";
    compare(cpu, gpu);
  }
  for (const char *wpb : {"1", "3"}) {    // 3: 8 replicas in 3 blocks, one warp idle
    Env w("MESOGPU_PTMC_WARPS", wpb);
    const Outcome gpu = run_ptmc(data, true, true, std::string("gg_w") + wpb);
    EXPECT_EQ(gpu.npl, 2);
    compare(cpu, gpu);
  }
  Env k("MESOGPU_PTMC_KERNEL", "block");
  {
    Env g("MESOGPU_PTMC_SHARED", "0");
    const Outcome gpu = run_ptmc(data, true, true, "gg_global");
    EXPECT_EQ(gpu.npl, 0);
    compare(cpu, gpu);
  }
  {
    Env t("MESOGPU_PTMC_THREADS", "512");
    const Outcome gpu = run_ptmc(data, true, true, "gg_512");
    EXPECT_EQ(gpu.npl, 0);
    compare(cpu, gpu);
  }
}

TEST(GpuPtmc, SameChainGlobalMemoryAndThreads300mer)
{
  const std::string data = write_data(1, 300, 40.0, 14, 2);
  const Outcome cpu = run_ptmc(data, false, false, "c300b");
  Env g("MESOGPU_PTMC_SHARED", "0");
  Env t("MESOGPU_PTMC_THREADS", "64");
  compare(cpu, run_ptmc(data, false, true, "g300b"));
}

TEST(GpuPtmc, KernelSettingsRefused)
{
  const std::string d30 = write_data(1, 30, 20.0, 11, 2), d300 = write_data(1, 300, 40.0, 12, 2);
  auto error = [&](const std::string &data) {
    LmpSession s;
    setup(s, data, false);
    return s.error_of("ptmc 2 temp geom 0.6 2.5 4 seed 3 gpu yes");
  };
  {
    Env k("MESOGPU_PTMC_KERNEL", "fast");
    EXPECT_NE(error(d30).find("MESOGPU_PTMC_KERNEL=fast"), std::string::npos) << error(d30);
  }
  {
    Env w("MESOGPU_PTMC_WARPS", "17");
    EXPECT_NE(error(d30).find("MESOGPU_PTMC_WARPS=17"), std::string::npos) << error(d30);
  }
  {
    Env k("MESOGPU_PTMC_KERNEL", "warp");
    const std::string e = error(d300);
    EXPECT_NE(e.find("more than 256 monomers"), std::string::npos) << e;
  }
  EXPECT_EQ(error(d300), "");    // the same run with the default kernel
}

TEST(GpuPtmc, OtherSeedOtherChain)
{
  const std::string data = write_data(1, 30, 20.0, 11, 2);
  const Outcome a = run_ptmc(data, false, true, "s1", "", 100, 5);
  const Outcome b = run_ptmc(data, false, true, "s2", "", 100, 6);
  ASSERT_EQ(a.rst.x.size(), b.rst.x.size());
  double d = 0;
  for (size_t i = 0; i < a.rst.x.size(); ++i) d = std::max(d, fabs(a.rst.x[i] - b.rst.x[i]));
  EXPECT_GT(d, 0.1);
}

TEST(GpuPtmc, RestartIsExact)
{
  const std::string d = tmpdir(), data = write_data(1, 30, 20.0, 15, 2);
  auto go = [&](int sweeps, const std::string &more, bool gpu) {
    LmpSession s;
    setup(s, data, false);
    s.cmd("ptmc " + std::to_string(sweeps) +
          " temp geom 0.6 2.5 8 seed 31 swap 3 delta 0.1 tune 0.4 5 equil 40 " + more +
          (gpu ? " gpu yes" : " gpu no"));
  };
  go(100, "output " + d + "/rf write " + d + "/rfull.rst", true);
  go(50, "output " + d + "/rh1 write " + d + "/rhalf.rst", true);
  go(50, "output " + d + "/rh2 read " + d + "/rhalf.rst write " + d + "/rcont.rst", true);
  const std::string full = slurp(d + "/rfull.rst");
  ASSERT_GT(full.size(), 1000u);
  EXPECT_EQ(full, slurp(d + "/rcont.rst"));
  // CPU first half, GPU second half against the CPU throughout
  go(100, "write " + d + "/cfull.rst", false);
  go(50, "write " + d + "/chalf.rst", false);
  go(50, "read " + d + "/chalf.rst write " + d + "/mixed.rst", true);
  const Restart c = read_restart(d + "/cfull.rst"), m = read_restart(d + "/mixed.rst");
  EXPECT_EQ(c.tindex, m.tindex);
  EXPECT_EQ(c.delta, m.delta);
  expect_close(m.x, c.x, 1e-10, "CPU + restart + GPU positions");
  expect_close(m.energy, c.energy, 1e-10, "CPU + restart + GPU energies");
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv, "double (ptmc is double precision in every build)");
}
