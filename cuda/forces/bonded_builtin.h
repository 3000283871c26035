/* mesogpu: the device terms of the analytic bonded styles (plain C++; the /cuda bond,
 * angle and dihedral styles call these from device_setup). Parameters per type, index 0
 * unused. Kernels: cuda/forces/bond_*.cu, angle_*.cu, dihedral_*.cu. */
#ifndef MESOGPU_CUDA_FORCES_BONDED_BUILTIN_H
#define MESOGPU_CUDA_FORCES_BONDED_BUILTIN_H

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  struct HostBondHarmonic {
    std::vector<double> k, r0;
  };
  struct HostBondFENE {
    std::vector<double> k, r0, epsilon, sigma;
  };
  struct HostAngle {
    int kind = 0;                     // physics::AngleKind
    std::vector<double> k, theta0;    // theta0 in radians
  };
  // harmonic and charmm (its 1-4 pair part is the pair style's)
  struct HostDihedral {
    std::vector<double> k, cos_shift, sin_shift;
    std::vector<int> multiplicity;
  };

  void add_bond_harmonic(Engine &engine, const HostBondHarmonic &p);
  void add_bond_fene(Engine &engine, const HostBondFENE &p);
  void add_angle(Engine &engine, const HostAngle &p);
  void add_dihedral(Engine &engine, const HostDihedral &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
