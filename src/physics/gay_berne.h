/* mesogpu: Gay-Berne pair interaction of dissimilar uniaxial ellipsoids and of an
 * ellipsoid with a sphere, in the form of
 *   D. J. Cleaver, C. M. Care, M. P. Allen and M. P. Neal, "Extension and generalization
 *   of the Gay-Berne potential", Phys. Rev. E 54, 559-567 (1996), doi:10.1103/PhysRevE.54.559
 * as OpenMD's src/nonbonded/GB.cpp evaluates it (per-type widths d, l; well depths
 * eps_S, eps_E mixed by OpenMD's rule for H'), generalising
 *   J. G. Gay and B. J. Berne, "Modification of the overlap potential to mimic a linear
 *   site-site potential", J. Chem. Phys. 74, 3316-3319 (1981), doi:10.1063/1.441483.
 * The formulas are those of MODELS.md section 5. Used by pair_style gb and by
 * the CUDA kernel (cuda/forces/pair_gb.cu); every function here is MESO_HD and free of containers
 * and exceptions.
 *
 * Geometry (as soft_aniso.h, NOT LAMMPS's delx = x_i - x_j):
 *   r_ij = x_j - x_i,  r = |r_ij|,  e = r_ij / r
 *   u_i, u_j: unit vectors along the particles' symmetry (long) axes
 *   a = u_i . e,   b = u_j . e,   g = u_i . u_j
 *
 * Per type: d (width; side-by-side and cross range), l (length; end-to-end range),
 * eps_S (side-by-side well depth), eps_E (end-to-end well depth). A sphere is d = l and
 * eps_S = eps_E: all its anisotropy factors below vanish, its u is never used (any value,
 * zero included) and its torque is exactly 0. Per type pair: eps0 (the cross, X, well
 * depth; OpenMD mixes sqrt(eps_X,i eps_X,j)), dw (softness), mu, nu (canonical 2 and 1).
 *
 * Energy, for r < rc:
 *   U = 4 eps (R^12 - R^6),   R = dw sigma0 / (r - sigma + dw sigma0)
 *   sigma = sigma0 (1 - H)^(-1/2)
 *   H  = [ chi_a2 a^2 + chi_ai2 b^2 - 2 chi2 a b g ] / (1 - chi2 g^2)
 *   eps = eps0 (1 - chi2 g^2)^(-nu/2) (1 - H')^mu
 *   H' = H with chip_a2, chip_ai2, chip2 in place of chi_a2, chi_ai2, chi2
 * with the products chi alpha^2 etc. computed directly from l and d (never chi and alpha
 * apart: chi = 0 for a sphere, where alpha is undefined):
 *   chi_a2  = chi alpha^2  = (l_i^2 - d_i^2) / (l_i^2 + d_j^2)
 *   chi_ai2 = chi alpha^-2 = (l_j^2 - d_j^2) / (l_j^2 + d_i^2)
 *   chi2    = chi^2        = chi_a2 chi_ai2
 * and, with S = eps_S^(1/mu), E = eps_E^(1/mu) (OpenMD's rule; mixes i's S with j's E):
 *   chip_a2  = (S_i - E_i) / (S_i + E_j),  chip_ai2 = (S_j - E_j) / (S_j + E_i),
 *   chip2    = chip_a2 chip_ai2
 * For a GB-sphere pair this makes the end-on well depend on the sphere's E_j; SklogWiki's
 * rendering of Cleaver et al.'s GB-LJ form has chi' alpha'^2 = 1 - (eps_E / eps_S)^(1/mu)
 * instead (the paper itself not read here): OpenMD's rule is the one implemented.
 * sigma0 rule (the rule decides what d means; say which one a parameter set assumes):
 *   cleaver    (default): sigma0 = sqrt(d_i^2 + d_j^2). Side-by-side contact of two
 *              identical particles sqrt(2) d; an LJ sphere of diameter sigma is
 *              d = l = sigma / sqrt(2) (OpenMD's mapping of LJ types). This is what
 *              OpenMD's GB.cpp does in the versions read (commits 03b9b75, 8ccb807).
 *   arithmetic:          sigma0 = (d_i + d_j) / 2, side-by-side contact d; an LJ sphere
 *              of diameter sigma is d = l = sigma. MODELS.md calls this OpenMD's default;
 *              not found in the OpenMD sources read (unverified).
 *
 * What the parameters give (checked by unittest/units/test_gay_berne.cpp). Contact
 * (U = 0) at r = sigma, minimum -eps at r = sigma + (2^(1/6) - 1) dw sigma0, with:
 *   side-by-side (a = b = 0, g = 1): sigma = sigma0,      eps = eps0 (1 - chi2)^(-nu/2)
 *   cross        (a = b = g = 0):    sigma = sigma0,      eps = eps0
 *   T            (a = 1, b = g = 0): sigma = sigma0 [(l_i^2 + d_j^2) / (d_i^2 + d_j^2)]^(1/2),
 *                                    eps = eps0 [(E_i + E_j) / (S_i + E_j)]^mu
 *   end-to-end   (a = b = g = 1):    sigma = sigma0 [(l_i^2 + l_j^2) / (d_i^2 + d_j^2)]^(1/2),
 *                                    eps = eps0 (1 - chi2)^(-nu/2) [(E_i + E_j)/(S_i + S_j)]^mu
 * For identical particles under Cleaver's rule the end-to-end contact is sqrt(2) l and the
 * end-to-end to side-by-side depth ratio is eps_E / eps_S; eps_S and eps_E enter only
 * through chi', eps0 sets the scale. Two spheres give the shifted LJ 12-6
 * 4 eps0 [R^12 - R^6] with R = dw sigma0 / (r - sigma0 + dw sigma0): plain LJ for dw = 1.
 *
 * LAMMPS pair_style gayberne (ASPHERE) is the same function for identical uniaxial
 * particles: gamma = 1, upsilon = nu, mu = mu, shape sqrt(2) (d, d, l) and sigma =
 * dw sqrt(2) d under Cleaver's rule (shape (d, d, l), sigma = dw d under the arithmetic
 * rule), eps_a = eps_b = 1, eps_c = eps_E / eps_S, epsilon = eps0 (LAMMPS halves upsilon
 * on input). unittest/lammps/test_lammps_gay_berne.cpp compares the two, also for unlike
 * rods and GB-sphere pairs, where LAMMPS's eta leaves a constant factor.
 *
 * Derivatives (the variables a, b, g, r independent; u treated as a free vector):
 *   dx = 1 / (1 - chi2 g^2)
 *   dH/da = 2 (chi_a2 a - chi2 b g) dx,  dH/db = 2 (chi_ai2 b - chi2 a g) dx,
 *   dH/dg = 2 chi2 (H g - a b) dx;  the same for H'
 *   dU/dr|_sigma = -4 eps (12 R^13 - 6 R^7) / (dw sigma0) = -dU/dsigma
 *   dU/dH  = dU/dsigma * sigma / (2 (1 - H)),   dU/dH' = -mu U / (1 - H')
 *   dU/da  = dU/dH dH/da + dU/dH' dH'/da  (b likewise)
 *   dU/dg  = dU/dH dH/dg + dU/dH' dH'/dg + nu chi2 g dx U
 *   dU/dr_ij = dU/dr e + [dU/da (u_i - a e) + dU/db (u_j - b e)] / r
 *   F_j = -dU/dr_ij,  F_i = -F_j  (not central)
 *   g_i = -dU/du_i = -(dU/da e + dU/dg u_j),   g_j = -(dU/db e + dU/dg u_i)
 * Torque convention everywhere in mesogpu (as soft_aniso.h): tau = u x g, lab frame; the
 * part of g along u never enters. Rotational invariance gives tau_i + tau_j + r_ij x F_j = 0.
 *
 * Truncation: U is cut at rc (no smoothing). With shift on, the evaluator returns
 * U(r, orientations) - U(rc, same orientations), which is 0 at rc for every orientation;
 * forces and torques are the exact derivatives of that shifted energy (the shift depends
 * on orientation through sigma and eps, so it adds an angular force and a torque). This
 * is NOT LAMMPS's pair_modify shift for gayberne, which shifts only sphere-sphere pairs.
 *
 * Sensible ranges (nothing is checked here; the pair style validates): d, l > 0 (l > d
 * prolate, l < d oblate: both work); eps_S, eps_E, eps0 > 0; dw > 0 (1 in Gay and
 * Berne); mu > 0 (1/mu is taken); nu any real; rc well beyond the largest contact
 * distance (OpenMD suggests 2.5 sqrt(2) max(d, l)). Then |chi2|, |chip2| < 1 and 1 - H,
 * 1 - H' > 0 for every orientation. The energy diverges as r -> sigma - dw sigma0 (R -> inf);
 * closer pairs (R < 0) are meaningless, and MD never reaches them. Pairs closer than
 * 1e-10 rc have no direction and are skipped. */
