/* ----------------------------------------------------------------------
   mesogpu - run_style verlet/cuda on several MPI ranks: the GPU of each rank, the
   forces of a step with ghost forces sent back, and the reneighbouring step through
   the host (cuda/README.md, "Several MPI ranks"). The single-rank run style is
   verlet_cuda.cpp.
------------------------------------------------------------------------- */

#include "verlet_cuda.h"

#include "atom.h"
#include "comm.h"
#include "cuda/device_bodies.h"
#include "cuda/device_comm.h"
#include "cuda/device_rebuild.h"
#include "cuda/device_styles.h"
#include "cuda/gpu_choice.h"
#include "cuda/rank_timing.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "mesogpu_cuda.h"
#include "neighbor.h"
#include "update.h"

#include <memory>
#include <mpi.h>
#include <string>
#include <vector>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   several ranks: rank r of a node on GPU r mod (GPUs it sees); more ranks on a node
   than GPUs only when sharing was asked for (the same answer on every rank of a node;
   the worst node decides for all, so every rank stops together). No GPU: the engine's
   own error follows.
------------------------------------------------------------------------- */

void VerletCuda::select_device()
{
  const int ndev = mesogpu::cuda::device_count();
  if (ndev > 0) {
    int local_rank = 0, local_size = 1;
    DeviceComm::node_rank_size(world, local_rank, local_size);
    const auto choice = mesogpu::choose_gpu(local_rank, local_size, ndev, share_gpu);
    int refused = choice.device < 0 ? local_size : 0, worst = 0;
    MPI_Allreduce(&refused, &worst, 1, MPI_INT, MPI_MAX, world);
    if (worst > 0) {
      const auto c = mesogpu::choose_gpu(0, worst, ndev, false);
      error->all(FLERR, "run_style verlet/cuda: {}", c.error);
    }
    mesogpu::cuda::Engine::use_device(choice.device);
  }
}

/* ----------------------------------------------------------------------
   the forces of a step: the engine's terms, then on several ranks the forces bonded
   terms left on ghost rows (newton_bond on) added to their owners. Energies and virials
   on the steps LAMMPS's eflag/vflag ask for; per-atom ones only when a compute asks
   (their arrays cost 56 bytes per atom and force kind)
------------------------------------------------------------------------- */

void VerletCuda::device_forces(int eflag_now, int vflag_now)
{
  device_forces_begin(eflag_now, vflag_now, false);
  device_forces_finish();
}

/* ----------------------------------------------------------------------
   device_forces in two parts around the forward exchange (several ranks, overlap yes):
   the forces of owned atoms without ghosts in their lists are queued on a second
   stream first, the rest after the ghosts' positions are in
------------------------------------------------------------------------- */

void VerletCuda::device_forces_begin(int eflag_now, int vflag_now, bool overlap_now)
{
  const bool per_atom = (eflag_now & ENERGY_ATOM) || (vflag_now & VIRIAL_ATOM);
  engine->begin_forces(eflag_now || vflag_now, per_atom, overlap_now);
}

void VerletCuda::device_forces_finish()
{
  engine->finish_forces();
  if (rank_timing) rank_timing->mark(RankTiming::FORCES);    // (only inside run())
  if (reverse_forces) device_comm->reverse(*engine);
}

/* ----------------------------------------------------------------------
   several ranks, the end of upload(): the ghost exchange (made once per run style: rank
   timing, the IPC choice, the same on every rank) and the plan of this borders()
------------------------------------------------------------------------- */

