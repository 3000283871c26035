/* mesogpu: the step of single-site rigid bodies on the device (fix nve/rigid/single/cuda,
 * nvt/rigid/single/cuda; see engine.h). Per atom of the group exactly the host's
 * arithmetic (src/fix_nve_rigid_single.cpp, src/rigid_single_bodies.cpp): velocity Verlet
 * of x and v as LAMMPS's FixNVE, and for an atom with a body the half kick and the free
 * rotation of physics/rigid_rotation.h (rigid_lab_kick, rigid_lab_advance) on q and the
 * lab angmom L, both kept in acc. After every change of q the packed copy the oriented
 * pair kernels read is refreshed (pack_bodies). */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include "physics/rigid_rotation.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    struct BodyView {
      acc *q[4];    // null: no bodies on the device (group atoms translated only)
      acc *l[3];
      const acc *tau[3];
      const acc *inertia;    // 3 (ntypes + 1)
      const int *zero_axis;
      int dlm;
    };

    __device__ __forceinline__ bool load_body(const BodyView &b, int i, acc q[4], acc l[3])
    {
      if (!b.q[0]) return false;
      for (int k = 0; k < 4; ++k) q[k] = b.q[k][i];
      if (q[0] == acc(0) && q[1] == acc(0) && q[2] == acc(0) && q[3] == acc(0)) return false;
      for (int d = 0; d < 3; ++d) l[d] = b.l[d][i];
      return true;
    }

    // kick: v += dtfm f, L += dtf tau (linear bodies projected); drift: x += dtv v, then q
    // renormalised and (q, L) rotated over dtv; both: the order of
    // FixNVERigidSingle::initial_integrate (v, x, then L kick, then rotation)
    template <bool KICK, bool DRIFT>
    __global__ void rigid_step_kernel(int n, const int *mask, int groupbit, const int *type,
                                      const acc *mass, const acc *rmass, acc *x0, acc *x1, acc *x2,
                                      acc *v0, acc *v1, acc *v2, const acc *f0, const acc *f1,
                                      const acc *f2, PosType<real> *pos, BodyView b, acc dtv,
                                      acc dtf)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      acc vx = v0[i], vy = v1[i], vz = v2[i];
      if (KICK) {
        const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
        vx += dtfm * f0[i];
        vy += dtfm * f1[i];
        vz += dtfm * f2[i];
        v0[i] = vx;
        v1[i] = vy;
        v2[i] = vz;
      }
      if (DRIFT) {
        const acc x = x0[i] + dtv * vx, y = x1[i] + dtv * vy, z = x2[i] + dtv * vz;
        x0[i] = x;
        x1[i] = y;
        x2[i] = z;
        pos[i].x = static_cast<real>(x);
        pos[i].y = static_cast<real>(y);
        pos[i].z = static_cast<real>(z);
      }
      acc q[4], l[3];
      if (!load_body(b, i, q, l)) return;
      const int t = type[i];
      const int za = b.zero_axis[t];
      if (KICK) {
        const acc tau[3] = {b.tau[0][i], b.tau[1][i], b.tau[2][i]};
        physics::rigid_lab_kick<acc>(q, l, tau, za, dtf);
      }
      if (DRIFT) {
        physics::rigid_lab_advance<acc>(q, l, b.inertia + 3 * t, za, b.dlm != 0, dtv);
        for (int k = 0; k < 4; ++k) b.q[k][i] = q[k];
      }
      for (int d = 0; d < 3; ++d) b.l[d][i] = l[d];
    }

    // [0] m v^2 over the group, [1] sum_k L_k^2 / I_k over its bodies (double)
    __global__ void rigid_sums_kernel(int n, const int *mask, int groupbit, const int *type,
                                      const acc *mass, const acc *rmass, const acc *v0,
                                      const acc *v1, const acc *v2, BodyView b, double *out)
    {
      double a[2] = {0, 0};
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        a[0] += m * (double(v0[i]) * v0[i] + double(v1[i]) * v1[i] + double(v2[i]) * v2[i]);
        acc q[4], l[3];
        if (!load_body(b, i, q, l)) continue;
        const double qd[4] = {q[0], q[1], q[2], q[3]}, ld[3] = {l[0], l[1], l[2]};
        const acc *in = b.inertia + 3 * type[i];
        const double id[3] = {in[0], in[1], in[2]};
        a[1] += 2.0 * physics::rigid_lab_kinetic_energy<double>(qd, ld, id);
      }
      block_sum_to(a, out);
    }

    __global__ void rigid_scale_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                       acc *v2, BodyView b, acc factor)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      v0[i] *= factor;
      v1[i] *= factor;
      v2[i] *= factor;
      acc q[4], l[3];
      if (!load_body(b, i, q, l)) return;
      for (int d = 0; d < 3; ++d) b.l[d][i] = l[d] * factor;
    }

    BodyView body_view(Engine::Impl &s)
    {
      if (s.rigid_zero_axis.size() != static_cast<size_t>(s.ntp1()) ||
          s.rigid_inertia.size() != static_cast<size_t>(3 * s.ntp1()))
        throw std::runtime_error("mesogpu: the rigid-body step needs the inertia of every atom "
                                 "type (Engine::set_rigid_inertia) first");
      BodyView b{};
      if (s.have_bodies && s.n > 0) {
        for (int k = 0; k < 4; ++k) b.q[k] = s.quat[k].get();
        for (int d = 0; d < 3; ++d) {
          b.l[d] = s.angmom[d].get();
          b.tau[d] = s.torque[d].get();
        }
      }
      b.inertia = s.rigid_inertia.get();
      b.zero_axis = s.rigid_zero_axis.get();
      b.dlm = s.rigid_dlm ? 1 : 0;
      return b;
    }

  }    // namespace

  void Engine::set_rigid_inertia(const std::vector<double> &inertia,
                                 const std::vector<int> &zero_axis, bool dlm)
  {
    Impl &s = *impl;
    if (zero_axis.size() != static_cast<size_t>(s.ntp1()) || inertia.size() != 3 * zero_axis.size())
      throw std::runtime_error("mesogpu: set_rigid_inertia expects 3 (ntypes + 1) moments and "
                               "ntypes + 1 axes");
    AllocLabel label("rigid-body inertia per type");
    s.rigid_inertia.upload(std::vector<acc>(inertia.begin(), inertia.end()));
    s.rigid_zero_axis.upload(zero_axis);
    s.rigid_dlm = dlm;
  }

  void Engine::rigid_step(double dtv, double dtf, int groupbit, bool kick, bool drift)
  {
    Impl &s = *impl;
    const BodyView b = body_view(s);
    // owned rows (several ranks: ghosts take their owners' quaternions by the forward
    // exchange; pack_bodies below refreshes all rows, the ghosts' unchanged)
    if (s.nlocal == 0 || !(kick || drift)) return;
    auto launch = [&](auto kernel) {
      kernel<<<blocks(s.nlocal), BLOCK>>>(
          s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
          s.x[1].get(), s.x[2].get(), s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(),
          s.f[1].get(), s.f[2].get(), s.pos.get(), b, static_cast<acc>(dtv), static_cast<acc>(dtf));
    };
    if (kick && drift)
      launch(rigid_step_kernel<true, true>);
    else if (kick)
      launch(rigid_step_kernel<true, false>);
    else
      launch(rigid_step_kernel<false, true>);
    MESOGPU_CUDA_LAUNCH_CHECK();
    if (drift) s.pack_bodies();
  }

  void Engine::rigid_kinetic_sums(int groupbit, double sums[2])
  {
    Impl &s = *impl;
    const BodyView b = body_view(s);
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    if (s.nlocal > 0) {
      const int nb = std::min(blocks(s.nlocal), 1024);
      rigid_sums_kernel<<<nb, BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                       s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(), b,
                                       s.mv_sum.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    s.sum_over_ranks(s.mv_sum, 2);    // several ranks: every rank, even one without atoms
    s.mv_sum.download(sums, 2);
  }

  void Engine::rigid_scale(int groupbit, double factor)
  {
    Impl &s = *impl;
    const BodyView b = body_view(s);
    if (s.nlocal == 0) return;
    rigid_scale_kernel<<<blocks(s.nlocal), BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.v[0].get(),
                                                    s.v[1].get(), s.v[2].get(), b,
                                                    static_cast<acc>(factor));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
