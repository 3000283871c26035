/* mesogpu: electrostatics of charged and dipolar coarse-grained beads (the lipid model of Orsi
 * et al.: charged choline and phosphate beads, glycerol and ester beads carrying point
 * dipoles fixed in the bead's body frame). The pair evaluator of pair_style coul/dipole/body
 * and of its CUDA kernel (cuda/forces/pair_coul_dipole_body.cu): every function here is MESO_HD and
 * free of containers, exceptions and strings. No LJ part: combine with lj/cut, gb or ssd via
 * pair_style hybrid/overlay.
 *
 * References:
 *   model      M. Orsi, D. Y. Haubertin, W. E. Sanderson and J. W. Essex, J. Phys. Chem. B 112,
 *              802 (2008), doi:10.1021/jp076924f.
 *   dipoles    M. P. Allen and D. J. Tildesley, Computer Simulation of Liquids (2nd ed., OUP
 *              2017), the point-dipole energies, fields and torques.
 *   RF         J. A. Barker and R. O. Watts, Mol. Phys. 26, 789 (1973),
 *              doi:10.1080/00268977300102101; I. G. Tironi, R. Sperb, P. E. Smith and
 *              W. F. van Gunsteren, J. Chem. Phys. 102, 5451 (1995), doi:10.1063/1.469273
 *              (eps1 = 1, no ionic strength).
 *
 * Units: those of the caller's qqrd2e (LAMMPS real: 332.06371 kcal Angstrom/(mol e^2));
 * charges in e, dipoles in e Angstrom (1 D = 0.208194 e Angstrom, bead_debye).
 *
 * Geometry: r = r_ij = x_j - x_i (not LAMMPS's delx = x_i - x_j), R = |r|, K = qqrd2e;
 * p_i, p_j the lab-frame dipoles, p = mu A^T b = mu R(q) b with b the unit body direction of
 * the type (body_dipole()); a = p_i.r, b = p_j.r, c = p_i.p_j.
 *
 * Energy, for R < rc (zero beyond), with k = 0 and c_rf = 0 for the plain cutoff:
 *   charge-charge  E_qq = K q_i q_j (1/R + k R^2 - c_rf)
 *   dipole i, charge j  E_dq = K q_j a (1/R^3 - 2k)
 *   charge i, dipole j  E_qd = -K q_i b (1/R^3 - 2k)
 *   dipole-dipole  E_dd = K [c/R^3 - 3 a b/R^5 - 2k c]
 * with the reaction field (eps_rf, dielectric continuum beyond rc; Barker-Watts, Tironi et al.
 * with eps1 = 1):
 *   k = (eps_rf - 1) / ((2 eps_rf + 1) rc^3),   c_rf = 1/rc + k rc^2 = 3 eps_rf / ((2 eps_rf + 1)
 * rc) so E_qq(rc) = 0. The dipole terms' RF parts are the dipole limits of the charge RF term K q_i
 * q_j k R^2 (a dipole as a vanishing pair of charges): -2k c for two dipoles, the constant RF term
 * of src/physics/ssd.h (there written -2(eps-1)/((2eps+1) rc^3) p_i.p_j), and
 * -+2k q p.r for a charge with a dipole. c_rf drops out of them (dipoles are neutral), so only
 * E_qq vanishes at rc; the dipole terms jump there, as with the plain cutoff.
 *
 * Forces and torques (derived here, checked against finite differences in the tests):
 *   F_j = -dE/dr, F_i = -F_j; tau = -p x dE/dp, the physical torque p x E_field (LAMMPS's
 *   dipole convention, and mesogpu's tau = -dE/dtheta for a rotation by theta about a lab axis).
 *   dE_qq/dr = K q_i q_j (-1/R^3 + 2k) r
 *   dE_dq/dr = K q_j [(1/R^3 - 2k) p_i - 3 a r/R^5],     dE_dq/dp_i = K q_j (1/R^3 - 2k) r
 *   dE_qd/dr = -K q_i [(1/R^3 - 2k) p_j - 3 b r/R^5],    dE_qd/dp_j = -K q_i (1/R^3 - 2k) r
 *   dE_dd/dr = K [(-3c/R^5 + 15 a b/R^7) r - 3 (b p_i + a p_j)/R^5]
 *   dE_dd/dp_i = K [(1/R^3 - 2k) p_j - 3 b r/R^5],        dE_dd/dp_j likewise with i <-> j.
 * Rotational invariance: tau_i + tau_j + r x F_j = 0.
 *
 * Shifted force (BeadElec::sf): M. P. Allen and G. Germano, Mol. Phys. 104, 3225 (2006),
 * doi:10.1080/00268970601075238, as LAMMPS's pair_style lj/sf/dipole/sf codes it (its
 * DIPOLE/pair_lj_sf_dipole_sf.cpp; the tests compare against it). With x = R/rc, each term is
 * the plain one times a factor that makes energy and force vanish at rc:
 *   E_qq = K q_i q_j (1 - x)^2 / R = K q_i q_j (1/R - 2/rc + R/rc^2)
 *   E_dq = K q_j a h,  E_qd = -K q_i b h,  h = (1 - 3x^2 + 2x^3)/R^3 = 1/R^3 - 3/(R rc^2) + 2/rc^3
 *   E_dd = K B [c/R^3 - 3 a b/R^5],  B = 1 - 4x^3 + 3x^4
 * The derivatives are those above with g -> h, -3/R^5 (the radial part of d(1/R^3)/dr, per R)
 * -> h'/R = -3/R^5 + 3/(R^3 rc^2), and for E_dd a factor B on every term plus the radial
 * B'/R = 12 x (x - 1)/rc^2 times the bracket. This is Allen-Germano's shifted force, not
 * OpenMD's damped shifted force (no erfc damping). */
