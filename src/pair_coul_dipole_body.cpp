/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style coul/dipole/body; see pair_coul_dipole_body.h and doc/pair_coul_dipole_body.md.
------------------------------------------------------------------------- */

#include "pair_coul_dipole_body.h"

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "ellipsoid_quat.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <cmath>
#include <cstring>
#include <string>

using namespace LAMMPS_NS;
using mesogpu::physics::bead_debye;
using mesogpu::physics::bead_elec_pair;
using mesogpu::physics::BeadElec;
using mesogpu::physics::body_dipole;
using mesogpu::physics::make_bead_elec_params;

namespace {

const char cite_pair_coul_dipole_body[] =
    "pair_style coul/dipole/body: https://doi.org/10.1021/jp076924f\n\n"
    "@Article{Orsi08,\n"
    " author = {M. Orsi and D. Y. Haubertin and W. E. Sanderson and J. W. Essex},\n"
    " title = {A Quantitative Coarse-Grain Model for Lipid Bilayers},\n"
    " journal = {J.~Phys.\\ Chem.~B},\n"
    " year = 2008,\n"
    " volume = 112,\n"
    " pages = {802--815},\n"
    " doi = {10.1021/jp076924f}\n"
    "}\n\n";

const char *USAGE_STYLE = "'pair_style coul/dipole/body cutoff [elec cut|rf eps_rf|sf]'";
const char *USAGE_COEFF =
    "'pair_coeff I J', 'pair_coeff I I dipole mu_Debye [bx by bz]' or 'pair_coeff I I "
    "dipole/eA mu_eA [bx by bz]'";

}    // namespace

/* ---------------------------------------------------------------------- */

PairCoulDipoleBody::PairCoulDipoleBody(LAMMPS *lmp) :
    Pair(lmp), cut_global(0.0), eps_rf(0.0), mode(0), params(), avec(nullptr), nmax(0),
    pvec(nullptr)
{
  restartinfo = 1;
  writedata = 1;
  // the energy depends on the orientations and the force is not central
  single_enable = 0;
  if (lmp->citeme) lmp->citeme->add(cite_pair_coul_dipole_body);
}

PairCoulDipoleBody::~PairCoulDipoleBody()
{
  if (copymode) return;
  memory->destroy(pvec);
  deallocate();
}

void PairCoulDipoleBody::deallocate()
{
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  mu.clear();
  dir.clear();
  allocated = 0;
}

void PairCoulDipoleBody::allocate()
{
  allocated = 1;
  const int np1 = atom->ntypes + 1;
  memory->create(setflag, np1, np1, "pair:setflag");
  memory->create(cutsq, np1, np1, "pair:cutsq");
  for (int i = 0; i < np1; i++)
    for (int j = 0; j < np1; j++) {
      setflag[i][j] = 0;
      cutsq[i][j] = 0.0;
    }
  mu.assign(np1, 0.0);
  dir.assign(3 * np1, 0.0);
  for (int i = 0; i < np1; i++) dir[3 * i + 2] = 1.0;    // body z
}

/* ----------------------------------------------------------------------
   lab dipoles p = mu R(q) b of every local and ghost atom of a dipolar type; a local atom of
   a dipolar type without an ellipsoid bonus has no orientation: an error
------------------------------------------------------------------------- */

void PairCoulDipoleBody::lab_dipoles()
{
  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  if (atom->nmax > nmax) {
    memory->destroy(pvec);
    nmax = atom->nmax;
    memory->create(pvec, nmax, 3, "pair:pvec");
  }
  const int *type = atom->type;
  for (int i = 0; i < nall; i++) {
    const int t = type[i];
    const double *q = ellipsoid_quat(atom, avec, i);
    if (mu[t] == 0.0 || !q) {
      pvec[i][0] = pvec[i][1] = pvec[i][2] = 0.0;
      if (mu[t] != 0.0 && i < nlocal)
        error->one(FLERR,
                   "Pair coul/dipole/body: atom {} of dipolar type {} has no orientation (no "
                   "ellipsoid bonus); give the type a shape and a quaternion, e.g. 'set type {} "
                   "shape 1 1 1' and 'set type {} quat/random SEED'",
                   atom->tag[i], t, t, t);
      continue;
    }
    body_dipole(q, mu[t], &dir[3 * t], pvec[i]);
  }
}

