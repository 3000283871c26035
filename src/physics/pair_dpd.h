/* mesogpu: dissipative particle dynamics pair force (Groot-Warren; the arithmetic of
 * LAMMPS pair_style dpd), with w = 1 - r/rc:
 *   F/r = [ a0 w - gamma w^2 (r.v)/r ] f_s / r + sqrt(f_s) sigma w xi / sqrt(dt) / r,
 *   V   = a0 rc w^2 / 2 (conservative part, zero at rc),
 * f_s the special factor, xi a unit Gaussian number shared by the pair (i, j) and
 * sigma = sqrt(2 k_B T gamma). Pairs closer than 1e-10 are skipped, as in LAMMPS. */
#ifndef MESOGPU_PHYSICS_PAIR_DPD_H
#define MESOGPU_PHYSICS_PAIR_DPD_H

#include "meso_hd.h"
#include "random.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  template <typename Real> struct DPDParams {
    Real a0, gamma, sigma, cut;
  };

  // returns false for r below 1e-10 (no force); dot = (x_i - x_j).(v_i - v_j)
  template <typename Real>
  MESO_HD bool dpd_pair(Real rsq, Real dot, Real xi, Real dtinvsqrt, Real factor, Real factor_sqrt,
                        const DPDParams<Real> &p, Real &force_divr, Real &energy)
  {
    const Real r = sqrt(rsq);
    if (r < Real(1.0e-10)) return false;
    const Real rinv = Real(1) / r;
    const Real wd = Real(1) - r / p.cut;
    Real fpair = p.a0 * wd - p.gamma * wd * wd * dot * rinv;
    fpair *= factor;
    fpair += factor_sqrt * p.sigma * wd * xi * dtinvsqrt;
    force_divr = fpair * rinv;
    energy = Real(0.5) * p.a0 * p.cut * wd * wd * factor;
    return true;
  }

  // unit Gaussian for the unordered pair (tag_a, tag_b) at a timestep: both atoms of the
  // pair draw the same number, so the random forces cancel exactly (Box-Muller from two
  // Philox words). Real = double (CPU, double device builds) is the reference; Real =
  // float (mixed and single device builds) takes the same two words through float
  // arithmetic (log, sqrt, cos(2 pi u) as cospi on the device), a few times cheaper than
  // double's log and cos on the GPU: the same number within 3e-6 (the tails,
  // from u1 >= 2^-32, end at the same 6.66 sigma)
  template <typename Real = double>
  MESO_HD Real dpd_gaussian(uint32_t seed, uint32_t tag_a, uint32_t tag_b, uint32_t step)
  {
    const uint32_t lo = tag_a < tag_b ? tag_a : tag_b, hi = tag_a < tag_b ? tag_b : tag_a;
    const Philox4x32 r = philox4x32(lo, hi, step, 0x64706421u /* "dpd!" */, seed, 0xD1BD5EEDu);
    if constexpr (sizeof(Real) == sizeof(double)) {
      const double u1 = (r.v[0] + 1.0) * 2.3283064365386963e-10;    // (0, 1]: log is finite
      const double u2 = r.v[1] * 2.3283064365386963e-10;
      return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    } else {
      // log u1 with u1 = (w + 1) 2^-32 in (0, 1] as in double: for u1 > 1/2 through
      // log1p of 1 - u1 = ~w 2^-32 (u1 itself would round to within 6e-8 of 1, losing the
      // digits of a small log); the tail ends at u1 = 2^-32 as in double
      const uint32_t w = r.v[0];
      const float scale = 2.3283064365386963e-10f;
      const float u2 = static_cast<float>(r.v[1]) * scale;
#if defined(__CUDA_ARCH__)
      const float lg = w >= 0x80000000u ? log1pf(-static_cast<float>(~w) * scale)
                                        : logf((static_cast<float>(w) + 1.0f) * scale);
      return sqrtf(-2.0f * lg) * cospif(2.0f * u2);
#else
      const float lg = w >= 0x80000000u ? std::log1p(-static_cast<float>(~w) * scale)
                                        : std::log((static_cast<float>(w) + 1.0f) * scale);
      return std::sqrt(-2.0f * lg) * std::cos(6.2831853f * u2);
#endif
    }
  }

}    // namespace physics
}    // namespace mesogpu

#endif
