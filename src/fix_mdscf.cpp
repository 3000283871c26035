/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix mdscf (doc/fix_mdscf.md)

   Per timestep, in post_force:
     if step % every == 0 (a field update, "build"):
       deposit  CIC weights of the local field atoms onto the owned+ghost nodes
       reverse  ghost sums -> owners (Grid3d::reverse_comm); phi = count/(rho0 v_c)
       forward  phi of the owners -> every ghost node (Grid3d::forward_comm)
       derive   V_K on every node, grad V_K by central differences on every node but
                the outermost ghost layer, W and the virial from the owned nodes
     forces     F_i = -sum_c w_c grad V_K(g_c) from the stored gradients, every step.
   The ghost layers reach one node beyond the nodes that atoms up to half the neighbour
   skin outside the sub-domain touch, so no gradient needs a second exchange; every node
   value an atom reads is computed from the same phi values on every rank, so forces do
   not depend on the decomposition (densities do to rounding: summation order).
------------------------------------------------------------------------- */

#include "fix_mdscf.h"

#include "physics/mdscf.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "grid3d.h"
#include "group.h"
#include "memory.h"
#include "neighbor.h"
#include "update.h"
#include "utils.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

using namespace LAMMPS_NS;
using namespace FixConst;
namespace mdscf = mesogpu::physics::mdscf;

namespace {

const char *const kKeywords[] = {"grid",  "spacing", "temp", "kappa",   "chi",
                                 "every", "types",   "rho0", "profile", "deposit"};
constexpr int kMinNodes = 3;
constexpr double kRestartVersion = 1.0;

const char cite_fix_mdscf[] =
    "fix mdscf command: doi:10.1063/1.3142103, doi:10.1002/jcc.23365\n\n"
    "@Article{Milano2009,\n"
    " author = {Milano, Giuseppe and Kawakatsu, Toshihiro},\n"
    " title = {Hybrid particle-field molecular dynamics simulations for dense polymer "
    "systems},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 2009,\n"
    " volume = 130,\n"
    " number = 21,\n"
    " pages = 214106,\n"
    " doi = {10.1063/1.3142103}\n"
    "}\n\n"
    "@Article{Zhu2013,\n"
    " author = {Zhu, You-Liang and Liu, Hong and Li, Zhan-Wei and Qian, Hu-Jun and Milano, "
    "Giuseppe and Lu, Zhong-Yuan},\n"
    " title = {{GALAMOST}: {GPU}-accelerated large-scale molecular simulation toolkit},\n"
    " journal = {J.~Comput.\\ Chem.},\n"
    " year = 2013,\n"
    " volume = 34,\n"
    " number = 25,\n"
    " pages = {2197--2211},\n"
    " doi = {10.1002/jcc.23365}\n"
    "}\n\n";

bool is_keyword(const char *s)
{
  for (const char *k : kKeywords)
    if (strcmp(s, k) == 0) return true;
  return false;
}

}    // namespace

/* ---------------------------------------------------------------------- */

