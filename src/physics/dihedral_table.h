/* mesogpu: tabulated dihedral, LAMMPS dihedral_style table (MOLECULE/dihedral_table.cpp
 * in LAMMPS >= 2024, EXTRA-MOLECULE before), on the quadruplet (1, 2, 3, 4); inputs and
 * outputs as dihedral.h: vb1 = x1 - x2, vb2 = x3 - x2, vb3 = x4 - x3; the forces on all
 * four atoms and the energy.
 *
 * The angle is LAMMPS's Phi(): n123 = vb23 x vb12, n234 = vb23 x vb34 (vb12 = x2 - x1,
 * vb23 = x3 - x2, vb34 = x4 - x3), normalised, phi = acos(-n123.n234), and 2 pi - phi
 * where n123.vb34 > 0, so phi is in [0, 2 pi]. LAMMPS resamples the file onto tablength
 * points phi_i = i delta, delta = 2 pi / tablength, periodic (cyclic splines); with
 * s = phi / delta, i = (int) s, b = s - i, and i, i + 1 taken modulo tablength
 * (DihedralTable::uf_lookup()):
 *   linear: u = e_i + b de_i, f = f_i + b df_i
 *   spline: a = 1 - b, u = a e_i + b e_{i+1} + ((a^3 - a) e2_i + (b^3 - b) e2_{i+1}) delta^2/6
 *           f: the same with f, f2, or, for a table without forces (NOF), minus the
 *           derivative of the energy spline:
 *           f = (e_i - e_{i+1}) / delta + ((3 a^2 - 1) e2_i + (1 - 3 b^2) e2_{i+1}) delta / 6
 * with f = -du/dphi. The forces are f times the gradients of phi as
 * DihedralTable::compute() writes them (through the distances of atoms 1 and 4 from the
 * central bond), term by term, so that in double they are LAMMPS's to the last bit.
 * Three atoms on a line give a zero normal (left unnormalised, as norm3 does), phi = pi/2
 * and zero forces on atoms 1 and 4, as in LAMMPS. Refused (returns false, outputs 0): a
 * non-finite phi (non-finite coordinates), where LAMMPS's lookup would index its table
 * with an undefined integer. */
#ifndef MESOGPU_PHYSICS_DIHEDRAL_TABLE_H
#define MESOGPU_PHYSICS_DIHEDRAL_TABLE_H

