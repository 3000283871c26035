/* mesogpu: the forward exchange of ghost positions (with the orientations and velocities
 * that travel with them, engine.h forward_width), and the reverse exchange of the ghosts'
 * bonded forces, through CUDA IPC (run_style verlet/cuda exchange ipc; see engine.h,
 * "forward positions through CUDA IPC"). The reverse exchange has its own area and the
 * same steps, with the kernels of pack_forces and unpack_add_forces. Each rank exports one
 * receive area on its device (cudaIpcGetMemHandle); a rank that sends to it opens the
 * handle (cudaIpcOpenMemHandle, any GPU of the node or the same one), packs a swap into its
 * own comm_buf with the kernel of pack_positions and copies it device to device into the
 * partner's area; the partner unpacks from its area with the kernel of unpack_positions.
 * No host copy on either side: the host only sends a one-int token per swap
 * (src/cuda/device_comm.cpp, which also argues why a sender never overwrites an area
 * before its owner's unpack of the previous step has read it).
 *
 * The kernels are those of core/ghosts.cu (core/ghost_kernels.cuh: the same arithmetic,
 * so both paths give the same trajectory bit for bit). The pack kernel could write straight into
 * the peer's memory (one pass less over the data) where the GPUs have peer access; the copy is kept
 * because it also works without peer access (the driver stages it) and on one GPU. */

