/* mesogpu: angle potentials on the triplet (1, 2, 3) with atom 2 at the apex; the
 * arithmetic of LAMMPS angle_style harmonic and cosine/squared.
 *   harmonic:        E = K (theta - theta0)^2
 *   cosine/squared:  E = K (cos theta - cos theta0)^2
 * Inputs del1 = x1 - x2, del2 = x3 - x2; outputs the forces on atoms 1 and 3
 * (atom 2 takes -f1 - f3) and the energy. */
#ifndef MESOGPU_PHYSICS_ANGLE_H
#define MESOGPU_PHYSICS_ANGLE_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct AngleParams {
    Real k, theta0, cos_theta0;
  };

  enum class AngleKind : int { harmonic = 0, cosine_squared = 1 };

  template <AngleKind Kind, typename Real>
  MESO_HD void angle_force(const Real d1[3], const Real d2[3], const AngleParams<Real> &p,
                           Real f1[3], Real f3[3], Real &energy)
  {
    const Real rsq1 = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
    const Real rsq2 = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
    const Real r1 = sqrt(rsq1), r2 = sqrt(rsq2);
    Real c = (d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]) / (r1 * r2);
    if (c > Real(1)) c = Real(1);
    if (c < Real(-1)) c = Real(-1);
    Real a;
    if (Kind == AngleKind::harmonic) {
      Real s = sqrt(Real(1) - c * c);
      if (s < Real(0.001)) s = Real(0.001);    // LAMMPS's SMALL: no division by sin(0)
      const Real dtheta = acos(c) - p.theta0;
      const Real tk = p.k * dtheta;
      energy = tk * dtheta;
      a = Real(-2) * tk / s;
    } else {
      const Real dcos = c - p.cos_theta0;
      const Real tk = p.k * dcos;
      energy = tk * dcos;
      a = Real(2) * tk;
    }
    const Real a11 = a * c / rsq1, a12 = -a / (r1 * r2), a22 = a * c / rsq2;
    for (int d = 0; d < 3; ++d) {
      f1[d] = a11 * d1[d] + a12 * d2[d];
      f3[d] = a22 * d2[d] + a12 * d1[d];
    }
  }

}    // namespace physics
}    // namespace mesogpu

#endif
