/* ----------------------------------------------------------------------
   mesogpu - GPU methods of coarse-grained soft-matter simulation for LAMMPS
------------------------------------------------------------------------- */

#include "comm_brick_plan.h"

#include "comm_brick.h"
#include "domain.h"
#include "error.h"

#include <mpi.h>
#include <utility>

using namespace LAMMPS_NS;

namespace {
// CommBrick keeps its swap plan in protected members. Pointers to members named through
// a derived class are pointers to CommBrick's members, usable on the Comm object LAMMPS
// made (no cast to a type it is not).
struct CommBrickAccess : CommBrick {
  using Comm::bordergroup;
  using CommBrick::firstrecv;
  using CommBrick::maxneed;
  using CommBrick::nswap;
  using CommBrick::pbc;
  using CommBrick::pbc_flag;
  using CommBrick::recvnum;
  using CommBrick::recvproc;
  using CommBrick::sendlist;
  using CommBrick::sendneed;
  using CommBrick::sendnum;
  using CommBrick::sendproc;
  using CommBrick::slabhi;
  using CommBrick::slablo;
};
constexpr int Comm::*m_bordergroup = &CommBrickAccess::bordergroup;
constexpr int (CommBrick::*m_maxneed)[3] = &CommBrickAccess::maxneed;
constexpr int (CommBrick::*m_sendneed)[3][2] = &CommBrickAccess::sendneed;
constexpr double *CommBrick::*m_slablo = &CommBrickAccess::slablo;
constexpr double *CommBrick::*m_slabhi = &CommBrickAccess::slabhi;
constexpr int CommBrick::*m_nswap = &CommBrickAccess::nswap;
constexpr int *CommBrick::*m_sendnum = &CommBrickAccess::sendnum;
constexpr int *CommBrick::*m_recvnum = &CommBrickAccess::recvnum;
constexpr int *CommBrick::*m_sendproc = &CommBrickAccess::sendproc;
constexpr int *CommBrick::*m_recvproc = &CommBrickAccess::recvproc;
constexpr int *CommBrick::*m_firstrecv = &CommBrickAccess::firstrecv;
constexpr int *CommBrick::*m_pbc_flag = &CommBrickAccess::pbc_flag;
constexpr int **CommBrick::*m_pbc = &CommBrickAccess::pbc;
constexpr int **CommBrick::*m_sendlist = &CommBrickAccess::sendlist;
// the brick comm LAMMPS made (an error naming comm_style tiled otherwise)
CommBrick *brick_of(Comm *comm, Error *error)
{
  auto *brick = dynamic_cast<CommBrick *>(comm);
  if (!brick || comm->style != Comm::BRICK)
    error->all(FLERR, "mesogpu: the multi-rank device path needs comm_style brick (this run "
                      "uses comm_style tiled)");
  return brick;
}

// the parts of swap k that CommBrick::setup() decides: partners and periodic shift
void setup_part(CommBrick *brick, int k, CommBrickPlan::Swap &s)
{
  s.send_proc = (brick->*m_sendproc)[k];
  s.recv_proc = (brick->*m_recvproc)[k];
  s.pbc_flag = (brick->*m_pbc_flag)[k];
  for (int d = 0; d < 6; d++) s.pbc[d] = (brick->*m_pbc)[k][d];
}
}    // namespace

CommBrickPlan::CommBrickPlan(LAMMPS *lmp) : Pointers(lmp) {}

CommBrickPlan::Setup CommBrickPlan::setup_table() const
{
  CommBrick *brick = brick_of(comm, error);
  const int n = brick->*m_nswap;
  Setup t;
  t.swaps.resize(n);
  t.slab_lo.resize(n);
  t.slab_hi.resize(n);
  for (int k = 0; k < n; k++) {
    Swap &s = t.swaps[k];
    s = Swap();
    setup_part(brick, k, s);
    t.slab_lo[k] = (brick->*m_slablo)[k];
    t.slab_hi[k] = (brick->*m_slabhi)[k];
  }
  for (int d = 0; d < 3; d++) {
    t.maxneed[d] = (brick->*m_maxneed)[d];
    t.sendneed[d][0] = (brick->*m_sendneed)[d][0];
    t.sendneed[d][1] = (brick->*m_sendneed)[d][1];
  }
  t.bordergroup = comm->*m_bordergroup != 0;
  return t;
}

