/* GPU tests of the reneighbouring step of run_style verlet/cuda on several MPI ranks on
   the device (keyword rebuild device, src/cuda/device_rebuild.cpp, cuda/core/migrate.cu):
   a hot LJ liquid whose atoms cross rank boundaries at many rebuilds (neigh_modify every 1
   delay 0 check yes, skin 0.1), run with 'rebuild device' on all ranks, against the same
   ranks with 'rebuild host' (LAMMPS's exchange and borders on the host) and a one-rank
   CPU run of LAMMPS's own styles: energies at the end, positions and velocities after 200
   steps, by atom ID (so the tags the device moved must be right). Dumps every 50 steps
   make the host take the atoms between rebuilds; a second run (and one with pre no)
   starts from them. The log line at the end of a run says how many rebuilds went each
   way: the device count must be positive (no silent fallback), and a Kremer-Grest melt
   with fix property/atom (per-atom arrays the device does not move) must fall back to
   the host, saying so (molecular systems without it reneighbour on the device:
   test_gpu_multirank_molecular.cpp).
   Run under mpirun -np 1, 2, 4 (ctest gpu:multirank_rebuild_np*). Needs a GPU: exits 77
   otherwise. Strict tolerances need MESOGPU_PRECISION=double. */

#include "atom.h"
#include "domain.h"
#include "lammps.h"
#include "library.h"

#include "gpu_test_util.h"
#include "lmp_session.h"
#include "multirank_test_util.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mpi.h>
#include <string>
#include <vector>

using namespace gpu_test;
using namespace multirank_test;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const double TRAJ_TOL = 1e-8;
const int TRAJ_STEPS = 200;
const char *PREC = "double";
#else
const double TRAJ_TOL = 2e-3;
const int TRAJ_STEPS = 50;
const char *PREC = "mixed or single";
#endif

// a path every rank of comm agrees on (multirank_test::shared_path; the CPU reference on
// rank 0 alone passes MPI_COMM_SELF)
std::string rebuild_path(const std::string &name, const char *ext, MPI_Comm comm = MPI_COMM_WORLD)
{
  return multirank_test::shared_path("rebuild_" + name, ext, comm);
}

