/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style gb; see pair_gb.h and doc/pair_gb.md.
------------------------------------------------------------------------- */

#include "pair_gb.h"

#include "physics/quaternion.h"

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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace LAMMPS_NS;
using mesogpu::physics::gay_berne_pair;
using mesogpu::physics::GayBerneParams;
using mesogpu::physics::GayBerneSigma0;
using mesogpu::physics::GayBerneType;
using mesogpu::physics::make_gay_berne_params;
using mesogpu::physics::quat_to_rotation;

namespace {

const char cite_pair_gb[] =
    "pair_style gb: https://doi.org/10.1103/PhysRevE.54.559\n\n"
    "@Article{Cleaver96,\n"
    " author = {D. J. Cleaver and C. M. Care and M. P. Allen and M. P. Neal},\n"
    " title = {Extension and Generalization of the {G}ay-{B}erne Potential},\n"
    " journal = {Phys.\\ Rev.\\ E},\n"
    " year = 1996,\n"
    " volume = 54,\n"
    " pages = {559--567},\n"
    " doi = {10.1103/PhysRevE.54.559}\n"
    "}\n\n"
    "@Article{GayBerne81,\n"
    " author = {J. G. Gay and B. J. Berne},\n"
    " title = {Modification of the Overlap Potential to Mimic a Linear Site-Site Potential},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 1981,\n"
    " volume = 74,\n"
    " pages = {3316--3319},\n"
    " doi = {10.1063/1.441483}\n"
    "}\n\n";

const double NOT_GIVEN = std::numeric_limits<double>::quiet_NaN();

bool given(double x)
{
  return !std::isnan(x);
}

const char *TYPE_USAGE = "'pair_coeff I I gb d l eps_X eps_S eps_E [dw D] [cut rc]' or "
                         "'pair_coeff I I lj sigma epsilon [dw D] [cut rc]'";
const char *PAIR_USAGE = "'pair_coeff I J [eps0 E] [dw D] [mu M] [nu N] [cut rc]' (I != J)";

}    // namespace

/* ---------------------------------------------------------------------- */

PairGB::PairGB(LAMMPS *lmp) :
    Pair(lmp), cut_global(0.0), rule(0), shift(0), mu_global(2.0), nu_global(1.0), ntypes_alloc(0),
    avec(nullptr), nmax(0), axis(nullptr)
{
  restartinfo = 1;
  writedata = 1;
  // the pair energy depends on both orientations and the force is not central: an energy and
  // a radial force from (itype, jtype, rsq) alone would be wrong (see doc/pair_gb.md)
  single_enable = 0;
  if (lmp->citeme) lmp->citeme->add(cite_pair_gb);
}

PairGB::~PairGB()
{
  if (copymode) return;
  memory->destroy(axis);
  deallocate();
}

void PairGB::deallocate()
{
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  tin.clear();
  pin.clear();
  used.clear();
  params.clear();
  sphere.clear();
  allocated = 0;
}

void PairGB::allocate()
{
  allocated = 1;
  ntypes_alloc = atom->ntypes;
  const int np1 = ntypes_alloc + 1;
  memory->create(setflag, np1, np1, "pair:setflag");
  memory->create(cutsq, np1, np1, "pair:cutsq");
  for (int i = 0; i < np1; i++)
    for (int j = 0; j < np1; j++) {
      setflag[i][j] = 0;
      cutsq[i][j] = 0.0;
    }
  tin.assign(np1, TypeInput{GB, {1.0, 1.0, 1.0, 1.0, 1.0}, 1.0, 0.0});
  const PairInput none{NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN};
  pin.assign((size_t) np1 * np1, none);
  used.assign((size_t) np1 * np1, none);
  params.assign((size_t) np1 * np1, GayBerneParams<double>{});
  sphere.assign(np1, 1);
}

/* ----------------------------------------------------------------------
   the evaluator's view of a type: 'lj sigma epsilon' is the sphere whose contact with an
   equal one is sigma under the chosen sigma0 rule (d = sigma / sqrt(2) under Cleaver's,
   d = sigma under the arithmetic one), eps_S = eps_E = eps_X = epsilon (OpenMD's mapping)
------------------------------------------------------------------------- */