/* ---------------------------------------------------------------------- */

void PairCoulDipoleBody::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  lab_dipoles();

  double **x = atom->x;
  double **f = atom->f;
  double **torque = atom->torque;
  const double *q = atom->q;
  const int *type = atom->type;
  const int nlocal = atom->nlocal;
  const double *special_coul = force->special_coul;
  const int newton_pair = force->newton_pair;

  const int inum = list->inum;
  const int *ilist = list->ilist;
  const int *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh;

  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist[ii];
    const double xtmp = x[i][0];
    const double ytmp = x[i][1];
    const double ztmp = x[i][2];
    const int itype = type[i];
    const int *jlist = firstneigh[i];
    const int jnum = numneigh[i];

    for (int jj = 0; jj < jnum; jj++) {
      int j = jlist[jj];
      const double factor_coul = special_coul[sbmask(j)];
      j &= NEIGHMASK;

      // LAMMPS's del = x_i - x_j; the evaluator takes r_ij = x_j - x_i
      const double delx = xtmp - x[j][0];
      const double dely = ytmp - x[j][1];
      const double delz = ztmp - x[j][2];
      const double rsq = delx * delx + dely * dely + delz * delz;
      if (rsq >= cutsq[itype][type[j]]) continue;

      const double rij[3] = {-delx, -dely, -delz};
      double ecoul, fj[3], ti[3], tj[3];
      if (!bead_elec_pair(params, rij, q[i], q[j], pvec[i], pvec[j], ecoul, fj, ti, tj)) continue;
      // the energy is linear in the charges and dipoles: special bonds scale all of it
      if (factor_coul != 1.0) {
        ecoul *= factor_coul;
        for (int d = 0; d < 3; d++) {
          fj[d] *= factor_coul;
          ti[d] *= factor_coul;
          tj[d] *= factor_coul;
        }
      }

      f[i][0] -= fj[0];
      f[i][1] -= fj[1];
      f[i][2] -= fj[2];
      torque[i][0] += ti[0];
      torque[i][1] += ti[1];
      torque[i][2] += ti[2];
      if (newton_pair || j < nlocal) {
        f[j][0] += fj[0];
        f[j][1] += fj[1];
        f[j][2] += fj[2];
        torque[j][0] += tj[0];
        torque[j][1] += tj[1];
        torque[j][2] += tj[2];
      }

      // not a central force: the virial needs the force components (F_i = -F_j)
      if (evflag)
        ev_tally_xyz(i, j, nlocal, newton_pair, 0.0, ecoul, -fj[0], -fj[1], -fj[2], delx, dely,
                     delz);
    }
  }

  if (vflag_fdotr) virial_fdotr_compute();
}

/* ----------------------------------------------------------------------
   pair_style coul/dipole/body cutoff [elec cut|rf eps_rf|sf]
------------------------------------------------------------------------- */

void PairCoulDipoleBody::settings(int narg, char **arg)
{
  if (narg < 1) error->all(FLERR, "Pair style coul/dipole/body: expected {}", USAGE_STYLE);
  if (strcmp(update->unit_style, "real") != 0)
    error->all(FLERR,
               "Pair style coul/dipole/body needs 'units real' (Angstrom, kcal/mol, e; dipoles "
               "in Debye or e*Angstrom), not 'units {}'",
               update->unit_style);

  cut_global = utils::numeric(FLERR, arg[0], false, lmp);
  if (!(cut_global > 0.0) || !std::isfinite(cut_global))
    error->all(FLERR, "Pair style coul/dipole/body: cutoff = {} must be > 0", arg[0]);
  mode = static_cast<int>(BeadElec::cut);
  eps_rf = 0.0;

  int iarg = 1;
  while (iarg < narg) {
    const std::string key = arg[iarg];
    if (key != "elec")
      error->all(FLERR, "Pair style coul/dipole/body: unknown keyword '{}'; expected {}", key,
                 USAGE_STYLE);
    if (iarg + 1 >= narg)
      error->all(FLERR, "Pair style coul/dipole/body: keyword elec needs a value; expected {}",
                 USAGE_STYLE);
    const std::string val = arg[iarg + 1];
    if (val == "cut") {
      mode = static_cast<int>(BeadElec::cut);
      iarg += 2;
    } else if (val == "rf") {
      if (iarg + 2 >= narg)
        error->all(FLERR,
                   "Pair style coul/dipole/body: 'elec rf' needs the reaction-field dielectric "
                   "constant: 'elec rf eps_rf' (e.g. 78)");
      eps_rf = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
      if (!(eps_rf >= 1.0) || !std::isfinite(eps_rf))
        error->all(FLERR, "Pair style coul/dipole/body: eps_rf = {} must be >= 1", arg[iarg + 2]);
      mode = static_cast<int>(BeadElec::rf);
      iarg += 3;
    } else if (val == "sf") {
      mode = static_cast<int>(BeadElec::sf);
      iarg += 2;
      if (iarg < narg && utils::is_double(arg[iarg]))
        error->all(FLERR,
                   "Pair style coul/dipole/body: 'elec sf' takes no value (got '{}'): the "
                   "shifted force ends at the cutoff",
                   arg[iarg]);
    } else {
      error->all(FLERR,
                 "Pair style coul/dipole/body: unknown electrostatics '{}' (allowed: cut, rf "
                 "eps_rf, sf)",
                 val);
    }
  }
}

