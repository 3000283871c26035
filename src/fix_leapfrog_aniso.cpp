/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix leapfrog/aniso (doc/fix_leapfrog_aniso.md)

   One timestep of LAMMPS's Verlet, for an atom of the group with |mu| > 0:
     initial_integrate  v += dt/2 f/m;  x += dt v;
                        n(t+dt) from n(t) and omega = n x u(t+dt/2)   (leapfrog drift)
     (forces and torques at t+dt)
     final_integrate    v += dt/2 f/m;
                        omega(t+3dt/2) = omega(t+dt/2) + dt tau_perp(t+dt)/I  (kick)
                        Berendsen: v *= lambda_T, omega *= lambda_R; the kinetic
                        energy this removes adds to the fix's scalar (ecouple)
   so between steps (thermo, dump, restart) x, v, n are at t and omega at t+dt/2.
   Atoms with |mu| = 0 translate only.
------------------------------------------------------------------------- */

#include "fix_leapfrog_aniso.h"

#include "physics/rotation_leapfrog.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "compute.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "modify.h"
#include "update.h"
#include "utils.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace LAMMPS_NS;
using namespace FixConst;
namespace phys = mesogpu::physics;

namespace {

bool is_keyword(const char *s)
{
  return strcmp(s, "inertia") == 0 || strcmp(s, "berendsen") == 0 || strcmp(s, "limit") == 0;
}

// n = mu/|mu| from the components (scaled: |mu| = 1e200 does not overflow); false if
// they are all zero (or not finite, which init() refuses)
bool orientation(const double *mu, double *n)
{
  return phys::rotation::unit_vector(mu, n) > 0.0;
}

const char cite_fix_leapfrog_aniso[] =
    "fix leapfrog/aniso: https://doi.org/10.1080/08927029208022474\n\n"
    "@Article{Fincham92,\n"
    " author = {D. Fincham},\n"
    " title = {Leapfrog rotational algorithms},\n"
    " journal = {Mol.\\ Simul.},\n"
    " year = 1992,\n"
    " volume = 8,\n"
    " pages = {165--178},\n"
    " doi = {10.1080/08927029208022474}\n"
    "}\n\n"
    "@Article{Zhu13,\n"
    " author = {Y.-L. Zhu and H. Liu and Z.-W. Li and H.-J. Qian and G. Milano and Z.-Y. Lu},\n"
    " title = {{GALAMOST}: {GPU}-accelerated large-scale molecular simulation toolkit},\n"
    " journal = {J.~Comput.\\ Chem.},\n"
    " year = 2013,\n"
    " volume = 34,\n"
    " pages = {2197--2211},\n"
    " doi = {10.1002/jcc.23365}\n"
    "}\n\n";

}    // namespace

/* ---------------------------------------------------------------------- */