#include "core/engine_impl.cuh"
#include "core/ghost_kernels.cuh"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  static_assert(sizeof(cudaIpcMemHandle_t) == Engine::IPC_HANDLE_BYTES,
                "Engine::IPC_HANDLE_BYTES must be the size of cudaIpcMemHandle_t");

  namespace {

    std::string cuda_text(const char *call, cudaError_t e)
    {
      return std::string(call) + ": " + cudaGetErrorString(e);
    }

  }    // namespace

  namespace {
    // an IPC receive area of at least `count` doubles (a quarter more and at least 64 Ki:
    // the counts move a little at each reneighbouring, so reallocations and new handles
    // stay rare): true with the handle and generation when (re)allocated
    bool grow_ipc_area(DeviceArray<double> &area, size_t &cap, unsigned long long &gen,
                       size_t count, const char *what, char *handle, unsigned long long *generation,
                       std::string &error)
    {
      error.clear();
      if (count <= cap && area.get()) return false;
      const size_t want = std::max<size_t>(count + count / 4, 65536);
      AllocLabel label(what);
      area.resize(want);
      cap = want;
      gen++;
      cudaIpcMemHandle_t h;
      const cudaError_t e = cudaIpcGetMemHandle(&h, area.get());
      if (e != cudaSuccess) {
        cudaGetLastError();    // not sticky: the host path takes over
        error = cuda_text("cudaIpcGetMemHandle", e);
        cap = 0;    // ask again (and fail again) next time
        return false;
      }
      std::memcpy(handle, &h, sizeof(h));
      *generation = gen;
      return true;
    }
  }    // namespace

  namespace {
    // comm_buf (packed values of `count` atoms, three doubles each) into the partner's
    // area at peer_offset doubles, then one synchronisation of the stream, always, also for
    // an empty swap: every kernel queued before (this rank's unpacks from its own areas
    // included) has finished when the token goes out
    void send_packed_to_peer(const Engine::Impl &s, void *peer, size_t peer_offset, int count,
                             int width, cudaStream_t stream = 0)
    {
      // cudaMemcpyDefault: unified addressing tells the copy which device holds each side
      // (the partner's GPU, over NVLink or PCIe, or this one)
      if (count > 0)
        MESOGPU_CUDA_CALL(cudaMemcpyAsync(static_cast<double *>(peer) + peer_offset,
                                          s.comm_buf.get(),
                                          (size_t) width * count * sizeof(double),
                                          cudaMemcpyDefault, stream));
      MESOGPU_CUDA_CALL(cudaStreamSynchronize(stream));
    }

    // comm_buf large enough for `count` atoms of `width` doubles (a partner area to copy
    // into is needed)
    double *pack_buffer(Engine::Impl &s, int count, int width, const void *peer, const char *what)
    {
      if (!peer) throw std::logic_error(std::string("mesogpu: ") + what + ": no partner area");
      return staging_buffer(s, (size_t) width * count);
    }

    // `count` atoms of `width` doubles at area_offset lie inside this rank's area of `cap`
    void check_area(size_t area_offset, int count, int width, size_t cap, const char *what)
    {
      if (area_offset + (size_t) width * count > cap)
        throw std::logic_error(std::string("mesogpu: ") + what + ": " + std::to_string(count) +
                               " atoms at " + std::to_string(area_offset) +
                               " outside the area of " + std::to_string(cap) + " doubles");
    }
  }    // namespace

  bool Engine::ipc_recv_area(size_t count, char *handle, unsigned long long *generation,
                             std::string &error)
  {
    Impl &s = *impl;
    return grow_ipc_area(s.ipc_recv, s.ipc_cap, s.ipc_gen, count,
                         "the IPC receive area of the ghost exchange", handle, generation, error);
  }

  bool Engine::ipc_records_area(size_t count, char *handle, unsigned long long *generation,
                                std::string &error)
  {
    Impl &s = *impl;
    return grow_ipc_area(s.ipc_records, s.ipc_records_cap, s.ipc_records_gen, count,
                         "the IPC receive area of the rebuild's border records", handle, generation,
                         error);
  }

  bool Engine::ipc_reverse_area(size_t count, char *handle, unsigned long long *generation,
                                std::string &error)
  {
    Impl &s = *impl;
    return grow_ipc_area(s.ipc_reverse, s.ipc_reverse_cap, s.ipc_reverse_gen, count,
                         "the IPC receive area of the reverse exchange", handle, generation, error);
  }

  void *Engine::ipc_open_peer(const char *handle, std::string &error)
  {
    error.clear();
    cudaIpcMemHandle_t h;
    std::memcpy(&h, handle, sizeof(h));
    void *p = nullptr;
    // lazy peer access: the mapping of another GPU's memory enables the access it needs
    const cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
    if (e != cudaSuccess) {
      cudaGetLastError();
      error = cuda_text("cudaIpcOpenMemHandle", e);
      return nullptr;
    }
    return p;
  }

  void Engine::ipc_close_peer(void *peer)
  {
    if (!peer) return;
    // (errors ignored: also called at the end, when the partner may be gone already)
    if (cudaIpcCloseMemHandle(peer) != cudaSuccess) cudaGetLastError();
  }

  void Engine::pack_positions_to_peer(int offset, int count, const double shift[3], bool shifted,
                                      void *peer, size_t peer_offset)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "pack_positions_to_peer");
    const int width = forward_width();
    if (count > 0) {
      double *buf = pack_buffer(s, count, width, peer, "pack_positions_to_peer");
      pack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
          count, s.comm_send.get() + offset, s.x[0].get(), s.x[1].get(), s.x[2].get(),
          make_double3(shift[0], shift[1], shift[2]), shifted ? 1 : 0, buf);
      MESOGPU_CUDA_LAUNCH_CHECK();
      // orientations, velocities after the positions (core/ghosts_oriented.cu)
      detail::pack_forward_extras(s, s.comm_send.get() + offset, count, buf + 3 * (size_t) count,
                                  s.xstream);
    }
    send_packed_to_peer(s, peer, peer_offset, count, width, s.xstream);
  }

  void Engine::pack_forces_to_peer(int first, int count, void *peer, size_t peer_offset)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "pack_forces_to_peer");
    if (count > 0) {
      double *buf = pack_buffer(s, count, 3, peer, "pack_forces_to_peer");
      pack_forces_kernel<<<blocks(count), BLOCK>>>(count, first, s.f[0].get(), s.f[1].get(),
                                                   s.f[2].get(), buf);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    send_packed_to_peer(s, peer, peer_offset, count, 3);
  }

  void Engine::unpack_add_forces_from_ipc(int offset, int count, size_t area_offset)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "unpack_add_forces_from_ipc");
    if (count == 0) return;
    check_area(area_offset, count, 3, s.ipc_reverse_cap, "unpack_add_forces_from_ipc");
    unpack_add_forces_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset,
                                                       s.ipc_reverse.get() + area_offset,
                                                       s.f[0].get(), s.f[1].get(), s.f[2].get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::unpack_positions_from_ipc(int first, int count, size_t area_offset)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_positions_from_ipc");
    if (count == 0) return;
    check_area(area_offset, count, forward_width(), s.ipc_cap, "unpack_positions_from_ipc");
    const double *in = s.ipc_recv.get() + area_offset;
    unpack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
        count, first, in, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    detail::unpack_forward_extras(s, first, count, in + 3 * (size_t) count, s.xstream);
  }

}    // namespace cuda
}    // namespace mesogpu
