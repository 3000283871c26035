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
// values per node and component: phi, V and the 3 gradient components
constexpr int kValuesPerNode = 5;

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

std::string gib(double bytes)
{
  return fmt::format("{:.3g} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

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

/* ----------------------------------------------------------------------
   the grid, its node count and the memory its field arrays take, for error messages
------------------------------------------------------------------------- */

std::string FixMDSCF::grid_size_text() const
{
  const double nodes = (double) nxgrid * nygrid * nzgrid;
  const double total = nodes * ncomp * kValuesPerNode * sizeof(double);
  return fmt::format("the {}x{}x{} grid ({:.6g} nodes, {} field type(s); its field arrays need "
                     "about {} in total, {} per rank on {} rank(s), plus ghost layers)",
                     nxgrid, nygrid, nzgrid, nodes, ncomp, gib(total), gib(total / comm->nprocs),
                     comm->nprocs);
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

/* ----------------------------------------------------------------------
   (re)create the distributed grid for the current decomposition and skin; keep the
   stored densities through a remap when the owned boxes change
------------------------------------------------------------------------- */

void FixMDSCF::make_grid()
{
  const double dist = 0.5 * neighbor->skin;
  auto *fresh = new Grid3d(lmp, world, nxgrid, nygrid, nzgrid);
  fresh->set_distance(dist);
  fresh->set_shift_grid(0.0);    // node g sits at the lower corner of cell g
  // atoms touch the nodes of their cell (0, +1); one more layer on each side lets every
  // node an atom touches take its central difference from local values
  fresh->set_stencil_atom(1, 2);
  int in[6], out[6];
  fresh->setup_grid(in[0], in[1], in[2], in[3], in[4], in[5], out[0], out[1], out[2], out[3],
                    out[4], out[5]);

  if (grid && grid->identical(fresh)) {
    delete fresh;
    maxdist = dist;
    return;
  }

  Grid3d *old = grid;
  if (old) {
    phi_previous = phi;
    phi = nullptr;
    nxlo_out_prev = nxlo_out;
    nylo_out_prev = nylo_out;
    nzlo_out_prev = nzlo_out;
    memory->destroy4d_offset_last(pot, nzlo_out, nylo_out, nxlo_out);
    memory->destroy4d_offset_last(grad, nzlo_out, nylo_out, nxlo_out);
    memory->destroy(grid_buf1);
    memory->destroy(grid_buf2);
  }

  grid = fresh;
  maxdist = dist;
  nxlo_in = in[0];
  nxhi_in = in[1];
  nylo_in = in[2];
  nyhi_in = in[3];
  nzlo_in = in[4];
  nzhi_in = in[5];
  nxlo_out = out[0];
  nxhi_out = out[1];
  nylo_out = out[2];
  nyhi_out = out[3];
  nzlo_out = out[4];
  nzhi_out = out[5];
  allocate_grid();

  if (old) {
    if (have_field) {
      int n1, n2;
      grid->setup_remap(old, n1, n2);
      double *buf1, *buf2;
      memory->create(buf1, (bigint) n1 * ncomp + 1, "mdscf:remap_buf1");
      memory->create(buf2, (bigint) n2 * ncomp + 1, "mdscf:remap_buf2");
      grid->remap(Grid3d::FIX, this, 0, ncomp, sizeof(double), buf1, buf2, MPI_DOUBLE);
      memory->destroy(buf1);
      memory->destroy(buf2);
    }
    memory->destroy4d_offset_last(phi_previous, nzlo_out_prev, nylo_out_prev, nxlo_out_prev);
    delete old;
    if (have_field) derive_field();
  }
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::allocate_grid()
{
  grid->setup_comm(ngrid_buf1, ngrid_buf2);
  // one LAMMPS error that names the grid, rather than a failure on one of the arrays
  const double nout_d =
      (double) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  const double need =
      (nout_d * kValuesPerNode + (double) ngrid_buf1 + ngrid_buf2 + 2.0) * ncomp * sizeof(double);
  void *probe = need < 9.0e18 ? malloc((size_t) need) : nullptr;
  if (!probe)
    error->one(FLERR,
               "Fix mdscf: cannot allocate {}: rank {} needs {} for its {:.6g} owned and ghost "
               "nodes; use a coarser grid or more ranks",
               grid_size_text(), comm->me, gib(need), nout_d);
  free(probe);
  memory->create(grid_buf1, (bigint) ngrid_buf1 * ncomp + 1, "mdscf:grid_buf1");
  memory->create(grid_buf2, (bigint) ngrid_buf2 * ncomp + 1, "mdscf:grid_buf2");
  memory->create4d_offset_last(phi, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               ncomp, "mdscf:phi");
  memory->create4d_offset_last(pot, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               ncomp, "mdscf:pot");
  memory->create4d_offset_last(grad, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               3 * ncomp, "mdscf:grad");
  const bigint nout =
      (bigint) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  memset(flat(phi), 0, sizeof(double) * nout * ncomp);
  memset(flat(pot), 0, sizeof(double) * nout * ncomp);
  memset(flat(grad), 0, sizeof(double) * nout * 3 * ncomp);
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::deallocate_grid()
{
  memory->destroy4d_offset_last(phi, nzlo_out, nylo_out, nxlo_out);
  memory->destroy4d_offset_last(pot, nzlo_out, nylo_out, nxlo_out);
  memory->destroy4d_offset_last(grad, nzlo_out, nylo_out, nxlo_out);
  memory->destroy(grid_buf1);
  memory->destroy(grid_buf2);
}

/* ----------------------------------------------------------------------
   an atom's cell must lie where every corner has a gradient
------------------------------------------------------------------------- */

void FixMDSCF::check_range(int i, int ix, int iy, int iz)
{
  if (ix < nxlo_out + 1 || ix + 1 > nxhi_out - 1 || iy < nylo_out + 1 || iy + 1 > nyhi_out - 1 ||
      iz < nzlo_out + 1 || iz + 1 > nzhi_out - 1) {
    const double *xi = atom->x[i];
    if (!std::isfinite(xi[0]) || !std::isfinite(xi[1]) || !std::isfinite(xi[2]))
      error->one(FLERR,
                 "Fix mdscf: atom {} has a non-finite position ({} {} {}); the run has "
                 "blown up",
                 atom->tag[i], xi[0], xi[1], xi[2]);
    error->one(FLERR,
               "Fix mdscf: atom {} at ({:.8g} {:.8g} {:.8g}) is outside this rank's part of "
               "the grid (it moved more than half the neighbor skin since the last "
               "reneighboring; use 'neigh_modify every 1 delay 0 check yes' or a larger skin)",
               atom->tag[i], atom->x[i][0], atom->x[i][1], atom->x[i][2]);
  }
}

double FixMDSCF::cell_volume() const
{
  return domain->xprd * domain->yprd * domain->zprd / ((double) nxgrid * nygrid * nzgrid);
}

/* ----------------------------------------------------------------------
   densities from the current positions, then everything that derives from them
------------------------------------------------------------------------- */

void FixMDSCF::build_field()
{
  const bigint nout =
      (bigint) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  memset(flat(phi), 0, sizeof(double) * nout * ncomp);

  double **x = atom->x;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double *boxlo = domain->boxlo;
  const double inv_h[3] = {nxgrid / domain->xprd, nygrid / domain->yprd, nzgrid / domain->zprd};

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const int k = type2comp[type[i]];
    if (k < 0) continue;
    double t[3];
    int c0[3];
    for (int d = 0; d < 3; ++d) c0[d] = mdscf::cell_index((x[i][d] - boxlo[d]) * inv_h[d], t[d]);
    check_range(i, c0[0], c0[1], c0[2]);
    double w[8];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c)
      phi[c0[2] + ((c >> 2) & 1)][c0[1] + ((c >> 1) & 1)][c0[0] + (c & 1)][k] += w[c];
  }

  grid->reverse_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);

  const double scale = 1.0 / (rho0 * cell_volume());
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix)
        for (int k = 0; k < ncomp; ++k) phi[iz][iy][ix][k] *= scale;

  have_field = true;
  last_update = update->ntimestep;
  derive_field();
}

/* ----------------------------------------------------------------------
   from the owned phi: ghosts, potentials, gradients, energy, virial, profile
------------------------------------------------------------------------- */

void FixMDSCF::derive_field()
{
  grid->forward_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);

  const double *chi = chi_comp.data();
  const double inv_kappa = 1.0 / kappa;
  for (int iz = nzlo_out; iz <= nzhi_out; ++iz)
    for (int iy = nylo_out; iy <= nyhi_out; ++iy)
      for (int ix = nxlo_out; ix <= nxhi_out; ++ix)
        mdscf::field_potentials(ncomp, phi[iz][iy][ix], chi, kT, inv_kappa, pot[iz][iy][ix]);

  const double inv_2h[3] = {0.5 * nxgrid / domain->xprd, 0.5 * nygrid / domain->yprd,
                            0.5 * nzgrid / domain->zprd};
  for (int iz = nzlo_out + 1; iz <= nzhi_out - 1; ++iz)
    for (int iy = nylo_out + 1; iy <= nyhi_out - 1; ++iy)
      for (int ix = nxlo_out + 1; ix <= nxhi_out - 1; ++ix)
        for (int k = 0; k < ncomp; ++k) {
          double *g = &grad[iz][iy][ix][3 * k];
          g[0] =
              mdscf::central_difference(pot[iz][iy][ix - 1][k], pot[iz][iy][ix + 1][k], inv_2h[0]);
          g[1] =
              mdscf::central_difference(pot[iz][iy - 1][ix][k], pot[iz][iy + 1][ix][k], inv_2h[1]);
          g[2] =
              mdscf::central_difference(pot[iz - 1][iy][ix][k], pot[iz + 1][iy][ix][k], inv_2h[2]);
        }

  // energy, virial and the profile from the owned nodes
  const int ntypes = atom->ntypes;
  const int nplanes = size_array_rows;
  std::vector<double> prof_mine((size_t) nplanes * ntypes, 0.0);
  double sums[3] = {0.0, 0.0, 0.0};    // f_chi, f_kappa, virial density
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix) {
        const double *p = phi[iz][iy][ix];
        double f_chi, f_kappa;
        mdscf::energy_density(ncomp, p, chi, kT, inv_kappa, f_chi, f_kappa);
        sums[0] += f_chi;
        sums[1] += f_kappa;
        sums[2] +=
            mdscf::virial_density(ncomp, p, (const double *) pot[iz][iy][ix], f_chi + f_kappa);
        const int plane = profile_dim == 0 ? ix : (profile_dim == 1 ? iy : iz);
        for (int k = 0; k < ncomp; ++k)
          prof_mine[(size_t) plane * ntypes + comp2type[k] - 1] += p[k];
      }
  const double per_node = rho0 * cell_volume();
  double all[2];
  MPI_Allreduce(sums, all, 2, MPI_DOUBLE, MPI_SUM, world);
  energy_chi = per_node * all[0];
  energy_kappa = per_node * all[1];
  virial_local = per_node * sums[2];

  MPI_Allreduce(prof_mine.data(), profile.data(), nplanes * ntypes, MPI_DOUBLE, MPI_SUM, world);
  const double nodes_per_plane = (double) nxgrid * nygrid * nzgrid / nplanes;
  for (double &v : profile) v /= nodes_per_plane;
}

