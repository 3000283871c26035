/* GPU tests of the two seed examples of issue 16, each run as written in examples/ once on
   the CPU (LAMMPS's own styles, run_style verlet) and once resident on the GPU (-sf cuda:
   lj/cut/cuda, nve/cuda, temp/berendsen/cuda, nvt/cuda, momentum/cuda, harmonic/cuda,
   charmm/cuda, run_style verlet/cuda), both from the same start (same input, same seeds),
   then compared through loose physical observables within their block-average errors:
   - examples/coexistence/in.coexistence, the short version of its CPU example test
     (8 x 8 x 24 sigma^3, 384 atoms, r_c = 5 in a box below 2 (r_c + skin): the device list
     takes explicit images; T* = 0.8, 5000 + 10 x 1000 steps): the liquid and vapour
     densities of the input's own per-block estimates (rho.T0.8.dat) and the mean
     temperature; on the GPU also the physics alone (rho_l > 0.6, rho_v < 0.05, <T> within
     3 % of the Berendsen target);
   - examples/polyethylene/in.pe_melt on data.pe_4x300 (4 chains x 300 united atoms,
     2000 + 10 x 1000 steps at 1000 K): temperature, potential energy and <R_g^2> per
     block (thermo.dat, chains.dat) and the density (NVT: that of the data file exactly).
   The trajectories part after a few hundred steps (float pair arithmetic in mixed and
   single precision, summation order in double), so only statistics can agree: |CPU - GPU|
   <= 4 sqrt(err_CPU^2 + err_GPU^2) with the standard errors of 10 block means. Where
   python3 is on PATH, the examples' analyse.py must also accept the GPU run's files.
   Each run writes into its own folder under /tmp (printed on failure).
   Needs a GPU: exits 77 (ctest "skipped") otherwise. MESOGPU_TEST_CPU_ONLY=1 in the
   environment runs the "GPU" half on the CPU too (a check of the test's own file handling
   and statistics on a machine without a GPU; it proves nothing about the device). */

#include "input.h"
#include "lammps.h"

#include "gpu_test_util.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mpi.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using gpu_test::source_dir;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const char *PREC = "single";
#else
const char *PREC = "mixed";
#endif

const double NSIGMA = 4.0;    // agreement within 4 combined standard errors

// MESOGPU_TEST_CPU_ONLY=1: both halves on the CPU (checks the test itself, no GPU needed)
bool cpu_only()
{
  const char *e = std::getenv("MESOGPU_TEST_CPU_ONLY");
  return e && e[0] == '1';
}

// a fresh folder under /tmp for one run
std::string make_run_dir(const std::string &tag)
{
  std::string tmpl = "/tmp/mesogpu_" + tag + "_XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) return "";
  return buf.data();
}

// runs INPUT in DIR (the process's working folder during the run: the inputs write their
// files there) with "-var NAME VALUE" pairs, on the device with -sf cuda; returns the
// LAMMPS error text, "" on success. The log is DIR/log.lammps.
std::string run_input(const std::string &dir, const std::string &input,
                      const std::vector<std::string> &vars, bool device)
{
  char cwd[4096];
  if (!getcwd(cwd, sizeof(cwd))) return "getcwd failed";
  if (chdir(dir.c_str()) != 0) return "cannot enter " + dir;
  LAMMPS_NS::LAMMPS::argv args = {"test", "-log",    "log.lammps", "-echo",
                                  "none", "-screen", "none",       "-nocite"};
  if (device) {
    args.push_back("-sf");
    args.push_back("cuda");
  }
  for (size_t i = 0; i + 1 < vars.size(); i += 2) {
    args.push_back("-var");
    args.push_back(vars[i]);
    args.push_back(vars[i + 1]);
  }
  std::string err;
  LAMMPS_NS::LAMMPS *lmp = nullptr;
  try {
    lmp = new LAMMPS_NS::LAMMPS(args, MPI_COMM_WORLD);
    lmp->input->file(input.c_str());
  } catch (std::exception &e) {
    err = e.what();
    if (err.empty()) err = "LAMMPS error (see " + dir + "/log.lammps)";
  }
  delete lmp;
  if (chdir(cwd) != 0 && err.empty()) err = "cannot return to " + std::string(cwd);
  return err;
}

