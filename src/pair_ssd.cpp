/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style ssd; see pair_ssd.h and doc/pair_ssd.md.
------------------------------------------------------------------------- */

#include "pair_ssd.h"

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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace LAMMPS_NS;
using mesogpu::physics::make_ssd_params;
using mesogpu::physics::quat_to_body_frame;
using mesogpu::physics::ssd_pair;
using mesogpu::physics::ssd_special_scaled;
using mesogpu::physics::ssd_type;
using mesogpu::physics::SsdElectrostatics;
using mesogpu::physics::SsdLj;
using mesogpu::physics::SsdParams;
using mesogpu::physics::SsdSet;
using mesogpu::physics::SsdType;

namespace {

const char cite_pair_ssd[] =
    "pair_style ssd: https://doi.org/10.1063/1.1697381\n\n"
    "@Article{Liu96,\n"
    " author = {Y. Liu and T. Ichiye},\n"
    " title = {Soft Sticky Dipole Potential for Liquid Water: A New Model},\n"
    " journal = {J.~Phys.\\ Chem.},\n"
    " year = 1996,\n"
    " volume = 100,\n"
    " pages = {2723--2730}\n"
    "}\n\n"
    "@Article{Tan03,\n"
    " author = {M.-L. Tan and J. T. Fischer and A. Chandra and B. R. Brooks and T. Ichiye},\n"
    " journal = {Chem.\\ Phys.\\ Lett.},\n"
    " year = 2003,\n"
    " volume = 376,\n"
    " pages = {646--652},\n"
    " doi = {10.1016/S0009-2614(03)01044-3}\n"
    "}\n\n"
    "@Article{Fennell04,\n"
    " author = {C. J. Fennell and J. D. Gezelter},\n"
    " title = {On the structural and transport properties of the soft sticky dipole and "
    "related single-point water models},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 2004,\n"
    " volume = 120,\n"
    " pages = {9175--9184},\n"
    " doi = {10.1063/1.1697381}\n"
    "}\n\n";

struct SetName {
  const char *name;
  SsdSet set;
};
const SetName SETS[] = {{"ssd", SsdSet::ssd},
                        {"ssd1", SsdSet::ssd1},
                        {"ssd/e", SsdSet::ssde},
                        {"ssd/rf", SsdSet::ssdrf}};

const char *set_name(int s)
{
  for (const SetName &n : SETS)
    if (static_cast<int>(n.set) == s) return n.name;
  return "custom";
}

// the names of the 10 numbers of 'custom', in SsdType's order
const char *CUSTOM_NAMES[10] = {"sigma", "epsilon", "mu", "nu0", "nu0p",
                                "w0",    "rl",      "ru", "rlp", "rup"};

void to_array(const SsdType<double> &t, double v[10])
{
  const double a[10] = {t.sigma, t.epsilon, t.mu, t.nu0, t.nu0p, t.w0, t.rl, t.ru, t.rlp, t.rup};
  std::copy(a, a + 10, v);
}

SsdType<double> from_array(const double v[10])
{
  SsdType<double> t;
  t.sigma = v[0];
  t.epsilon = v[1];
  t.mu = v[2];
  t.nu0 = v[3];
  t.nu0p = v[4];
  t.w0 = v[5];
  t.rl = v[6];
  t.ru = v[7];
  t.rlp = v[8];
  t.rup = v[9];
  return t;
}

// replaces the LJ part of p by sigma, epsilon (mixing rule or an explicit 'lj' override)
void set_lj(SsdParams<double> &p, double sigma, double epsilon, SsdLj ljmode)
{
  p.sigma = sigma;
  p.epsilon = epsilon;
  const double s2 = sigma * sigma, s6 = s2 * s2 * s2;
  p.lj1 = 4.0 * epsilon * s6 * s6;
  p.lj2 = 4.0 * epsilon * s6;
  p.lj_offset = 0.0;
  if (ljmode == SsdLj::shift) {
    const double ic6 = 1.0 / (p.lj_cutsq * p.lj_cutsq * p.lj_cutsq);
    p.lj_offset = ic6 * (p.lj1 * ic6 - p.lj2);
  }
}

}    // namespace

