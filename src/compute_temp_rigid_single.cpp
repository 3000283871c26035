/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   compute temp/rigid/single (doc/fix_nvt_rigid_single.md)

   T = [sum_i m_i v_i^2 + sum_{oriented i} sum_k L_k^2 / I_k] mvv2e / (dof k_B)
   with L_k the body-frame angular momentum and I_k the per-type principal moments (axes
   with I_k = 0 carry none). dof = 3 per atom of the group + 3 per oriented atom (2 for a
   linear body, one zero moment) - extra_dof (3 by default, compute_modify extra/dof) -
   the dof fixes remove. Atoms of the group without an ellipsoid bonus count translation
   only. The vector is the kinetic energy tensor sum m v_a v_b + sym(omega_a L_b) in the
   lab frame (trace = 2 KE, as compute temp's), times mvv2e.
------------------------------------------------------------------------- */

#include "compute_temp_rigid_single.h"

#include "physics/rigid_rotation.h"

#include "atom.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "update.h"

#include <mpi.h>

using namespace LAMMPS_NS;
namespace phys = mesogpu::physics;

/* ---------------------------------------------------------------------- */

ComputeTempRigidSingle::ComputeTempRigidSingle(LAMMPS *lmp, int narg, char **arg) :
    Compute(lmp, narg, arg), bodies(lmp, "Compute temp/rigid/single")
{
  if (narg < 3) utils::missing_cmd_args(FLERR, "compute temp/rigid/single", error);

  scalar_flag = vector_flag = 1;
  size_vector = 6;
  extscalar = 0;
  extvector = 1;
  tempflag = 1;

  int iarg = 3;
  while (iarg < narg) {
    const int n = bodies.parse(iarg, narg, arg, false);
    if (n == 0)
      error->all(FLERR, iarg, "Compute temp/rigid/single: unknown keyword '{}' (allowed: inertia)",
                 arg[iarg]);
    iarg += n;
  }
  vector = new double[size_vector];
}

/* ---------------------------------------------------------------------- */

ComputeTempRigidSingle::~ComputeTempRigidSingle()
{
  delete[] vector;
}

/* ---------------------------------------------------------------------- */

void ComputeTempRigidSingle::init()
{
  if (domain->dimension != 3)
    error->all(FLERR, "Compute temp/rigid/single requires a 3d simulation (dimension 3)");
  bodies.init(groupbit);
}

/* ---------------------------------------------------------------------- */

void ComputeTempRigidSingle::setup()
{
  dynamic = 0;
  if (dynamic_user || group->dynamic[igroup]) dynamic = 1;
  dof_compute();
}

/* ---------------------------------------------------------------------- */

void ComputeTempRigidSingle::dof_compute()
{
  adjust_dof_fix();
  natoms_temp = group->count(igroup);
  const int *mask = atom->mask;
  const int *type = atom->type;
  const int *ellipsoid = atom->ellipsoid;
  const int nlocal = atom->nlocal;
  bigint n = 0, n_all = 0;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    n += 3;
    if (ellipsoid[i] >= 0 && bodies.inertia_set[type[i]]) n += bodies.rot_dof(type[i]);
  }
  MPI_Allreduce(&n, &n_all, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  dof = (double) n_all - extra_dof - fix_dof;
  tfactor = dof > 0 ? force->mvv2e / (dof * force->boltz) : 0.0;
}

/* ---------------------------------------------------------------------- */

double ComputeTempRigidSingle::compute_scalar()
{
  invoked_scalar = update->ntimestep;
  double **v = atom->v;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  double t = 0.0;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double m = rmass ? rmass[i] : mass[type[i]];
    t += m * (v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2]);
  }
  t += 2.0 * bodies.kinetic_energy_local(groupbit);
  MPI_Allreduce(&t, &scalar, 1, MPI_DOUBLE, MPI_SUM, world);
  if (dynamic) dof_compute();
  if (dof < 0.0 && natoms_temp > 0.0)
    error->all(FLERR, "Compute temp/rigid/single: degrees of freedom < 0");
  scalar *= tfactor;
  return scalar;
}

/* ---------------------------------------------------------------------- */

void ComputeTempRigidSingle::compute_vector()
{
  invoked_vector = update->ntimestep;
  double **v = atom->v;
  double **angmom = atom->angmom;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  double t[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double m = rmass ? rmass[i] : mass[type[i]];
    t[0] += m * v[i][0] * v[i][0];
    t[1] += m * v[i][1] * v[i][1];
    t[2] += m * v[i][2] * v[i][2];
    t[3] += m * v[i][0] * v[i][1];
    t[4] += m * v[i][0] * v[i][2];
    t[5] += m * v[i][1] * v[i][2];
    if (!bodies.inertia_set[type[i]]) continue;
    const double *q = bodies.quat_of(i);
    if (!q) continue;
    // omega in the lab: R (L_body / I), axes with I = 0 carry none
    const double *mom = bodies.inertia[type[i]].data();
    double lb[3], w[3];
    phys::rigid_lab_to_body(q, angmom[i], lb);
    for (int k = 0; k < 3; ++k) lb[k] = mom[k] > 0.0 ? lb[k] / mom[k] : 0.0;
    phys::rigid_body_to_lab(q, lb, w);
    const double *l = angmom[i];
    t[0] += w[0] * l[0];
    t[1] += w[1] * l[1];
    t[2] += w[2] * l[2];
    t[3] += 0.5 * (w[0] * l[1] + w[1] * l[0]);
    t[4] += 0.5 * (w[0] * l[2] + w[2] * l[0]);
    t[5] += 0.5 * (w[1] * l[2] + w[2] * l[1]);
  }
  MPI_Allreduce(t, vector, 6, MPI_DOUBLE, MPI_SUM, world);
  for (int k = 0; k < 6; ++k) vector[k] *= force->mvv2e;
}
