/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style soft/aniso; see pair_soft_aniso.h and doc/pair_soft_aniso.md.
------------------------------------------------------------------------- */

#include "pair_soft_aniso.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "physics/rotation_leapfrog.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace LAMMPS_NS;
using mesogpu::physics::make_soft_aniso_params;
using mesogpu::physics::soft_aniso_pair;
using mesogpu::physics::soft_aniso_torque;
using mesogpu::physics::SoftAnisoModel;
using mesogpu::physics::SoftAnisoParams;

namespace {
const double DEG2RAD = 3.14159265358979323846 / 180.0;

const char cite_pair_soft_aniso[] =
    "pair_style soft/aniso: https://doi.org/10.1002/jcc.23365\n\n"
    "@Article{Zhu13,\n"
    " author = {Y.-L. Zhu and H. Liu and Z.-W. Li and H.-J. Qian and G. Milano and Z.-Y. Lu},\n"
    " title = {{GALAMOST}: {GPU}-accelerated large-scale molecular simulation toolkit},\n"
    " journal = {J.~Comput.\\ Chem.},\n"
    " year = 2013,\n"
    " volume = 34,\n"
    " pages = {2197--2211},\n"
    " doi = {10.1002/jcc.23365}\n"
    "}\n\n"
    "@Article{Li08,\n"
    " author = {Z.-W. Li and L.-J. Chen and Y. Zhao and Z.-Y. Lu},\n"
    " title = {Ordered packing of soft discoidal system},\n"
    " journal = {J.~Phys.\\ Chem.~B},\n"
    " year = 2008,\n"
    " volume = 112,\n"
    " pages = {13842--13848}\n"
    "}\n\n"
    "@Article{Li10,\n"
    " author = {Z.-W. Li and Z.-Y. Sun and Z.-Y. Lu},\n"
    " title = {Simulation model for hierarchical self-assembly of soft disklike particles},\n"
    " journal = {J.~Phys.\\ Chem.~B},\n"
    " year = 2010,\n"
    " volume = 114,\n"
    " pages = {2353--2358}\n"
    "}\n\n"
    "@Article{Li12,\n"
    " author = {Z.-W. Li and Z.-Y. Lu and Z.-Y. Sun and L.-J. An},\n"
    " title = {Model, self-assembly structures, and phase diagram of soft {Janus} particles},\n"
    " journal = {Soft Matter},\n"
    " year = 2012,\n"
    " volume = 8,\n"
    " pages = {6693--6697}\n"
    "}\n\n";

struct ModelInfo {
  const char *name;
  SoftAnisoModel model;
  int nargs;    // numbers after the model name
  const char *usage;
};

const ModelInfo MODELS[] = {
    {"iso", SoftAnisoModel::iso, 0, "iso"},
    {"rod", SoftAnisoModel::rod, 2, "rod mu nu"},
    {"disk", SoftAnisoModel::disk, 2, "disk mu nu"},
    {"janus", SoftAnisoModel::janus, 3, "janus alpha_A nu beta"},
    {"aba", SoftAnisoModel::aba, 3, "aba alpha_A nu beta"},
    {"bab", SoftAnisoModel::bab, 3, "bab alpha_A nu beta"},
};

const ModelInfo &model_info(int m)
{
  for (const ModelInfo &mi : MODELS)
    if (static_cast<int>(mi.model) == m) return mi;
  return MODELS[0];
}
}    // namespace

/* ---------------------------------------------------------------------- */

PairSoftAniso::PairSoftAniso(LAMMPS *lmp) :
    Pair(lmp), cut_global(0.0), ntypes_alloc(0), model(nullptr), alpha_r(nullptr), alpha_a(nullptr),
    shape_mu(nullptr), nu(nullptr), beta_deg(nullptr), cut(nullptr), nmax(0), orient(nullptr)
{
  restartinfo = 1;
  writedata = 1;
  single_enable = 1;
  single_extra = 6;    // force on i and torque on i, as pair gayberne
  svector = new double[6];
  if (lmp->citeme) lmp->citeme->add(cite_pair_soft_aniso);
}

/* ---------------------------------------------------------------------- */

