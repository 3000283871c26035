/* mesogpu: harmonic repulsion (GALAMOST's "harmonic" soft repulsion; LAMMPS pair_style
 * harmonic/cut): V(r) = k (rc - r)^2 for r < rc, F/r = 2 k (rc - r) / r. */
#ifndef MESOGPU_PHYSICS_PAIR_HARMONIC_CUT_H
#define MESOGPU_PHYSICS_PAIR_HARMONIC_CUT_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct HarmonicCutParams {
    Real k, cut;
  };

  template <typename Real> class EvaluatorHarmonicCut {
   public:
    MESO_HD EvaluatorHarmonicCut(Real rsq_, const HarmonicCutParams<Real> &p_) : rsq(rsq_), p(p_) {}
    MESO_HD bool evaluate(Real &force_divr, Real &energy) const
    {
      const Real r = sqrt(rsq);
      const Real delta = p.cut - r;
      const Real prefactor = delta * p.k;
      force_divr = (r > Real(0)) ? Real(2) * prefactor / r : Real(0);
      energy = prefactor * delta;
      return true;
    }

   private:
    Real rsq;
    const HarmonicCutParams<Real> &p;
  };

}    // namespace physics
}    // namespace mesogpu

#endif