FixMDSCF::FixMDSCF(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
{
  if (lmp->citeme) lmp->citeme->add(cite_fix_mdscf);
  if (narg < 4) utils::missing_cmd_args(FLERR, "fix mdscf", error);
  if (domain->dimension != 3) error->all(FLERR, "Fix mdscf requires a 3d system");
  if (domain->triclinic)
    error->all(FLERR, "Fix mdscf requires an orthogonal box (the grid is orthogonal)");
  check_periodic();

  scalar_flag = 1;
  extscalar = 1;
  vector_flag = 1;
  size_vector = 3;
  extvector = -1;
  extlist = new int[3]{1, 1, 0};
  array_flag = 1;
  extarray = 0;
  global_freq = 1;
  energy_global_flag = 1;
  virial_global_flag = 1;
  thermo_virial = 1;
  restart_global = 1;
  pergrid_flag = 1;
  pergrid_freq = 1;

  const int ntypes = atom->ntypes;
  memory->create(chi_type, ntypes + 1, ntypes + 1, "mdscf:chi_type");
  for (int i = 0; i <= ntypes; ++i)
    for (int j = 0; j <= ntypes; ++j) chi_type[i][j] = 0.0;
  std::vector<char> in_field(ntypes + 1, 1);
  in_field[0] = 0;

  auto number = [&](int iarg, const char *what) {
    if (iarg >= narg)
      error->all(FLERR, iarg - 1, "Fix mdscf: {} expects a value, none given", what);
    if (!utils::is_double(arg[iarg]))
      error->all(FLERR, iarg, "Fix mdscf: {}: '{}' is not a number", what, arg[iarg]);
    const double v = utils::numeric(FLERR, arg[iarg], false, lmp);
    if (!std::isfinite(v)) error->all(FLERR, iarg, "Fix mdscf: {} must be finite", what);
    return v;
  };
  auto integer = [&](int iarg, const char *what) {
    if (iarg >= narg)
      error->all(FLERR, iarg - 1, "Fix mdscf: {} expects a value, none given", what);
    if (!utils::is_integer(arg[iarg]))
      error->all(FLERR, iarg, "Fix mdscf: {}: '{}' is not an integer", what, arg[iarg]);
    return utils::inumeric(FLERR, arg[iarg], false, lmp);
  };
  // a type, a range (1*3, *) or a type label (labelmap atom ...), as pair_coeff takes them
  auto types_of = [&](int iarg, const char *what, int &lo, int &hi) {
    lo = hi = -1;
    char *label = utils::expand_type(FLERR, arg[iarg], Atom::ATOM, lmp);
    try {
      utils::bounds(FLERR, label ? label : arg[iarg], 1, ntypes, lo, hi, nullptr);
    } catch (std::exception &) {
      lo = hi = -1;
    }
    delete[] label;
    if (lo < 1 || hi > ntypes || lo > hi)
      error->all(FLERR, iarg, "Fix mdscf: {}: '{}' is not an atom type or range within 1-{}", what,
                 arg[iarg], ntypes);
  };

  bool have_temp = false, have_kappa = false, types_given = false, have_deposit = false;
  int grid_arg = -1;    // argument index of the grid or spacing keyword
  int iarg = 3;
  while (iarg < narg) {
    const char *kw = arg[iarg];
    if (strcmp(kw, "grid") == 0 || strcmp(kw, "spacing") == 0) {
      if (grid_arg >= 0)
        error->all(FLERR, iarg,
                   "Fix mdscf: '{}' after '{}': give the grid once, either 'grid Nx Ny Nz' or "
                   "'spacing h'",
                   kw, arg[grid_arg]);
      grid_arg = iarg;
    }
    if (strcmp(kw, "grid") == 0) {
      if (iarg + 4 > narg)
        error->all(FLERR, iarg, "Fix mdscf: grid expects 3 node counts Nx Ny Nz");
      int n[3];
      for (int d = 0; d < 3; ++d) {
        const int ia = iarg + 1 + d;
        if (!utils::is_integer(arg[ia]))
          error->all(FLERR, ia, "Fix mdscf: grid: '{}' is not an integer", arg[ia]);
        const bigint v = utils::bnumeric(FLERR, arg[ia], false, lmp);
        if (v < kMinNodes)
          error->all(FLERR, ia,
                     "Fix mdscf: grid needs at least {} nodes per direction for central "
                     "differences (got {})",
                     kMinNodes, v);
        if (v > MAXSMALLINT)
          error->all(FLERR, ia, "Fix mdscf: grid: {} nodes along {} exceed the limit {}", v,
                     "xyz"[d], MAXSMALLINT);
        n[d] = (int) v;
      }
      nxgrid = n[0];
      nygrid = n[1];
      nzgrid = n[2];
      iarg += 4;
    } else if (strcmp(kw, "spacing") == 0) {
      const double spacing = number(iarg + 1, "spacing");
      if (spacing <= 0.0)
        error->all(FLERR, iarg + 1, "Fix mdscf: spacing must be > 0 (got {})", arg[iarg + 1]);
      const double *prd = domain->prd;
      int n[3];
      for (int d = 0; d < 3; ++d) {
        const double nd = std::round(prd[d] / spacing);
        if (!(nd <= MAXSMALLINT))
          error->all(FLERR, iarg + 1,
                     "Fix mdscf: spacing {} gives {:.4g} nodes along {} (box length {}), more "
                     "than the limit {}",
                     arg[iarg + 1], nd, "xyz"[d], prd[d], MAXSMALLINT);
        n[d] = static_cast<int>(nd);
        if (n[d] < kMinNodes) {
          if (comm->me == 0)
            error->warning(FLERR,
                           "Fix mdscf: spacing {} gives {} node(s) along {} (box length {}); "
                           "using the minimum of {} for central differences",
                           arg[iarg + 1], n[d], "xyz"[d], prd[d], kMinNodes);
          n[d] = kMinNodes;
        }
      }
      nxgrid = n[0];
      nygrid = n[1];
      nzgrid = n[2];
      iarg += 2;
    } else if (strcmp(kw, "temp") == 0) {
      temperature = number(iarg + 1, "temp");
      if (temperature <= 0.0)
        error->all(FLERR, iarg + 1, "Fix mdscf: temp must be > 0 (got {})", arg[iarg + 1]);
      have_temp = true;
      iarg += 2;
    } else if (strcmp(kw, "kappa") == 0) {
      kappa = number(iarg + 1, "kappa");
      if (kappa <= 0.0)
        error->all(FLERR, iarg + 1, "Fix mdscf: kappa must be > 0 (got {})", arg[iarg + 1]);
      if (!std::isfinite(1.0 / kappa))
        error->all(FLERR, iarg + 1, "Fix mdscf: kappa {} is too small: 1/kappa overflows",
                   arg[iarg + 1]);
      have_kappa = true;
      iarg += 2;
    } else if (strcmp(kw, "chi") == 0) {
      if (iarg + 4 > narg)
        error->all(FLERR, iarg, "Fix mdscf: chi expects 'I J value' (types I, J), got {} values",
                   narg - iarg - 1);
      int ilo, ihi, jlo, jhi;
      types_of(iarg + 1, "chi", ilo, ihi);
      types_of(iarg + 2, "chi", jlo, jhi);
      const double value = number(iarg + 3, "chi");
      for (int i = ilo; i <= ihi; ++i)
        for (int j = jlo; j <= jhi; ++j) chi_type[i][j] = chi_type[j][i] = value;
      iarg += 4;
    } else if (strcmp(kw, "every") == 0) {
      nupdate = integer(iarg + 1, "every");
      if (nupdate < 1)
        error->all(FLERR, iarg + 1, "Fix mdscf: every must be >= 1 (got {})", arg[iarg + 1]);
      iarg += 2;
    } else if (strcmp(kw, "types") == 0) {
      if (!types_given) std::fill(in_field.begin(), in_field.end(), 0);
      types_given = true;
      int n = 0;
      ++iarg;
      while (iarg < narg && !is_keyword(arg[iarg])) {
        int lo, hi;
        types_of(iarg, "types", lo, hi);
        for (int t = lo; t <= hi; ++t) in_field[t] = 1;
        ++n;
        ++iarg;
      }
      if (n == 0) error->all(FLERR, iarg - 1, "Fix mdscf: types expects one or more atom types");
    } else if (strcmp(kw, "rho0") == 0) {
      rho0_user = number(iarg + 1, "rho0");
      if (rho0_user <= 0.0)
        error->all(FLERR, iarg + 1, "Fix mdscf: rho0 must be > 0 (got {})", arg[iarg + 1]);
      iarg += 2;
    } else if (strcmp(kw, "profile") == 0) {
      if (iarg + 2 > narg) error->all(FLERR, iarg, "Fix mdscf: profile expects x, y or z");
      const char *a = arg[iarg + 1];
      if (strcmp(a, "x") == 0)
        profile_dim = 0;
      else if (strcmp(a, "y") == 0)
        profile_dim = 1;
      else if (strcmp(a, "z") == 0)
        profile_dim = 2;
      else
        error->all(FLERR, iarg + 1, "Fix mdscf: profile expects x, y or z (got '{}')", a);
      iarg += 2;
    } else if (strcmp(kw, "deposit") == 0) {
      if (iarg + 2 > narg) error->all(FLERR, iarg, "Fix mdscf: deposit expects atomic or gather");
      const char *a = arg[iarg + 1];
      if (strcmp(a, "atomic") == 0)
        deposit_gather = false;
      else if (strcmp(a, "gather") == 0)
        deposit_gather = true;
      else
        error->all(FLERR, iarg + 1, "Fix mdscf: deposit expects atomic or gather (got '{}')", a);
      have_deposit = true;
      iarg += 2;
    } else {
      error->all(FLERR, iarg,
                 "Fix mdscf: unknown keyword '{}' (allowed: grid, spacing, temp, kappa, chi, "
                 "every, types, rho0, profile, deposit)",
                 kw);
    }
  }

  if (nxgrid == 0)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: the grid is required: 'grid Nx Ny Nz' or 'spacing h'");
  if (!have_temp)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: 'temp T' is required (kT scale of the chi parameters)");
  if (!have_kappa)
    error->all(FLERR, Error::NOLASTLINE, "Fix mdscf: 'kappa value' is required (compressibility)");

  type2comp.assign(ntypes + 1, -1);
  for (int t = 1; t <= ntypes; ++t)
    if (in_field[t]) {
      type2comp[t] = ncomp++;
      comp2type.push_back(t);
    }
  for (int i = 1; i <= ntypes; ++i)
    for (int j = i; j <= ntypes; ++j)
      if (chi_type[i][j] != 0.0 && (!in_field[i] || !in_field[j]))
        error->all(FLERR, Error::NOLASTLINE,
                   "Fix mdscf: chi {} {} is given but type {} is not in the field's types", i, j,
                   in_field[i] ? j : i);
  chi_comp.assign((size_t) ncomp * ncomp, 0.0);
  for (int k = 0; k < ncomp; ++k)
    for (int l = 0; l < ncomp; ++l) chi_comp[k * ncomp + l] = chi_type[comp2type[k]][comp2type[l]];

  // node and value indices are int here, in Grid3d and on the device: the whole grid times
  // the components must fit (computed in double: nx ny nz may overflow even 64 bits)
  const double nodes = (double) nxgrid * nygrid * nzgrid;
  if (nodes * ncomp > MAXSMALLINT)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: {} has {:.6g} values (nodes times field types), more than the {} this "
               "fix can index; use a coarser grid",
               grid_size_text(), nodes * ncomp, MAXSMALLINT);
  const int nplanes = profile_dim == 0 ? nxgrid : (profile_dim == 1 ? nygrid : nzgrid);
  if ((double) nplanes * ntypes > MAXSMALLINT)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: the profile array ({} planes along {} times {} atom types) exceeds "
               "{} values; use a coarser grid or another profile axis",
               nplanes, "xyz"[profile_dim], ntypes, MAXSMALLINT);
  size_array_rows = nplanes;
  size_array_cols = 1 + ntypes;
  profile.assign((size_t) nplanes * ntypes, 0.0);

  if (have_deposit && strcmp(style, "mdscf") == 0 && comm->me == 0)
    error->warning(FLERR, "Fix mdscf: 'deposit' only affects fix mdscf/cuda; ignored here");
}

