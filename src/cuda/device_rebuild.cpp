/* mesogpu: the reneighbouring step of a resident run on several MPI ranks on the device;
   see device_rebuild.h. */

#include "device_rebuild.h"

#include "atom.h"
#include "atom_vec.h"
#include "compute.h"
#include "comm_brick.h"
#include "comm_brick_plan.h"
#include "device_comm.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "rank_timing.h"
#include "modify.h"
#include "update.h"

#include <cstring>
#include <mpi.h>
#include <utility>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

namespace {
// one message each way (host-staged, as CommBrick: counts first, then the values)
void send_recv(MPI_Comm world, const std::vector<double> &send, int to, std::vector<double> &recv,
               size_t at, int from, int width)
{
  int nsend = static_cast<int>(send.size()) / width, nrecv = 0;
  MPI_Sendrecv(&nsend, 1, MPI_INT, to, 0, &nrecv, 1, MPI_INT, from, 0, world, MPI_STATUS_IGNORE);
  recv.resize(at + (size_t) nrecv * width);
  MPI_Request req;
  MPI_Irecv(recv.data() + at, nrecv * width, MPI_DOUBLE, from, 0, world, &req);
  MPI_Send(send.data(), nsend * width, MPI_DOUBLE, to, 0, world);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}
}    // namespace

DeviceRebuild::DeviceRebuild(LAMMPS *lmp) : Pointers(lmp) {}

std::string DeviceRebuild::why_host(const Engine &engine) const
{
  if (domain->triclinic) return "the box is triclinic";
  if (domain->box_change) return "the box changes during the run";
  if (!dynamic_cast<CommBrick *>(comm) || comm->style != Comm::BRICK)
    return "comm_style is not brick";
  if (comm->mode != Comm::SINGLE) return "comm_modify mode is not single";
  if (comm->ghost_velocity) return "ghost atoms carry velocities (comm_modify vel yes)";
  if (CommBrickPlan(lmp).setup_table().bordergroup) return "comm_modify group is set";
  if (atom->firstgroupname) return "atom_modify first is set";
  if (strcmp(atom->atom_style, "atomic") != 0)
    return std::string("atom style ") + atom->atom_style +
           " has per-atom data the device does not move (only atom_style atomic)";
  if (atom->nextra_grow || atom->nextra_border)
    return "a fix keeps its own per-atom arrays on the host (fix property/atom, store/atom, ...)";
  if (atom->nivector || atom->ndvector || atom->niarray || atom->ndarray)
    return "the atoms have custom per-atom properties";
  for (auto *c : modify->get_compute_list())
    if (c->peatomflag || c->pressatomflag)
      return std::string("compute ") + c->id + " needs per-atom energies or virials";
  const std::string missing = engine.migration_missing();
  if (!missing.empty()) return "device per-atom data without a migration: " + missing;
  return "";
}

void DeviceRebuild::run(Engine &engine, DeviceComm &dcomm)
{
  engine.wrap_owned(domain->boxlo, domain->boxhi, domain->periodicity);
  exchange(engine);
  // an atom that left through a non-periodic side is gone (thermo_modify lost error)
  bigint mine = engine.owned(), total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  if (total != atom->natoms)
    error->all(FLERR, "run_style verlet/cuda: step {}: lost atoms: {} of {} remain",
               update->ntimestep, total, atom->natoms);
  if (timing) timing->mark(RankTiming::REB_EXCHANGE);
  borders(engine, dcomm);
  if (timing) timing->mark(RankTiming::REB_BORDERS);
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
    engine.exchange_leaving(dim, lo, hi, send_buf);
    recv_buf.clear();
    if (comm->procgrid[dim] > 1) {
      send_recv(world, send_buf, comm->procneigh[dim][0], recv_buf, 0, comm->procneigh[dim][1],
                width);
      if (comm->procgrid[dim] > 2)
        send_recv(world, send_buf, comm->procneigh[dim][1], recv_buf, recv_buf.size(),
                  comm->procneigh[dim][0], width);
    }
    // the arrivals inside this rank's slab, in buffer order
    const int xoff = engine.record_offset(std::string("x") + "xyz"[dim]);
    if (xoff < 0) error->one(FLERR, "run_style verlet/cuda: device exchange records lack x");
    const size_t nrecv = recv_buf.size() / width;
    size_t kept = 0;
    for (size_t k = 0; k < nrecv; k++) {
      const double v = recv_buf[k * width + xoff];
      if (v >= lo && v < hi) {
        if (kept != k)
          std::copy(recv_buf.begin() + k * width, recv_buf.begin() + (k + 1) * width,
                    recv_buf.begin() + kept * width);
        kept++;
      }
    }
    engine.exchange_arrivals(recv_buf.data(), static_cast<int>(kept));
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
  std::vector<int> send_list;
  int iswap = 0, nghost = 0;
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
      const bool sendflag = ineed / 2 < setup.sendneed[dim][ineed % 2];
      s.send_offset = static_cast<int>(send_list.size());
      s.send_count = sendflag ? engine.border_select(dim, setup.slab_lo[iswap],
                                                     setup.slab_hi[iswap], nfirst, nlast, send_list)
                              : engine.border_select(dim, 0.0, -1.0, nfirst, nfirst, send_list);
      // AtomVec::pack_border's shift (zero without a periodic crossing)
      double shift[3];
      plan.shift(s, shift);
      s.first_recv = nlocal + nghost;
      if (s.send_proc != comm->me) {
        engine.border_pack(shift, s.pbc_flag != 0, send_buf);
        send_recv(world, send_buf, s.send_proc, recv_buf, 0, s.recv_proc, Engine::BORDER_WIDTH);
        s.recv_count = static_cast<int>(recv_buf.size() / Engine::BORDER_WIDTH);
        engine.border_receive(recv_buf.data(), s.recv_count);
      } else {
        engine.border_copy(shift, s.pbc_flag != 0);
        s.recv_count = s.send_count;
      }
      nghost += s.recv_count;
      iswap++;
    }
  }
  if (iswap != nswap) error->one(FLERR, "run_style verlet/cuda: device borders: swap count");
  engine.border_finish();
  dcomm.take_plan(engine, std::move(swaps), std::move(send_list));
}

void DeviceRebuild::sync_host(Engine &engine)
{
  if (!stale) return;
  const int n = atom->nlocal;
  if (n > atom->nmax) atom->avec->grow(n);
  static_assert(sizeof(tagint) == sizeof(int), "device tags are 32-bit");
  engine.download_ids(n ? reinterpret_cast<int *>(atom->tag) : nullptr, n ? atom->type : nullptr,
                      n ? atom->mask : nullptr);
  atom->nghost = 0;
  // what Atom does after atoms moved between ranks: the map of the owned atoms
  if (atom->map_style != Atom::MAP_NONE) {
    atom->map_init();
    atom->map_set();
  }
  stale = false;
}
