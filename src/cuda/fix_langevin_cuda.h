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
// differ from the CPU fix (whose stream depends on the MPI rank), the statistics do not
class FixLangevinCuda : public FixLangevin, public DeviceFix {
 public:
  FixLangevinCuda(class LAMMPS *lmp, int narg, char **arg);
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_post_force(mesogpu::cuda::Engine &engine, int vflag) override;

 private:
  unsigned stream_seed;
};

}    // namespace LAMMPS_NS

#endif
