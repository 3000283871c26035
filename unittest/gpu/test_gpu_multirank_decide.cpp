/* GPU tests of the per-step rebuild decision and the ghost exchange staging of
   run_style verlet/cuda on several MPI ranks (src/verlet_cuda_ranks.cpp
   decide_rebuild_all_ranks, src/cuda/device_comm.cpp with the engine's page-locked
   buffers, src/cuda/rank_timing.cpp). A hot LJ liquid (skin 0.1, atoms cross rank
   boundaries) runs 200 steps with
   - neigh_modify every 5 delay 0 check no (skin 0.3): the decision is the step rule alone on every
     rank (no device read, no message): exactly 200 / 5 list builds, as one-rank CPU
     LAMMPS counts them, and the trajectory agrees with CPU LAMMPS;
   - neigh_modify every 2 delay 4 check yes: the displacement test (reduced over ranks)
     runs only on the steps the rule allows: the build count equals CPU LAMMPS's (within
     one, a displacement on the skin/2 edge) and the trajectory agrees;
   - MESOGPU_RANK_TIMING=1: the run is bit for bit the untimed one (the timing only
     synchronises) and rank 0 logs the phase table (forward exchange lines on several ranks).
   Run under mpirun -np 1, 2, 4 (ctest gpu:multirank_decide_np*). Needs a GPU: exits 77
   otherwise. Strict tolerances need MESOGPU_PRECISION=double. */

#include "atom.h"
#include "domain.h"
#include "lammps.h"
#include "library.h"
#include "neighbor.h"

#include "gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "multirank_test_util.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

using Result = HotLjRun;

// the hot liquid, TRAJ_STEPS steps with the given neigh_modify; dev: verlet/cuda on comm
Result run_lj(MPI_Comm comm, bool dev, const std::string &skin, const std::string &neigh,
              const std::string &tag)
{
  return run_hot_lj(comm, dev ? "" : nullptr, skin, neigh, TRAJ_STEPS, "decide_" + tag);
}

void expect_close(const char *name, const Result &a, const Result &b)
{
  expect_same_state("hot LJ on " + std::to_string(world_size()) + " ranks, " + name +
                        " vs 1-rank CPU, builds " + std::to_string(a.builds) + " vs " +
                        std::to_string(b.builds) + " after " + std::to_string(TRAJ_STEPS) +
                        " steps (" + PREC + ")",
                    a, b, TRAJ_TOL);
}

}    // namespace

// check no: the step rule alone on every rank, no message
TEST(MultiRankDecide, CheckNoStepRule)
{
  const std::string neigh = "every 5 delay 0 check no";
  const Result dev = run_lj(MPI_COMM_WORLD, true, "0.3", neigh, "no_dev");
  if (world_rank() == 0) {
    const Result cpu = run_lj(MPI_COMM_SELF, false, "0.3", neigh, "no_cpu");
    expect_close("every 5 check no", dev, cpu);
    EXPECT_EQ(dev.builds, TRAJ_STEPS / 5);
    EXPECT_EQ(dev.builds, cpu.builds);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// check yes with every > 1 and a delay: the reduced device test on the allowed steps only
TEST(MultiRankDecide, CheckYesOnAllowedSteps)
{
  const std::string neigh = "every 2 delay 4 check yes";
  const Result dev = run_lj(MPI_COMM_WORLD, true, "0.1", neigh, "yes_dev");
  if (world_rank() == 0) {
    const Result cpu = run_lj(MPI_COMM_SELF, false, "0.1", neigh, "yes_cpu");
    expect_close("every 2 delay 4 check yes", dev, cpu);
    EXPECT_GT(dev.builds, 5);    // the hot liquid at skin 0.1 rebuilds often
    EXPECT_LE(std::llabs(dev.builds - cpu.builds), 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// the timing synchronises only: the same trajectory bit for bit, and the phase table
TEST(MultiRankDecide, RankTimingChangesNothing)
{
  const std::string neigh = "every 2 delay 0 check yes";
  const Result plain = run_lj(MPI_COMM_WORLD, true, "0.1", neigh, "plain");
  setenv("MESOGPU_RANK_TIMING", "1", 1);
  const Result timed = run_lj(MPI_COMM_WORLD, true, "0.1", neigh, "timed");
  unsetenv("MESOGPU_RANK_TIMING");
  // (the same kernels and messages in the same order: equal unless a reduction's order
  // varies between runs, which stays far below these bounds)
  const double dx = position_diff(timed.x, plain.x, timed.box), dv = max_rel_diff(timed.v, plain.v);
  if (world_rank() == 0)
    printf("[gpu] hot LJ on %d ranks, MESOGPU_RANK_TIMING=1 vs unset: x %.2e v %.2e\n",
           world_size(), dx, dv);
  EXPECT_LE(dx, 1e-12);
  EXPECT_LE(dv, 1e-10);
  EXPECT_EQ(plain.builds, timed.builds);
  if (world_rank() == 0) {
    if (world_size() > 1) {
      EXPECT_NE(timed.log.find("verlet/cuda rank timing (" + std::to_string(world_size()) +
                               " ranks, " + std::to_string(TRAJ_STEPS) + " steps"),
                std::string::npos)
          << timed.log;
      for (const char *phase : {"rank timing forward: MPI", "rank timing forces",
                                "rank timing rebuild decision", "rank timing all (max of sums)"})
        EXPECT_NE(timed.log.find(phase), std::string::npos) << phase << "\n" << timed.log;
      // the total per step is positive and at least the forces' share
      const size_t at = timed.log.find("rank timing all (max of sums)");
      double total = -1, per = -1;
      if (at != std::string::npos)
        sscanf(timed.log.c_str() + at + std::string("rank timing all (max of sums)").size(),
               " %lf s %lf", &total, &per);
      EXPECT_GT(total, 0.0) << timed.log;
      // (as printed: the total to 1e-4 s, the mean to 0.1 us)
      EXPECT_NEAR(per, total * 1e6 / TRAJ_STEPS, 0.5e-4 * 1e6 / TRAJ_STEPS + 0.05 + 1e-9 * per)
          << timed.log;
    }
    EXPECT_EQ(plain.log.find("rank timing"), std::string::npos) << plain.log;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  return multirank_test::run_all_ranks(argc, argv, PREC);
}
