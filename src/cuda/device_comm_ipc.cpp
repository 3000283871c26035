/* mesogpu: the forward exchange of ghost positions through CUDA IPC (run_style verlet/cuda
   exchange ipc); see device_comm.h. The device side is cuda/core/ghosts_ipc.cu.

   The host path (forward_swaps in device_comm.cpp) copies each swap's packed positions
   down into page-locked memory, sends them with MPI_Sendrecv (OpenMPI without CUDA
   support: through host memory) and copies them up on the receiver: on 4 H200s with
   16.4M LJ atoms 1.4-1.5 ms of MPI and 0.5 ms of copies per step for ~8 MB. Between ranks
   of one node the receiver's memory can be mapped into the sender's address space
   instead: each rank exports one device receive area (per swap an offset in it), the
   sender packs on its device and copies device to device into the partner's area (NVLink
   or PCIe peer copy, or within one GPU when ranks share it), and the host only sends a
   one-int token saying "it is there" (the sender synchronised its stream before sending).

   Handles are exchanged at each new plan (every reneighbouring: rebuild / take_plan), a
   few hundred bytes per swap; a partner's handle is opened again only when its area was
   reallocated (a new generation), the old mapping closed then.

   Why a sender never overwrites an area its owner still reads (no double buffer needed).
   CommBrick's plan has, per dimension and per need, a pair of swaps 2i (send to the
   left neighbour L, receive from the right one R) and 2i+1 (send to R, receive from L),
   on every rank in the same order; so for a swap k with partner P = send_proc[k], P sends
   to this rank in the paired swap k^1 (recv_proc[k^1] == send_proc[k], checked in
   ipc_plan; the host path is taken otherwise). The owner P of an area queues its unpack of
   swap k of step n, and its next pack (every pack_positions_to_peer synchronises P's
   stream, also for an empty swap) finishes it. Before this rank writes swap k of step n+1
   it has received P's token of swap k^1 that was sent after such a synchronisation:
   - k even (k^1 = k+1): P packed swap k+1 of step n after queuing unpack k of step n; its
     token reached this rank in step n;
   - k odd (k^1 = k-1): P packed swap k-1 of step n+1 after unpack k of step n; its token
     reaches this rank in swap k-1 of step n+1, before swap k.
   A new plan synchronises every rank's device before it sends its handle (ipc_plan), so
   no unpack of the old plan is running when a partner starts writing with new offsets;
   the areas of different swaps do not overlap. Self swaps stay device copies.

   The reverse exchange of the ghosts' bonded forces (newton_bond on) goes the same way
   with a second area per rank (reverse_swap_ipc, at the end of this file). Orientations and
   the velocities a force term reads travel in the same messages as the positions
   (Engine::forward_width). */

#include "device_comm.h"

#include "comm.h"
#include "engine.h"
#include "error.h"
#include "rank_timing.h"

#include <algorithm>
#include <cstring>
#include <mpi.h>
#include <string>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

static_assert(Engine::IPC_HANDLE_BYTES == 64, "DeviceComm::area_handle holds a cudaIpcMemHandle_t");

namespace {
// why exchange ipc takes the host path (the largest code over the ranks is logged)
enum IpcWhy { IPC_OK = 0, IPC_PLAN = 1, IPC_OTHER_NODE = 2, IPC_HANDLE = 3, IPC_OPEN = 4 };
const char *ipc_why_text(int code)
{
  switch (code) {
    case IPC_PLAN:
      return "the ghost plan's swaps are not in pairs of opposite directions";
    case IPC_OTHER_NODE:
      return "a swap partner runs on another node (CUDA IPC maps memory within one node)";
    case IPC_HANDLE:
      return "cudaIpcGetMemHandle failed on a rank";
    case IPC_OPEN:
      return "cudaIpcOpenMemHandle failed on a rank (GPUs hidden from each other by "
             "CUDA_VISIBLE_DEVICES, or no IPC support)";
    default:
      return "";
  }
}

// what a rank tells the rank that sends to it in a swap: where to write
struct AreaMsg {
  char handle[64];
  unsigned long long generation;
  unsigned long long offset;    // doubles from the area's start
  long long count;              // atoms the receiver expects
};
}    // namespace

void DeviceComm::ipc_close_all()
{
  peers.close_all();
  reverse_peers.close_all();
  peer_area.clear();
  reverse_peer_area.clear();
}

void DeviceComm::ipc_fall_back(int code, const std::string &why)
{
  ipc_close_all();
  ipc_on = false;
  ipc_failed = true;
  if (!why.empty())
    error->warning(FLERR, "run_style verlet/cuda exchange ipc: rank {}: {}", comm->me, why);
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "verlet/cuda exchange ipc: forward ghost positions through the host "
                   "instead: {}\n",
                   ipc_why_text(code));
}

