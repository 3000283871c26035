/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - the reneighbouring step of a resident run on several MPI ranks
   (run_style verlet/cuda rebuild device) without the host's atom arrays:
   Domain::pbc(), CommBrick::exchange() and CommBrick::borders() with LAMMPS's
   rules on the device rows (cuda/core/migrate.cu). The host sends and receives
   the packed records (host-staged MPI, CommBrick's partners and order) and
   keeps the swap table; the plan and send lists go to DeviceComm, whose
   forward() and reverse() then run unchanged. Orthogonal boxes, comm_style
   brick with a single cutoff, atom styles atomic, bond, angle, molecular and full,
   sphere, dipole and hybrids of atomic, sphere and dipole (the host arrays of the atoms
   that moved are rebuilt from x, v, f, image, tag, type, mask, the molecular atoms'
   topology rows (owned_topology.h), the orientations and the carried host columns at
   the next sync); anything else keeps the host's rebuild (why_host() says why).
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_REBUILD_H
#define MESOGPU_DEVICE_REBUILD_H

#include "comm_brick_plan.h"
#include "ipc_peers.h"
#include "pointers.h"

#include <map>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

class DeviceComm;

// the host's per-atom values of the atom styles a device rebuild moves that the device
// does not hold itself (radius, rmass, the charges of atomic styles, mu; omega where the
// engine has no orientations), uploaded to be carried with the atoms (Engine::
// upload_host_column) and read back by DeviceRebuild::sync_host. After upload_orientation.
void upload_carried_columns(class LAMMPS *lmp, mesogpu::cuda::Engine &engine);

class DeviceRebuild : protected Pointers {
 public:
  explicit DeviceRebuild(class LAMMPS *);
  ~DeviceRebuild() override;
  DeviceRebuild(const DeviceRebuild &) = delete;
  DeviceRebuild &operator=(const DeviceRebuild &) = delete;

  // why this run's reneighbouring steps cannot run on the device ("" when they can); the
  // same answer on every rank (the settings are global; the engine's registry is the
  // same on every rank of a run)
  std::string why_host(const mesogpu::cuda::Engine &engine) const;
  // one reneighbouring step on the device: wrap, exchange, borders, the ghost plan to
  // `comm`, molecular atoms' bonded and special lists made from their atom IDs (an error
  // naming the atoms when a partner is no row). Afterwards atom->nlocal is the rank's new count
  // (host arrays grown to it, their contents stale until sync_host), atom->nghost 0. Then the
  // caller builds the neighbour list. An error when atoms were lost (thermo_modify lost error).
  void run(mesogpu::cuda::Engine &engine, DeviceComm &comm);
  // a run starts: its first device rebuild sorts the owned rows (atom_modify sort N > 0)
  void new_run()
  {
    next_sort = 0;
    sorts_run = 0;
  }
  long long sorts() const { return sorts_run; }
  // per-phase timing of run() (MESOGPU_RANK_TIMING; null: none)
  void set_timing(class RankTiming *t) { timing = t; }
  // host arrays not yet told which atoms this rank owns after a device rebuild
  bool host_stale() const { return stale; }
  // the host's ghosts and comm's plan are not this rank's after a device rebuild: the
  // next run's setup must exchange and build ghosts even with 'run ... pre no' (returns
  // the flag and clears it)
  bool take_host_ghosts_stale()
  {
    const bool was = ghosts_stale;
    ghosts_stale = false;
    return was;
  }
  // tags, types and masks of the owned atoms into the host arrays (x, v, f, image come
  // with the run's sync), molecular atoms' molecule IDs, charges, bonds, angles,
  // dihedrals, impropers and special lists, the atom map rebuilt for them (no ghosts)
  void sync_host(mesogpu::cuda::Engine &engine);

 private:
  void exchange(mesogpu::cuda::Engine &engine);
  void borders(mesogpu::cuda::Engine &engine, DeviceComm &comm);
  int border_swap_ipc(mesogpu::cuda::Engine &engine, const CommBrickPlan::Swap &s,
                      const double shift[3]);
  bool stale = false, ghosts_stale = false;
  bigint next_sort = 0;       // the step from which a device rebuild sorts the owned rows
  long long sorts_run = 0;    // sorts of the owned rows since new_run()
  // border records through CUDA IPC: this rank's area and the partners' mapped ones
  struct {
    char handle[64];
    unsigned long long generation = 0;
  } area;
  IpcPeers peers;
  bool ipc_logged = false;
  class RankTiming *timing = nullptr;
};

}    // namespace LAMMPS_NS

#endif