GayBerneType<double> PairGB::type_of(int i) const
{
  const TypeInput &t = tin[i];
  if (t.kind == LJ) {
    const double d =
        rule == static_cast<int>(GayBerneSigma0::cleaver) ? t.v[0] / std::sqrt(2.0) : t.v[0];
    return {d, d, t.v[1], t.v[1]};
  }
  return {t.v[0], t.v[1], t.v[3], t.v[4]};
}

double PairGB::type_eps_x(int i) const
{
  return tin[i].kind == LJ ? tin[i].v[1] : tin[i].v[2];
}

double PairGB::type_cut(int i) const
{
  return tin[i].cut > 0.0 ? tin[i].cut : cut_global;
}

/* ----------------------------------------------------------------------
   long axes u = body z (lab frame) of every local and ghost atom of an ellipsoid type;
   0 for sphere types (never used). A local atom of an ellipsoid type without an
   ellipsoid bonus has no orientation: an error
------------------------------------------------------------------------- */

void PairGB::long_axes()
{
  const int nall = atom->nlocal + atom->nghost;
  if (atom->nmax > nmax) {
    memory->destroy(axis);
    nmax = atom->nmax;
    memory->create(axis, nmax, 3, "pair:axis");
  }
  const int *ellipsoid = atom->ellipsoid;
  const int *type = atom->type;
  for (int i = 0; i < nall; i++) {
    axis[i][0] = axis[i][1] = axis[i][2] = 0.0;
    const double *q = sphere[type[i]] ? nullptr : ellipsoid_quat(atom, avec, i);
    if (!q) continue;
    // body z in the lab frame: the third column of R(q)
    double m[9];
    quat_to_rotation(q, m);
    axis[i][0] = m[2];
    axis[i][1] = m[5];
    axis[i][2] = m[8];
  }
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    if (!sphere[type[i]] && (!ellipsoid || ellipsoid[i] < 0))
      error->one(FLERR,
                 "Pair gb: atom {} of type {} has no orientation (no ellipsoid bonus), but type {} "
                 "is an ellipsoid (d != l or eps_S != eps_E); give it a shape and a quaternion, "
                 "e.g. 'set type {} shape 1 1 3' and 'set type {} quat/random SEED'",
                 atom->tag[i], type[i], type[i], type[i], type[i]);
  }
}

/* ---------------------------------------------------------------------- */

void PairGB::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  long_axes();

  double **x = atom->x;
  double **f = atom->f;
  double **torque = atom->torque;    // null only if every type here is a sphere
  const int *type = atom->type;
  const int nlocal = atom->nlocal;
  const double *special_lj = force->special_lj;
  const int newton_pair = force->newton_pair;
  const int stride = ntypes_alloc + 1;

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
      const double factor_lj = special_lj[sbmask(j)];
      j &= NEIGHMASK;
      if (factor_lj == 0.0) continue;

      // LAMMPS's del = x_i - x_j; the evaluator takes r_ij = x_j - x_i
      const double delx = xtmp - x[j][0];
      const double dely = ytmp - x[j][1];
      const double delz = ztmp - x[j][2];
      const double rsq = delx * delx + dely * dely + delz * delz;
      const int jtype = type[j];
      if (rsq >= cutsq[itype][jtype]) continue;

      const GayBerneParams<double> &p0 = params[itype * stride + jtype];
      const double rij[3] = {-delx, -dely, -delz};
      double evdwl, fj[3], ti[3], tj[3];
      bool hit;
      if (factor_lj != 1.0) {
        // energy, forces and torques are proportional to eps0 (the shift too)
        GayBerneParams<double> p = p0;
        p.eps0 *= factor_lj;
        hit = gay_berne_pair(p, rij, axis[i], axis[j], evdwl, fj, ti, tj);
      } else {
        hit = gay_berne_pair(p0, rij, axis[i], axis[j], evdwl, fj, ti, tj);
      }
      if (!hit) continue;

      f[i][0] -= fj[0];
      f[i][1] -= fj[1];
      f[i][2] -= fj[2];
      if (torque) {
        torque[i][0] += ti[0];
        torque[i][1] += ti[1];
        torque[i][2] += ti[2];
      }
      if (newton_pair || j < nlocal) {
        f[j][0] += fj[0];
        f[j][1] += fj[1];
        f[j][2] += fj[2];
        if (torque) {
          torque[j][0] += tj[0];
          torque[j][1] += tj[1];
          torque[j][2] += tj[2];
        }
      }

      // not a central force: the virial needs the force components (F_i = -F_j)
      if (evflag)
        ev_tally_xyz(i, j, nlocal, newton_pair, evdwl, 0.0, -fj[0], -fj[1], -fj[2], delx, dely,
                     delz);
    }
  }

  if (vflag_fdotr) virial_fdotr_compute();
}

