/* mesogpu: fix polymerize (see fix_polymerize.h and doc/fix_polymerize.md).

   One reaction step (post_integrate of every Nevery-th step, as fix bond/create):
     1. forward comm of positions and of the per-atom state (init, cris, chain position);
     2. every owned active end i scans its full neighbour list for free monomers j within
        rc, accepts each with P_r(type_i, type_j) and keeps the accepted one of smallest u
        (physics/chain_growth.h); forward comm of that choice (best, u) to the ghosts;
     3. every owned free monomer j scans its full list for ends i that chose it and keeps
        the one of smallest u; forward comm of that winner to the ghosts;
     4. an end whose chosen monomer names it as winner reacts: both owners add the bond
        (the smaller tag stores it with newton_bond on, both without), the 1-2 special
        entry, cris, init and the chain position; the monomer may change type;
     5. forward comm of the new partners and 1-2 lists; every owned atom near a new bond
        rebuilds its 1-3/1-4 lists and makes the new angles (FixBondCreate's way);
        reneighbouring on this step (next_reneighbor).
   A full neighbour list makes every decision about an atom on its owner, so no reverse
   communication is needed and the result does not depend on newton_pair. */

#include "fix_polymerize.h"

#include "physics/chain_growth.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "pair.h"
#include "update.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;
namespace phys = mesogpu::physics;

namespace {
const char cite_fix_polymerize[] =
    "fix polymerize (stochastic chain-growth polymerization): doi:10.1002/jcc.23365\n\n"
    "@Article{Zhu13,\n"
    " author = {Y.-L. Zhu and H. Liu and Z.-W. Li and H.-J. Qian and G. Milano and Z.-Y. Lu},\n"
    " title = {{GALAMOST}: {GPU}-Accelerated Large-Scale Molecular Simulation Toolkit},\n"
    " journal = {J.~Comput.\\ Chem.},\n"
    " year = 2013,\n"
    " volume = 34,\n"
    " pages = {2197--2211}\n"
    "}\n\n";

enum { COMM_STATE = 1, COMM_BEST, COMM_WIN, COMM_TOPO };
}    // namespace

/* ---------------------------------------------------------------------- */