/* ---------------------------------------------------------------------- */

PairSSD::PairSSD(LAMMPS *lmp) :
    Pair(lmp), coul_cut(0.0), lj_cut(0.0), eps_rf(0.0), coul_sw(0.0), ljmode(0), elec(0),
    ntypes_alloc(0), lj_sigma(nullptr), lj_eps(nullptr), avec(nullptr), nmax(0), frame(nullptr)
{
  restartinfo = 1;
  writedata = 1;
  // the pair energy depends on both orientations and the force is not central: an energy and
  // a radial force from (itype, jtype, rsq) alone would be wrong (see doc/pair_ssd.md)
  single_enable = 0;
  // OpenMD's default for unlike LJ pairs (Lorentz-Berthelot); pair_modify mix changes it
  mix_flag = ARITHMETIC;
  if (lmp->citeme) lmp->citeme->add(cite_pair_ssd);
}

PairSSD::~PairSSD()
{
  if (copymode) return;
  memory->destroy(frame);
  deallocate();
}

void PairSSD::deallocate()
{
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  memory->destroy(lj_sigma);
  memory->destroy(lj_eps);
  types.clear();
  type_set.clear();
  params.clear();
  allocated = 0;
}

void PairSSD::allocate()
{
  allocated = 1;
  ntypes_alloc = atom->ntypes;
  const int np1 = ntypes_alloc + 1;
  memory->create(setflag, np1, np1, "pair:setflag");
  memory->create(cutsq, np1, np1, "pair:cutsq");
  memory->create(lj_sigma, np1, np1, "pair:lj_sigma");
  memory->create(lj_eps, np1, np1, "pair:lj_eps");
  for (int i = 0; i < np1; i++)
    for (int j = 0; j < np1; j++) {
      setflag[i][j] = 0;
      cutsq[i][j] = lj_sigma[i][j] = lj_eps[i][j] = 0.0;
    }
  types.assign(np1, ssd_type<double>(SsdSet::ssd));
  type_set.assign(np1, -1);
  params.assign((size_t) np1 * np1, SsdParams<double>{});
}

/* ----------------------------------------------------------------------
   body frames A = R(q)^T of every local and ghost atom with an ellipsoid bonus;
   a local atom of this style without one has no orientation: an error
------------------------------------------------------------------------- */

void PairSSD::body_frames()
{
  const int nall = atom->nlocal + atom->nghost;
  if (atom->nmax > nmax) {
    memory->destroy(frame);
    nmax = atom->nmax;
    memory->create(frame, nmax, 9, "pair:frame");
  }
  const int *ellipsoid = atom->ellipsoid;
  for (int i = 0; i < nall; i++) {
    const double *q = ellipsoid_quat(atom, avec, i);
    if (!q) {
      for (int k = 0; k < 9; k++) frame[i][k] = 0.0;
      continue;
    }
    quat_to_body_frame(q, frame[i]);
  }
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    if (ellipsoid[i] < 0)
      error->one(FLERR,
                 "Pair ssd: atom {} of type {} has no orientation (no ellipsoid bonus); give the "
                 "water types a shape and a quaternion, e.g. 'set type {} shape 1 1 1' and 'set "
                 "type {} quat/random SEED'",
                 atom->tag[i], atom->type[i], atom->type[i], atom->type[i]);
  }
}

/* ---------------------------------------------------------------------- */

