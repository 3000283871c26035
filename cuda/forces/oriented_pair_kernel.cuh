/* mesogpu: the oriented pair-kernel template (internal to cuda/): forces and torques of
 * particles with a unit orientation n (pair soft/aniso). One thread per atom over its
 * full list; the thread keeps its own atom's force and torque (tau_i = n_i x g_i), half
 * of each pair's energy and virial.
 *
 * Evaluator concept: cutsq per type pair (0 where the style does not act), and
 *   eval(ij, rij, ni, nj, e, fj, gi, gj): energy, force on j (F_j) and the gorques
 *   g = -dE/dn of both atoms for rij = x_j - x_i and unit orientations ni, nj; false:
 *   no interaction. The kernel applies the special factor (torque on i: n_i x g_i). */
#ifndef MESOGPU_CUDA_FORCES_ORIENTED_PAIR_KERNEL_CUH
#define MESOGPU_CUDA_FORCES_ORIENTED_PAIR_KERNEL_CUH

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {
  namespace detail {

    template <class Aniso, bool EV, bool Images = false>
    __global__ void aniso_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                        const int *nbr, Aniso aniso, int ntp1, Special4 special_lj,
                                        const real4 *orient, Vec3Out fout, Vec3Out tout,
                                        PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const real4 oi = orient[i];
      const real ni[3] = {oi.x, oi.y, oi.z};
      acc fx, fy, fz, tx, ty, tz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      tout.start(i, tx, ty, tz);
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
      fout.store(i, fx, fy, fz);
      tout.store(i, tx, ty, tz);
      if (EV) ev.store(i, e, v);
    }

    template <class Aniso>
    void launch_oriented_pair_kernel(Engine::Impl &s, const ForceStep &c, const Aniso &aniso)
    {
      auto kernel = c.ev ? aniso_forces_kernel<Aniso, true> : aniso_forces_kernel<Aniso, false>;
      if (c.box.img_bits)    // small box: explicit images
        kernel =
            c.ev ? aniso_forces_kernel<Aniso, true, true> : aniso_forces_kernel<Aniso, false, true>;
      kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nnbr.get(), s.nbr.get(), aniso, s.ntp1(),
                              c.special_lj, s.orient_packed.get(), c.force, c.torque, c.ev_out);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
