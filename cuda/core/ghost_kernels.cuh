/* mesogpu: the kernels and checks of one swap of the ghost exchange, shared by the files
 * of the exchange (core/ghosts*.cu): one copy, so every path that moves positions,
 * velocities or forces does the same arithmetic bit for bit. Included by .cu files only. */
#ifndef MESOGPU_CORE_GHOST_KERNELS_CUH
#define MESOGPU_CORE_GHOST_KERNELS_CUH

#include "core/engine_impl.cuh"

#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {
  namespace {

    // the reverse exchange (newton_bond on): the forces of ghost rows first .. first+count
    // packed for the rank they came from
    __global__ void pack_forces_kernel(int count, int first, const acc *f0, const acc *f1,
                                       const acc *f2, double *buf)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int i = first + k;
      buf[3 * (size_t) k + 0] = static_cast<double>(f0[i]);
      buf[3 * (size_t) k + 1] = static_cast<double>(f1[i]);
      buf[3 * (size_t) k + 2] = static_cast<double>(f2[i]);
    }

    // AtomVec::unpack_reverse: f += received; an atom is in a swap's send list once, so
    // no two threads add to one row
    __global__ void unpack_add_forces_kernel(int count, const int *send, const double *buf, acc *f0,
                                             acc *f1, acc *f2)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int j = send[k];
      f0[j] += static_cast<acc>(buf[3 * (size_t) k + 0]);
      f1[j] += static_cast<acc>(buf[3 * (size_t) k + 1]);
      f2[j] += static_cast<acc>(buf[3 * (size_t) k + 2]);
    }

    // three per-atom columns of one swap: positions (shifted across a periodic side, with
    // the kernels' packed copy pos) or velocities (no shift, pos null)
    __global__ void pack_xyz_kernel(int count, const int *send, const acc *x0, const acc *x1,
                                    const acc *x2, double3 shift, int shifted, double *buf)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int j = send[k];
      const double a = static_cast<double>(x0[j]), b = static_cast<double>(x1[j]),
                   c = static_cast<double>(x2[j]);
      // AtomVec::pack_comm: x + dx in one addition when the swap crosses a periodic side
      buf[3 * (size_t) k + 0] = shifted ? a + shift.x : a;
      buf[3 * (size_t) k + 1] = shifted ? b + shift.y : b;
      buf[3 * (size_t) k + 2] = shifted ? c + shift.z : c;
    }

    __global__ void unpack_xyz_kernel(int count, int first, const double *buf, acc *x0, acc *x1,
                                      acc *x2, PosType<real> *pos)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int i = first + k;
      const acc a = static_cast<acc>(buf[3 * (size_t) k + 0]),
                b = static_cast<acc>(buf[3 * (size_t) k + 1]),
                c = static_cast<acc>(buf[3 * (size_t) k + 2]);
      x0[i] = a;
      x1[i] = b;
      x2[i] = c;
      // the kernels' copy, rounded from acc as the integrators round it (positions only)
      if (!pos) return;
      pos[i].x = static_cast<real>(a);
      pos[i].y = static_cast<real>(b);
      pos[i].z = static_cast<real>(c);
    }

    // a swap with this rank itself: sources (owned atoms or earlier swaps' ghosts) and the
    // swap's new ghost rows never overlap
    __global__ void copy_xyz_kernel(int count, const int *send, int first, acc *x0, acc *x1,
                                    acc *x2, double3 shift, int shifted, PosType<real> *pos)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      const int j = send[k], i = first + k;
      const double a = static_cast<double>(x0[j]), b = static_cast<double>(x1[j]),
                   c = static_cast<double>(x2[j]);
      const acc ra = static_cast<acc>(shifted ? a + shift.x : a),
                rb = static_cast<acc>(shifted ? b + shift.y : b),
                rc = static_cast<acc>(shifted ? c + shift.z : c);
      x0[i] = ra;
      x1[i] = rb;
      x2[i] = rc;
      if (!pos) return;
      pos[i].x = static_cast<real>(ra);
      pos[i].y = static_cast<real>(rb);
      pos[i].z = static_cast<real>(rc);
    }

    inline void check_rows(const Engine::Impl &s, int first, int count, const char *what)
    {
      if (count < 0 || first < s.nlocal || (long long) first + count > s.n)
        throw std::logic_error(std::string("mesogpu: ") + what + ": ghost rows " +
                               std::to_string(first) + " + " + std::to_string(count) + " outside " +
                               std::to_string(s.nlocal) + " .. " + std::to_string(s.n));
    }
    inline void check_send(const Engine::Impl &s, int offset, int count, const char *what)
    {
      if (count < 0 || offset < 0 || (size_t) offset + count > s.comm_send.size())
        throw std::logic_error(std::string("mesogpu: ") + what + ": send list entries " +
                               std::to_string(offset) + " + " + std::to_string(count) +
                               " outside the plan's " + std::to_string(s.comm_send.size()));
    }

    // a swap's buffer is one of the device exchange buffers (exchange_device_buffer, the
    // CUDA-aware path): the pack kernel writes into it and the unpack kernel reads it, no
    // copy through comm_buf and the host
    inline bool is_device_buffer(const Engine::Impl &s, const double *buf)
    {
      return buf && (buf == s.comm_dev[0].get() || buf == s.comm_dev[1].get());
    }

    // comm_buf, grown to `len` doubles: the device side of a swap whose buffer is host
    // memory
    inline double *staging_buffer(Engine::Impl &s, size_t len)
    {
      AllocLabel label("the ghost exchange buffer");
      if (s.comm_buf.size() < len) s.comm_buf.resize(len);
      return s.comm_buf.get();
    }

    // where a swap's pack kernel writes `len` doubles: the device exchange buffer itself,
    // else comm_buf (copied down into the host buffer by finish_pack)
    inline double *pack_target(Engine::Impl &s, double *buf, size_t len)
    {
      if (is_device_buffer(s, buf)) return buf;
      return staging_buffer(s, len);
    }
    // after the pack kernel: the packed values into the host buffer, then one
    // synchronisation of the stream: afterwards buf holds them (MPI may read it) and every
    // copy or unpack queued earlier on the stream from a receive buffer has finished, so
    // the caller may reuse that buffer
    inline void finish_pack(const Engine::Impl &s, double *buf, size_t len, cudaStream_t stream)
    {
      if (len > 0 && !is_device_buffer(s, buf))
        MESOGPU_CUDA_CALL(cudaMemcpyAsync(buf, s.comm_buf.get(), len * sizeof(double),
                                          cudaMemcpyDeviceToHost, stream));
      MESOGPU_CUDA_CALL(cudaStreamSynchronize(stream));
    }
    // what a swap's unpack kernel reads: the device exchange buffer itself, else comm_buf
    // with the received values copied up, queued in stream order before the kernel (the
    // host does not wait; from page-locked memory the copy runs later, so buf must stay
    // unchanged until the next finish_pack or synchronize)
    inline const double *unpack_source(Engine::Impl &s, const double *buf, size_t len,
                                       cudaStream_t stream)
    {
      if (is_device_buffer(s, buf)) return buf;
      double *staged = staging_buffer(s, len);
      MESOGPU_CUDA_CALL(
          cudaMemcpyAsync(staged, buf, len * sizeof(double), cudaMemcpyHostToDevice, stream));
      return staged;
    }

  }    // namespace

  namespace detail {
    // the forward exchange's values past the positions of `count` atoms (rows send[k], or
    // the new ghost rows first + k), packed at / read from `out`/`in` (core/ghosts_oriented.cu)
    void pack_forward_extras(Engine::Impl &s, const int *send, int count, double *out,
                             cudaStream_t stream);
    void unpack_forward_extras(Engine::Impl &s, int first, int count, const double *in,
                               cudaStream_t stream);
    void copy_forward_extras(Engine::Impl &s, const int *send, int count, int first,
                             cudaStream_t stream);
  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
