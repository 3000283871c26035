/* mesogpu: velocity Verlet, thermostats and momentum removal (see engine.h). */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include "physics/random.h"
#include <cmath>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    // ---- integrators ----------------------------------------------------------------
    // the arithmetic of LAMMPS FixNVE (dtfm = dtf / mass), so CPU and device agree
    // Check: the displacement test of the coming decide_rebuild() on the positions just
    // written (displacement_check_kernel's arithmetic, neighbor/rebuild_decision.cu), for a
    // group of every atom (Engine::set_integrator_check)
    template <bool Check>
    __global__ void nve_initial_kernel(int n, acc *x0, acc *x1, acc *x2, acc *v0, acc *v1, acc *v2,
                                       const acc *f0, const acc *f1, const acc *f2, const int *type,
                                       const acc *mass, const acc *rmass, acc dtv, acc dtf,
                                       PosType<real> *pos, const int *mask, int groupbit,
                                       const acc *h0, const acc *h1, const acc *h2, acc triggersq,
                                       int *flag)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      acc vx = v0[i] + dtfm * f0[i], vy = v1[i] + dtfm * f1[i], vz = v2[i] + dtfm * f2[i];
      v0[i] = vx;
      v1[i] = vy;
      v2[i] = vz;
      acc x = x0[i] + dtv * vx, y = x1[i] + dtv * vy, z = x2[i] + dtv * vz;
      x0[i] = x;
      x1[i] = y;
      x2[i] = z;
      pos[i].x = static_cast<real>(x);
      pos[i].y = static_cast<real>(y);
      pos[i].z = static_cast<real>(z);
      if constexpr (Check) {
        const acc dx = x - h0[i], dy = y - h1[i], dz = z - h2[i];
        if (dx * dx + dy * dy + dz * dz > triggersq) *flag = 1;    // benign race: all write 1
      }
    }

    // the per-atom bodies of fix nve's final half step and of fix langevin's force: one
    // code for the separate kernels and the fused one (nve_final_langevin_kernel), so that
    // both paths give bitwise the same f and v
    __device__ __forceinline__ void nve_final_atom(int i, acc *v0, acc *v1, acc *v2, const acc *f0,
                                                   const acc *f1, const acc *f2, const int *type,
                                                   const acc *mass, const acc *rmass, acc dtf)
    {
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      v0[i] += dtfm * f0[i];
      v1[i] += dtfm * f1[i];
      v2[i] += dtfm * f2[i];
    }

    // the arithmetic of LAMMPS FixLangevin::post_force (no bias, no tally, per-type mass)
    __device__ __forceinline__ void langevin_atom(int i, const int *type, const int *tag,
                                                  const acc *v0, const acc *v1, const acc *v2,
                                                  acc *f0, acc *f1, acc *f2, const double *gfactor1,
                                                  const double *gfactor2, double tsqrt,
                                                  uint32_t seed, uint32_t step_lo, uint32_t step_hi)
    {
      const double gamma1 = gfactor1[type[i]], gamma2 = gfactor2[type[i]] * tsqrt;
      double u[3];
      physics::uniform3(seed, static_cast<uint32_t>(tag[i]), step_lo, step_hi, u);
      f0[i] += gamma1 * v0[i] + gamma2 * (u[0] - 0.5);
      f1[i] += gamma1 * v1[i] + gamma2 * (u[1] - 0.5);
      f2[i] += gamma1 * v2[i] + gamma2 * (u[2] - 0.5);
    }

    __global__ void nve_final_kernel(int n, acc *v0, acc *v1, acc *v2, const acc *f0, const acc *f1,
                                     const acc *f2, const int *type, const acc *mass,
                                     const acc *rmass, acc dtf, const int *mask, int groupbit)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      nve_final_atom(i, v0, v1, v2, f0, f1, f2, type, mass, rmass, dtf);
    }

    // ---- thermostats ---------------------------------------------------------------------
    __global__ void langevin_kernel(int n, const int *mask, int groupbit, const int *type,
                                    const int *tag, const acc *v0, const acc *v1, const acc *v2,
                                    acc *f0, acc *f1, acc *f2, const double *gfactor1,
                                    const double *gfactor2, double tsqrt, uint32_t seed,
                                    uint32_t step_lo, uint32_t step_hi)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      langevin_atom(i, type, tag, v0, v1, v2, f0, f1, f2, gfactor1, gfactor2, tsqrt, seed, step_lo,
                    step_hi);
    }

    // fix langevin's force on its group (lgroupbit), then fix nve's final half step on its
    // group (groupbit) with that force: one pass over the atoms instead of two. f is written
    // (the next step's initial half step and the output read it)
    __global__ void nve_final_langevin_kernel(int n, acc *v0, acc *v1, acc *v2, acc *f0, acc *f1,
                                              acc *f2, const int *type, const int *tag,
                                              const acc *mass, const acc *rmass, acc dtf,
                                              const int *mask, int groupbit, int lgroupbit,
                                              const double *gfactor1, const double *gfactor2,
                                              double tsqrt, uint32_t seed, uint32_t step_lo,
                                              uint32_t step_hi)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const int m = mask[i];
      if (m & lgroupbit)
        langevin_atom(i, type, tag, v0, v1, v2, f0, f1, f2, gfactor1, gfactor2, tsqrt, seed,
                      step_lo, step_hi);
      if (m & groupbit) nve_final_atom(i, v0, v1, v2, f0, f1, f2, type, mass, rmass, dtf);
    }

    // sum over the group of m v^2 (slot 0) and m v (slots 1..3), double
    __global__ void reduce_mv_kernel(int n, const int *mask, int groupbit, const int *type,
                                     const acc *mass, const acc *rmass, const acc *v0,
                                     const acc *v1, const acc *v2, double *out)
    {
      const int t = threadIdx.x;
      double a[4] = {0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        a[0] += m * (double(v0[i]) * v0[i] + double(v1[i]) * v1[i] + double(v2[i]) * v2[i]);
        a[1] += m * v0[i];
        a[2] += m * v1[i];
        a[3] += m * v2[i];
      }
      block_sum_to(a, out);
    }

    // lambda from the reduced temperature, on the device: no host round trip per step
    __global__ void berendsen_scale_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                           acc *v2, const double *sums, double tfactor,
                                           double t_target, double dt_over_period)
    {
      const double t_current = sums[0] * tfactor;
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit) || t_current <= 0.0) return;
      const double lamda = sqrt(1.0 + dt_over_period * (t_target / t_current - 1.0));
      v0[i] *= lamda;
      v1[i] *= lamda;
      v2[i] *= lamda;
    }

    __global__ void zero_momentum_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                         acc *v2, const double *sums, double inv_mass, int3 dims)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      if (dims.x) v0[i] -= sums[1] * inv_mass;
      if (dims.y) v1[i] -= sums[2] * inv_mass;
      if (dims.z) v2[i] -= sums[3] * inv_mass;
    }

  }    // namespace

  void Engine::set_langevin(const std::vector<double> &gfactor1,
                            const std::vector<double> &gfactor2)
  {
    impl->gfactor1.upload(gfactor1);
    impl->gfactor2.upload(gfactor2);
  }

  void Engine::langevin(int groupbit, double tsqrt, unsigned seed, long long step)
  {
    Impl &s = *impl;
    langevin_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.type.get(), s.tag.get(), s.v[0].get(), s.v[1].get(),
        s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), s.gfactor1.get(), s.gfactor2.get(),
        tsqrt, seed, static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::berendsen(int groupbit, double tfactor, double t_target, double dt_over_period)
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.nlocal), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.sum_over_ranks(s.mv_sum, 4);    // several ranks: the group's global sum
    berendsen_scale_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.mv_sum.get(),
        tfactor, t_target, dt_over_period);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  namespace {
    __global__ void scale_velocities_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                            acc *v2, acc factor)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      v0[i] *= factor;
      v1[i] *= factor;
      v2[i] *= factor;
    }
  }    // namespace

  namespace {
    // per-atom sums for the rotation of a group: mode 0 -> m x (3 values); mode 1 ->
    // angular momentum (3) and inertia tensor (6) about xcm; unwrapped positions
    template <int NSUM, int MODE>
    __global__ void
    reduce_rotation_kernel(int n, const int *mask, int groupbit, const int *type, const acc *mass,
                           const acc *rmass, const acc *x0, const acc *x1, const acc *x2,
                           const int *im0, const int *im1, const int *im2, const acc *v0,
                           const acc *v1, const acc *v2, double3 prd, double3 xcm, double *out)
    {
      const int t = threadIdx.x;
      double a[NSUM];
      for (int c = 0; c < NSUM; ++c) a[c] = 0.0;
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        const double ux = x0[i] + im0[i] * prd.x, uy = x1[i] + im1[i] * prd.y,
                     uz = x2[i] + im2[i] * prd.z;
        if (MODE == 0) {
          a[0] += m * ux;
          a[1] += m * uy;
          a[2] += m * uz;
        } else {
          const double dx = ux - xcm.x, dy = uy - xcm.y, dz = uz - xcm.z;
          a[0] += m * (dy * v2[i] - dz * v1[i]);
          a[1] += m * (dz * v0[i] - dx * v2[i]);
          a[2] += m * (dx * v1[i] - dy * v0[i]);
          if (NSUM > 3) {
            a[3 % NSUM] += m * (dy * dy + dz * dz);
            a[4 % NSUM] += m * (dx * dx + dz * dz);
            a[5 % NSUM] += m * (dx * dx + dy * dy);
            a[6 % NSUM] -= m * dx * dy;
            a[7 % NSUM] -= m * dy * dz;
            a[8 % NSUM] -= m * dx * dz;
          }
        }
      }
      block_sum_to(a, out);
    }

    __global__ void subtract_rotation_kernel(int n, const int *mask, int groupbit, const acc *x0,
                                             const acc *x1, const acc *x2, const int *im0,
                                             const int *im1, const int *im2, acc *v0, acc *v1,
                                             acc *v2, double3 prd, double3 xcm, double3 w)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const double dx = x0[i] + im0[i] * prd.x - xcm.x, dy = x1[i] + im1[i] * prd.y - xcm.y,
                   dz = x2[i] + im2[i] * prd.z - xcm.z;
      v0[i] -= w.y * dz - w.z * dy;
      v1[i] -= w.z * dx - w.x * dz;
      v2[i] -= w.x * dy - w.y * dx;
    }
  }    // namespace

  void Engine::group_mass_moment(int groupbit, const double box_prd[3], double sum_mx[3])
  {
    Impl &s = *impl;
    s.mv_sum.resize(12);
    s.mv_sum.zero();
    const double3 prd = make_double3(box_prd[0], box_prd[1], box_prd[2]);
    reduce_rotation_kernel<3, 0><<<std::min(blocks(s.nlocal), 1024), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(), s.image[2].get(),
        s.v[0].get(), s.v[1].get(), s.v[2].get(), prd, make_double3(0, 0, 0), s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.mv_sum.download(sum_mx, 3);
    if (s.global_sum) s.global_sum(sum_mx, 3);
  }

  void Engine::group_angmom_inertia(int groupbit, const double box_prd[3], const double xcm[3],
                                    double angmom[3], double inertia[6])
  {
    Impl &s = *impl;
    s.mv_sum.resize(12);
    s.mv_sum.zero();
    const double3 prd = make_double3(box_prd[0], box_prd[1], box_prd[2]);
    reduce_rotation_kernel<9, 1><<<std::min(blocks(s.nlocal), 1024), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(), s.image[2].get(),
        s.v[0].get(), s.v[1].get(), s.v[2].get(), prd, make_double3(xcm[0], xcm[1], xcm[2]),
        s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    double h[9];
    s.mv_sum.download(h, 9);
    if (s.global_sum) s.global_sum(h, 9);
    for (int k = 0; k < 3; ++k) angmom[k] = h[k];
    for (int k = 0; k < 6; ++k) inertia[k] = h[3 + k];
  }

  void Engine::subtract_rotation(int groupbit, const double box_prd[3], const double xcm[3],
                                 const double omega[3])
  {
    Impl &s = *impl;
    const double3 prd = make_double3(box_prd[0], box_prd[1], box_prd[2]);
    subtract_rotation_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.x[0].get(), s.x[1].get(), s.x[2].get(),
        s.image[0].get(), s.image[1].get(), s.image[2].get(), s.v[0].get(), s.v[1].get(),
        s.v[2].get(), prd, make_double3(xcm[0], xcm[1], xcm[2]),
        make_double3(omega[0], omega[1], omega[2]));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  double Engine::kinetic_sum(int groupbit)
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.nlocal), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    double sums[4];
    s.mv_sum.download(sums, 4);
    if (s.global_sum) s.global_sum(sums, 4);    // several ranks
    return sums[0];
  }

  void Engine::scale_velocities(int groupbit, double factor)
  {
    Impl &s = *impl;
    scale_velocities_kernel<<<blocks(s.nlocal), BLOCK>>>(s.nlocal, s.mask.get(), groupbit,
                                                         s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                                         static_cast<acc>(factor));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::zero_momentum(int groupbit, double masstotal, bool x, bool y, bool z)
  {
    Impl &s = *impl;
    if (masstotal <= 0.0) return;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.nlocal), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.sum_over_ranks(s.mv_sum, 4);    // several ranks: the group's global momentum
    zero_momentum_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.mv_sum.get(),
        1.0 / masstotal, make_int3(x, y, z));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_initial(double dtv, double dtf, int groupbit)
  {
    Impl &s = *impl;
    // the coming displacement test in this pass: every atom integrated (group all, bit 1),
    // one rank's rows all owned (the separate test reads rows 0..n)
    const bool check = s.integrator_check && groupbit == 1 && s.nlocal == s.n && s.check_due_next();
    if (check) MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 2, 0, sizeof(int)));
    const auto kernel = check ? nve_initial_kernel<true> : nve_initial_kernel<false>;
    kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.v[0].get(), s.v[1].get(),
        s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), s.type.get(), s.mass.get(),
        s.rmass_ptr(), static_cast<acc>(dtv), static_cast<acc>(dtf), s.pos.get(), s.mask.get(),
        groupbit, check ? s.xhold[0].get() : nullptr, check ? s.xhold[1].get() : nullptr,
        check ? s.xhold[2].get() : nullptr,
        static_cast<acc>(check ? s.displacement_trigger() : 0.0), s.status.get() + 2);
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.checked_in_integrator = check;
  }

  void Engine::nve_final(double dtf, int groupbit)
  {
    Impl &s = *impl;
    nve_final_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(), s.f[1].get(),
        s.f[2].get(), s.type.get(), s.mass.get(), s.rmass_ptr(), static_cast<acc>(dtf),
        s.mask.get(), groupbit);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_final_langevin(double dtf, int groupbit, const FinalForce &ff)
  {
    Impl &s = *impl;
    nve_final_langevin_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(), s.f[1].get(),
        s.f[2].get(), s.type.get(), s.tag.get(), s.mass.get(), s.rmass_ptr(), static_cast<acc>(dtf),
        s.mask.get(), groupbit, ff.groupbit, s.gfactor1.get(), s.gfactor2.get(), ff.tsqrt, ff.seed,
        static_cast<uint32_t>(ff.step), static_cast<uint32_t>(ff.step >> 32));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
