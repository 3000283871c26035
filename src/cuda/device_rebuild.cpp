/* mesogpu: the reneighbouring step of a resident run on several MPI ranks on the device;
   see device_rebuild.h. */

#include "device_rebuild.h"

#include "atom.h"
#include "atom_vec.h"
#include "atom_vec_hybrid.h"
#include "compute.h"
#include "comm_brick.h"
#include "comm_brick_plan.h"
#include "device_bodies.h"
#include "device_comm.h"
#include "device_styles.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "owned_topology.h"
#include "rank_timing.h"
#include "modify.h"
#include "update.h"

#include <algorithm>
#include <iterator>
#include <cstring>
#include <mpi.h>
#include <utility>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

namespace {
// one message each way per partner (host-staged, as CommBrick: counts first, then the
// values), `nmsg` (1 or 2) partners: to[m] gets `send`, what from[m] sends is appended.
// Both ends are the engine's page-locked buffers (send: exchange_buffer(0), filled by the
// engine; the receive buffer, returned, exchange_buffer(1)): the copies to and from the
// device are DMA, and no std::vector is grown or staged through (was: pageable vectors,
// each copy bounced through a driver buffer). Every rank makes the same calls in the same
// order, so the counts of both partners can go first.
double *messages(Engine &engine, MPI_Comm world, const double *send, int nsend, int width,
                 const int to[2], const int from[2], int nmsg, int &nrecv)
{
  int nr[2] = {0, 0};
  for (int m = 0; m < nmsg; m++)
    MPI_Sendrecv(&nsend, 1, MPI_INT, to[m], 0, &nr[m], 1, MPI_INT, from[m], 0, world,
                 MPI_STATUS_IGNORE);
  nrecv = nr[0] + nr[1];
  double *recv = engine.exchange_buffer(1, (size_t) nrecv * width);
  size_t at = 0;
  for (int m = 0; m < nmsg; m++) {
    MPI_Sendrecv(send, nsend * width, MPI_DOUBLE, to[m], 0, recv + at, nr[m] * width, MPI_DOUBLE,
                 from[m], 0, world, MPI_STATUS_IGNORE);
    at += (size_t) nr[m] * width;
  }
  return recv;
}

// the host's per-atom values the device carries (see upload_carried_columns): name, the
// first atom's value, the stride in doubles (pointers read at each call: arrays grow)
struct CarriedColumn {
  std::string name;
  double *values;
  int stride;
};
std::vector<CarriedColumn> carried_columns(Atom *atom, bool oriented, bool bodies)
{
  std::vector<CarriedColumn> c;
  if (atom->radius_flag) c.push_back({"radius", atom->radius, 1});
  if (atom->rmass_flag) c.push_back({"rmass", atom->rmass, 1});
  // (molecular styles: the topology rows carry the charges)
  if (atom->q_flag && atom->molecular == Atom::ATOMIC) c.push_back({"q", atom->q, 1});
  // mu as LAMMPS holds it (x, y, z, |mu|); an oriented atom's x, y, z from the device's n;
  // omega and angmom where the device holds none
  auto columns = [&c](const char *stem, const char *axes, double **a) {
    const int width = static_cast<int>(strlen(axes));
    for (int k = 0; k < width; k++)
      c.push_back({std::string(stem) + axes[k], a ? a[0] + k : nullptr, width});
  };
  if (atom->mu_flag) columns("mu", "xyzl", atom->mu);
  if (atom->omega_flag && !oriented) columns("omega", "xyz", atom->omega);
  if (atom->angmom_flag && !bodies) columns("angmom", "xyz", atom->angmom);
  return c;
}
}    // namespace

void LAMMPS_NS::upload_carried_columns(LAMMPS *lmp, Engine &engine)
{
  for (const auto &c : carried_columns(lmp->atom, engine.has_orientation(), engine.has_bodies()))
    engine.upload_host_column(c.name, c.values, c.stride);
  if (engine.has_bodies()) mesogpu::upload_ellipsoid_shapes(lmp, engine);
}

DeviceRebuild::DeviceRebuild(LAMMPS *lmp) : Pointers(lmp) {}

