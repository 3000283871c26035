/* mesogpu: the values the forward exchange sends with the ghosts' positions on several
 * MPI ranks (engine.h, forward_width): each step the ghosts take their owners'
 * orientation, as LAMMPS's Comm::forward_comm sends AtomVecDipole's mu (the unit vector n
 * here) and AtomVecEllipsoid's bonus quaternion, and their velocities where a force term
 * reads them (pair dpd/cuda; AtomVec::pack_comm_vel). In a swap's message, after the count
 * atoms' positions (core/ghosts.cu, core/ghosts_ipc.cu): one orientation record per atom
 * (n, 3 doubles, with orientations; then q, 4, with bodies), then v (3 per atom). The
 * receiving rows also get the packed copies the oriented pair kernels read (orient_packed,
 * quat_packed), with the same arithmetic as the upload (core/orientation.cu) and
 * pack_bodies (core/bodies.cu); an atom is oriented where its n is not zero. The ghosts'
 * |mu| and angular velocities stay as the rebuild left them: no kernel reads a ghost's
 * |mu|, omega or angmom. One message per swap for all of them (was: one exchange each,
 * three for DPD or the triblock particles with comm_modify vel yes). */

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

    enum class Extras { pack, unpack, copy };

    // one swap's extras: into the message (pack: rows send[], out), from it (unpack: rows
    // first.., in) or from rows to rows on this rank (copy)
    void forward_extras(Engine::Impl &s, Extras op, const int *send, int count, int first,
                        const double *in, double *out, cudaStream_t stream)
    {
      if (count <= 0) return;
      const OrientRows r = orient_rows(s);
      if (r.width > 0) {
        check_sizes(s, "the forward exchange");
        if (op == Extras::pack)
          pack_orientation_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, send, r, out);
        else if (op == Extras::unpack)
          unpack_orientation_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, first, in, r);
        else
          copy_orientation_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, send, first, r);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      if (!s.forwards_ghost_velocities()) return;
      // v after the orientation records, without a shift
      const size_t at = (size_t) r.width * count;
      acc *v0 = s.v[0].get(), *v1 = s.v[1].get(), *v2 = s.v[2].get();
      if (op == Extras::pack)
        pack_xyz_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, send, v0, v1, v2,
                                                             make_double3(0, 0, 0), 0, out + at);
      else if (op == Extras::unpack)
        unpack_xyz_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, first, in + at, v0, v1, v2,
                                                               nullptr);
      else
        copy_xyz_kernel<<<blocks(count), BLOCK, 0, stream>>>(count, send, first, v0, v1, v2,
                                                             make_double3(0, 0, 0), 0, nullptr);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

  }    // namespace

  int Engine::forward_width() const
  {
    return 3 + impl->forward_extra_width();
  }

  namespace detail {

    void pack_forward_extras(Engine::Impl &s, const int *send, int count, double *out,
                             cudaStream_t stream)
    {
      forward_extras(s, Extras::pack, send, count, 0, nullptr, out, stream);
    }

    void unpack_forward_extras(Engine::Impl &s, int first, int count, const double *in,
                               cudaStream_t stream)
    {
      forward_extras(s, Extras::unpack, nullptr, count, first, in, nullptr, stream);
    }

    void copy_forward_extras(Engine::Impl &s, const int *send, int count, int first,
                             cudaStream_t stream)
    {
      forward_extras(s, Extras::copy, send, count, first, nullptr, nullptr, stream);
    }

  }    // namespace detail

}    // namespace cuda
}    // namespace mesogpu
