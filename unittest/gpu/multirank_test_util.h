/* Helpers of the GPU tests that run under mpirun (test_gpu_multirank*.cpp): the world
   rank and size, a LAMMPS instance on a communicator with atoms gathered in ID order, a
   file path every rank of a communicator agrees on, the minimum-image position
   difference and the relative difference of two runs, the hot LJ liquid and a run of it
   (state, list builds, log), the state a run ends in and the comparison of two such
   states, and the MPI main that runs the tests on every rank and reports once. */
#ifndef MESOGPU_UNITTEST_MULTIRANK_TEST_UTIL_H
#define MESOGPU_UNITTEST_MULTIRANK_TEST_UTIL_H

#include "atom.h"
#include "domain.h"
#include "lammps.h"
#include "library.h"
#include "neighbor.h"

#include "gpu_test_util.h"

#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <cstring>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>    // MPIX_Query_cuda_support (Open MPI's cuda extension)
#endif
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace multirank_test {

inline int world_rank()
{
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  return me;
}
inline int world_size()
{
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// one LAMMPS instance on a communicator, quiet, with the atoms gathered in ID order
struct Lmp : LmpSession {
  explicit Lmp(MPI_Comm comm) : LmpSession(false, comm) {}
  // per-atom x, v or f (count values per atom: 1 for q, radius, rmass) of every atom in
  // atom-ID order, on every rank
  std::vector<double> gather(const char *name, int count = 3)
  {
    std::vector<double> out(count * (size_t) lmp->atom->natoms);
    lammps_gather_atoms(lmp, const_cast<char *>(name), 1, count, out.data());
    return out;
  }
};

// $TMPDIR/mesogpu_<stem>_<pid of comm's rank 0><ext>: a path every rank of comm agrees on
// (parallel test runs differ). A collective on comm: a reference run on rank 0 alone
// (MPI_COMM_SELF) must pass MPI_COMM_SELF, or its broadcast on the world would pair with a
// later one of the other ranks and hang the next test
inline std::string shared_path(const std::string &stem, const char *ext,
                               MPI_Comm comm = MPI_COMM_WORLD)
{
  const char *t = std::getenv("TMPDIR");
  int me = 0;
  MPI_Comm_rank(comm, &me);
  int stamp = me == 0 ? static_cast<int>(getpid()) : 0;
  MPI_Bcast(&stamp, 1, MPI_INT, 0, comm);
  return std::string(t ? t : "/tmp") + "/mesogpu_" + stem + "_" + std::to_string(stamp) + ext;
}

// a data file written by LAMMPS commands on rank 0 alone (create_atoms numbers atoms by
// rank, so a system made on each rank count would be another system: other IDs, other
// velocities); every rank returns its path, $TMPDIR/mesogpu_<stem>_<pid>.data;
// write_data_options follow the path ("nocoeff": styles whose coefficients the data
// file cannot hold)
inline std::string write_data_on_rank0(const std::string &stem, std::vector<std::string> commands,
                                       const std::string &write_data_options = "")
{
  const std::string path = shared_path(stem, ".data");
  if (world_rank() == 0) {
    Lmp l(MPI_COMM_SELF);
    commands.push_back("write_data " + path + " " + write_data_options);
    l.cmds(commands);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// max over atoms of the minimum-image difference of two position lists (x, y, z per
// atom) in the box of edges box[3], over the largest edge (positions may be wrapped at
// different steps on different rank counts); NaN, infinity or a length mismatch: HUGE_VAL
inline double position_diff(const std::vector<double> &a, const std::vector<double> &b,
                            const double box[3])
{
  if (a.size() != b.size() || a.empty()) return HUGE_VAL;
  double d = 0, lmax = std::max(box[0], std::max(box[1], box[2]));
  for (size_t k = 0; k < a.size(); ++k) {
    if (!std::isfinite(a[k]) || !std::isfinite(b[k])) return HUGE_VAL;
    const double len = box[k % 3];
    double dx = a[k] - b[k];
    dx -= len * std::round(dx / len);
    d = std::max(d, std::fabs(dx));
  }
  return d / lmax;
}

// |a - b| / |b|; NaN or infinity: HUGE_VAL
inline double rel(double a, double b)
{
  if (!std::isfinite(a) || !std::isfinite(b)) return HUGE_VAL;
  return std::fabs(a - b) / std::max(std::fabs(b), 1e-300);
}

// a hot LJ liquid (fcc, 8^3 cells moved off their sites, T = 3: atoms cross rank
// boundaries and a short skin makes the list rebuild often), made once on rank 0
inline std::string write_hot_lj_data()
{
  static const std::string path = write_data_on_rank0(
      "hot_lj", {"units lj", "atom_style atomic", "lattice fcc 0.8442",
                 "region box block 0 8 0 8 0 8", "create_box 1 box", "create_atoms 1 box",
                 "mass 1 1.0", "displace_atoms all random 0.05 0.05 0.05 5813 units box",
                 "velocity all create 3.0 87287 mom yes rot no dist gaussian"});
  return path;
}

// the state a run ends in: potential and kinetic energy, positions and velocities in
// atom-ID order, box edges (on every rank of the run)
struct RunState {
  double pe = 0, ke = 0;
  std::vector<double> x, v;
  double box[3] = {0, 0, 0};
};
inline RunState run_state(Lmp &l)
{
  RunState r;
  r.pe = l.thermo("pe");
  r.ke = l.thermo("ke");
  r.x = l.gather("x");
  r.v = l.gather("v");
  for (int d = 0; d < 3; ++d) r.box[d] = l.lmp->domain->prd[d];
  return r;
}

// two runs end in the same state within tol: energies relative, positions as a fraction of
// the box (minimum image), velocities relative to the largest; rank 0 prints
// "[gpu] <what>: ..."
inline void expect_same_state(const std::string &what, const RunState &a, const RunState &b,
                              double tol, double vtol = -1)
{
  if (vtol < 0) vtol = tol;    // velocities: the same limit unless given their own
  const double dpe = rel(a.pe, b.pe), dke = rel(a.ke, b.ke);
  const double dx = position_diff(a.x, b.x, a.box), dv = gpu_test::max_rel_diff(a.v, b.v);
  if (world_rank() == 0)
    printf("[gpu] %s: pe %.2e ke %.2e x %.2e v %.2e\n", what.c_str(), dpe, dke, dx, dv);
  EXPECT_LE(dpe, tol) << what;
  EXPECT_LE(dke, tol) << what;
  EXPECT_LE(dx, tol) << what;
  EXPECT_LE(dv, vtol) << what;
}

// the whole text of a file ("" when it cannot be read)
inline std::string read_text(const std::string &path)
{
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// the counts of the last "verlet/cuda rebuilds on N ranks: D on the device, H through the
// host" line of a log (rank 0 writes it at the end of a run); false without one
inline bool rebuild_counts(const std::string &log, long long &device, long long &host)
{
  const std::string key = "verlet/cuda rebuilds on ";
  const size_t at = log.rfind(key);
  if (at == std::string::npos) return false;
  int nranks = 0;
  return sscanf(log.c_str() + at + key.size(),
                "%d ranks: %lld on the device, %lld through the host", &nranks, &device,
                &host) == 3;
}

// a run of the hot LJ liquid: its end state, the neighbour-list builds and rank 0's log
struct HotLjRun : RunState {
  long long builds = -1;    // neighbor->ncalls after the run
  std::string log;          // rank 0
};

// `steps` steps of the hot liquid on comm with `neighbor <skin> bin` and `neigh_modify
// <neigh>`; verlet: nullptr for CPU LAMMPS, else the run_style verlet/cuda keywords after
// "share yes" ("" for none); tag names the log file
inline HotLjRun run_hot_lj(MPI_Comm comm, const char *verlet, const std::string &skin,
                           const std::string &neigh, int steps, const std::string &tag)
{
  const bool dev = verlet != nullptr;
  Lmp l(comm);
  const std::string logfile = shared_path("hot_lj_log_" + tag, ".lammps", comm);
  l.cmds({"log " + logfile, "units lj", "atom_style atomic", "atom_modify map array",
          "read_data " + write_hot_lj_data(), "pair_style " + gpu_test::S(dev, "lj/cut") + " 2.5",
          "pair_coeff 1 1 1.0 1.0 2.5", "neighbor " + skin + " bin", "neigh_modify " + neigh,
          "timestep 0.004", "thermo_style custom step temp pe press",
          "thermo " + std::to_string(steps), "fix 1 all " + gpu_test::S(dev, "nve")});
  if (dev) l.cmd(std::string("run_style verlet/cuda share yes ") + verlet);
  l.cmd("run " + std::to_string(steps) + " post no");
  HotLjRun r;
  static_cast<RunState &>(r) = run_state(l);
  r.builds = l.lmp->neighbor->ncalls;
  l.cmd("log none");
  int me = 0;
  MPI_Comm_rank(comm, &me);
  if (me == 0) r.log = read_text(logfile);
  return r;
}

// the main of a multi-rank GPU test: 77 (ctest "skipped") without a GPU; one report, the
// other ranks' results reaching rank 0 through the exit status; prec names the precision
// in the banner line
// the MPI library takes device buffers (Open MPI built with CUDA, asked at run time)
inline bool mpi_cuda_aware()
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

// the runs without an exchange keyword take device buffers handed to MPI
// (MESOGPU_EXCHANGE=cuda-aware: the ctest cases gpu:<name>_cuda_aware_np<N>)
inline bool exchange_cuda_aware()
{
  const char *path = std::getenv("MESOGPU_EXCHANGE");
  return path && std::strcmp(path, "cuda-aware") == 0;
}

// MESOGPU_EXCHANGE=cuda-aware on an MPI library that does not take device buffers: the
// runs would stop at run_style; skipped
inline bool cuda_aware_asked_but_missing()
{
  return exchange_cuda_aware() && !mpi_cuda_aware();
}

inline int run_all_ranks(int argc, char **argv, const char *prec)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int me = world_rank();
  if (mesogpu::cuda::device_count() == 0) {
    if (me == 0)
      printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return 77;
  }
  if (cuda_aware_asked_but_missing()) {
    if (me == 0)
      printf("SKIPPED: MESOGPU_EXCHANGE=cuda-aware, but this MPI library is not CUDA-aware\n");
    MPI_Finalize();
    return 77;
  }
  if (me == 0)
    printf("[gpu] device 0: %s, precision %s, %d ranks\n",
           mesogpu::cuda::device_description(0).c_str(), prec, world_size());
  if (me != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  const int rc = RUN_ALL_TESTS();
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}

}    // namespace multirank_test

#endif
