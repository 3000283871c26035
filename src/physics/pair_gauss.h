/* mesogpu: Gaussian pair potential (GALAMOST's Gaussian repulsion with A < 0 in LAMMPS's
 * sign convention; the arithmetic of LAMMPS pair_style gauss):
 *   V(r) = -(A exp(-B r^2) - offset),   F/r = -2 A B exp(-B r^2),
 * offset = A exp(-B rc^2) (LAMMPS's offset[i][j]) with pair_modify shift yes (else 0),
 * so that V(rc) = 0. No sqrt needed. */
#ifndef MESOGPU_PHYSICS_PAIR_GAUSS_H
#define MESOGPU_PHYSICS_PAIR_GAUSS_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct GaussParams {
    Real a, b, offset;
  };

  template <typename Real> class EvaluatorGauss {
   public:
    MESO_HD EvaluatorGauss(Real rsq_, const GaussParams<Real> &p_) : rsq(rsq_), p(p_) {}
    MESO_HD bool evaluate(Real &force_divr, Real &energy) const
    {
      const Real e = exp(-p.b * rsq);
      force_divr = Real(-2) * p.a * p.b * e;
      energy = -(p.a * e - p.offset);
      return true;
    }

   private:
    Real rsq;
    const GaussParams<Real> &p;
  };

}    // namespace physics
}    // namespace mesogpu

#endif