void PairSSD::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  body_frames();

  double **x = atom->x;
  double **f = atom->f;
  double **torque = atom->torque;
  const int *type = atom->type;
  const int nlocal = atom->nlocal;
  const double *special_lj = force->special_lj;
  const double *special_coul = force->special_coul;
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
      const int sb = sbmask(j);
      j &= NEIGHMASK;

      // LAMMPS's del = x_i - x_j; the evaluator takes r_ij = x_j - x_i
      const double delx = xtmp - x[j][0];
      const double dely = ytmp - x[j][1];
      const double delz = ztmp - x[j][2];
      const double rsq = delx * delx + dely * dely + delz * delz;
      const int jtype = type[j];
      if (rsq >= cutsq[itype][jtype]) continue;

      const SsdParams<double> &p0 = params[itype * stride + jtype];
      const double rij[3] = {-delx, -dely, -delz};
      double evdwl, ecoul, fj[3], ti[3], tj[3];
      bool hit;
      if (sb) {
        const SsdParams<double> p = ssd_special_scaled(p0, special_lj[sb], special_coul[sb]);
        hit = ssd_pair(p, rij, frame[i], frame[j], evdwl, ecoul, fj, ti, tj);
      } else {
        hit = ssd_pair(p0, rij, frame[i], frame[j], evdwl, ecoul, fj, ti, tj);
      }
      if (!hit) continue;

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
        ev_tally_xyz(i, j, nlocal, newton_pair, evdwl, ecoul, -fj[0], -fj[1], -fj[2], delx, dely,
                     delz);
    }
  }

  if (vflag_fdotr) virial_fdotr_compute();
}

/* ----------------------------------------------------------------------
   pair_style ssd coul_cut [lj_cut r] [ljmode cut|shift|switch]
                  [elec cut|rf eps_rf|rfswitch eps_rf r_sw|sf]
------------------------------------------------------------------------- */

void PairSSD::settings(int narg, char **arg)
{
  const char *usage = "'pair_style ssd coul_cut [lj_cut r] [ljmode cut|shift|switch] [elec "
                      "cut|rf eps_rf|rfswitch eps_rf r_sw|sf]'";
  if (narg < 1) error->all(FLERR, "Pair style ssd: expected {}", usage);
  if (strcmp(update->unit_style, "real") != 0)
    error->all(FLERR,
               "Pair style ssd needs 'units real' (Angstrom, kcal/mol; dipoles in Debye), not "
               "'units {}'",
               update->unit_style);

  coul_cut = utils::numeric(FLERR, arg[0], false, lmp);
  if (!(coul_cut > 0.0) || !std::isfinite(coul_cut))
    error->all(FLERR, "Pair style ssd: coul_cut = {} must be > 0", arg[0]);
  lj_cut = coul_cut;
  ljmode = static_cast<int>(SsdLj::cut);
  elec = static_cast<int>(SsdElectrostatics::cut);
  eps_rf = 0.0;
  coul_sw = 0.0;

  int iarg = 1;
  while (iarg < narg) {
    const std::string key = arg[iarg];
    if (iarg + 1 >= narg)
      error->all(FLERR, "Pair style ssd: keyword {} needs a value; expected {}", key, usage);
    const std::string val = arg[iarg + 1];
    if (key == "lj_cut") {
      lj_cut = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (!(lj_cut > 0.0) || !std::isfinite(lj_cut))
        error->all(FLERR, "Pair style ssd: lj_cut = {} must be > 0", val);
      iarg += 2;
    } else if (key == "ljmode") {
      if (val == "cut")
        ljmode = static_cast<int>(SsdLj::cut);
      else if (val == "shift")
        ljmode = static_cast<int>(SsdLj::shift);
      else if (val == "switch")
        ljmode = static_cast<int>(SsdLj::sw);
      else
        error->all(FLERR, "Pair style ssd: unknown ljmode '{}' (allowed: cut, shift, switch)", val);
      iarg += 2;
    } else if (key == "elec") {
      if (val == "cut") {
        elec = static_cast<int>(SsdElectrostatics::cut);
        iarg += 2;
      } else if (val == "rf") {
        if (iarg + 2 >= narg)
          error->all(FLERR,
                     "Pair style ssd: 'elec rf' needs the reaction-field dielectric constant: "
                     "'elec rf eps_rf' (e.g. 80)");
        eps_rf = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
        if (!(eps_rf >= 1.0) || !std::isfinite(eps_rf))
          error->all(FLERR, "Pair style ssd: eps_rf = {} must be >= 1", arg[iarg + 2]);
        elec = static_cast<int>(SsdElectrostatics::rf_constant);
        iarg += 3;
      } else if (val == "rfswitch") {
        if (iarg + 3 >= narg)
          error->all(FLERR,
                     "Pair style ssd: 'elec rfswitch' needs the reaction-field dielectric "
                     "constant and the switching radius: 'elec rfswitch eps_rf r_sw' (e.g. 80 "
                     "7.7 with coul_cut 9)");
        eps_rf = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
        if (!(eps_rf >= 1.0) || !std::isfinite(eps_rf))
          error->all(FLERR, "Pair style ssd: eps_rf = {} must be >= 1", arg[iarg + 2]);
        coul_sw = utils::numeric(FLERR, arg[iarg + 3], false, lmp);
        if (!(coul_sw > 0.0) || !(coul_sw < coul_cut))
          error->all(FLERR,
                     "Pair style ssd: 'elec rfswitch' switching radius r_sw = {} must be > 0 and "
                     "< coul_cut = {}",
                     arg[iarg + 3], coul_cut);
        elec = static_cast<int>(SsdElectrostatics::rf_switch);
        iarg += 4;
      } else if (val == "sf") {
        elec = static_cast<int>(SsdElectrostatics::sf);
        iarg += 2;
        if (iarg < narg && utils::is_double(arg[iarg]))
          error->all(FLERR,
                     "Pair style ssd: 'elec sf' takes no value (got '{}'): the shifted force "
                     "ends at coul_cut",
                     arg[iarg]);
      } else {
        error->all(FLERR,
                   "Pair style ssd: unknown electrostatics '{}' (allowed: cut, rf eps_rf, "
                   "rfswitch eps_rf r_sw, sf; OpenMD's current reaction_field and damped shifted "
                   "force are not implemented)",
                   val);
      }
    } else {
      error->all(FLERR, "Pair style ssd: unknown keyword '{}'; expected {}", key, usage);
    }
  }

  // ljmode switch switches LJ from the r_sw of 'elec rfswitch' to lj_cut (OOPSE: one radius)
  if (ljmode == static_cast<int>(SsdLj::sw)) {
    if (elec != static_cast<int>(SsdElectrostatics::rf_switch))
      error->all(FLERR, "Pair style ssd: 'ljmode switch' needs a switching radius: it uses r_sw of "
                        "'elec rfswitch eps_rf r_sw' (OOPSE's SSD/RF), which is not given");
    if (!(coul_sw < lj_cut))
      error->all(FLERR,
                 "Pair style ssd: 'ljmode switch' needs the switching radius r_sw = {} < lj_cut = "
                 "{}",
                 coul_sw, lj_cut);
  }

  // the sticky range of the types already given must still fit
  if (allocated)
    for (int i = 1; i <= atom->ntypes; i++)
      if (setflag[i][i])
        check_cutoffs(std::max(types[i].ru, types[i].rup), fmt::format("type {}", i).c_str());
}

