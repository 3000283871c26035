/* mesogpu: fix polymerize/cuda; see fix_polymerize_cuda.h. */

#include "fix_polymerize_cuda.h"

#include "device_context.h"
#include "device_style_util.h"

#include "atom.h"
#include "comm.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "modify.h"
#include "nbin.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair.h"
#include "update.h"

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace LAMMPS_NS;
using namespace FixConst;
using mesogpu::cuda::Engine;

/* ---------------------------------------------------------------------- */

FixPolymerizeCuda::FixPolymerizeCuda(LAMMPS *lmp, int narg, char **arg) :
    FixPolymerize(lmp, narg, arg)
{
  slot = std::string("polymerize ") + id;
  for (int t = 1; t <= atom->ntypes; ++t) retype |= newtype[t] != t;
}

// the reaction after the integrators' initial_integrate (fix polymerize's post_integrate):
// run_style verlet/cuda has no post_integrate stage, and nothing runs between the two
int FixPolymerizeCuda::setmask()
{
  return INITIAL_INTEGRATE;
}

// a host list outside resident runs and for the host reactions of several ranks
bool FixPolymerizeCuda::wants_host_list()
{
  return !device_util::resident_run(lmp) || comm->nprocs > 1;
}

/* ---------------------------------------------------------------------- */

void FixPolymerizeCuda::init()
{
  FixPolymerize::init();

  // positions after the step's drift: every fix that integrates comes first
  bool after = false;
  for (auto *f : modify->get_fix_list()) {
    if (f == this) {
      after = true;
    } else if (after && (f->setmask() & INITIAL_INTEGRATE)) {
      error->all(FLERR,
                 "Fix {} (ID {}) reacts at the initial_integrate stage after the atoms moved: "
                 "define it after fix {} (style {}), which moves atoms at that stage",
                 style, id, f->id, f->style);
    }
  }

  host_reactions = false;
  if (!device_util::resident_run(lmp)) return;
  host_reactions = comm->nprocs > 1;
  if (atype)
    error->all(FLERR,
               "Fix {} (ID {}): keyword atype is not supported in resident runs (run_style "
               "verlet/cuda): the device makes no angles yet; drop atype, or run fix polymerize "
               "on the host",
               style, id);
  if (group->dynamic[igroup])
    error->all(FLERR,
               "Fix {} (ID {}): dynamic group {} is not supported in resident runs (run_style "
               "verlet/cuda keeps the group bits of the run's start)",
               style, id, group->names[igroup]);
}

/* ----------------------------------------------------------------------
   outside verlet/cuda: fix polymerize's step at this stage
------------------------------------------------------------------------- */

void FixPolymerizeCuda::initial_integrate(int)
{
  if (update->ntimestep % nevery) return;
  react();
}

/* ---------------------------------------------------------------------- */

void FixPolymerizeCuda::device_setup(Engine &engine)
{
  const int n = atom->nlocal, nt = atom->ntypes;
  // the device list holds the pairs within cut + skin of their types
  reach = -1.0;
  for (int i = 1; i <= nt; ++i)
    for (int j = 1; j <= nt; ++j) {
      if (prob[i * (nt + 1) + j] <= 0.0) continue;
      const double c = sqrt(neighbor->cutneighsq[i][j]);
      if (reach < 0.0 || c < reach) reach = c;
    }
  if (reach < 0.0) reach = rc;    // no reacting pair: nothing is ever looked up
  if (rc > reach)
    error->all(FLERR,
               "Fix {} (ID {}): capture radius rc = {} exceeds the neighbour cutoff {} (pair "
               "cutoff + skin) of a reacting type pair",
               style, id, rc, reach);
  if (host_reactions) {
    // the reactions use the host's list and arrays; the state moves with the atoms on the
    // device between them (one column per value: those migrate with their atoms)
    const int rows = engine.natoms();
    std::vector<double> column(rows);
    try {
      for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < rows; ++i) column[i] = i < atom->nlocal ? state[i][k] : 0.0;
        engine.upload_per_atom(state_column(k), 1, rows ? column.data() : nullptr);
      }
    } catch (std::exception &e) {
      error->all(FLERR, "Fix {} (ID {}): {}", style, id, e.what());
    }
    state_step = -1;
    return;
  }
  engine.keep_neighbor_list();    // the reactions read it up to cutoff + skin: never tight
  if (n > 0 && engine.neighbor_entries() == 0)
    error->all(FLERR,
               "Fix {} (ID {}) finds the monomers in the device neighbour list, and this run "
               "builds none (no pair forces on the device: pair_style zero/cuda makes no list); "
               "use a pair style with a cutoff covering rc",
               style, id);
  // room on the device for the bonds and special lists of a chain's interior atom (the
  // run reserves room only when bond_per_atom leaves some above the bonds atoms store)
  if (engine.bond_capacity() < 2 || engine.special_capacity() < 2 * special_levels)
    error->all(FLERR,
               "Fix {} (ID {}): the device keeps {} bond(s) and {} special neighbour(s) per "
               "atom, a chain atom needs 2 and {}: set extra/bond/per/atom and "
               "extra/special/per/atom in read_data or create_box (bonds made on the device "
               "need room above the bonds the atoms store already)",
               style, id, engine.bond_capacity(), engine.special_capacity(), 2 * special_levels);
  try {
    engine.upload_per_atom(slot, 3, n ? state[0] : nullptr);
  } catch (std::exception &e) {
    error->all(FLERR, "Fix {} (ID {}): {}", style, id, e.what());
  }
  state_step = -1;
}

