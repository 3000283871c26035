/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   Single-site rigid bodies: keywords, checks and the per-atom rotation step shared by
   fix nve/rigid/single, fix nvt/rigid/single and compute temp/rigid/single
   (doc/fix_nve_rigid_single.md, doc/fix_nvt_rigid_single.md).

   The conjugate momentum p = 2 S(q) (0, R(q)^T L) of NO_SQUISH is formed from L before the
   free rotation and turned back into L after it (as LAMMPS's fix rigid/nve and CG-DNA's
   fix nve/dot do): a bijection at fixed q, so the map on (q, L) is the symplectic map on
   (q, p) up to rounding, and restarts need nothing but the atom arrays.
------------------------------------------------------------------------- */

#include "rigid_single_bodies.h"

#include "physics/rigid_rotation.h"

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "ellipsoid_quat.h"
#include "error.h"
#include "utils.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <mpi.h>

using namespace LAMMPS_NS;
namespace phys = mesogpu::physics;

/* ---------------------------------------------------------------------- */

RigidSingleBodies::RigidSingleBodies(LAMMPS *lmp, const std::string &prefix_) :
    Pointers(lmp), prefix(prefix_)
{
  const int ntypes = atom->ntypes;
  inertia.assign(ntypes + 1, {0.0, 0.0, 0.0});
  inertia_set.assign(ntypes + 1, 0);
  zero_axis.assign(ntypes + 1, -1);
}

/* ---------------------------------------------------------------------- */

int RigidSingleBodies::parse(int iarg, int narg, char **arg, bool all)
{
  const int ntypes = atom->ntypes;
  if (strcmp(arg[iarg], "inertia") == 0) {
    if (iarg + 5 > narg)
      error->all(FLERR, iarg, "{}: inertia expects '<types> Ixx Iyy Izz' (got {} values)", prefix,
                 narg - iarg - 1);
    // a type label ('labelmap atom 1 W') stands for its type, as in LAMMPS's commands
    std::string types = arg[iarg + 1];
    char *expanded = utils::expand_type(FLERR, types, Atom::ATOM, lmp);
    if (expanded) types = expanded;
    delete[] expanded;
    int lo = -1, hi = -1;
    try {
      utils::bounds(FLERR, types, 1, ntypes, lo, hi, nullptr);
    } catch (std::exception &) {
      lo = hi = -1;
    }
    if (lo < 1 || hi > ntypes || lo > hi)
      error->all(FLERR, iarg + 1,
                 "{}: inertia: atom types '{}' are not a type, type label or range within 1-{}",
                 prefix, arg[iarg + 1], ntypes);
    std::array<double, 3> mom{};
    int nzero = 0, zaxis = -1;
    for (int k = 0; k < 3; ++k) {
      const char *s = arg[iarg + 2 + k];
      if (!utils::is_double(s))
        error->all(FLERR, iarg + 2 + k, "{}: inertia for types {}: '{}' is not a number", prefix,
                   arg[iarg + 1], s);
      mom[k] = utils::numeric(FLERR, s, false, lmp);
      if (!(mom[k] >= 0.0) || !std::isfinite(mom[k]))
        error->all(FLERR, iarg + 2 + k,
                   "{}: inertia for types {}: principal moment {} must be finite and >= 0 (got "
                   "{})",
                   prefix, arg[iarg + 1], "xyz"[k], s);
      if (mom[k] == 0.0) {
        ++nzero;
        zaxis = k;
      }
    }
    if (nzero > 1)
      error->all(FLERR, iarg + 2,
                 "{}: inertia for types {}: at most one principal moment may be 0 (a linear "
                 "body); a body with two or three zero moments has no rotation to integrate: "
                 "leave its type without an ellipsoid bonus (shape 0 0 0)",
                 prefix, arg[iarg + 1]);
    if (nzero == 1) {
      const double a = mom[(zaxis + 1) % 3], b = mom[(zaxis + 2) % 3];
      if (std::fabs(a - b) > 1e-12 * std::fmax(a, b))
        error->all(FLERR, iarg + 2,
                   "{}: inertia for types {}: with I{} = 0 (a linear body) the two other "
                   "moments must be equal (got {} and {})",
                   prefix, arg[iarg + 1], "xyz"[zaxis], a, b);
    }
    for (int t = lo; t <= hi; ++t) {
      inertia[t] = mom;
      inertia_set[t] = 1;
      zero_axis[t] = zaxis;
    }
    return 5;
  }
  if (!all) return 0;
  if (strcmp(arg[iarg], "rotation") == 0) {
    if (iarg + 2 > narg) error->all(FLERR, iarg, "{}: rotation expects no_squish or dlm", prefix);
    if (strcmp(arg[iarg + 1], "no_squish") == 0)
      scheme = Scheme::NO_SQUISH;
    else if (strcmp(arg[iarg + 1], "dlm") == 0)
      scheme = Scheme::DLM;
    else
      error->all(FLERR, iarg + 1, "{}: rotation expects no_squish or dlm (got '{}')", prefix,
                 arg[iarg + 1]);
    return 2;
  }
  if (strcmp(arg[iarg], "dipole") == 0) {
    if (iarg + 2 > narg) error->all(FLERR, iarg, "{}: dipole expects yes or no", prefix);
    dipole = utils::logical(FLERR, arg[iarg + 1], false, lmp) == 1;
    return 2;
  }
  return 0;
}

