/* mesogpu: tabulated pair potential on a uniform r^2 grid, as in GALAMOST (Y.-L. Zhu
 * et al., J. Comput. Chem. 34, 2197 (2013), doi:10.1002/jcc.23365).
 *
 * The energy is one C2-continuous cubic spline in z = r^2. Interval k covers
 * [z_k, z_k + dz) with z_k = z_lo + k dz, and with delta = z - z_k
 *
 *     V(z)  = c0 + delta (c1 + delta (c2 + delta c3))
 *     F/r   = -2 dV/dz = -2 (c1 + delta (2 c2 + 3 delta c3))
 *
 * so the force is the exact derivative of the energy (no separate force table that
 * could disagree with it) and no sqrt is needed in the inner loop. The four
 * coefficients of an interval are stored together (one float4/double4 load on the
 * GPU).
 *
 * Below the table start (z < z_lo) the caller chooses: report an error
 * (InnerMode::error, evaluate() returns false), or continue the energy linearly in
 * z from the first knot (InnerMode::clamp): V = c0 + c1 (z - z_lo) of interval 0,
 * F/r = -2 c1, which keeps energy and force consistent and finite at r = 0.
 *
 * Used by PairTableR2 (CPU) and by the CUDA kernels; host-only construction of the
 * coefficients (file reading, resampling, spline fit) lives in src/table_r2_io.h. */
#ifndef MESOGPU_PHYSICS_TABLE_R2_H
#define MESOGPU_PHYSICS_TABLE_R2_H

#include "meso_hd.h"

namespace mesogpu {
namespace physics {

  enum class InnerMode : int { error = 0, clamp = 1 };

  // One table as the evaluator sees it: a view on coefficient storage owned elsewhere.
  template <typename Real> struct TableR2View {
    const Real *coeff;    // 4 * n values, interval k at coeff[4k .. 4k+3]
    Real z_lo;            // first knot (r_lo^2), may be 0
    Real dz;              // knot spacing in r^2
    Real inv_dz;          // 1 / dz, precomputed
    int n;                // number of intervals
    InnerMode inner;      // what to do below z_lo
  };

  template <typename Real> class EvaluatorTableR2 {
   public:
    MESO_HD EvaluatorTableR2(Real rsq, const TableR2View<Real> &table) : z(rsq), t(table) {}

    // force_divr = -(1/r) dV/dr = -2 dV/dz; energy = V. Returns false only when z is
    // below the table start and the table's inner mode is error; outputs are then 0.
    // The cutoff test is the caller's job (rsq < cutsq <= z_hi always holds there).
    MESO_HD bool evaluate(Real &force_divr, Real &energy) const
    {
      Real delta = z - t.z_lo;
      if (delta < Real(0)) {
        if (t.inner == InnerMode::error) {
          force_divr = Real(0);
          energy = Real(0);
          return false;
        }
        force_divr = Real(-2) * t.coeff[1];
        energy = t.coeff[0] + delta * t.coeff[1];
        return true;
      }
      int k = static_cast<int>(delta * t.inv_dz);
      if (k > t.n - 1) k = t.n - 1;    // z == z_hi up to rounding
      delta -= static_cast<Real>(k) * t.dz;
      const Real *c = t.coeff + 4 * k;
      energy = c[0] + delta * (c[1] + delta * (c[2] + delta * c[3]));
      force_divr = Real(-2) * (c[1] + delta * (Real(2) * c[2] + Real(3) * delta * c[3]));
      return true;
    }

   private:
    Real z;
    const TableR2View<Real> &t;
  };

}    // namespace physics
}    // namespace mesogpu

#endif
