/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix mdscf/cuda: fix mdscf with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_MDSCF_CUDA_H
#define MESOGPU_FIX_MDSCF_CUDA_H

#include "device_styles.h"
#include "fix_mdscf.h"

#include <vector>

namespace LAMMPS_NS {

// fix mdscf: densities, potentials, gradients and forces on the device (the whole grid on
// one rank). The host copy of the field (output, restart, the next run's setup) is
// refreshed from the device when the host arrays are synced; energies and the virial
// come from device sums (read back once per field update, when someone asks).
// Several ranks: each rank's engine holds its brick of the grid with the ghost layers, as
// the CPU fix's Grid3d lays it out; a field update deposits the owned atoms, runs Grid3d's
// reverse and forward exchanges with buffers packed on the device (the Grid3d callbacks
// below call the engine while an update runs), and derives the field on the brick; forces
// go to owned atoms; the energies are summed over ranks, the virial is each rank's own
// (as the CPU fix's).
class FixMDSCFCuda : public FixMDSCF, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixMDSCFCuda(class LAMMPS *lmp, int narg, char **arg) : FixMDSCF(lmp, narg, arg) {}
  void init() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_post_force(mesogpu::cuda::Engine &engine, int vflag) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  double compute_scalar() override;
  double compute_vector(int) override;
  void reset_grid() override;
  void pack_forward_grid(int, void *, int, int *) override;
  void unpack_forward_grid(int, void *, int, int *) override;
  void pack_reverse_grid(int, void *, int, int *) override;
  void unpack_reverse_grid(int, void *, int, int *) override;

 private:
  bool brick = false;    // several ranks: the engine holds this rank's brick
  // the engine whose brick Grid3d's exchanges move (during a device field update), else
  // null: the callbacks are the CPU fix's, on the host grid
  mesogpu::cuda::Engine *grid_engine = nullptr;
  void update_brick(mesogpu::cuda::Engine &engine);
  void unpack_device_nodes(void *vbuf, int nlist, int *list, bool add);
  bool host_field_stale = false;    // the device rebuilt the field since the host copy
  bool sums_stale = false;          // energies/virial of the device field not read yet
  void pull_sums(mesogpu::cuda::Engine &engine);
  void pull_sums_if_ahead();
  void copy_phi(std::vector<double> &full, bool to_host);
};

}    // namespace LAMMPS_NS

#endif
