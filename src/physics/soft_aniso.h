/* mesogpu: one-site soft anisotropic particles (GALAMOST "LZW" model of Li, Lu et al.;
 * Zhu et al., J. Comput. Chem. 34, 2197 (2013); Li et al., Soft Matter 8, 6693 (2012)).
 * Used by pair_style soft/aniso (CPU) and by the CUDA kernel; every function here is
 * MESO_HD and free of containers and exceptions.
 *
 * Geometry (the papers' convention, NOT LAMMPS's delx = x_i - x_j):
 *   r_ij = x_j - x_i,  r = |r_ij|,  e = r_ij / r,  s = r / rc  (dimensionless distance)
 *   c_i = cos th_i =  n_i . e,   c_j = cos th_j = -n_j . e       (n unit orientations)
 *
 * Energy, for s < 1 (zero beyond the cutoff; every form below vanishes at s = 1):
 *   iso:            U = (aR/2)(1 - s)^2
 *   rod, disk:      U = (1 - mu f^nu) (aR/2)(1 - s)^2
 *   janus/aba/bab:  U = (aR/2)(1 - s)^2 - f^nu (aA/2)(s - s^2)
 * with f = a(c_i) a(c_j), one factor per particle:
 *   rod:   a(c) = sin th = sqrt(1 - c^2)
 *   disk:  a(c) = |c|                                           (this implementation's choice)
 *   janus: a(c) = cos(k th),  th = acos c,        if c > cos beta,       else 0
 *   aba:   a(c) = cos(k th'), th' = acos|c|,      if |c| > cos beta,     else 0
 *   bab:   a(c) = cos(k psi), psi = asin|c|,      if |c| < sin beta_b,   else 0
 *          (psi = pi/2 - th' is the angle from the equator: an attractive belt of
 *          half-width beta_b; this implementation's choice)
 * where k = pi / (2 beta). With rc = 1 these are the papers' formulas exactly; for
 * another rc, aR and aA stay energies and forces scale with 1/rc.
 *
 * Derivatives. Writing U = R(s) + W(s) f^nu (W = -mu R for rod/disk, -(aA/2)(s - s^2)
 * for the patchy models) and P = dU/df = nu W f^(nu-1):
 *   dU/dr_ij = (R' + W' f^nu)/rc e
 *            + [ P a'(c_i) a(c_j) (n_i - c_i e) - P a(c_i) a'(c_j) (n_j + c_j e) ] / r
 *   F_j = -dU/dr_ij,  F_i = -F_j  (not central: the angular part is normal to e)
 *   gorques (n treated as a free vector in c = n.e):
 *   g_i = -dU/dn_i = -P a'(c_i) a(c_j) e,    g_j = -dU/dn_j = +P a(c_i) a'(c_j) e
 * Torque convention everywhere in mesogpu: tau = n x g (so g_perp = tau x n, what the
 * rotational integrator uses). Rotational invariance gives tau_i + tau_j + r_ij x F_j = 0.
 *
 * Singular points, and how they are guarded:
 * - f = 0 (outside a patch, disk face on edge, rod along e): the angular term and its
 *   derivatives are skipped, so 0^(nu-1) is never formed (nu < 1 would give inf * 0).
 *   For nu < 1 the force still grows without bound as f -> 0 from inside the patch
 *   edge: that is the model, not rounding.
 * - janus/aba a'(c) = k sin(k th) / sin th: the limit k^2 (1 - (k^2 - 1) th^2 / 6) is
 *   used for th < 1e-6 (th = 0 exactly would be 0/0).
 * - rod (and bab with beta_b = 90 deg) a'(c) ~ 1/sin th as th -> 0, and janus with
 *   beta = 180 deg as th -> 180 deg: g is then large, but only n x g and the force
 *   enter the dynamics, and both stay finite for nu >= 1 (the divergent part of g lies
 *   along n). Pairs closer than 1e-10 rc are skipped (no direction), as in LAMMPS dpd. */