PairSoftAniso::~PairSoftAniso()
{
  if (copymode) return;
  delete[] svector;
  memory->destroy(orient);
  deallocate();
}

void PairSoftAniso::deallocate()
{
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  memory->destroy(model);
  memory->destroy(alpha_r);
  memory->destroy(alpha_a);
  memory->destroy(shape_mu);
  memory->destroy(nu);
  memory->destroy(beta_deg);
  memory->destroy(cut);
  params.clear();
  aniso_type.clear();
  allocated = 0;
}

/* ----------------------------------------------------------------------
   unit orientation of every local and ghost atom: the direction of its dipole
------------------------------------------------------------------------- */

void PairSoftAniso::normalise_orientations()
{
  const int nall = atom->nlocal + atom->nghost;
  if (atom->nmax > nmax) {
    memory->destroy(orient);
    nmax = atom->nmax;
    memory->create(orient, nmax, 3, "pair:orient");
  }
  double **mu = atom->mu;
  int *type = atom->type;
  for (int i = 0; i < nall; i++) {
    // scaled normalisation: |mu| = 1e200 is a valid orientation, not an overflow
    const double len = mesogpu::physics::rotation::unit_vector(mu[i], orient[i]);
    if (!(len >= 0.0) && i < atom->nlocal)
      error->one(FLERR,
                 "Pair soft/aniso: atom {} of type {} has a non-finite dipole moment ({} {} {}); "
                 "the orientation is the dipole direction",
                 atom->tag[i], type[i], mu[i][0], mu[i][1], mu[i][2]);
    if (len == 0.0) {
      if (i < atom->nlocal && aniso_type[type[i]])
        error->one(FLERR,
                   "Pair soft/aniso: atom {} of type {} has a zero dipole moment, but type {} has "
                   "an anisotropic pair_coeff and the orientation is the dipole direction; give "
                   "it one (e.g. 'set type {} dipole/random SEED 1.0')",
                   atom->tag[i], type[i], type[i], type[i]);
    }
  }
}

/* ---------------------------------------------------------------------- */

void PairSoftAniso::compute(int eflag, int vflag)
{
  double evdwl = 0.0;
  ev_init(eflag, vflag);
  normalise_orientations();

  double **x = atom->x;
  double **f = atom->f;
  double **torque = atom->torque;
  int *type = atom->type;
  const int nlocal = atom->nlocal;
  double *special_lj = force->special_lj;
  const int newton_pair = force->newton_pair;
  const int stride = ntypes_alloc + 1;

  const int inum = list->inum;
  int *ilist = list->ilist;
  int *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh;

  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist[ii];
    const double xtmp = x[i][0];
    const double ytmp = x[i][1];
    const double ztmp = x[i][2];
    const int itype = type[i];
    int *jlist = firstneigh[i];
    const int jnum = numneigh[i];

    for (int jj = 0; jj < jnum; jj++) {
      int j = jlist[jj];
      const double factor_lj = special_lj[sbmask(j)];
      j &= NEIGHMASK;

      // LAMMPS's del = x_i - x_j; the evaluator takes r_ij = x_j - x_i
      const double delx = xtmp - x[j][0];
      const double dely = ytmp - x[j][1];
      const double delz = ztmp - x[j][2];
      const double rsq = delx * delx + dely * dely + delz * delz;
      const int jtype = type[j];
      if (rsq >= cutsq[itype][jtype]) continue;

      const SoftAnisoParams<double> &p = params[itype * stride + jtype];
      const double rij[3] = {-delx, -dely, -delz};
      double energy, fj[3], gi[3], gj[3];
      if (!soft_aniso_pair(p, rij, orient[i], orient[j], energy, fj, gi, gj)) continue;

      for (int d = 0; d < 3; d++) {
        fj[d] *= factor_lj;
        gi[d] *= factor_lj;
        gj[d] *= factor_lj;
      }
      f[i][0] -= fj[0];
      f[i][1] -= fj[1];
      f[i][2] -= fj[2];
      const bool aniso = p.model != SoftAnisoModel::iso;
      double tau[3];
      if (aniso) {
        soft_aniso_torque(orient[i], gi, tau);
        torque[i][0] += tau[0];
        torque[i][1] += tau[1];
        torque[i][2] += tau[2];
      }
      if (newton_pair || j < nlocal) {
        f[j][0] += fj[0];
        f[j][1] += fj[1];
        f[j][2] += fj[2];
        if (aniso) {
          soft_aniso_torque(orient[j], gj, tau);
          torque[j][0] += tau[0];
          torque[j][1] += tau[1];
          torque[j][2] += tau[2];
        }
      }

      if (eflag) evdwl = factor_lj * energy;
      // not a central force: the virial needs the force components (F_i = -F_j)
      if (evflag)
        ev_tally_xyz(i, j, nlocal, newton_pair, evdwl, 0.0, -fj[0], -fj[1], -fj[2], delx, dely,
                     delz);
    }
  }

  if (vflag_fdotr) virial_fdotr_compute();
}

