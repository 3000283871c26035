/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix polymerize/cuda: fix polymerize with a device part for run_style
   verlet/cuda (src/cuda/device_styles.h). Every Nevery steps the reaction step of
   src/physics/chain_growth.h runs on the device (Engine::chain_growth_step: ends pick
   monomers in the device neighbour list, conflicts settled by a 64-bit atomicMin of
   (u, end ID), bonds through Engine::insert_bonds); the per-atom state (init, cris, chain
   position) stays on the device as per-atom data and comes back, with the types, at host
   syncs; the bonds and special lists come back through the run style's topology sync.
   The decisions are those of the CPU fix: in double precision the same bonds from the
   same seed.

   The reaction runs at the initial_integrate stage after the integrator fixes (the fix
   must be defined after them), which is where fix polymerize's post_integrate sits in
   LAMMPS's step. Outside verlet/cuda the fix is the CPU one (react() at that stage).
   Several MPI ranks: the reaction step is fix polymerize's react() on the host, run by
   verlet/cuda inside a reneighbouring step through the host (DeviceFix::device_host_step)
   after borders(), with a host full list of the fresh ghosts; the new bonds, special
   lists, states and types go up with the atoms. Between reaction steps the state moves
   with the atoms as three device columns, so the other reneighbouring steps stay on the
   device.
   Refused in resident runs: atype (no angles are made on the device yet), dynamic groups.
   Docs: doc/fix_polymerize.md (section GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_POLYMERIZE_CUDA_H
#define MESOGPU_FIX_POLYMERIZE_CUDA_H

#include "device_styles.h"
#include "fix_polymerize.h"

#include <string>

namespace LAMMPS_NS {

class FixPolymerizeCuda : public FixPolymerize, public DeviceFix {
 public:
  FixPolymerizeCuda(class LAMMPS *lmp, int narg, char **arg);

  int setmask() override;
  void init() override;
  void initial_integrate(int) override;
  double compute_vector(int) override;

  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  // a chain's interior atom (several ranks: the host makes the bonds, in its own room)
  int device_bond_room() const override { return host_reactions ? 0 : 2; }
  bool device_host_step(bigint step) const override;
  void device_host_step_after_borders() override;
  bool device_moves_per_atom_arrays() const override { return host_reactions; }

  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)

 protected:
  bool wants_host_list() override;

 private:
  std::string slot;          // the engine's per-atom data of the state
  bool retype = false;       // jtype changes types: download them at syncs
  double reach = 0.0;        // smallest neighbour cutoff (cut + skin) of a reacting pair
  bigint state_step = -1;    // step of the last state download while the device was ahead
  // several ranks: the reaction steps run fix polymerize's react() on the host, inside a
  // reneighbouring step through the host; between them the state moves with the atoms as
  // three per-atom columns on the device (state_column) and comes back at host syncs
  bool host_reactions = false;
  std::string state_column(int k) const;

  void download_state(mesogpu::cuda::Engine &engine);
};

}    // namespace LAMMPS_NS

#endif
