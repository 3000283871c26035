/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - fix temp/berendsen/cuda: LAMMPS fix temp/berendsen with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h).
   Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_TEMP_BERENDSEN_CUDA_H
#define MESOGPU_FIX_TEMP_BERENDSEN_CUDA_H

#include "device_styles.h"
#include "fix_temp_berendsen.h"

namespace LAMMPS_NS {

class FixTempBerendsenCuda : public FixTempBerendsen, public DeviceFix {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  FixTempBerendsenCuda(class LAMMPS *lmp, int narg, char **arg) : FixTempBerendsen(lmp, narg, arg)
  {
  }
  void init() override;
  void device_end_of_step(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