/* ---------------------------------------------------------------------- */

void PairSoftAniso::allocate()
{
  allocated = 1;
  ntypes_alloc = atom->ntypes;
  const int np1 = ntypes_alloc + 1;

  memory->create(setflag, np1, np1, "pair:setflag");
  memory->create(cutsq, np1, np1, "pair:cutsq");
  memory->create(model, np1, np1, "pair:model");
  memory->create(alpha_r, np1, np1, "pair:alpha_r");
  memory->create(alpha_a, np1, np1, "pair:alpha_a");
  memory->create(shape_mu, np1, np1, "pair:mu");
  memory->create(nu, np1, np1, "pair:nu");
  memory->create(beta_deg, np1, np1, "pair:beta");
  memory->create(cut, np1, np1, "pair:cut");
  for (int i = 0; i < np1; i++)
    for (int j = 0; j < np1; j++) {
      setflag[i][j] = 0;
      cutsq[i][j] = 0.0;
      model[i][j] = static_cast<int>(SoftAnisoModel::iso);
      alpha_r[i][j] = alpha_a[i][j] = shape_mu[i][j] = beta_deg[i][j] = cut[i][j] = 0.0;
      nu[i][j] = 1.0;
    }
  params.assign((size_t) np1 * np1,
                make_soft_aniso_params<double>(SoftAnisoModel::iso, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0));
  aniso_type.assign(np1, 0);
}

/* ----------------------------------------------------------------------
   pair_style soft/aniso rc
------------------------------------------------------------------------- */

void PairSoftAniso::settings(int narg, char **arg)
{
  if (narg != 1) error->all(FLERR, "Pair style soft/aniso: expected 'pair_style soft/aniso rc'");
  cut_global = utils::numeric(FLERR, arg[0], false, lmp);
  if (!(cut_global > 0.0))
    error->all(FLERR, "Pair style soft/aniso: cutoff rc = {} must be > 0", arg[0]);

  // a new global cutoff replaces the cutoffs of the pairs already set, as in lj/cut
  if (allocated)
    for (int i = 1; i <= atom->ntypes; i++)
      for (int j = i; j <= atom->ntypes; j++)
        if (setflag[i][j]) cut[i][j] = cut_global;
}

/* ----------------------------------------------------------------------
   pair_coeff I J alpha_R model [model args] [rc]
------------------------------------------------------------------------- */

