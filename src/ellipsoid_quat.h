/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - the orientation of a particle as LAMMPS's ellipsoid atom style
   keeps it: the quaternion of its ellipsoid (or super-ellipsoid) bonus. The
   oriented pair styles (ssd, gb, coul/dipole/body) and the single-site
   rigid-body integrators read orientations through this one function.
------------------------------------------------------------------------- */

#ifndef MESOGPU_ELLIPSOID_QUAT_H
#define MESOGPU_ELLIPSOID_QUAT_H

#include "atom.h"
#include "atom_vec_ellipsoid.h"

namespace LAMMPS_NS {

// the quaternion (w, x, y, z) of atom i (local or ghost), nullptr if it has no bonus
inline double *ellipsoid_quat(const Atom *atom, AtomVecEllipsoid *avec, int i)
{
  const int e = atom->ellipsoid ? atom->ellipsoid[i] : -1;
  if (e < 0) return nullptr;
  return atom->superellipsoid_flag ? avec->bonus_super[e].quat : avec->bonus[e].quat;
}

}    // namespace LAMMPS_NS

#endif