FixPolymerize::FixPolymerize(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
{
  if (lmp->citeme) lmp->citeme->add(cite_fix_polymerize);
  if (narg < 5) utils::missing_cmd_args(FLERR, "fix polymerize", error);
  if (atom->molecular != Atom::MOLECULAR)
    error->all(FLERR, "Fix polymerize needs a molecular atom style with bonds (e.g. bond, full)");

  nevery = utils::inumeric(FLERR, arg[3], false, lmp);
  if (nevery <= 0) error->all(FLERR, "Fix polymerize: Nevery must be > 0, got {}", nevery);
  seed = utils::inumeric(FLERR, arg[4], false, lmp);
  if (seed <= 0) error->all(FLERR, "Fix polymerize: seed must be > 0, got {}", seed);

  const int nt = atom->ntypes;
  prob.assign((nt + 1) * (nt + 1), 0.0);
  newtype.resize(nt + 1);
  for (int t = 0; t <= nt; ++t) newtype[t] = t;
  rc = -1.0;
  btype = 0;
  int nprob = 0;

  int iarg = 5;
  while (iarg < narg) {
    const std::string key = arg[iarg];
    auto need = [&](int n) {
      if (iarg + n >= narg) utils::missing_cmd_args(FLERR, "fix polymerize " + key, error);
    };
    if (key == "prob") {
      need(3);
      int ilo, ihi, jlo, jhi;
      utils::bounds(FLERR, arg[iarg + 1], 1, nt, ilo, ihi, error);
      utils::bounds(FLERR, arg[iarg + 2], 1, nt, jlo, jhi, error);
      const double p = utils::numeric(FLERR, arg[iarg + 3], false, lmp);
      if (!(p >= 0.0 && p <= 1.0))
        error->all(FLERR, "Fix polymerize: probability {} for types {} {} is outside [0, 1]", p,
                   arg[iarg + 1], arg[iarg + 2]);
      for (int i = ilo; i <= ihi; ++i)
        for (int j = jlo; j <= jhi; ++j) prob[i * (nt + 1) + j] = p;
      ++nprob;
      iarg += 4;
    } else if (key == "rc") {
      need(1);
      rc = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (rc <= 0.0) error->all(FLERR, "Fix polymerize: capture radius rc must be > 0, got {}", rc);
      iarg += 2;
    } else if (key == "btype") {
      need(1);
      btype = utils::expand_type_int(FLERR, arg[iarg + 1], Atom::BOND, lmp);
      if (btype < 1 || btype > atom->nbondtypes)
        error->all(FLERR, "Fix polymerize: bond type {} does not exist (the box has {} bond types)",
                   arg[iarg + 1], atom->nbondtypes);
      iarg += 2;
    } else if (key == "atype") {
      need(1);
      atype = utils::expand_type_int(FLERR, arg[iarg + 1], Atom::ANGLE, lmp);
      if (atype < 1 || atype > atom->nangletypes)
        error->all(FLERR,
                   "Fix polymerize: angle type {} does not exist (the box has {} angle types)",
                   arg[iarg + 1], atom->nangletypes);
      iarg += 2;
    } else if (key == "jtype") {
      need(2);
      const int from = utils::expand_type_int(FLERR, arg[iarg + 1], Atom::ATOM, lmp);
      const int to = utils::expand_type_int(FLERR, arg[iarg + 2], Atom::ATOM, lmp);
      if (from < 1 || from > nt || to < 1 || to > nt)
        error->all(FLERR, "Fix polymerize: jtype {} {}: atom type outside 1..{}", arg[iarg + 1],
                   arg[iarg + 2], nt);
      newtype[from] = to;
      iarg += 3;
    } else if (key == "init") {
      need(1);
      const int igroup_init = group->find(arg[iarg + 1]);
      if (igroup_init < 0)
        error->all(FLERR, "Fix polymerize: initiator group {} does not exist", arg[iarg + 1]);
      init_groupbit = group->bitmask[igroup_init];
      iarg += 2;
    } else
      error->all(FLERR, "Fix polymerize: unknown keyword {}", key);
  }
  if (rc < 0.0) error->all(FLERR, "Fix polymerize needs the capture radius: keyword rc");
  if (btype == 0) error->all(FLERR, "Fix polymerize needs the bond type: keyword btype");
  if (nprob == 0) error->all(FLERR, "Fix polymerize needs at least one 'prob itype jtype P'");
  rcsq = rc * rc;

  force_reneighbor = 1;
  next_reneighbor = -1;
  vector_flag = 1;
  size_vector = 8;
  global_freq = 1;
  extvector = 0;
  peratom_flag = 1;
  size_peratom_cols = 3;
  peratom_freq = 1;
  restart_global = 1;
  restart_peratom = 1;

  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);

  // initiators are active ends; everything else starts free (a restart overwrites this)
  const int nlocal = atom->nlocal;
  for (int i = 0; i < nlocal; ++i) {
    state[i][0] = (init_groupbit && (atom->mask[i] & init_groupbit) && (atom->mask[i] & groupbit))
                      ? 1.0
                      : 0.0;
    state[i][1] = state[i][2] = 0.0;
  }
}

/* ---------------------------------------------------------------------- */

FixPolymerize::~FixPolymerize()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(state);
  memory->destroy(best);
  memory->destroy(ubest);
  memory->destroy(winner);
  memory->destroy(finalpartner);
}

int FixPolymerize::setmask()
{
  return POST_INTEGRATE;
}

/* ---------------------------------------------------------------------- */