/* ---------------------------------------------------------------------- */

double *RigidSingleBodies::quat_of(int i)
{
  return ellipsoid_quat(atom, avec, i);
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::init(int groupbit)
{
  avec = dynamic_cast<AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  if (!avec)
    error->all(FLERR,
               "{} requires atom style ellipsoid (or hybrid with ellipsoid): the orientation "
               "is the ellipsoid quaternion",
               prefix);
  if (!atom->angmom_flag || !atom->torque_flag)
    error->all(FLERR, "{} requires atom attributes angmom and torque", prefix);
  if (dipole && !atom->mu_flag)
    error->all(FLERR,
               "{}: 'dipole yes' requires atom attribute mu (e.g. atom_style hybrid ellipsoid "
               "dipole)",
               prefix);

  // types added after the style was defined (read_data add ...) have no inertia
  if ((int) inertia.size() < atom->ntypes + 1) {
    inertia.resize(atom->ntypes + 1, {0.0, 0.0, 0.0});
    inertia_set.resize(atom->ntypes + 1, 0);
    zero_axis.resize(atom->ntypes + 1, -1);
  }

  // every oriented atom of the group needs the inertia of its type: name the smallest type
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int *ellipsoid = atom->ellipsoid;
  const int nlocal = atom->nlocal;
  int bad = atom->ntypes + 1, bad_all;
  for (int i = 0; i < nlocal; ++i)
    if ((mask[i] & groupbit) && ellipsoid[i] >= 0 && !inertia_set[type[i]] && type[i] < bad)
      bad = type[i];
  MPI_Allreduce(&bad, &bad_all, 1, MPI_INT, MPI_MIN, world);
  if (bad_all <= atom->ntypes)
    error->all(FLERR,
               "{}: atoms of type {} have an orientation (ellipsoid bonus) but no inertia: add "
               "'inertia {} Ixx Iyy Izz'",
               prefix, bad_all, bad_all);

  // dipoles follow the orientation from the first force evaluation on
  if (dipole)
    for (int i = 0; i < nlocal; ++i) {
      if (!(mask[i] & groupbit)) continue;
      const double *q = quat_of(i);
      if (q) set_dipole(i, q);
    }
}

/* ----------------------------------------------------------------------
   a linear body has no spin about its axis; drop any such part of angmom (a no-op for a
   state these styles produced, so runs and restarts continue identically)
------------------------------------------------------------------------- */

void RigidSingleBodies::setup(int groupbit)
{
  const int *mask = atom->mask;
  const int *type = atom->type;
  const int nlocal = atom->nlocal;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit) || zero_axis[type[i]] < 0) continue;
    const double *q = quat_of(i);
    if (q) project_spin(i, q);
  }
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::project_spin(int i, const double *q)
{
  phys::rigid_linear_project(q, zero_axis[atom->type[i]], atom->angmom[i]);
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::kick(int i, const double *q, double dtf)
{
  phys::rigid_lab_kick(q, atom->angmom[i], atom->torque[i], zero_axis[atom->type[i]], dtf);
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::set_dipole(int i, const double *q)
{
  double *mu = atom->mu[i];
  double u[3];
  phys::rigid_body_axis(q, 2, u);
  for (int d = 0; d < 3; ++d) mu[d] = mu[3] * u[d];
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::advance(int i, double *q, double dtv)
{
  // q renormalised, then the free rotation (physics/rigid_rotation.h, rigid_lab_advance:
  // why the renormalisation is needed is said there)
  const int t = atom->type[i];
  phys::rigid_lab_advance(q, atom->angmom[i], inertia[t].data(), zero_axis[t],
                          scheme == Scheme::DLM, dtv);
  if (dipole) set_dipole(i, q);
}

/* ---------------------------------------------------------------------- */

double RigidSingleBodies::kinetic_energy_local(int groupbit)
{
  if (!avec) return 0.0;    // before the first init
  const int *mask = atom->mask;
  const int *type = atom->type;
  const int nlocal = atom->nlocal;
  double ke = 0.0;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit) || type[i] >= (int) inertia_set.size() || !inertia_set[type[i]])
      continue;
    const double *q = quat_of(i);
    if (!q) continue;
    ke += phys::rigid_lab_kinetic_energy(q, atom->angmom[i], inertia[type[i]].data());
  }
  return ke;
}
