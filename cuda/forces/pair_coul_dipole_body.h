/* mesogpu: pair coul/dipole/body's device term (plain C++; pair_style
 * coul/dipole/body/cuda calls it from device_setup). Reads the rigid-body quaternions
 * (Engine::upload_bodies) and the charges (per-atom data "q", uploaded here); adds
 * forces and torques. Kernel: cuda/forces/pair_coul_dipole_body.cu. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_COUL_DIPOLE_BODY_H
#define MESOGPU_CUDA_FORCES_PAIR_COUL_DIPOLE_BODY_H

#include "physics/bead_electrostatics.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  // the evaluator's parameters; cutsq per type pair ((ntypes+1)^2, row-major); per type
  // (ntypes+1) the dipole magnitude (e Angstrom, 0: none) and its unit body direction
  // (3 values per type); the Coulomb special factors (special_coul[0..3], [0] = 1); the
  // charges of the atoms in LAMMPS order (n values)
  struct HostCoulDipoleBody {
    physics::BeadElecParams<double> params{};
    std::vector<double> cutsq;
    std::vector<double> mu, dir;
    double special_coul[4] = {1, 1, 1, 1};
    const double *charge = nullptr;
  };

  void add_pair_coul_dipole_body(Engine &engine, const HostCoulDipoleBody &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
