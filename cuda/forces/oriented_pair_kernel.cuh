/* mesogpu: the oriented pair-kernel template (internal to cuda/): forces and torques of
 * particles with an orientation: a unit vector n (pair soft/aniso, s.orient_packed) or
 * the quaternion of a single-site rigid body (pair ssd, gb, coul/dipole/body,
 * s.quat_packed). One thread per atom over its full list; the thread keeps its own
 * atom's force and torque, half of each pair's energy and virial.
 *
 * Evaluator concept (a small struct passed by value; it holds its device pointers):
 *   cutsq                     per type pair (0 where the style does not act)
 *   Site                      what the evaluator reads of one atom (its orientation, as
 *                             the physics wants it: n, a rotation matrix, a lab dipole;
 *                             charges), built once per atom i and once per pair for j
 *   site(i, type)             the Site of device atom i of type `type`
 *   eval(ij, which, rij, si, sj, e, fj, ti)
 *                             energy, force on j (F_j) and torque on i (lab frame) for
 *                             rij = x_j - x_i and special level `which` (0: none, 1..3:
 *                             1-2, 1-3, 1-4), whose factors the evaluator applies itself
 *                             (one factor, or separate van der Waals and Coulomb parts);
 *                             false: no interaction.
 * The force on i is -F_j (the thread adds it); the torque on j is j's own thread's.
 * Optional: min_blocks, blocks of BLOCK threads per SM the kernel without energies must
 * fit (__launch_bounds__; caps its registers: soft/aniso keeps the 64 it had before
 * this template took quaternions). */
#ifndef MESOGPU_CUDA_FORCES_ORIENTED_PAIR_KERNEL_CUH
#define MESOGPU_CUDA_FORCES_ORIENTED_PAIR_KERNEL_CUH

#include "core/engine_impl.cuh"

#include <type_traits>

namespace mesogpu {
namespace cuda {
  namespace detail {

    // the quaternion (w, x, y, z) of device atom i as the physics headers take it (all
    // zero: no body)
    __device__ __forceinline__ void load_quat(const real4 *quat, int i, real q[4])
    {
      const real4 v = quat[i];    // packed as (w, x, y, z) in (x, y, z, w)
      q[0] = v.x;
      q[1] = v.y;
      q[2] = v.z;
      q[3] = v.w;
    }

    // Eval::min_blocks if the evaluator names it, else 1 (no register cap)
    template <class E, class = void> struct MinBlocks {
      static constexpr int value = 1;
    };
    template <class E> struct MinBlocks<E, std::void_t<decltype(E::min_blocks)>> {
      static constexpr int value = E::min_blocks;
    };

    // List: the list's view (neighbor/list_view.cuh), 32-bit or 16-bit cell entries
    template <class Eval, class List, bool EV, bool Images = false>
    __global__ void __launch_bounds__(BLOCK, EV ? 1 : MinBlocks<Eval>::value)
        oriented_forces_kernel(int n, const PosType<real> *pos, BoxD box, List list, Eval ev,
                               int ntp1, Vec3Out fout, Vec3Out tout, PerAtomEV ev_out)
    {
      static_assert(!Images || List::allows_images, "explicit images need 32-bit entries");
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const typename Eval::Site si = ev.site(i, pi.type);
      acc fx, fy, fz, tx, ty, tz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      tout.start(i, tx, ty, tz);
      const int m = list.nnbr[i];
      // entry k at [k n + i]: a 64-bit pointer step, no int product
      auto cur = list.cursor(i, i);
      for (int k = 0; k < m; ++k, list.advance(cur, n)) {
        int which;
        int j = list.neighbor(cur, which);
        const int img = take_image<Images>(j, box);
        const PosType<real> pj = pos[j];
        const Delta d = pair_delta<Images>(pi, pj, img, box);    // x_i - x_j
        const real dx = d.x, dy = d.y, dz = d.z;
        const real rsq = dx * dx + dy * dy + dz * dz;
        const int ij = pi.type * ntp1 + pj.type;
        if (rsq >= ev.cutsq[ij]) continue;
        const typename Eval::Site sj = ev.site(j, pj.type);
        const real rij[3] = {-dx, -dy, -dz};    // x_j - x_i
        real en, fj[3], ti[3];
        if (!ev.eval(ij, which, rij, si, sj, en, fj, ti)) continue;
        // force on i is -F_j
        fx -= fj[0];
        fy -= fj[1];
        fz -= fj[2];
        tx += ti[0];
        ty += ti[1];
        tz += ti[2];
        if (EV) {
          e += acc(0.5) * en;
          const acc h = acc(0.5);    // del (x) F_i, del = x_i - x_j, F_i = -F_j
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
      if (EV) ev_out.store(i, n, e, v);
    }

    template <class Eval>
    void launch_oriented_pair_kernel(Engine::Impl &s, const ForceStep &c, const Eval &ev)
    {
      if (c.box.img_bits) {    // small box: explicit images
        auto kernel = c.ev ? oriented_forces_kernel<Eval, WideList, true, true>
                           : oriented_forces_kernel<Eval, WideList, false, true>;
        kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, WideList{s.nnbr.get(), s.nbr.get()}, ev,
                                s.ntp1(), c.force, c.torque, c.ev_out);
        MESOGPU_CUDA_LAUNCH_CHECK();
        return;
      }
      s.with_list([&](const auto &list) {
        using List = std::decay_t<decltype(list)>;
        auto kernel = c.ev ? oriented_forces_kernel<Eval, List, true>
                           : oriented_forces_kernel<Eval, List, false>;
        kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, list, ev, s.ntp1(), c.force, c.torque,
                                c.ev_out);
        MESOGPU_CUDA_LAUNCH_CHECK();
      });
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