void FixPolymerize::init()
{
  const int nt = atom->ntypes;
  if (!force->bond)
    error->all(FLERR, "Fix polymerize needs a bond style (the new bonds of type {})", btype);
  if (atype && !force->angle)
    error->all(FLERR, "Fix polymerize with atype needs an angle style (the new angles of type {})",
               atype);
  if (!force->pair || !force->pair->cutsq)
    error->all(FLERR, "Fix polymerize needs a pair style (its neighbour list finds the monomers)");
  if (force->special_angle || force->special_dihedral || force->special_onefive)
    error->all(FLERR, "Fix polymerize does not support special_bonds angle/dihedral/one/five yes");

  // rc within the neighbour cutoff (pair cutoff + skin) of every reacting type pair
  for (int i = 1; i <= nt; ++i)
    for (int j = 1; j <= nt; ++j) {
      if (prob[i * (nt + 1) + j] <= 0.0) continue;
      // as Neighbor::init, which runs after the fixes' init
      const double cutneigh = sqrt(force->pair->cutsq[i][j]) + neighbor->skin;
      if (rc > cutneigh)
        error->all(FLERR,
                   "Fix polymerize: capture radius rc = {} exceeds the neighbour cutoff {} "
                   "(pair cutoff + skin) of types {} {}",
                   rc, cutneigh, i, j);
    }

  // the special list levels LAMMPS keeps (Special::build): 1-2 only when the 1-3 and 1-4
  // weights are 1, 1-2 and 1-3 when the 1-4 weights are 1, else all three
  if (force->special_lj[2] == 1.0 && force->special_coul[2] == 1.0 && force->special_lj[3] == 1.0 &&
      force->special_coul[3] == 1.0)
    special_levels = 1;
  else if (force->special_lj[3] == 1.0 && force->special_coul[3] == 1.0)
    special_levels = 2;
  else
    special_levels = 3;

  // room for an interior atom of a linear chain: two bonds, 2 per special level, and its
  // angles (the central one with newton_bond on, all three it is part of without)
  if (atom->bond_per_atom < 2)
    error->all(FLERR,
               "Fix polymerize: {} bond(s) per atom leave no room for chains (2 needed): set "
               "extra/bond/per/atom in read_data or create_box",
               atom->bond_per_atom);
  if (atom->maxspecial < 2 * special_levels)
    error->all(FLERR,
               "Fix polymerize: {} special neighbours per atom, a chain atom needs {}: set "
               "extra/special/per/atom in read_data or create_box",
               atom->maxspecial, 2 * special_levels);
  const int angles_needed = force->newton_bond ? 1 : 3;
  if (atype && atom->angle_per_atom < angles_needed)
    error->all(FLERR,
               "Fix polymerize: {} angle(s) per atom, a chain atom needs {}: set "
               "extra/angle/per/atom in read_data or create_box",
               atom->angle_per_atom, angles_needed);

  comm_forward = MAX(3, 2 + atom->maxspecial);
  if (wants_host_list())
    neighbor->add_request(this, NeighConst::REQ_FULL | NeighConst::REQ_OCCASIONAL);
}

void FixPolymerize::init_list(int, NeighList *ptr)
{
  list = ptr;
}

/* ---------------------------------------------------------------------- */

void FixPolymerize::setup(int)
{
  if (n_monomers0 >= 0) return;
  // the free monomers of the group at the start of the first run (conversion's reference)
  bigint n = 0;
  for (int i = 0; i < atom->nlocal; ++i)
    if ((atom->mask[i] & groupbit) && phys::chain_growth_free((int) state[i][0], (int) state[i][1]))
      ++n;
  MPI_Allreduce(&n, &n_monomers0, 1, MPI_LMP_BIGINT, MPI_SUM, world);
}

void FixPolymerize::post_integrate()
{
  if (update->ntimestep % nevery) return;
  react();
}

int FixPolymerize::map_or_die(tagint t)
{
  const int m = atom->map(t);
  if (m < 0)
    error->one(FLERR,
               "Fix polymerize needs ghost atoms from further away (atom {} two bonds from a "
               "new bond): raise comm_modify cutoff",
               t);
  return m;
}

/* ---------------------------------------------------------------------- */

