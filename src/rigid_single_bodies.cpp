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

namespace {

double dot3(const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// the body axis k (0..2) in the lab frame: column k of R(q)
void body_axis(const double *q, int k, double *u)
{
  double m[9];
  phys::quat_to_rotation(q, m);
  for (int r = 0; r < 3; ++r) u[r] = m[3 * r + k];
}

}    // namespace

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
  double u[3];
  body_axis(q, zero_axis[atom->type[i]], u);
  double *am = atom->angmom[i];
  const double s = dot3(am, u);
  for (int d = 0; d < 3; ++d) am[d] -= s * u[d];
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::kick(int i, const double *q, double dtf)
{
  const double *tq = atom->torque[i];
  double *am = atom->angmom[i];
  for (int d = 0; d < 3; ++d) am[d] += dtf * tq[d];
  if (zero_axis[atom->type[i]] >= 0) project_spin(i, q);
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::set_dipole(int i, const double *q)
{
  double *mu = atom->mu[i];
  double u[3];
  body_axis(q, 2, u);
  for (int d = 0; d < 3; ++d) mu[d] = mu[3] * u[d];
}

/* ---------------------------------------------------------------------- */

void RigidSingleBodies::advance(int i, double *q, double dtv)
{
  // |q| = 1 to rounding: the scheme keeps |q| but lets rounding walk (~1e-16 a step), and
  // R(q) of a non-unit q scales by |q|^2, so every L -> p -> L round trip would scale L by
  // |q|^4 (a systematic drift of L of ~1e-14 a step, measured); renormalising here keeps it
  // at rounding
  const double qn = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; ++k) q[k] /= qn;
  rotate(i, q, dtv);
  if (dipole) set_dipole(i, q);
}

/* ----------------------------------------------------------------------
   free rotation over dtv of local atom i
------------------------------------------------------------------------- */

void RigidSingleBodies::rotate(int i, double *q, double dtv)
{
  const int t = atom->type[i];
  const double *mom = inertia[t].data();
  double *am = atom->angmom[i];

  if (zero_axis[t] >= 0) {
    // linear body (I_a = 0, the others equal I): with L normal to the axis, omega = L / I,
    // constant, so the exact flow turns q by dt |L| / I about L (lab frame)
    const double iperp = mom[(zero_axis[t] + 1) % 3];
    const double lnorm = std::sqrt(dot3(am, am));
    if (!(lnorm > 0.0)) return;
    const double half = 0.5 * dtv * lnorm / iperp;
    const double c = std::cos(half), s = std::sin(half) / lnorm;
    const double r[4] = {c, s * am[0], s * am[1], s * am[2]};
    const double q0[4] = {q[0], q[1], q[2], q[3]};
    q[0] = r[0] * q0[0] - r[1] * q0[1] - r[2] * q0[2] - r[3] * q0[3];
    q[1] = r[0] * q0[1] + r[1] * q0[0] + r[2] * q0[3] - r[3] * q0[2];
    q[2] = r[0] * q0[2] - r[1] * q0[3] + r[2] * q0[0] + r[3] * q0[1];
    q[3] = r[0] * q0[3] + r[1] * q0[2] - r[2] * q0[1] + r[3] * q0[0];
    return;
  }

  if (scheme == Scheme::NO_SQUISH) {
    double p[4];
    phys::rigid_p_from_lab_angmom(q, am, p);
    phys::rigid_free_rotate(q, p, mom, dtv);
    phys::rigid_lab_angmom(q, p, am);
  } else {
    double lb[3];
    phys::rigid_lab_to_body(q, am, lb);
    phys::rigid_dlm_free_rotate(q, lb, mom, dtv);
    phys::rigid_body_to_lab(q, lb, am);
  }
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
    double lb[3];
    phys::rigid_lab_to_body(q, atom->angmom[i], lb);
    const double *mom = inertia[type[i]].data();
    for (int k = 0; k < 3; ++k)
      if (mom[k] > 0.0) ke += lb[k] * lb[k] / (2.0 * mom[k]);
  }
  return ke;
}
