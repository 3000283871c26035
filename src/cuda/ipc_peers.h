/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - the receive areas of other ranks that this rank has mapped through
   CUDA IPC (run_style verlet/cuda exchange ipc), by partner rank. A partner
   sends its area's handle and allocation generation; the area is mapped again
   only when the generation changed (the partner reallocated it), the old mapping
   closed then. One per kind of area: forward positions and reverse forces
   (DeviceComm), border records (DeviceRebuild).
------------------------------------------------------------------------- */

#ifndef MESOGPU_IPC_PEERS_H
#define MESOGPU_IPC_PEERS_H

#include "engine.h"

#include <map>
#include <string>

namespace LAMMPS_NS {

class IpcPeers {
 public:
  IpcPeers() = default;
  IpcPeers(const IpcPeers &) = delete;
  IpcPeers &operator=(const IpcPeers &) = delete;
  ~IpcPeers() { close_all(); }

  // rank's area named by handle (Engine::IPC_HANDLE_BYTES bytes) in its allocation
  // `generation`, mapped here: null with the reason in `why` when it cannot be opened
  void *open(int rank, const char *handle, unsigned long long generation, std::string &why)
  {
    Peer &p = peers[rank];
    if (!p.ptr || p.generation != generation) {
      mesogpu::cuda::Engine::ipc_close_peer(p.ptr);
      p.ptr = mesogpu::cuda::Engine::ipc_open_peer(handle, why);
      p.generation = generation;
    }
    return p.ptr;
  }

  void close_all()
  {
    for (auto &p : peers) mesogpu::cuda::Engine::ipc_close_peer(p.second.ptr);
    peers.clear();
  }

 private:
  struct Peer {
    unsigned long long generation = 0;
    void *ptr = nullptr;
  };
  std::map<int, Peer> peers;
};

}    // namespace LAMMPS_NS

#endif