#ifndef MESOGPU_PHYSICS_SOFT_ANISO_H
#define MESOGPU_PHYSICS_SOFT_ANISO_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  enum class SoftAnisoModel : int { iso = 0, rod = 1, disk = 2, janus = 3, aba = 4, bab = 5 };

  // One type pair as the evaluator sees it; built once from the user's values by
  // make_soft_aniso_params (nothing here is recomputed per pair).
  template <typename Real> struct SoftAnisoParams {
    SoftAnisoModel model;
    Real alpha_r;    // repulsion strength aR (energy)
    Real alpha_a;    // attraction strength aA (janus, aba, bab; else 0)
    Real mu;         // shape parameter (rod, disk; else 0)
    Real nu;         // angular width exponent (all but iso)
    Real k;          // pi / (2 beta) (janus, aba, bab; else 0)
    Real c_edge;     // janus, aba: cos beta; bab: sin beta_b (a threshold on |c|)
    Real rc;         // cutoff
    Real inv_rc;     // 1 / rc
  };

  // beta in radians (janus: 0 < beta <= pi; aba, bab: 0 < beta <= pi/2); range checks
  // are the caller's job (the LAMMPS style reports them with the parameter's name)
  template <typename Real>
  MESO_HD SoftAnisoParams<Real> make_soft_aniso_params(SoftAnisoModel model, Real alpha_r,
                                                       Real alpha_a, Real mu, Real nu, Real beta,
                                                       Real rc)
  {
    SoftAnisoParams<Real> p;
    p.model = model;
    p.alpha_r = alpha_r;
    p.alpha_a = Real(0);
    p.mu = Real(0);
    p.nu = nu;
    p.k = Real(0);
    p.c_edge = Real(0);
    p.rc = rc;
    p.inv_rc = Real(1) / rc;
    const Real half_pi = Real(1.5707963267948966);
    switch (model) {
      case SoftAnisoModel::rod:
      case SoftAnisoModel::disk:
        p.mu = mu;
        break;
      case SoftAnisoModel::janus:
      case SoftAnisoModel::aba:
        p.alpha_a = alpha_a;
        p.k = half_pi / beta;
        p.c_edge = cos(beta);
        break;
      case SoftAnisoModel::bab:
        p.alpha_a = alpha_a;
        p.k = half_pi / beta;
        p.c_edge = sin(beta);
        break;
      default:
        p.nu = Real(1);
        break;
    }
    return p;
  }

  // a = cos(k th), th = acos c, and da/dc = k sin(k th) / sin th, for c inside the cap
  // (c > cos beta); a = 0 at and beyond the cap edge
  template <typename Real> MESO_HD void soft_aniso_cap(Real k, Real c, Real &a, Real &da)
  {
    if (c > Real(1)) c = Real(1);
    const Real th = acos(c);
    a = cos(k * th);
    if (a <= Real(0)) {    // k th >= pi/2 up to rounding: on the edge
      a = Real(0);
      da = Real(0);
      return;
    }
    if (th < Real(1e-6)) {
      da = k * k * (Real(1) - (k * k - Real(1)) * th * th / Real(6));
    } else {
      const Real sin_th = sqrt((Real(1) - c) * (Real(1) + c));
      da = k * sin(k * th) / sin_th;
    }
  }

  // one particle's orientation factor a(c) and its derivative da/dc (both 0 where a = 0)
  template <typename Real>
  MESO_HD void soft_aniso_factor(const SoftAnisoParams<Real> &p, Real c, Real &a, Real &da)
  {
    a = Real(0);
    da = Real(0);
    const Real sgn = c > Real(0) ? Real(1) : (c < Real(0) ? Real(-1) : Real(0));
    const Real ac = c * sgn;    // |c|
    switch (p.model) {
      case SoftAnisoModel::rod: {
        const Real s2 = (Real(1) - ac) * (Real(1) + ac);
        if (s2 > Real(0)) {
          a = sqrt(s2);
          da = -c / a;
        }
        break;
      }
      case SoftAnisoModel::disk:
        a = ac;
        da = sgn;
        break;
      case SoftAnisoModel::janus:
        if (c > p.c_edge) soft_aniso_cap(p.k, c, a, da);
        break;
      case SoftAnisoModel::aba:
        if (ac > p.c_edge) {
          soft_aniso_cap(p.k, ac, a, da);
          da *= sgn;
        }
        break;
      case SoftAnisoModel::bab:
        if (ac < p.c_edge) {
          const Real psi = asin(ac);
          a = cos(p.k * psi);
          if (a <= Real(0)) {
            a = Real(0);
          } else {
            const Real cos_psi = sqrt((Real(1) - ac) * (Real(1) + ac));    // > 0: ac < 1
            da = -sgn * p.k * sin(p.k * psi) / cos_psi;
          }
        }
        break;
      default:
        break;
    }
  }

  // The pair (i, j): r_ij = x_j - x_i, n_i and n_j unit vectors. Outputs the energy U,
  // the force on j (F_i = -F_j) and the gorques g_i = -dU/dn_i, g_j = -dU/dn_j.
  // Returns false, with every output 0, for r >= rc or r < 1e-10 rc.
  template <typename Real>
  MESO_HD bool soft_aniso_pair(const SoftAnisoParams<Real> &p, const Real r_ij[3],
                               const Real n_i[3], const Real n_j[3], Real &energy, Real f_j[3],
                               Real g_i[3], Real g_j[3])
  {
    energy = Real(0);
    for (int d = 0; d < 3; ++d) f_j[d] = g_i[d] = g_j[d] = Real(0);

    const Real rsq = r_ij[0] * r_ij[0] + r_ij[1] * r_ij[1] + r_ij[2] * r_ij[2];
    const Real r = sqrt(rsq);
    if (r >= p.rc || r < Real(1e-10) * p.rc) return false;
    const Real rinv = Real(1) / r;
    const Real e[3] = {r_ij[0] * rinv, r_ij[1] * rinv, r_ij[2] * rinv};
    const Real s = r * p.inv_rc;
    const Real w = Real(1) - s;

    // repulsive core R(s) and dR/ds
    Real u = Real(0.5) * p.alpha_r * w * w;
    Real du_ds = -p.alpha_r * w;

    if (p.model != SoftAnisoModel::iso) {
      const Real ci = n_i[0] * e[0] + n_i[1] * e[1] + n_i[2] * e[2];
      const Real cj = -(n_j[0] * e[0] + n_j[1] * e[1] + n_j[2] * e[2]);
      Real ai, dai, aj, daj;
      soft_aniso_factor(p, ci, ai, dai);
      soft_aniso_factor(p, cj, aj, daj);
      const Real f = ai * aj;
      if (f > Real(0)) {
        Real wfac, dw_ds;    // W(s) and dW/ds
        if (p.model == SoftAnisoModel::rod || p.model == SoftAnisoModel::disk) {
          wfac = -p.mu * u;
          dw_ds = -p.mu * du_ds;
        } else {
          wfac = -Real(0.5) * p.alpha_a * s * w;
          dw_ds = -Real(0.5) * p.alpha_a * (Real(1) - Real(2) * s);
        }
        const Real fnu = pow(f, p.nu);
        const Real dudf = p.nu * wfac * fnu / f;    // P = nu W f^(nu-1); f > 0 here
        const Real pi_ = dudf * dai * aj;           // dU/dc_i
        const Real pj_ = dudf * ai * daj;           // dU/dc_j
        u += wfac * fnu;
        du_ds += dw_ds * fnu;
        for (int d = 0; d < 3; ++d) {
          // angular part of dU/dr_ij, normal to e
          f_j[d] = -(pi_ * (n_i[d] - ci * e[d]) - pj_ * (n_j[d] + cj * e[d])) * rinv;
          g_i[d] = -pi_ * e[d];
          g_j[d] = pj_ * e[d];
        }
      }
    }

    const Real fr = -du_ds * p.inv_rc;    // -dU/dr at fixed angles
    for (int d = 0; d < 3; ++d) f_j[d] += fr * e[d];
    energy = u;
    return true;
  }

  // tau = n x g, the torque convention of mesogpu
  template <typename Real>
  MESO_HD void soft_aniso_torque(const Real n[3], const Real g[3], Real tau[3])
  {
    tau[0] = n[1] * g[2] - n[2] * g[1];
    tau[1] = n[2] * g[0] - n[0] * g[2];
    tau[2] = n[0] * g[1] - n[1] * g[0];
  }

}    // namespace physics
}    // namespace mesogpu

#endif