#include "meso_hd.h"
#include "table_lookup.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  // One resampled dihedral table: views on tablength values each, owned elsewhere.
  // linear reads e, de, f, df; spline reads e, e2 and, unless f_unspecified, f, f2.
  template <typename Real> struct DihedralTableView {
    const Real *e, *de, *f, *df, *e2, *f2;
    Real delta;       // 2 pi / tablength
    Real invdelta;    // 1 / delta
    Real deltasq6;    // delta^2 / 6
    int n;            // tablength
    TableInterp interp;
    int f_unspecified;    // NOF: the spline force is the energy spline's derivative
  };

  // u and f = -du/dphi at phi in [0, 2 pi]; false for a phi outside (NaN)
  template <typename Real>
  MESO_HD bool dihedral_table_lookup(const DihedralTableView<Real> &t, Real phi, Real &u, Real &f)
  {
    const Real s = phi * t.invdelta;
    if (!(s >= Real(0) && s < static_cast<Real>(2 * t.n))) {
      u = f = Real(0);
      return false;
    }
    int i = static_cast<int>(s);
    const Real b = s - static_cast<Real>(i);
    if (i >= t.n) i -= t.n;
    int ip1 = i + 1;
    if (ip1 >= t.n) ip1 -= t.n;
    if (t.interp == TableInterp::linear) {
      u = t.e[i] + b * t.de[i];
      f = t.f[i] + b * t.df[i];
    } else {
      const Real a = Real(1) - b;
      u = a * t.e[i] + b * t.e[ip1] +
          ((a * a * a - a) * t.e2[i] + (b * b * b - b) * t.e2[ip1]) * t.deltasq6;
      if (t.f_unspecified)
        f = (t.e[i] - t.e[ip1]) * t.invdelta +
            ((Real(3) * a * a - Real(1)) * t.e2[i] + (Real(1) - Real(3) * b * b) * t.e2[ip1]) *
                t.delta / Real(6);
      else
        f = a * t.f[i] + b * t.f[ip1] +
            ((a * a * a - a) * t.f2[i] + (b * b * b - b) * t.f2[ip1]) * t.deltasq6;
    }
    return true;
  }

  template <typename Real>
  MESO_HD bool dihedral_table(const Real vb1[3], const Real vb2[3], const Real vb3[3],
                              const DihedralTableView<Real> &t, Real f1[3], Real f2[3], Real f3[3],
                              Real f4[3], Real &energy)
  {
    const Real vb12[3] = {-vb1[0], -vb1[1], -vb1[2]};
    const Real *vb23 = vb2, *vb34 = vb3;

    // Phi(): normals of the planes 123 and 234 (MathExtra::cross3, norm3)
    Real n123[3] = {vb23[1] * vb12[2] - vb23[2] * vb12[1], vb23[2] * vb12[0] - vb23[0] * vb12[2],
                    vb23[0] * vb12[1] - vb23[1] * vb12[0]};
    Real n234[3] = {vb23[1] * vb34[2] - vb23[2] * vb34[1], vb23[2] * vb34[0] - vb23[0] * vb34[2],
                    vb23[0] * vb34[1] - vb23[1] * vb34[0]};
    Real val = n123[0] * n123[0] + n123[1] * n123[1] + n123[2] * n123[2];
    if (val > Real(0)) {
      const Real scale = Real(1) / sqrt(val);
      for (int d = 0; d < 3; ++d) n123[d] *= scale;
    }
    val = n234[0] * n234[0] + n234[1] * n234[1] + n234[2] * n234[2];
    if (val > Real(0)) {
      const Real scale = Real(1) / sqrt(val);
      for (int d = 0; d < 3; ++d) n234[d] *= scale;
    }
    Real cos_phi = -(n123[0] * n234[0] + n123[1] * n234[1] + n123[2] * n234[2]);
    if (cos_phi > Real(1))
      cos_phi = Real(1);
    else if (cos_phi < Real(-1))
      cos_phi = Real(-1);
    Real phi = acos(cos_phi);
    if (n123[0] * vb34[0] + n123[1] * vb34[1] + n123[2] * vb34[2] > Real(0)) {
      phi = -phi;
      phi += Real(6.28318530717958647692);    // MathConst::MY_2PI
    }

    // compute(): the gradients of phi
    const Real dot123 = vb12[0] * vb23[0] + vb12[1] * vb23[1] + vb12[2] * vb23[2];
    const Real dot234 = vb23[0] * vb34[0] + vb23[1] * vb34[1] + vb23[2] * vb34[2];
    const Real L23sqr = vb23[0] * vb23[0] + vb23[1] * vb23[1] + vb23[2] * vb23[2];
    const Real L23 = sqrt(L23sqr);
    Real inv_L23sqr = Real(0), inv_L23 = Real(0);
    if (L23sqr != Real(0)) {
      inv_L23sqr = Real(1) / L23sqr;
      inv_L23 = Real(1) / L23;
    }
    const Real neg_inv_L23 = -inv_L23;
    const Real dot123_over_L23sqr = dot123 * inv_L23sqr;
    const Real dot234_over_L23sqr = dot234 * inv_L23sqr;
    Real perp12on23[3], perp34on23[3];
    for (int d = 0; d < 3; ++d) {
      perp12on23[d] = vb12[d] - vb23[d] * dot123_over_L23sqr;
      perp34on23[d] = vb34[d] - vb23[d] * dot234_over_L23sqr;
    }
    const Real perp12on23_len = sqrt(perp12on23[0] * perp12on23[0] + perp12on23[1] * perp12on23[1] +
                                     perp12on23[2] * perp12on23[2]);
    const Real perp34on23_len = sqrt(perp34on23[0] * perp34on23[0] + perp34on23[1] * perp34on23[1] +
                                     perp34on23[2] * perp34on23[2]);
    const Real inv_perp12on23 = perp12on23_len != Real(0) ? Real(1) / perp12on23_len : Real(0);
    const Real inv_perp34on23 = perp34on23_len != Real(0) ? Real(1) / perp34on23_len : Real(0);
    Real dphi_dx1[3], dphi_dx4[3];
    for (int d = 0; d < 3; ++d) {
      dphi_dx1[d] = n123[d] * inv_perp12on23;
      dphi_dx4[d] = n234[d] * inv_perp34on23;
    }
    const Real proj12on23_len = dot123 * inv_L23;
    const Real proj34on23_len = dot234 * inv_L23;
    const Real dphi123_dx2_coef = neg_inv_L23 * (L23 + proj12on23_len);
    const Real dphi234_dx2_coef = inv_L23 * proj34on23_len;
    const Real dphi234_dx3_coef = neg_inv_L23 * (L23 + proj34on23_len);
    const Real dphi123_dx3_coef = inv_L23 * proj12on23_len;

    Real u, m_du_dphi;
    if (!dihedral_table_lookup(t, phi, u, m_du_dphi)) {
      for (int d = 0; d < 3; ++d) f1[d] = f2[d] = f3[d] = f4[d] = Real(0);
      energy = Real(0);
      return false;
    }
    energy = u;
    for (int d = 0; d < 3; ++d) {
      const Real dphi_dx2 = dphi123_dx2_coef * dphi_dx1[d] + dphi234_dx2_coef * dphi_dx4[d];
      const Real dphi_dx3 = dphi123_dx3_coef * dphi_dx1[d] + dphi234_dx3_coef * dphi_dx4[d];
      f1[d] = m_du_dphi * dphi_dx1[d];
      f2[d] = m_du_dphi * dphi_dx2;
      f3[d] = m_du_dphi * dphi_dx3;
      f4[d] = m_du_dphi * dphi_dx4[d];
    }
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
