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
// one GPU). The host copy of the field (output, restart, the next run's setup) is
// refreshed from the device when the host arrays are synced; energies and the virial
// come from device sums (read back once per field update, when someone asks).
// Several ranks: each rank's engine holds the whole grid over the global box, deposits its
// owned atoms, sums the densities over ranks and derives the same field as the others;
// forces go to owned atoms; the field's energies are global (as the CPU fix's), its
// virial is counted on rank 0 only (LAMMPS sums fix virials over ranks).
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

 private:
  bool host_field_stale = false;    // the device rebuilt the field since the host copy
  bool sums_stale = false;          // energies/virial of the device field not read yet
  void pull_sums(mesogpu::cuda::Engine &engine);
  void pull_sums_if_ahead();
  void copy_phi(std::vector<double> &full, bool to_host);
};

}    // namespace LAMMPS_NS

#endif