FixLeapfrogAniso::FixLeapfrogAniso(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
{
  if (narg < 3) utils::missing_cmd_args(FLERR, "fix leapfrog/aniso", error);
  if (lmp->citeme) lmp->citeme->add(cite_fix_leapfrog_aniso);

  dynamic_group_allow = 1;
  time_integrate = 1;
  restart_global = 1;
  scalar_flag = 1;    // the energy the thermostat took out (0 without berendsen)
  extscalar = 1;
  ecouple_flag = 1;
  vector_flag = 1;
  size_vector = 2;
  global_freq = 1;
  extvector = 0;

  const int ntypes = atom->ntypes;
  inertia.assign(ntypes + 1, 1.0);
  inertia_set.assign(ntypes + 1, 0);

  int iarg = 3;
  while (iarg < narg) {
    if (strcmp(arg[iarg], "inertia") == 0) {
      // one or more '<types> <I>' pairs, up to the next keyword
      int npair = 0;
      ++iarg;
      while (iarg < narg && !is_keyword(arg[iarg])) {
        if (iarg + 1 >= narg || is_keyword(arg[iarg + 1]))
          error->all(FLERR, iarg,
                     "Fix leapfrog/aniso: inertia expects '<types> <I>' pairs; types '{}' has no "
                     "value",
                     arg[iarg]);
        // a type label ('labelmap atom 1 A') stands for its type, as in LAMMPS's commands
        std::string types = arg[iarg];
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
          error->all(FLERR, iarg,
                     "Fix leapfrog/aniso: inertia: atom types '{}' are not a type, type label or "
                     "range within 1-{}",
                     arg[iarg], ntypes);
        if (!utils::is_double(arg[iarg + 1]))
          error->all(FLERR, iarg + 1,
                     "Fix leapfrog/aniso: inertia for types {}: '{}' is not a number", arg[iarg],
                     arg[iarg + 1]);
        const double value = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
        if (!(value > 0.0) || !std::isfinite(value))
          error->all(FLERR, iarg + 1,
                     "Fix leapfrog/aniso: inertia for types {} must be > 0 (got {})", arg[iarg],
                     arg[iarg + 1]);
        for (int t = lo; t <= hi; ++t) {
          inertia[t] = value;
          inertia_set[t] = 1;
        }
        ++npair;
        iarg += 2;
      }
      if (npair == 0)
        error->all(FLERR, iarg - 1,
                   "Fix leapfrog/aniso: inertia expects one or more '<types> <I>' pairs");
    } else if (strcmp(arg[iarg], "berendsen") == 0) {
      if (iarg + 4 > narg)
        error->all(FLERR, iarg,
                   "Fix leapfrog/aniso: berendsen expects 3 values: T0 tau_T tau_R (got {})",
                   narg - iarg - 1);
      const char *names[3] = {"T0", "tau_T", "tau_R"};
      double val[3];
      for (int k = 0; k < 3; ++k) {
        const char *s = arg[iarg + 1 + k];
        if (!utils::is_double(s))
          error->all(FLERR, iarg + 1 + k, "Fix leapfrog/aniso: berendsen {}: '{}' is not a number",
                     names[k], s);
        val[k] = utils::numeric(FLERR, s, false, lmp);
        if (!std::isfinite(val[k]))
          error->all(FLERR, iarg + 1 + k, "Fix leapfrog/aniso: berendsen {} must be finite",
                     names[k]);
      }
      if (val[0] < 0.0)
        error->all(FLERR, iarg + 1, "Fix leapfrog/aniso: berendsen T0 must be >= 0 (got {})",
                   arg[iarg + 1]);
      if (val[1] <= 0.0)
        error->all(FLERR, iarg + 2, "Fix leapfrog/aniso: berendsen tau_T must be > 0 (got {})",
                   arg[iarg + 2]);
      if (val[2] <= 0.0)
        error->all(FLERR, iarg + 3, "Fix leapfrog/aniso: berendsen tau_R must be > 0 (got {})",
                   arg[iarg + 3]);
      berendsen = true;
      t_target = val[0];
      tau_t = val[1];
      tau_r = val[2];
      iarg += 4;
    } else if (strcmp(arg[iarg], "limit") == 0) {
      if (iarg + 2 > narg)
        error->all(FLERR, iarg, "Fix leapfrog/aniso: limit expects stop or normalize");
      if (strcmp(arg[iarg + 1], "stop") == 0)
        limit_normalize = false;
      else if (strcmp(arg[iarg + 1], "normalize") == 0)
        limit_normalize = true;
      else
        error->all(FLERR, iarg + 1,
                   "Fix leapfrog/aniso: limit expects stop or normalize (got '{}')", arg[iarg + 1]);
      iarg += 2;
    } else {
      error->all(FLERR, iarg,
                 "Fix leapfrog/aniso: unknown keyword '{}' (allowed: inertia, berendsen, limit)",
                 arg[iarg]);
    }
  }
}

/* ---------------------------------------------------------------------- */

FixLeapfrogAniso::~FixLeapfrogAniso()
{
  delete[] id_temp;
}

/* ---------------------------------------------------------------------- */

int FixLeapfrogAniso::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE;
}

/* ---------------------------------------------------------------------- */