void VerletCuda::upload_ghost_plan()
{
  if (!device_comm) {
    device_comm = std::make_unique<DeviceComm>(lmp);
    // MESOGPU_RANK_TIMING: per-phase wall clock (src/cuda/rank_timing.h); every rank
    // takes it when one has it, as the report is collective
    int want = RankTiming::wanted() ? 1 : 0, any = 0;
    MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, world);
    if (any) rank_timing = std::make_unique<RankTiming>(lmp);
    device_comm->set_timing(rank_timing.get());
    // every rank takes the smallest path one asks for (host < cuda-aware < ipc;
    // MESOGPU_EXCHANGE may reach only some ranks), as each message pairs a rank with its
    // partners and the IPC handle exchange pairs them all
    int mine = static_cast<int>(exchange), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, world);
    device_comm->set_exchange(static_cast<mesogpu::ExchangePath>(all));
    if (all == static_cast<int>(mesogpu::ExchangePath::cuda_aware) && comm->me == 0)
      utils::logmesg(lmp,
                     "verlet/cuda exchange cuda-aware: ghost swaps through device buffers "
                     "handed to MPI ({} ranks)\n",
                     comm->nprocs);
  }
  // bonded terms stored with newton_bond on leave forces on ghost rows
  reverse_forces = force->newton_bond && (force->bond || force->angle || force->dihedral);
  device_comm->set_reverse(reverse_forces);
  device_comm->rebuild(*engine);    // the ghost plan of this borders()
}

/* ----------------------------------------------------------------------
   the rebuild decision of a step (LAMMPS's Neighbor::decide()), the same on every rank.
   One rank: the engine's. Several ranks: where the engine ran its displacement test
   (check yes, on the steps every/delay allow; one 4-byte read) every rank rebuilds when
   one has to (its ghosts move too: MPI_Allreduce). Elsewhere the answer is the step
   rule alone (ago, every, delay), equal on every rank since all build at the same
   steps: no device read and no message. That needs the list still built on every rank;
   the styles that run on several ranks never invalidate it on one rank alone (topology
   edits and barostats are single-rank), and a list invalidated anyway stops the run
   rather than letting the ranks disagree.
------------------------------------------------------------------------- */

bool VerletCuda::decide_rebuild_all_ranks()
{
  if (!multi_rank) return engine->decide_rebuild();
  const bool built = engine->list_built();
  const bool rebuild = engine->decide_rebuild();
  if (!engine->last_decision_read_device()) {
    if (!built)
      error->one(FLERR,
                 "run_style verlet/cuda: step {}: the neighbour list was invalidated on rank {} "
                 "alone during a run on several ranks (the ranks would disagree on the rebuild)",
                 update->ntimestep, comm->me);
    return rebuild;
  }
  int mine = rebuild ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, world);
  return any != 0;
}

/* ----------------------------------------------------------------------
   several ranks, a reneighbouring step (Verlet::run's): on the device (rebuild device,
   src/cuda/device_rebuild.h) when nothing needs the host; else through the host: the owned
   atoms come down, LAMMPS wraps them, moves them between ranks and builds ghosts, and
   the engine takes owned atoms and ghosts again with their plan and lists. The fixes of
   a multi-rank run keep no per-atom device state besides x and v, the orientations
   (mu, omega) and the rigid bodies' quaternions and angmom, which come down here too.
------------------------------------------------------------------------- */

bool VerletCuda::balance_due(bigint step) const
{
  for (auto *f : fix_balance)
    if (f->force_reneighbor && f->next_reneighbor == step) return true;
  return false;
}

const Fix *VerletCuda::host_step_due(bigint step) const
{
  for (auto *f : fix_device)
    if (f->device_host_step(step)) return dynamic_cast<const Fix *>(f);
  return nullptr;
}

