/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - the host half of the ghost exchange of a resident run on several
   MPI ranks (run_style verlet/cuda): LAMMPS's comm_style brick plan
   (CommBrickPlan, read after each borders()) run on the device rows. Per swap
   the device packs one contiguous buffer (core/ghosts.cu), the host sends and
   receives it (host-staged MPI_Sendrecv through the engine's page-locked buffers:
   the pack's copy down and one wait, the message, the copy up and the unpack queued
   without waiting) and the device unpacks it; a swap with this rank itself stays on
   the device. Forward: ghost positions, swaps in
   order (later swaps send ghosts earlier ones received). Reverse: ghost forces
   added to their owners, swaps in reverse order (bonded terms with newton_bond
   on). Also the node-local rank and size for the device choice (gpu_choice.h).
   run_style verlet/cuda exchange ipc: forward positions device to device through
   CUDA IPC between ranks of one node (forward_ipc in device_comm.cpp, the device
   side core/ghosts_ipc.cu): no host copies, a one-int MPI token per swap; the
   reverse exchange of bonded forces the same way (reverse_swap_ipc, its own area); the
   host path when a partner is on another node or an IPC call fails (logged).
   run_style verlet/cuda exchange cuda-aware: the same swaps as the host path, but the
   pack kernels write into device buffers (Engine::exchange_device_buffer) that go to
   MPI_Sendrecv as they are, and the unpack kernels read the received ones: no host
   copies; for MPI libraries that take device pointers (the way between nodes).
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_COMM_H
#define MESOGPU_DEVICE_COMM_H

#include "comm_brick_plan.h"
#include "gpu_choice.h"
#include "ipc_peers.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

class DeviceComm : protected Pointers {
 public:
  explicit DeviceComm(class LAMMPS *);
  ~DeviceComm() override;

  // after comm->borders() and the upload of owned atoms and ghosts: the plan, its send
  // lists on the device; an error when the ghost count is not the plan's
  void rebuild(mesogpu::cuda::Engine &engine);
  // a plan made on the device (src/cuda/device_rebuild.cpp) instead of comm's: its swaps,
  // and its send index, which stays on the device (Engine::take_border_plan; the host plan
  // holds none)
  void take_plan(mesogpu::cuda::Engine &engine, std::vector<CommBrickPlan::Swap> swaps,
                 int send_total);
  // ghosts' positions from their owners (every step without a rebuild), and in the same
  // messages their orientations (oriented particles' unit vectors, rigid bodies'
  // quaternions, as Comm::forward_comm sends AtomVecDipole's mu and AtomVecEllipsoid's
  // bonus) and their velocities where a force term reads them (Engine::forward_width)
  void forward(mesogpu::cuda::Engine &engine);
  // ghost rows' forces added to their owners' rows
  void reverse(mesogpu::cuda::Engine &engine);
  // the ghosts' values of a per-atom slot whose ghosts are read (Engine::ghost_slots),
  // after a reneighbouring step on the device
  void forward_slot(mesogpu::cuda::Engine &engine, const std::string &name);

  // the rank of this process among those of its node (MPI_COMM_TYPE_SHARED) and the
  // number of ranks of that node
  static void node_rank_size(MPI_Comm world, int &rank, int &size);
  // a resident run on several ranks: a LAMMPS error naming the first style (or setting)
  // that has no multi-rank device path yet; host_lists: a compute or fix has its own
  // neighbour list
  static void check_styles(class LAMMPS *lmp, bool host_lists);

  // per-phase timing of the swaps (MESOGPU_RANK_TIMING; null: none)
  void set_timing(class RankTiming *t) { timing = t; }
  // the per-step exchange (run_style verlet/cuda exchange; the same on every rank): ipc
  // forwards positions through CUDA IPC where every partner is on this node; cuda-aware
  // hands device buffers to MPI; set before the first rebuild/take_plan
  void set_exchange(mesogpu::ExchangePath path) { exchange = path; }
  // the last plan's forward positions go through CUDA IPC
  bool ipc_active() const { return ipc_on; }
  // the run has a reverse exchange (bonded forces on ghost rows, newton_bond on): with
  // IPC it goes device to device too; set before the first rebuild/take_plan
  void set_reverse(bool on) { want_reverse = on; }

 private:
  CommBrickPlan plan;
  class RankTiming *timing = nullptr;
  // the phases of forward (0) or reverse (1) swaps
  void lap(int dir, int what);
  // the per-step exchange asked for (set_exchange); the questions below read it, so they
  // cannot disagree
  mesogpu::ExchangePath exchange = mesogpu::ExchangePath::host;
  // exchange cuda-aware: the swaps' buffers are device memory handed to MPI
  bool device_buffers() const { return exchange == mesogpu::ExchangePath::cuda_aware; }
  // a swap's buffer `which` (0 send, 1 receive) of count doubles: page-locked host
  // memory, or device memory with exchange cuda-aware
  double *swap_buffer(mesogpu::cuda::Engine &engine, int which, size_t count);
  // one forward exchange over the plan's swaps, `width` doubles per atom, MPI tag `tag`:
  // copy(swap) for a swap with this rank, else pack(swap, buf), the message, unpack(swap, buf)
  template <class Copy, class Pack, class Unpack>
  void forward_swaps(mesogpu::cuda::Engine &engine, int width, int tag, Copy copy, Pack pack,
                     Unpack unpack);

  // --- exchange ipc (device_comm.cpp, "CUDA IPC") ---
  // asked for (set_exchange)
  bool want_ipc() const { return exchange == mesogpu::ExchangePath::ipc; }
  bool ipc_on = false;         // the current plan runs through IPC
  bool ipc_failed = false;     // fell back to the host for the rest of this run style
  bool ipc_logged = false;     // rank 0 logged the path
  std::vector<int> node_of;    // per world rank: its node (world rank of the node's first)
  // this rank's receive area: its handle and allocation generation (as sent to partners)
  std::array<char, 64> area_handle{};
  unsigned long long area_gen = 0;
  // the partners' areas opened here
  IpcPeers peers;
  // per swap: where its ghosts land in this rank's area, and where this rank's sent atoms
  // go in the partner's (doubles), the partner's mapped area
  std::vector<size_t> recv_offset, peer_offset;
  std::vector<void *> peer_area;
  // the reverse exchange through IPC: this rank's reverse area (the forces of its sent
  // atoms, coming back), per swap where they land in it, where this rank's ghosts'
  // forces go in the partner's reverse area, and that area
  bool want_reverse = false;
  bool reverse_logged = false;
  std::array<char, 64> reverse_handle{};
  unsigned long long reverse_gen = 0;
  IpcPeers reverse_peers;
  std::vector<size_t> reverse_offset, reverse_peer_offset;
  std::vector<void *> reverse_peer_area;
  void reverse_swap_ipc(mesogpu::cuda::Engine &engine, int k);
  void ipc_token(int k, int sent, int to, int expect, int from, int tag, const char *what);
  // after each new plan: decide (collectively) whether it runs through IPC, exchange and
  // open the handles
  void ipc_plan(mesogpu::cuda::Engine &engine);
  void ipc_fall_back(int code, const std::string &why);
  void ipc_close_all();
  void forward_ipc(mesogpu::cuda::Engine &engine);
};

}    // namespace LAMMPS_NS

#endif