/* ----------------------------------------------------------------------
   pair_style gb rc [sigma0 cleaver|arithmetic] [shift yes|no] [mu M] [nu N]
------------------------------------------------------------------------- */

void PairGB::settings(int narg, char **arg)
{
  const char *usage = "'pair_style gb rc [sigma0 cleaver|arithmetic] [shift yes|no] [mu M] [nu N]'";
  if (narg < 1) error->all(FLERR, "Pair style gb: expected {}", usage);

  cut_global = utils::numeric(FLERR, arg[0], false, lmp);
  if (!(cut_global > 0.0) || !std::isfinite(cut_global))
    error->all(FLERR, "Pair style gb: rc = {} must be > 0", arg[0]);
  rule = static_cast<int>(GayBerneSigma0::cleaver);
  shift = 0;
  mu_global = 2.0;
  nu_global = 1.0;

  int iarg = 1;
  while (iarg < narg) {
    const std::string key = arg[iarg];
    if (iarg + 1 >= narg)
      error->all(FLERR, "Pair style gb: keyword {} needs a value; expected {}", key, usage);
    const std::string val = arg[iarg + 1];
    if (key == "sigma0") {
      if (val == "cleaver")
        rule = static_cast<int>(GayBerneSigma0::cleaver);
      else if (val == "arithmetic")
        rule = static_cast<int>(GayBerneSigma0::arithmetic);
      else
        error->all(FLERR, "Pair style gb: unknown sigma0 rule '{}' (allowed: cleaver, arithmetic)",
                   val);
    } else if (key == "shift") {
      shift = utils::logical(FLERR, val, false, lmp);
    } else if (key == "mu") {
      mu_global = utils::numeric(FLERR, val, false, lmp);
      if (!(mu_global > 0.0) || !std::isfinite(mu_global))
        error->all(FLERR, "Pair style gb: mu = {} must be > 0", val);
    } else if (key == "nu") {
      nu_global = utils::numeric(FLERR, val, false, lmp);
      if (!(nu_global >= 0.0) || !std::isfinite(nu_global))
        error->all(FLERR, "Pair style gb: nu = {} must be >= 0", val);
    } else {
      error->all(FLERR, "Pair style gb: unknown keyword '{}'; expected {}", key, usage);
    }
    iarg += 2;
  }
}

/* ----------------------------------------------------------------------
   pair_coeff I I gb d l eps_X eps_S eps_E [dw D] [cut rc]   (I and J the same range)
   pair_coeff I I lj sigma epsilon [dw D] [cut rc]           (I and J the same range)
   pair_coeff I J [eps0 E] [dw D] [mu M] [nu N] [cut rc]     (unlike pairs I != J)
------------------------------------------------------------------------- */