void FixPolymerizeCuda::device_initial_integrate(Engine &engine)
{
  if (host_reactions || update->ntimestep % nevery) return;
  Engine::ChainGrowth p;
  p.slot = slot;
  p.seed = (unsigned) seed;
  p.step = update->ntimestep;
  p.rc = rc;
  p.reach = reach;
  p.groupbit = groupbit;
  p.btype = btype;
  p.prob = prob;
  p.newtype = newtype;
  Engine::ChainGrowthResult r;
  try {
    r = engine.chain_growth_step(p);
    if (r.made > 0) engine.check_errors();    // a list that was full, named
  } catch (std::exception &e) {
    error->all(FLERR, "Fix {} (ID {}): step {}: {}", style, id, update->ntimestep, e.what());
  }
  if (r.rebuilt) {    // a list build of this step (thermo Nbuild counts it)
    neighbor->ncalls++;
    neighbor->lastcall = update->ntimestep;
    neighbor->ago = 0;
  }
  // a monomer bonded to its end already (data file) keeps one bond, where the CPU fix would
  // store a second one
  if (r.edit.unchanged > 0 && comm->me == 0)
    error->warning(FLERR,
                   "Fix {} (ID {}): step {}: {} captured monomer(s) were bonded to their end "
                   "already; no second bond made",
                   style, id, update->ntimestep, r.edit.unchanged);
  n_made_last = r.made;
  n_made_total += r.made;
  stats_step = -1;
  state_step = -1;
}

/* ----------------------------------------------------------------------
   the state (and the types jtype changed) into the host arrays
------------------------------------------------------------------------- */

void FixPolymerizeCuda::download_state(Engine &engine)
{
  const int n = atom->nlocal;
  std::vector<int> type;
  try {
    if (n) engine.download_per_atom(slot, state[0]);
    if (retype && n) {
      type.resize(n);
      engine.download_types(type.data());
    }
  } catch (std::exception &e) {
    error->all(FLERR, "Fix {} (ID {}): step {}: {}", style, id, update->ntimestep, e.what());
  }
  for (size_t i = 0; i < type.size(); ++i) atom->type[i] = type[i];
  stats_step = -1;
  state_step = update->ntimestep;
}

void FixPolymerizeCuda::device_sync_host(Engine &engine)
{
  if (!host_reactions) {
    download_state(engine);
    return;
  }
  // several ranks: the state columns in the host's order (after device rebuilds the host
  // rows were rewritten in the device's order first: VerletCuda::sync_rebuilt_atoms)
  if (state_step == update->ntimestep) return;
  const int n = atom->nlocal;
  std::vector<double> column(engine.natoms());
  try {
    for (int k = 0; k < 3; ++k) {
      if (!column.empty()) engine.download_per_atom(state_column(k), column.data());
      for (int i = 0; i < n; ++i) state[i][k] = column[i];
    }
  } catch (std::exception &e) {
    error->all(FLERR, "Fix {} (ID {}): step {}: {}", style, id, update->ntimestep, e.what());
  }
  stats_step = -1;
  state_step = update->ntimestep;
}

std::string FixPolymerizeCuda::state_column(int k) const
{
  static const char *const what[3] = {"init", "cris", "chain position"};
  return slot + " " + what[k];
}

/* ----------------------------------------------------------------------
   several ranks: a reaction step reneighbours through the host, and after its borders()
   the host reacts as fix polymerize does (the same decisions from the same positions),
   with a list built from bins of the fresh ghosts (verlet/cuda bins no host atoms)
------------------------------------------------------------------------- */

bool FixPolymerizeCuda::device_host_step(bigint step) const
{
  return host_reactions && step % nevery == 0;
}

void FixPolymerizeCuda::device_host_step_after_borders()
{
  // the occasional list LAMMPS built for the fix, or the occasional one it derives from
  NeighList *own = list;
  while (own) {
    NeighList *from = own->listcopy ? own->listcopy : own->listfull ? own->listfull : own->listskip;
    if (!from) break;
    if (!from->occasional)
      error->all(FLERR,
                 "Fix {} (ID {}) on several ranks needs a host neighbour list of its own, and "
                 "LAMMPS derives it from the list of another style that resident runs do not "
                 "build on the host; run the fix on one rank",
                 style, id);
    own = from;
  }
  if (!own || !own->np)
    error->all(FLERR, "Fix {} (ID {}): no host neighbour list for the reaction step", style, id);
  if (NBin *bins = own->np->nb) {
    bins->bin_atoms_setup(atom->nlocal + atom->nghost);
    bins->bin_atoms();
  }
  react();
}

// the vector from the state: downloaded first while the device is ahead of the host
double FixPolymerizeCuda::compute_vector(int k)
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  // several ranks: the whole sync (the host's rows may lag the device's after device
  // rebuilds; every rank asks, as thermo output does)
  if (engine && host_reactions)
    context->sync_atoms();
  else if (engine && state_step != update->ntimestep)
    download_state(*engine);
  return FixPolymerize::compute_vector(k);
}