/* ----------------------------------------------------------------------
   pair_coeff I J                                   the pairs are evaluated
   pair_coeff I I dipole mu_Debye [bx by bz]        dipolar types (I and J the same range)
   pair_coeff I I dipole/eA mu_eA [bx by bz]
------------------------------------------------------------------------- */

void PairCoulDipoleBody::coeff(int narg, char **arg)
{
  if (narg < 2) error->all(FLERR, "Pair coeff for coul/dipole/body: expected {}", USAGE_COEFF);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  if (narg > 2) {
    const std::string what = arg[2];
    if (what != "dipole" && what != "dipole/eA")
      error->all(FLERR,
                 "Pair coeff for coul/dipole/body: unknown keyword '{}' (allowed: dipole, "
                 "dipole/eA); expected {}",
                 what, USAGE_COEFF);
    if (narg != 4 && narg != 7)
      error->all(FLERR,
                 "Pair coeff for coul/dipole/body: expected 'pair_coeff I I {} mu [bx by bz]' "
                 "(4 or 7 arguments), got {}",
                 what, narg);
    if (ilo != jlo || ihi != jhi)
      error->all(FLERR,
                 "Pair coeff for coul/dipole/body: a dipole belongs to an atom type, so I and J "
                 "must be the same type or range (got {} {})",
                 arg[0], arg[1]);
    double m = utils::numeric(FLERR, arg[3], false, lmp);
    if (!(m >= 0.0) || !std::isfinite(m))
      error->all(FLERR, "Pair coeff for coul/dipole/body: dipole magnitude {} must be >= 0",
                 arg[3]);
    if (what == "dipole") m *= bead_debye;
    double b[3] = {0.0, 0.0, 1.0};
    if (narg == 7) {
      for (int d = 0; d < 3; d++) {
        b[d] = utils::numeric(FLERR, arg[4 + d], false, lmp);
        if (!std::isfinite(b[d]))
          error->all(FLERR, "Pair coeff for coul/dipole/body: body direction {} must be finite",
                     arg[4 + d]);
      }
      const double n = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
      if (!(n > 0.0))
        error->all(FLERR,
                   "Pair coeff for coul/dipole/body: body direction {} {} {} must not be zero",
                   arg[4], arg[5], arg[6]);
      for (double &c : b) c /= n;
    }
    for (int i = ilo; i <= ihi; i++) {
      mu[i] = m;
      for (int d = 0; d < 3; d++) dir[3 * i + d] = b[d];
    }
  }

  int count = 0;
  for (int i = ilo; i <= ihi; i++)
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      setflag[i][j] = 1;
      count++;
    }
  if (count == 0) error->all(FLERR, "Incorrect args for pair coefficients" + utils::errorurl(21));
}

/* ---------------------------------------------------------------------- */