void PairSoftAniso::coeff(int narg, char **arg)
{
  const char *usage = "'pair_coeff I J alpha_R model [args] [rc]' with model one of: iso; rod mu "
                      "nu; disk mu nu; janus alpha_A nu beta; aba alpha_A nu beta; bab alpha_A "
                      "nu beta";
  if (narg < 4) error->all(FLERR, "Pair coeff for soft/aniso: expected {}", usage);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  auto number = [&](int iarg) { return utils::numeric(FLERR, arg[iarg], false, lmp); };
  const double ar = number(2);
  if (ar < 0.0) error->all(FLERR, "Pair coeff for soft/aniso: alpha_R = {} must be >= 0", arg[2]);

  const ModelInfo *mi = nullptr;
  for (const ModelInfo &m : MODELS)
    if (strcmp(arg[3], m.name) == 0) mi = &m;
  if (!mi)
    error->all(FLERR,
               "Pair coeff for soft/aniso: unknown model '{}' (allowed: iso, rod, disk, janus, "
               "aba, bab)",
               arg[3]);
  if (narg != 4 + mi->nargs && narg != 5 + mi->nargs)
    error->all(FLERR,
               "Pair coeff for soft/aniso: model {} expects 'pair_coeff I J alpha_R {} [rc]' ({} "
               "or {} arguments), got {}",
               mi->name, mi->usage, 4 + mi->nargs, 5 + mi->nargs, narg);

  double aa = 0.0, mu_one = 0.0, nu_one = 1.0, beta_one = 0.0;
  switch (mi->model) {
    case SoftAnisoModel::rod:
    case SoftAnisoModel::disk:
      mu_one = number(4);
      nu_one = number(5);
      if (mu_one < 0.0 || mu_one >= 1.0)
        error->all(FLERR, "Pair coeff for soft/aniso: {} mu = {} is out of range (0 <= mu < 1)",
                   mi->name, arg[4]);
      if (nu_one <= 0.0)
        error->all(FLERR, "Pair coeff for soft/aniso: {} nu = {} must be > 0", mi->name, arg[5]);
      break;
    case SoftAnisoModel::janus:
    case SoftAnisoModel::aba:
    case SoftAnisoModel::bab: {
      aa = number(4);
      nu_one = number(5);
      beta_one = number(6);
      if (aa < 0.0)
        error->all(FLERR, "Pair coeff for soft/aniso: {} alpha_A = {} must be >= 0", mi->name,
                   arg[4]);
      if (nu_one <= 0.0)
        error->all(FLERR, "Pair coeff for soft/aniso: {} nu = {} must be > 0", mi->name, arg[5]);
      const double beta_max = mi->model == SoftAnisoModel::janus ? 180.0 : 90.0;
      if (beta_one <= 0.0 || beta_one > beta_max)
        error->all(FLERR,
                   "Pair coeff for soft/aniso: {} beta = {} degrees is out of range (0 < beta <= "
                   "{})",
                   mi->name, arg[6], beta_max);
      break;
    }
    default:
      break;
  }

  double cut_one = cut_global;
  if (narg == 5 + mi->nargs) {
    cut_one = number(4 + mi->nargs);
    if (cut_one <= 0.0)
      error->all(FLERR, "Pair coeff for soft/aniso: cutoff rc = {} must be > 0",
                 arg[4 + mi->nargs]);
  }

  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      model[i][j] = static_cast<int>(mi->model);
      alpha_r[i][j] = ar;
      alpha_a[i][j] = aa;
      shape_mu[i][j] = mu_one;
      nu[i][j] = nu_one;
      beta_deg[i][j] = beta_one;
      cut[i][j] = cut_one;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0)
    error->all(FLERR, "Incorrect args for pair coefficients (no type pair I <= J in {} {})", arg[0],
               arg[1]);
}

/* ---------------------------------------------------------------------- */

void PairSoftAniso::init_style()
{
  if (tail_flag)
    error->all(FLERR,
               "Pair soft/aniso has no tail correction (the potential is zero beyond rc): remove "
               "'pair_modify tail yes'");
  if (!atom->mu_flag || !atom->torque_flag)
    error->all(FLERR,
               "Pair soft/aniso needs per-atom orientations (dipole moments mu) and torques; use "
               "'atom_style hybrid sphere dipole' (the orientation is the dipole direction)");
  neighbor->add_request(this);
  // rebuilt by init_one from the pair coefficients
  for (int &a : aniso_type) a = 0;
}

/* ---------------------------------------------------------------------- */

void PairSoftAniso::set_params(int i, int j)
{
  const double beta = beta_deg[i][j] > 0.0 ? beta_deg[i][j] * DEG2RAD : 1.0;
  params[i * (ntypes_alloc + 1) + j] =
      make_soft_aniso_params<double>(static_cast<SoftAnisoModel>(model[i][j]), alpha_r[i][j],
                                     alpha_a[i][j], shape_mu[i][j], nu[i][j], beta, cut[i][j]);
}

