/* GPU tests of the forward exchange of ghost positions through CUDA IPC (run_style
   verlet/cuda exchange ipc: src/cuda/device_comm_ipc.cpp, cuda/core/ghosts_ipc.cu). A hot
   LJ liquid (T = 3, skin 0.1, neigh_modify every 1 delay 0 check yes: a new plan, and with
   it a new exchange of IPC handles, every few steps) runs 200 steps on the ranks of one
   node (sharing the GPU) with
   - exchange ipc against exchange host, both with rebuild device (the plan of
     take_plan) and with rebuild host (the plan of DeviceComm::rebuild): the same kernels
     and values on the same ranks, so the trajectories agree to round-off (positions within
     1e-12 of the box in double), and both agree with one-rank CPU LAMMPS;
   - the default (no keyword) is the IPC path, MESOGPU_EXCHANGE=host the host path, and
     the keyword overrides the variable;
   - overlap yes (the default: the forces of atoms without ghost neighbours start on a
     second stream while the ghosts' positions travel) against overlap no, with either
     exchange, one lane per atom: the same forces bit for bit, so the same trajectory;
     the log says how many atoms start early only where the overlap ran;
   - the log: on several ranks the IPC runs say "through CUDA IPC", the host runs do not
     (on one rank there is no exchange, and neither says it); with rebuild device the IPC
     runs also send the rebuilds' border records device to device, and say so;
   - exchange cuda-aware (device buffers handed to MPI) against exchange host, both
     rebuilds, where the MPI library is CUDA-aware (skipped otherwise); its log says so.
     The other multi-rank programs run whole under MESOGPU_EXCHANGE=cuda-aware as
     gpu:<name>_cuda_aware_np<N> (velocities, orientations and reverse forces too).
   Run under mpirun -np 1, 2, 4 (ctest gpu:multirank_ipc_np*). Needs a GPU: exits 77
   otherwise. Strict tolerances need MESOGPU_PRECISION=double. Bad keyword values: the
   CPU tests lammps:verlet_cuda_keyword_*exchange*. */

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
const double TRAJ_TOL = 1e-8;     // against the CPU
const double SAME_TOL = 1e-12;    // ipc against host on the same ranks
const int TRAJ_STEPS = 200;
const char *PREC = "double";
#else
const double TRAJ_TOL = 2e-3;
const double SAME_TOL = 2e-3;    // float forces: a reduction order may differ between runs
const int TRAJ_STEPS = 50;
const char *PREC = "mixed or single";
#endif

const char *IPC_LINE = "through CUDA IPC";

using Result = HotLjRun;

// the hot liquid for TRAJ_STEPS steps; style: nullptr for CPU LAMMPS, else the run_style
// verlet/cuda keywords after "share yes"
Result run_lj(MPI_Comm comm, const char *style, const std::string &tag)
{
  return run_hot_lj(comm, style, "0.1", "every 1 delay 0 check yes", TRAJ_STEPS, "ipc_" + tag);
}

// a against b: positions (minimum image, over the box), velocities, energies
void expect_close(const char *name, const Result &a, const Result &b, double tol)
{
  expect_same_state("hot LJ on " + std::to_string(world_size()) + " ranks, " + name + ", builds " +
                        std::to_string(a.builds) + " vs " + std::to_string(b.builds) + " after " +
                        std::to_string(TRAJ_STEPS) + " steps (" + PREC + ")",
                    a, b, tol);
}

// the IPC path ran exactly where it should (rank 0's log)
void expect_path(const Result &r, bool ipc, const char *name)
{
  if (world_rank() != 0) return;
  const bool said = r.log.find(IPC_LINE) != std::string::npos;
  EXPECT_EQ(said, ipc && world_size() > 1) << name << "\n" << r.log;
  // no fallback on the ranks of one node
  EXPECT_EQ(r.log.find("through the host instead"), std::string::npos) << name << "\n" << r.log;
}

