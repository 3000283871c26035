/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - run_style verlet/cuda: whole velocity-Verlet timesteps on one GPU.
   Host arrays are brought up to date only at output steps (thermo, dump,
   restart) and at the end of the run. Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_VERLET_CUDA_H
#define MESOGPU_VERLET_CUDA_H

#include "cuda/device_context.h"
#include "cuda/gpu_choice.h"
#include "verlet.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace LAMMPS_NS {

class DeviceFix;

class VerletCuda : public Verlet, public DeviceContext {
 public:
  VerletCuda(class LAMMPS *, int, char **);
  ~VerletCuda() override;
  void init() override;
  void setup(int flag) override;
  void setup_minimal(int flag) override;
  void run(int) override;
  void cleanup() override;

  // DeviceContext: what device-aware styles (temp/cuda, ...) may ask of the run
  mesogpu::cuda::Engine *engine_ahead_of_host() const override
  {
    return synced ? nullptr : engine.get();
  }
  // (the sync functions: verlet_cuda_sync.cpp)
  void sync_atoms() override;
  // the device state, for tests and diagnostics (nullptr before the first resident setup)
  const mesogpu::cuda::Engine *device_engine() const { return engine.get(); }
  // sync_atoms(), then ghost atoms and host neighbour lists as at a reneighboring step
  // when a compute or fix uses its own list (so rdf, cluster/atom... see current data)
  void sync_for_host_code();
  // DeviceContext: device edits between runs (device_bonds); sync_topology is part of
  // sync_atoms() (the download itself: cuda/device_topology_sync.cpp)
  mesogpu::cuda::Engine *engine_for_edits() override { return engine.get(); }
  void sync_topology() override;

 protected:
  std::unique_ptr<mesogpu::cuda::Engine> engine;
  std::vector<DeviceFix *> fix_initial, fix_post_force, fix_final;
  std::vector<DeviceFix *> fix_device;    // every device fix (state to sync back)
  // end-of-step fixes in LAMMPS's order: device fixes, and host fixes that only observe
  // (ave/time, print, ...), which get synced host arrays before they run
  struct EndOfStep {
    class Fix *fix;
    DeviceFix *device;    // null: a host observer
  };
  std::vector<EndOfStep> fix_end_of_step;
  // fix balance (several ranks): its steps reneighbour through the host, where it moves
  // the subdomain cuts before the exchange (one rank: nothing to balance, never called)
  std::vector<Fix *> fix_balance;
  bool balance_logged = false, host_step_logged = false;
  std::vector<int> tag_to_index;
  bool synced;                // host arrays hold the current device state
  bool thermo_device_only;    // thermo output needs only device reductions, no download
  bool host_lists_needed;     // a compute or fix has its own neighbour list (rdf, ...)
  bool box_moved = false;     // the device shrink-wrapped the box since the host's bins
  // several MPI ranks: each rank's engine holds its atoms and ghosts; the ghost exchange
  // (src/cuda/device_comm.h), and whether ghost forces go back (bonded, newton_bond on)
  std::unique_ptr<class DeviceComm> device_comm;
  bool multi_rank = false, reverse_forces = false;
  bool share_gpu = false;    // several ranks of a node may share a GPU (keyword share)
  // the per-step ghost exchange between ranks (keyword exchange, MESOGPU_EXCHANGE;
  // src/cuda/device_comm.h): CUDA IPC (the default; the host path where it cannot), host
  // memory, or device buffers handed to a CUDA-aware MPI
  mesogpu::ExchangePath exchange = mesogpu::ExchangePath::ipc;
  // the device memory report by array (keyword memory, MESOGPU_MEMORY_REPORT)
  bool memory_report = false;
  // the neighbour list's entries (keyword list_entries, MESOGPU_LIST_ENTRIES): 0 auto, 16, 32
  int list_entries = 0;
  // the neighbour list without the skin, built at every step (keyword tight_list,
  // MESOGPU_TIGHT_LIST): -1 auto, 1 yes, 0 no
  int tight_list = -1;
  // several ranks: the forces of interior atoms overlap the forward exchange (keyword
  // overlap, MESOGPU_OVERLAP; default yes)
  bool overlap = true;
  // the last post-force fix's force added in the first final-integrate fix's kernel where
  // both allow it (DeviceFix::device_final_force): allowed (MESOGPU_FUSED_FINAL, read at
  // each setup), and in use for this run's fixes (decided at setup)
  bool fused_final_allowed = true, fused_final = false;
  // the displacement test in fix nve/cuda's first half step (MESOGPU_FUSED_CHECK, read at
  // each setup; Engine::set_integrator_check)
  bool fused_check_allowed = true;
  // (verlet_cuda_checks.cpp) the variable; the decision after the fixes' device setup, with
  // its log line (full: a run's setup, not setup_minimal); the step's post-force and
  // final-integrate fixes
  void read_fusion_switches();
  void setup_fusions(bool full);
  void post_force_and_final(int vflag);
  // the steps of each run a profiler records (MESOGPU_PROFILE_STEPS=FIRST:COUNT; -1: none)
  int profile_first = -1, profile_count = 0;
  // (verlet_cuda_report.cpp) rank 0's setup line and the keywords' refusals; the device
  // memory report by array
  void log_setup(double host_s, double upload_s, double forces_s, double output_s, int n);
  void log_memory(const char *when);
  // reneighbouring steps on several ranks: on the device (keyword rebuild device, the
  // default, src/cuda/device_rebuild.h) or through the host; how many went each way in
  // this run, and the last reason logged for the host path
  bool rebuild_on_device = true;
  std::unique_ptr<class DeviceRebuild> device_rebuild;
  long long rebuilds_device = 0, rebuilds_host = 0;
  std::string host_rebuild_why;
  void log_rebuilds();
  // MESOGPU_RANK_TIMING=1 on several ranks: per-phase wall clock (src/cuda/rank_timing.h)
  std::unique_ptr<class RankTiming> rank_timing;
  bool decide_rebuild_all_ranks();        // Neighbor::decide() with the same answer on every rank
  bool device_rebuild_pending() const;    // host arrays stale after a device rebuild
  void sync_rebuilt_atoms();
  bool host_ghosts_stale();    // the last run reneighboured on the device (clears it)
  // verlet_cuda_ranks.cpp: the parts of several ranks
  void select_device();
  void rank_rebuild(bool balance, const class Fix *host_step_fix = nullptr);
  void upload_ghost_plan();    // several ranks: DeviceComm and the plan (end of upload())
  bool balance_due(bigint step) const;
  // a device fix whose work of this step runs on the host (DeviceFix::device_host_step)
  const class Fix *host_step_due(bigint step) const;
  void device_forces(int eflag_now, int vflag_now);
  void device_forces_begin(int eflag_now, int vflag_now, bool overlap_now);
  void device_forces_finish();
  void images_to_host(const std::vector<int> &image);    // owned atoms' image flags

  void check_styles();
  void check_thermo();
  void find_host_lists();
  void resident_setup(int flag, bool full);
  void upload();
  void publish_energy_virial();
  void publish_per_atom(int eflag, int vflag);
  void device_error(const char *what, const std::exception &e);
  void step_error(const std::exception &e);    // device_error for "step N"
  void device_box_to_host();
};

}    // namespace LAMMPS_NS

#endif
