/* mesogpu: single-site rigid bodies on the device (engine.h, upload_bodies): quaternion
 * and lab-frame angular momentum per atom, the torque the oriented pair terms write, and
 * the packed quaternion the pair kernels read. Integrators (integrate/) change quat and
 * angmom and call pack_bodies. */

#include "core/engine_impl.cuh"

#include <functional>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    __global__ void pack_quat_kernel(int n, const acc *q0, const acc *q1, const acc *q2,
                                     const acc *q3, real4 *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      out[i] = make_real4(q0[i], q1[i], q2[i], q3[i]);
    }

  }    // namespace

  void Engine::Impl::pack_bodies()
  {
    if (!have_bodies || n == 0) return;
    pack_quat_kernel<<<blocks(n), BLOCK>>>(n, quat[0].get(), quat[1].get(), quat[2].get(),
                                           quat[3].get(), quat_packed.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::upload_bodies(const double *quat, const double *angmom)
  {
    Impl &s = *impl;
    // each array follows sorts and migrates with its atom while this run has bodies; the
    // packed copy too (its ghost rows: the forward exchange after a device rebuild); the
    // torques while either part has them (the same entries as core/orientation.cu's)
    const std::function<bool()> in_use = [&s] { return s.have_bodies; };
    for (int d = 0; d < 4; ++d)
      add_column_while(s.per_atom, std::string("quat ") + "wxyz"[d], &s.quat[d], in_use);
    for (int d = 0; d < 3; ++d) {
      const std::string axis(1, "xyz"[d]);
      add_column_while(s.per_atom, "angmom " + axis, &s.angmom[d], in_use);
      add_column_while(s.per_atom, "torque " + axis, &s.torque[d],
                       std::function<bool()>([&s] { return s.have_torque(); }));
    }
    add_column_while(s.per_atom, "quat_packed", &s.quat_packed, in_use);
    AllocLabel label("rigid-body quaternions and angular momenta");
    const size_t n = s.n;
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    std::vector<acc> buf(n);
    for (int d = 0; d < 4; ++d) {
      for (size_t i = 0; i < n; ++i) buf[i] = static_cast<acc>(quat[4 * (size_t) o[i] + d]);
      s.quat[d].upload(buf);
    }
    for (int d = 0; d < 3; ++d) {
      for (size_t i = 0; i < n; ++i) buf[i] = static_cast<acc>(angmom[3 * (size_t) o[i] + d]);
      s.angmom[d].upload(buf);
      if (s.torque[d].size() != n) {
        s.torque[d].resize(n);
        s.torque[d].zero();
      }
    }
    s.quat_packed.resize(n);
    s.have_bodies = true;
    s.pack_bodies();
  }

  bool Engine::has_bodies() const
  {
    return impl->have_bodies;
  }

  void Engine::download_bodies(double *quat, double *angmom, double *torque) const
  {
    const Impl &s = *impl;
    if (!s.have_bodies) return;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const size_t n = s.nlocal;    // owned atoms (all atoms on one rank), as download_atoms
    const int *o = s.order_host.data();
    std::vector<acc> buf(n);
    if (quat) {
      std::vector<acc> q[4];
      for (int d = 0; d < 4; ++d) {
        q[d].resize(n);
        s.quat[d].download(q[d].data(), n);
      }
      for (size_t i = 0; i < n; ++i) {
        if (q[0][i] == 0 && q[1][i] == 0 && q[2][i] == 0 && q[3][i] == 0) continue;
        for (int d = 0; d < 4; ++d) quat[4 * (size_t) o[i] + d] = q[d][i];
      }
    }
    for (int d = 0; d < 3; ++d) {
      if (angmom) {
        s.angmom[d].download(buf.data(), n);
        for (size_t i = 0; i < n; ++i) angmom[3 * (size_t) o[i] + d] = buf[i];
      }
      if (torque) {
        s.torque[d].download(buf.data(), n);
        for (size_t i = 0; i < n; ++i) torque[3 * (size_t) o[i] + d] = buf[i];
      }
    }
  }

}    // namespace cuda
}    // namespace mesogpu
