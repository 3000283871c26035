/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU methods of coarse-grained soft-matter simulation for LAMMPS

   The ghost-atom exchange plan of LAMMPS's comm_style brick, read out of the
   Comm object after borders(), as flat arrays a device pack/unpack kernel can
   use: per swap the partner ranks, counts, first ghost index and periodic
   shift flags, and one concatenated list of the atoms each swap sends.
   forward() and reverse() run the plan on host arrays with the order and the
   arithmetic of CommBrick::forward_comm() and reverse_comm() (positions, and
   forces with newton on): the reference the resident multi-rank path is
   checked against, and the host-staged fallback of that path.
------------------------------------------------------------------------- */

#ifndef MESOGPU_COMM_BRICK_PLAN_H
#define MESOGPU_COMM_BRICK_PLAN_H

#include "pointers.h"

#include <vector>

namespace LAMMPS_NS {

class CommBrickPlan : protected Pointers {
 public:
  struct Swap {
    int send_proc, recv_proc;      // ranks this swap sends to and receives from
    int send_count, recv_count;    // atoms sent and received
    int send_offset;               // start of the swap's atoms in send_index()
    int first_recv;                // index of the first ghost the swap fills
    int pbc_flag;                  // 1: sent positions cross a periodic boundary
    int pbc[6];                    // x, y, z, yz, xz, xy box multiples of that shift
  };

  explicit CommBrickPlan(class LAMMPS *);

  // copies the plan out of comm; call after every comm->borders() (reneighbouring).
  // An error when comm is not comm_style brick.
  void rebuild();
  // a plan made elsewhere with CommBrick::borders()'s rules (the device rebuild of a
  // resident run, src/cuda/device_rebuild.cpp): swaps in order, their send lists
  // concatenated (Swap::send_offset into send)
  void assign(std::vector<Swap> swaps, std::vector<int> send);

  // what CommBrick::setup() decided, before any borders(): per swap the partners and the
  // periodic shift (no counts, lists or first ghost yet) and the slab [slab_lo, slab_hi]
  // of coordinates it sends along its dimension; per dimension the needs (2 maxneed swaps
  // each, in dimension order); whether comm_modify group is set. What a borders() of
  // another implementation starts from (src/cuda/device_rebuild.cpp). An error when comm
  // is not comm_style brick.
  struct Setup {
    std::vector<Swap> swaps;
    std::vector<double> slab_lo, slab_hi;
    int maxneed[3] = {0, 0, 0};
    int sendneed[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    bool bordergroup = false;
  };
  Setup setup_table() const;

  const std::vector<Swap> &swaps() const { return swap_list; }
  const std::vector<int> &send_index() const { return send_list; }
  int nghost() const { return ghost_count; }    // atoms the plan receives in all

  // the position shift of a swap in the current box (AtomVec::pack_comm's dx, dy, dz)
  void shift(const Swap &s, double d[3]) const;

  // ghosts' positions from their owners (x: nlocal + nghost rows), swap by swap
  void forward(double **x) const;
  // ghosts' forces added to their owners, swaps in reverse order
  void reverse(double **f) const;

 private:
  const double *exchange(const std::vector<double> &send, int to, std::vector<double> &recv,
                         int nrecv, int from) const;

  std::vector<Swap> swap_list;
  std::vector<int> send_list;
  int ghost_count = 0;
};

}    // namespace LAMMPS_NS

#endif
