/* mesogpu: bond, angle and dihedral forces (see engine.h). */

#include "core/engine_impl.cuh"
#include <stdexcept>
#include <type_traits>

namespace mesogpu {
namespace cuda {

  namespace {

    struct BondHarmonicDev {
      const physics::BondHarmonicParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_harmonic<real>(rsq, p[t], fbond, e);
      }
    };
    struct BondFENEDev {
      const physics::BondFENEParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_fene<real>(rsq, p[t], fbond, e);
      }
    };

    // bonded forces one thread per atom over its own bond list (each bond twice, no atomics)
    template <class Bond, bool EV>
    __global__ void bond_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nbond,
                                       const int *partner, const int *btype, Bond bond, acc *f0,
                                       acc *f1, acc *f2, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
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
          if (atomicOr(&err->bits, ERR_BAD_FENE) == 0) {
            err->i = i;
            err->j = j;
            err->rsq = rsq;
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
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

    // angles: one thread per atom over the angles it takes part in; the thread evaluates
    // the whole angle and keeps its own atom's force, a third of the energy and virial
    template <physics::AngleKind Kind, bool EV>
    __global__ void angle_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                        const int *nangle, const int4 *angle,
                                        const physics::AngleParams<real> *params, acc *f0, acc *f1,
                                        acc *f2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
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
        physics::angle_force<Kind, real>(d1, d2, params[a.w], fa, fc, en);
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
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

    // dihedrals the same way: a quarter of the energy and virial per atom
    template <bool EV>
    __global__ void dihedral_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                           const int *ndihedral, const int4 *atoms,
                                           const int *dtype,
                                           const physics::DihedralParams<real> *params, acc *f0,
                                           acc *f1, acc *f2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
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
        physics::dihedral_force<real>(vb1, vb2, vb3, params[t], g1, g2, g3, g4, en);
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
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

  }    // namespace

