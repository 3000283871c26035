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
     atom at both sizes (5 %), the sort's scratch shows as peak only;
   - arrays held only when needed: xhold (the positions of the last list build) only with
     neigh_modify check yes, 3 acc per atom, also when a later run of the same session
     switches to check yes; nbond, nangle, ndihedral only for a topology of that kind
     (engine alone: rows of 0 bytes, a sort with no xhold, the displacement test against
     the build's positions; LAMMPS: LJ with check no holds none of them, dimers with
     harmonic bonds hold nbond (4 B/atom; the potential energy as LAMMPS's CPU styles
     give it) and no nangle, ndihedral).
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Numbers are printed with [gpu]. */

#include "gpu_test_main.h"
#include "atom.h"
#include "lammps.h"
#include "neighbor.h"
#include "update.h"

#include "engine.h"
#include "engine_test_util.h"
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
  const gpu_test::RandomAtoms atoms(n, 11);
  {
    Engine e;
    atoms.upload(e);
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

// xhold only with the displacement test (check yes), the per-atom bond, angle and dihedral
// counts only for a topology of that kind
TEST(GpuMemoryReport, EngineHoldsXholdAndTopologyOnlyWhenNeeded)
{
  ASSERT_EQ(Engine::device_memory(), 0u) << "no engine left by the test before";
  const int n = 5000;
  const gpu_test::RandomAtoms atoms(n, 17);
  const std::vector<double> cutsq = {0.0, 0.0, 0.0, 2.8 * 2.8};
  const size_t xhold_bytes = 3 * (size_t) n * sizeof(acc), count_bytes = (size_t) n * sizeof(int);
  {
    Engine e;
    atoms.upload(e);
    for (const char *name : {"xhold", "nbond", "nangle", "ndihedral"})
      EXPECT_EQ(row_bytes(name), 0u) << name << " after upload_atoms";
    // check no: a build (with a sort: every per-atom array permuted, xhold empty) keeps none
    e.set_neighbor(2.8, 0.3, cutsq, 1, 0, false);
    e.set_sort(1);
    e.build_neighbor_list();
    ASSERT_EQ(e.sorts_done(), 1);
    EXPECT_EQ(row_bytes("xhold"), 0u) << "check no";
    EXPECT_TRUE(e.decide_rebuild()) << "check no, every 1: the step rule alone";
    EXPECT_FALSE(e.last_decision_read_device());
    EXPECT_EQ(rows_sum(), Engine::device_memory());
    // check yes (neigh_modify between runs): the next build holds xhold, and the
    // displacement test compares against it (no atom moved: no rebuild)
    e.set_neighbor(2.8, 0.3, cutsq, 1, 0, true);
    EXPECT_TRUE(e.decide_rebuild()) << "set_neighbor asks for a build";
    e.build_neighbor_list();
    EXPECT_EQ(row_bytes("xhold"), xhold_bytes) << "check yes";
    EXPECT_FALSE(e.decide_rebuild()) << "no atom moved since the build";
    EXPECT_TRUE(e.last_decision_read_device());
    // and check no again frees it at the next build
    e.set_neighbor(2.8, 0.3, cutsq, 1, 0, false);
    e.build_neighbor_list();
    EXPECT_EQ(row_bytes("xhold"), 0u) << "check no again";
    // bonds: the counts are held once uploaded (no angles, dihedrals: none of theirs);
    // dimers of device atoms 2k, 2k + 1 (device order after the sort)
    std::vector<int> nb(n, 0), partner(n, 0), btype(n, 0);
    for (int i = 0; i + 1 < n; i += 2) {
      nb[i] = nb[i + 1] = 1;
      partner[i] = i + 1;
      partner[i + 1] = i;
      btype[i] = btype[i + 1] = 1;
    }
    e.upload_bonds(nb.data(), partner.data(), btype.data(), 1);
    EXPECT_EQ(row_bytes("nbond"), count_bytes);
    EXPECT_EQ(row_bytes("nangle"), 0u);
    EXPECT_EQ(row_bytes("ndihedral"), 0u);
    std::vector<int> nb_back(n, -1), partner_back(n, -1), type_back(n, -1);
    e.download_bonds(nb_back.data(), partner_back.data(), type_back.data());
    EXPECT_EQ(nb_back, std::vector<int>(n, 1)) << "every atom in one dimer";
    // a new upload of the atoms (the next run's setup) frees them again
    atoms.upload_atoms(e);
    for (const char *name : {"nbond", "bond_partner", "bond_type"})
      EXPECT_EQ(row_bytes(name), 0u) << name << " after a new upload_atoms";
    e.download_bonds(nb_back.data(), partner_back.data(), type_back.data());
    EXPECT_EQ(nb_back, std::vector<int>(n, 0)) << "no bond lists: no bonds";
    EXPECT_EQ(rows_sum(), Engine::device_memory());
    EXPECT_EQ(mt::mismatches(), 0);
  }
  EXPECT_EQ(Engine::device_memory(), 0u);
}

// ---- LAMMPS resident runs: the printed report ------------------------------------------

struct Report {
  std::map<std::string, double> bytes, per_atom;
  double sum = -1, held = -1, used = -1;
  long long natoms = -1;
  int rows = 0;
  bool warning = false;
};

// a report's bytes of one row (0: no row, the array held nothing since the setup began)
double held_bytes(const Report &r, const std::string &name)
{
  auto it = r.bytes.find(name);
  return it == r.bytes.end() ? 0.0 : it->second;
}

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
std::map<std::string, Report> lj_report(int cells, bool via_env, size_t *used_after,
                                        bool per_atom_energy = false)
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
    if (per_atom_energy)
      l.cmds({"compute pea all pe/atom", "compute spe all reduce sum c_pea",
              "thermo_style custom step pe c_spe"});
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

// compute pe/atom: the per-atom energies and virials of the pair kind (7 values per atom)
TEST(GpuMemoryReport, PerAtomEnergiesOnlyWhenAsked)
{
  size_t used = 0;
  auto reports = lj_report(10, false, &used, true);
  ASSERT_EQ(reports.count("end of the run"), 1u);
  const Report &r = reports["end of the run"];
  check_report(r, "4000 atoms with compute pe/atom", 4000, used);
  EXPECT_EQ(held_bytes(r, "ev (pair)"), 7.0 * 4000 * sizeof(acc));
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
  for (const char *name :
       {"x", "v", "f", "image", "type", "mask", "tag", "pos", "order", "cell_of", "nnbr"}) {
    if (!a.per_atom.count(name) || !b.per_atom.count(name)) {
      ADD_FAILURE() << "no row " << name;
      continue;
    }
    EXPECT_NEAR(a.per_atom.at(name), b.per_atom.at(name), 0.05 * b.per_atom.at(name)) << name;
    printf("[gpu]   %-10s %8.2f B/atom (4000) %8.2f B/atom (32000)\n", name, a.per_atom.at(name),
           b.per_atom.at(name));
  }
  EXPECT_EQ(b.bytes.at("x"), 3.0 * 32000 * sizeof(acc));
  // energies and virials: sums per warp, no per-atom arrays without a per-atom compute
  for (const Report *r : {&a, &b}) {
    EXPECT_EQ(held_bytes(*r, "ev (pair)"), 0.0) << "no compute asked for per-atom energies";
    EXPECT_GT(held_bytes(*r, "ev sums (pair)"), 0.0) << "thermo output reads the pair energy";
  }
  if (b.per_atom.count("ev sums (pair)"))
    EXPECT_LT(b.per_atom.at("ev sums (pair)"), 7.0 * sizeof(acc)) << "less than per-atom values";
  // the neighbour list: as many entries per atom at both sizes (same density and cutoff)
  ASSERT_EQ(a.per_atom.count("nbr"), 1u);
  ASSERT_EQ(b.per_atom.count("nbr"), 1u);
  EXPECT_NEAR(a.per_atom.at("nbr"), b.per_atom.at("nbr"), 0.05 * b.per_atom.at("nbr"));
  printf("[gpu]   nbr %.2f / %.2f B/atom; total held %.1f / %.1f B/atom\n", a.per_atom.at("nbr"),
         b.per_atom.at("nbr"), a.held / 4000, b.held / 32000);
  // the sort at the first build: its scratch is freed (peak only)
  EXPECT_EQ(b.bytes.count("sort_key"), 1u) << "the sort's scratch shows its peak";
  if (b.bytes.count("sort_key")) EXPECT_EQ(b.bytes.at("sort_key"), 0.0);
  // check no, no bonds: no xhold, no bond/angle/dihedral counts (no row, or 0 bytes)
  for (auto *r : {&small["end of setup"], &small["end of the run"], &big["end of setup"],
                  &big["end of the run"]})
    for (const char *name : {"xhold", "nbond", "nangle", "ndihedral"})
      EXPECT_EQ(held_bytes(*r, name), 0.0) << name << " (check no, atom_style atomic)";
}

// a later run of the same session switches to check yes: its setup holds xhold, 3 acc
// per atom, and the displacement test runs on it (neighbour lists built on fewer steps
// than every 1 would)
TEST(GpuMemoryReport, LjCheckYesHoldsXhold)
{
  const std::string base = "/tmp/mesogpu_memreport_" + std::to_string(getpid()) + "_check";
  const std::string log_no = base + "_no.log", log_yes = base + "_yes.log";
  const int natoms = 4000;
  int builds_yes = -1;
  {
    LmpSession l;
    l.cmds({"units lj", "atom_style atomic", "lattice fcc 0.8442",
            "region box block 0 10 0 10 0 10", "create_box 1 box", "create_atoms 1 box",
            "mass 1 1.0", "velocity all create 1.44 87287 loop geom", "pair_style lj/cut/cuda 2.5",
            "pair_coeff 1 1 1.0 1.0", "neighbor 0.3 bin", "neigh_modify every 20 delay 0 check no",
            "fix 1 all nve/cuda", "thermo 100", "run_style verlet/cuda memory yes"});
    l.cmds({"log " + log_no, "run 100"});
    l.cmds({"log " + log_yes, "neigh_modify every 1 delay 0 check yes", "run 100"});
    builds_yes = (int) l.lmp->neighbor->ncalls;    // (set to 0 at the run's setup)
    EXPECT_EQ(std::string(l.lmp->update->integrate_style), "verlet/cuda");
    l.cmd("log none");
  }
  auto no = read_reports(log_no), yes = read_reports(log_yes);
  std::remove(log_no.c_str());
  std::remove(log_yes.c_str());
  ASSERT_EQ(no.count("end of the run"), 1u);
  ASSERT_EQ(yes.count("end of setup"), 1u);
  ASSERT_EQ(yes.count("end of the run"), 1u);
  EXPECT_EQ(held_bytes(no["end of setup"], "xhold"), 0.0) << "check no";
  EXPECT_EQ(held_bytes(no["end of the run"], "xhold"), 0.0) << "check no";
  const double want = 3.0 * natoms * sizeof(acc);
  for (const char *when : {"end of setup", "end of the run"}) {
    SCOPED_TRACE(when);
    EXPECT_EQ(held_bytes(yes[when], "xhold"), want) << "check yes: 3 x sizeof(acc) per atom";
    EXPECT_EQ(yes[when].per_atom["xhold"], 3.0 * sizeof(acc));
    EXPECT_EQ(held_bytes(yes[when], "nbond"), 0.0);
  }
  check_report(yes["end of the run"], "4000 atoms, check yes after check no", natoms,
               (size_t) yes["end of the run"].used);
  printf("[gpu] check yes after check no: xhold %.1f B/atom, %d list builds in 100 steps\n",
         yes["end of the run"].per_atom["xhold"], builds_yes);
  // the displacement test decides (skin/2 = 0.15 takes several steps at T = 1.44): neither
  // every step nor never
  EXPECT_GT(builds_yes, 1);
  EXPECT_LT(builds_yes, 60);
}

// dimers (harmonic bonds between nearest neighbours of the fcc cells) in the LJ liquid:
// the bond counts are held (4 B/atom), no angle or dihedral counts; the potential energy
// as LAMMPS's CPU styles give it (the bonds are a quarter of it: the bond term ran)
void dimers(LmpSession &l, bool dev, int cells)
{
  const std::string c = std::to_string(cells), sfx = dev ? "/cuda" : "";
  l.cmds({"units lj", "atom_style bond", "atom_modify map array sort 0 0", "lattice fcc 0.8442",
          "region box block 0 " + c + " 0 " + c + " 0 " + c,
          "create_box 1 box bond/types 1 extra/bond/per/atom 1 extra/special/per/atom 2",
          "create_atoms 1 box", "mass 1 1.0"});
  const int n = static_cast<int>(l.lmp->atom->natoms);
  for (int k = 0; k + 1 < n; k += 2)
    l.cmd("create_bonds single/bond 1 " + std::to_string(k + 1) + " " + std::to_string(k + 2) +
          " special no");
  l.cmds({"special_bonds lj 0.0 1.0 1.0", "pair_style lj/cut" + sfx + " 2.5",
          "pair_coeff 1 1 1.0 1.0", "bond_style harmonic" + sfx, "bond_coeff 1 100.0 1.0",
          "neighbor 0.3 bin", "neigh_modify every 20 delay 0 check no", "fix 1 all nve" + sfx,
          "thermo_style custom step pe", "thermo 1"});
}

TEST(GpuMemoryReport, BondedSystemHoldsBondCounts)
{
  const std::string log = "/tmp/mesogpu_memreport_" + std::to_string(getpid()) + "_bonds.log";
  const int cells = 8;
  double pe_cpu = 0, pe_dev = 0;
  long long natoms = 0;
  {
    LmpSession cpu;
    dimers(cpu, false, cells);
    cpu.cmd("run 0 post no");
    pe_cpu = cpu.thermo("pe");
  }
  {
    LmpSession dev;
    dimers(dev, true, cells);
    natoms = dev.lmp->atom->natoms;
    ASSERT_GT(dev.lmp->atom->nbonds, 0);
    dev.cmds({"timestep 0.0", "run_style verlet/cuda memory yes", "log " + log, "run 1 post no"});
    EXPECT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
    pe_dev = dev.thermo("pe");
    dev.cmd("log none");
  }
  auto r = read_reports(log);
  std::remove(log.c_str());
  ASSERT_EQ(r.count("end of setup"), 1u);
  const Report &s = r["end of setup"];
  EXPECT_EQ(s.natoms, natoms);
  EXPECT_EQ(held_bytes(s, "nbond"), (double) natoms * sizeof(int)) << "bonds: 4 B/atom of counts";
  EXPECT_GT(held_bytes(s, "bond_partner"), 0.0);
  EXPECT_EQ(held_bytes(s, "nangle"), 0.0) << "no angles";
  EXPECT_EQ(held_bytes(s, "ndihedral"), 0.0) << "no dihedrals";
  EXPECT_EQ(held_bytes(s, "xhold"), 0.0) << "check no";
  // the nearest-neighbour distance 1.19 against r0 = 1: each of the n/2 bonds adds
  // 100 x 0.19^2 = 3.6 (1.8 per atom against LJ's -7)
  printf("[gpu] dimers, %lld atoms: pe %.10g (device) vs %.10g (CPU); nbond %.2f B/atom\n", natoms,
         pe_dev, pe_cpu, s.per_atom.count("nbond") ? s.per_atom.at("nbond") : 0.0);
  EXPECT_NEAR(pe_dev, pe_cpu, 1e-5 * std::fabs(pe_cpu));
}

}    // namespace

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
