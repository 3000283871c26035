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

#include "physics/rigid_rotation.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "random_mars.h"
#include "error.h"
#include "force.h"
#include "update.h"
#include "utils.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;
namespace phys = mesogpu::physics;

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
    if (strcmp(arg[iarg], "langevin") == 0) {
      if (iarg + 4 > narg)
        error->all(FLERR, iarg, "Fix nve/rigid/single: langevin expects 'T Tdamp seed'");
      t_langevin = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      tdamp_langevin = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
      seed_langevin = utils::inumeric(FLERR, arg[iarg + 3], false, lmp);
      if (!(t_langevin >= 0.0) || !std::isfinite(t_langevin))
        error->all(FLERR, iarg + 1, "Fix nve/rigid/single: langevin T must be >= 0 (got {})",
                   arg[iarg + 1]);
      if (!(tdamp_langevin > 0.0) || !std::isfinite(tdamp_langevin))
        error->all(FLERR, iarg + 2, "Fix nve/rigid/single: langevin Tdamp must be > 0 (got {})",
                   arg[iarg + 2]);
      if (seed_langevin <= 0)
        error->all(FLERR, iarg + 3, "Fix nve/rigid/single: langevin seed must be > 0 (got {})",
                   arg[iarg + 3]);
      langevin = true;
      iarg += 4;
      continue;
    }
    const int n = bodies.parse(iarg, narg, arg);
    if (n == 0)
      error->all(FLERR, iarg,
                 "Fix nve/rigid/single: unknown keyword '{}' (allowed: inertia, rotation, "
                 "dipole, langevin)",
                 arg[iarg]);
    iarg += n;
  }
  // one stream per rank, as fix langevin (the noise depends on the rank count)
  if (langevin) random = new RanMars(lmp, seed_langevin + comm->me);
}

/* ---------------------------------------------------------------------- */

FixNVERigidSingle::~FixNVERigidSingle()
{
  delete random;
}

/* ---------------------------------------------------------------------- */

int FixNVERigidSingle::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE | (langevin ? POST_FORCE : 0);
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

void FixNVERigidSingle::setup(int vflag)
{
  bodies.setup(groupbit);
  if (langevin) post_force(vflag);    // the first half kick feels the bath, as fix langevin
}

/* ----------------------------------------------------------------------
   Langevin bath (fix langevin's forces, with the rotation treated like the translation
   axis by axis in the body frame, I_k in place of m and L_k in place of m v):
     f     += -m v / Tdamp / ftm2v + sqrt(m)   sqrt(24 kT / (Tdamp dt mvv2e)) / ftm2v (u - 1/2)
     tau_k += -L_k / Tdamp / ftm2v + sqrt(I_k) sqrt(24 kT / (Tdamp dt mvv2e)) / ftm2v (u - 1/2)
   (uniform u: variance 1/12), tau_body turned to the lab; axes with I_k = 0 get nothing
------------------------------------------------------------------------- */

void FixNVERigidSingle::post_force(int /*vflag*/)
{
  double **v = atom->v;
  double **f = atom->f;
  double **angmom = atom->angmom;
  double **torque = atom->torque;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double ftm2v = force->ftm2v;
  const double noise =
      std::sqrt(24.0 * force->boltz * t_langevin / (tdamp_langevin * update->dt * force->mvv2e)) /
      ftm2v;
  const double fric = 1.0 / (tdamp_langevin * ftm2v);

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double m = rmass ? rmass[i] : mass[type[i]];
    const double gm = std::sqrt(m) * noise;
    for (int d = 0; d < 3; ++d) f[i][d] += -m * fric * v[i][d] + gm * (random->uniform() - 0.5);
    const double *q = bodies.quat_of(i);
    if (!q) continue;
    const double *mom = bodies.inertia[type[i]].data();
    double lb[3], tb[3], tl[3];
    phys::rigid_lab_to_body(q, angmom[i], lb);
    for (int k = 0; k < 3; ++k) {
      const double u = random->uniform() - 0.5;
      tb[k] = mom[k] > 0.0 ? -fric * lb[k] + std::sqrt(mom[k]) * noise * u : 0.0;
    }
    phys::rigid_body_to_lab(q, tb, tl);
    for (int d = 0; d < 3; ++d) torque[i][d] += tl[d];
  }
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