  void Engine::upload_bonds(const int *nbond, const int *partner, const int *btype, int maxbond)
  {
    Impl &s = *impl;
    s.per_atom.add("bonds", [&s](const Permutation &q) {
      if (s.nbond.size()) permute_rows(s.nbond, 1, q);
      if (s.maxbond > 0) {
        permute_rows_remap(s.bond_partner, s.maxbond, q);
        permute_rows(s.bond_type, s.maxbond, q);
      }
    });
    AllocLabel label("the bond lists");
    s.maxbond = maxbond;
    s.nbond.upload(nbond, s.n);
    // column-major on the device (partner[k * n + i]) so a warp's loads coalesce
    std::vector<int> p((size_t) maxbond * s.n), t((size_t) maxbond * s.n);
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < maxbond; ++k) {
        p[(size_t) k * s.n + i] = partner[(size_t) i * maxbond + k];
        t[(size_t) k * s.n + i] = btype[(size_t) i * maxbond + k];
      }
    s.bond_partner.upload(p);
    s.bond_type.upload(t);
  }

  void Engine::upload_angles(const int *nangle, const int *atoms3, const int *type, int maxangle)
  {
    Impl &s = *impl;
    s.per_atom.add("angles", [&s](const Permutation &q) {
      if (s.nangle.size()) permute_rows(s.nangle, 1, q);
      if (s.maxangle > 0) permute_int4(s.angle_atoms, s.maxangle, false, q);
    });
    AllocLabel label("the angle lists");
    s.maxangle = maxangle;
    s.nangle.upload(nangle, s.n);
    std::vector<int4> a((size_t) maxangle * s.n, make_int4(0, 0, 0, 0));
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < nangle[i]; ++k) {
        const int *q = atoms3 + 3 * ((size_t) i * maxangle + k);
        a[(size_t) k * s.n + i] = make_int4(q[0], q[1], q[2], type[(size_t) i * maxangle + k]);
      }
    s.angle_atoms.upload(a);
  }

  void Engine::upload_dihedrals(const int *ndihedral, const int *atoms4, const int *type,
                                int maxdihedral)
  {
    Impl &s = *impl;
    s.per_atom.add("dihedrals", [&s](const Permutation &q) {
      if (s.ndihedral.size()) permute_rows(s.ndihedral, 1, q);
      if (s.maxdihedral > 0) {
        permute_int4(s.dihedral_atoms, s.maxdihedral, true, q);
        permute_rows(s.dihedral_type, s.maxdihedral, q);
      }
    });
    AllocLabel label("the dihedral lists");
    s.maxdihedral = maxdihedral;
    s.ndihedral.upload(ndihedral, s.n);
    std::vector<int4> a((size_t) maxdihedral * s.n, make_int4(0, 0, 0, 0));
    std::vector<int> t((size_t) maxdihedral * s.n, 0);
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < ndihedral[i]; ++k) {
        const int *q = atoms4 + 4 * ((size_t) i * maxdihedral + k);
        a[(size_t) k * s.n + i] = make_int4(q[0], q[1], q[2], q[3]);
        t[(size_t) k * s.n + i] = type[(size_t) i * maxdihedral + k];
      }
    s.dihedral_atoms.upload(a);
    s.dihedral_type.upload(t);
  }

  void Engine::set_angle(const HostAngle &p)
  {
    std::vector<physics::AngleParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.theta0[t]),
              static_cast<real>(std::cos(p.theta0[t]))};
    impl->angle_params.upload(h);
    impl->angle_kind = p.kind;
  }

  void Engine::set_dihedral(const HostDihedral &p)
  {
    std::vector<physics::DihedralParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.cos_shift[t]),
              static_cast<real>(p.sin_shift[t]), p.multiplicity[t]};
    impl->dihedral_params.upload(h);
    impl->have_dihedral = true;
  }

  void Engine::set_bond_harmonic(const HostBondHarmonic &p)
  {
    std::vector<physics::BondHarmonicParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t])};
    impl->bond_harmonic.upload(h);
    impl->bond_kind = Impl::BondKind::harmonic;
  }

  void Engine::set_bond_fene(const HostBondFENE &p)
  {
    std::vector<physics::BondFENEParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t]),
              static_cast<real>(p.epsilon[t]), static_cast<real>(p.sigma[t])};
    impl->bond_fene.upload(h);
    impl->bond_kind = Impl::BondKind::fene;
  }

  void Engine::Impl::launch_bonded_forces(const ForceLaunch &c, bool bonds, bool angles,
                                          bool dihedrals)
  {
    Impl &s = *this;
    const int nb = c.nb;
    auto bond_launch = [&](auto bond) {
      using Bond = decltype(bond);
      auto kernel = c.ev ? bond_forces_kernel<Bond, true> : bond_forces_kernel<Bond, false>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nbond.get(), s.bond_partner.get(),
                            s.bond_type.get(), bond, s.f[0].get(), s.f[1].get(), s.f[2].get(),
                            c.ev_bond, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    };
    if (bonds && s.bond_kind == BondKind::harmonic)
      bond_launch(BondHarmonicDev{s.bond_harmonic.get()});
    if (bonds && s.bond_kind == BondKind::fene) bond_launch(BondFENEDev{s.bond_fene.get()});

    if (angles) {
      auto angle_launch = [&](auto kind_tag) {
        constexpr physics::AngleKind K = decltype(kind_tag)::value;
        auto kernel = c.ev ? angle_forces_kernel<K, true> : angle_forces_kernel<K, false>;
        kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.nangle.get(), s.angle_atoms.get(),
                              s.angle_params.get(), s.f[0].get(), s.f[1].get(), s.f[2].get(),
                              c.ev_angle);
        MESOGPU_CUDA_LAUNCH_CHECK();
      };
      if (s.angle_kind == static_cast<int>(physics::AngleKind::harmonic))
        angle_launch(std::integral_constant<physics::AngleKind, physics::AngleKind::harmonic>{});
      else
        angle_launch(
            std::integral_constant<physics::AngleKind, physics::AngleKind::cosine_squared>{});
    }
    if (dihedrals) {
      auto kernel = c.ev ? dihedral_forces_kernel<true> : dihedral_forces_kernel<false>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), c.box, s.ndihedral.get(), s.dihedral_atoms.get(),
                            s.dihedral_type.get(), s.dihedral_params.get(), s.f[0].get(),
                            s.f[1].get(), s.f[2].get(), c.ev_dihedral);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
  }

}    // namespace cuda
}    // namespace mesogpu
