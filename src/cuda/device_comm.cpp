/* mesogpu: the host half of the ghost exchange on several ranks; see device_comm.h. */

#include "device_comm.h"

#include "angle.h"
#include "atom.h"
#include "bond.h"
#include "comm.h"
#include "dihedral.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "modify.h"
#include "mesogpu_plugin.h"
#include "pair.h"
#include "pair_hybrid_cuda.h"
#include "rank_timing.h"

#include <algorithm>
#include <cstring>
#include <mpi.h>
#include <typeinfo>
#include <utility>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

DeviceComm::DeviceComm(LAMMPS *lmp) : Pointers(lmp), plan(lmp) {}

DeviceComm::~DeviceComm()
{
  ipc_close_all();
}

void DeviceComm::rebuild(Engine &engine)
{
  plan.rebuild();    // an error naming comm_style tiled, which has no such plan
  if (plan.nghost() != atom->nghost)
    error->one(FLERR, "run_style verlet/cuda: the ghost plan receives {} atoms, LAMMPS has {}",
               plan.nghost(), atom->nghost);
  engine.set_ghost_plan(plan.send_index());
  ipc_plan(engine);
}

void DeviceComm::take_plan(Engine &engine, std::vector<CommBrickPlan::Swap> swaps, int send_total)
{
  plan.assign(std::move(swaps), {});
  engine.take_border_plan(send_total);
  ipc_plan(engine);
}

double *DeviceComm::swap_buffer(Engine &engine, int which, size_t count)
{
  return device_buffers() ? engine.exchange_device_buffer(which, count)
                          : engine.exchange_buffer(which, count);
}

// the phase of a swap's part: what 0 pack + D2H, 1 MPI, 2 H2D + unpack, 3 self swap
void DeviceComm::lap(int dir, int what)
{
  if (!timing) return;
  static const RankTiming::Phase phase[2][4] = {
      {RankTiming::FWD_PACK, RankTiming::FWD_MPI, RankTiming::FWD_UNPACK, RankTiming::FWD_SELF},
      {RankTiming::REV_PACK, RankTiming::REV_MPI, RankTiming::REV_UNPACK, RankTiming::REV_SELF}};
  timing->mark(phase[dir][what]);
}

// each swap: pack + copy into the page-locked send buffer (with exchange cuda-aware: pack
// into the device send buffer) and one wait (which also finishes the previous swap's copy
// up from, or unpack of, the receive buffer), the message, then the copy up and the unpack
// queued in stream order without waiting
template <class Copy, class Pack, class Unpack>
void DeviceComm::forward_swaps(Engine &engine, int width, int tag, Copy copy, Pack pack,
                               Unpack unpack)
{
  for (const CommBrickPlan::Swap &s : plan.swaps()) {
    if (s.send_proc == comm->me) {
      // CommBrick's swap with itself: the same values, no message
      copy(s);
      lap(0, 3);
      continue;
    }
    double *send_buf = swap_buffer(engine, 0, (size_t) width * s.send_count);
    double *recv_buf = swap_buffer(engine, 1, (size_t) width * s.recv_count);
    pack(s, send_buf);
    lap(0, 0);
    MPI_Sendrecv(send_buf, width * s.send_count, MPI_DOUBLE, s.send_proc, tag, recv_buf,
                 width * s.recv_count, MPI_DOUBLE, s.recv_proc, tag, world, MPI_STATUS_IGNORE);
    lap(0, 1);
    unpack(s, recv_buf);
    lap(0, 2);
  }
}

void DeviceComm::forward(Engine &engine)
{
  if (ipc_on) {
    forward_ipc(engine);
    engine.join_exchange();
    return;
  }
  using Swap = CommBrickPlan::Swap;
  // (with the positions: orientations, velocities where they are read; Engine::forward_width)
  forward_swaps(
      engine, engine.forward_width(), 0,
      [&](const Swap &s) {
        double d[3];
        plan.shift(s, d);
        engine.copy_positions(s.send_offset, s.send_count, d, s.pbc_flag != 0, s.first_recv);
      },
      [&](const Swap &s, double *buf) {
        double d[3];
        plan.shift(s, d);
        engine.pack_positions(s.send_offset, s.send_count, d, s.pbc_flag != 0, buf);
      },
      [&](const Swap &s, const double *buf) {
        engine.unpack_positions(s.first_recv, s.recv_count, buf);
      });
  engine.join_exchange();    // what follows on the default stream (the forces) waits for it
}

void DeviceComm::forward_slot(Engine &engine, const std::string &name)
{
  using Swap = CommBrickPlan::Swap;
  forward_swaps(
      engine, 1, 3,
      [&](const Swap &s) { engine.copy_slot(name, s.send_offset, s.send_count, s.first_recv); },
      [&](const Swap &s, double *buf) {
        engine.pack_slot(name, s.send_offset, s.send_count, buf);
      },
      [&](const Swap &s, const double *buf) {
        engine.unpack_slot(name, s.first_recv, s.recv_count, buf);
      });
}