void PairGB::coeff(int narg, char **arg)
{
  if (narg < 2) error->all(FLERR, "Pair coeff for gb: expected {} or {}", TYPE_USAGE, PAIR_USAGE);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);
  const std::string what = narg > 2 ? arg[2] : "";
  auto value = [&](int iarg, const char *name) {
    const double v = utils::numeric(FLERR, arg[iarg], false, lmp);
    if (!std::isfinite(v))
      error->all(FLERR, "Pair coeff for gb: {} = {} must be finite", name, arg[iarg]);
    return v;
  };
  auto positive = [&](int iarg, const char *name) {
    const double v = value(iarg, name);
    if (!(v > 0.0)) error->all(FLERR, "Pair coeff for gb: {} = {} must be > 0", name, arg[iarg]);
    return v;
  };

  if (what == "gb" || what == "lj") {
    // a type line describes one particle type: unlike pairs of such types mix
    if (ilo != jlo || ihi != jhi)
      error->all(FLERR,
                 "Pair coeff for gb: '{}' gives the parameters of a particle type, so I and J "
                 "must be the same type or range (got {} {}); unlike pairs mix, and {} sets "
                 "their own values",
                 what, arg[0], arg[1], PAIR_USAGE);
    TypeInput t{what == "lj" ? LJ : GB, {0, 0, 0, 0, 0}, 1.0, 0.0};
    const int nv = t.kind == LJ ? 2 : 5;
    if (narg < 3 + nv)
      error->all(FLERR, "Pair coeff for gb: expected {}, got {} arguments", TYPE_USAGE, narg);
    const char *gb_names[5] = {"d", "l", "eps_X", "eps_S", "eps_E"};
    const char *lj_names[2] = {"sigma", "epsilon"};
    for (int k = 0; k < nv; k++) t.v[k] = positive(3 + k, t.kind == LJ ? lj_names[k] : gb_names[k]);
    for (int iarg = 3 + nv; iarg < narg; iarg += 2) {
      const std::string key = arg[iarg];
      if (iarg + 1 >= narg)
        error->all(FLERR, "Pair coeff for gb: keyword {} needs a value; expected {}", key,
                   TYPE_USAGE);
      if (key == "dw")
        t.dw = positive(iarg + 1, "dw");
      else if (key == "cut")
        t.cut = positive(iarg + 1, "cut");
      else
        error->all(FLERR,
                   "Pair coeff for gb: unknown keyword '{}' in a type line (allowed: dw, cut; "
                   "mu and nu are global or per unlike pair); expected {}",
                   key, TYPE_USAGE);
    }
    for (int i = ilo; i <= ihi; i++) {
      tin[i] = t;
      setflag[i][i] = 1;
    }
    return;
  }

  // an unlike pair's own values: every line replaces the pair's earlier ones
  PairInput p{NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN};
  for (int iarg = 2; iarg < narg; iarg += 2) {
    const std::string key = arg[iarg];
    if (iarg + 1 >= narg)
      error->all(FLERR, "Pair coeff for gb: keyword {} needs a value; expected {}", key,
                 PAIR_USAGE);
    if (key == "eps0") {
      p.eps0 = value(iarg + 1, "eps0");
      if (!(p.eps0 >= 0.0))
        error->all(FLERR, "Pair coeff for gb: eps0 = {} must be >= 0", arg[iarg + 1]);
    } else if (key == "dw") {
      p.dw = positive(iarg + 1, "dw");
    } else if (key == "mu") {
      p.mu = positive(iarg + 1, "mu");
    } else if (key == "nu") {
      p.nu = value(iarg + 1, "nu");
      if (!(p.nu >= 0.0))
        error->all(FLERR, "Pair coeff for gb: nu = {} must be >= 0", arg[iarg + 1]);
    } else if (key == "cut") {
      p.cut = positive(iarg + 1, "cut");
    } else {
      error->all(FLERR,
                 "Pair coeff for gb: unknown keyword or type kind '{}' (a type: 'gb' or 'lj'; an "
                 "unlike pair: eps0, dw, mu, nu, cut); expected {} or {}",
                 key, TYPE_USAGE, PAIR_USAGE);
    }
  }
  int count = 0;
  for (int i = ilo; i <= ihi; i++)
    for (int j = jlo; j <= jhi; j++) {
      if (i == j) continue;
      const int a = std::min(i, j), b = std::max(i, j);
      pin[a * (ntypes_alloc + 1) + b] = p;
      setflag[a][b] = 1;
      count++;
    }
  if (count == 0)
    error->all(FLERR,
               "Pair coeff for gb: {} {} names no unlike pair; a type is given with {}, an unlike "
               "pair with {}",
               arg[0], arg[1], TYPE_USAGE, PAIR_USAGE);
}

