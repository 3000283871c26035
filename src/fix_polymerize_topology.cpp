/* mesogpu: fix polymerize, topology edits of a reaction step (see fix_polymerize.cpp): the
   new bond and 1-2 special entry of one atom, the 1-3/1-4 lists of the atoms near new bonds
   and the angles that contain a new bond, as LAMMPS's FixBondCreate does them. */

#include "fix_polymerize.h"

#include "atom.h"
#include "error.h"
#include "force.h"

#include <cstring>

using namespace LAMMPS_NS;

void FixPolymerize::add_bond(int i, tagint partner)
{
  tagint *tag = atom->tag;
  if (!force->newton_bond || tag[i] < partner) {
    int &nb = atom->num_bond[i];
    if (nb >= atom->bond_per_atom)
      error->one(FLERR,
                 "Fix polymerize: atom {} has no room for a new bond ({} per atom): set "
                 "extra/bond/per/atom in read_data or create_box",
                 tag[i], atom->bond_per_atom);
    atom->bond_type[i][nb] = btype;
    atom->bond_atom[i][nb] = partner;
    ++nb;
  }
  add_special12(i, partner);
}

// partner becomes a 1-2 neighbour of atom i (removed from i's 1-3/1-4 entries first)
void FixPolymerize::add_special12(int i, tagint partner)
{
  tagint *slist = atom->special[i];
  int *ns = atom->nspecial[i];
  int n1 = ns[0], n2 = ns[1], n3 = ns[2], m;
  for (m = n1; m < n3; ++m)
    if (slist[m] == partner) break;
  if (m < n3) {
    for (int n = m; n < n3 - 1; ++n) slist[n] = slist[n + 1];
    --n3;
    if (m < n2) --n2;
  }
  if (n3 >= atom->maxspecial)
    error->one(FLERR,
               "Fix polymerize: atom {} has no room for a new special neighbour ({} per atom): set "
               "extra/special/per/atom in read_data or create_box",
               atom->tag[i], atom->maxspecial);
  for (m = n3; m > n1; --m) slist[m] = slist[m - 1];
  slist[n1] = partner;
  ns[0] = n1 + 1;
  ns[1] = n2 + 1;
  ns[2] = n3 + 1;
}

/* ----------------------------------------------------------------------
   owned atoms whose special list a new bond changes (one of its atoms, or one of them in
   the atom's 1-2/1-3 list) rebuild it and make the angles that contain a new bond
------------------------------------------------------------------------- */

void FixPolymerize::update_topology()
{
  tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  const int ncreated = created.size() / 2;
  nangles_new = angle_overflow = 0;
  copy.resize((size_t) atom->maxspecial * atom->maxspecial + atom->maxspecial + 1);

  for (int i = 0; i < nlocal; ++i) {
    const tagint *slist = atom->special[i];
    const int n = atom->nspecial[i][1];
    bool influenced = false;
    for (int c = 0; c < ncreated && !influenced; ++c) {
      const tagint a = created[2 * c], b = created[2 * c + 1];
      if (tag[i] == a || tag[i] == b) influenced = true;
      for (int k = 0; k < n && !influenced; ++k)
        if (slist[k] == a || slist[k] == b) influenced = true;
    }
    if (!influenced) continue;
    rebuild_special_one(i);
    if (atype) create_angles(i);
  }

  if (atype) {
    int overflow_all;
    MPI_Allreduce(&angle_overflow, &overflow_all, 1, MPI_INT, MPI_MAX, world);
    if (overflow_all)
      error->all(FLERR,
                 "Fix polymerize: no room for a new angle ({} per atom): set extra/angle/per/atom "
                 "in read_data or create_box",
                 atom->angle_per_atom);
    bigint nnew = nangles_new, all;
    MPI_Allreduce(&nnew, &all, 1, MPI_LMP_BIGINT, MPI_SUM, world);
    atom->nangles += force->newton_bond ? all : all / 3;
  }
}

