/* mesogpu: tabulated bond, LAMMPS bond_style table (MOLECULE/bond_table.cpp): the
 * energy u(r) and force f(r) = -du/dr looked up in the table LAMMPS resampled from the
 * file (table_lookup.h), fbond = f / r, the force on atom i del * fbond with
 * del = x_i - x_j (as bond_harmonic.h).
 *
 * Range, as BondTable::uf_lookup(): the interval is i = (int) ((r - lo) / delta)
 * (truncation towards zero), and LAMMPS stops with an error when r is not finite, i < 0
 * or i >= tablength. So r a little below lo (less than one spacing) and, with linear,
 * r up to one spacing above hi are extrapolated from the first / last interval, as LAMMPS
 * does. With spline, r > hi would make LAMMPS read past its arrays; it is refused here.
 * Refused: bond_table() returns false with fbond = energy = 0 (the kernel records an
 * error; the CPU style stops with "Bond length < table inner cutoff" or "> table outer
 * cutoff"). */
#ifndef MESOGPU_PHYSICS_BOND_TABLE_H
#define MESOGPU_PHYSICS_BOND_TABLE_H

#include "meso_hd.h"
#include "table_lookup.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> using BondTableView = UniformTableView<Real>;

  // r (from rsq) inside the range LAMMPS accepts: fbond = -(1/r) du/dr, energy = u
  template <typename Real>
  MESO_HD bool bond_table(Real rsq, const BondTableView<Real> &t, Real &fbond, Real &energy)
  {
    const Real r = sqrt(rsq);
    const Real s = (r - t.lo) * t.invdelta;
    // i = (int) s must satisfy 0 <= i < n: -1 < s < n (false for NaN and infinities too)
    if (!(s > Real(-1) && s < static_cast<Real>(t.n)) ||
        (t.interp == TableInterp::spline && r > t.hi)) {
      fbond = energy = Real(0);
      return false;
    }
    const int i = static_cast<int>(s);
    Real u, mdu;
    uniform_table_lookup(t, i, r, u, mdu);
    fbond = mdu / r;
    energy = u;
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
