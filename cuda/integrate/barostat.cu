/* mesogpu: the per-atom steps of LAMMPS's Nose-Hoover barostat (FixNH, orthogonal box) and
 * the box change during a run (see engine.h). The barostat's scalars (omega_dot, the chains,
 * the new box) stay on the host in LAMMPS's own FixNH code; these kernels do what its loops
 * over atoms do, with the CPU's rounding: every product and sum is rounded on its own (no
 * fused multiply-add), so in double precision a step here equals FixNH's step on the same
 * forces bit for bit. */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    // a * b and a + b rounded separately, as the host computes them
    __device__ __forceinline__ acc mul_rn(acc a, acc b)
    {
      if constexpr (sizeof(acc) == sizeof(double))
        return __dmul_rn(a, b);
      else
        return __fmul_rn(a, b);
    }
    __device__ __forceinline__ acc add_rn(acc a, acc b)
    {
      if constexpr (sizeof(acc) == sizeof(double))
        return __dadd_rn(a, b);
      else
        return __fadd_rn(a, b);
    }

    __device__ __forceinline__ bool in_group(const int *mask, int i, int groupbit)
    {
      return groupbit == 0 || (mask[i] & groupbit);
    }

    // FixNH::nh_v_press without the tilt terms: v_d *= factor_d, twice
    __global__ void nh_v_press_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                      acc *v2, acc f0, acc f1, acc f2)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !in_group(mask, i, groupbit)) return;
      v0[i] = mul_rn(mul_rn(v0[i], f0), f0);
      v1[i] = mul_rn(mul_rn(v1[i], f1), f1);
      v2[i] = mul_rn(mul_rn(v2[i], f2), f2);
    }

    // FixNH::nve_v: v += dtf / m f
    __global__ void nh_nve_v_kernel(int n, const int *mask, int groupbit, const int *type,
                                    const acc *mass, const acc *rmass, acc *v0, acc *v1, acc *v2,
                                    const acc *f0, const acc *f1, const acc *f2, acc dtf)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !in_group(mask, i, groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      v0[i] = add_rn(v0[i], mul_rn(dtfm, f0[i]));
      v1[i] = add_rn(v1[i], mul_rn(dtfm, f1[i]));
      v2[i] = add_rn(v2[i], mul_rn(dtfm, f2[i]));
    }

    // FixNH::nve_x: x += dtv v (and the packed positions of the force kernels)
    __global__ void nh_nve_x_kernel(int n, const int *mask, int groupbit, acc *x0, acc *x1, acc *x2,
                                    const acc *v0, const acc *v1, const acc *v2, acc dtv,
                                    PosType<real> *pos)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !in_group(mask, i, groupbit)) return;
      const acc x = add_rn(x0[i], mul_rn(dtv, v0[i]));
      const acc y = add_rn(x1[i], mul_rn(dtv, v1[i]));
      const acc z = add_rn(x2[i], mul_rn(dtv, v2[i]));
      x0[i] = x;
      x1[i] = y;
      x2[i] = z;
      pos[i].x = static_cast<real>(x);
      pos[i].y = static_cast<real>(y);
      pos[i].z = static_cast<real>(z);
    }

    struct Affine {
      double old_lo[3], old_h_inv[3], new_lo[3], new_h[3];
    };

    // FixNH::remap for an orthogonal box: Domain::x2lamda in the old box, then
    // Domain::lamda2x in the new one (their tilt terms add exact zeros there)
    __global__ void remap_kernel(int n, const int *mask, int groupbit, acc *x0, acc *x1, acc *x2,
                                 Affine a, PosType<real> *pos)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !in_group(mask, i, groupbit)) return;
      acc *xs[3] = {x0, x1, x2};
      acc w[3];
      for (int d = 0; d < 3; ++d) {
        const acc lamda = mul_rn(static_cast<acc>(a.old_h_inv[d]),
                                 add_rn(xs[d][i], -static_cast<acc>(a.old_lo[d])));
        w[d] = add_rn(mul_rn(static_cast<acc>(a.new_h[d]), lamda), static_cast<acc>(a.new_lo[d]));
        xs[d][i] = w[d];
      }
      pos[i].x = static_cast<real>(w[0]);
      pos[i].y = static_cast<real>(w[1]);
      pos[i].z = static_cast<real>(w[2]);
    }

    // ComputeTemp::compute_vector's sums (before mvv2e): m vx vx, m vy vy, m vz vz, m vx vy,
    // m vx vz, m vy vz over the group, in double
    __global__ void kinetic_tensor_kernel(int n, const int *mask, int groupbit, const int *type,
                                          const acc *mass, const acc *rmass, const acc *v0,
                                          const acc *v1, const acc *v2, double *out)
    {
      const int t = threadIdx.x;
      double a[6] = {0, 0, 0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        const double vx = v0[i], vy = v1[i], vz = v2[i];
        a[0] += m * vx * vx;
        a[1] += m * vy * vy;
        a[2] += m * vz * vz;
        a[3] += m * vx * vy;
        a[4] += m * vx * vz;
        a[5] += m * vy * vz;
      }
      block_sum_to(a, out);
    }

  }    // namespace

  void Engine::change_box(const double lo[3], const double hi[3])
  {
    Impl &s = *impl;
    // a periodic edge that falls below 2 x (cutoff + skin) needs the list with explicit
    // images (neighbor/boundary.cu): a list built with minimum images is built again now
    for (int d = 0; d < 3; ++d)
      if (s.periodic(d) && s.img_bits == 0 && hi[d] - lo[d] < 2.0 * s.cutneighmax) s.built = false;
    for (int d = 0; d < 3; ++d) {
      s.lo[d] = lo[d];
      s.hi[d] = hi[d];
    }
    s.box_check = true;     // the rebuild test allows for the box's motion (Neighbor)
    s.grid_stale = true;    // cells laid out again for this box at the next list build
  }

  void Engine::remap_atoms(const double old_lo[3], const double old_h_inv[3],
                           const double new_lo[3], const double new_h[3], int groupbit)
  {
    Impl &s = *impl;
    Affine a;
    for (int d = 0; d < 3; ++d) {
      a.old_lo[d] = old_lo[d];
      a.old_h_inv[d] = old_h_inv[d];
      a.new_lo[d] = new_lo[d];
      a.new_h[d] = new_h[d];
    }
    // owned atoms (LAMMPS's FixNH::remap: the ghosts take their owners' new positions from
    // the next forward exchange or rebuild)
    if (s.nlocal == 0) return;
    remap_kernel<<<blocks(s.nlocal), BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.x[0].get(),
                                              s.x[1].get(), s.x[2].get(), a, s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nh_v_press(int groupbit, const double factor[3])
  {
    Impl &s = *impl;
    if (s.nlocal == 0) return;
    nh_v_press_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.v[0].get(), s.v[1].get(), s.v[2].get(),
        static_cast<acc>(factor[0]), static_cast<acc>(factor[1]), static_cast<acc>(factor[2]));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_v(double dtf, int groupbit)
  {
    Impl &s = *impl;
    if (s.nlocal == 0) return;
    nh_nve_v_kernel<<<blocks(s.nlocal), BLOCK>>>(s.nlocal, s.mask.get(), groupbit, s.type.get(),
                                                 s.mass.get(), s.rmass_ptr(), s.v[0].get(),
                                                 s.v[1].get(), s.v[2].get(), s.f[0].get(),
                                                 s.f[1].get(), s.f[2].get(), static_cast<acc>(dtf));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_x(double dtv, int groupbit)
  {
    Impl &s = *impl;
    if (s.nlocal == 0) return;
    nh_nve_x_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.mask.get(), groupbit, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.v[0].get(),
        s.v[1].get(), s.v[2].get(), static_cast<acc>(dtv), s.pos.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::kinetic_tensor(int groupbit, double t[6])
  {
    Impl &s = *impl;
    s.mv_sum.resize(6);
    s.mv_sum.zero();
    if (s.nlocal > 0) {    // owned atoms (several ranks: then summed over ranks)
      kinetic_tensor_kernel<<<std::min(blocks(s.nlocal), 1024), BLOCK>>>(
          s.nlocal, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.v[0].get(),
          s.v[1].get(), s.v[2].get(), s.mv_sum.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    s.mv_sum.download(t, 6);
    if (s.global_sum) s.global_sum(t, 6);
  }

}    // namespace cuda
}    // namespace mesogpu