void FixLeapfrogAniso::init()
{
  if (!atom->mu_flag || !atom->omega_flag || !atom->torque_flag)
    error->all(FLERR,
               "Fix leapfrog/aniso requires atom attributes mu, omega and torque: use atom_style "
               "hybrid sphere dipole");
  if (domain->dimension != 3)
    error->all(FLERR, "Fix leapfrog/aniso requires a 3d system (dimension 3)");
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, "Fix leapfrog/aniso does not support run_style respa: use run_style verlet");

  // types added after the fix was defined (read_data add ...) rotate with I = 1
  if ((int) inertia.size() < atom->ntypes + 1) {
    inertia.resize(atom->ntypes + 1, 1.0);
    inertia_set.resize(atom->ntypes + 1, 0);
  }

  if (id_temp) {
    temperature = modify->get_compute_by_id(id_temp);
    if (!temperature)
      error->all(FLERR,
                 "Fix leapfrog/aniso: temperature compute {} (fix_modify temp) does not exist",
                 id_temp);
    if (!berendsen && comm->me == 0)
      error->warning(FLERR,
                     "Fix leapfrog/aniso: fix_modify temp {} is used only by the Berendsen "
                     "thermostat (and f_{}[1]); this fix has no 'berendsen' keyword",
                     id_temp, id);
  }

  double **mu = atom->mu;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;

  // every dipole of the group must be finite: stop now, naming the atom, rather than steps
  // later. mu[3] = |mu| from the components (LAMMPS's 'set dipole' forms |mu|^2, which
  // overflows to inf for components above ~1e154 although the direction is fine)
  tagint bad = MAXTAGINT, bad_all;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    double n[3];
    const double len = phys::rotation::unit_vector(mu[i], n);
    if (!(len >= 0.0) || !std::isfinite(len)) {
      if (tag[i] < bad) bad = tag[i];
    } else if (!std::isfinite(mu[i][3]) || std::fabs(mu[i][3] - len) > 1e-6 * len) {
      mu[i][3] = len;
    }
  }
  MPI_Allreduce(&bad, &bad_all, 1, MPI_LMP_TAGINT, MPI_MIN, world);
  if (bad_all != MAXTAGINT)
    error->all(FLERR,
               "Fix leapfrog/aniso: atom {} has a dipole moment that is not finite (inf or NaN "
               "components, or |mu| beyond the largest double); the orientation is the dipole "
               "direction",
               bad_all);

  // a type given an inertia is a rotating type: each of its atoms in the group needs an
  // orientation (|mu| > 0); report the atom with the smallest ID
  bad = MAXTAGINT;
  for (int i = 0; i < nlocal; ++i)
    if ((mask[i] & groupbit) && inertia_set[type[i]] && !(mu[i][3] > 0.0) && tag[i] < bad)
      bad = tag[i];
  MPI_Allreduce(&bad, &bad_all, 1, MPI_LMP_TAGINT, MPI_MIN, world);
  if (bad_all != MAXTAGINT) {
    int btype = 0, btype_all;
    for (int i = 0; i < nlocal; ++i)
      if (tag[i] == bad_all) btype = type[i];
    MPI_Allreduce(&btype, &btype_all, 1, MPI_INT, MPI_MAX, world);
    error->all(FLERR,
               "Fix leapfrog/aniso: atom {} of type {} has no orientation (|mu| = 0) but type {} "
               "was given an inertia; give inertia only to types whose atoms carry a dipole",
               bad_all, btype_all, btype_all);
  }

  reset_dt();
}

/* ----------------------------------------------------------------------
   start of a run: omega of a linear rotor has no part along n (a spin about the
   axis is no degree of freedom); drop any such part so that |omega| = |u|. A no-op for
   a state this fix produced, so runs and restarts continue identically.
------------------------------------------------------------------------- */

void FixLeapfrogAniso::setup(int /*vflag*/)
{
  double **mu = atom->mu;
  double **omega = atom->omega;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  for (int i = 0; i < nlocal; ++i) {
    double n[3];
    if ((mask[i] & groupbit) && mu[i][3] > 0.0 && orientation(mu[i], n))
      phys::rotation::project_perp(omega[i], n);
  }

  fix_dof = 0.0;
  for (const auto &ifix : modify->get_fix_list())
    if (ifix->dof_flag) fix_dof += ifix->dof(igroup);
  warned_cold = false;
}

/* ---------------------------------------------------------------------- */

void FixLeapfrogAniso::reset_dt()
{
  dtv = update->dt;
  dtf = 0.5 * update->dt * force->ftm2v;
  // tau < dt overshoots: lambda^2 = 1 + (dt/tau)(T0/T - 1) < 0 for T > T0 dt/(dt - tau), so
  // T jumps between 0 and far above T0 instead of relaxing. Checked at init() and when dt
  // changes during a run (fix dt/reset); the 'timestep' command between runs also calls
  // reset_dt(), and the next run's init() decides then.
  if (berendsen && update->whichflag != 0 && (tau_t < dtv || tau_r < dtv))
    error->all(FLERR,
               "Fix leapfrog/aniso: berendsen tau_T = {} and tau_R = {} must both be >= the "
               "timestep dt = {} (a shorter relaxation time overshoots the target)",
               tau_t, tau_r, dtv);
}

/* ---------------------------------------------------------------------- */

void FixLeapfrogAniso::initial_integrate(int /*vflag*/)
{
  double **x = atom->x;
  double **v = atom->v;
  double **f = atom->f;
  double **mu = atom->mu;
  double **omega = atom->omega;
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
    double n[3];
    if (!(mu[i][3] > 0.0) || !orientation(mu[i], n)) continue;
    if (!phys::leapfrog_drift(n, omega[i], dtv)) {
      if (!limit_normalize)
        error->one(FLERR,
                   "Fix leapfrog/aniso: atom {} turns by more than 1 radian per step (dt*|omega| "
                   "= {:.6g} >= 1): reduce the timestep, or use 'limit normalize'",
                   atom->tag[i], dtv * std::sqrt(phys::rotation::dot3(omega[i], omega[i])));
      phys::leapfrog_drift_normalized(n, omega[i], dtv);
      ++nlimited;
    }
    for (int d = 0; d < 3; ++d) mu[i][d] = mu[i][3] * n[d];
  }
}