/* ---------------------------------------------------------------------- */

void PairGB::init_style()
{
  // which types are spheres (no orientation needed); the others need quaternions
  bool need_orientation = false;
  for (int i = 1; i <= atom->ntypes; i++) {
    sphere[i] = 1;
    if (!setflag[i][i]) continue;
    const GayBerneType<double> t = type_of(i);
    sphere[i] = t.d == t.l && t.eps_s == t.eps_e;
    if (!sphere[i]) need_orientation = true;
  }
  avec = dynamic_cast<AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  if (need_orientation && (!avec || !atom->torque_flag))
    error->all(FLERR,
               "Pair gb needs per-particle orientations (ellipsoid quaternions) and torques for "
               "its ellipsoid types: use 'atom_style ellipsoid' or a hybrid style with ellipsoid "
               "(e.g. 'atom_style hybrid bond ellipsoid')");
  if (tail_flag) error->all(FLERR, "Pair gb has no tail correction: remove 'pair_modify tail yes'");
  if (offset_flag)
    error->all(FLERR,
               "Pair gb: 'pair_modify shift yes' is not used; shift the energy with 'pair_style gb "
               "rc shift yes' (which shifts every pair, at every orientation)");
  neighbor->add_request(this);
}

/* ----------------------------------------------------------------------
   OpenMD's mixing (GB.cpp): eps0 = sqrt(eps_X,i eps_X,j), dw = (dw_i + dw_j) / 2, mu and nu
   global; cutoff: the larger of the two types' cutoffs. An unlike pair's own values replace
   the mixed ones.
------------------------------------------------------------------------- */

double PairGB::init_one(int i, int j)
{
  if (!setflag[i][i] || !setflag[j][j]) {
    const int t = setflag[i][i] ? j : i;
    error->all(FLERR,
               "Pair gb: no parameters for atom type {}: give 'pair_coeff {} {} gb d l eps_X "
               "eps_S eps_E' or 'pair_coeff {} {} lj sigma epsilon'",
               t, t, t, t, t);
  }
  const int a = std::min(i, j), b = std::max(i, j);
  const int stride = ntypes_alloc + 1;
  const PairInput none{NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN};
  const PairInput &in = (a != b && setflag[a][b]) ? pin[a * stride + b] : none;
  PairInput u;
  u.eps0 = given(in.eps0) ? in.eps0 : std::sqrt(type_eps_x(i) * type_eps_x(j));
  u.dw = given(in.dw) ? in.dw : 0.5 * (tin[i].dw + tin[j].dw);
  u.mu = given(in.mu) ? in.mu : mu_global;
  u.nu = given(in.nu) ? in.nu : nu_global;
  u.cut = given(in.cut) ? in.cut : std::max(type_cut(i), type_cut(j));
  used[i * stride + j] = used[j * stride + i] = u;

  const GayBerneSigma0 r = static_cast<GayBerneSigma0>(rule);
  params[i * stride + j] = make_gay_berne_params<double>(type_of(i), type_of(j), u.eps0, u.dw, u.mu,
                                                         u.nu, r, u.cut, shift != 0);
  params[j * stride + i] = make_gay_berne_params<double>(type_of(j), type_of(i), u.eps0, u.dw, u.mu,
                                                         u.nu, r, u.cut, shift != 0);
  return u.cut;
}

/* ----------------------------------------------------------------------
   restart files: the settings; per type its line; per unlike pair its own values
------------------------------------------------------------------------- */

void PairGB::write_restart_settings(FILE *fp)
{
  fwrite(&cut_global, sizeof(double), 1, fp);
  fwrite(&mu_global, sizeof(double), 1, fp);
  fwrite(&nu_global, sizeof(double), 1, fp);
  fwrite(&rule, sizeof(int), 1, fp);
  fwrite(&shift, sizeof(int), 1, fp);
}