/* ----------------------------------------------------------------------
   forces from the stored gradients at the current positions
------------------------------------------------------------------------- */

void FixMDSCF::apply_forces(int vflag)
{
  v_init(vflag);

  double **x = atom->x;
  double **f = atom->f;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double *boxlo = domain->boxlo;
  const double inv_h[3] = {nxgrid / domain->xprd, nygrid / domain->yprd, nzgrid / domain->zprd};

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const int k = type2comp[type[i]];
    if (k < 0) continue;
    double t[3];
    int c0[3];
    for (int d = 0; d < 3; ++d) c0[d] = mdscf::cell_index((x[i][d] - boxlo[d]) * inv_h[d], t[d]);
    check_range(i, c0[0], c0[1], c0[2]);
    double w[8], g[8][3], fi[3];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c) {
      const double *gc =
          &grad[c0[2] + ((c >> 2) & 1)][c0[1] + ((c >> 1) & 1)][c0[0] + (c & 1)][3 * k];
      g[c][0] = gc[0];
      g[c][1] = gc[1];
      g[c][2] = gc[2];
    }
    mdscf::field_force(w, g, fi);
    f[i][0] += fi[0];
    f[i][1] += fi[1];
    f[i][2] += fi[2];
  }

  if (vflag_global) {
    virial[0] += virial_local;
    virial[1] += virial_local;
    virial[2] += virial_local;
  }
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
                   gib(values * sizeof(double)), grid_size_text());
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