std::string DeviceRebuild::why_host(const Engine &engine) const
{
  if (domain->triclinic) return "the box is triclinic";
  // (fix balance moves only the subdomains, box_change_domain: its own steps go through
  // the host, and the device path reads the subdomains at each rebuild; a barostat's new
  // box and subdomains are the host's at each step, so a rebuild reads them too)
  if (domain->box_change_shape) return "the box changes its shape during the run";
  if (domain->nonperiodic == 2)
    return "shrink-wrapped boundaries (the box follows the atoms at each rebuild)";
  if (!dynamic_cast<CommBrick *>(comm) || comm->style != Comm::BRICK)
    return "comm_style is not brick";
  if (comm->mode != Comm::SINGLE) return "comm_modify mode is not single";
  if (CommBrickPlan(lmp).setup_table().bordergroup) return "comm_modify group is set";
  if (atom->firstgroupname) return "atom_modify first is set";
  // the atom styles whose per-atom data the device moves, each part of a hybrid on its
  // own: the molecular ones whose topology it carries as rows of atom IDs
  // (owned_topology.h), and those whose per-atom values past x, v, tag, type, mask and
  // image are ones it holds or carries (orientations, bodies; upload_carried_columns)
  static const char *const molecular[] = {"bond", "angle", "molecular", "full"};
  static const char *const carried[] = {"radius", "rmass", "omega", "q", "mu", "angmom"};
  const std::string moves = "(atom styles atomic, sphere, dipole, ellipsoid, bond, angle, "
                            "molecular, full and their hybrids)";
  // the ellipsoid bonus: its shape carried, its quaternion the device's bodies
  const bool ellipsoids = atom->ellipsoid_flag && !atom->superellipsoid_flag && !atom->line_flag &&
                          !atom->tri_flag && !atom->body_flag && engine.has_bodies();
  std::vector<std::pair<std::string, AtomVec *>> parts;
  if (auto *hybrid = dynamic_cast<AtomVecHybrid *>(atom->avec))
    for (int k = 0; k < hybrid->nstyles; k++)
      parts.emplace_back(hybrid->keywords[k], hybrid->styles[k]);
  else
    parts.emplace_back(atom->atom_style, atom->avec);
  for (const auto &part : parts) {
    const std::string &name = part.first;
    const AtomVec *avec = part.second;
    if (std::any_of(std::begin(molecular), std::end(molecular),
                    [&](const char *m) { return name == m; }))
      continue;
    if (avec->bonus_flag && !(ellipsoids && name == "ellipsoid"))
      return "atom style " + name +
             " keeps bonus data the device does not move (super-ellipsoids, lines, "
             "triangles, bodies, or ellipsoids without rigid bodies on the device) " +
             moves;
    if (avec->molecular != Atom::ATOMIC)
      return "atom style " + name + " is molecular but not one whose topology the device moves " +
             moves;
    for (const auto &field : avec->fields_exchange)
      if (std::none_of(std::begin(carried), std::end(carried),
                       [&](const char *c) { return field == c; }))
        return "atom style " + name + " has per-atom data '" + field +
               "' the device does not move " + moves;
  }
  // a fix's per-atom arrays: through the host, unless the fix moves device copies of them
  for (int k = 0; k < atom->nextra_grow; ++k) {
    Fix *f = modify->fix[atom->extra_grow[k]];
    auto *df = dynamic_cast<DeviceFix *>(f);
    if (!df || !df->device_moves_per_atom_arrays())
      return std::string("fix ") + f->id + " (style " + f->style +
             ") keeps its own per-atom arrays on the host";
  }
  if (atom->nextra_border)
    return "a fix sends its own per-atom values to the ghosts (fix property/atom ghost yes, ...)";
  if (atom->nivector || atom->ndvector || atom->niarray || atom->ndarray)
    return "the atoms have custom per-atom properties";
  if (atom->molecular == Atom::MOLECULAR && !engine.has_owned_topology())
    return "the device holds no topology rows of atom IDs for this run";
  for (auto *c : modify->get_compute_list()) {
    if (c->peatomflag || c->pressatomflag)
      return std::string("compute ") + c->id + " needs per-atom energies or virials";
    // bond/local, angle/local, ...: the host's bond lists, which only a host rebuild makes
    if (atom->molecular != Atom::ATOMIC && utils::strmatch(c->style, "/local$"))
      return std::string("compute ") + c->id + " (style " + c->style +
             ") reads the host's bond lists of each reneighbouring step";
  }
  // bonds made on the device during the run (chain growth) live in the device lists only
  for (auto *f : modify->get_fix_list())
    if (auto *df = dynamic_cast<DeviceFix *>(f))
      if (df->device_bond_room() > 0)
        return std::string("fix ") + f->id + " makes bonds on the device";
  const std::string missing = engine.migration_missing();
  if (!missing.empty()) return "device per-atom data without a migration: " + missing;
  return "";
}