// data rows (lines not starting with '#') of a LAMMPS fix ave/* file
std::vector<std::vector<double>> data_rows(const std::string &path)
{
  std::vector<std::vector<double>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::vector<double> r;
    double v;
    while (ls >> v) r.push_back(v);
    if (!r.empty()) rows.push_back(r);
  }
  return rows;
}

struct Stat {
  double mean = NAN, err = NAN;
  int n = 0;
};

// mean and standard error of the mean of block values
Stat block_stat(const std::vector<double> &x)
{
  Stat s;
  s.n = (int) x.size();
  if (s.n < 2) return s;
  double m = 0;
  for (double v : x) m += v;
  m /= s.n;
  double var = 0;
  for (double v : x) var += (v - m) * (v - m);
  var /= (s.n - 1);
  s.mean = m;
  s.err = std::sqrt(var / s.n);
  return s;
}

// column K of ROWS as block values (at least MIN rows)
std::vector<double> column(const std::vector<std::vector<double>> &rows, size_t k)
{
  std::vector<double> c;
  for (auto &r : rows)
    if (r.size() > k) c.push_back(r[k]);
  return c;
}

// CPU and GPU block averages agree within NSIGMA combined standard errors
void expect_agree(const char *what, const Stat &cpu, const Stat &gpu)
{
  printf("[gpu] %-28s CPU %12.6g +- %-10.3g GPU %12.6g +- %-10.3g (%d / %d blocks)\n", what,
         cpu.mean, cpu.err, gpu.mean, gpu.err, cpu.n, gpu.n);
  ASSERT_TRUE(std::isfinite(cpu.mean) && std::isfinite(cpu.err)) << what << ": CPU statistics";
  ASSERT_TRUE(std::isfinite(gpu.mean) && std::isfinite(gpu.err)) << what << ": GPU statistics";
  const double tol = NSIGMA * std::sqrt(cpu.err * cpu.err + gpu.err * gpu.err);
  EXPECT_LE(std::fabs(cpu.mean - gpu.mean), tol)
      << what << ": CPU " << cpu.mean << " +- " << cpu.err << ", GPU " << gpu.mean << " +- "
      << gpu.err << " differ by more than " << NSIGMA << " combined standard errors";
}

bool have_python()
{
  return std::system("python3 -c 'import sys' >/dev/null 2>&1") == 0;
}