void FixMDSCF::reset_grid()
{
  make_grid();
}

/* ----------------------------------------------------------------------
   Grid3d callbacks; every exchange moves phi (ncomp values per node)
------------------------------------------------------------------------- */

void FixMDSCF::pack_forward_grid(int, void *vbuf, int nlist, int *list)
{
  auto *buf = (double *) vbuf;
  const double *src = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k) buf[(size_t) i * ncomp + k] = src[(size_t) list[i] * ncomp + k];
}

void FixMDSCF::unpack_forward_grid(int, void *vbuf, int nlist, int *list)
{
  const auto *buf = (const double *) vbuf;
  double *dest = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k)
      dest[(size_t) list[i] * ncomp + k] = buf[(size_t) i * ncomp + k];
}

void FixMDSCF::pack_reverse_grid(int, void *vbuf, int nlist, int *list)
{
  pack_forward_grid(0, vbuf, nlist, list);
}

void FixMDSCF::unpack_reverse_grid(int, void *vbuf, int nlist, int *list)
{
  const auto *buf = (const double *) vbuf;
  double *dest = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k)
      dest[(size_t) list[i] * ncomp + k] += buf[(size_t) i * ncomp + k];
}

void FixMDSCF::pack_remap_grid(int, void *vbuf, int nlist, int *list)
{
  auto *buf = (double *) vbuf;
  const double *src = &phi_previous[nzlo_out_prev][nylo_out_prev][nxlo_out_prev][0];
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k) buf[(size_t) i * ncomp + k] = src[(size_t) list[i] * ncomp + k];
}