void DeviceRebuild::run(Engine &engine, DeviceComm &dcomm)
{
  // a box that changes during the run (a barostat): CommBrick's slabs and swaps of the
  // current subdomains, as Verlet calls comm->setup() on reneighbouring steps
  if (domain->box_change) comm->setup();
  engine.wrap_owned(domain->boxlo, domain->boxhi, domain->periodicity);
  if (timing) timing->mark(RankTiming::REB_WRAP);
  exchange(engine);
  // an atom that left through a non-periodic side is gone (thermo_modify lost error)
  bigint mine = engine.owned(), total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  if (total != atom->natoms)
    error->all(FLERR, "run_style verlet/cuda: step {}: lost atoms: {} of {} remain",
               update->ntimestep, total, atom->natoms);
  if (timing) timing->mark(RankTiming::REB_LOST);
  // atom_modify sort N (LAMMPS's rule, Verlet's atom->sort() on reneighbouring steps):
  // the owned rows along the space-filling curve at the first device rebuild, then at
  // the first one at least N steps later; before the borders, so the ghost plan and the
  // lists are made for the new order
  const bigint step = update->ntimestep;
  if (atom->sortfreq > 0 && step >= next_sort) {
    engine.sort_owned();
    sorts_run++;
    next_sort = (step / atom->sortfreq) * atom->sortfreq + atom->sortfreq;
    if (timing) timing->mark(RankTiming::REB_SORT);
  }
  borders(engine, dcomm);
  // the ghosts' orientations and the velocities a force term reads: their records carry
  // x, tag, type, mask (and molecule) only, so the new plan's forward exchange sends them
  // (with the positions again, the same values)
  if (engine.forward_width() > 3) dcomm.forward(engine);
  // and the per-atom values of styles that read the ghosts' (pair coul/dipole/body: q)
  for (const auto &name : engine.ghost_slots()) dcomm.forward_slot(engine, name);
  if (timing) timing->mark(RankTiming::REB_BORDERS);
  // molecular atoms: the bonded and special lists of the new rows from the atom IDs that
  // moved with the atoms (a partner that is no row: an error naming both atoms)
  if (engine.has_owned_topology()) {
    engine.resolve_topology();
    if (timing) timing->mark(RankTiming::REB_TOPOLOGY);
  }
  // host bookkeeping: the rank's count, arrays large enough for the next sync
  atom->nlocal = engine.owned();
  atom->nghost = 0;
  if (atom->nlocal > atom->nmax) atom->avec->grow(atom->nlocal);
  stale = ghosts_stale = true;
}

/* ----------------------------------------------------------------------
   CommBrick::exchange(): per dimension the owned atoms outside [sublo, subhi) leave (with
   one rank in the dimension they are lost), go to procneigh[dim][0] (and [dim][1] with
   more than 2 ranks), and the receiver keeps those inside its slab in that dimension
------------------------------------------------------------------------- */

void DeviceRebuild::exchange(Engine &engine)
{
  const int width = engine.record_width();
  for (int dim = 0; dim < 3; dim++) {
    const double lo = domain->sublo[dim], hi = domain->subhi[dim];
    // CommBrick's order: the leavers' records in its send order, their holes filled from
    // the end (the engine moves only those rows; the arrays are not rebuilt)
    int nsend = 0;
    const double *send = engine.exchange_leaving(dim, lo, hi, nsend);
    if (timing) timing->mark(RankTiming::REB_LEAVE);
    int nrecv = 0;
    double *recv = nullptr;
    if (comm->procgrid[dim] > 1) {
      const int to[2] = {comm->procneigh[dim][0], comm->procneigh[dim][1]};
      const int from[2] = {comm->procneigh[dim][1], comm->procneigh[dim][0]};
      recv = messages(engine, world, send, nsend, width, to, from, comm->procgrid[dim] > 2 ? 2 : 1,
                      nrecv);
      if (timing) timing->mark(RankTiming::REB_EXCHANGE_MPI);
    }
    // the arrivals inside this rank's slab, in buffer order (compacted in the buffer)
    const int xoff = engine.record_offset(std::string("x") + "xyz"[dim]);
    if (xoff < 0) error->one(FLERR, "run_style verlet/cuda: device exchange records lack x");
    int kept = 0;
    for (int k = 0; k < nrecv; k++) {
      const double v = recv[(size_t) k * width + xoff];
      if (v >= lo && v < hi) {
        if (kept != k)
          std::copy(recv + (size_t) k * width, recv + (size_t) (k + 1) * width,
                    recv + (size_t) kept * width);
        kept++;
      }
    }
    engine.exchange_arrivals(recv, kept);
    if (timing) timing->mark(RankTiming::REB_ARRIVE);
  }
}

