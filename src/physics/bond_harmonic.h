/* mesogpu: harmonic bond, E = K (r - r0)^2 (LAMMPS bond_style harmonic convention:
 * no factor 1/2 in front of K). fbond = -(1/r) dE/dr = -2 K (r - r0) / r; the force
 * on atom i is del * fbond with del = x_i - x_j. */
#ifndef MESOGPU_PHYSICS_BOND_HARMONIC_H
#define MESOGPU_PHYSICS_BOND_HARMONIC_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct BondHarmonicParams {
    Real k, r0;
  };

  template <typename Real>
  MESO_HD bool bond_harmonic(Real rsq, const BondHarmonicParams<Real> &p, Real &fbond, Real &energy)
  {
    const Real r = sqrt(rsq);
    const Real dr = r - p.r0;
    const Real rk = p.k * dr;
    fbond = (r > Real(0)) ? Real(-2) * rk / r : Real(0);
    energy = rk * dr;
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
