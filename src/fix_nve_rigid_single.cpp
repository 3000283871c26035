/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix nve/rigid/single (doc/fix_nve_rigid_single.md)

   One timestep of LAMMPS's Verlet, for an atom of the group with an ellipsoid bonus
   (quaternion q; angmom L and torque tau in the lab frame):
     initial_integrate  v += dt/2 f/m;  x += dt v;  L += dt/2 tau;
                        (q, L) <- free rotation over dt (NO_SQUISH or DLM)
     (forces and torques at t+dt)
     final_integrate    v += dt/2 f/m;  L += dt/2 tau
   The rotation step, keywords and checks are RigidSingleBodies (src/rigid_single_bodies.h),
   shared with fix nvt/rigid/single. Atoms of the group without a bonus (plain beads) are
   translated only.
------------------------------------------------------------------------- */

#include "fix_nve_rigid_single.h"

#include "atom.h"
#include "citeme.h"
#include "error.h"
#include "force.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {

const char cite_fix_nve_rigid_single[] =
    "fix nve/rigid/single: https://doi.org/10.1063/1.1473654\n\n"
    "@Article{Miller02,\n"
    " author = {T. F. Miller III and M. Eleftheriou and P. Pattnaik and A. Ndirango and "
    "D. Newns and G. J. Martyna},\n"
    " title = {Symplectic quaternion scheme for biophysical molecular dynamics},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 2002,\n"
    " volume = 116,\n"
    " pages = {8649--8659},\n"
    " doi = {10.1063/1.1473654}\n"
    "}\n\n"
    "@Article{Dullweber97,\n"
    " author = {A. Dullweber and B. Leimkuhler and R. McLachlan},\n"
    " title = {Symplectic splitting methods for rigid body molecular dynamics},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 1997,\n"
    " volume = 107,\n"
    " pages = {5840--5851},\n"
    " doi = {10.1063/1.474310}\n"
    "}\n\n";

}    // namespace

/* ---------------------------------------------------------------------- */

FixNVERigidSingle::FixNVERigidSingle(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), bodies(lmp, "Fix nve/rigid/single")
{
  if (narg < 3) utils::missing_cmd_args(FLERR, "fix nve/rigid/single", error);
  if (lmp->citeme) lmp->citeme->add(cite_fix_nve_rigid_single);

  dynamic_group_allow = 1;
  time_integrate = 1;
  scalar_flag = 1;    // rotational kinetic energy of the group
  extscalar = 1;
  global_freq = 1;

  int iarg = 3;
  while (iarg < narg) {
    const int n = bodies.parse(iarg, narg, arg);
    if (n == 0)
      error->all(FLERR, iarg,
                 "Fix nve/rigid/single: unknown keyword '{}' (allowed: inertia, rotation, "
                 "dipole)",
                 arg[iarg]);
    iarg += n;
  }
}

/* ---------------------------------------------------------------------- */

int FixNVERigidSingle::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE;
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingle::init()
{
  bodies.init(groupbit);
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR,
               "Fix nve/rigid/single does not support run_style respa: use run_style verlet");
  reset_dt();
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingle::setup(int /*vflag*/)
{
  bodies.setup(groupbit);
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingle::reset_dt()
{
  dtv = update->dt;
  dtf = 0.5 * update->dt * force->ftm2v;
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingle::initial_integrate(int /*vflag*/)
{
  double **x = atom->x;
  double **v = atom->v;
  double **f = atom->f;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
    for (int d = 0; d < 3; ++d) {
      v[i][d] += dtfm * f[i][d];
      x[i][d] += dtv * v[i][d];
    }
    double *q = bodies.quat_of(i);
    if (!q) continue;
    bodies.kick(i, q, dtf);
    bodies.advance(i, q, dtv);
  }
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingle::final_integrate()
{
  double **v = atom->v;
  double **f = atom->f;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
    for (int d = 0; d < 3; ++d) v[i][d] += dtfm * f[i][d];
    const double *q = bodies.quat_of(i);
    if (q) bodies.kick(i, q, dtf);
  }
}

/* ----------------------------------------------------------------------
   rotational kinetic energy sum_k L_k^2 / (2 I_k) of the oriented atoms of the group, with
   this fix's inertia (compute erotate/asphere would use the shape's)
------------------------------------------------------------------------- */

double FixNVERigidSingle::compute_scalar()
{
  double ke = bodies.kinetic_energy_local(groupbit), ke_all = 0.0;
  MPI_Allreduce(&ke, &ke_all, 1, MPI_DOUBLE, MPI_SUM, world);
  return ke_all * force->mvv2e;
}