/* ----------------------------------------------------------------------
   CommBrick::borders() (single cutoff, no border group): per swap the candidates are
   rows nfirst .. nlast-1 (the first two swaps of a dimension: owned atoms and all ghosts
   so far, later ones the ghosts the previous pair received), those inside the swap's
   slab are sent with the swap's periodic shift, and what arrives becomes the next ghosts
------------------------------------------------------------------------- */

void DeviceRebuild::borders(Engine &engine, DeviceComm &dcomm)
{
  const CommBrickPlan plan(lmp);
  CommBrickPlan::Setup setup = plan.setup_table();
  std::vector<CommBrickPlan::Swap> &swaps = setup.swaps;    // completed swap by swap
  const int nswap = static_cast<int>(swaps.size());
  const int nlocal = engine.owned();
  int iswap = 0, nghost = 0, send_total = 0;
  // the border records device to device where the forward exchange runs through CUDA IPC
  // (every rank on one node, the partners' areas mapped: DeviceComm's plan of the last
  // rebuild says so, the same answer on every rank)
  const bool ipc = dcomm.ipc_active();
  if (ipc && !ipc_logged && comm->me == 0)
    utils::logmesg(lmp, "verlet/cuda rebuild device: border records device to device through "
                        "CUDA IPC\n");
  ipc_logged = ipc_logged || ipc;
  for (int dim = 0; dim < 3; dim++) {
    int nfirst = 0, nlast = 0;
    const int twoneed = 2 * setup.maxneed[dim];
    for (int ineed = 0; ineed < twoneed; ineed++) {
      if (iswap >= nswap) error->one(FLERR, "run_style verlet/cuda: device borders: swap count");
      CommBrickPlan::Swap &s = swaps[iswap];
      if (ineed % 2 == 0) {
        nfirst = nlast;
        nlast = nlocal + nghost;
      }
      s.send_offset = send_total;
      if (ineed % 2 == 0) {
        // both swaps of this need in one pass: they have the same candidates (a swap
        // without sendneed selects nothing: an empty slab)
        if (iswap + 1 >= nswap)
          error->one(FLERR, "run_style verlet/cuda: device borders: swap count");
        double lo[2], hi[2];
        for (int k = 0; k < 2; k++) {
          const bool sendflag = ineed / 2 < setup.sendneed[dim][k];
          lo[k] = sendflag ? setup.slab_lo[iswap + k] : 0.0;
          hi[k] = sendflag ? setup.slab_hi[iswap + k] : -1.0;
        }
        s.send_count = engine.border_select(dim, lo, hi, nfirst, nlast);
      } else {
        s.send_count = engine.border_select_second();
      }
      send_total += s.send_count;
      if (timing) timing->mark(RankTiming::REB_BORDER_SELECT);
      // AtomVec::pack_border's shift (zero without a periodic crossing)
      double shift[3];
      plan.shift(s, shift);
      s.first_recv = nlocal + nghost;
      if (s.send_proc != comm->me && ipc) {
        s.recv_count = border_swap_ipc(engine, s, shift);
      } else if (s.send_proc != comm->me) {
        // page-locked both ways (see messages())
        const double *send = engine.border_pack(shift, s.pbc_flag != 0);
        const double *recv = messages(engine, world, send, s.send_count, engine.border_width(),
                                      &s.send_proc, &s.recv_proc, 1, s.recv_count);
        engine.border_receive(recv, s.recv_count);
      } else {
        engine.border_copy(shift, s.pbc_flag != 0);
        s.recv_count = s.send_count;
      }
      if (timing) timing->mark(RankTiming::REB_BORDER_RECORDS);
      nghost += s.recv_count;
      iswap++;
    }
  }
  if (iswap != nswap) error->one(FLERR, "run_style verlet/cuda: device borders: swap count");
  engine.border_finish();
  if (timing) timing->mark(RankTiming::REB_BORDER_ROWS);
  dcomm.take_plan(engine, std::move(swaps), send_total);
}