void VerletCuda::rank_rebuild(bool balance, const Fix *host_step_fix)
{
  // on the device unless asked otherwise or something needs the host (said once a run);
  // a fix balance step through the host: the fix moves the cuts on the host atoms; a
  // fix's host step: the fix works on the host atoms and ghosts after borders()
  if (balance && !balance_logged && comm->me == 0)
    utils::logmesg(lmp, "  verlet/cuda: fix balance steps reneighbour through the host\n");
  balance_logged |= balance;
  if (host_step_fix && !host_step_logged && comm->me == 0)
    utils::logmesg(
        lmp, "  verlet/cuda: the steps fix {} (style {}) works on reneighbour through the host\n",
        host_step_fix->id, host_step_fix->style);
  host_step_logged |= host_step_fix != nullptr;
  if (rebuild_on_device && !balance && !host_step_fix) {
    if (!device_rebuild) device_rebuild = std::make_unique<DeviceRebuild>(lmp);
    device_rebuild->set_timing(rank_timing.get());
    std::string why = device_rebuild->why_host(*engine);
    // every rank takes the same path (device registries could differ between ranks)
    int mine = why.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, world);
    if (any && why.empty()) why = "another rank needs the host";
    if (why.empty()) {
      device_rebuild->run(*engine, *device_comm);
      engine->build_neighbor_list();
      if (rank_timing) rank_timing->mark(RankTiming::REB_LIST);
      rebuilds_device++;
      return;
    }
    if (why != host_rebuild_why && comm->me == 0)
      utils::logmesg(lmp, "  verlet/cuda: reneighbouring through the host ({})\n", why);
    host_rebuild_why = why;
  }
  rebuilds_host++;
  if (device_rebuild_pending()) sync_rebuilt_atoms();
  // the fixes' per-atom arrays as the device moved them, for LAMMPS's exchange
  for (auto *f : fix_device)
    if (f->device_moves_per_atom_arrays()) f->device_sync_host(*engine);
  const int n = atom->nlocal;
  std::vector<int> image(3 * (size_t) n);
  engine->download_atoms(n ? atom->x[0] : nullptr, n ? atom->v[0] : nullptr, nullptr, image.data());
  // the rotational state moves with the atoms (exchange) and comes back up with them
  if (n && engine->has_orientation())
    engine->download_orientation(atom->mu[0], atom->omega[0], nullptr);
  mesogpu::download_bodies(lmp, *engine, true);    // quaternions into the bonus, angmom
  engine->check_errors();
  images_to_host(image);
  // Verlet's order: pre_exchange (fix balance: new cuts, subdomains, comm layout; atoms
  // far from their new subdomain move through Irregular), then pbc, exchange, borders
  if (balance)
    for (auto *f : fix_balance) f->pre_exchange();
  domain->pbc();
  if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_DOWN);
  if (domain->box_change) {
    domain->reset_box();
    comm->setup();
    if (neighbor->style) neighbor->setup_bins();
  }
  comm->exchange();
  comm->borders();
  if (balance)
    for (auto *f : fix_balance) f->pre_neighbor();    // its imbalance after the move
  // an atom that left through a non-periodic side is gone (thermo_modify lost error)
  bigint mine = atom->nlocal, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  if (total != atom->natoms)
    error->all(FLERR, "run_style verlet/cuda: step {}: lost atoms: {} of {} remain",
               update->ntimestep, total, atom->natoms);
  if (host_step_fix) {
    // (LAMMPS builds an occasional list once after each reneighbouring: this is one)
    neighbor->lastcall = update->ntimestep;
    for (auto *f : fix_device)
      if (f->device_host_step(update->ntimestep)) f->device_host_step_after_borders();
  }
  // the host's bond lists of the new local order (compute bond/local, ... at output)
  if (atom->molecular != Atom::ATOMIC) neighbor->build_topology();
  if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_COMM);
  upload();    // owned atoms, ghosts, topology, force styles, the ghost plan
  if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_UP);
  for (auto *f : fix_device) f->device_setup(*engine);
  if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_FIXES);
  engine->build_neighbor_list();
  if (rank_timing) rank_timing->mark(RankTiming::REB_LIST);
}

/* ----------------------------------------------------------------------
   after device rebuilds the host arrays hold other atoms than the device rows: their
   tags, types and masks (and the atom map) first, before x, v, f, image come down
------------------------------------------------------------------------- */

bool VerletCuda::device_rebuild_pending() const
{
  return device_rebuild && device_rebuild->host_stale();
}

bool VerletCuda::host_ghosts_stale()
{
  return device_rebuild && device_rebuild->take_host_ghosts_stale();
}

void VerletCuda::sync_rebuilt_atoms()
{
  device_rebuild->sync_host(*engine);
}

/* ----------------------------------------------------------------------
   end of a run on several ranks: how its reneighbouring steps went (tests read it)
------------------------------------------------------------------------- */

void VerletCuda::log_rebuilds()
{
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "  verlet/cuda rebuilds on {} ranks: {} on the device, {} through the host; "
                   "{} sorts of the owned rows\n",
                   comm->nprocs, rebuilds_device, rebuilds_host,
                   device_rebuild ? device_rebuild->sorts() : 0LL);
}
