/* mesogpu: LAMMPS's topology of the owned atoms as rows of atom IDs; see owned_topology.h. */

#include "owned_topology.h"

#include "atom.h"
#include "atom_vec.h"
#include "force.h"
#include "lammps.h"
#include "topology/closest_row.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace LAMMPS_NS;
using mesogpu::cuda::OwnedTopologyLayout;

namespace mesogpu {

OwnedTopologyLayout owned_topology_layout(LAMMPS *lmp, bool bonds, bool angles, bool dihedrals)
{
  Atom *atom = lmp->atom;
  AtomVec *avec = atom->avec;
  OwnedTopologyLayout l;
  l.bond_per_atom = avec->bonds_allow ? atom->bond_per_atom : 0;
  l.angle_per_atom = avec->angles_allow ? atom->angle_per_atom : 0;
  l.dihedral_per_atom = avec->dihedrals_allow ? atom->dihedral_per_atom : 0;
  l.improper_per_atom = avec->impropers_allow ? atom->improper_per_atom : 0;
  l.maxspecial = atom->nspecial ? atom->maxspecial : 0;
  l.bonds = bonds && l.bond_per_atom > 0;
  l.angles = angles && l.angle_per_atom > 0;
  l.dihedrals = dihedrals && l.dihedral_per_atom > 0;
  l.newton_bond = lmp->force->newton_bond != 0;
  l.finish();
  return l;
}

namespace {
  // a term kind's place in a row and LAMMPS's arrays of it (atoms: nper of them)
  struct Terms {
    int per_atom, off_num, off_type, off_atom, nper;
    int *num;
    int **type;
    tagint **atom[4];
  };
  std::array<Terms, 4> terms_of(Atom *atom, const OwnedTopologyLayout &l)
  {
    using L = OwnedTopologyLayout;
    return {
        {{l.bond_per_atom,
          L::NUM_BOND,
          l.bond_type,
          l.bond_atom,
          1,
          atom->num_bond,
          atom->bond_type,
          {atom->bond_atom, nullptr, nullptr, nullptr}},
         {l.angle_per_atom,
          L::NUM_ANGLE,
          l.angle_type,
          l.angle_atom,
          3,
          atom->num_angle,
          atom->angle_type,
          {atom->angle_atom1, atom->angle_atom2, atom->angle_atom3, nullptr}},
         {l.dihedral_per_atom,
          L::NUM_DIHEDRAL,
          l.dihedral_type,
          l.dihedral_atom,
          4,
          atom->num_dihedral,
          atom->dihedral_type,
          {atom->dihedral_atom1, atom->dihedral_atom2, atom->dihedral_atom3, atom->dihedral_atom4}},
         {l.improper_per_atom,
          L::NUM_IMPROPER,
          l.improper_type,
          l.improper_atom,
          4,
          atom->num_improper,
          atom->improper_type,
          {atom->improper_atom1, atom->improper_atom2, atom->improper_atom3,
           atom->improper_atom4}}}};
  }
}    // namespace

void pack_owned_topology(LAMMPS *lmp, const OwnedTopologyLayout &l, std::vector<int> &rows)
{
  Atom *atom = lmp->atom;
  const int n = atom->nlocal, w = l.width;
  rows.assign((size_t) n * w, 0);
  const auto terms = terms_of(atom, l);
  for (int i = 0; i < n; i++) {
    int *row = rows.data() + (size_t) i * w;
    if (atom->molecule) row[OwnedTopologyLayout::MOLECULE] = static_cast<int>(atom->molecule[i]);
    for (const Terms &t : terms) {
      if (t.per_atom == 0 || !t.num) continue;
      const int count = std::min(t.num[i], t.per_atom);
      row[t.off_num] = count;
      for (int k = 0; k < count; k++) {
        row[t.off_type + k] = t.type[i][k];
        for (int a = 0; a < t.nper; a++)
          row[t.off_atom + t.nper * k + a] = static_cast<int>(t.atom[a][i][k]);
      }
    }
    if (l.maxspecial > 0) {
      for (int c = 0; c < 3; c++) row[OwnedTopologyLayout::NSPECIAL + c] = atom->nspecial[i][c];
      const int count = std::min(atom->nspecial[i][2], l.maxspecial);
      for (int s = 0; s < count; s++) row[l.special + s] = static_cast<int>(atom->special[i][s]);
    }
  }
}

std::string unpack_owned_topology(LAMMPS *lmp, const OwnedTopologyLayout &l, const int *rows)
{
  Atom *atom = lmp->atom;
  const int n = atom->nlocal, w = l.width;
  const auto terms = terms_of(atom, l);
  for (int i = 0; i < n; i++) {
    const int *row = rows + (size_t) i * w;
    if (atom->molecule) atom->molecule[i] = row[OwnedTopologyLayout::MOLECULE];
    for (const Terms &t : terms) {
      // an atom style's counts are always set: zero where the rows hold no such terms
      if (!t.num) continue;
      const int count = t.per_atom > 0 ? row[t.off_num] : 0;
      if (count < 0 || count > t.per_atom)
        return "atom " + std::to_string(atom->tag[i]) + " has " + std::to_string(count) +
               " terms of a kind with room for " + std::to_string(t.per_atom);
      t.num[i] = count;
      for (int k = 0; k < count; k++) {
        t.type[i][k] = row[t.off_type + k];
        for (int a = 0; a < t.nper; a++) t.atom[a][i][k] = row[t.off_atom + t.nper * k + a];
      }
    }
    if (atom->nspecial) {
      const int count = l.maxspecial > 0 ? row[OwnedTopologyLayout::NSPECIAL + 2] : 0;
      if (count < 0 || count > atom->maxspecial)
        return "atom " + std::to_string(atom->tag[i]) + " has " + std::to_string(count) +
               " special neighbours, more than " + std::to_string(atom->maxspecial);
      for (int c = 0; c < 3; c++)
        atom->nspecial[i][c] = l.maxspecial > 0 ? row[OwnedTopologyLayout::NSPECIAL + c] : 0;
      for (int s = 0; s < count; s++) atom->special[i][s] = row[l.special + s];
    }
  }
  return "";
}

std::string resolve_owned_topology(const OwnedTopologyLayout &l, const int *rows, int nlocal, int n,
                                   const int *tag, const double *x, DeviceTopology &t)
{
  t = DeviceTopology();
  const int w = l.width;
  // every row's tag with its row, stably sorted (images of one atom by row)
  const topology::HostRows index(tag, x, n);
  auto find = [&](int id, int i) { return index.closest(id, i); };
  std::string error;

  // special neighbours of the owned rows
  if (l.maxspecial > 0) {
    int ms = 0;
    for (int i = 0; i < nlocal; i++)
      ms = std::max(ms, rows[(size_t) i * w + OwnedTopologyLayout::NSPECIAL + 2]);
    if (ms > 0) {
      t.maxspecial = ms;
      t.nspecial.assign(3 * (size_t) n, 0);
      t.special.assign((size_t) n * ms, -1);
      for (int i = 0; i < nlocal; i++) {
        const int *row = rows + (size_t) i * w;
        for (int c = 0; c < 3; c++)
          t.nspecial[3 * (size_t) i + c] = row[OwnedTopologyLayout::NSPECIAL + c];
        for (int s = 0; s < row[OwnedTopologyLayout::NSPECIAL + 2]; s++)
          t.special[(size_t) i * ms + s] = find(row[l.special + s], i);
      }
    }
  }

  // the terms of one kind: their rows, the entries (listing row, slot) of every slot in
  // slot order, stably sorted by the listing row
  auto lists = [&](const char *what, int nper, int per_atom, int off_num, int off_type,
                   int off_atom, int &maxn, std::vector<int> &cnt,
                   std::vector<std::array<int, 5>> &out) {
    const int none = n;
    std::vector<std::array<int, 4>> term_rows((size_t) nlocal * per_atom, {-1, -1, -1, -1});
    std::vector<std::pair<int, long long>> entries;
    for (int i = 0; i < nlocal; i++) {
      const int *row = rows + (size_t) i * w;
      for (int k = 0; k < per_atom; k++) {
        const long long term = (long long) i * per_atom + k;
        bool valid = k < row[off_num] && row[off_type + k] > 0;
        auto &e = term_rows[term];
        if (valid) {
          if (nper == 2) {
            e[0] = i;
            e[1] = find(row[off_atom + k], i);
            valid = e[1] >= 0;
            if (!valid && error.empty())
              error = std::string(what) + " of atom " + std::to_string(tag[i]) +
                      " refers to atom " + std::to_string(row[off_atom + k]);
          } else {
            for (int a = 0; a < nper && valid; a++) {
              e[a] = find(row[off_atom + nper * k + a], i);
              valid = e[a] >= 0;
              if (!valid && error.empty())
                error = std::string(what) + " of atom " + std::to_string(tag[i]) +
                        " refers to atom " + std::to_string(row[off_atom + nper * k + a]);
            }
          }
        }
        for (int a = 0; a < nper; a++) {
          const int lister = !valid ? none : l.newton_bond ? e[a] : (a == 0 ? i : none);
          if (lister != none) entries.push_back({lister, term * nper + a});
        }
      }
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    cnt.assign(n, 0);
    for (const auto &en : entries) cnt[en.first]++;
    maxn = 0;
    for (int r = 0; r < n; r++) maxn = std::max(maxn, cnt[r]);
    // out: (row, position in the row, term, a), filled below by the caller's layout
    out.clear();
    std::vector<int> at(n, 0);
    for (const auto &en : entries) {
      const long long term = en.second / nper;
      const int a = (int) (en.second % nper);
      out.push_back({en.first, at[en.first]++, (int) term, a, 0});
    }
    return term_rows;
  };

  auto type_of = [&](long long term, int per_atom, int off_type) {
    const long long i = term / per_atom, k = term % per_atom;
    return rows[(size_t) i * w + off_type + k];
  };
  std::vector<std::array<int, 5>> out;
  if (l.bonds) {
    const auto tr = lists("bond", 2, l.bond_per_atom, OwnedTopologyLayout::NUM_BOND, l.bond_type,
                          l.bond_atom, t.maxbond, t.nbond, out);
    t.bond_partner.assign((size_t) n * t.maxbond, 0);
    t.bond_type.assign((size_t) n * t.maxbond, 0);
    for (const auto &o : out) {
      const size_t slot = (size_t) o[0] * t.maxbond + o[1];
      t.bond_partner[slot] = o[3] == 0 ? tr[o[2]][1] : tr[o[2]][0];
      t.bond_type[slot] = type_of(o[2], l.bond_per_atom, l.bond_type);
    }
  }
  auto many = [&](const char *what, int nper, int per_atom, int off_num, int off_type, int off_atom,
                  int &maxn, std::vector<int> &cnt, std::vector<int> &atoms,
                  std::vector<int> &types) {
    const auto tr = lists(what, nper, per_atom, off_num, off_type, off_atom, maxn, cnt, out);
    atoms.assign((size_t) n * maxn * nper, 0);
    types.assign((size_t) n * maxn, 0);
    for (const auto &o : out) {
      const size_t slot = (size_t) o[0] * maxn + o[1];
      for (int a = 0; a < nper; a++) atoms[slot * nper + a] = tr[o[2]][a];
      types[slot] = type_of(o[2], per_atom, off_type);
    }
  };
  if (l.angles)
    many("angle", 3, l.angle_per_atom, OwnedTopologyLayout::NUM_ANGLE, l.angle_type, l.angle_atom,
         t.maxangle, t.nangle, t.angle_atoms, t.angle_type);
  if (l.dihedrals)
    many("dihedral", 4, l.dihedral_per_atom, OwnedTopologyLayout::NUM_DIHEDRAL, l.dihedral_type,
         l.dihedral_atom, t.maxdihedral, t.ndihedral, t.dihedral_atoms, t.dihedral_type);
  return error;
}

}    // namespace mesogpu