/* ----------------------------------------------------------------------
   the sticky term needs the dipole and LJ terms over its whole range
------------------------------------------------------------------------- */

void PairSSD::check_cutoffs(double sticky, const char *what) const
{
  if (coul_cut < sticky || lj_cut < sticky)
    error->all(FLERR,
               "Pair ssd: the cutoffs (coul_cut {}, lj_cut {}) are shorter than the sticky range "
               "max(ru, rup) = {} of {}; use cutoffs >= {}",
               coul_cut, lj_cut, sticky, what, sticky);
}

/* ----------------------------------------------------------------------
   pair_coeff I J ssd|ssd1|ssd/e|ssd/rf                     (I and J the same range)
   pair_coeff I J custom sigma eps mu nu0 nu0p w0 rl ru rlp rup   (I and J the same range)
   pair_coeff I J lj sigma epsilon                          (unlike pairs I != J)
------------------------------------------------------------------------- */

void PairSSD::coeff(int narg, char **arg)
{
  const char *usage = "'pair_coeff I I ssd|ssd1|ssd/e|ssd/rf', 'pair_coeff I I custom sigma "
                      "epsilon mu nu0 nu0p w0 rl ru rlp rup' or 'pair_coeff I J lj sigma epsilon'";
  if (narg < 3) error->all(FLERR, "Pair coeff for ssd: expected {}", usage);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);
  auto number = [&](int iarg) { return utils::numeric(FLERR, arg[iarg], false, lmp); };
  const std::string what = arg[2];

  if (what == "lj") {
    if (narg != 5)
      error->all(FLERR,
                 "Pair coeff for ssd: expected 'pair_coeff I J lj sigma epsilon', got {} "
                 "arguments",
                 narg);
    const double sig = number(3), eps = number(4);
    if (!(sig > 0.0) || !std::isfinite(sig))
      error->all(FLERR, "Pair coeff for ssd: lj sigma = {} must be > 0", arg[3]);
    if (!(eps >= 0.0) || !std::isfinite(eps))
      error->all(FLERR, "Pair coeff for ssd: lj epsilon = {} must be >= 0", arg[4]);
    int count = 0;
    for (int i = ilo; i <= ihi; i++)
      for (int j = std::max(jlo, i + 1); j <= jhi; j++) {
        lj_sigma[i][j] = sig;
        lj_eps[i][j] = eps;
        setflag[i][j] = 1;
        count++;
      }
    if (count == 0)
      error->all(FLERR,
                 "Pair coeff for ssd: 'lj' overrides the mixed LJ of unlike pairs I != J; {} {} "
                 "names none (a type's own sigma and epsilon are given with 'custom')",
                 arg[0], arg[1]);
    return;
  }

  // a parameter set describes one molecule type: unlike pairs of such types mix
  if (ilo != jlo || ihi != jhi)
    error->all(FLERR,
               "Pair coeff for ssd: '{}' gives the parameters of a molecule type, so I and J "
               "must be the same type or range (got {} {}); unlike pairs mix, and 'pair_coeff I "
               "J lj sigma epsilon' overrides their LJ",
               what, arg[0], arg[1]);

  SsdType<double> t;
  int set = -1;
  if (what == "custom") {
    if (narg != 13)
      error->all(FLERR,
                 "Pair coeff for ssd: expected 'pair_coeff I I custom sigma epsilon mu nu0 nu0p "
                 "w0 rl ru rlp rup' (13 arguments), got {}",
                 narg);
    double v[10];
    for (int k = 0; k < 10; k++) {
      v[k] = number(3 + k);
      if (!std::isfinite(v[k]))
        error->all(FLERR, "Pair coeff for ssd: custom {} = {} must be finite", CUSTOM_NAMES[k],
                   arg[3 + k]);
    }
    t = from_array(v);
    if (!(t.sigma > 0.0))
      error->all(FLERR, "Pair coeff for ssd: custom sigma = {} must be > 0", arg[3]);
    for (int k : {1, 2, 3, 4, 5})
      if (!(v[k] >= 0.0))
        error->all(FLERR, "Pair coeff for ssd: custom {} = {} must be >= 0", CUSTOM_NAMES[k],
                   arg[3 + k]);
    if (!(t.rl > 0.0 && t.ru > t.rl))
      error->all(FLERR, "Pair coeff for ssd: custom rl = {}, ru = {}: need 0 < rl < ru", arg[9],
                 arg[10]);
    if (!(t.rlp > 0.0 && t.rup > t.rlp))
      error->all(FLERR, "Pair coeff for ssd: custom rlp = {}, rup = {}: need 0 < rlp < rup",
                 arg[11], arg[12]);
  } else {
    for (const SetName &n : SETS)
      if (what == n.name) set = static_cast<int>(n.set);
    if (set < 0)
      error->all(FLERR,
                 "Pair coeff for ssd: unknown parameter set '{}' (allowed: ssd, ssd1, ssd/e, "
                 "ssd/rf, custom, lj)",
                 what);
    if (narg != 3)
      error->all(FLERR, "Pair coeff for ssd: expected 'pair_coeff I I {}' (3 arguments), got {}",
                 what, narg);
    t = ssd_type<double>(static_cast<SsdSet>(set));
  }
  check_cutoffs(std::max(t.ru, t.rup), fmt::format("'{}'", what).c_str());

  for (int i = ilo; i <= ihi; i++) {
    types[i] = t;
    type_set[i] = set;
    lj_sigma[i][i] = t.sigma;
    lj_eps[i][i] = t.epsilon;
    setflag[i][i] = 1;
  }
}