void FixPolymerize::react()
{
  comm->forward_comm();    // positions after the integrator
  commflag = COMM_STATE;
  comm->forward_comm(this, 3);

  if (atom->nmax > nmax_scratch) {
    nmax_scratch = atom->nmax;
    memory->destroy(best);
    memory->destroy(ubest);
    memory->destroy(winner);
    memory->destroy(finalpartner);
    memory->create(best, nmax_scratch, "polymerize:best");
    memory->create(ubest, nmax_scratch, "polymerize:ubest");
    memory->create(winner, nmax_scratch, "polymerize:winner");
    memory->create(finalpartner, nmax_scratch, "polymerize:finalpartner");
  }
  const int nlocal = atom->nlocal, nall = nlocal + atom->nghost;
  for (int i = 0; i < nall; ++i) {
    best[i] = winner[i] = finalpartner[i] = 0;
    ubest[i] = 2.0;
  }

  double **x = atom->x;
  tagint *tag = atom->tag;
  int *type = atom->type, *mask = atom->mask;
  const int nt1 = atom->ntypes + 1;
  const bigint step = update->ntimestep;

  neighbor->build_one(list);
  const int inum = list->inum;
  int *ilist = list->ilist, *numneigh = list->numneigh, **firstneigh = list->firstneigh;

  // 2. each owned active end chooses among the free monomers it accepts
  for (int ii = 0; ii < inum; ++ii) {
    const int i = ilist[ii];
    if (!(mask[i] & groupbit) || state[i][0] != 1.0) continue;
    const int *jlist = firstneigh[i];
    for (int jj = 0; jj < numneigh[i]; ++jj) {
      const int j = jlist[jj] & NEIGHMASK;
      if (!(mask[j] & groupbit)) continue;
      if (!phys::chain_growth_free((int) state[j][0], (int) state[j][1])) continue;
      const double p = prob[type[i] * nt1 + type[j]];
      if (p <= 0.0) continue;
      const double dx = x[i][0] - x[j][0], dy = x[i][1] - x[j][1], dz = x[i][2] - x[j][2];
      if (dx * dx + dy * dy + dz * dz >= rcsq) continue;
      const double u = phys::chain_growth_uniform(seed, step, tag[i], tag[j]);
      if (!phys::chain_growth_accept(u, p)) continue;
      if (phys::better_candidate(u, tag[j], ubest[i], best[i])) {
        best[i] = tag[j];
        ubest[i] = u;
      }
    }
  }
  commflag = COMM_BEST;
  comm->forward_comm(this, 2);

  // 3. each owned free monomer goes to the end of smallest u among those that chose it
  for (int ii = 0; ii < inum; ++ii) {
    const int j = ilist[ii];
    if (!(mask[j] & groupbit)) continue;
    if (!phys::chain_growth_free((int) state[j][0], (int) state[j][1])) continue;
    double uwin = 2.0;
    const int *ilist_j = firstneigh[j];
    for (int kk = 0; kk < numneigh[j]; ++kk) {
      const int i = ilist_j[kk] & NEIGHMASK;
      if (best[i] != tag[j]) continue;
      if (phys::better_candidate(ubest[i], tag[i], uwin, winner[j])) {
        winner[j] = tag[i];
        uwin = ubest[i];
      }
    }
  }
  commflag = COMM_WIN;
  comm->forward_comm(this, 1);

  // 4. bonds, 1-2 specials and state of the atoms I own
  bigint nmade = 0;
  for (int i = 0; i < nlocal; ++i) {
    if (best[i] && state[i][0] == 1.0) {    // an end that chose a monomer
      const int j = atom->map(best[i]);
      if (j < 0 || winner[j] != tag[i]) continue;
      add_bond(i, tag[j]);
      state[i][0] = 0.0;
      state[i][1] += 1.0;
      finalpartner[i] = tag[j];
    }
  }
  for (int j = 0; j < nlocal; ++j) {
    if (!winner[j]) continue;    // a monomer that was taken
    const int i = atom->map(winner[j]);
    if (i < 0) error->one(FLERR, "Fix polymerize: chain end {} is not known here", winner[j]);
    add_bond(j, winner[j]);
    state[j][0] = 1.0;
    state[j][1] = 1.0;
    state[j][2] = state[i][2] + 1.0;
    type[j] = newtype[type[j]];
    finalpartner[j] = winner[j];
    ++nmade;
  }
  MPI_Allreduce(&nmade, &n_made_last, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  n_made_total += n_made_last;
  atom->nbonds += n_made_last;
  stats_step = -1;
  if (n_made_last == 0) return;
  next_reneighbor = update->ntimestep;

  // 5. new partners and 1-2 lists to the ghosts, then 1-3/1-4 lists and angles
  commflag = COMM_TOPO;
  comm->forward_comm(this);
  created.clear();
  for (int i = 0; i < nall; ++i) {
    if (!finalpartner[i]) continue;
    const int j = atom->map(finalpartner[i]);
    if (j < 0 || tag[i] < tag[j]) {
      created.push_back(tag[i]);
      created.push_back(finalpartner[i]);
    }
  }
  update_topology();
}

/* ---------------------------------------------------------------------- */

/* ---------------------------------------------------------------------- */

int FixPolymerize::pack_forward_comm(int n, int *plist, double *buf, int, int *)
{
  int m = 0;
  for (int k = 0; k < n; ++k) {
    const int j = plist[k];
    if (commflag == COMM_STATE) {
      buf[m++] = state[j][0];
      buf[m++] = state[j][1];
      buf[m++] = state[j][2];
    } else if (commflag == COMM_BEST) {
      buf[m++] = ubuf(best[j]).d;
      buf[m++] = ubest[j];
    } else if (commflag == COMM_WIN) {
      buf[m++] = ubuf(winner[j]).d;
    } else {
      buf[m++] = ubuf(finalpartner[j]).d;
      const int ns = atom->nspecial[j][0];
      buf[m++] = ubuf(ns).d;
      for (int s = 0; s < ns; ++s) buf[m++] = ubuf(atom->special[j][s]).d;
    }
  }
  return m;
}

void FixPolymerize::unpack_forward_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int i = first; i < first + n; ++i) {
    if (commflag == COMM_STATE) {
      state[i][0] = buf[m++];
      state[i][1] = buf[m++];
      state[i][2] = buf[m++];
    } else if (commflag == COMM_BEST) {
      best[i] = (tagint) ubuf(buf[m++]).i;
      ubest[i] = buf[m++];
    } else if (commflag == COMM_WIN) {
      winner[i] = (tagint) ubuf(buf[m++]).i;
    } else {
      finalpartner[i] = (tagint) ubuf(buf[m++]).i;
      const int ns = (int) ubuf(buf[m++]).i;
      atom->nspecial[i][0] = ns;
      for (int s = 0; s < ns; ++s) atom->special[i][s] = (tagint) ubuf(buf[m++]).i;
    }
  }
}