void DeviceComm::ipc_plan(Engine &engine)
{
  ipc_on = false;
  if (!want_ipc() || ipc_failed || comm->nprocs < 2) return;
  const auto &swaps = plan.swaps();
  const int nswap = static_cast<int>(swaps.size());
  const int me = comm->me;

  // the node of every rank (once): the world rank of its node's first rank
  if (node_of.empty()) {
    MPI_Comm node;
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
    int first = me;
    MPI_Bcast(&first, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
    node_of.assign(comm->nprocs, -1);
    MPI_Allgather(&first, 1, MPI_INT, node_of.data(), 1, MPI_INT, world);
  }

  int code = IPC_OK;
  std::string why;
  // the pairing the ordering argument (top of this file) rests on, and one node
  for (int k = 0; k < nswap; k++) {
    const CommBrickPlan::Swap &s = swaps[k];
    if (s.send_proc == me && s.recv_proc == me) continue;
    if ((k ^ 1) >= nswap || swaps[k ^ 1].recv_proc != s.send_proc)
      code = std::max<int>(code, IPC_PLAN);
    if (node_of[s.send_proc] != node_of[me] || node_of[s.recv_proc] != node_of[me])
      code = std::max<int>(code, IPC_OTHER_NODE);
  }

  // this rank's area: the swaps' received positions (and what travels with them,
  // Engine::forward_width) one after another
  recv_offset.assign(nswap, 0);
  peer_offset.assign(nswap, 0);
  peer_area.assign(nswap, nullptr);
  const size_t width = engine.forward_width();
  size_t total = 0;
  for (int k = 0; k < nswap; k++) {
    if (swaps[k].send_proc == me) continue;
    recv_offset[k] = total;
    total += width * (size_t) swaps[k].recv_count;
  }
  // with a reverse exchange: this rank's reverse area, the forces of the atoms it sends
  // in each swap coming back
  reverse_offset.assign(nswap, 0);
  reverse_peer_offset.assign(nswap, 0);
  reverse_peer_area.assign(nswap, nullptr);
  size_t reverse_total = 0;
  for (int k = 0; k < nswap && want_reverse; k++) {
    if (swaps[k].send_proc == me) continue;
    reverse_offset[k] = reverse_total;
    reverse_total += 3 * (size_t) swaps[k].send_count;
  }
  if (code == IPC_OK) {
    char handle[Engine::IPC_HANDLE_BYTES];
    unsigned long long gen = 0;
    if (engine.ipc_recv_area(total, handle, &gen, why)) {
      std::memcpy(area_handle.data(), handle, sizeof(handle));
      area_gen = gen;
    }
    if (why.empty() && want_reverse && engine.ipc_reverse_area(reverse_total, handle, &gen, why)) {
      std::memcpy(reverse_handle.data(), handle, sizeof(handle));
      reverse_gen = gen;
    }
    if (!why.empty()) code = IPC_HANDLE;
  }
  int worst = code;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, world);
  if (worst != IPC_OK) return ipc_fall_back(worst, why);

  // no unpack of the previous plan may still read this rank's area once a partner has
  // the new offsets (see the top of this file)
  engine.synchronize();
  for (int k = 0; k < nswap; k++) {
    const CommBrickPlan::Swap &s = swaps[k];
    if (s.send_proc == me) continue;
    AreaMsg out{}, in{};
    std::memcpy(out.handle, area_handle.data(), sizeof(out.handle));
    out.generation = area_gen;
    out.offset = recv_offset[k];
    out.count = s.recv_count;
    // this rank's area to the rank that writes into it, the partner's from the rank
    // this one writes into
    MPI_Sendrecv(&out, sizeof(out), MPI_BYTE, s.recv_proc, 4, &in, sizeof(in), MPI_BYTE,
                 s.send_proc, 4, world, MPI_STATUS_IGNORE);
    if (in.count != s.send_count)
      error->one(FLERR,
                 "run_style verlet/cuda exchange ipc: swap {} sends {} atoms to rank {}, which "
                 "expects {}",
                 k, s.send_count, s.send_proc, in.count);
    std::string fail;
    peer_area[k] = peers.open(s.send_proc, in.handle, in.generation, fail);
    peer_offset[k] = in.offset;
    if (!peer_area[k]) {
      code = IPC_OPEN;
      why = "partner rank " + std::to_string(s.send_proc) + ": " + fail;
    }
    if (!want_reverse) continue;
    // the reverse way: this rank's reverse area to the rank it sends atoms to (their
    // forces come back from it), the partner's from the rank whose ghosts this rank holds
    std::memcpy(out.handle, reverse_handle.data(), sizeof(out.handle));
    out.generation = reverse_gen;
    out.offset = reverse_offset[k];
    out.count = s.send_count;
    MPI_Sendrecv(&out, sizeof(out), MPI_BYTE, s.send_proc, 9, &in, sizeof(in), MPI_BYTE,
                 s.recv_proc, 9, world, MPI_STATUS_IGNORE);
    if (in.count != s.recv_count)
      error->one(FLERR,
                 "run_style verlet/cuda exchange ipc: swap {} returns forces of {} ghosts to "
                 "rank {}, which expects {}",
                 k, s.recv_count, s.recv_proc, in.count);
    reverse_peer_area[k] = reverse_peers.open(s.recv_proc, in.handle, in.generation, fail);
    reverse_peer_offset[k] = in.offset;
    if (!reverse_peer_area[k]) {
      code = IPC_OPEN;
      why = "partner rank " + std::to_string(s.recv_proc) + " (reverse): " + fail;
    }
  }
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, world);
  if (worst != IPC_OK) return ipc_fall_back(worst, why);

  ipc_on = true;
  if (!ipc_logged && me == 0)
    utils::logmesg(lmp,
                   "verlet/cuda exchange ipc: forward ghost positions device to device through "
                   "CUDA IPC ({} ranks on one node)\n",
                   comm->nprocs);
  ipc_logged = true;
  if (want_reverse && !reverse_logged && me == 0)
    utils::logmesg(lmp, "verlet/cuda exchange ipc: reverse bonded forces device to device "
                        "through CUDA IPC\n");
  reverse_logged |= want_reverse;
}

