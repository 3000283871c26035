/* mesogpu: tabulated angle, LAMMPS angle_style table (MOLECULE/angle_table.cpp), on the
 * triplet (1, 2, 3) with atom 2 at the apex, inputs and outputs as angle.h: del1 = x1 - x2,
 * del2 = x3 - x2; the forces on atoms 1 and 3 (atom 2 takes -f1 - f3) and the energy.
 *
 * theta = acos(c) in [0, pi] (c clamped to [-1, 1]); u(theta) and f = -du/dtheta from
 * the table LAMMPS resampled onto tablength points from 0 to pi (table_lookup.h), with
 * the interval i = (int) (theta / delta) clamped to [0, tablength - 1] as
 * AngleTable::uf_lookup() does. The force projection is AngleTable::compute()'s:
 * a = f / max(sin theta, 0.001), f1 = a c / r1^2 del1 - a / (r1 r2) del2, and likewise f3.
 * Refused (returns false, outputs 0): a non-finite theta (an atom on top of the apex),
 * where the CPU style stops with "Illegal angle in angle style table". */
#ifndef MESOGPU_PHYSICS_ANGLE_TABLE_H
#define MESOGPU_PHYSICS_ANGLE_TABLE_H

#include "meso_hd.h"
#include "table_lookup.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> using AngleTableView = UniformTableView<Real>;

  template <typename Real>
  MESO_HD bool angle_table(const Real d1[3], const Real d2[3], const AngleTableView<Real> &t,
                           Real f1[3], Real f3[3], Real &energy)
  {
    const Real rsq1 = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
    const Real rsq2 = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
    const Real r1 = sqrt(rsq1), r2 = sqrt(rsq2);
    Real c = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2];
    c /= r1 * r2;
    if (c > Real(1)) c = Real(1);
    if (c < Real(-1)) c = Real(-1);
    Real s = sqrt(Real(1) - c * c);
    if (s < Real(0.001)) s = Real(0.001);    // LAMMPS's SMALL
    s = Real(1) / s;

    const Real theta = acos(c);
    const Real xi = theta * t.invdelta;
    if (!(xi >= Real(0) && xi <= static_cast<Real>(t.n))) {    // NaN (theta is in [0, pi])
      for (int d = 0; d < 3; ++d) f1[d] = f3[d] = Real(0);
      energy = Real(0);
      return false;
    }
    int i = static_cast<int>(xi);
    if (i >= t.n) i = t.n - 1;
    Real u, mdu;
    uniform_table_lookup(t, i, theta, u, mdu);
    energy = u;

    const Real a = mdu * s;
    const Real a11 = a * c / rsq1, a12 = -a / (r1 * r2), a22 = a * c / rsq2;
    for (int d = 0; d < 3; ++d) {
      f1[d] = a11 * d1[d] + a12 * d2[d];
      f3[d] = a22 * d2[d] + a12 * d1[d];
    }
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