/* ----------------------------------------------------------------------
   the ranges pair_coeff enforces, checked again on the stored values of pair i, j:
   fix adapt changes them through extract() and then calls init_one() (reinit)
------------------------------------------------------------------------- */

void PairSoftAniso::check_coeffs(int i, int j)
{
  const ModelInfo &mi = model_info(model[i][j]);
  auto bad = [&](const char *name, double value, const char *range) {
    error->all(FLERR,
               "Pair soft/aniso: {} = {} for atom types {} {} ({}) is out of range ({}); fix "
               "adapt and pair_coeff must keep it there",
               name, value, i, j, mi.name, range);
  };
  if (!(alpha_r[i][j] >= 0.0) || !std::isfinite(alpha_r[i][j]))
    bad("alpha_R", alpha_r[i][j], "finite, >= 0");
  if (!(cut[i][j] > 0.0) || !std::isfinite(cut[i][j])) bad("cutoff rc", cut[i][j], "finite, > 0");
  switch (static_cast<SoftAnisoModel>(model[i][j])) {
    case SoftAnisoModel::rod:
    case SoftAnisoModel::disk:
      if (!(shape_mu[i][j] >= 0.0 && shape_mu[i][j] < 1.0))
        bad("mu", shape_mu[i][j], "0 <= mu < 1");
      if (!(nu[i][j] > 0.0) || !std::isfinite(nu[i][j])) bad("nu", nu[i][j], "finite, > 0");
      break;
    case SoftAnisoModel::janus:
    case SoftAnisoModel::aba:
    case SoftAnisoModel::bab:
      if (!(alpha_a[i][j] >= 0.0) || !std::isfinite(alpha_a[i][j]))
        bad("alpha_A", alpha_a[i][j], "finite, >= 0");
      if (!(nu[i][j] > 0.0) || !std::isfinite(nu[i][j])) bad("nu", nu[i][j], "finite, > 0");
      break;
    default:
      break;
  }

  // pair_coeff leaves the parameters a model does not use at 0 (nu at 1): a change there
  // came from fix adapt and does nothing; say so once
  const SoftAnisoModel m = static_cast<SoftAnisoModel>(model[i][j]);
  const bool uses_mu = m == SoftAnisoModel::rod || m == SoftAnisoModel::disk;
  const bool uses_aa =
      m == SoftAnisoModel::janus || m == SoftAnisoModel::aba || m == SoftAnisoModel::bab;
  const char *unused = nullptr;
  if (!uses_mu && shape_mu[i][j] != 0.0) unused = "mu";
  if (!uses_aa && alpha_a[i][j] != 0.0) unused = "alpha_A";
  if (m == SoftAnisoModel::iso && nu[i][j] != 1.0) unused = "nu";
  if (unused && !warned_unused) {
    warned_unused = true;
    if (comm->me == 0)
      error->warning(FLERR,
                     "Pair soft/aniso: {} of atom types {} {} was changed (fix adapt?), but their "
                     "model {} does not use it",
                     unused, i, j, mi.name);
  }
}

double PairSoftAniso::init_one(int i, int j)
{
  if (setflag[i][j] == 0)
    error->all(FLERR,
               "Pair soft/aniso: no pair_coeff for atom types {} {} (soft/aniso parameters are "
               "never mixed; give a pair_coeff for every type pair)",
               i, j);
  check_coeffs(i, j);
  // during a run (fix adapt's reinit) cutsq and the neighbour lists keep the cutoff of
  // init(): a changed cutoff would be used by the energy but not by the pair search
  if (in_reinit && cut[i][j] * cut[i][j] != cutsq[i][j])
    error->all(FLERR,
               "Pair soft/aniso: the cutoff of atom types {} {} changed from {} to {} during a "
               "run; fix adapt cannot change 'cut' (give it with pair_coeff between runs)",
               i, j, sqrt(cutsq[i][j]), cut[i][j]);

  model[j][i] = model[i][j];
  alpha_r[j][i] = alpha_r[i][j];
  alpha_a[j][i] = alpha_a[i][j];
  shape_mu[j][i] = shape_mu[i][j];
  nu[j][i] = nu[i][j];
  beta_deg[j][i] = beta_deg[i][j];
  cut[j][i] = cut[i][j];
  set_params(i, j);
  set_params(j, i);
  if (model[i][j] != static_cast<int>(SoftAnisoModel::iso)) aniso_type[i] = aniso_type[j] = 1;
  return cut[i][j];
}