/* ---------------------------------------------------------------------- */

/* ----------------------------------------------------------------------
   with 'limit normalize': say how many drifts took the normalised step in this run
------------------------------------------------------------------------- */

void FixLeapfrogAniso::post_run()
{
  bigint all = 0;
  MPI_Allreduce(&nlimited, &all, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  nlimited = 0;
  if (all > 0 && comm->me == 0)
    error->warning(FLERR,
                   "Fix leapfrog/aniso: {} rotation(s) with dt*|omega x n| >= 1 took the "
                   "normalised drift in this run (limit normalize)",
                   all);
}

/* ---------------------------------------------------------------------- */

void FixLeapfrogAniso::final_integrate()
{
  double **v = atom->v;
  double **f = atom->f;
  double **mu = atom->mu;
  double **omega = atom->omega;
  double **torque = atom->torque;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;

  const double dtr = dtv * force->ftm2v;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
    for (int d = 0; d < 3; ++d) v[i][d] += dtfm * f[i][d];
    double n[3];
    if (mu[i][3] > 0.0 && orientation(mu[i], n))
      phys::leapfrog_kick(omega[i], n, torque[i], dtr / inertia[type[i]]);
  }

  if (!berendsen) return;

  double t_tr, t_rot, dof_tr, n_rot, lambda_t, lambda_r;
  temperatures(t_tr, t_rot, dof_tr, n_rot);
  berendsen_factors(t_tr, t_rot, dof_tr, n_rot, lambda_t, lambda_r);
  // a fix_modify temp compute with a bias (e.g. temp/partial) scales the thermal part only
  const bool bias = temperature && temperature->tempbias;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    if (bias) temperature->remove_bias(i, v[i]);
    for (int d = 0; d < 3; ++d) v[i][d] *= lambda_t;
    if (bias) temperature->restore_bias(i, v[i]);
    if (mu[i][3] > 0.0)
      for (int d = 0; d < 3; ++d) omega[i][d] *= lambda_r;
  }
}

/* ----------------------------------------------------------------------
   lambda_T, lambda_R of the Berendsen thermostat, and the kinetic energy they remove,
   KE (1 - lambda^2) with KE = dof k_B T / 2 (translation) and N_rot k_B T_rot
   (rotation, 2 dof per particle), added to energy as fix temp/berendsen does
------------------------------------------------------------------------- */

void FixLeapfrogAniso::berendsen_factors(double t_tr, double t_rot, double dof_tr, double n_rot,
                                         double &lambda_t, double &lambda_r)
{
  lambda_t = dof_tr > 0.0 ? phys::berendsen_lambda(dtv, tau_t, t_target, t_tr) : 1.0;
  lambda_r = n_rot > 0.0 ? phys::berendsen_lambda(dtv, tau_r, t_target, t_rot) : 1.0;
  const double boltz = force->boltz;
  energy += 0.5 * boltz * dof_tr * t_tr * (1.0 - lambda_t * lambda_t) +
            boltz * n_rot * t_rot * (1.0 - lambda_r * lambda_r);

  // scaling cannot heat a temperature of exactly 0 (no torques, omega = 0, say)
  if (!warned_cold && t_target > 0.0 &&
      ((dof_tr > 0.0 && !(t_tr > 0.0)) || (n_rot > 0.0 && !(t_rot > 0.0)))) {
    warned_cold = true;
    if (comm->me == 0)
      error->warning(FLERR,
                     "Fix leapfrog/aniso: berendsen: the {} temperature is 0, and scaling the "
                     "velocities cannot raise it to T0 = {}; give the atoms initial {} (velocity "
                     "or set ... omega)",
                     dof_tr > 0.0 && !(t_tr > 0.0) ? "translational" : "rotational", t_target,
                     dof_tr > 0.0 && !(t_tr > 0.0) ? "velocities" : "angular velocities");
  }
}

/* ----------------------------------------------------------------------
   T_tr = sum m v^2 / (dof k_B), dof = 3 N - 3 - (dof removed by other fixes), as
   compute temp; T_rot = sum I |u|^2 / (2 N_rot k_B) over the group's atoms with
   |mu| > 0, |u| = |omega x n|.
------------------------------------------------------------------------- */

