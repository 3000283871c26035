/* mesogpu: the forward exchange of orientations on several MPI ranks (engine.h,
 * pack_orientation): each step the ghosts take their owners' orientation, as LAMMPS's
 * Comm::forward_comm sends AtomVecDipole's mu (the unit vector n here) and
 * AtomVecEllipsoid's bonus quaternion. One record per atom: n (3 doubles) when the engine
 * has orientations, then q (4 doubles) when it has bodies. The receiving rows also get the
 * packed copies the oriented pair kernels read (orient_packed, quat_packed), with the same
 * arithmetic as the upload (core/orientation.cu) and pack_bodies (core/bodies.cu); an
 * atom is oriented where its n is not zero. The ghosts' |mu| and angular velocities stay
 * as the rebuild left them: no kernel reads a ghost's |mu|, omega or angmom. The messages
 * themselves are the host's (src/cuda/device_comm.cpp, DeviceComm::forward_orientation). */

#include "core/engine_impl.cuh"
#include "core/ghost_kernels.cuh"

#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    // the orientation arrays of the engine; null where it has none of that kind
    struct OrientRows {
      acc *n[3];
      real4 *orient_packed;
      acc *q[4];
      real4 *quat_packed;
      int width;    // doubles per atom in a message
    };

    OrientRows orient_rows(Engine::Impl &s)
    {
      OrientRows r{};
      if (s.have_orient) {
        for (int d = 0; d < 3; ++d) r.n[d] = s.orient[d].get();
        r.orient_packed = s.orient_packed.get();
        r.width += 3;
      }
      if (s.have_bodies) {
        for (int d = 0; d < 4; ++d) r.q[d] = s.quat[d].get();
        r.quat_packed = s.quat_packed.get();
        r.width += 4;
      }
      return r;
    }

    __device__ __forceinline__ void load_record(const OrientRows &r, int j, double *out)
    {
      int k = 0;
      if (r.n[0])
        for (int d = 0; d < 3; ++d) out[k++] = static_cast<double>(r.n[d][j]);
      if (r.q[0])
        for (int d = 0; d < 4; ++d) out[k++] = static_cast<double>(r.q[d][j]);
    }

    // row i takes the record: the arrays and their packed copies
    __device__ __forceinline__ void store_record(const OrientRows &r, int i, const double *in)
    {
      int k = 0;
      if (r.n[0]) {
        acc n[3];
        for (int d = 0; d < 3; ++d) {
          n[d] = static_cast<acc>(in[k++]);
          r.n[d][i] = n[d];
        }
        // oriented: a unit n; the others keep n = 0 (so the receiver needs no |mu|: a
        // device rebuild leaves the ghosts' |mu| zero)
        const bool oriented = n[0] != 0 || n[1] != 0 || n[2] != 0;
        r.orient_packed[i] = make_real4(n[0], n[1], n[2], oriented ? 1 : 0);
      }
      if (r.q[0]) {
        acc q[4];
        for (int d = 0; d < 4; ++d) {
          q[d] = static_cast<acc>(in[k++]);
          r.q[d][i] = q[d];
        }
        r.quat_packed[i] = make_real4(q[0], q[1], q[2], q[3]);
      }
    }

    __global__ void pack_orientation_kernel(int count, const int *send, OrientRows r, double *buf)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      load_record(r, send[k], buf + (size_t) r.width * k);
    }

    __global__ void unpack_orientation_kernel(int count, int first, const double *buf, OrientRows r)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      store_record(r, first + k, buf + (size_t) r.width * k);
    }

    // a swap with this rank itself: sources and the new ghost rows never overlap
    __global__ void copy_orientation_kernel(int count, const int *send, int first, OrientRows r)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= count) return;
      double rec[7];
      load_record(r, send[k], rec);
      store_record(r, first + k, rec);
    }

    // the arrays of every row exist (an upload after upload_atoms sized them)
    void check_sizes(const Engine::Impl &s, const char *what)
    {
      const size_t n = s.n;
      bool ok = true;
      if (s.have_orient) ok = ok && s.orient[0].size() >= n && s.orient_packed.size() >= n;
      if (s.have_bodies) ok = ok && s.quat[0].size() >= n && s.quat_packed.size() >= n;
      if (!ok)
        throw std::logic_error(std::string("mesogpu: ") + what +
                               ": the orientations were uploaded for fewer rows than the " +
                               std::to_string(n) + " owned atoms and ghosts");
    }

  }    // namespace

  int Engine::orientation_width() const
  {
    return (impl->have_orient ? 3 : 0) + (impl->have_bodies ? 4 : 0);
  }

  void Engine::pack_orientation(int offset, int count, double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "pack_orientation");
    const OrientRows r = orient_rows(s);
    const size_t len = (size_t) r.width * count;
    if (len > 0) {
      check_sizes(s, "pack_orientation");
      pack_orientation_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, r,
                                                        pack_target(s, buf, len));
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    // as pack_positions: returns with buf filled and every earlier copy from a receive
    // buffer finished (it is written next)
    finish_pack(s, buf, len, 0);
  }

  void Engine::unpack_orientation(int first, int count, const double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_orientation");
    const OrientRows r = orient_rows(s);
    if (count == 0 || r.width == 0) return;
    check_sizes(s, "unpack_orientation");
    const double *src = unpack_source(s, buf, (size_t) r.width * count, 0);
    unpack_orientation_kernel<<<blocks(count), BLOCK>>>(count, first, src, r);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::copy_orientation(int offset, int count, int first)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "copy_orientation");
    check_rows(s, first, count, "copy_orientation");
    const OrientRows r = orient_rows(s);
    if (count == 0 || r.width == 0) return;
    check_sizes(s, "copy_orientation");
    copy_orientation_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, first, r);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
