/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - where the steps of a resident run on several MPI ranks spend their time
   (run_style verlet/cuda, environment MESOGPU_RANK_TIMING=1; off otherwise and then
   free). Each phase end synchronises the device and reads the host wall clock, so the
   phases add up to the step and a phase holds its own kernels (the synchronisations
   slow the run a little: compare runs with the same setting). At the end of a run
   rank 0 prints, per phase, the largest total over the ranks and its mean per step.
------------------------------------------------------------------------- */

#ifndef MESOGPU_RANK_TIMING_H
#define MESOGPU_RANK_TIMING_H

#include "pointers.h"

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

class RankTiming : protected Pointers {
 public:
  enum Phase {
    FIXES,                 // integrators and fixes (initial, post-force, final, end of step)
    DECIDE,                // the rebuild decision and its MPI_Allreduce
    REBUILD,               // a reneighbouring step (device or host): what the next three leave
    REB_WRAP,              //   device path: Domain::pbc of the owned rows
    REB_LEAVE,             //   device path, exchange: the leaving rows found, packed, copied down
    REB_EXCHANGE_MPI,      //   device path, exchange: the messages
    REB_ARRIVE,            //   device path, exchange: arrivals kept, copied up, rows edited
    REB_LOST,              //   device path: the lost-atom check (MPI_Allreduce)
    REB_SORT,              //   device path: the owned rows along the space-filling curve
    REB_BORDER_SELECT,     //   device path, borders: the rows of each swap's slab (scan, count
                           //   down, rows appended to the send index on the device)
    REB_BORDER_RECORDS,    //   device path, borders: records packed, sent, received, appended
    REB_BORDER_ROWS,       //   device path, borders: the ghost rows written from the records
    REB_BORDERS,           //   device path, borders: the new forward plan (send index taken
                           //   over on the device, IPC areas)
    REB_TOPOLOGY,          //   device path: bonded and special lists from atom IDs
    REB_LIST,              //   the neighbour list build after either path
    REB_HOST_DOWN,         //   host path: atoms down, Domain::pbc
    REB_HOST_COMM,         //   host path: Comm::exchange, Comm::borders, the host's topology lists
    REB_HOST_UP,           //   host path: upload() but its topology (atoms, ghosts, styles, plan)
    REB_HOST_TOPO,         //   host path: upload()'s topology (partner indices, special lists)
    REB_HOST_FIXES,        //   host path: the device fixes' setup
    FWD_PACK,              // forward exchange (positions, velocities): pack kernel + D2H copy
    FWD_MPI,               //   MPI_Sendrecv
    FWD_UNPACK,            //   H2D copy + unpack kernel
    FWD_SELF,              //   swaps with this rank itself (device copies)
    FORCES,                // the engine's force terms
    REV_PACK,              // reverse exchange (bonded forces on ghosts, newton_bond on)
    REV_MPI,
    REV_UNPACK,
    REV_SELF,
    SUMS,        // energy/virial sums and per-atom publishing (output steps)
    OUT_SYNC,    // output steps: atoms (or the topology) down for host code
    OUTPUT,      // output, periodic error checks
    NPHASE
  };

  explicit RankTiming(class LAMMPS *);
  // MESOGPU_RANK_TIMING set to something other than "0" or empty
  static bool wanted();

  // the start of the timed steps of a run() (after a device synchronisation)
  void begin(mesogpu::cuda::Engine &engine);
  // the time since the last mark (or begin) goes to phase p, after synchronising
  void mark(Phase p);
  void step() { nsteps++; }
  void end() { active = false; }
  // rank 0 prints the table (max over ranks); totals start again at zero
  void report();

 private:
  mesogpu::cuda::Engine *engine = nullptr;
  bool active = false;
  double last = 0.0;
  double total[NPHASE] = {};
  long long nsteps = 0;
};

}    // namespace LAMMPS_NS

#endif
