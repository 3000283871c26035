/* mesogpu: cosine-series torsion on the quadruplet (1, 2, 3, 4), the arithmetic of
 * LAMMPS dihedral_style harmonic and charmm (the cos form of Xu et al.'s polyethylene):
 *   E = K [1 + cos(n phi) cos_shift + sin(n phi) sin_shift]
 * harmonic: cos_shift = d (+1 or -1), sin_shift = 0; charmm: cos_shift = cos d,
 * sin_shift = sin d. Inputs vb1 = x1 - x2, vb2 = x3 - x2, vb3 = x4 - x3; outputs the
 * forces on all four atoms and the energy. */
#ifndef MESOGPU_PHYSICS_DIHEDRAL_H
#define MESOGPU_PHYSICS_DIHEDRAL_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct DihedralParams {
    Real k, cos_shift, sin_shift;
    int multiplicity;
  };

  template <typename Real>
  MESO_HD void dihedral_force(const Real vb1[3], const Real vb2[3], const Real vb3[3],
                              const DihedralParams<Real> &p, Real f1[3], Real f2[3], Real f3[3],
                              Real f4[3], Real &energy)
  {
    const Real vb2m[3] = {-vb2[0], -vb2[1], -vb2[2]};
    const Real ax = vb1[1] * vb2m[2] - vb1[2] * vb2m[1], ay = vb1[2] * vb2m[0] - vb1[0] * vb2m[2],
               az = vb1[0] * vb2m[1] - vb1[1] * vb2m[0];
    const Real bx = vb3[1] * vb2m[2] - vb3[2] * vb2m[1], by = vb3[2] * vb2m[0] - vb3[0] * vb2m[2],
               bz = vb3[0] * vb2m[1] - vb3[1] * vb2m[0];
    const Real rasq = ax * ax + ay * ay + az * az, rbsq = bx * bx + by * by + bz * bz;
    const Real rgsq = vb2m[0] * vb2m[0] + vb2m[1] * vb2m[1] + vb2m[2] * vb2m[2];
    const Real rg = sqrt(rgsq);
    const Real rginv = rg > Real(0) ? Real(1) / rg : Real(0);
    const Real ra2inv = rasq > Real(0) ? Real(1) / rasq : Real(0);
    const Real rb2inv = rbsq > Real(0) ? Real(1) / rbsq : Real(0);
    const Real rabinv = sqrt(ra2inv * rb2inv);
    Real c = (ax * bx + ay * by + az * bz) * rabinv;
    const Real s = rg * rabinv * (ax * vb3[0] + ay * vb3[1] + az * vb3[2]);
    if (c > Real(1)) c = Real(1);
    if (c < Real(-1)) c = Real(-1);

    // cos(m phi) and its derivative by the recursion LAMMPS uses
    const int m = p.multiplicity;
    Real pp = Real(1), df1 = Real(0), ddf1 = Real(0);
    for (int i = 0; i < m; ++i) {
      ddf1 = pp * c - df1 * s;
      df1 = pp * s + df1 * c;
      pp = ddf1;
    }
    pp = pp * p.cos_shift + df1 * p.sin_shift;
    df1 = df1 * p.cos_shift - ddf1 * p.sin_shift;
    df1 *= -m;
    pp += Real(1);
    if (m == 0) {
      pp = Real(1) + p.cos_shift;
      df1 = Real(0);
    }
    energy = p.k * pp;

    const Real fg = vb1[0] * vb2m[0] + vb1[1] * vb2m[1] + vb1[2] * vb2m[2];
    const Real hg = vb3[0] * vb2m[0] + vb3[1] * vb2m[1] + vb3[2] * vb2m[2];
    const Real fga = fg * ra2inv * rginv, hgb = hg * rb2inv * rginv;
    const Real gaa = -ra2inv * rg, gbb = rb2inv * rg;
    const Real df = -p.k * df1;
    const Real dtf[3] = {gaa * ax, gaa * ay, gaa * az};
    const Real dtg[3] = {fga * ax - hgb * bx, fga * ay - hgb * by, fga * az - hgb * bz};
    const Real dth[3] = {gbb * bx, gbb * by, gbb * bz};
    for (int d = 0; d < 3; ++d) {
      const Real sg = df * dtg[d];
      f1[d] = df * dtf[d];
      f2[d] = sg - f1[d];
      f4[d] = df * dth[d];
      f3[d] = -sg - f4[d];
    }
  }

}    // namespace physics
}    // namespace mesogpu

#endif