// as forward_swaps for positions, with the pack copying into the partner's area and a
// token instead of the values (phases: pack + copy, the token, the unpack)
void DeviceComm::forward_ipc(Engine &engine)
{
  const auto &swaps = plan.swaps();
  for (size_t k = 0; k < swaps.size(); k++) {
    const CommBrickPlan::Swap &s = swaps[k];
    double d[3];
    plan.shift(s, d);
    if (s.send_proc == comm->me) {
      engine.copy_positions(s.send_offset, s.send_count, d, s.pbc_flag != 0, s.first_recv);
      lap(0, 3);
      continue;
    }
    engine.pack_positions_to_peer(s.send_offset, s.send_count, d, s.pbc_flag != 0, peer_area[k],
                                  peer_offset[k]);
    lap(0, 0);
    ipc_token(k, s.send_count, s.send_proc, s.recv_count, s.recv_proc, 3, "swap");
    lap(0, 1);
    engine.unpack_positions_from_ipc(s.first_recv, s.recv_count, recv_offset[k]);
    lap(0, 2);
  }
}

/* ----------------------------------------------------------------------
   one swap's token: `sent` atoms announced to rank `to`, the count announced by rank
   `from` checked against `expect` (the plan's), MPI tag `tag`
------------------------------------------------------------------------- */

void DeviceComm::ipc_token(int k, int sent, int to, int expect, int from, int tag, const char *what)
{
  int came = -1;
  MPI_Sendrecv(&sent, 1, MPI_INT, to, tag, &came, 1, MPI_INT, from, tag, world, MPI_STATUS_IGNORE);
  if (came != expect)
    error->one(FLERR,
               "run_style verlet/cuda exchange ipc: {} {} received a token for {} atoms, the "
               "plan expects {}",
               what, k, came, expect);
}

/* ----------------------------------------------------------------------
   one swap of the reverse exchange through IPC (reverse() runs the swaps in reverse
   order): the ghost rows' forces packed and copied into the reverse area of the rank they
   came from, a token, and the forces of this rank's sent atoms added from its own reverse
   area. Why no sender overwrites forces its owner P has not added yet: P's unpack of swap
   k of step n is queued before its forward packs of step n+1, each of which synchronises
   P's stream, and this rank writes swap k of step n+1 only after its own forward swap
   k^1 of step n+1, which waited for P's token of that swap (sent after such a
   synchronisation); a rebuild step makes a new plan, which synchronises every device
   before handles move (ipc_plan).
------------------------------------------------------------------------- */

void DeviceComm::reverse_swap_ipc(Engine &engine, int k)
{
  const CommBrickPlan::Swap &s = plan.swaps()[k];
  engine.pack_forces_to_peer(s.first_recv, s.recv_count, reverse_peer_area[k],
                             reverse_peer_offset[k]);
  lap(1, 0);
  ipc_token(k, s.recv_count, s.recv_proc, s.send_count, s.send_proc, 8, "reverse swap");
  lap(1, 1);
  engine.unpack_add_forces_from_ipc(s.send_offset, s.send_count, reverse_offset[k]);
  lap(1, 2);
}
