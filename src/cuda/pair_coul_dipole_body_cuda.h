/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - pair_style coul/dipole/body/cuda: pair_style coul/dipole/body with
   a device part for run_style verlet/cuda (src/cuda/device_styles.h): forces and
   torques from the charges and the device's rigid-body quaternions.
   Docs: doc/pair_coul_dipole_body.md (section GPU).
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_COUL_DIPOLE_BODY_CUDA_H
#define MESOGPU_PAIR_COUL_DIPOLE_BODY_CUDA_H

#include "device_style_util.h"
#include "pair_coul_dipole_body.h"

namespace LAMMPS_NS {

class PairCoulDipoleBodyCuda : public PairCoulDipoleBody, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairCoulDipoleBodyCuda(class LAMMPS *lmp) : PairCoulDipoleBody(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

}    // namespace LAMMPS_NS

#endif