void FixLeapfrogAniso::temperatures(double &t_tr, double &t_rot, double &dof_tr, double &n_rot)
{
  double **v = atom->v;
  double **mu = atom->mu;
  double **omega = atom->omega;
  const double *rmass = atom->rmass;
  const double *mass = atom->mass;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;

  double local[4] = {0.0, 0.0, 0.0, 0.0}, sum[4];
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double m = rmass ? rmass[i] : mass[type[i]];
    local[0] += m * phys::rotation::dot3(v[i], v[i]);
    local[2] += 1.0;
    double n[3];
    if (mu[i][3] > 0.0 && orientation(mu[i], n)) {
      double u[3];
      phys::u_from_omega(u, omega[i], n);
      local[1] += inertia[type[i]] * phys::rotation::dot3(u, u);
      local[3] += 1.0;
    }
  }
  MPI_Allreduce(local, sum, 4, MPI_DOUBLE, MPI_SUM, world);

  dof_tr = 3.0 * sum[2] - 3.0 - fix_dof;
  n_rot = sum[3];
  const double mvv2e = force->mvv2e, boltz = force->boltz;
  t_tr = dof_tr > 0.0 ? sum[0] * mvv2e / (dof_tr * boltz) : 0.0;
  t_rot = n_rot > 0.0 ? sum[1] * mvv2e / (2.0 * n_rot * boltz) : 0.0;
  if (id_temp) {
    // fix_modify temp: the translational temperature and its dof are that compute's
    // (looked up again: it may have been deleted since init, e.g. before an f_ID[1] read)
    temperature = modify->get_compute_by_id(id_temp);
    if (!temperature)
      error->all(FLERR,
                 "Fix leapfrog/aniso: temperature compute {} (fix_modify temp) does not exist",
                 id_temp);
    t_tr = temperature->compute_scalar();
    dof_tr = temperature->dof;
  }
}

/* ----------------------------------------------------------------------
   f_ID = the cumulative kinetic energy the thermostat removed (ecouple);
   f_ID[1] = T_translational, f_ID[2] = T_rotational, from the current atom arrays
------------------------------------------------------------------------- */

double FixLeapfrogAniso::compute_scalar()
{
  return energy;
}

double FixLeapfrogAniso::compute_vector(int n)
{
  double t_tr, t_rot, dof_tr, n_rot;
  temperatures(t_tr, t_rot, dof_tr, n_rot);
  return n == 0 ? t_tr : t_rot;
}

/* ----------------------------------------------------------------------
   fix_modify temp ID: the Berendsen thermostat's translational temperature (and f_ID[1])
   from compute ID, as fix temp/berendsen does; rotation keeps the fix's own T_rot
------------------------------------------------------------------------- */

int FixLeapfrogAniso::modify_param(int narg, char **arg)
{
  if (strcmp(arg[0], "temp") == 0) {
    if (narg < 2) utils::missing_cmd_args(FLERR, "fix_modify temp", error);
    Compute *c = modify->get_compute_by_id(arg[1]);
    if (!c)
      error->all(FLERR, "Fix leapfrog/aniso: fix_modify temp: compute {} does not exist", arg[1]);
    if (c->tempflag == 0)
      error->all(FLERR,
                 "Fix leapfrog/aniso: fix_modify temp: compute {} (style {}) does not compute a "
                 "temperature",
                 arg[1], c->style);
    if (c->igroup != igroup && comm->me == 0)
      error->warning(FLERR,
                     "Fix leapfrog/aniso: fix_modify temp: group of compute {} ({}) is not "
                     "the fix group ({})",
                     arg[1], group->names[c->igroup], group->names[igroup]);
    delete[] id_temp;
    id_temp = utils::strdup(arg[1]);
    temperature = c;
    return 2;
  }
  return 0;
}

/* ----------------------------------------------------------------------
   restart: the energy exchanged so far (ecouple continues across a restart)
------------------------------------------------------------------------- */

void FixLeapfrogAniso::write_restart(FILE *fp)
{
  if (comm->me == 0) {
    const int size = sizeof(double);
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(&energy, sizeof(double), 1, fp);
  }
}

void FixLeapfrogAniso::restart(char *buf)
{
  energy = reinterpret_cast<double *>(buf)[0];
}

/* ---------------------------------------------------------------------- */

void *FixLeapfrogAniso::extract(const char *name, int &dim)
{
  if (strcmp(name, "t_target") == 0 && berendsen) {
    dim = 0;
    return &t_target;
  }
  if (strcmp(name, "inertia") == 0) {
    dim = 1;
    return inertia.data();
  }
  return nullptr;
}
