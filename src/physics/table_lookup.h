/* mesogpu: the table lookup shared by bond_table.h and angle_table.h: LAMMPS's
 * uf_lookup() of bond_style table and angle_style table (MOLECULE/bond_table.cpp,
 * MOLECULE/angle_table.cpp) on the arrays those styles build from a table file.
 *
 * LAMMPS resamples the file's points onto tablength evenly spaced points x_i = lo + i
 * delta (spline through the file's points, compute_table()) and keeps per point the
 * energy e_i, the force f_i = -dE/dx, their forward differences de_i, df_i (the last one
 * linearly extrapolated) and the second derivatives e2_i, f2_i of a natural-end spline
 * through (x_i, e_i) and (x_i, f_i). With the interval index i (chosen by the caller,
 * as each style does) and b = (x - x_i) / delta:
 *   linear: u = e_i + b de_i,  f = f_i + b df_i
 *   spline: a = 1 - b,
 *           u = a e_i + b e_{i+1} + ((a^3 - a) e2_i + (b^3 - b) e2_{i+1}) delta^2 / 6
 *           f = the same with f, f2
 * written term by term as LAMMPS writes them, so that in double the results are those of
 * the CPU style to the last bit (no fused multiply-add on the host).
 *
 * One exception: for i = tablength - 1 LAMMPS's spline branch reads e[tablength], one
 * past the end of its arrays (angles at theta = pi exactly, bonds at r >= hi). The
 * lookup reads e[tablength - 1] instead: at b = 0 (theta = pi, r = hi) the result is
 * LAMMPS's; a spline bond beyond hi is refused by bond_table() before it gets here. */
#ifndef MESOGPU_PHYSICS_TABLE_LOOKUP_H
#define MESOGPU_PHYSICS_TABLE_LOOKUP_H

#include "meso_hd.h"

namespace mesogpu {
namespace physics {

  // the interpolation of a LAMMPS bonded table style (its first argument)
  enum class TableInterp : int { linear = 0, spline = 1 };

  // One resampled table of bond_style / angle_style table as the evaluator sees it: views
  // on arrays owned elsewhere (LAMMPS's Table, or the engine's device copy), tablength
  // values each. linear reads e, de, f, df; spline reads e, e2, f, f2 (the others may
  // be null).
  template <typename Real> struct UniformTableView {
    const Real *e, *de, *f, *df, *e2, *f2;
    Real lo;          // first point (bond: the file's first r; angle: 0)
    Real hi;          // last point (bond: the file's last r; angle: pi, unused)
    Real delta;       // spacing (hi - lo) / (tablength - 1)
    Real invdelta;    // 1 / delta as LAMMPS computes it
    Real deltasq6;    // delta^2 / 6 as LAMMPS computes it
    int n;            // tablength
    TableInterp interp;
  };

  // u and f (= -du/dx) at x in interval i (0 <= i < n)
  template <typename Real>
  MESO_HD void uniform_table_lookup(const UniformTableView<Real> &t, int i, Real x, Real &u,
                                    Real &f)
  {
    const Real xi = t.lo + static_cast<Real>(i) * t.delta;    // LAMMPS's r[i] / ang[i]
    const Real b = (x - xi) * t.invdelta;
    if (t.interp == TableInterp::linear) {
      u = t.e[i] + b * t.de[i];
      f = t.f[i] + b * t.df[i];
    } else {
      const int ip1 = i + 1 < t.n ? i + 1 : i;
      const Real a = Real(1) - b;
      u = a * t.e[i] + b * t.e[ip1] +
          ((a * a * a - a) * t.e2[i] + (b * b * b - b) * t.e2[ip1]) * t.deltasq6;
      f = a * t.f[i] + b * t.f[ip1] +
          ((a * a * a - a) * t.f2[i] + (b * b * b - b) * t.f2[ip1]) * t.deltasq6;
    }
  }

}    // namespace physics
}    // namespace mesogpu

#endif