void ipc_against_host(const char *rebuild)
{
  const std::string host_kw = std::string("rebuild ") + rebuild + " exchange host";
  const std::string ipc_kw = std::string("rebuild ") + rebuild + " exchange ipc";
  const Result host = run_lj(MPI_COMM_WORLD, host_kw.c_str(), std::string("host_") + rebuild);
  const Result ipc = run_lj(MPI_COMM_WORLD, ipc_kw.c_str(), std::string("ipc_") + rebuild);
  expect_close((std::string("exchange ipc vs host, rebuild ") + rebuild).c_str(), ipc, host,
               SAME_TOL);
  EXPECT_EQ(ipc.builds, host.builds);
  EXPECT_GT(ipc.builds, 5);    // several plans, each with its exchange of handles
  expect_path(ipc, true, "exchange ipc");
  expect_path(host, false, "exchange host");
  // device rebuilds of the IPC run send their border records device to device too
  if (world_rank() == 0) {
    const std::string borders = "border records device to device through CUDA IPC";
    const bool device_rebuild = std::string(rebuild) == "device" && world_size() > 1;
    EXPECT_EQ(ipc.log.find(borders) != std::string::npos, device_rebuild) << ipc.log;
    EXPECT_EQ(host.log.find(borders), std::string::npos) << host.log;
  }
  if (world_rank() == 0) {
    const Result cpu = run_lj(MPI_COMM_SELF, nullptr, std::string("cpu_") + rebuild);
    expect_close((std::string("exchange ipc vs 1-rank CPU, rebuild ") + rebuild).c_str(), ipc, cpu,
                 TRAJ_TOL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

void cuda_aware_against_host(const char *rebuild)
{
  const std::string host_kw = std::string("rebuild ") + rebuild + " exchange host";
  const std::string aware_kw = std::string("rebuild ") + rebuild + " exchange cuda-aware";
  const Result host = run_lj(MPI_COMM_WORLD, host_kw.c_str(), std::string("host_") + rebuild);
  const Result aware =
      run_lj(MPI_COMM_WORLD, aware_kw.c_str(), std::string("cuda_aware_") + rebuild);
  expect_close((std::string("exchange cuda-aware vs host, rebuild ") + rebuild).c_str(), aware,
               host, SAME_TOL);
  EXPECT_EQ(aware.builds, host.builds);
  EXPECT_GT(aware.builds, 5);
  if (world_rank() == 0) {
    const std::string said = "ghost swaps through device buffers handed to MPI";
    EXPECT_EQ(aware.log.find(said) != std::string::npos, world_size() > 1) << aware.log;
    EXPECT_EQ(host.log.find(said), std::string::npos) << host.log;
    EXPECT_EQ(aware.log.find(IPC_LINE), std::string::npos) << aware.log;
    const Result cpu = run_lj(MPI_COMM_SELF, nullptr, std::string("cpu_aware_") + rebuild);
    expect_close((std::string("exchange cuda-aware vs 1-rank CPU, rebuild ") + rebuild).c_str(),
                 aware, cpu, TRAJ_TOL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}    // namespace

// plans made on the device (DeviceComm::take_plan)
TEST(MultiRankIpc, MatchesHostRebuildDevice)
{
  ipc_against_host("device");
}

// plans read from LAMMPS's comm after the host's borders (DeviceComm::rebuild)
TEST(MultiRankIpc, MatchesHostRebuildHost)
{
  ipc_against_host("host");
}

// device buffers handed to a CUDA-aware MPI (DeviceComm::swap_buffer), both plans
TEST(MultiRankIpc, CudaAwareMatchesHost)
{
  if (!mpi_cuda_aware()) GTEST_SKIP() << "this MPI library is not CUDA-aware";
  cuda_aware_against_host("device");
  cuda_aware_against_host("host");
}

// the default (no keyword, no variable) is ipc; MESOGPU_EXCHANGE=host without the keyword
// takes the host path, and the keyword overrides the variable
TEST(MultiRankIpc, DefaultAndEnvironmentVariable)
{
  const Result dflt = run_lj(MPI_COMM_WORLD, "", "default");
  setenv("MESOGPU_EXCHANGE", "host", 1);
  const Result env = run_lj(MPI_COMM_WORLD, "", "env_host");
  const Result kw = run_lj(MPI_COMM_WORLD, "exchange ipc", "env_kw_ipc");
  unsetenv("MESOGPU_EXCHANGE");
  expect_path(dflt, true, "default");
  expect_path(env, false, "MESOGPU_EXCHANGE=host");
  expect_path(kw, true, "MESOGPU_EXCHANGE=host, exchange ipc");
  expect_close("default (ipc) vs MESOGPU_EXCHANGE=host", dflt, env, SAME_TOL);
  expect_close("MESOGPU_EXCHANGE=host, exchange ipc vs host", kw, env, SAME_TOL);
  MPI_Barrier(MPI_COMM_WORLD);
}

// overlap yes against overlap no, through IPC and through the host (one lane per atom,
// which the overlap needs; the liquid is small enough that the engine would take more)
TEST(MultiRankIpc, OverlapMatchesNoOverlap)
{
  setenv("MESOGPU_PAIR_LANES", "1", 1);
  for (const char *exchange : {"ipc", "host"}) {
    const std::string on_kw = std::string("exchange ") + exchange + " overlap yes";
    const std::string off_kw = std::string("exchange ") + exchange + " overlap no";
    const Result on = run_lj(MPI_COMM_WORLD, on_kw.c_str(), std::string("overlap_on_") + exchange);
    const Result off =
        run_lj(MPI_COMM_WORLD, off_kw.c_str(), std::string("overlap_off_") + exchange);
    expect_close((std::string("overlap yes vs no, exchange ") + exchange).c_str(), on, off,
                 SAME_TOL);
    EXPECT_EQ(on.builds, off.builds);
    if (world_rank() == 0) {
      const std::string said = "have no ghost in their lists";
      EXPECT_EQ(on.log.find(said) != std::string::npos, world_size() > 1) << on.log;
      EXPECT_EQ(off.log.find("verlet/cuda overlap"), std::string::npos) << off.log;
    }
  }
  unsetenv("MESOGPU_PAIR_LANES");
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  return multirank_test::run_all_ranks(argc, argv, PREC);
}
