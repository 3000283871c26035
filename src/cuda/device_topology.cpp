/* mesogpu: per-atom topology lists for the device engine; see device_topology.h. */

#include "device_topology.h"

#include "atom.h"
#include "atom_vec.h"
#include "force.h"
#include "lammps.h"
#include "molecule.h"

#include <algorithm>
#include <array>

using namespace LAMMPS_NS;

namespace mesogpu {

namespace {

  // the topology arrays of an atom style or of a molecule template (same names and shapes)
  struct Source {
    int *num_bond = nullptr, **bond_type = nullptr;
    tagint **bond_atom = nullptr;
    int *num_angle = nullptr, **angle_type = nullptr;
    tagint **angle_atom[3] = {nullptr, nullptr, nullptr};
    int *num_dihedral = nullptr, **dihedral_type = nullptr;
    tagint **dihedral_atom[4] = {nullptr, nullptr, nullptr, nullptr};
    int **nspecial = nullptr;
    tagint **special = nullptr;
    template <class T> static Source of(T *a)
    {
      Source s;
      s.num_bond = a->num_bond;
      s.bond_type = a->bond_type;
      s.bond_atom = a->bond_atom;
      s.num_angle = a->num_angle;
      s.angle_type = a->angle_type;
      s.angle_atom[0] = a->angle_atom1;
      s.angle_atom[1] = a->angle_atom2;
      s.angle_atom[2] = a->angle_atom3;
      s.num_dihedral = a->num_dihedral;
      s.dihedral_type = a->dihedral_type;
      s.dihedral_atom[0] = a->dihedral_atom1;
      s.dihedral_atom[1] = a->dihedral_atom2;
      s.dihedral_atom[2] = a->dihedral_atom3;
      s.dihedral_atom[3] = a->dihedral_atom4;
      s.nspecial = a->nspecial;
      s.special = a->special;
      return s;
    }
  };