#ifndef MESOGPU_PHYSICS_BEAD_ELECTROSTATICS_H
#define MESOGPU_PHYSICS_BEAD_ELECTROSTATICS_H

#include "meso_hd.h"
#include "quaternion.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  // the long-range treatment; values are stable (a kernel may switch on them)
  enum class BeadElec : int { cut = 0, rf = 1, sf = 2 };

  constexpr double bead_debye = 0.208194;    // e Angstrom per Debye (as ssd.h's ssd_debye)

  template <typename Real> struct BeadElecParams {
    Real qqrd2e;    // K
    Real cutsq;     // rc^2
    BeadElec mode;
    Real eps_rf;    // reaction-field dielectric (rf only)
    Real k_rf;      // k (0 unless rf)
    Real c_rf;      // c_rf (0 unless rf)
    Real rc_inv;    // 1/rc (read by sf only)
  };

  template <typename Real>
  MESO_HD BeadElecParams<Real> make_bead_elec_params(BeadElec mode, Real rc, Real eps_rf,
                                                     Real qqrd2e)
  {
    BeadElecParams<Real> p;
    p.qqrd2e = qqrd2e;
    p.cutsq = rc * rc;
    p.mode = mode;
    p.eps_rf = eps_rf;
    p.k_rf = Real(0);
    p.c_rf = Real(0);
    p.rc_inv = Real(1) / rc;
    if (mode == BeadElec::rf) {
      p.k_rf = (eps_rf - Real(1)) / ((Real(2) * eps_rf + Real(1)) * rc * rc * rc);
      p.c_rf = Real(1) / rc + p.k_rf * rc * rc;
    }
    return p;
  }

  // the lab-frame dipole p = mu R(q) b of a bead with quaternion q (LAMMPS's (w, x, y, z)),
  // magnitude mu and unit body direction b
  template <typename Real>
  MESO_HD void body_dipole(const Real q[4], Real mu, const Real b[3], Real p[3])
  {
    Real m[9];
    quat_to_rotation(q, m);
    for (int d = 0; d < 3; ++d)
      p[d] = mu * (m[3 * d] * b[0] + m[3 * d + 1] * b[1] + m[3 * d + 2] * b[2]);
  }

  // The pair (i, j): r_ij = x_j - x_i; charges q_i, q_j; lab dipoles p_i, p_j (zero vectors
  // for beads without a dipole). Outputs the energy, the force on j (F_i = -F_j) and the
  // lab-frame torques on i and j. Returns false, with every output 0, for R >= rc or R = 0.
  template <typename Real>
  MESO_HD bool bead_elec_pair(const BeadElecParams<Real> &p, const Real r_ij[3], Real q_i, Real q_j,
                              const Real p_i[3], const Real p_j[3], Real &e, Real f_j[3],
                              Real tau_i[3], Real tau_j[3])
  {
    e = Real(0);
    for (int d = 0; d < 3; ++d) f_j[d] = tau_i[d] = tau_j[d] = Real(0);
    const Real rsq = r_ij[0] * r_ij[0] + r_ij[1] * r_ij[1] + r_ij[2] * r_ij[2];
    if (rsq >= p.cutsq || !(rsq > Real(0))) return false;
    const Real ir = Real(1) / sqrt(rsq), ir2 = ir * ir, ir3 = ir2 * ir, ir5 = ir3 * ir2;
    const Real K = p.qqrd2e, k2 = Real(2) * p.k_rf;
    const bool sf = p.mode == BeadElec::sf;
    const bool di = p_i[0] != Real(0) || p_i[1] != Real(0) || p_i[2] != Real(0);
    const bool dj = p_j[0] != Real(0) || p_j[1] != Real(0) || p_j[2] != Real(0);
    const Real a = p_i[0] * r_ij[0] + p_i[1] * r_ij[1] + p_i[2] * r_ij[2];
    const Real b = p_j[0] * r_ij[0] + p_j[1] * r_ij[1] + p_j[2] * r_ij[2];
    // the charge-dipole factor g (cut, rf: 1/R^3 - 2k; sf: h) and its radial derivative per R
    Real g = ir3 - k2, gr = Real(-3) * ir5;
    // the dipole-dipole factor B and B'/R (1 and 0 but for sf)
    Real B = Real(1), Br = Real(0);
    const Real rci = p.rc_inv, rci2 = rci * rci;
    if (sf) {
      const Real x = rsq * ir * rci, x3 = x * x * x;
      g = ir3 - Real(3) * ir * rci2 + Real(2) * rci2 * rci;
      gr = Real(-3) * ir5 + Real(3) * ir3 * rci2;
      B = Real(1) - Real(4) * x3 + Real(3) * x3 * x;
      Br = Real(12) * x * (x - Real(1)) * rci2;
    }

    Real dv[3] = {Real(0), Real(0), Real(0)};     // dE/dr
    Real dpi[3] = {Real(0), Real(0), Real(0)};    // dE/dp_i
    Real dpj[3] = {Real(0), Real(0), Real(0)};    // dE/dp_j

    if (q_i != Real(0) && q_j != Real(0)) {
      const Real qq = K * q_i * q_j;
      Real s;
      if (sf) {
        const Real R = rsq * ir;
        e += qq * (ir - Real(2) * rci + R * rci2);
        s = qq * (ir * rci2 - ir3);
      } else {
        e += qq * (ir + p.k_rf * rsq - p.c_rf);
        s = qq * (k2 - ir3);
      }
      for (int d = 0; d < 3; ++d) dv[d] += s * r_ij[d];
    }
    if (di && q_j != Real(0)) {
      const Real kq = K * q_j;
      e += kq * a * g;
      for (int d = 0; d < 3; ++d) {
        dv[d] += kq * (g * p_i[d] + a * gr * r_ij[d]);
        dpi[d] += kq * g * r_ij[d];
      }
    }
    if (dj && q_i != Real(0)) {
      const Real kq = K * q_i;
      e -= kq * b * g;
      for (int d = 0; d < 3; ++d) {
        dv[d] -= kq * (g * p_j[d] + b * gr * r_ij[d]);
        dpj[d] -= kq * g * r_ij[d];
      }
    }
    if (di && dj) {
      const Real c = p_i[0] * p_j[0] + p_i[1] * p_j[1] + p_i[2] * p_j[2];
      const Real f = c * ir3 - Real(3) * a * b * ir5;    // the bare dipole-dipole bracket
      e += K * (B * f - k2 * c);
      const Real radial = K * (B * (Real(-3) * c * ir5 + Real(15) * a * b * ir5 * ir2) + Br * f);
      const Real KB = K * B;
      for (int d = 0; d < 3; ++d) {
        dv[d] += radial * r_ij[d] - Real(3) * KB * ir5 * (b * p_i[d] + a * p_j[d]);
        dpi[d] += KB * (ir3 * p_j[d] - Real(3) * b * ir5 * r_ij[d]) - K * k2 * p_j[d];
        dpj[d] += KB * (ir3 * p_i[d] - Real(3) * a * ir5 * r_ij[d]) - K * k2 * p_i[d];
      }
    }

    for (int d = 0; d < 3; ++d) f_j[d] = -dv[d];
    // tau = -p x dE/dp
    tau_i[0] = -(p_i[1] * dpi[2] - p_i[2] * dpi[1]);
    tau_i[1] = -(p_i[2] * dpi[0] - p_i[0] * dpi[2]);
    tau_i[2] = -(p_i[0] * dpi[1] - p_i[1] * dpi[0]);
    tau_j[0] = -(p_j[1] * dpj[2] - p_j[2] * dpj[1]);
    tau_j[1] = -(p_j[2] * dpj[0] - p_j[0] * dpj[2]);
    tau_j[2] = -(p_j[0] * dpj[1] - p_j[1] * dpj[0]);
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