/* ---------------------------------------------------------------------- */

void FixPolymerize::grow_arrays(int nmax)
{
  memory->grow(state, nmax, 3, "polymerize:state");
  array_atom = state;
}

void FixPolymerize::copy_arrays(int i, int j, int)
{
  for (int c = 0; c < 3; ++c) state[j][c] = state[i][c];
}

void FixPolymerize::set_arrays(int i)
{
  state[i][0] = state[i][1] = state[i][2] = 0.0;
}

int FixPolymerize::pack_exchange(int i, double *buf)
{
  for (int c = 0; c < 3; ++c) buf[c] = state[i][c];
  return 3;
}

int FixPolymerize::unpack_exchange(int nlocal, double *buf)
{
  for (int c = 0; c < 3; ++c) state[nlocal][c] = buf[c];
  return 3;
}

int FixPolymerize::pack_restart(int i, double *buf)
{
  buf[0] = 4;    // values of this fix, the count included
  for (int c = 0; c < 3; ++c) buf[c + 1] = state[i][c];
  return 4;
}

void FixPolymerize::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; ++k) m += static_cast<int>(extra[nlocal][m]);
  ++m;
  for (int c = 0; c < 3; ++c) state[nlocal][c] = extra[nlocal][m++];
}

int FixPolymerize::size_restart(int)
{
  return 4;
}

int FixPolymerize::maxsize_restart()
{
  return 4;
}

// global state: the random stream is counter-based (seed, step, tags), so the counters
// and the seed (checked) are all there is
void FixPolymerize::write_restart(FILE *fp)
{
  if (comm->me != 0) return;
  double buf[4] = {(double) seed, (double) n_monomers0, (double) n_made_total,
                   (double) n_made_last};
  int size = sizeof(buf);
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(buf, sizeof(double), 4, fp);
}

void FixPolymerize::restart(char *raw)
{
  auto *buf = (double *) raw;
  if ((int) buf[0] != seed && comm->me == 0)
    error->warning(FLERR, "Fix polymerize: seed {} differs from the restart file's {}", seed,
                   (int) buf[0]);
  n_monomers0 = (bigint) buf[1];
  n_made_total = (bigint) buf[2];
  n_made_last = (bigint) buf[3];
}

/* ---------------------------------------------------------------------- */

// 0 conversion, 1 active ends, 2 bonds made in all, 3 bonds made in the last reaction step,
// 4 Mn, 5 Mw (degree of polymerisation of the chains with >= 1 monomer), 6 PDI, 7 such chains
void FixPolymerize::compute_stats()
{
  if (stats_step == update->ntimestep) return;
  stats_step = update->ntimestep;
  double loc[4] = {0, 0, 0, 0}, all[4];    // ends, chains, sum dp, sum dp^2
  for (int i = 0; i < atom->nlocal; ++i) {
    if (state[i][0] != 1.0) continue;
    loc[0] += 1.0;
    const double dp = state[i][2];
    if (dp < 1.0) continue;
    loc[1] += 1.0;
    loc[2] += dp;
    loc[3] += dp * dp;
  }
  MPI_Allreduce(loc, all, 4, MPI_DOUBLE, MPI_SUM, world);
  stats[0] = n_monomers0 > 0 ? (double) n_made_total / (double) n_monomers0 : 0.0;
  stats[1] = all[0];
  stats[2] = (double) n_made_total;
  stats[3] = (double) n_made_last;
  stats[4] = all[1] > 0 ? all[2] / all[1] : 0.0;
  stats[5] = all[2] > 0 ? all[3] / all[2] : 0.0;
  stats[6] = stats[4] > 0 ? stats[5] / stats[4] : 0.0;
  stats[7] = all[1];
}

double FixPolymerize::compute_vector(int n)
{
  compute_stats();
  return stats[n];
}

double FixPolymerize::memory_usage()
{
  return (double) atom->nmax * 3 * sizeof(double) +
         (double) nmax_scratch * (3 * sizeof(tagint) + sizeof(double));
}