void CommBrickPlan::rebuild()
{
  CommBrick *brick = brick_of(comm, error);
  const int n = brick->*m_nswap;
  swap_list.resize(n);
  send_list.clear();
  ghost_count = 0;
  for (int k = 0; k < n; k++) {
    Swap &s = swap_list[k];
    setup_part(brick, k, s);
    s.send_count = (brick->*m_sendnum)[k];
    s.recv_count = (brick->*m_recvnum)[k];
    s.first_recv = (brick->*m_firstrecv)[k];
    s.send_offset = static_cast<int>(send_list.size());
    const int *list = (brick->*m_sendlist)[k];
    send_list.insert(send_list.end(), list, list + s.send_count);
    ghost_count += s.recv_count;
  }
}

void CommBrickPlan::assign(std::vector<Swap> swaps, std::vector<int> send)
{
  swap_list = std::move(swaps);
  send_list = std::move(send);
  ghost_count = 0;
  for (const Swap &s : swap_list) ghost_count += s.recv_count;
}

void CommBrickPlan::shift(const Swap &s, double d[3]) const
{
  d[0] = d[1] = d[2] = 0.0;
  if (!s.pbc_flag) return;
  if (domain->triclinic == 0) {
    d[0] = s.pbc[0] * domain->xprd;
    d[1] = s.pbc[1] * domain->yprd;
    d[2] = s.pbc[2] * domain->zprd;
  } else {
    d[0] = s.pbc[0] * domain->xprd + s.pbc[5] * domain->xy + s.pbc[4] * domain->xz;
    d[1] = s.pbc[1] * domain->yprd + s.pbc[3] * domain->yz;
    d[2] = s.pbc[2] * domain->zprd;
  }
}

// one swap's values sent to rank `to` and nrecv received from rank `from` (host-staged,
// as CommBrick); a swap with itself needs no message: its own send buffer is the input
const double *CommBrickPlan::exchange(const std::vector<double> &send, int to,
                                      std::vector<double> &recv, int nrecv, int from) const
{
  if (to == comm->me) return send.data();
  recv.resize(nrecv);
  MPI_Request req;
  MPI_Irecv(recv.data(), nrecv, MPI_DOUBLE, from, 0, world, &req);
  MPI_Send(send.data(), static_cast<int>(send.size()), MPI_DOUBLE, to, 0, world);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  return recv.data();
}

void CommBrickPlan::forward(double **x) const
{
  std::vector<double> send, recv;
  for (const Swap &s : swap_list) {
    double d[3];
    shift(s, d);
    send.resize(3 * static_cast<size_t>(s.send_count));
    const int *list = send_list.data() + s.send_offset;
    // x + dx in one addition, as AtomVec::pack_comm: bit for bit the host's ghosts
    for (int i = 0; i < s.send_count; i++)
      for (int c = 0; c < 3; c++)
        send[3 * i + c] = s.pbc_flag ? x[list[i]][c] + d[c] : x[list[i]][c];
    const double *in = exchange(send, s.send_proc, recv, 3 * s.recv_count, s.recv_proc);
    for (int i = 0; i < s.recv_count; i++)
      for (int c = 0; c < 3; c++) x[s.first_recv + i][c] = in[3 * i + c];
  }
}

void CommBrickPlan::reverse(double **f) const
{
  std::vector<double> send, recv;
  for (int k = static_cast<int>(swap_list.size()) - 1; k >= 0; k--) {
    const Swap &s = swap_list[k];
    send.resize(3 * static_cast<size_t>(s.recv_count));
    for (int i = 0; i < s.recv_count; i++)
      for (int c = 0; c < 3; c++) send[3 * i + c] = f[s.first_recv + i][c];
    const double *in = exchange(send, s.recv_proc, recv, 3 * s.send_count, s.send_proc);
    const int *list = send_list.data() + s.send_offset;
    for (int i = 0; i < s.send_count; i++)
      for (int c = 0; c < 3; c++) f[list[i]][c] += in[3 * i + c];
  }
}