#ifndef MESOGPU_PHYSICS_GAY_BERNE_H
#define MESOGPU_PHYSICS_GAY_BERNE_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  enum class GayBerneSigma0 : int { cleaver = 0, arithmetic = 1 };

  // one particle type as the user gives it; a sphere is d = l, eps_s = eps_e
  template <typename Real> struct GayBerneType {
    Real d;        // width (side-by-side range)
    Real l;        // length (end-to-end range)
    Real eps_s;    // side-by-side well depth
    Real eps_e;    // end-to-end well depth
  };

  // One ordered type pair (i, j) as the evaluator sees it; built once by
  // make_gay_berne_params. The pair (j, i) needs its own (chi_a2 <-> chi_ai2 swap).
  template <typename Real> struct GayBerneParams {
    Real sigma0;       // side-by-side contact distance
    Real dw_sigma0;    // dw * sigma0: the width of the well
    Real eps0;         // cross well depth (energy scale)
    Real mu, nu;       // exponents of (1 - H') and (1 - chi2 g^2)^(-1/2)
    Real chi_a2;       // chi alpha^2  (shape, i's side)
    Real chi_ai2;      // chi alpha^-2 (shape, j's side)
    Real chi2;         // chi^2
    Real chip_a2;      // chi' alpha'^2  (well depths, i's side)
    Real chip_ai2;     // chi' alpha'^-2 (well depths, j's side)
    Real chip2;        // chi'^2
    Real rc;           // cutoff
    bool shift;        // subtract U(rc, same orientations)
  };

  template <typename Real>
  MESO_HD GayBerneParams<Real>
  make_gay_berne_params(const GayBerneType<Real> &ti, const GayBerneType<Real> &tj, Real eps0,
                        Real dw, Real mu, Real nu, GayBerneSigma0 rule, Real rc, bool shift)
  {
    GayBerneParams<Real> p;
    const Real di2 = ti.d * ti.d, li2 = ti.l * ti.l;
    const Real dj2 = tj.d * tj.d, lj2 = tj.l * tj.l;
    p.sigma0 = rule == GayBerneSigma0::arithmetic ? Real(0.5) * (ti.d + tj.d) : sqrt(di2 + dj2);
    p.dw_sigma0 = dw * p.sigma0;
    p.eps0 = eps0;
    p.mu = mu;
    p.nu = nu;
    p.chi_a2 = (li2 - di2) / (li2 + dj2);
    p.chi_ai2 = (lj2 - dj2) / (lj2 + di2);
    p.chi2 = p.chi_a2 * p.chi_ai2;
    const Real inv_mu = Real(1) / mu;
    const Real si = pow(ti.eps_s, inv_mu), ei = pow(ti.eps_e, inv_mu);
    const Real sj = pow(tj.eps_s, inv_mu), ej = pow(tj.eps_e, inv_mu);
    p.chip_a2 = (si - ei) / (si + ej);
    p.chip_ai2 = (sj - ej) / (sj + ei);
    p.chip2 = p.chip_a2 * p.chip_ai2;
    p.rc = rc;
    p.shift = shift;
    return p;
  }

  // H-type anisotropy (H or H') at cosines a, b, g, with its partial derivatives
  template <typename Real>
  MESO_HD void gay_berne_h(Real xa2, Real xai2, Real x2, Real a, Real b, Real g, Real &h,
                           Real &dh_da, Real &dh_db, Real &dh_dg)
  {
    const Real dx = Real(1) / (Real(1) - x2 * g * g);
    h = (xa2 * a * a + xai2 * b * b - Real(2) * x2 * a * b * g) * dx;
    dh_da = Real(2) * (xa2 * a - x2 * b * g) * dx;
    dh_db = Real(2) * (xai2 * b - x2 * a * g) * dx;
    dh_dg = Real(2) * x2 * (h * g - a * b) * dx;
  }

  // The pair (i, j): r_ij = x_j - x_i, u_i and u_j unit vectors (a sphere's may be
  // anything). Outputs the energy U, the force on j (F_i = -F_j) and the lab-frame
  // torques tau_i = u_i x g_i, tau_j = u_j x g_j. Returns false, with every output 0,
  // for r >= rc or r < 1e-10 rc.
  template <typename Real>
  MESO_HD bool gay_berne_pair(const GayBerneParams<Real> &p, const Real r_ij[3], const Real u_i[3],
                              const Real u_j[3], Real &energy, Real f_j[3], Real tau_i[3],
                              Real tau_j[3])
  {
    energy = Real(0);
    for (int d = 0; d < 3; ++d) f_j[d] = tau_i[d] = tau_j[d] = Real(0);

    const Real rsq = r_ij[0] * r_ij[0] + r_ij[1] * r_ij[1] + r_ij[2] * r_ij[2];
    const Real r = sqrt(rsq);
    if (r >= p.rc || r < Real(1e-10) * p.rc) return false;
    const Real rinv = Real(1) / r;
    const Real e[3] = {r_ij[0] * rinv, r_ij[1] * rinv, r_ij[2] * rinv};
    const Real a = u_i[0] * e[0] + u_i[1] * e[1] + u_i[2] * e[2];
    const Real b = u_j[0] * e[0] + u_j[1] * e[1] + u_j[2] * e[2];
    const Real g = u_i[0] * u_j[0] + u_i[1] * u_j[1] + u_i[2] * u_j[2];

    Real h, h_a, h_b, h_g, hp, hp_a, hp_b, hp_g;
    gay_berne_h(p.chi_a2, p.chi_ai2, p.chi2, a, b, g, h, h_a, h_b, h_g);
    gay_berne_h(p.chip_a2, p.chip_ai2, p.chip2, a, b, g, hp, hp_a, hp_b, hp_g);

    const Real one_h = Real(1) - h;
    const Real one_hp = Real(1) - hp;
    const Real dx = Real(1) / (Real(1) - p.chi2 * g * g);
    const Real sigma = p.sigma0 / sqrt(one_h);
    const Real eps = p.eps0 * pow(dx, Real(0.5) * p.nu) * pow(one_hp, p.mu);

    // radial part in R; dphi = d(R^12 - R^6)/dR * R^2 / (dw sigma0) = -d/dr at fixed sigma
    const Real inv_w = Real(1) / p.dw_sigma0;
    const Real rr = p.dw_sigma0 / (r - sigma + p.dw_sigma0);
    const Real rr6 = rr * rr * rr * rr * rr * rr;
    Real phi = rr6 * (rr6 - Real(1));
    const Real dphi = rr * rr6 * (Real(12) * rr6 - Real(6)) * inv_w;
    Real dphi_dsigma = dphi;
    if (p.shift) {
      // the shift depends on sigma (orientations) but not on r
      const Real rc_ = p.dw_sigma0 / (p.rc - sigma + p.dw_sigma0);
      const Real rc6 = rc_ * rc_ * rc_ * rc_ * rc_ * rc_;
      phi -= rc6 * (rc6 - Real(1));
      dphi_dsigma -= rc_ * rc6 * (Real(12) * rc6 - Real(6)) * inv_w;
    }
    const Real u = Real(4) * eps * phi;
    const Real du_dr = -Real(4) * eps * dphi;
    const Real du_dh = Real(4) * eps * dphi_dsigma * sigma / (Real(2) * one_h);
    const Real du_dhp = -p.mu * u / one_hp;

    const Real du_da = du_dh * h_a + du_dhp * hp_a;
    const Real du_db = du_dh * h_b + du_dhp * hp_b;
    const Real du_dg = du_dh * h_g + du_dhp * hp_g + p.nu * p.chi2 * g * dx * u;

    Real g_i[3], g_j[3];
    for (int d = 0; d < 3; ++d) {
      f_j[d] = -(du_dr * e[d] + (du_da * (u_i[d] - a * e[d]) + du_db * (u_j[d] - b * e[d])) * rinv);
      g_i[d] = -(du_da * e[d] + du_dg * u_j[d]);
      g_j[d] = -(du_db * e[d] + du_dg * u_i[d]);
    }
    tau_i[0] = u_i[1] * g_i[2] - u_i[2] * g_i[1];
    tau_i[1] = u_i[2] * g_i[0] - u_i[0] * g_i[2];
    tau_i[2] = u_i[0] * g_i[1] - u_i[1] * g_i[0];
    tau_j[0] = u_j[1] * g_j[2] - u_j[2] * g_j[1];
    tau_j[1] = u_j[2] * g_j[0] - u_j[0] * g_j[2];
    tau_j[2] = u_j[0] * g_j[1] - u_j[1] * g_j[0];
    energy = u;
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
