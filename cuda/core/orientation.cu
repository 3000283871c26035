/* mesogpu: orientations of oriented particles (unit n, |mu|, omega, torque) on the
 * device: upload, download, and the packed copy the oriented pair kernels read. */

#include "core/engine_impl.cuh"
#include "physics/rotation_leapfrog.h"

#include <functional>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    // the packed orientation the pair kernel reads (w = 1 for oriented atoms, else 0)
    __global__ void pack_orient_kernel(int n, const acc *n0, const acc *n1, const acc *n2,
                                       const acc *mu_len, real4 *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      out[i] = make_real4(n0[i], n1[i], n2[i], mu_len[i] > 0 ? 1 : 0);
    }

  }    // namespace

  void Engine::upload_orientation(const double *mu4, const double *omega)
  {
    Impl &s = *impl;
    // each array follows sorts and migrates with its atom while this run has orientations;
    // the packed copy too (its ghost rows: the forward exchange after a device rebuild);
    // the torques while either part has them (the same entries as core/bodies.cu's)
    const std::function<bool()> in_use = [&s] { return s.have_orient; };
    for (int d = 0; d < 3; ++d) {
      const std::string axis(1, "xyz"[d]);
      add_column_while(s.per_atom, "orient " + axis, &s.orient[d], in_use);
      add_column_while(s.per_atom, "omega " + axis, &s.omega[d], in_use);
      add_column_while(s.per_atom, "torque " + axis, &s.torque[d],
                       std::function<bool()>([&s] { return s.have_torque(); }));
    }
    add_column_while(s.per_atom, "mu_len", &s.mu_len, in_use);
    add_column_while(s.per_atom, "orient_packed", &s.orient_packed, in_use);
    const int n = s.n;
    std::vector<acc> len(n), buf[3], w[3];
    for (int d = 0; d < 3; ++d) {
      buf[d].resize(n);
      w[d].resize(n);
    }
    for (size_t i = 0; i < (size_t) n; ++i) {
      const double *m = mu4 + 4 * i;
      // the CPU styles' normalisation: no overflow of |mu|^2 for |mu| ~ 1e200
      double dir[3];
      const double norm = mesogpu::physics::rotation::unit_vector(m, dir);
      const bool oriented = m[3] > 0.0 && norm > 0.0;
      len[i] = oriented ? m[3] : 0.0;
      for (int d = 0; d < 3; ++d) {
        buf[d][i] = oriented ? dir[d] : 0.0;
        w[d][i] = omega[3 * i + d];
      }
    }
    for (int d = 0; d < 3; ++d) {
      s.orient[d].upload(buf[d]);
      s.omega[d].upload(w[d]);
      s.torque[d].resize(n);
      s.torque[d].zero();
    }
    s.mu_len.upload(len);
    s.orient_packed.resize(n);
    pack_orient_kernel<<<blocks(n), BLOCK>>>(n, s.orient[0].get(), s.orient[1].get(),
                                             s.orient[2].get(), s.mu_len.get(),
                                             s.orient_packed.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.have_orient = true;
  }

  bool Engine::has_orientation() const
  {
    return impl->have_orient;
  }

  void Engine::download_orientation(double *mu4, double *omega, double *torque) const
  {
    const Impl &s = *impl;
    if (!s.have_orient) return;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.nlocal;    // owned atoms (all atoms on one rank), as download_atoms
    const int *o = s.order_host.data();
    std::vector<acc> len(n), buf(n);
    s.mu_len.download(len.data(), n);
    for (int d = 0; d < 3; ++d) {
      if (mu4) {
        s.orient[d].download(buf.data(), n);
        // atoms without orientation keep their (zero-length) mu
        for (int i = 0; i < n; ++i)
          if (len[i] > 0) mu4[4 * (size_t) o[i] + d] = len[i] * buf[i];
      }
      if (omega) {
        s.omega[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) omega[3 * (size_t) o[i] + d] = buf[i];
      }
      if (torque) {
        s.torque[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) torque[3 * (size_t) o[i] + d] = buf[i];
      }
    }
  }

}    // namespace cuda
}    // namespace mesogpu