void FixMDSCF::unpack_remap_grid(int, void *vbuf, int nlist, int *list)
{
  unpack_forward_grid(0, vbuf, nlist, list);
}

void FixMDSCF::pack_write_grid(int, void *vbuf)
{
  auto *buf = (double *) vbuf;
  size_t m = 0;
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix)
        for (int k = 0; k < ncomp; ++k) buf[m++] = phi[iz][iy][ix][k];
}

void FixMDSCF::unpack_write_grid(int, void *vbuf, int *bounds)
{
  const auto *buf = (const double *) vbuf;
  size_t m = 0;
  for (int iz = bounds[4]; iz <= bounds[5]; ++iz)
    for (int iy = bounds[2]; iy <= bounds[3]; ++iy)
      for (int ix = bounds[0]; ix <= bounds[1]; ++ix) {
        const size_t node = ((size_t) iz * nygrid + iy) * nxgrid + ix;
        for (int k = 0; k < ncomp; ++k) write_buf[node * ncomp + k] = buf[m++];
      }
}

/* ----------------------------------------------------------------------
   per-grid output (dump grid, fix ave/grid): grid "grid", data "phi" and "potential",
   arrays with one column per field type (in increasing type order)
------------------------------------------------------------------------- */

int FixMDSCF::get_grid_by_name(const std::string &name, int &dim)
{
  if (name == "grid") {
    dim = 3;
    return 0;
  }
  return -1;
}

void *FixMDSCF::get_grid_by_index(int index)
{
  return index == 0 ? grid : nullptr;
}

int FixMDSCF::get_griddata_by_name(int igrid, const std::string &name, int &ncol)
{
  if (igrid != 0) return -1;
  ncol = ncomp;
  if (name == "phi") return 0;
  if (name == "potential") return 1;
  return -1;
}

void *FixMDSCF::get_griddata_by_index(int index)
{
  if (index == 0) return phi;
  if (index == 1) return pot;
  return nullptr;
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
