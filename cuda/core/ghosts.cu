/* mesogpu: owned atoms and ghosts of one MPI rank, and the device half of the ghost
 * exchange (see engine.h, "several MPI ranks"): gather kernels that pack one swap of
 * LAMMPS's comm_style brick plan into a contiguous buffer, scatter kernels that unpack it,
 * with the arithmetic of AtomVec::pack_comm / unpack_comm (x + shift in double) and
 * unpack_reverse (f += received). The messages themselves are the host's
 * (src/cuda/device_comm.cpp). */

#include "core/engine_impl.cuh"
#include "core/ghost_kernels.cuh"

#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    __global__ void copy_add_forces_kernel(int count, int first, const int *send, acc *f0, acc *f1,
                                           acc *f2)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int i = first + k, j = send[k];
      f0[j] += f0[i];
      f1[j] += f1[i];
      f2[j] += f2[i];
    }

    // the packed values (comm_buf) into the host buffer, then one synchronisation of the
    // stream: afterwards buf holds them and every copy queued earlier from a host buffer
    // (an unpack's) has finished, so the caller may reuse its receive buffer
    void download_packed(const Engine::Impl &s, double *buf, int count, cudaStream_t stream = 0)
    {
      if (count > 0)
        MESOGPU_CUDA_CALL(cudaMemcpyAsync(buf, s.comm_buf.get(),
                                          3 * (size_t) count * sizeof(double),
                                          cudaMemcpyDeviceToHost, stream));
      MESOGPU_CUDA_CALL(cudaStreamSynchronize(stream));
    }
    // received values into comm_buf, queued in stream order before the unpack kernel (the
    // host does not wait; from page-locked memory the copy runs later, so buf must stay
    // unchanged until the next download_packed or synchronize)
    void upload_received(Engine::Impl &s, const double *buf, int count, cudaStream_t stream = 0)
    {
      AllocLabel label("the ghost exchange buffer");
      if (s.comm_buf.size() < 3 * (size_t) count) s.comm_buf.resize(3 * (size_t) count);
      MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.comm_buf.get(), buf, 3 * (size_t) count * sizeof(double),
                                        cudaMemcpyHostToDevice, stream));
    }

  }    // namespace

  void Engine::use_device(int dev)
  {
    MESOGPU_CUDA_CALL(cudaSetDevice(dev));
  }

  void Engine::set_owned(int nlocal)
  {
    Impl &s = *impl;
    if (nlocal < 0 || nlocal > s.n)
      throw std::logic_error("mesogpu: set_owned: " + std::to_string(nlocal) + " owned atoms of " +
                             std::to_string(s.n));
    s.nlocal = nlocal;
    if (nlocal < s.n) s.sort_every = 0;    // ghost rows stay in LAMMPS's order
  }

  int Engine::owned() const
  {
    return impl->nlocal;
  }

  void Engine::set_global_sum(std::function<void(double *, int)> sum)
  {
    impl->global_sum = std::move(sum);
  }

  double *Engine::exchange_buffer(int which, size_t count)
  {
    if (which != 0 && which != 1)
      throw std::logic_error("mesogpu: exchange_buffer: buffer " + std::to_string(which) +
                             " (0 send, 1 receive)");
    return impl->comm_host[which].reserve(count);
  }

  void Engine::set_ghost_plan(const std::vector<int> &send_index)
  {
    Impl &s = *impl;
    for (int j : send_index)
      if (j < 0 || j >= s.n)
        throw std::logic_error("mesogpu: set_ghost_plan: row " + std::to_string(j) +
                               " outside the " + std::to_string(s.n) + " rows");
    AllocLabel label("the ghost exchange plan");
    s.comm_send.upload(send_index);
  }

  void Engine::pack_positions(int offset, int count, const double shift[3], bool shifted,
                              double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "pack_positions");
    if (count == 0) {
      download_packed(s, buf, 0, s.xstream);
      return;
    }
    AllocLabel label("the ghost exchange buffer");
    if (s.comm_buf.size() < 3 * (size_t) count) s.comm_buf.resize(3 * (size_t) count);
    pack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
        count, s.comm_send.get() + offset, s.x[0].get(), s.x[1].get(), s.x[2].get(),
        make_double3(shift[0], shift[1], shift[2]), shifted ? 1 : 0, s.comm_buf.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    download_packed(s, buf, count, s.xstream);
  }

  void Engine::unpack_positions(int first, int count, const double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_positions");
    if (count == 0) return;
    upload_received(s, buf, count, s.xstream);
    unpack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
        count, first, s.comm_buf.get(), s.x[0].get(), s.x[1].get(), s.x[2].get(), s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::copy_positions(int offset, int count, const double shift[3], bool shifted, int first)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "copy_positions");
    check_rows(s, first, count, "copy_positions");
    if (count == 0) return;
    copy_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
        count, s.comm_send.get() + offset, first, s.x[0].get(), s.x[1].get(), s.x[2].get(),
        make_double3(shift[0], shift[1], shift[2]), shifted ? 1 : 0, s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::pack_forces(int first, int count, double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "pack_forces");
    if (count == 0) {
      download_packed(s, buf, 0);
      return;
    }
    AllocLabel label("the ghost exchange buffer");
    if (s.comm_buf.size() < 3 * (size_t) count) s.comm_buf.resize(3 * (size_t) count);
    pack_forces_kernel<<<blocks(count), BLOCK>>>(count, first, s.f[0].get(), s.f[1].get(),
                                                 s.f[2].get(), s.comm_buf.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    download_packed(s, buf, count);
  }

  void Engine::unpack_add_forces(int offset, int count, const double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "unpack_add_forces");
    if (count == 0) return;
    upload_received(s, buf, count);
    unpack_add_forces_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset,
                                                       s.comm_buf.get(), s.f[0].get(), s.f[1].get(),
                                                       s.f[2].get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::copy_add_forces(int first, int count, int offset)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "copy_add_forces");
    check_rows(s, first, count, "copy_add_forces");
    if (count == 0) return;
    copy_add_forces_kernel<<<blocks(count), BLOCK>>>(count, first, s.comm_send.get() + offset,
                                                     s.f[0].get(), s.f[1].get(), s.f[2].get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::pack_velocities(int offset, int count, double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "pack_velocities");
    if (count == 0) {
      download_packed(s, buf, 0);
      return;
    }
    AllocLabel label("the ghost exchange buffer");
    if (s.comm_buf.size() < 3 * (size_t) count) s.comm_buf.resize(3 * (size_t) count);
    // the same kernels as the positions, without shift and without the packed copy
    pack_xyz_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, s.v[0].get(),
                                              s.v[1].get(), s.v[2].get(), make_double3(0, 0, 0), 0,
                                              s.comm_buf.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    download_packed(s, buf, count);
  }

  void Engine::unpack_velocities(int first, int count, const double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_velocities");
    if (count == 0) return;
    upload_received(s, buf, count);
    unpack_xyz_kernel<<<blocks(count), BLOCK>>>(count, first, s.comm_buf.get(), s.v[0].get(),
                                                s.v[1].get(), s.v[2].get(), nullptr);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::copy_velocities(int offset, int count, int first)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "copy_velocities");
    check_rows(s, first, count, "copy_velocities");
    if (count == 0) return;
    copy_xyz_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, first,
                                              s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                              make_double3(0, 0, 0), 0, nullptr);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
