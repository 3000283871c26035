/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix langevin/cuda: LAMMPS fix langevin with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_LANGEVIN_CUDA_H
#define MESOGPU_FIX_LANGEVIN_CUDA_H

#include "device_styles.h"
#include "fix_langevin.h"

namespace LAMMPS_NS {

// fix langevin with a counter-based random stream per atom and step: the numbers
// differ from the CPU fix (whose stream depends on the MPI rank), the statistics do not;
// they follow atom IDs, so a resident run gives the same trajectory on any number of ranks
class FixLangevinCuda : public FixLangevin, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixLangevinCuda(class LAMMPS *lmp, int narg, char **arg);
  // in a resident run the setup step's random forces come from the device stream
  // (device_setup_forces), not from the host's per-rank generator
  void setup(int vflag) override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_setup_forces(mesogpu::cuda::Engine &engine) override;
  void device_post_force(mesogpu::cuda::Engine &engine, int vflag) override;
  // the same force, added by fix nve/cuda's final half step (DeviceFix::device_final_force)
  bool device_final_force(mesogpu::cuda::FinalForce &ff) override;

 private:
  unsigned stream_seed;
};

}    // namespace LAMMPS_NS

#endif