// python3 SCRIPT DIR: exit status and output
int run_python(const std::string &script, const std::string &dir, std::string &out)
{
  const std::string cmd = "python3 " + script + " " + dir + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  out.clear();
  while (fgets(buf, sizeof(buf), p)) out += buf;
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// the number after " KEY " in TEXT (NaN if absent)
double result_value(const std::string &text, const std::string &key)
{
  const size_t p = text.find(" " + key + " ");
  if (p == std::string::npos) return NAN;
  return std::strtod(text.c_str() + p + key.size() + 2, nullptr);
}

// ---- LJ liquid-vapour coexistence ----------------------------------------------------
TEST(GpuExamples, CoexistenceDensitiesMatchCpu)
{
  const std::string ex = source_dir() + "/examples/coexistence";
  const std::vector<std::string> vars = {"T",     "0.8",   "Lx",    "8",   "Ly",    "8",
                                         "Lz",    "24",    "nbins", "48",  "equil", "5000",
                                         "steps", "10000", "block", "1000"};
  Stat rl[2], rv[2], tt[2];
  std::string dirs[2];
  for (int dev = 0; dev < 2; ++dev) {
    dirs[dev] = make_run_dir(dev ? "coex_gpu" : "coex_cpu");
    ASSERT_FALSE(dirs[dev].empty()) << "mkdtemp failed";
    const std::string err = run_input(dirs[dev], ex + "/in.coexistence", vars, dev && !cpu_only());
    ASSERT_EQ(err, "") << (dev ? "GPU" : "CPU") << " run in " << dirs[dev];
    const auto rho = data_rows(dirs[dev] + "/rho.T0.8.dat");
    ASSERT_EQ(rho.size(), 10u) << dirs[dev] << "/rho.T0.8.dat: blocks";
    rl[dev] = block_stat(column(rho, 1));
    rv[dev] = block_stat(column(rho, 2));
    // the profile file holds one averaged profile of 48 slabs per block
    const auto prof = data_rows(dirs[dev] + "/profile.T0.8.dat");
    ASSERT_EQ(prof.size(), 10u * 49u) << dirs[dev] << "/profile.T0.8.dat: 10 blocks of 48 slabs";
    // mean temperature per block: the log's thermo column f_tave (last column) is the
    // same number; here the block means of T come from the thermo lines of the log
    std::ifstream log(dirs[dev] + "/log.lammps");
    std::string line;
    std::vector<double> temps;
    bool prod = false;
    while (std::getline(log, line)) {
      if (line.find("f_tave") != std::string::npos) prod = true;
      std::istringstream ls(line);
      std::vector<double> r;
      double v;
      while (ls >> v) r.push_back(v);
      // production thermo lines: step temp pe press zc rho_l rho_v f_tave (8 numbers)
      if (prod && r.size() == 8 && r[0] > 0) temps.push_back(r[7]);
    }
    ASSERT_EQ(temps.size(), 10u) << dirs[dev] << "/log.lammps: production thermo lines";
    tt[dev] = block_stat(temps);
  }
  printf("[gpu] coexistence, 8 x 8 x 24, T* = 0.8 (%s precision): CPU %s, GPU %s\n", PREC,
         dirs[0].c_str(), dirs[1].c_str());
  expect_agree("rho_l (|z - zc| < Lz/16)", rl[0], rl[1]);
  expect_agree("rho_v (|z - zc| > Lz/3)", rv[0], rv[1]);
  expect_agree("<T>", tt[0], tt[1]);
  // the physics on the GPU alone (as the CPU example test checks it)
  EXPECT_GT(rl[1].mean, 0.6);
  EXPECT_LT(rv[1].mean, 0.05);
  EXPECT_NEAR(tt[1].mean, 0.8, 0.024);

  if (have_python()) {
    std::string out;
    const int rc = run_python(ex + "/analyse.py", dirs[1], out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("RESULT T 0.8 nblocks 10 "), std::string::npos) << out;
    const size_t p = out.find("RESULT T 0.8");
    if (p != std::string::npos) printf("[gpu] analyse.py (GPU run): %s", out.substr(p).c_str());
  } else {
    printf("[gpu] no python3: analyse.py not run on the GPU output\n");
  }
}

// ---- united-atom polyethylene melt ---------------------------------------------------
TEST(GpuExamples, PolyethyleneMatchesCpu)
{
  const std::string ex = source_dir() + "/examples/polyethylene";
  const std::vector<std::string> vars = {
      "datafile", ex + "/data.pe_4x300", "equil", "2000", "steps", "10000"};
  const int block = 1000, nchain = 100;    // the input's defaults
  Stat temp[2], pe[2], dens[2], rg2[2];
  std::string dirs[2];
  for (int dev = 0; dev < 2; ++dev) {
    dirs[dev] = make_run_dir(dev ? "pe_gpu" : "pe_cpu");
    ASSERT_FALSE(dirs[dev].empty()) << "mkdtemp failed";
    const std::string err = run_input(dirs[dev], ex + "/in.pe_melt", vars, dev && !cpu_only());
    ASSERT_EQ(err, "") << (dev ? "GPU" : "CPU") << " run in " << dirs[dev];
    // thermo.dat: step T pe press density, one line per block
    const auto th = data_rows(dirs[dev] + "/thermo.dat");
    ASSERT_EQ(th.size(), 10u) << dirs[dev] << "/thermo.dat: blocks";
    temp[dev] = block_stat(column(th, 1));
    pe[dev] = block_stat(column(th, 2));
    dens[dev] = block_stat(column(th, 4));
    // chains.dat: per sample "step nrows", then nrows lines "chain gxx gyy gzz rx ry rz";
    // R_g^2 = gxx + gyy + gzz averaged over the chains; the sample at step 0 is dropped
    // and the others grouped into blocks of block/nchain samples
    const auto rows = data_rows(dirs[dev] + "/chains.dat");
    std::vector<double> samples;
    for (size_t i = 0; i < rows.size();) {
      ASSERT_EQ(rows[i].size(), 2u) << dirs[dev] << "/chains.dat: sample header";
      const int n = (int) rows[i][1];
      ASSERT_EQ(n, 4) << "4 chains";
      ASSERT_LE(i + 1 + n, rows.size()) << dirs[dev] << "/chains.dat cut short";
      double s = 0;
      for (int c = 0; c < n; ++c) {
        const auto &r = rows[i + 1 + c];
        ASSERT_EQ(r.size(), 7u);
        s += r[1] + r[2] + r[3];
      }
      if (rows[i][0] > 0) samples.push_back(s / n);
      i += 1 + n;
    }
    const int per = block / nchain;
    ASSERT_EQ(samples.size(), 10u * per) << dirs[dev] << "/chains.dat: samples";
    std::vector<double> blocks;
    for (int b = 0; b < 10; ++b) {
      double s = 0;
      for (int k = 0; k < per; ++k) s += samples[b * per + k];
      blocks.push_back(s / per);
    }
    rg2[dev] = block_stat(blocks);
  }
  printf("[gpu] polyethylene, 4 x 300 united atoms, 1000 K (%s precision): CPU %s, GPU %s\n", PREC,
         dirs[0].c_str(), dirs[1].c_str());
  expect_agree("T (K)", temp[0], temp[1]);
  expect_agree("potential energy (kcal/mol)", pe[0], pe[1]);
  expect_agree("<R_g^2> (A^2)", rg2[0], rg2[1]);
  // NVT: the density is the data file's (0.27993 g/cm^3), the same on both
  printf("[gpu] density (g/cm^3): CPU %.6f, GPU %.6f\n", dens[0].mean, dens[1].mean);
  EXPECT_NEAR(dens[1].mean, dens[0].mean, 1e-9 * dens[0].mean);
  EXPECT_NEAR(dens[1].mean, 0.27993, 1e-5);
  EXPECT_NEAR(temp[1].mean, 1000.0, 30.0);

  if (have_python()) {
    std::string out;
    const int rc = run_python(ex + "/analyse.py", dirs[1], out);
    EXPECT_EQ(rc, 0) << out;
    const size_t p = out.find("RESULT pe");
    EXPECT_NE(p, std::string::npos) << out;
    if (p != std::string::npos) {
      const std::string res = out.substr(p, out.find('\n', p) - p);
      printf("[gpu] analyse.py (GPU run): %s\n", res.c_str());
      // the bonded terms on the device, from the force field alone (as the CPU example
      // test checks them): equipartition spreads within 10 %, angle and bond means, trans
      EXPECT_NEAR(result_value(res, "bond_mean"), 1.53, 0.02) << res;
      EXPECT_NEAR(result_value(res, "bond_std") / result_value(res, "ref_bond_std"), 1.0, 0.1)
          << res;
      EXPECT_NEAR(result_value(res, "angle_mean"), 109.471, 3.0) << res;
      EXPECT_NEAR(result_value(res, "angle_std") / result_value(res, "ref_angle_std"), 1.0, 0.1)
          << res;
      const double trans = result_value(res, "trans"), ref = result_value(res, "ref_trans");
      EXPECT_GT(trans, 0.5) << res;
      EXPECT_GT(trans, ref - 0.12) << res;
      EXPECT_LT(trans, ref + 0.10) << res;
    }
  } else {
    printf("[gpu] no python3: analyse.py not run on the GPU output\n");
  }
}

}    // namespace

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (cpu_only()) {
    printf("MESOGPU_TEST_CPU_ONLY=1: both halves on the CPU (a check of the test itself)\n");
  } else if (mesogpu::cuda::device_count() == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return 77;
  } else
    printf("[gpu] device 0: %s, precision %s\n", mesogpu::cuda::device_description(0).c_str(),
           PREC);
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
