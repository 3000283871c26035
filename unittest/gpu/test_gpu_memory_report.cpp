/* GPU tests of the device memory report by array (src/memory_table.h, run_style verlet/cuda
   memory yes, MESOGPU_MEMORY_REPORT=1). References are the allocator's own count of the
   bytes held (kept apart from the table), the sizes of the arrays as declared (x: 3 arrays
   of acc per atom), the scaling with the number of atoms and the device's used memory:
   - the engine alone (this process's table): the rows add up to the bytes held through
     uploads, a neighbour list build and a sort (the sort swaps every per-atom array with
     a scratch array: the rows must stay with their names), and fall back when the engine
     goes;
   - LJ resident runs of 4000 and 32000 atoms with the report on (keyword, then the
     environment variable): in each report the rows add up to the bytes held, the bytes
     held are at most the device's used memory, the per-atom rows have the same bytes per
     atom at both sizes (5 %), the sort's scratch shows as peak only.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers are printed with [gpu]. */

#include "atom.h"
#include "lammps.h"
#include "update.h"

#include "engine.h"
#include "gpu_test_util.h"
#include "lmp_session.h"
#include "memory_table.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mpi.h>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using mesogpu::cuda::acc;
using mesogpu::cuda::Engine;
using mesogpu::cuda::real;
namespace mt = mesogpu::memtable;

namespace {

size_t row_bytes(const std::string &name, size_t *peak = nullptr)
{
  for (const auto &r : mt::rows())
    if (r.name == name) {
      if (peak) *peak = r.peak;
      return r.bytes;
    }
  if (peak) *peak = 0;
  return 0;
}

size_t rows_sum()
{
  size_t s = 0;
  for (const auto &r : mt::rows()) s += r.bytes;
  return s;
}

// ---- the engine alone ------------------------------------------------------------------

TEST(GpuMemoryReport, EngineRowsAddUpThroughASort)
{
  ASSERT_EQ(Engine::device_memory(), 0u) << "no engine yet in this process";
  ASSERT_EQ(rows_sum(), 0u);
  const int n = 6000;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 20.0);
  std::vector<double> x(3 * n), v(3 * n, 0.0), f(3 * n, 0.0), mass = {0.0, 1.0};
  std::vector<int> image(3 * n, 0), type(n, 1), mask(n, 1), tag(n);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) x[3 * i + d] = u(rng);
    tag[i] = i + 1;
  }
  {
    Engine e;
    const double lo[3] = {0, 0, 0}, hi[3] = {20, 20, 20};
    e.set_box(lo, hi);
    e.upload_atoms(n, 1, x.data(), v.data(), f.data(), image.data(), type.data(), mass.data());
    e.upload_mask(mask.data());
    e.upload_tags(tag.data());
    e.set_neighbor(2.8, 0.3, {0.0, 0.0, 0.0, 2.8 * 2.8}, 1, 0, true);
    e.set_sort(1);
    mt::reset_peaks();
    e.build_neighbor_list();    // no pair term: bins and sorts, no list
    ASSERT_EQ(e.sorts_done(), 1);
    const size_t held = Engine::device_memory();
    printf("[gpu] engine alone, %d atoms: %zu bytes held, rows sum %zu\n", n, held, rows_sum());
    EXPECT_EQ(rows_sum(), held);
    EXPECT_EQ(mt::total(), held);
    // each per-atom array as declared, still under its own name after the sort's swaps
    for (const char *name : {"x", "v", "f", "xhold"})
      EXPECT_EQ(row_bytes(name), 3 * (size_t) n * sizeof(acc)) << name;
    EXPECT_EQ(row_bytes("image"), 3 * (size_t) n * sizeof(int));
    for (const char *name : {"type", "mask", "tag", "order", "cell_of"})
      EXPECT_EQ(row_bytes(name), (size_t) n * sizeof(int)) << name;
    EXPECT_EQ(row_bytes("pos"), (size_t) n * 4 * sizeof(real));
    // the sort's scratch: freed, its peak left (keys and values: 5 ints per atom)
    for (const char *name : {"sort_key", "sort_key_out", "sort_src", "sort_inv", "sort_tmp_int"}) {
      size_t peak = 0;
      EXPECT_EQ(row_bytes(name, &peak), 0u) << name;
      EXPECT_EQ(peak, (size_t) n * 4) << name;
    }
    // the permutation's scratch (the label of the sort) holds nothing after it
    EXPECT_EQ(row_bytes("sort scratch (keys, permutation)"), 0u);
    EXPECT_EQ(mt::mismatches(), 0);
  }
  EXPECT_EQ(Engine::device_memory(), 0u);
  EXPECT_EQ(rows_sum(), 0u) << "every row falls back to zero with the engine";
  EXPECT_EQ(mt::mismatches(), 0);
}