/* ---------------------------------------------------------------------- */

void PairSSD::init_style()
{
  if (strcmp(update->unit_style, "real") != 0)
    error->all(FLERR, "Pair style ssd needs 'units real', not 'units {}'", update->unit_style);
  avec = dynamic_cast<AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  if (!avec || !atom->torque_flag)
    error->all(FLERR,
               "Pair ssd needs per-particle orientations (ellipsoid quaternions) and torques: use "
               "'atom_style ellipsoid' or a hybrid style with ellipsoid (e.g. 'atom_style hybrid "
               "bond ellipsoid')");
  if (tail_flag)
    error->all(FLERR, "Pair ssd has no tail correction: remove 'pair_modify tail yes'");
  if (offset_flag)
    error->all(FLERR,
               "Pair ssd: 'pair_modify shift yes' is not used; shift the LJ energy with "
               "'pair_style ssd ... ljmode shift' (the dipole and sticky terms are not shifted)");
  neighbor->add_request(this);
}

/* ---------------------------------------------------------------------- */

double PairSSD::init_one(int i, int j)
{
  if (!setflag[i][i] || !setflag[j][j])
    error->all(FLERR, "Pair ssd: no parameters for atom type {}: give 'pair_coeff {} {} SET'",
               setflag[i][i] ? j : i, setflag[i][i] ? j : i, setflag[i][i] ? j : i);
  const SsdLj lm = static_cast<SsdLj>(ljmode);
  const SsdElectrostatics el = static_cast<SsdElectrostatics>(elec);
  SsdParams<double> pij =
      make_ssd_params(types[i], types[j], lm, lj_cut, el, coul_cut, eps_rf, force->qqrd2e, coul_sw);
  SsdParams<double> pji =
      make_ssd_params(types[j], types[i], lm, lj_cut, el, coul_cut, eps_rf, force->qqrd2e, coul_sw);
  check_cutoffs(pij.sticky_cut, fmt::format("atom types {} {}", i, j).c_str());

  if (i != j && !setflag[i][j]) {
    lj_sigma[i][j] = mix_distance(types[i].sigma, types[j].sigma);
    lj_eps[i][j] = mix_energy(types[i].epsilon, types[j].epsilon, types[i].sigma, types[j].sigma);
  }
  lj_sigma[j][i] = lj_sigma[i][j];
  lj_eps[j][i] = lj_eps[i][j];
  set_lj(pij, lj_sigma[i][j], lj_eps[i][j], lm);
  set_lj(pji, lj_sigma[i][j], lj_eps[i][j], lm);
  params[i * (ntypes_alloc + 1) + j] = pij;
  params[j * (ntypes_alloc + 1) + i] = pji;
  return std::sqrt(pij.cutsq);
}