/* ----------------------------------------------------------------------
   one swap of borders() through CUDA IPC: the counts, this rank's area (handle and
   generation) to the rank that sends to it, the partner's area from the rank this one
   sends to, the records packed and copied into the partner's area, a token, and the
   records appended from this rank's own area. Every swap writes at the start of the
   receiver's area: the receiver copies a swap's records out (synchronously) before it
   answers the next swap's sender, so no sender overwrites records not yet read.
------------------------------------------------------------------------- */

int DeviceRebuild::border_swap_ipc(Engine &engine, const CommBrickPlan::Swap &s,
                                   const double shift[3])
{
  struct AreaMsg {
    char handle[Engine::IPC_HANDLE_BYTES];
    unsigned long long generation;
  };
  int nsend = s.send_count, nrecv = 0;
  MPI_Sendrecv(&nsend, 1, MPI_INT, s.send_proc, 5, &nrecv, 1, MPI_INT, s.recv_proc, 5, world,
               MPI_STATUS_IGNORE);
  std::string why;
  char handle[Engine::IPC_HANDLE_BYTES];
  unsigned long long gen = 0;
  if (engine.ipc_records_area((size_t) nrecv * engine.border_width(), handle, &gen, why)) {
    std::memcpy(area.handle, handle, sizeof(handle));
    area.generation = gen;
  } else if (!why.empty()) {
    error->one(FLERR,
               "run_style verlet/cuda rebuild device: rank {}: border records through "
               "CUDA IPC: {}",
               comm->me, why);
  }
  AreaMsg out{}, in{};
  std::memcpy(out.handle, area.handle, sizeof(out.handle));
  out.generation = area.generation;
  MPI_Sendrecv(&out, sizeof(out), MPI_BYTE, s.recv_proc, 6, &in, sizeof(in), MPI_BYTE, s.send_proc,
               6, world, MPI_STATUS_IGNORE);
  void *peer = peers.open(s.send_proc, in.handle, in.generation, why);
  if (!peer)
    error->one(FLERR,
               "run_style verlet/cuda rebuild device: rank {}: the border-record area "
               "of rank {} through CUDA IPC: {}",
               comm->me, s.send_proc, why);
  engine.border_pack_to_peer(shift, s.pbc_flag != 0, peer, 0);
  int came = -1;
  MPI_Sendrecv(&nsend, 1, MPI_INT, s.send_proc, 7, &came, 1, MPI_INT, s.recv_proc, 7, world,
               MPI_STATUS_IGNORE);
  if (came != nrecv)
    error->one(FLERR,
               "run_style verlet/cuda rebuild device: a border token for {} atoms, {} "
               "announced",
               came, nrecv);
  engine.border_receive_from_ipc(nrecv);
  return nrecv;
}

DeviceRebuild::~DeviceRebuild() = default;

void DeviceRebuild::sync_host(Engine &engine)
{
  if (!stale) return;
  const int n = atom->nlocal;
  if (n > atom->nmax) atom->avec->grow(n);
  static_assert(sizeof(tagint) == sizeof(int), "device tags are 32-bit");
  engine.download_ids(n ? reinterpret_cast<int *>(atom->tag) : nullptr, n ? atom->type : nullptr,
                      n ? atom->mask : nullptr);
  // molecular atoms: molecule IDs, charges, bonds, angles, dihedrals, impropers and special
  // lists as LAMMPS stores them (atom IDs), from the rows that moved with the atoms
  if (engine.has_owned_topology()) {
    const mesogpu::cuda::OwnedTopologyLayout &layout = engine.owned_topology_layout();
    std::vector<int> rows((size_t) n * layout.width);
    engine.download_owned_topology(rows.data(), atom->q_flag && n ? atom->q : nullptr);
    const std::string bad = mesogpu::unpack_owned_topology(lmp, layout, rows.data());
    if (!bad.empty())
      error->one(FLERR,
                 "run_style verlet/cuda: step {}: the topology after a reneighbouring "
                 "step on the device: {}",
                 update->ntimestep, bad);
  }
  // radius, rmass, charges, mu, ... as the host held them, for the atoms now here
  for (const auto &c : carried_columns(atom, engine.has_orientation(), engine.has_bodies()))
    if (n) engine.download_host_column(c.name, c.values, c.stride);
  // the ellipsoid bonus of the atoms now here (their quaternions come with the sync)
  if (engine.has_bodies()) mesogpu::rebuild_ellipsoid_bonus(lmp, engine);
  atom->nghost = 0;
  // what Atom does after atoms moved between ranks: the map of the owned atoms
  if (atom->map_style != Atom::MAP_NONE) {
    atom->map_init();
    atom->map_set();
  }
  stale = false;
}
