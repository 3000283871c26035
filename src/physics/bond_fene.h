/* mesogpu: FENE bond with the WCA repulsion of Kremer-Grest (LAMMPS bond_style fene):
 *   E = -0.5 K R0^2 ln[1 - (r/R0)^2] + 4 eps [(sigma/r)^12 - (sigma/r)^6] + eps,
 * the LJ part only for r < 2^(1/6) sigma. fbond = -(1/r) dE/dr.
 * As in LAMMPS, a bond stretched beyond r^2 > 0.9 R0^2 is clamped (the log argument
 * held at 0.1, LAMMPS warns) and returns true; beyond r >= 2 R0 ("Bad FENE bond" in
 * LAMMPS) it returns false and the caller stops the run. */
#ifndef MESOGPU_PHYSICS_BOND_FENE_H
#define MESOGPU_PHYSICS_BOND_FENE_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct BondFENEParams {
    Real k, r0, epsilon, sigma;
  };

  template <typename Real>
  MESO_HD bool bond_fene(Real rsq, const BondFENEParams<Real> &p, Real &fbond, Real &energy)
  {
    const Real r0sq = p.r0 * p.r0;
    Real rlogarg = Real(1) - rsq / r0sq;
    bool ok = true;
    // same guard as LAMMPS: clamp when r^2 > 0.9 R0^2, fail at r >= 2 R0
    if (rlogarg < Real(0.1)) {
      if (rlogarg <= -Real(3)) ok = false;
      rlogarg = Real(0.1);
    }
    fbond = -p.k / rlogarg;
    const Real sig2 = p.sigma * p.sigma;
    Real elj = Real(0);
    if (rsq < Real(1.2599210498948732) * sig2) {    // 2^(1/3) sigma^2
      const Real sr2 = sig2 / rsq;
      const Real sr6 = sr2 * sr2 * sr2;
      fbond += Real(48) * p.epsilon * sr6 * (sr6 - Real(0.5)) / rsq;
      elj = Real(4) * p.epsilon * sr6 * (sr6 - Real(1)) + p.epsilon;
    }
    energy = Real(-0.5) * p.k * r0sq * log(rlogarg) + elj;
    return ok;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
