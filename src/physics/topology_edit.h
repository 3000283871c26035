/* mesogpu: edits of the per-atom bond lists and the special list they imply, one atom or
 * one bond at a time: the device kernels of cuda/topology/topology_edit.cu run these
 * functions, and the CPU unit test (unittest/units/test_topology_edit.cpp) runs the same
 * ones against slow reference loops.
 *
 * Bond lists (BondLists) are the engine's layout: every bond listed by both of its atoms,
 * entry k of atom i at [k n + i] (column-major), at most `width` entries per atom.
 * Special lists follow LAMMPS (Special::combine, FixBondCreate::rebuild_special_one): the
 * 1-2 neighbours (bond partners), then the 1-3 ones (partners of partners), then the 1-4
 * ones (partners of the 1-3 ones), each atom once, never the atom itself, an atom in an
 * earlier level not repeated in a later one; counts cumulative as atom->nspecial. */
#ifndef MESOGPU_PHYSICS_TOPOLOGY_EDIT_H
#define MESOGPU_PHYSICS_TOPOLOGY_EDIT_H

#include "meso_hd.h"

namespace mesogpu {
namespace topo {

  struct BondLists {
    int n, width;
    int *count, *partner, *type;
  };

  // what an edit did: applied; nothing to do (insert: the atoms are bonded already;
  // remove: they are not bonded); an atom's list is full (insert); invalid (an index
  // outside 0..n-1, i == j, or a bond type below 1 for an insert)
  enum EditResult : int { EDIT_DONE = 0, EDIT_NOTHING = 1, EDIT_FULL = 2, EDIT_INVALID = 3 };

  // slot of partner j in atom i's list, -1 if none
  MESO_HD int find_bond(const BondLists &b, int i, int j)
  {
    const int m = b.count[i];
    for (int k = 0; k < m; ++k)
      if (b.partner[(long long) k * b.n + i] == j) return k;
    return -1;
  }

  // bond i-j of type t, appended to both lists
  MESO_HD int insert_bond(BondLists &b, int i, int j, int t)
  {
    if (i < 0 || j < 0 || i >= b.n || j >= b.n || i == j || t < 1) return EDIT_INVALID;
    if (find_bond(b, i, j) >= 0) return EDIT_NOTHING;
    if (b.count[i] >= b.width || b.count[j] >= b.width) return EDIT_FULL;
    const long long ki = (long long) b.count[i]++ * b.n + i;
    const long long kj = (long long) b.count[j]++ * b.n + j;
    b.partner[ki] = j;
    b.type[ki] = t;
    b.partner[kj] = i;
    b.type[kj] = t;
    return EDIT_DONE;
  }

  // the entry of partner j leaves atom i's list; later entries move up one (order kept)
  MESO_HD void drop_entry(BondLists &b, int i, int j)
  {
    const int k0 = find_bond(b, i, j);
    if (k0 < 0) return;
    const int m = b.count[i];
    for (int k = k0; k + 1 < m; ++k) {
      b.partner[(long long) k * b.n + i] = b.partner[(long long) (k + 1) * b.n + i];
      b.type[(long long) k * b.n + i] = b.type[(long long) (k + 1) * b.n + i];
    }
    b.count[i] = m - 1;
  }

  // bond i-j (of any type) leaves both lists
  MESO_HD int remove_bond(BondLists &b, int i, int j)
  {
    if (i < 0 || j < 0 || i >= b.n || j >= b.n || i == j) return EDIT_INVALID;
    if (find_bond(b, i, j) < 0) return EDIT_NOTHING;
    drop_entry(b, i, j);
    drop_entry(b, j, i);
    return EDIT_DONE;
  }

  // appends a to row[0..*len) unless a == self or a is there already; false when the row
  // is full (cap entries) and a would be new
  MESO_HD bool add_unique(int *row, int *len, int cap, int a, int self)
  {
    if (a == self) return true;
    for (int k = 0; k < *len; ++k)
      if (row[k] == a) return true;
    if (*len >= cap) return false;
    row[(*len)++] = a;
    return true;
  }

  // the special list of atom i from the bond lists, `levels` deep (1: 1-2 only, 2: up to
  // 1-3, 3: up to 1-4, as LAMMPS's Special::build stops where special_bonds weighs a level
  // 1.0): row (cap entries) and the cumulative counts ns[3]. False when more than cap
  // entries would be needed (row and ns then hold the first cap).
  MESO_HD bool build_special_one(const BondLists &b, int i, int levels, int *row, int cap,
                                 int ns[3])
  {
    int len = 0;
    bool ok = true;
    const int m = b.count[i];
    for (int k = 0; k < m && ok; ++k)
      ok = add_unique(row, &len, cap, b.partner[(long long) k * b.n + i], i);
    ns[0] = ns[1] = ns[2] = len;
    // each further level: the partners of the previous level's atoms
    int from = 0;
    for (int level = 2; level <= levels && level <= 3 && ok; ++level) {
      const int to = len;
      for (int s = from; s < to && ok; ++s) {
        const int a = row[s];
        const int ma = b.count[a];
        for (int k = 0; k < ma && ok; ++k)
          ok = add_unique(row, &len, cap, b.partner[(long long) k * b.n + a], i);
      }
      from = to;
      ns[level - 1] = len;
      if (level == 2) ns[2] = len;
    }
    return ok;
  }

}    // namespace topo
}    // namespace mesogpu

#endif