void PairSoftAniso::reinit()
{
  in_reinit = true;
  Pair::reinit();
  in_reinit = false;
}

/* ----------------------------------------------------------------------
   restart files: the settings, then the coefficients of each pair I <= J
------------------------------------------------------------------------- */

void PairSoftAniso::write_restart_settings(FILE *fp)
{
  fwrite(&cut_global, sizeof(double), 1, fp);
  fwrite(&offset_flag, sizeof(int), 1, fp);
  fwrite(&mix_flag, sizeof(int), 1, fp);
}

void PairSoftAniso::read_restart_settings(FILE *fp)
{
  if (comm->me == 0) {
    utils::sfread(FLERR, &cut_global, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &offset_flag, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &mix_flag, sizeof(int), 1, fp, nullptr, error);
  }
  MPI_Bcast(&cut_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&offset_flag, 1, MPI_INT, 0, world);
  MPI_Bcast(&mix_flag, 1, MPI_INT, 0, world);
}

void PairSoftAniso::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (setflag[i][j]) {
        fwrite(&model[i][j], sizeof(int), 1, fp);
        fwrite(&alpha_r[i][j], sizeof(double), 1, fp);
        fwrite(&alpha_a[i][j], sizeof(double), 1, fp);
        fwrite(&shape_mu[i][j], sizeof(double), 1, fp);
        fwrite(&nu[i][j], sizeof(double), 1, fp);
        fwrite(&beta_deg[i][j], sizeof(double), 1, fp);
        fwrite(&cut[i][j], sizeof(double), 1, fp);
      }
    }
}

void PairSoftAniso::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();

  const int me = comm->me;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      if (me == 0) {
        utils::sfread(FLERR, &model[i][j], sizeof(int), 1, fp, nullptr, error);
        utils::sfread(FLERR, &alpha_r[i][j], sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &alpha_a[i][j], sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &shape_mu[i][j], sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &nu[i][j], sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &beta_deg[i][j], sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &cut[i][j], sizeof(double), 1, fp, nullptr, error);
      }
      MPI_Bcast(&model[i][j], 1, MPI_INT, 0, world);
      MPI_Bcast(&alpha_r[i][j], 1, MPI_DOUBLE, 0, world);
      MPI_Bcast(&alpha_a[i][j], 1, MPI_DOUBLE, 0, world);
      MPI_Bcast(&shape_mu[i][j], 1, MPI_DOUBLE, 0, world);
      MPI_Bcast(&nu[i][j], 1, MPI_DOUBLE, 0, world);
      MPI_Bcast(&beta_deg[i][j], 1, MPI_DOUBLE, 0, world);
      MPI_Bcast(&cut[i][j], 1, MPI_DOUBLE, 0, world);
      if (model[i][j] < 0 || model[i][j] > static_cast<int>(SoftAnisoModel::bab))
        error->all(FLERR, "Pair soft/aniso: corrupt restart file (model {} for types {} {})",
                   model[i][j], i, j);
    }
}

/* ----------------------------------------------------------------------
   data files: the pair_coeff arguments after I [J], so read_data's
   "Pair Coeffs" / "PairIJ Coeffs" sections go through coeff() again
------------------------------------------------------------------------- */

static std::string coeff_args(int m, double ar, double aa, double mu, double nu, double beta,
                              double rc)
{
  const char *name = model_info(m).name;
  switch (static_cast<SoftAnisoModel>(m)) {
    case SoftAnisoModel::rod:
    case SoftAnisoModel::disk:
      return fmt::format("{:.17g} {} {:.17g} {:.17g} {:.17g}", ar, name, mu, nu, rc);
    case SoftAnisoModel::janus:
    case SoftAnisoModel::aba:
    case SoftAnisoModel::bab:
      return fmt::format("{:.17g} {} {:.17g} {:.17g} {:.17g} {:.17g}", ar, name, aa, nu, beta, rc);
    default:
      return fmt::format("{:.17g} {} {:.17g}", ar, name, rc);
  }
}

