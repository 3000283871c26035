/* mesogpu: the bonded kernel templates (internal to cuda/): bonds, angles and dihedrals,
 * one thread per atom over the terms it takes part in (each term evaluated by each of
 * its atoms' threads, no atomics; each keeps its own atom's force and its share of the
 * energy and virial). Every bonded style is an evaluator run by one of them.
 *
 * Evaluator concepts (t: the term's type; false: outside the style's range, an error
 * ERR_BONDED is recorded and the term's describe_error names it):
 *   bond:      eval(t, rsq, fbond, e)           F/r and E
 *   angle:     eval(t, d1, d2, f1, f3, e)       d1 = x1 - x2, d2 = x3 - x2; forces on 1, 3
 *   dihedral:  eval(t, vb1, vb2, vb3, g1..g4, e)  vb1 = x1 - x2, vb2 = x3 - x2,
 *                                              vb3 = x4 - x3; forces on the four atoms */
#ifndef MESOGPU_CUDA_FORCES_BONDED_KERNELS_CUH
#define MESOGPU_CUDA_FORCES_BONDED_KERNELS_CUH

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {
  namespace detail {

    // bonded forces one thread per atom over its own bond list (each bond twice, no atomics)
    template <class Bond, bool EV>
    __global__ void bond_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nbond,
                                       const int *partner, const int *btype, Bond bond,
                                       Vec3Out fout, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      acc fx, fy, fz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      const int m = nbond[i];
      const int *pk = partner + i, *tk = btype + i;    // column-major: entry k at [k n + i]
      for (int k = 0; k < m; ++k, pk += n, tk += n) {
        const int j = *pk;
        const int t = *tk;
        const PosType<real> pj = pos[j];
        const real dx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
        const real dy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
        const real dz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
        const real rsq = dx * dx + dy * dy + dz * dz;
        real fbond, en;
        if (!bond.eval(t, rsq, fbond, en)) {
          if (atomicOr(&err->bits, ERR_BONDED) == 0) {
            err->i = i;
            err->j = j;
            err->rsq = rsq;
            err->type = t;
            err->group = 1;
          }
        }
        fx += dx * fbond;
        fy += dy * fbond;
        fz += dz * fbond;
        if (EV) {
          e += acc(0.5) * en;
          add_half_pair_virial(v, dx, dy, dz, fbond);
        }
      }
      fout.store(i, fx, fy, fz);
      if (EV) ev.store(i, n, e, v);
    }

    // angles: one thread per atom over the angles it takes part in; the thread evaluates
    // the whole angle and keeps its own atom's force, a third of the energy and virial
    template <class Angle, bool EV>
    __global__ void angle_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                        const int *nangle, const int4 *angle, Angle angle_eval,
                                        Vec3Out fout, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx, fy, fz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      const int m = nangle[i];
      const int4 *ak = angle + i;
      for (int k = 0; k < m; ++k, ak += n) {
        const int4 a = *ak;    // atoms x, y, z; type w
        const PosType<real> p1 = pos[a.x], p2 = pos[a.y], p3 = pos[a.z];
        const real d1[3] = {min_image(p1.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                            min_image(p1.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                            min_image(p1.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real d2[3] = {min_image(p3.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                            min_image(p3.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                            min_image(p3.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        real fa[3], fc[3], en;
        if (!angle_eval.eval(a.w, d1, d2, fa, fc, en) && atomicOr(&err->bits, ERR_BONDED) == 0) {
          err->i = a.x;
          err->j = a.z;
          err->rsq = 0;
          err->type = a.w;
          err->group = 2;
        }
        real mine[3];
        for (int d = 0; d < 3; ++d)
          mine[d] = (i == a.x) ? fa[d] : (i == a.z) ? fc[d] : -fa[d] - fc[d];
        fx += mine[0];
        fy += mine[1];
        fz += mine[2];
        if (EV) {
          const acc third = acc(1) / acc(3);
          e += third * en;
          v[0] += third * (d1[0] * fa[0] + d2[0] * fc[0]);
          v[1] += third * (d1[1] * fa[1] + d2[1] * fc[1]);
          v[2] += third * (d1[2] * fa[2] + d2[2] * fc[2]);
          v[3] += third * (d1[0] * fa[1] + d2[0] * fc[1]);
          v[4] += third * (d1[0] * fa[2] + d2[0] * fc[2]);
          v[5] += third * (d1[1] * fa[2] + d2[1] * fc[2]);
        }
      }
      fout.store(i, fx, fy, fz);
      if (EV) ev.store(i, n, e, v);
    }

    // dihedrals the same way: a quarter of the energy and virial per atom
    template <class Dihedral, bool EV>
    __global__ void dihedral_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                           const int *ndihedral, const int4 *atoms,
                                           const int *dtype, Dihedral dihedral, Vec3Out fout,
                                           PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx, fy, fz, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      fout.start(i, fx, fy, fz);
      const int m = ndihedral[i];
      const int4 *ak = atoms + i;
      const int *tk = dtype + i;
      for (int k = 0; k < m; ++k, ak += n, tk += n) {
        const int4 a = *ak;
        const int t = *tk;
        const PosType<real> p1 = pos[a.x], p2 = pos[a.y], p3 = pos[a.z], p4 = pos[a.w];
        const real vb1[3] = {min_image(p1.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p1.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p1.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real vb2[3] = {min_image(p3.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p3.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p3.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real vb3[3] = {min_image(p4.x - p3.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p4.y - p3.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p4.z - p3.z, box.prd_r[2], box.inv_prd_r[2])};
        real g1[3], g2[3], g3[3], g4[3], en;
        if (!dihedral.eval(t, vb1, vb2, vb3, g1, g2, g3, g4, en) &&
            atomicOr(&err->bits, ERR_BONDED) == 0) {
          err->i = a.x;
          err->j = a.w;
          err->rsq = 0;
          err->type = t;
          err->group = 3;
        }
        const real *mine = (i == a.x) ? g1 : (i == a.y) ? g2 : (i == a.z) ? g3 : g4;
        fx += mine[0];
        fy += mine[1];
        fz += mine[2];
        if (EV) {
          const acc quarter = acc(0.25);
          e += quarter * en;
          v[0] += quarter * (vb1[0] * g1[0] + vb2[0] * g3[0] + (vb3[0] + vb2[0]) * g4[0]);
          v[1] += quarter * (vb1[1] * g1[1] + vb2[1] * g3[1] + (vb3[1] + vb2[1]) * g4[1]);
          v[2] += quarter * (vb1[2] * g1[2] + vb2[2] * g3[2] + (vb3[2] + vb2[2]) * g4[2]);
          v[3] += quarter * (vb1[0] * g1[1] + vb2[0] * g3[1] + (vb3[0] + vb2[0]) * g4[1]);
          v[4] += quarter * (vb1[0] * g1[2] + vb2[0] * g3[2] + (vb3[0] + vb2[0]) * g4[2]);
          v[5] += quarter * (vb1[1] * g1[2] + vb2[1] * g3[2] + (vb3[1] + vb2[1]) * g4[2]);
        }
      }
      fout.store(i, fx, fy, fz);
      if (EV) ev.store(i, n, e, v);
    }

    template <class Bond>
    void launch_bond_kernel(Engine::Impl &s, const ForceStep &c, const Bond &b)
    {
      auto kernel = c.ev ? bond_forces_kernel<Bond, true> : bond_forces_kernel<Bond, false>;
      kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nbond.get(), s.bond_partner.get(),
                              s.bond_type.get(), b, c.force, c.ev_out, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    template <class Angle>
    void launch_angle_kernel(Engine::Impl &s, const ForceStep &c, const Angle &a)
    {
      auto kernel = c.ev ? angle_forces_kernel<Angle, true> : angle_forces_kernel<Angle, false>;
      kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nangle.get(), s.angle_atoms.get(), a,
                              c.force, c.ev_out, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    template <class Dihedral>
    void launch_dihedral_kernel(Engine::Impl &s, const ForceStep &c, const Dihedral &d)
    {
      auto kernel =
          c.ev ? dihedral_forces_kernel<Dihedral, true> : dihedral_forces_kernel<Dihedral, false>;
      kernel<<<c.nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.ndihedral.get(), s.dihedral_atoms.get(),
                              s.dihedral_type.get(), d, c.force, c.ev_out, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

    // a bonded term over the engine's bond, angle or dihedral lists: active while the run
    // has terms of its kind; Dev is made by make_dev() at each launch
    template <ForceGroup G> class BondedTerm : public ForceTerm {
     public:
      BondedTerm() : ForceTerm(G) {}
      bool active(const Engine::Impl &s) const override
      {
        return G == ForceGroup::bond    ? s.maxbond > 0
               : G == ForceGroup::angle ? s.maxangle > 0
                                        : s.maxdihedral > 0;
      }
      // an error record of this term's kind (the kernels set the group)
      static bool owns(const ErrorRecord &e)
      {
        return (e.bits & ERR_BONDED) && e.group == static_cast<int>(G);
      }
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