// ---- LAMMPS resident runs: the printed report ------------------------------------------

struct Report {
  std::map<std::string, double> bytes, per_atom;
  double sum = -1, held = -1, used = -1;
  long long natoms = -1;
  int rows = 0;
  bool warning = false;
};

std::string trim(const std::string &s)
{
  const auto a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// the reports in a log: header "verlet/cuda device memory by array (<when>; N owned atoms
// ...", lines "  name | bytes | B/atom | share | peak"
std::map<std::string, Report> read_reports(const std::string &path)
{
  std::map<std::string, Report> out;
  std::ifstream in(path);
  std::string s;
  Report *cur = nullptr;
  const std::string head = "verlet/cuda device memory by array (";
  while (std::getline(in, s)) {
    if (s.compare(0, head.size(), head) == 0) {
      const std::string when = s.substr(head.size(), s.find(';') - head.size());
      cur = &out[when];
      cur->natoms = std::atoll(s.c_str() + s.find(';') + 1);
      continue;
    }
    if (!cur) continue;
    if (s.find("WARNING") != std::string::npos) cur->warning = true;
    std::vector<std::string> f;
    std::istringstream ls(s);
    std::string field;
    while (std::getline(ls, field, '|')) f.push_back(trim(field));
    if (f.size() != 5) {
      if (s.compare(0, 3, "  (") == 0) cur = nullptr;    // the closing line
      continue;
    }
    if (f[0] == "array") continue;
    const double b = std::atof(f[1].c_str());
    if (f[0] == "sum of the rows")
      cur->sum = b;
    else if (f[0] == "held by the engine")
      cur->held = b;
    else if (f[0] == "device used (cudaMemGetInfo)")
      cur->used = b;
    else if (f[0] != "used, not held by the engine") {
      cur->bytes[f[0]] = b;
      cur->per_atom[f[0]] = std::atof(f[2].c_str());
      cur->rows++;
    }
  }
  return out;
}

// an LJ liquid (fcc 0.8442, cells^3 x 4 atoms) in a resident run of 200 steps with the
// report in a log file; via_env: MESOGPU_MEMORY_REPORT=1 instead of the keyword
std::map<std::string, Report> lj_report(int cells, bool via_env, size_t *used_after)
{
  const std::string log =
      "/tmp/mesogpu_memreport_" + std::to_string(getpid()) + "_" + std::to_string(cells) + ".log";
  {
    LmpSession l;
    const std::string c = std::to_string(cells);
    if (via_env) setenv("MESOGPU_MEMORY_REPORT", "1", 1);
    l.cmds({"log " + log, "units lj", "atom_style atomic", "lattice fcc 0.8442",
            "region box block 0 " + c + " 0 " + c + " 0 " + c, "create_box 1 box",
            "create_atoms 1 box", "mass 1 1.0", "velocity all create 1.44 87287 loop geom",
            "pair_style lj/cut/cuda 2.5", "pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin",
            "neigh_modify every 20 delay 0 check no", "fix 1 all nve/cuda", "thermo 100",
            std::string("run_style verlet/cuda") + (via_env ? "" : " memory yes")});
    if (via_env) unsetenv("MESOGPU_MEMORY_REPORT");
    l.cmd("run 200");
    EXPECT_EQ(std::string(l.lmp->update->integrate_style), "verlet/cuda");
    size_t fb = 0, tb = 0;
    Engine::device_memory(&fb, &tb);
    *used_after = tb - fb;    // the run's engine still holds its arrays
    l.cmd("log none");
  }
  auto r = read_reports(log);
  std::remove(log.c_str());
  return r;
}

void check_report(const Report &r, const char *what, long long natoms, size_t used_after)
{
  SCOPED_TRACE(what);
  EXPECT_EQ(r.natoms, natoms);
  EXPECT_GT(r.rows, 5);
  EXPECT_FALSE(r.warning);
  double sum = 0;
  for (const auto &b : r.bytes) sum += b.second;
  EXPECT_EQ(sum, r.sum) << "the printed sum is the sum of the rows";
  EXPECT_EQ(r.sum, r.held) << "the rows account for every byte the allocator holds";
  EXPECT_GT(r.held, 0);
  EXPECT_LE(r.held, r.used) << "the engine holds no more than the device uses";
  EXPECT_LE(r.held, (double) used_after);
  printf("[gpu] %s, %lld atoms: %.0f bytes held (%.1f B/atom), %.0f used on the device\n", what,
         natoms, r.held, r.held / natoms, r.used);
}

TEST(GpuMemoryReport, LjRunsScaleWithAtoms)
{
  size_t used_small = 0, used_big = 0;
  auto small = lj_report(10, false, &used_small);    // 4000 atoms, keyword memory yes
  auto big = lj_report(20, true, &used_big);         // 32000 atoms, MESOGPU_MEMORY_REPORT=1
  for (auto *reports : {&small, &big}) {
    ASSERT_EQ(reports->count("end of setup"), 1u);
    ASSERT_EQ(reports->count("end of the run"), 1u);
  }
  check_report(small["end of setup"], "4000 atoms, end of setup", 4000, used_small);
  check_report(small["end of the run"], "4000 atoms, end of the run", 4000, used_small);
  check_report(big["end of setup"], "32000 atoms, end of setup", 32000, used_big);
  check_report(big["end of the run"], "32000 atoms, end of the run", 32000, used_big);
  // per-atom arrays: the same bytes per atom at both sizes
  const Report &a = small["end of the run"], &b = big["end of the run"];
  for (const char *name : {"x", "v", "f", "xhold", "image", "type", "mask", "tag", "pos", "order",
                           "cell_of", "nnbr", "ev (pair)"}) {
    if (!a.per_atom.count(name) || !b.per_atom.count(name)) {
      ADD_FAILURE() << "no row " << name;
      continue;
    }
    EXPECT_NEAR(a.per_atom.at(name), b.per_atom.at(name), 0.05 * b.per_atom.at(name)) << name;
    printf("[gpu]   %-10s %8.2f B/atom (4000) %8.2f B/atom (32000)\n", name, a.per_atom.at(name),
           b.per_atom.at(name));
  }
  EXPECT_EQ(b.bytes.at("x"), 3.0 * 32000 * sizeof(acc));
  // the neighbour list: as many entries per atom at both sizes (same density and cutoff)
  ASSERT_EQ(a.per_atom.count("nbr"), 1u);
  ASSERT_EQ(b.per_atom.count("nbr"), 1u);
  EXPECT_NEAR(a.per_atom.at("nbr"), b.per_atom.at("nbr"), 0.05 * b.per_atom.at("nbr"));
  printf("[gpu]   nbr %.2f / %.2f B/atom; total held %.1f / %.1f B/atom\n", a.per_atom.at("nbr"),
         b.per_atom.at("nbr"), a.held / 4000, b.held / 32000);
  // the sort at the first build: its scratch is freed (peak only)
  EXPECT_EQ(b.bytes.count("sort_key"), 1u) << "the sort's scratch shows its peak";
  if (b.bytes.count("sort_key")) EXPECT_EQ(b.bytes.at("sort_key"), 0.0);
}

}    // namespace

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (mesogpu::cuda::device_count() == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return 77;
  }
  printf("[gpu] device 0: %s\n", mesogpu::cuda::device_description(0).c_str());
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
