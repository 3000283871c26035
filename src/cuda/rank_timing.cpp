/* mesogpu: per-phase wall clock of a resident run on several ranks; see rank_timing.h. */

#include "rank_timing.h"

#include "comm.h"
#include "engine.h"
#include "error.h"
#include "utils.h"

#include <cstdlib>
#include <cstring>
#include <mpi.h>
#include <stdexcept>

using namespace LAMMPS_NS;

namespace {
const char *const phase_name[RankTiming::NPHASE] = {"integrators, fixes",
                                                    "rebuild decision + allreduce",
                                                    "rebuild (device or host), rest",
                                                    "rebuild: wrap",
                                                    "rebuild: exchange, leavers",
                                                    "rebuild: exchange, MPI",
                                                    "rebuild: exchange, arrivals",
                                                    "rebuild: lost-atom check",
                                                    "rebuild: sort owned rows",
                                                    "rebuild: borders, selection",
                                                    "rebuild: borders, records",
                                                    "rebuild: borders, ghost rows",
                                                    "rebuild: borders, plan",
                                                    "rebuild: bonded lists from IDs",
                                                    "rebuild: list build",
                                                    "rebuild host: download, pbc",
                                                    "rebuild host: exchange, borders",
                                                    "rebuild host: upload",
                                                    "rebuild host: upload topology",
                                                    "rebuild host: device fix setup",
                                                    "forward: pack + D2H",
                                                    "forward: MPI",
                                                    "forward: H2D + unpack",
                                                    "forward: self swaps",
                                                    "forces",
                                                    "reverse: pack + D2H",
                                                    "reverse: MPI",
                                                    "reverse: H2D + unpack",
                                                    "reverse: self swaps",
                                                    "energy/virial sums",
                                                    "output: atoms down for host code",
                                                    "output, checks"};
}

RankTiming::RankTiming(LAMMPS *lmp) : Pointers(lmp) {}

bool RankTiming::wanted()
{
  const char *v = std::getenv("MESOGPU_RANK_TIMING");
  return v && *v && std::strcmp(v, "0") != 0;
}

void RankTiming::begin(mesogpu::cuda::Engine &e)
{
  engine = &e;
  try {
    engine->synchronize();
  } catch (std::runtime_error &err) {
    error->one(FLERR, "run_style verlet/cuda: MESOGPU_RANK_TIMING: {}", err.what());
  }
  last = MPI_Wtime();
  active = true;
}

void RankTiming::mark(Phase p)
{
  if (!active) return;
  engine->synchronize();    // (a device error throws: the run loop reports it)
  const double now = MPI_Wtime();
  total[p] += now - last;
  last = now;
}

void RankTiming::report()
{
  double mx[NPHASE], sum = 0.0, sum_mx = 0.0;
  long long steps = 0;
  MPI_Reduce(total, mx, NPHASE, MPI_DOUBLE, MPI_MAX, 0, world);
  MPI_Reduce(&nsteps, &steps, 1, MPI_LONG_LONG, MPI_MAX, 0, world);
  for (double t : total) sum += t;
  MPI_Reduce(&sum, &sum_mx, 1, MPI_DOUBLE, MPI_MAX, 0, world);
  if (comm->me == 0) {
    std::string text = fmt::format(
        "  verlet/cuda rank timing ({} ranks, {} steps; max over ranks, device synchronised at "
        "each phase end):\n",
        comm->nprocs, steps);
    const double per = steps > 0 ? 1e6 / static_cast<double>(steps) : 0.0;
    for (int p = 0; p < NPHASE; p++)
      text += fmt::format("  rank timing {:<30} {:10.4f} s {:10.1f} us/step\n", phase_name[p],
                          mx[p], mx[p] * per);
    text += fmt::format("  rank timing {:<30} {:10.4f} s {:10.1f} us/step\n", "all (max of sums)",
                        sum_mx, sum_mx * per);
    utils::logmesg(lmp, text);
  }
  for (double &t : total) t = 0.0;
  nsteps = 0;
  active = false;
}
