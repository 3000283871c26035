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

  double *Engine::exchange_device_buffer(int which, size_t count)
  {
    if (which != 0 && which != 1)
      throw std::logic_error("mesogpu: exchange_device_buffer: buffer " + std::to_string(which) +
                             " (0 send, 1 receive)");
    DeviceArray<double> &b = impl->comm_dev[which];
    if (b.size() < count) {
      AllocLabel label("the device buffers of the CUDA-aware exchange");
      b.resize(count);
    }
    return b.get();
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
    const size_t len = (size_t) forward_width() * count;
    if (count > 0) {
      double *target = pack_target(s, buf, len);
      pack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
          count, s.comm_send.get() + offset, s.x[0].get(), s.x[1].get(), s.x[2].get(),
          make_double3(shift[0], shift[1], shift[2]), shifted ? 1 : 0, target);
      MESOGPU_CUDA_LAUNCH_CHECK();
      // orientations, velocities after the positions (core/ghosts_oriented.cu)
      detail::pack_forward_extras(s, s.comm_send.get() + offset, count, target + 3 * (size_t) count,
                          s.xstream);
    }
    finish_pack(s, buf, len, s.xstream);
  }

  void Engine::unpack_positions(int first, int count, const double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_positions");
    if (count == 0) return;
    const double *src = unpack_source(s, buf, (size_t) forward_width() * count, s.xstream);
    unpack_xyz_kernel<<<blocks(count), BLOCK, 0, s.xstream>>>(
        count, first, src, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    detail::unpack_forward_extras(s, first, count, src + 3 * (size_t) count, s.xstream);
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
    detail::copy_forward_extras(s, s.comm_send.get() + offset, count, first, s.xstream);
  }

  void Engine::pack_forces(int first, int count, double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "pack_forces");
    const size_t len = 3 * (size_t) count;
    if (count > 0) {
      pack_forces_kernel<<<blocks(count), BLOCK>>>(count, first, s.f[0].get(), s.f[1].get(),
                                                   s.f[2].get(), pack_target(s, buf, len));
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    finish_pack(s, buf, len, 0);
  }

  void Engine::unpack_add_forces(int offset, int count, const double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "unpack_add_forces");
    if (count == 0) return;
    const double *src = unpack_source(s, buf, 3 * (size_t) count, 0);
    unpack_add_forces_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, src,
                                                       s.f[0].get(), s.f[1].get(), s.f[2].get());
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

}    // namespace cuda
}    // namespace mesogpu
