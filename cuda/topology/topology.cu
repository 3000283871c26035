/* mesogpu: the bonded topology on the device: per atom, the bonds (partners, both
 * directions), angles and dihedrals it takes part in, column-major (entry k of atom i
 * at [k n + i]); registered with the per-atom registry so sorts carry them. On several
 * ranks they hold device rows, made again after atoms moved (topology_migrate.cu). */

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {

  void Engine::upload_bonds(const int *nbond, const int *partner, const int *btype, int maxbond)
  {
    Impl &s = *impl;
    s.per_atom.add(
        "bonds",
        [&s](const Permutation &q) {
          if (s.nbond.size()) permute_rows(s.nbond, 1, q);
          if (s.maxbond > 0) {
            permute_rows_remap(s.bond_partner, s.maxbond, q);
            permute_rows(s.bond_type, s.maxbond, q);
          }
        },
        remade_later());
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
    s.per_atom.add(
        "angles",
        [&s](const Permutation &q) {
          if (s.nangle.size()) permute_rows(s.nangle, 1, q);
          if (s.maxangle > 0) permute_int4(s.angle_atoms, s.maxangle, false, q);
        },
        remade_later());
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
    s.per_atom.add(
        "dihedrals",
        [&s](const Permutation &q) {
          if (s.ndihedral.size()) permute_rows(s.ndihedral, 1, q);
          if (s.maxdihedral > 0) {
            permute_int4(s.dihedral_atoms, s.maxdihedral, true, q);
            permute_rows(s.dihedral_type, s.maxdihedral, q);
          }
        },
        remade_later());
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

}    // namespace cuda
}    // namespace mesogpu