// a small Kremer-Grest melt (rows of 10-bead chains along x), for the fallback
std::string write_kg()
{
  static std::string path;
  if (!path.empty()) return path;
  path = rebuild_path("kg", ".data");
  if (world_rank() == 0) {
    const int nx = 10, ny = 10, nz = 10;
    const double bx = 0.97, by = 1.1;
    std::ofstream o(path);
    o << "KG melt (mesogpu rebuild test)\n\n"
      << nx * ny * nz << " atoms\n"
      << (nx - 1) * ny * nz << " bonds\n1 atom types\n1 bond types\n\n0 " << nx * bx
      << " xlo xhi\n0 " << ny * by << " ylo yhi\n0 " << nz * by
      << " zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # bond\n\n";
    for (int r = 0; r < ny * nz; ++r)
      for (int k = 0; k < nx; ++k)
        o << r * nx + k + 1 << " " << r + 1 << " 1 " << (k + 0.5) * bx << " " << (r % ny + 0.5) * by
          << " " << (r / ny + 0.5) * by << "\n";
    o << "\nBonds\n\n";
    int b = 0;
    for (int r = 0; r < ny * nz; ++r)
      for (int k = 0; k + 1 < nx; ++k)
        o << ++b << " 1 " << r * nx + k + 1 << " " << r * nx + k + 2 << "\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

struct Result : RunState {
  long long rebuilds_device = -1, rebuilds_host = -1;    // from the log (rank 0)
  long long sorts = -1;                                  // sorts of the owned rows (log)
  double subhi_z = 0.0;                                  // rank 0's subdomain after the run
  std::string log;
};

// the last run's counts from rank 0's log ("...; S sorts of the owned rows")
void read_counts(Result &r, const std::string &logfile)
{
  r.log = read_text(logfile);
  long long d = -1, h = -1;
  if (rebuild_counts(r.log, d, h)) {
    r.rebuilds_device = d;
    r.rebuilds_host = h;
    const size_t at = r.log.rfind("through the host; ");
    if (at != std::string::npos)
      sscanf(r.log.c_str() + at, "through the host; %lld sorts of the owned rows", &r.sorts);
  }
}

// the hot liquid: run 0, then TRAJ_STEPS in two runs (the second with pre no), dumps
// every 50 steps; mode: "device", "host" or "" (CPU styles); sort: atom_modify sort's
// frequency (-1: LAMMPS's default)
Result run_lj(MPI_Comm comm, const std::string &mode, int sort = -1)
{
  const bool dev = !mode.empty();
  Lmp l(comm);
  const std::string logfile =
      rebuild_path("log_" + mode + "_sort" + std::to_string(sort), ".lammps", comm);
  l.cmds({"log " + logfile, "units lj", "atom_style atomic", "atom_modify map array",
          "read_data " + write_hot_lj_data(), "pair_style " + S(dev, "lj/cut") + " 2.5",
          "pair_coeff 1 1 1.0 1.0 2.5", "neighbor 0.1 bin",
          "neigh_modify every 1 delay 0 check yes", "timestep 0.004",
          "thermo_style custom step temp pe press", "thermo 50", "fix 1 all " + S(dev, "nve"),
          "dump d all custom 50 /dev/null id x y z vx"});
  if (sort >= 0) l.cmd("atom_modify sort " + std::to_string(sort) + " 0.0");
  if (dev) l.cmd("run_style verlet/cuda share yes rebuild " + mode);
  const int half = TRAJ_STEPS / 2;
  l.cmd("run " + std::to_string(half) + " post no");
  l.cmd("run " + std::to_string(TRAJ_STEPS - half) + " pre no post no");
  Result r;
  static_cast<RunState &>(r) = run_state(l);
  l.cmd("log none");
  if (world_rank() == 0) read_counts(r, logfile);
  return r;
}

void expect_close(const char *name, const Result &a, const Result &b)
{
  expect_same_state("hot LJ rebuild device on " + std::to_string(world_size()) + " ranks vs " +
                        name + " after " + std::to_string(TRAJ_STEPS) + " steps (" + PREC + ")",
                    a, b, TRAJ_TOL);
}

}    // namespace

// the device rebuild against the host rebuild on the same ranks and against the CPU
TEST(MultiRankRebuild, HotLJDeviceRebuild)
{
  const Result dev = run_lj(MPI_COMM_WORLD, "device");
  const Result host = run_lj(MPI_COMM_WORLD, "host");
  if (world_rank() == 0) {
    if (world_size() > 1) {
      // two runs: the counts of the second; rebuilds happened and all on the device
      EXPECT_GT(dev.rebuilds_device, 3) << dev.log;
      EXPECT_EQ(dev.rebuilds_host, 0) << dev.log;
      EXPECT_EQ(host.rebuilds_device, 0) << host.log;
      EXPECT_GT(host.rebuilds_host, 3) << host.log;
      EXPECT_EQ(dev.log.find("reneighbouring through the host"), std::string::npos) << dev.log;
    }
    expect_close("rebuild host (same ranks)", dev, host);
    const Result cpu = run_lj(MPI_COMM_SELF, "");
    expect_close("1-rank CPU", dev, cpu);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// atom_modify sort 10: the device rebuilds sort the owned rows every 10 steps (the
// rows, the ghosts made from them and every per-atom array change order); the run still
// follows the CPU and the same ranks without sorting, by atom ID. The counts of the log
// say the sorts happened (and none with sort 0)
TEST(MultiRankRebuild, HotLJSortsOwnedRows)
{
  const Result sorted = run_lj(MPI_COMM_WORLD, "device", 10);
  const Result unsorted = run_lj(MPI_COMM_WORLD, "device", 0);
  if (world_rank() == 0) {
    if (world_size() > 1) {
      EXPECT_EQ(sorted.rebuilds_host, 0) << sorted.log;
      // both runs (the second with pre no counts on): the first device rebuild, then the
      // first one at least 10 steps after the last sort (rebuilds come every few steps)
      EXPECT_GE(sorted.sorts, TRAJ_STEPS / 10 - 1) << sorted.log;
      EXPECT_LE(sorted.sorts, TRAJ_STEPS / 10 + 1) << sorted.log;
      EXPECT_EQ(unsorted.sorts, 0) << unsorted.log;
    }
    expect_close("the same ranks without sorting", sorted, unsorted);
    const Result cpu = run_lj(MPI_COMM_SELF, "", 10);
    expect_close("1-rank CPU", sorted, cpu);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// a liquid slab in a tall box, split along z (processors 1 1 *): on 2 ranks one rank
// owns every atom at the start (the other only ghosts), on 4 ranks one owns them all and
// one holds no atom and no ghost (a rank's engine with no rows launches its kernels
// anyway); atoms that evaporate later arrive there. The slab (lattice planes 14 to 19 of
// 27) lies inside one subdomain on 1, 2 and 4 ranks, so create_atoms numbers the atoms as
// on one rank (the IDs of a lattice plane on a subdomain boundary follow the
// decomposition, and with them the velocities by ID and the comparison by ID). Few atoms
// with long lists per rank: several lanes per atom. Device rebuilds against the one-rank
// CPU run.
enum class Balance { none, between_runs, during_run };
Result run_slab(MPI_Comm comm, bool dev, Balance balance = Balance::none)
{
  Lmp l(comm);
  const std::string logfile = rebuild_path(std::string(dev ? "log_slab" : "log_slab_cpu") +
                                               std::to_string(static_cast<int>(balance)),
                                           ".lammps", comm);
  l.cmds({"log " + logfile,
          "units lj",
          "atom_style atomic",
          "atom_modify map array",
          "processors 1 1 *",
          "lattice fcc 0.7",
          "region box block 0 7 0 7 0 27",
          "create_box 1 box",
          "region slab block INF INF INF INF 14 19",
          "create_atoms 1 region slab",
          "mass 1 1.0",
          "velocity all create 1.2 4928459 mom yes rot no dist gaussian",
          "pair_style " + S(dev, "lj/cut") + " 5.0",
          "pair_coeff 1 1 1.0 1.0",
          "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.005",
          "thermo_style custom step temp pe press",
          "thermo 50",
          "fix 1 all " + S(dev, "nve")});
  if (dev) l.cmd("run_style verlet/cuda share yes rebuild device");
  // fix balance every 20 steps: the cuts along z follow the slab during the run (its
  // setup balances too); one rank: nothing to balance
  if (balance == Balance::during_run) l.cmd("fix bal all balance 20 1.0 shift z 10 1.0");
  if (balance == Balance::between_runs) {
    // half the steps, then LAMMPS's balance command moves the cuts along z to the slab
    // (the ranks' subdomains and ghosts change between runs), then the rest
    const int half = TRAJ_STEPS / 2;
    l.cmds({"run " + std::to_string(half) + " post no", "balance 1.0 shift z 10 1.0",
            "run " + std::to_string(TRAJ_STEPS - half) + " post no"});
  } else {
    l.cmd("run " + std::to_string(TRAJ_STEPS) + " post no");
  }
  Result r;
  static_cast<RunState &>(r) = run_state(l);
  r.subhi_z = l.lmp->domain->subhi[2];
  l.cmd("log none");
  if (world_rank() == 0) read_counts(r, logfile);
  return r;
}

TEST(MultiRankRebuild, SlabWithEmptyRanks)
{
  const Result dev = run_slab(MPI_COMM_WORLD, true);
  if (world_rank() == 0) {
    if (world_size() > 1) {
      EXPECT_GT(dev.rebuilds_device, 3) << dev.log;
      EXPECT_EQ(dev.rebuilds_host, 0) << dev.log;
    }
    const Result cpu = run_slab(MPI_COMM_SELF, false);
    expect_same_state("LJ slab (r_c 5) rebuild device on " + std::to_string(world_size()) +
                          " ranks vs 1-rank CPU after " + std::to_string(TRAJ_STEPS) + " steps (" +
                          PREC + ")",
                      dev, cpu, TRAJ_TOL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// the balance command between two runs: the second run starts from the new subdomains
// (uploads, plan, IPC areas) and still follows the CPU, which balanced the same way
TEST(MultiRankRebuild, SlabBalancedBetweenRuns)
{
  const Result dev = run_slab(MPI_COMM_WORLD, true, Balance::between_runs);
  if (world_rank() == 0) {
    if (world_size() > 1) {
      EXPECT_GT(dev.rebuilds_device, 1) << dev.log;
      EXPECT_EQ(dev.rebuilds_host, 0) << dev.log;
      EXPECT_NE(dev.log.find("Balancing"), std::string::npos) << dev.log;
    }
    const Result cpu = run_slab(MPI_COMM_SELF, false, Balance::between_runs);
    expect_same_state("LJ slab with balance between runs, " + std::to_string(world_size()) +
                          " ranks vs 1-rank CPU (" + PREC + ")",
                      dev, cpu, TRAJ_TOL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// fix balance during the run: its steps reneighbour through the host, where it moves the
// cuts to the slab; the device rebuilds in between use the new subdomains. Rank 0's
// subdomain ends far from the even split (27 lattice units over the ranks), and the run
// follows the one-rank CPU run with the same fix (which moves nothing)
TEST(MultiRankRebuild, SlabFixBalanceDuringRun)
{
  const Result dev = run_slab(MPI_COMM_WORLD, true, Balance::during_run);
  if (world_rank() == 0) {
    if (world_size() > 1) {
      EXPECT_GT(dev.rebuilds_device, 1) << dev.log;
      EXPECT_GE(dev.rebuilds_host, TRAJ_STEPS / 20) << dev.log;    // one per balance step
      EXPECT_NE(dev.log.find("fix balance steps reneighbour through the host"), std::string::npos)
          << dev.log;
      const double even = 27.0 * std::cbrt(4.0 / 0.7) / world_size();    // lattice units
      EXPECT_GT(std::fabs(dev.subhi_z - even), 0.05 * even)
          << "rank 0's subdomain ends at z = " << dev.subhi_z << ", the even split at " << even;
    }
    const Result cpu = run_slab(MPI_COMM_SELF, false, Balance::during_run);
    expect_same_state("LJ slab with fix balance during the run, " + std::to_string(world_size()) +
                          " ranks vs 1-rank CPU (" + PREC + ")",
                      dev, cpu, TRAJ_TOL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// a fix with per-atom arrays on the host (fix property/atom): the device does not move
// them, so the host path, logged (a melt without it reneighbours on the device)
TEST(MultiRankRebuild, PerAtomFixFallsBackToHost)
{
  if (world_size() < 2) GTEST_SKIP() << "needs several ranks";
  Lmp l(MPI_COMM_WORLD);
  const std::string logfile = rebuild_path("log_kg", ".lammps");
  l.cmds({"log " + logfile,
          "units lj",
          "atom_style bond",
          "atom_modify map array",
          "comm_modify cutoff 3.0",
          "read_data " + write_kg(),
          "fix tagged all property/atom i_flag",
          "velocity all create 2.0 4928459 mom yes rot no dist gaussian",
          "pair_style lj/cut/cuda 1.122462048309373",
          "pair_coeff 1 1 1.0 1.0 1.122462048309373",
          "pair_modify shift yes",
          "bond_style fene/cuda",
          "bond_coeff 1 30.0 1.5 1.0 1.0",
          "special_bonds fene",
          "neighbor 0.1 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 0.004",
          "fix 1 all nve/cuda",
          "run_style verlet/cuda share yes rebuild device",
          "run 100 post no",
          "log none"});
  if (world_rank() == 0) {
    Result r;
    read_counts(r, logfile);
    EXPECT_EQ(r.rebuilds_device, 0) << r.log;
    EXPECT_GT(r.rebuilds_host, 0) << r.log;
    EXPECT_NE(r.log.find("reneighbouring through the host (fix tagged (style property/atom) "
                         "keeps its own per-atom arrays on the host)"),
              std::string::npos)
        << r.log;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  return multirank_test::run_all_ranks(argc, argv, PREC);
}