// 1-2 entries are current; 1-3 from the 1-2 lists of the 1-2 neighbours, 1-4 from those of
// the 1-3 neighbours (each atom once, never m itself), as many levels as Special::build keeps
void FixPolymerize::rebuild_special_one(int m)
{
  tagint *tag = atom->tag;
  int **nspecial = atom->nspecial;
  tagint **special = atom->special;
  const int n1 = nspecial[m][0];
  int cn1 = 0;
  for (int i = 0; i < n1; ++i) copy[cn1++] = special[m][i];
  int cn2 = cn1, cn3 = cn1;
  if (special_levels >= 2) {
    for (int i = 0; i < cn1; ++i) {
      const int n = map_or_die(copy[i]);
      for (int j = 0; j < nspecial[n][0]; ++j)
        if (special[n][j] != tag[m]) copy[cn2++] = special[n][j];
    }
    cn2 = dedup(cn1, cn2);
    cn3 = cn2;
  }
  if (special_levels >= 3) {
    for (int i = cn1; i < cn2; ++i) {
      const int n = map_or_die(copy[i]);
      for (int j = 0; j < nspecial[n][0]; ++j)
        if (special[n][j] != tag[m]) copy[cn3++] = special[n][j];
    }
    cn3 = dedup(cn2, cn3);
  }
  if (cn3 > atom->maxspecial)
    error->one(FLERR,
               "Fix polymerize: atom {} needs {} special neighbours ({} per atom): set "
               "extra/special/per/atom in read_data or create_box",
               tag[m], cn3, atom->maxspecial);
  nspecial[m][0] = cn1;
  nspecial[m][1] = cn2;
  nspecial[m][2] = cn3;
  memcpy(special[m], copy.data(), cn3 * sizeof(tagint));
}

// drops entries of copy[nstart, nstop) found earlier in copy; returns the new stop
int FixPolymerize::dedup(int nstart, int nstop)
{
  int m = nstart;
  while (m < nstop) {
    int i;
    for (i = 0; i < m; ++i)
      if (copy[i] == copy[m]) {
        copy[m] = copy[nstop - 1];
        --nstop;
        break;
      }
    if (i == m) ++m;
  }
  return nstop;
}

// angles i1-i2-i3 with a new bond i1-i2 or i2-i3: atom m central (newton_bond on), or
// any of the three (off), as FixBondCreate::create_angles
void FixPolymerize::create_angles(int m)
{
  tagint *tag = atom->tag;
  int **nspecial = atom->nspecial;
  tagint **special = atom->special;
  const int ncreated = created.size() / 2;
  auto is_new = [&](tagint a, tagint b) {
    for (int c = 0; c < ncreated; ++c)
      if ((created[2 * c] == a && created[2 * c + 1] == b) ||
          (created[2 * c] == b && created[2 * c + 1] == a))
        return true;
    return false;
  };
  int &na = atom->num_angle[m];
  auto add = [&](tagint i1, tagint i2, tagint i3) {
    if (na >= atom->angle_per_atom) {
      angle_overflow = 1;
      return;
    }
    atom->angle_type[m][na] = atype;
    atom->angle_atom1[m][na] = i1;
    atom->angle_atom2[m][na] = i2;
    atom->angle_atom3[m][na] = i3;
    ++na;
    ++nangles_new;
  };

  const tagint t = tag[m];
  const int n = nspecial[m][0];
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const tagint i1 = special[m][a], i3 = special[m][b];
      if (is_new(i1, t) || is_new(t, i3)) add(i1, t, i3);
    }
  if (force->newton_bond) return;
  for (int a = 0; a < n; ++a) {
    const tagint i2 = special[m][a];
    const int k = map_or_die(i2);
    for (int b = 0; b < nspecial[k][0]; ++b) {
      const tagint i3 = special[k][b];
      if (i3 == t) continue;
      if (is_new(t, i2) || is_new(i2, i3)) add(t, i2, i3);
    }
  }
}
