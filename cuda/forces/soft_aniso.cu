/* mesogpu: oriented particles: soft/aniso forces and torques, orientations (see engine.h). */

#include "core/engine_impl.cuh"
#include "physics/rotation_leapfrog.h"
#include <cmath>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    // ---- oriented particles --------------------------------------------------------------
    // pair soft/aniso: one thread per atom over its full list; the thread keeps its own
    // atom's force and torque (tau_i = n_i x g_i), half of each pair's energy and virial
    // Oriented pair evaluators, one concept: cutsq per type pair, and
    //   eval(ij, rij, ni, nj, e, fj, gi, gj): energy, force on j (F_j) and the gorques
    //   g = -dE/dn of both atoms for rij = x_j - x_i and unit orientations ni, nj; false:
    //   no interaction. The kernel applies the special factor (torque on i: n_i x g_i).
    // Every such evaluator runs in aniso_forces_kernel: the neighbour loop exists once.
    struct SoftAnisoDev {
      const physics::SoftAnisoParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ij, const real rij[3], const real ni[3], const real nj[3], real &e,
                           real fj[3], real gi[3], real gj[3]) const
      {
        return physics::soft_aniso_pair<real>(p[ij], rij, ni, nj, e, fj, gi, gj);
      }
    };

    template <class Aniso, bool EV, bool Images = false>
    __global__ void aniso_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                        const int *nbr, Aniso aniso, int ntp1, Special4 special_lj,
                                        const real4 *orient, acc *f0, acc *f1, acc *f2, acc *t0,
                                        acc *t1, acc *t2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const real4 oi = orient[i];
      const real ni[3] = {oi.x, oi.y, oi.z};
      acc fx = 0, fy = 0, fz = 0, tx = 0, ty = 0, tz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nnbr[i];
      const int *nb = nbr + i;    // entry k at nb[k n]: a 64-bit pointer step, no int product
      for (int k = 0; k < m; ++k, nb += n) {
        int j = *nb;
        const int which = (j >> SBBITS) & 3;
        j &= NEIGHMASK;
        const int img = take_image<Images>(j, box);
        const PosType<real> pj = pos[j];
        const Delta d = pair_delta<Images>(pi, pj, img, box);    // x_i - x_j
        const real dx = d.x, dy = d.y, dz = d.z;
        const real rsq = dx * dx + dy * dy + dz * dz;
        const int ij = pi.type * ntp1 + pj.type;
        if (rsq >= aniso.cutsq[ij]) continue;
        const real4 oj = orient[j];
        const real nj[3] = {oj.x, oj.y, oj.z};
        const real rij[3] = {-dx, -dy, -dz};    // x_j - x_i
        real en, fj[3], gi[3], gj[3];
        if (!aniso.eval(ij, rij, ni, nj, en, fj, gi, gj)) continue;
        const real factor = special_lj.w[which];
        // force on i is -F_j; torque on i is n_i x g_i
        fx -= factor * fj[0];
        fy -= factor * fj[1];
        fz -= factor * fj[2];
        tx += factor * (ni[1] * gi[2] - ni[2] * gi[1]);
        ty += factor * (ni[2] * gi[0] - ni[0] * gi[2]);
        tz += factor * (ni[0] * gi[1] - ni[1] * gi[0]);
        if (EV) {
          e += acc(0.5) * factor * en;
          const acc h = acc(0.5) * factor;    // del (x) F_i, del = x_i - x_j, F_i = -F_j
          v[0] -= h * dx * fj[0];
          v[1] -= h * dy * fj[1];
          v[2] -= h * dz * fj[2];
          v[3] -= h * dx * fj[1];
          v[4] -= h * dx * fj[2];
          v[5] -= h * dy * fj[2];
        }
      }
      f0[i] = fx;
      f1[i] = fy;
      f2[i] = fz;
      t0[i] = tx;
      t1[i] = ty;
      t2[i] = tz;
      if (EV) ev.store(i, e, v);
    }

    // the packed orientation the pair kernel reads (w = 1 for oriented atoms, else 0)
    __global__ void pack_orient_kernel(int n, const acc *n0, const acc *n1, const acc *n2,
                                       const acc *mu_len, real4 *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      out[i] = make_real4(n0[i], n1[i], n2[i], mu_len[i] > 0 ? 1 : 0);
    }

    // fix leapfrog/aniso, the arithmetic of FixLeapfrogAniso::initial_integrate

  }    // namespace

  void Engine::upload_orientation(const double *mu4, const double *omega)
  {
    Impl &s = *impl;
    s.per_atom.add("orientation", [&s](const Permutation &q) {
      if (!s.have_orient) return;
      for (int d = 0; d < 3; ++d) {
        permute_rows(s.orient[d], 1, q);
        permute_rows(s.omega[d], 1, q);
        permute_rows(s.torque[d], 1, q);
      }
      permute_rows(s.mu_len, 1, q);
      permute_rows(s.orient_packed, 1, q);
    });
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
    const int n = s.n;
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

  void Engine::set_pair_soft_aniso(const HostSoftAniso &p)
  {
    if (!impl->have_orient)
      throw std::runtime_error("mesogpu: pair soft/aniso needs orientations (upload_orientation)");
    impl->upload_pair(impl->soft_aniso, p.cutsq, Impl::PairKind::soft_aniso, [&](int k) {
      const physics::SoftAnisoParams<double> &q = p.params[k];
      physics::SoftAnisoParams<real> r;
      r.model = q.model;
      r.alpha_r = static_cast<real>(q.alpha_r);
      r.alpha_a = static_cast<real>(q.alpha_a);
      r.mu = static_cast<real>(q.mu);
      r.nu = static_cast<real>(q.nu);
      r.k = static_cast<real>(q.k);
      r.c_edge = static_cast<real>(q.c_edge);
      r.rc = static_cast<real>(q.rc);
      r.inv_rc = static_cast<real>(q.inv_rc);
      return r;
    });
  }

  void Engine::Impl::launch_soft_aniso(const ForceLaunch &c)
  {
    Impl &s = *this;
    const SoftAnisoDev aniso{s.soft_aniso.get(), s.pair_cutsq.get()};
    auto kernel =
        c.ev ? aniso_forces_kernel<SoftAnisoDev, true> : aniso_forces_kernel<SoftAnisoDev, false>;
    if (c.box.img_bits)    // small box: explicit images
      kernel = c.ev ? aniso_forces_kernel<SoftAnisoDev, true, true>
                    : aniso_forces_kernel<SoftAnisoDev, false, true>;
    kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nnbr.get(), s.nbr.get(), aniso, s.ntp1(),
                            c.special_lj, s.orient_packed.get(), s.f[0].get(), s.f[1].get(),
                            s.f[2].get(), s.torque[0].get(), s.torque[1].get(), s.torque[2].get(),
                            c.ev_pair);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