/* ----------------------------------------------------------------------
   restart files: the settings (coul_sw only after elec = rf_switch, so that files written
   before 'elec rfswitch' existed still read; ljmode switch (2) needs rf_switch and so adds
   nothing); per type its set and numbers; per unlike pair
   the LJ override
------------------------------------------------------------------------- */

void PairSSD::write_restart_settings(FILE *fp)
{
  fwrite(&coul_cut, sizeof(double), 1, fp);
  fwrite(&lj_cut, sizeof(double), 1, fp);
  fwrite(&eps_rf, sizeof(double), 1, fp);
  fwrite(&ljmode, sizeof(int), 1, fp);
  fwrite(&elec, sizeof(int), 1, fp);
  fwrite(&mix_flag, sizeof(int), 1, fp);
  if (elec == static_cast<int>(SsdElectrostatics::rf_switch))
    fwrite(&coul_sw, sizeof(double), 1, fp);
}

void PairSSD::read_restart_settings(FILE *fp)
{
  if (comm->me == 0) {
    utils::sfread(FLERR, &coul_cut, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &lj_cut, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &eps_rf, sizeof(double), 1, fp, nullptr, error);
    utils::sfread(FLERR, &ljmode, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &elec, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &mix_flag, sizeof(int), 1, fp, nullptr, error);
  }
  MPI_Bcast(&coul_cut, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&lj_cut, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&eps_rf, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&ljmode, 1, MPI_INT, 0, world);
  MPI_Bcast(&elec, 1, MPI_INT, 0, world);
  MPI_Bcast(&mix_flag, 1, MPI_INT, 0, world);
  const bool elec_ok = elec == static_cast<int>(SsdElectrostatics::cut) ||
                       elec == static_cast<int>(SsdElectrostatics::rf_constant) ||
                       elec == static_cast<int>(SsdElectrostatics::rf_switch) ||
                       elec == static_cast<int>(SsdElectrostatics::sf);
  if (ljmode < 0 || ljmode > 2 || !elec_ok ||
      (ljmode == static_cast<int>(SsdLj::sw) &&
       elec != static_cast<int>(SsdElectrostatics::rf_switch)))
    error->all(FLERR, "Pair ssd: corrupt restart file (ljmode {}, elec {})", ljmode, elec);
  coul_sw = 0.0;
  if (elec == static_cast<int>(SsdElectrostatics::rf_switch)) {
    if (comm->me == 0) utils::sfread(FLERR, &coul_sw, sizeof(double), 1, fp, nullptr, error);
    MPI_Bcast(&coul_sw, 1, MPI_DOUBLE, 0, world);
    if (!(coul_sw > 0.0 && coul_sw < coul_cut) ||
        (ljmode == static_cast<int>(SsdLj::sw) && !(coul_sw < lj_cut)))
      error->all(FLERR, "Pair ssd: corrupt restart file (r_sw {}, coul_cut {}, lj_cut {})", coul_sw,
                 coul_cut, lj_cut);
  }
}

