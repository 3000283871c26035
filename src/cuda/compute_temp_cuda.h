/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - compute temp/cuda: LAMMPS compute temp whose scalar comes from the
   device while a resident run is active. Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_COMPUTE_TEMP_CUDA_H
#define MESOGPU_COMPUTE_TEMP_CUDA_H

#include "compute_temp.h"

namespace LAMMPS_NS {

// compute temp whose scalar and kinetic tensor come from device reductions while a
// resident run holds the velocities on the GPU (thermo steps and the barostat of fix
// npt/cuda then need no download); the thermo temperature under -sf cuda. Anywhere else
// it is compute temp.
class ComputeTempCuda : public ComputeTemp {
 public:
  ComputeTempCuda(class LAMMPS *lmp, int narg, char **arg) : ComputeTemp(lmp, narg, arg) {}
  double compute_scalar() override;
  void compute_vector() override;
};

}    // namespace LAMMPS_NS

#endif