/* ---------------------------------------------------------------------- */

std::string FixMDSCF::gib_text(double bytes)
{
  return fmt::format("{:.3g} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

/* ----------------------------------------------------------------------
   the grid, its node count and the memory its field arrays take, for error messages
------------------------------------------------------------------------- */

std::string FixMDSCF::grid_size_text() const
{
  const double nodes = (double) nxgrid * nygrid * nzgrid;
  const double total = nodes * ncomp * VALUES_PER_NODE * sizeof(double);
  return fmt::format("the {}x{}x{} grid ({:.6g} nodes, {} field type(s); its field arrays need "
                     "about {} in total, {} per rank on {} rank(s), plus ghost layers)",
                     nxgrid, nygrid, nzgrid, nodes, ncomp, gib_text(total),
                     gib_text(total / comm->nprocs), comm->nprocs);
}

/* ----------------------------------------------------------------------
   stop unless the box is periodic in x, y and z (checked again at every init(): change_box
   may have changed the boundaries since the fix was defined)
------------------------------------------------------------------------- */

void FixMDSCF::check_periodic()
{
  const int periodic[3] = {domain->xperiodic, domain->yperiodic, domain->zperiodic};
  std::string bad;
  for (int d = 0; d < 3; ++d)
    if (!periodic[d]) bad += std::string(bad.empty() ? "" : ", ") + "xyz"[d];
  if (!bad.empty())
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf requires periodic boundaries in x, y and z (the density grid is "
               "periodic); the box is not periodic in {}",
               bad);
}

/* ---------------------------------------------------------------------- */

FixMDSCF::~FixMDSCF()
{
  delete[] extlist;
  memory->destroy(chi_type);
  deallocate_grid();
  delete grid;
}

/* ---------------------------------------------------------------------- */

int FixMDSCF::setmask()
{
  return POST_FORCE;
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::init()
{
  // the minimizer would see no field at all (no min_post_force): refuse rather than
  // minimize another energy
  if (update->whichflag == 2)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf does not support energy minimization (its field is a mean field "
               "frozen between updates, not a potential of the positions); minimize before "
               "defining it (or unfix it), or relax with a short damped run (fix langevin or "
               "fix viscous)");
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, Error::NOLASTLINE, "Fix mdscf does not support run_style respa");
  if (domain->triclinic)
    error->all(FLERR, Error::NOLASTLINE, "Fix mdscf requires an orthogonal box");
  check_periodic();
  kT = force->boltz * temperature;
  make_grid();
  if (restart_pending) load_restart_field();
}

/* ----------------------------------------------------------------------
   the field is rebuilt at the start of a run when the step is an update step or no
   field is stored; otherwise the stored one (previous run, restart) goes on
------------------------------------------------------------------------- */

void FixMDSCF::setup(int vflag)
{
  if (rho0 <= 0.0) set_rho0();
  if (!have_field || update->ntimestep % nupdate == 0) build_field();
  apply_forces(vflag);
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::post_force(int vflag)
{
  if (update->ntimestep % nupdate == 0) build_field();
  apply_forces(vflag);
}

/* ----------------------------------------------------------------------
   rho0 = N/V over the atoms that feel the field, once (not re-read when the box
   changes), unless the user gave it
------------------------------------------------------------------------- */

void FixMDSCF::set_rho0()
{
  if (rho0_user > 0.0) {
    rho0 = rho0_user;
    return;
  }
  bigint nmine = 0, nall = 0;
  for (int i = 0; i < atom->nlocal; ++i)
    if ((atom->mask[i] & groupbit) && type2comp[atom->type[i]] >= 0) ++nmine;
  MPI_Allreduce(&nmine, &nall, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  if (nall == 0)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: no atom of group {} has a type of the field; rho0 would be 0",
               group->names[igroup]);
  rho0 = (double) nall / (domain->xprd * domain->yprd * domain->zprd);
}

/* ---------------------------------------------------------------------- */

double FixMDSCF::compute_scalar()
{
  return energy_chi + energy_kappa;
}

/* ----------------------------------------------------------------------
   1: W_chi, 2: W_kappa, 3: rho0
------------------------------------------------------------------------- */

double FixMDSCF::compute_vector(int n)
{
  if (n == 0) return energy_chi;
  if (n == 1) return energy_kappa;
  return rho0;
}

/* ----------------------------------------------------------------------
   row i: node plane i along the profile axis; column 1 its coordinate, column 1+t
   the volume fraction phi of type t averaged over the plane (0 for types not in the field)
------------------------------------------------------------------------- */

double FixMDSCF::compute_array(int i, int j)
{
  if (j == 0) {
    const double h = domain->prd[profile_dim] / size_array_rows;
    return domain->boxlo[profile_dim] + i * h;
  }
  return profile[(size_t) i * atom->ntypes + j - 1];
}

/* ----------------------------------------------------------------------
   restart: settings that must match, rho0, the step of the last rebuild and the whole
   phi grid (gathered on rank 0). Called on every rank (the gather is collective).
------------------------------------------------------------------------- */

void FixMDSCF::write_restart(FILE *fp)
{
  const int ntypes = atom->ntypes;
  std::vector<double> list;
  list.push_back(kRestartVersion);
  list.push_back(nxgrid);
  list.push_back(nygrid);
  list.push_back(nzgrid);
  list.push_back(ntypes);
  for (int t = 1; t <= ntypes; ++t) list.push_back(type2comp[t]);
  list.push_back(rho0);
  list.push_back(have_field ? 1.0 : 0.0);
  list.push_back((double) last_update);
  // the record's size is an int number of bytes (and so is Grid3d's gather buffer)
  const double values = (double) nxgrid * nygrid * nzgrid * ncomp;
  const bool fits = (values + list.size()) * sizeof(double) <= MAXSMALLINT;
  if (have_field && grid && !fits && !warned_restart_size && comm->me == 0)
    error->warning(FLERR,
                   "Fix mdscf: {} is too large for a restart file ({:.6g} values); the restart "
                   "is written without the field, which is rebuilt from the positions when the "
                   "run continues",
                   grid_size_text(), values);
  if (!fits) warned_restart_size = true;
  if (have_field && grid && fits) {
    if (comm->me == 0) {
      try {
        write_buf.assign((size_t) values, 0.0);
      } catch (std::bad_alloc &) {
        error->one(FLERR,
                   "Fix mdscf: cannot allocate {} on rank 0 to gather the field of {} "
                   "for the restart file",
                   gib_text(values * sizeof(double)), grid_size_text());
      }
    }
    grid->write_file(Grid3d::FIX, this, 0, ncomp, sizeof(double), MPI_DOUBLE);
    if (comm->me == 0) list.insert(list.end(), write_buf.begin(), write_buf.end());
    write_buf.clear();
    write_buf.shrink_to_fit();
  } else {
    list[list.size() - 2] = 0.0;
  }
  if (comm->me == 0) {
    const int size = (int) (list.size() * sizeof(double));
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(list.data(), sizeof(double), list.size(), fp);
  }
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::restart(char *buf)
{
  const auto *list = (const double *) buf;
  int n = 0;
  if (list[n++] != kRestartVersion)
    error->all(FLERR, Error::NOLASTLINE, "Fix mdscf: restart data of an unknown version");
  const int nx = (int) list[n++], ny = (int) list[n++], nz = (int) list[n++];
  if (nx != nxgrid || ny != nygrid || nz != nzgrid)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: the restart file has a {}x{}x{} grid, this fix {}x{}x{}; use the "
               "same grid to continue",
               nx, ny, nz, nxgrid, nygrid, nzgrid);
  const int ntypes = (int) list[n++];
  bool same = ntypes == atom->ntypes;
  for (int t = 1; t <= ntypes; ++t) {
    const int k = (int) list[n++];
    if (same && k != type2comp[t]) same = false;
  }
  if (!same)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix mdscf: the restart file's field has other types than this fix's 'types'");
  restart_rho0 = list[n++];
  const bool stored = list[n++] != 0.0;
  restart_step = (bigint) list[n++];
  if (rho0_user <= 0.0 && restart_rho0 > 0.0) rho0 = restart_rho0;
  if (stored) {
    const size_t total = (size_t) nxgrid * nygrid * nzgrid * ncomp;
    restart_phi.assign(list + n, list + n + total);
    restart_pending = true;
  }
}

/* ----------------------------------------------------------------------
   copy the owned part of the restart grid (init(), once the grid exists)
------------------------------------------------------------------------- */

void FixMDSCF::load_restart_field()
{
  if (rho0 <= 0.0) set_rho0();
  const double scale = (restart_rho0 > 0.0) ? restart_rho0 / rho0 : 1.0;
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix) {
        const size_t node = ((size_t) iz * nygrid + iy) * nxgrid + ix;
        for (int k = 0; k < ncomp; ++k) phi[iz][iy][ix][k] = restart_phi[node * ncomp + k] * scale;
      }
  restart_phi.clear();
  restart_phi.shrink_to_fit();
  restart_pending = false;
  have_field = true;
  last_update = restart_step;
  derive_field();
}

/* ---------------------------------------------------------------------- */

void *FixMDSCF::extract(const char *name, int &dim)
{
  if (strcmp(name, "rho0") == 0) {
    dim = 0;
    return &rho0;
  }
  if (strcmp(name, "kT") == 0) {
    dim = 0;
    return &kT;
  }
  if (strcmp(name, "kappa") == 0) {
    dim = 0;
    return &kappa;
  }
  if (strcmp(name, "chi") == 0) {
    dim = 2;
    return chi_type;
  }
  return nullptr;
}

/* ---------------------------------------------------------------------- */

double FixMDSCF::memory_usage()
{
  const double nout =
      (double) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  return nout * 5.0 * ncomp * sizeof(double) +
         (double) (ngrid_buf1 + ngrid_buf2) * ncomp * sizeof(double);
}