void PairSSD::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (!setflag[i][j]) continue;
      if (i == j) {
        double v[10];
        to_array(types[i], v);
        fwrite(&type_set[i], sizeof(int), 1, fp);
        fwrite(v, sizeof(double), 10, fp);
      } else {
        fwrite(&lj_sigma[i][j], sizeof(double), 1, fp);
        fwrite(&lj_eps[i][j], sizeof(double), 1, fp);
      }
    }
}

void PairSSD::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  const int me = comm->me;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      if (i == j) {
        double v[10];
        if (me == 0) {
          utils::sfread(FLERR, &type_set[i], sizeof(int), 1, fp, nullptr, error);
          utils::sfread(FLERR, v, sizeof(double), 10, fp, nullptr, error);
        }
        MPI_Bcast(&type_set[i], 1, MPI_INT, 0, world);
        MPI_Bcast(v, 10, MPI_DOUBLE, 0, world);
        types[i] = from_array(v);
        lj_sigma[i][i] = types[i].sigma;
        lj_eps[i][i] = types[i].epsilon;
      } else {
        if (me == 0) {
          utils::sfread(FLERR, &lj_sigma[i][j], sizeof(double), 1, fp, nullptr, error);
          utils::sfread(FLERR, &lj_eps[i][j], sizeof(double), 1, fp, nullptr, error);
        }
        MPI_Bcast(&lj_sigma[i][j], 1, MPI_DOUBLE, 0, world);
        MPI_Bcast(&lj_eps[i][j], 1, MPI_DOUBLE, 0, world);
      }
    }
}

/* ----------------------------------------------------------------------
   data files: the pair_coeff arguments after I [J], which read_data gives to coeff() again
------------------------------------------------------------------------- */

static std::string type_args(int set, const SsdType<double> &t)
{
  if (set >= 0) return set_name(set);
  double v[10];
  to_array(t, v);
  std::string s = "custom";
  for (double x : v) s += fmt::format(" {:.17g}", x);
  return s;
}

void PairSSD::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    utils::print(fp, "{} {}\n", i, type_args(type_set[i], types[i]));
}

void PairSSD::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (i == j)
        utils::print(fp, "{} {} {}\n", i, i, type_args(type_set[i], types[i]));
      else
        utils::print(fp, "{} {} lj {:.17g} {:.17g}\n", i, j, lj_sigma[i][j], lj_eps[i][j]);
    }
}

/* ---------------------------------------------------------------------- */

double PairSSD::memory_usage()
{
  double bytes = Pair::memory_usage();
  bytes += (double) nmax * 9 * sizeof(double);
  bytes += (double) params.size() * sizeof(SsdParams<double>);
  return bytes;
}