void DeviceComm::reverse(Engine &engine)
{
  // exchange ipc with the run's reverse area: device to device (reverse_swap_ipc)
  const bool ipc = ipc_on && want_reverse;
  const auto &swaps = plan.swaps();
  for (int k = static_cast<int>(swaps.size()) - 1; k >= 0; k--) {
    const CommBrickPlan::Swap &s = swaps[k];
    if (s.send_proc == comm->me) {
      engine.copy_add_forces(s.first_recv, s.recv_count, s.send_offset);
      lap(1, 3);
      continue;
    }
    if (ipc) {
      reverse_swap_ipc(engine, k);
      continue;
    }
    // the ghosts' forces go back to the rank they came from, the owners' come in from
    // the rank they were sent to
    double *send_buf = swap_buffer(engine, 0, 3 * (size_t) s.recv_count);
    double *recv_buf = swap_buffer(engine, 1, 3 * (size_t) s.send_count);
    engine.pack_forces(s.first_recv, s.recv_count, send_buf);
    lap(1, 0);
    MPI_Sendrecv(send_buf, 3 * s.recv_count, MPI_DOUBLE, s.recv_proc, 0, recv_buf, 3 * s.send_count,
                 MPI_DOUBLE, s.send_proc, 0, world, MPI_STATUS_IGNORE);
    lap(1, 1);
    engine.unpack_add_forces(s.send_offset, s.send_count, recv_buf);
    lap(1, 2);
  }
}

void DeviceComm::node_rank_size(MPI_Comm world, int &rank, int &size)
{
  MPI_Comm node;
  int me = 0;
  MPI_Comm_rank(world, &me);
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
}

/* ----------------------------------------------------------------------
   what runs on several ranks: the device styles whose class declares
   static constexpr bool several_ranks = true (the registration table records it; now the
   isotropic pair styles of the pair kernel, the oriented ones (soft/aniso, ssd, gb,
   coul/dipole/body), the atom-centric bonded kernels, and the integrators and thermostats
   whose sums go through the engine's sum over ranks (also leapfrog/aniso and
   nve|nvt/rigid/single; the barostats change the box and stay on one rank))
------------------------------------------------------------------------- */

void DeviceComm::check_styles(LAMMPS *lmp, bool host_lists)
{
  Error *error = lmp->error;
  Force *force = lmp->force;
  const int nprocs = lmp->comm->nprocs;
  if (lmp->comm->style != Comm::BRICK)
    error->all(FLERR, "run_style verlet/cuda on several MPI ranks needs comm_style brick (this "
                      "run uses comm_style tiled)");

  // each style says whether it runs on several ranks (several_ranks in its class; the
  // registration table knows it); the message lists those that do
  auto refuse = [&](const char *kind, const char *style) {
    error->all(FLERR,
               "run_style verlet/cuda: {} style {} does not run on several MPI ranks yet (this "
               "run has {}; multi-rank device {} styles: {}); run it on one rank",
               kind, style, nprocs, kind, mesogpu::several_ranks_style_names(kind));
  };
  if (Pair *pair = force->pair) {
    bool ok = mesogpu::runs_on_several_ranks(typeid(*pair));
    // hybrid: every sub-style too
    if (ok && (dynamic_cast<PairHybridCuda *>(pair) || dynamic_cast<PairHybridOverlayCuda *>(pair)))
      for (Pair *sub : device_util::hybrid_sub_styles(pair))
        ok = ok && mesogpu::runs_on_several_ranks(typeid(*sub));
    if (!ok) refuse("pair", force->pair_style);
  }
  if (Bond *bond = force->bond)
    if (!mesogpu::runs_on_several_ranks(typeid(*bond))) refuse("bond", force->bond_style);
  if (Angle *angle = force->angle)
    if (!mesogpu::runs_on_several_ranks(typeid(*angle))) refuse("angle", force->angle_style);
  if (Dihedral *dihedral = force->dihedral)
    if (!mesogpu::runs_on_several_ranks(typeid(*dihedral)))
      refuse("dihedral", force->dihedral_style);

  // device fixes that act on owned atoms only, with global sums; host observers are fine
  for (auto &ifix : lmp->modify->get_fix_list()) {
    if (!dynamic_cast<DeviceFix *>(ifix)) continue;
    if (!mesogpu::runs_on_several_ranks(typeid(*ifix)))
      error->all(FLERR,
                 "run_style verlet/cuda: fix {} (style {}) does not run on several MPI ranks yet "
                 "(this run has {}; multi-rank device fixes: {}); run it on one rank",
                 ifix->id, ifix->style, nprocs, mesogpu::several_ranks_style_names("fix"));
  }
  // oriented particles and single-site rigid bodies: their orientations go to the ghosts
  // at each rebuild and every step (with the positions, forward()); each pair style and fix that
  // reads or moves them says for itself whether it runs on several ranks (above)
  if (host_lists)
    error->all(FLERR, "run_style verlet/cuda: a compute or fix with its own neighbour list (rdf, "
                      "...) does not run with a resident run on several MPI ranks yet");
}
