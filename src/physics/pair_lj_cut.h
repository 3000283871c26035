/* mesogpu: 12-6 Lennard-Jones pair evaluator, truncated at rc (lj/cut on the device:
 * LAMMPS's bench/in.lj, the united-atom polyethylene of J. Xu et al., Mol. Simul. 36,
 * 1131 (2010); the same arithmetic as LAMMPS pair_style lj/cut, so device and CPU
 * agree term by term).
 *
 *   V(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6] - offset,   r < rc
 *   F/r  = (1/r^2) [48 eps sigma^12 / r^12 - 24 eps sigma^6 / r^6]
 *
 * Parameters are converted once per type pair: lj1 = 48 eps sigma^12,
 * lj2 = 24 eps sigma^6, lj3 = 4 eps sigma^12, lj4 = 4 eps sigma^6, offset = V(rc)
 * when pair_modify shift yes (else 0). The cutoff test is the caller's job. */
#ifndef MESOGPU_PHYSICS_PAIR_LJ_CUT_H
#define MESOGPU_PHYSICS_PAIR_LJ_CUT_H

#include "meso_hd.h"

namespace mesogpu {
namespace physics {

  template <typename Real> struct LJCutParams {
    Real lj1, lj2, lj3, lj4, offset;
  };

  template <typename Real> class EvaluatorLJCut {
   public:
    MESO_HD EvaluatorLJCut(Real rsq_, const LJCutParams<Real> &p_) : rsq(rsq_), p(p_) {}

    // force_divr = -(1/r) dV/dr, energy = V; always succeeds
    MESO_HD bool evaluate(Real &force_divr, Real &energy) const
    {
      const Real r2inv = Real(1) / rsq;
      const Real r6inv = r2inv * r2inv * r2inv;
      force_divr = r6inv * (p.lj1 * r6inv - p.lj2) * r2inv;
      energy = r6inv * (p.lj3 * r6inv - p.lj4) - p.offset;
      return true;
    }

   private:
    Real rsq;
    const LJCutParams<Real> &p;
  };

}    // namespace physics
}    // namespace mesogpu

#endif