void PairGB::read_restart_settings(FILE *fp)
{
  if (comm->me == 0) {
    utils::sfread(FLERR, &cut_global, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &mu_global, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &nu_global, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &rule, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &shift, sizeof(int), 1, fp, nullptr, error);
  }
  MPI_Bcast(&cut_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&mu_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&nu_global, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&rule, 1, MPI_INT, 0, world);
  MPI_Bcast(&shift, 1, MPI_INT, 0, world);
  if (rule < 0 || rule > 1 || shift < 0 || shift > 1)
    error->all(FLERR, "Pair gb: corrupt restart file (sigma0 rule {}, shift {})", rule, shift);
}

void PairGB::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  const int stride = ntypes_alloc + 1;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (!setflag[i][j]) continue;
      if (i == j) {
        const TypeInput &t = tin[i];
        const double v[7] = {t.v[0], t.v[1], t.v[2], t.v[3], t.v[4], t.dw, t.cut};
        fwrite(&t.kind, sizeof(int), 1, fp);
        fwrite(v, sizeof(double), 7, fp);
      } else {
        const PairInput &p = pin[i * stride + j];
        const double v[5] = {p.eps0, p.dw, p.mu, p.nu, p.cut};
        fwrite(v, sizeof(double), 5, fp);
      }
    }
}

void PairGB::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  const int me = comm->me;
  const int stride = ntypes_alloc + 1;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      if (i == j) {
        int kind = 0;
        double v[7];
        if (me == 0) {
          utils::sfread(FLERR, &kind, sizeof(int), 1, fp, nullptr, error);
          utils::sfread(FLERR, v, sizeof(double), 7, fp, nullptr, error);
        }
        MPI_Bcast(&kind, 1, MPI_INT, 0, world);
        MPI_Bcast(v, 7, MPI_DOUBLE, 0, world);
        if (kind != GB && kind != LJ)
          error->all(FLERR, "Pair gb: corrupt restart file (type {} kind {})", i, kind);
        tin[i] = TypeInput{kind, {v[0], v[1], v[2], v[3], v[4]}, v[5], v[6]};
      } else {
        double v[5];
        if (me == 0) utils::sfread(FLERR, v, sizeof(double), 5, fp, nullptr, error);
        MPI_Bcast(v, 5, MPI_DOUBLE, 0, world);
        pin[i * stride + j] = PairInput{v[0], v[1], v[2], v[3], v[4]};
      }
    }
}

/* ----------------------------------------------------------------------
   data files: the pair_coeff arguments after I [J], which read_data gives to coeff() again;
   unlike pairs (write_data ... pair ij) with the values init_one used
------------------------------------------------------------------------- */

static std::string type_args(const PairGB::TypeInput &t)
{
  std::string s = t.kind == PairGB::LJ ? "lj" : "gb";
  const int nv = t.kind == PairGB::LJ ? 2 : 5;
  for (int k = 0; k < nv; k++) s += fmt::format(" {:.17g}", t.v[k]);
  s += fmt::format(" dw {:.17g}", t.dw);
  if (t.cut > 0.0) s += fmt::format(" cut {:.17g}", t.cut);
  return s;
}

void PairGB::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++) utils::print(fp, "{} {}\n", i, type_args(tin[i]));
}

void PairGB::write_data_all(FILE *fp)
{
  const int stride = ntypes_alloc + 1;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (i == j) {
        utils::print(fp, "{} {} {}\n", i, i, type_args(tin[i]));
      } else {
        const PairInput &u = used[i * stride + j];
        utils::print(fp, "{} {} eps0 {:.17g} dw {:.17g} mu {:.17g} nu {:.17g} cut {:.17g}\n", i, j,
                     u.eps0, u.dw, u.mu, u.nu, u.cut);
      }
    }
}

/* ---------------------------------------------------------------------- */

double PairGB::memory_usage()
{
  double bytes = Pair::memory_usage();
  bytes += (double) nmax * 3 * sizeof(double);
  bytes += (double) params.size() * sizeof(GayBerneParams<double>);
  return bytes;
}