  // where atom i's topology lives: row `row` of `src`, IDs offset by `offset`; none for an
  // atom of atom_style template outside any molecule
  struct Row {
    const Source *src = nullptr;
    int row = 0;
    tagint offset = 0;
  };

}    // namespace

void build_device_topology(LAMMPS *lmp, const IndexOf &index_of, bool special, bool bonds,
                           bool angles, bool dihedrals, DeviceTopology &t, int rows)
{
  Atom *atom = lmp->atom;
  const int n = atom->nlocal;
  if (rows < n) rows = n;    // lists for every device row; terms from the owned atoms
  const bool newton_bond = lmp->force->newton_bond != 0;
  const bool tmpl = atom->molecular == Atom::TEMPLATE;
  t = DeviceTopology();
  if (atom->molecular == Atom::ATOMIC) return;

  Source own;
  std::vector<Source> mols;
  if (tmpl) {
    for (int m = 0; m < atom->avec->nset; m++) mols.push_back(Source::of(atom->avec->onemols[m]));
  } else {
    own = Source::of(atom);
  }
  auto row_of = [&](int i) {
    Row r;
    if (!tmpl) {
      r.src = &own;
      r.row = i;
    } else if (atom->molindex[i] >= 0) {
      r.src = &mols[atom->molindex[i]];
      r.row = atom->molatom[i];
      r.offset = atom->tag[i] - atom->molatom[i] - 1;    // tagprev of NTopo*Template
    }
    return r;
  };

  // special neighbours (1-2, 1-3, 1-4) as local indices
  if (special) {
    int ms = 0;
    for (int i = 0; i < n; i++) {
      const Row r = row_of(i);
      if (r.src && r.src->nspecial) ms = std::max(ms, r.src->nspecial[r.row][2]);
    }
    if (ms > 0) {
      t.maxspecial = ms;
      t.nspecial.assign(3 * (size_t) rows, 0);
      t.special.assign((size_t) rows * ms, -1);
      for (int i = 0; i < n; i++) {
        const Row r = row_of(i);
        if (!r.src || !r.src->nspecial) continue;
        for (int k = 0; k < 3; k++) t.nspecial[3 * (size_t) i + k] = r.src->nspecial[r.row][k];
        for (int s = 0; s < r.src->nspecial[r.row][2]; s++)
          t.special[(size_t) i * ms + s] =
              index_of(r.src->special[r.row][s] + r.offset, "special list", i);
      }
    }
  }

  // bonds of each atom in both directions (with newton_bond each bond is stored once)
  // (two passes over flat arrays, count then fill: no container per atom, which at 10^8
  // atoms costs more than the copy itself; entries keep the order of one pass)
  if (bonds) {
    std::vector<std::array<int, 3>> terms;    // i, j, type
    for (int i = 0; i < n; i++) {
      const Row r = row_of(i);
      if (!r.src || !r.src->num_bond) continue;
      for (int k = 0; k < r.src->num_bond[r.row]; k++) {
        const int type = r.src->bond_type[r.row][k];
        if (type <= 0) continue;    // bond turned off
        terms.push_back({i, index_of(r.src->bond_atom[r.row][k] + r.offset, "bond", i), type});
      }
    }
    std::vector<int> &nb = t.nbond;
    nb.assign(rows, 0);
    for (const auto &e : terms) {
      nb[e[0]]++;
      if (newton_bond) nb[e[1]]++;
    }
    int maxbond = 0;
    for (int i = 0; i < rows; i++) maxbond = std::max(maxbond, nb[i]);
    t.maxbond = maxbond;
    t.bond_partner.assign((size_t) rows * maxbond, 0);
    t.bond_type.assign((size_t) rows * maxbond, 0);
    std::fill(nb.begin(), nb.end(), 0);
    for (const auto &e : terms) {
      const size_t a = (size_t) e[0] * maxbond + nb[e[0]]++;
      t.bond_partner[a] = e[1];
      t.bond_type[a] = e[2];
      if (newton_bond) {
        const size_t b = (size_t) e[1] * maxbond + nb[e[1]]++;
        t.bond_partner[b] = e[0];
        t.bond_type[b] = e[2];
      }
    }
  }

  // angles and dihedrals: every atom of each one lists it (stored once per term with
  // newton_bond, on each of its atoms without)
  auto gather = [&](int nper, auto count_of, auto type_of, auto atom_of, int &maxn,
                    std::vector<int> &cnt, std::vector<int> &atoms, std::vector<int> &types) {
    std::vector<std::array<int, 6>> terms;    // atoms (nper), type, owner i
    for (int i = 0; i < n; i++) {
      const Row r = row_of(i);
      if (!r.src || !count_of(*r.src)) continue;
      for (int k = 0; k < count_of(*r.src)[r.row]; k++) {
        const int ty = type_of(*r.src)[r.row][k];
        if (ty <= 0) continue;
        std::array<int, 6> e{};
        for (int a = 0; a < nper; a++)
          e[a] = index_of(atom_of(*r.src, a)[r.row][k] + r.offset, "angle or dihedral", i);
        e[4] = ty;
        e[5] = i;
        terms.push_back(e);
      }
    }
    // each atom of a term lists it (newton_bond: stored once), else its owner does
    auto for_each_lister = [&](const std::array<int, 6> &e, auto fn) {
      if (newton_bond)
        for (int a = 0; a < nper; a++) fn(e[a]);
      else
        fn(e[5]);
    };
    cnt.assign(rows, 0);
    for (const auto &e : terms) for_each_lister(e, [&](int i) { cnt[i]++; });
    maxn = 0;
    for (int i = 0; i < rows; i++) maxn = std::max(maxn, cnt[i]);
    atoms.assign((size_t) rows * maxn * nper, 0);
    types.assign((size_t) rows * maxn, 0);
    std::fill(cnt.begin(), cnt.end(), 0);
    for (const auto &e : terms)
      for_each_lister(e, [&](int i) {
        const size_t slot = (size_t) i * maxn + cnt[i]++;
        for (int a = 0; a < nper; a++) atoms[slot * nper + a] = e[a];
        types[slot] = e[4];
      });
  };
  if (angles)
    gather(
        3, [](const Source &s) { return s.num_angle; },
        [](const Source &s) { return s.angle_type; },
        [](const Source &s, int a) { return s.angle_atom[a]; }, t.maxangle, t.nangle, t.angle_atoms,
        t.angle_type);
  if (dihedrals)
    gather(
        4, [](const Source &s) { return s.num_dihedral; },
        [](const Source &s) { return s.dihedral_type; },
        [](const Source &s, int a) { return s.dihedral_atom[a]; }, t.maxdihedral, t.ndihedral,
        t.dihedral_atoms, t.dihedral_type);
}

}    // namespace mesogpu