void PairCoulDipoleBody::init_style()
{
  if (strcmp(update->unit_style, "real") != 0)
    error->all(FLERR, "Pair style coul/dipole/body needs 'units real', not 'units {}'",
               update->unit_style);
  if (!atom->q_flag)
    error->all(FLERR,
               "Pair coul/dipole/body needs per-atom charges: use an atom style with charge "
               "and ellipsoid, e.g. 'atom_style hybrid ellipsoid charge' or 'atom_style hybrid "
               "full ellipsoid'");
  avec = dynamic_cast<AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  if (!avec || !atom->torque_flag)
    error->all(FLERR,
               "Pair coul/dipole/body needs per-particle orientations (ellipsoid quaternions) "
               "and torques: use 'atom_style hybrid ellipsoid charge' or another hybrid style "
               "with ellipsoid and charge");
  if (tail_flag)
    error->all(FLERR,
               "Pair coul/dipole/body has no tail correction: remove 'pair_modify tail yes'");
  if (offset_flag)
    error->all(FLERR,
               "Pair coul/dipole/body: 'pair_modify shift yes' is not used (the reaction field "
               "already makes the charge-charge energy zero at the cutoff, 'elec sf' every "
               "term)");
  params =
      make_bead_elec_params<double>(static_cast<BeadElec>(mode), cut_global, eps_rf, force->qqrd2e);
  neighbor->add_request(this);
}

/* ---------------------------------------------------------------------- */

double PairCoulDipoleBody::init_one(int i, int j)
{
  // no per-pair parameters: an unlike pair of two given types needs no pair_coeff of its own
  if (!setflag[i][j] && !(setflag[i][i] && setflag[j][j]))
    error->all(FLERR, "Pair coul/dipole/body: no pair_coeff for atom types {} {}", i, j);
  return cut_global;
}

/* ----------------------------------------------------------------------
   restart files: the settings; per pair setflag; per type the dipole
------------------------------------------------------------------------- */

void PairCoulDipoleBody::write_restart_settings(FILE *fp)
{
  fwrite(&cut_global, sizeof(double), 1, fp);
  fwrite(&eps_rf, sizeof(double), 1, fp);
  fwrite(&mode, sizeof(int), 1, fp);
}

void PairCoulDipoleBody::read_restart_settings(FILE *fp)
{
  if (comm->me == 0) {
    utils::sfread(FLERR, &cut_global, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &eps_rf, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &mode, sizeof(int), 1, fp, nullptr, error);
  }
  MPI_Bcast(&cut_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&eps_rf, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&mode, 1, MPI_INT, 0, world);
  if (mode < 0 || mode > static_cast<int>(BeadElec::sf))
    error->all(FLERR, "Pair coul/dipole/body: corrupt restart file (mode {})", mode);
}

void PairCoulDipoleBody::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++) {
    fwrite(&mu[i], sizeof(double), 1, fp);
    fwrite(&dir[3 * i], sizeof(double), 3, fp);
    for (int j = i; j <= atom->ntypes; j++) fwrite(&setflag[i][j], sizeof(int), 1, fp);
  }
}

void PairCoulDipoleBody::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  const int me = comm->me;
  for (int i = 1; i <= atom->ntypes; i++) {
    if (me == 0) {
      utils::sfread(FLERR, &mu[i], sizeof(double), 1, fp, nullptr, error);
      utils::sfread(FLERR, &dir[3 * i], sizeof(double), 3, fp, nullptr, error);
    }
    MPI_Bcast(&mu[i], 1, MPI_DOUBLE, 0, world);
    MPI_Bcast(&dir[3 * i], 3, MPI_DOUBLE, 0, world);
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
    }
  }
}

/* ----------------------------------------------------------------------
   data files: the pair_coeff arguments after I [J], which read_data gives to coeff() again
------------------------------------------------------------------------- */

void PairCoulDipoleBody::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    utils::print(fp, "{} dipole/eA {:.17g} {:.17g} {:.17g} {:.17g}\n", i, mu[i], dir[3 * i],
                 dir[3 * i + 1], dir[3 * i + 2]);
}

void PairCoulDipoleBody::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (i == j)
        utils::print(fp, "{} {} dipole/eA {:.17g} {:.17g} {:.17g} {:.17g}\n", i, i, mu[i],
                     dir[3 * i], dir[3 * i + 1], dir[3 * i + 2]);
      else
        utils::print(fp, "{} {}\n", i, j);
    }
}

/* ---------------------------------------------------------------------- */

double PairCoulDipoleBody::memory_usage()
{
  double bytes = Pair::memory_usage();
  bytes += (double) nmax * 3 * sizeof(double);
  return bytes;
}