void PairSoftAniso::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    utils::print(fp, "{} {}\n", i,
                 coeff_args(model[i][i], alpha_r[i][i], alpha_a[i][i], shape_mu[i][i], nu[i][i],
                            beta_deg[i][i], cut[i][i]));
}

void PairSoftAniso::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      utils::print(fp, "{} {} {}\n", i, j,
                   coeff_args(model[i][j], alpha_r[i][j], alpha_a[i][j], shape_mu[i][j], nu[i][j],
                              beta_deg[i][j], cut[i][j]));
}

/* ----------------------------------------------------------------------
   orientation of atom i straight from atom->mu (single() may run outside compute)
------------------------------------------------------------------------- */

void PairSoftAniso::orientation_of(int i, double n[3]) const
{
  mesogpu::physics::rotation::unit_vector(atom->mu[i], n);    // n = 0 for no direction
}

/* ----------------------------------------------------------------------
   single(): the energy of the pair with the actual orientations and separation
   x_j - x_i of atoms i and j; fforce = the radial force component, F_i . del / r^2
   (the angular part of the force is normal to del, so fforce * del is exactly the
   central part); svector[0-2] = full force on i, svector[3-5] = torque on i.
   When i, j do not name two atoms rsq apart (pair_write calls single(0, 1, ...)
   with made-up distances), there is no direction: energy and fforce are those of
   the isotropic repulsion (alpha_R/2)(1 - r/rc)^2 alone, svector the central force.
------------------------------------------------------------------------- */

double PairSoftAniso::single(int i, int j, int itype, int jtype, double rsq, double /*factor_coul*/,
                             double factor_lj, double &fforce)
{
  SoftAnisoParams<double> p = params[itype * (ntypes_alloc + 1) + jtype];
  const int nall = atom->nlocal + atom->nghost;
  double rij[3] = {sqrt(rsq), 0.0, 0.0};
  double ni[3] = {0.0, 0.0, 0.0}, nj[3] = {0.0, 0.0, 0.0};
  bool oriented = false;
  if (i != j && i >= 0 && j >= 0 && i < nall && j < nall && atom->mu) {
    double **x = atom->x;
    double d[3] = {x[j][0] - x[i][0], x[j][1] - x[i][1], x[j][2] - x[i][2]};
    const double dsq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (fabs(dsq - rsq) <= 1e-10 * rsq) {
      for (int k = 0; k < 3; k++) rij[k] = d[k];
      orientation_of(i, ni);
      orientation_of(j, nj);
      oriented = true;
    }
  }
  if (!oriented) p.model = SoftAnisoModel::iso;

  double energy, fj[3], gi[3], gj[3], tau[3];
  soft_aniso_pair(p, rij, ni, nj, energy, fj, gi, gj);
  soft_aniso_torque(ni, gi, tau);
  for (int k = 0; k < 3; k++) {
    svector[k] = -factor_lj * fj[k];
    svector[3 + k] = factor_lj * tau[k];
  }
  fforce = factor_lj * (fj[0] * rij[0] + fj[1] * rij[1] + fj[2] * rij[2]) / rsq;
  return factor_lj * energy;
}

/* ---------------------------------------------------------------------- */

void *PairSoftAniso::extract(const char *str, int &dim)
{
  dim = 2;
  if (strcmp(str, "cut") == 0) return (void *) cut;
  if (strcmp(str, "alpha_R") == 0) return (void *) alpha_r;
  if (strcmp(str, "alpha_A") == 0) return (void *) alpha_a;
  if (strcmp(str, "mu") == 0) return (void *) shape_mu;
  if (strcmp(str, "nu") == 0) return (void *) nu;
  return nullptr;
}

/* ---------------------------------------------------------------------- */

double PairSoftAniso::memory_usage()
{
  double bytes = Pair::memory_usage();
  bytes += (double) nmax * 3 * sizeof(double);
  bytes += (double) params.size() * sizeof(SoftAnisoParams<double>);
  return bytes;
}
