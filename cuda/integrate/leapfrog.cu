/* mesogpu: the rotational leapfrog and Berendsen scaling of oriented particles (see engine.h). */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include "physics/rotation_leapfrog.h"
#include <cmath>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    __global__ void leapfrog_initial_kernel(int n, const int *mask, int groupbit, const int *type,
                                            const acc *mass, const acc *rmass, acc *x0, acc *x1,
                                            acc *x2, acc *v0, acc *v1, acc *v2, const acc *f0,
                                            const acc *f1, const acc *f2, acc *n0, acc *n1, acc *n2,
                                            const acc *mu_len, const acc *w0, const acc *w1,
                                            const acc *w2, PosType<real> *pos, real4 *orient,
                                            acc dtv, acc dtf, int normalize_limit, int *nlimited,
                                            ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      acc vx = v0[i] + dtfm * f0[i], vy = v1[i] + dtfm * f1[i], vz = v2[i] + dtfm * f2[i];
      v0[i] = vx;
      v1[i] = vy;
      v2[i] = vz;
      const acc x = x0[i] + dtv * vx, y = x1[i] + dtv * vy, z = x2[i] + dtv * vz;
      x0[i] = x;
      x1[i] = y;
      x2[i] = z;
      pos[i].x = static_cast<real>(x);
      pos[i].y = static_cast<real>(y);
      pos[i].z = static_cast<real>(z);
      if (!(mu_len[i] > 0)) return;
      acc nv[3] = {n0[i], n1[i], n2[i]};
      const acc w[3] = {w0[i], w1[i], w2[i]};
      if (!physics::leapfrog_drift<acc>(nv, w, dtv)) {
        if (!normalize_limit) {
          if (atomicOr(&err->bits, ERR_ROTATION) == 0) {
            err->i = i;
            err->j = i;
            err->rsq = double(dtv) * dtv * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
          }
          return;
        }
        physics::leapfrog_drift_normalized<acc>(nv, w, dtv);
        atomicAdd(nlimited, 1);
      }
      n0[i] = nv[0];
      n1[i] = nv[1];
      n2[i] = nv[2];
      orient[i] = make_real4(nv[0], nv[1], nv[2], 1);
    }

    __global__ void leapfrog_final_kernel(int n, const int *mask, int groupbit, const int *type,
                                          const acc *mass, const acc *rmass, acc *v0, acc *v1,
                                          acc *v2, const acc *f0, const acc *f1, const acc *f2,
                                          const acc *n0, const acc *n1, const acc *n2,
                                          const acc *mu_len, acc *w0, acc *w1, acc *w2,
                                          const acc *t0, const acc *t1, const acc *t2,
                                          const acc *inertia, acc dtf, acc dtr)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      v0[i] += dtfm * f0[i];
      v1[i] += dtfm * f1[i];
      v2[i] += dtfm * f2[i];
      if (!(mu_len[i] > 0)) return;
      const acc nv[3] = {n0[i], n1[i], n2[i]}, tau[3] = {t0[i], t1[i], t2[i]};
      acc w[3] = {w0[i], w1[i], w2[i]};
      physics::leapfrog_kick<acc>(w, nv, tau, dtr / inertia[type[i]]);
      w0[i] = w[0];
      w1[i] = w[1];
      w2[i] = w[2];
    }

    // [0] m v^2, [1] I |omega x n|^2 (oriented atoms), [2] atoms, [3] oriented atoms
    __global__ void reduce_aniso_kernel(int n, const int *mask, int groupbit, const int *type,
                                        const acc *mass, const acc *rmass, const acc *v0,
                                        const acc *v1, const acc *v2, const acc *n0, const acc *n1,
                                        const acc *n2, const acc *mu_len, const acc *w0,
                                        const acc *w1, const acc *w2, const acc *inertia,
                                        double *out)
    {
      const int t = threadIdx.x;
      double a[4] = {0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        a[0] += m * (double(v0[i]) * v0[i] + double(v1[i]) * v1[i] + double(v2[i]) * v2[i]);
        a[2] += 1.0;
        if (mu_len[i] > 0) {
          const double nv[3] = {n0[i], n1[i], n2[i]}, w[3] = {w0[i], w1[i], w2[i]};
          double u[3];
          physics::u_from_omega<double>(u, w, nv);
          a[1] += inertia[type[i]] * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
          a[3] += 1.0;
        }
      }
      block_sum_to(a, out);
    }

    __global__ void scale_aniso_kernel(int n, const int *mask, int groupbit, const acc *mu_len,
                                       acc *v0, acc *v1, acc *v2, acc *w0, acc *w1, acc *w2, acc lt,
                                       acc lr)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      v0[i] *= lt;
      v1[i] *= lt;
      v2[i] *= lt;
      if (mu_len[i] > 0) {
        w0[i] *= lr;
        w1[i] *= lr;
        w2[i] *= lr;
      }
    }

  }    // namespace

  void Engine::set_inertia(const std::vector<double> &inertia)
  {
    std::vector<acc> h(inertia.begin(), inertia.end());
    impl->inertia.upload(h);
  }

  void Engine::leapfrog_initial(double dtv, double dtf, int groupbit, bool normalize_limit)
  {
    Impl &s = *impl;
    if (s.rotation_limited.size() != 1) {
      s.rotation_limited.resize(1);
      s.rotation_limited.zero();
    }
    if (!s.have_orient)
      throw std::runtime_error("mesogpu: fix leapfrog/aniso needs orientations on the device");
    // owned rows (several ranks: ghosts take their owners' state by the forward exchange)
    leapfrog_initial_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(),
        s.f[1].get(), s.f[2].get(), s.orient[0].get(), s.orient[1].get(), s.orient[2].get(),
        s.mu_len.get(), s.omega[0].get(), s.omega[1].get(), s.omega[2].get(), s.pos.get(),
        s.orient_packed.get(), static_cast<acc>(dtv), static_cast<acc>(dtf),
        normalize_limit ? 1 : 0, s.rotation_limited.get(), s.err.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  long long Engine::take_rotation_limited()
  {
    Impl &s = *impl;
    if (s.rotation_limited.size() != 1) return 0;
    int count = 0;
    s.rotation_limited.download(&count, 1);
    s.rotation_limited.zero();
    return count;
  }

  void Engine::leapfrog_final(double dtf, double dtr, int groupbit)
  {
    Impl &s = *impl;
    leapfrog_final_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.v[0].get(),
        s.v[1].get(), s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), s.orient[0].get(),
        s.orient[1].get(), s.orient[2].get(), s.mu_len.get(), s.omega[0].get(), s.omega[1].get(),
        s.omega[2].get(), s.torque[0].get(), s.torque[1].get(), s.torque[2].get(), s.inertia.get(),
        static_cast<acc>(dtf), static_cast<acc>(dtr));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::aniso_kinetic_sums(int groupbit, double sums[4])
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.nlocal), 1024);
    reduce_aniso_kernel<<<nb, BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                       s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                       s.orient[0].get(), s.orient[1].get(), s.orient[2].get(),
                                       s.mu_len.get(), s.omega[0].get(), s.omega[1].get(),
                                       s.omega[2].get(), s.inertia.get(), s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.sum_over_ranks(s.mv_sum, 4);    // several ranks: the group's global sums
    s.mv_sum.download(sums, 4);
  }

  void Engine::scale_aniso(int groupbit, double lambda_t, double lambda_r)
  {
    Impl &s = *impl;
    scale_aniso_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.mu_len.get(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
        s.omega[0].get(), s.omega[1].get(), s.omega[2].get(), static_cast<acc>(lambda_t),
        static_cast<acc>(lambda_r));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
