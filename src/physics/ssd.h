/* mesogpu: the soft-sticky-dipole (SSD) family of one-site rigid water models, the pair
 * evaluator of pair_style ssd and ssd/cuda (cuda/forces/pair_ssd.cu). Every function here is
 * MESO_HD and free of containers, exceptions and strings, so the same code serves the CPU style and
 * the CUDA kernel.
 *
 * References (the parameter sets of ssd_type()):
 *   SSD     Y. Liu and T. Ichiye, J. Phys. Chem. 100, 2723 (1996).
 *   sticky  OpenMD's Sticky.cpp cites A. Chandra and T. Ichiye, J. Chem. Phys. 111, 2701
 *           (1999) for the sticky term as coded (w and w'); not checked here.
 *   SSD1    M.-L. Tan, J. T. Fischer, A. Chandra, B. R. Brooks and T. Ichiye, Chem. Phys.
 *           Lett. 376, 646 (2003), doi:10.1016/S0009-2614(03)01044-3 (OpenMD's water force
 *           field credits SSD and SSD1 to it; title not checked).
 *   SSD/E, SSD/RF  C. J. Fennell and J. D. Gezelter, "On the structural and transport
 *           properties of the soft sticky dipole and related single-point water models",
 *           J. Chem. Phys. 120, 9175 (2004), doi:10.1063/1.1697381.
 * The formulas are those of the project's MODELS.md section 5.
 *
 * Units: LAMMPS `real` (Angstrom, kcal/mol). Dipoles are given in Debye and converted with
 * 1 D = 0.208194 e Angstrom; the Coulomb constant is 332.06371 kcal Angstrom/(mol e^2), LAMMPS
 * real units' qqr2e (a style that runs under LAMMPS may pass force->qqr2e instead).
 *
 * Frames. q = (w, x, y, z) is a LAMMPS quaternion and R(q) its rotation matrix (body -> lab,
 * MathExtra::quat_to_mat). The evaluator takes A = R(q)^T, the lab -> body rotation whose ROWS
 * are the body axes in the lab frame (OpenMD's convention, so an OpenMD quaternion means the
 * same orientation). Body z is the dipole (the H-O-H bisector, pointing to the H side); the H
 * atoms lie in the body y-z plane at +z.
 *
 * Geometry (MODELS.md's, not LAMMPS's delx = x_i - x_j):
 *   r_ij = x_j - x_i, r = |r_ij|, u_i = body z of i (row 2 of A_i)
 *   (x_i, y_i, z_i) = A_i r_ij          body coordinates of j seen from i
 *   (x_j, y_j, z_j) = A_j r_ji = -A_j r_ij   of i seen from j (note r_ji)
 *
 * Energy V = V_LJ + V_dp + V_sp:
 *   V_LJ = 4 eps [(sig/r)^12 - (sig/r)^6] - V_shift  for r < lj_cut: plain truncation, with
 *          V_shift = 0 (ljmode cut) or the value at lj_cut (ljmode shift: energy shift only,
 *          the force is still cut). ljmode switch (SsdLj::sw, OOPSE's do_lj_pair as used for
 *          SSD/RF): V_LJ = S(r) 4 eps [..] with S = ssd_switch(r, lj_sw, lj_cut), lj_sw = the
 *          switching radius coul_sw of rf_switch, force -d(S V)/dr including dS/dr V, so energy
 *          and force go continuously to 0 at lj_cut.
 *   V_dp = C / r^3 [u_i.u_j - 3 (u_i.e)(u_j.e)],  C = qqr2e mu_i mu_j,  e = r_ij / r,
 *          for r < coul_cut (plain truncation)
 *   V_rf = -C k_rf u_i.u_j, k_rf = 2 (eps_rf - 1) / ((2 eps_rf + 1) coul_cut^3), for r < coul_cut,
 *          only in SsdElectrostatics::rf_constant (MODELS.md's choice (b))
 *   SsdElectrostatics::rf_switch (MODELS.md's choice (a), the original SSD/RF of Fennell &
 *          Gezelter 2004 as OOPSE computed it): both V_dp and V_rf (the same k_rf) are multiplied
 * by OOPSE's cubic switch S(r) = 1 (r < coul_sw), (rc - r)^2 (rc + 2r - 3 coul_sw) / (rc -
 * coul_sw)^3 (coul_sw <= r < rc), 0 beyond, rc = coul_cut -- ssd_switch() with rl = coul_sw, ru =
 * coul_cut. The force includes dS/dr on both terms (OOPSE: doForces' swderiv for V_dp,
 * reaction_field.F90's rf_correct_forces for V_rf), so energy and force are continuous at coul_sw
 * and coul_cut. OOPSE's reaction field also has a self term -k_rf qqr2e mu_i^2 / 2 per dipole
 * (accumulate_self_rf): a constant, no force or torque, NOT part of ssd_pair (ssd_rf_self_energy()
 * gives its value). Sources: doc/pair_ssd.md. SsdElectrostatics::sf multiplies V_dp by B(x) = 1 -
 * 4x^3 + 3x^4, x = r/coul_cut: the shifted-force dipole-dipole term of M. P. Allen and G. Germano,
 * Mol. Phys. 104, 3225 (2006), doi:10.1080/00268970601075238, as LAMMPS's pair_style
 * lj/sf/dipole/sf codes it; B(1) = B'(1) = 0, so energy, force and torque go to zero at coul_cut.
 * Not OpenMD's damped shifted force. dV/dr picks up C B'(r)/r [..] r_ij with B'(r)/r = 12 x (x -
 * 1)/coul_cut^2; dV/du gets the factor B. V_sp = (nu0/2) s(r) w + (nu0'/2) s'(r) w'   (nu0' = nu0
 * in all four published sets) w = w_i + w_j,    w_i = 2 (x_i^2 - y_i^2) z_i / r^3 w' = w'_i + w'_j,
 * w'_i = (z_i/r - 0.6)^2 (z_i/r + 0.8)^2 - w0 s(r) = 1 (r < rl), (ru - r)^2 (ru + 2r - 3rl) / (ru -
 * rl)^3 (rl <= r < ru), 0 beyond; s' the same with rl', ru'. s is C1: ds/dr = -6 (ru - r)(r -
 * rl)/(ru - rl)^3.
 *
 * Electrostatics: MODELS.md lists three "SSD/RF" forms and DSF. Implemented: cut (plain
 * truncation), rf_constant (choice (b)), rf_switch (choice (a), the form of the published SSD/RF
 * liquid properties; OOPSE switched the LJ term with the same S(r): ljmode switch) and sf
 * (Allen-Germano shifted force, above; energy and force continuous at coul_cut). Not implemented
 * (enum values reserved, see SsdElectrostatics): (c) OpenMD's current reaction_field; damped
 * shifted force. rf_constant's energy jumps at coul_cut by the full pair term (so does cut's).
 *
 * Derivatives (written out so the kernel need not be trusted blindly; unittest/units/test_ssd.cpp
 * checks every one against finite differences):
 *   F_j = -dV/dr_ij, F_i = -F_j.
 *   Torques, mesogpu's convention tau = -dV/dtheta (a rotation of the whole body by theta about a
 *   lab axis). For a body vector u, tau = -u x dV/du (= u x g with the gorque g = -dV/du).
 *   The sticky term depends on i's orientation through rho_i = A_i r_ij; with G_i = A_i^T grad_rho
 *   V (lab frame), dV/dr_ij picks up G_i and tau_i = r_ij x G_i; for j, rho_j = -A_j r_ij gives
 *   -G_j in dV/dr_ij and tau_j = -r_ij x G_j. w and w' are homogeneous of degree 0 in rho, so
 *   G is normal to r_ij. Rotational invariance: tau_i + tau_j + r_ij x F_j = 0. */
#ifndef MESOGPU_PHYSICS_SSD_H
#define MESOGPU_PHYSICS_SSD_H

#include "meso_hd.h"
#include "quaternion.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  // the named parameter sets of MODELS.md's table
  enum class SsdSet : int { ssd = 0, ssd1 = 1, ssde = 2, ssdrf = 3 };

  // Long-range treatment of the dipole-dipole term. Values are stable: a kernel may switch on
  // them. 2 = rf_switch: MODELS.md (a), Fennell & Gezelter 2004 as OOPSE coded it (header
  // comment). Reserved for later (not accepted by anything yet): 3 = rf_shifted (MODELS.md (c),
  // OpenMD's reaction_field), 4 = dsf (damped shifted force). 5 = sf: Allen-Germano shifted
  // force (header comment).
  enum class SsdElectrostatics : int { cut = 0, rf_constant = 1, rf_switch = 2, sf = 5 };

  // LJ truncation at lj_cut. 2 = switch: V_LJ times OOPSE's cubic S(r) between lj_sw and lj_cut
  // (header comment; OOPSE's do_lj_pair for SSD/RF). Values are stable.
  enum class SsdLj : int { cut = 0, shift = 1, sw = 2 };

  // conversions of the header comment (1 D in e Angstrom; qqr2e of LAMMPS real units)
  constexpr double ssd_debye = 0.208194;
  constexpr double ssd_qqr2e = 332.06371;

  // One molecule type as the papers list it (mu in Debye).
  template <typename Real> struct SsdType {
    Real sigma;      // Angstrom
    Real epsilon;    // kcal/mol
    Real mu;         // Debye
    Real nu0;        // kcal/mol, strength of s w
    Real nu0p;       // kcal/mol, strength of s' w' (= nu0 in the published sets)
    Real w0;
    Real rl, ru;      // switch of the w term, Angstrom
    Real rlp, rup;    // switch of the w' term
  };

  // MODELS.md section 5's table (the same numbers as OpenMD's DUFF/Water force fields)
  template <typename Real> MESO_HD SsdType<Real> ssd_type(SsdSet set)
  {
    SsdType<Real> t;
    t.epsilon = Real(0.152);
    t.w0 = Real(0.07715);
    switch (set) {
      case SsdSet::ssd1:
        t.sigma = Real(3.016);
        t.mu = Real(2.35);
        t.nu0 = Real(3.6613);
        t.rl = Real(2.75);
        t.ru = Real(3.35);
        t.rlp = Real(2.75);
        t.rup = Real(4.0);
        break;
      case SsdSet::ssde:
        t.sigma = Real(3.035);
        t.mu = Real(2.42);
        t.nu0 = Real(3.90);
        t.rl = Real(2.40);
        t.ru = Real(3.80);
        t.rlp = Real(2.75);
        t.rup = Real(3.35);
        break;
      case SsdSet::ssdrf:
        t.sigma = Real(3.019);
        t.mu = Real(2.48);
        t.nu0 = Real(3.90);
        t.rl = Real(2.40);
        t.ru = Real(3.80);
        t.rlp = Real(2.75);
        t.rup = Real(3.35);
        break;
      default:    // SsdSet::ssd
        t.sigma = Real(3.051);
        t.mu = Real(2.35);
        t.nu0 = Real(3.7284);
        t.rl = Real(2.75);
        t.ru = Real(3.35);
        t.rlp = Real(2.75);
        t.rup = Real(4.0);
        break;
    }
    t.nu0p = t.nu0;
    return t;
  }

  // One type pair as the evaluator sees it; built once by make_ssd_params.
  template <typename Real> struct SsdParams {
    Real sigma, epsilon;    // mixed LJ
    Real lj1, lj2;          // 4 eps sig^12, 4 eps sig^6
    Real lj_cutsq;
    Real lj_offset;     // subtracted from V_LJ (0 unless SsdLj::shift)
    Real lj_cut;        // ru of the LJ switch (read only when lj_sw > 0)
    Real lj_sw;         // where the LJ switch starts (0 unless SsdLj::sw: no switch)
    Real mu_i, mu_j;    // e Angstrom
    Real dip;           // C = qqr2e mu_i mu_j, kcal Angstrom^3/mol
    SsdElectrostatics elec;
    Real coul_cutsq;
    Real coul_rcinv;          // 1/coul_cut (read by sf only)
    Real coul_cut;            // rc of the rf_switch switch
    Real coul_sw;             // where the rf_switch switch starts (0 unless rf_switch)
    Real eps_rf;              // reaction-field dielectric (rf_constant, rf_switch)
    Real rf;                  // k_rf (0 unless rf_constant or rf_switch)
    Real nu0, nu0p, w0;       // mixed geometrically
    Real rl, ru, rlp, rup;    // mixed arithmetically
    Real sticky_cut;          // max(ru, rup)
    Real cutsq;               // the largest of the three cutoffs, squared
  };

  // Type i with type j. Mixing (MODELS.md / OpenMD's Sticky.cpp): arithmetic in rl, ru, rl', ru',
  // geometric in w0, nu0, nu0'; LJ by Lorentz-Berthelot (OpenMD's default; a pair style may
  // override sigma and epsilon afterwards). eps_rf is read only for rf_constant and rf_switch,
  // coul_sw (the switching radius, 0 < coul_sw < coul_cut) only for rf_switch and for
  // ljmode SsdLj::sw, whose LJ switch runs from coul_sw to lj_cut (OOPSE's single switching
  // radius; 0 < coul_sw < lj_cut). Range checks are the caller's.
  template <typename Real>
  MESO_HD SsdParams<Real> make_ssd_params(const SsdType<Real> &ti, const SsdType<Real> &tj,
                                          SsdLj ljmode, Real lj_cut, SsdElectrostatics elec,
                                          Real coul_cut, Real eps_rf, Real qqr2e = Real(ssd_qqr2e),
                                          Real coul_sw = Real(0))
  {
    SsdParams<Real> p;
    p.sigma = Real(0.5) * (ti.sigma + tj.sigma);
    p.epsilon = sqrt(ti.epsilon * tj.epsilon);
    const Real s2 = p.sigma * p.sigma, s6 = s2 * s2 * s2;
    p.lj1 = Real(4) * p.epsilon * s6 * s6;
    p.lj2 = Real(4) * p.epsilon * s6;
    p.lj_cutsq = lj_cut * lj_cut;
    p.lj_offset = Real(0);
    p.lj_cut = lj_cut;
    p.lj_sw = ljmode == SsdLj::sw ? coul_sw : Real(0);
    if (ljmode == SsdLj::shift && lj_cut > Real(0)) {
      const Real ic6 = Real(1) / (p.lj_cutsq * p.lj_cutsq * p.lj_cutsq);
      p.lj_offset = ic6 * (p.lj1 * ic6 - p.lj2);
    }
    p.mu_i = ti.mu * Real(ssd_debye);
    p.mu_j = tj.mu * Real(ssd_debye);
    p.dip = qqr2e * p.mu_i * p.mu_j;
    p.elec = elec;
    p.coul_cutsq = coul_cut * coul_cut;
    p.coul_rcinv = Real(1) / coul_cut;
    p.coul_cut = coul_cut;
    p.coul_sw = elec == SsdElectrostatics::rf_switch ? coul_sw : Real(0);
    p.eps_rf = eps_rf;
    p.rf = Real(0);
    if (elec == SsdElectrostatics::rf_constant || elec == SsdElectrostatics::rf_switch)
      p.rf = Real(2) * (eps_rf - Real(1)) /
             ((Real(2) * eps_rf + Real(1)) * coul_cut * coul_cut * coul_cut);
    p.nu0 = sqrt(ti.nu0 * tj.nu0);
    p.nu0p = sqrt(ti.nu0p * tj.nu0p);
    p.w0 = sqrt(ti.w0 * tj.w0);
    p.rl = Real(0.5) * (ti.rl + tj.rl);
    p.ru = Real(0.5) * (ti.ru + tj.ru);
    p.rlp = Real(0.5) * (ti.rlp + tj.rlp);
    p.rup = Real(0.5) * (ti.rup + tj.rup);
    p.sticky_cut = p.ru > p.rup ? p.ru : p.rup;
    Real c = p.sticky_cut > lj_cut ? p.sticky_cut : lj_cut;
    c = c > coul_cut ? c : coul_cut;
    p.cutsq = c * c;
    return p;
  }

  // a named set with itself
  template <typename Real>
  MESO_HD SsdParams<Real> make_ssd_params(SsdSet set, SsdLj ljmode, Real lj_cut,
                                          SsdElectrostatics elec, Real coul_cut, Real eps_rf,
                                          Real qqr2e = Real(ssd_qqr2e), Real coul_sw = Real(0))
  {
    const SsdType<Real> t = ssd_type<Real>(set);
    return make_ssd_params(t, t, ljmode, lj_cut, elec, coul_cut, eps_rf, qqr2e, coul_sw);
  }

  // OOPSE's reaction-field self term of one dipole, -k_rf qqr2e mu_i^2 / 2 (p of the pair (i, i)):
  // a constant per molecule under rf_switch (no force, no torque), which ssd_pair and pair ssd
  // leave out; add N times it to compare a potential energy with OOPSE's. 0 for other modes.
  template <typename Real> MESO_HD Real ssd_rf_self_energy(const SsdParams<Real> &p_ii)
  {
    return p_ii.elec == SsdElectrostatics::rf_switch ? Real(-0.5) * p_ii.rf * p_ii.dip : Real(0);
  }

  // the pair under special bonds: the energy is linear in (lj1, lj2, lj_offset, nu0, nu0p)
  // and in dip, so factor_lj scales the van der Waals part (LJ + sticky) and factor_coul the
  // dipole part, exactly (the CPU style and the CUDA kernel both call this)
  template <typename Real>
  MESO_HD SsdParams<Real> ssd_special_scaled(const SsdParams<Real> &p, Real factor_lj,
                                             Real factor_coul)
  {
    SsdParams<Real> q = p;
    q.lj1 *= factor_lj;
    q.lj2 *= factor_lj;
    q.lj_offset *= factor_lj;
    q.nu0 *= factor_lj;
    q.nu0p *= factor_lj;
    q.dip *= factor_coul;
    return q;
  }

  // ---- pieces of the sticky term, exposed for the tests ----------------------------------

  // s(r) and ds/dr: 1 below rl, the cubic between, 0 from ru on
  template <typename Real> MESO_HD void ssd_switch(Real r, Real rl, Real ru, Real &s, Real &ds)
  {
    if (r < rl) {
      s = Real(1);
      ds = Real(0);
    } else if (r < ru) {
      const Real d = ru - rl, a = ru - r, inv_d3 = Real(1) / (d * d * d);
      s = a * a * (ru + Real(2) * r - Real(3) * rl) * inv_d3;
      ds = Real(-6) * a * (r - rl) * inv_d3;
    } else {
      s = Real(0);
      ds = Real(0);
    }
  }

  // w = 2 (x^2 - y^2) z / r^3 at body coordinates rho (r = |rho|), and its gradient in rho
  template <typename Real> MESO_HD Real ssd_w(const Real rho[3], Real r, Real grad[3])
  {
    const Real x = rho[0], y = rho[1], z = rho[2];
    const Real ir = Real(1) / r, ir2 = ir * ir, ir3 = ir2 * ir;
    const Real d = x * x - y * y;
    const Real w = Real(2) * d * z * ir3;
    // d/drho of r^-3 is -3 rho / r^5: the second term of each component
    grad[0] = Real(4) * x * z * ir3 - Real(3) * w * x * ir2;
    grad[1] = Real(-4) * y * z * ir3 - Real(3) * w * y * ir2;
    grad[2] = Real(2) * d * ir3 - Real(3) * w * z * ir2;
    return w;
  }

  // w' = (t - 0.6)^2 (t + 0.8)^2 - w0 with t = z / r, and its gradient in rho
  template <typename Real> MESO_HD Real ssd_wp(const Real rho[3], Real r, Real w0, Real grad[3])
  {
    const Real ir = Real(1) / r;
    const Real t = rho[2] * ir;
    const Real a = t - Real(0.6), b = t + Real(0.8);
    const Real dfdt = Real(2) * a * b * (a + b);
    // dt/drho = (e_z - t rho/r) / r
    grad[0] = -dfdt * t * rho[0] * ir * ir;
    grad[1] = -dfdt * t * rho[1] * ir * ir;
    grad[2] = dfdt * (Real(1) - t * t) * ir;
    return a * a * b * b - w0;
  }

  // ---- the pair ---------------------------------------------------------------------------

  // The pair (i, j): r_ij = x_j - x_i; a_i, a_j the lab -> body rotations A = R(q)^T, row-major
  // (a[3 * row + col]; row 2 is the dipole direction). Outputs the energy split as LAMMPS tallies
  // it (e_vdw = LJ + sticky, e_coul = dipole + reaction field; the pair energy is their sum), the
  // force on j (F_i = -F_j) and the lab-frame torques on i and j. Returns false, with every
  // output 0, for r >= the largest cutoff or r = 0 (no direction).
  template <typename Real>
  MESO_HD bool ssd_pair(const SsdParams<Real> &p, const Real r_ij[3], const Real a_i[9],
                        const Real a_j[9], Real &e_vdw, Real &e_coul, Real f_j[3], Real tau_i[3],
                        Real tau_j[3])
  {
    e_vdw = e_coul = Real(0);
    for (int d = 0; d < 3; ++d) f_j[d] = tau_i[d] = tau_j[d] = Real(0);
    const Real rsq = r_ij[0] * r_ij[0] + r_ij[1] * r_ij[1] + r_ij[2] * r_ij[2];
    if (rsq >= p.cutsq || !(rsq > Real(0))) return false;
    const Real r = sqrt(rsq), ir = Real(1) / r, ir2 = ir * ir;

    // dV/dr_ij, and dV/du for the two dipoles, accumulated below
    Real dv[3] = {Real(0), Real(0), Real(0)};

    if (rsq < p.lj_cutsq) {
      const Real ir6 = ir2 * ir2 * ir2;
      const Real vlj = ir6 * (p.lj1 * ir6 - p.lj2) - p.lj_offset;
      Real dvdr_over_r = -ir6 * (Real(12) * p.lj1 * ir6 - Real(6) * p.lj2) * ir2;
      if (p.lj_sw > Real(0)) {
        // SsdLj::sw: S V_LJ, d/dr = S V' + S' V (OOPSE's do_lj_pair)
        Real S, dS;
        ssd_switch(r, p.lj_sw, p.lj_cut, S, dS);
        e_vdw += S * vlj;
        dvdr_over_r = S * dvdr_over_r + dS * vlj * ir;
      } else {
        e_vdw += vlj;
      }
      for (int d = 0; d < 3; ++d) dv[d] += dvdr_over_r * r_ij[d];
    }

    if (rsq < p.coul_cutsq && p.dip != Real(0)) {
      const Real *ui = a_i + 6, *uj = a_j + 6;
      const Real a = ui[0] * r_ij[0] + ui[1] * r_ij[1] + ui[2] * r_ij[2];    // u_i . r_ij
      const Real b = uj[0] * r_ij[0] + uj[1] * r_ij[1] + uj[2] * r_ij[2];    // u_j . r_ij
      const Real c = ui[0] * uj[0] + ui[1] * uj[1] + ui[2] * uj[2];
      const Real ir3 = ir2 * ir, ir5 = ir3 * ir2;
      const Real cd = p.dip;
      // the factor B of the direct term and B'/r (1 and 0 unless sf or rf_switch), and G, G'/r
      // of the reaction-field term (1 and 0 unless rf_switch)
      Real B = Real(1), Br = Real(0), G = Real(1), Gr = Real(0);
      if (p.elec == SsdElectrostatics::sf) {
        const Real x = r * p.coul_rcinv, x3 = x * x * x;
        B = Real(1) - Real(4) * x3 + Real(3) * x3 * x;
        Br = Real(12) * x * (x - Real(1)) * p.coul_rcinv * p.coul_rcinv;
      } else if (p.elec == SsdElectrostatics::rf_switch) {
        Real dS;
        ssd_switch(r, p.coul_sw, p.coul_cut, G, dS);
        B = G;
        Br = Gr = dS * ir;
      }
      const Real f = c * ir3 - Real(3) * a * b * ir5;    // the bare dipole-dipole bracket
      // the reaction field couples only the orientations (a torque; a force only through G)
      const Real krf = cd * p.rf * G;
      e_coul = cd * B * f - krf * c;
      const Real radial =
          cd * (B * (Real(-3) * c * ir5 + Real(15) * a * b * ir5 * ir2) + Br * f - Gr * p.rf * c);
      const Real cB = cd * B;
      Real dui[3], duj[3];    // dV/du_i, dV/du_j
      for (int d = 0; d < 3; ++d) {
        dv[d] += radial * r_ij[d] - Real(3) * cB * ir5 * (b * ui[d] + a * uj[d]);
        dui[d] = cB * (ir3 * uj[d] - Real(3) * b * ir5 * r_ij[d]) - krf * uj[d];
        duj[d] = cB * (ir3 * ui[d] - Real(3) * a * ir5 * r_ij[d]) - krf * ui[d];
      }
      // tau = -u x dV/du
      tau_i[0] -= ui[1] * dui[2] - ui[2] * dui[1];
      tau_i[1] -= ui[2] * dui[0] - ui[0] * dui[2];
      tau_i[2] -= ui[0] * dui[1] - ui[1] * dui[0];
      tau_j[0] -= uj[1] * duj[2] - uj[2] * duj[1];
      tau_j[1] -= uj[2] * duj[0] - uj[0] * duj[2];
      tau_j[2] -= uj[0] * duj[1] - uj[1] * duj[0];
    }

    if (r < p.sticky_cut) {
      Real s, ds, sp, dsp;
      ssd_switch(r, p.rl, p.ru, s, ds);
      ssd_switch(r, p.rlp, p.rup, sp, dsp);
      Real rho_i[3], rho_j[3];
      for (int k = 0; k < 3; ++k) {
        rho_i[k] = a_i[3 * k] * r_ij[0] + a_i[3 * k + 1] * r_ij[1] + a_i[3 * k + 2] * r_ij[2];
        rho_j[k] = -(a_j[3 * k] * r_ij[0] + a_j[3 * k + 1] * r_ij[1] + a_j[3 * k + 2] * r_ij[2]);
      }
      Real gwi[3], gwj[3], gpi[3], gpj[3];
      const Real wi = ssd_w(rho_i, r, gwi), wj = ssd_w(rho_j, r, gwj);
      const Real wpi = ssd_wp(rho_i, r, p.w0, gpi), wpj = ssd_wp(rho_j, r, p.w0, gpj);
      const Real hs = Real(0.5) * p.nu0 * s, hsp = Real(0.5) * p.nu0p * sp;
      e_vdw += hs * (wi + wj) + hsp * (wpi + wpj);
      // body gradients of V_sp in rho_i, rho_j, then to the lab frame (A^T g)
      Real gi[3], gj[3], Gi[3], Gj[3];
      for (int k = 0; k < 3; ++k) {
        gi[k] = hs * gwi[k] + hsp * gpi[k];
        gj[k] = hs * gwj[k] + hsp * gpj[k];
      }
      for (int d = 0; d < 3; ++d) {
        Gi[d] = a_i[d] * gi[0] + a_i[3 + d] * gi[1] + a_i[6 + d] * gi[2];
        Gj[d] = a_j[d] * gj[0] + a_j[3 + d] * gj[1] + a_j[6 + d] * gj[2];
      }
      const Real dsw = Real(0.5) * (p.nu0 * ds * (wi + wj) + p.nu0p * dsp * (wpi + wpj)) * ir;
      for (int d = 0; d < 3; ++d) dv[d] += dsw * r_ij[d] + Gi[d] - Gj[d];
      tau_i[0] += r_ij[1] * Gi[2] - r_ij[2] * Gi[1];
      tau_i[1] += r_ij[2] * Gi[0] - r_ij[0] * Gi[2];
      tau_i[2] += r_ij[0] * Gi[1] - r_ij[1] * Gi[0];
      tau_j[0] -= r_ij[1] * Gj[2] - r_ij[2] * Gj[1];
      tau_j[1] -= r_ij[2] * Gj[0] - r_ij[0] * Gj[2];
      tau_j[2] -= r_ij[0] * Gj[1] - r_ij[1] * Gj[0];
    }

    for (int d = 0; d < 3; ++d) f_j[d] = -dv[d];
    return true;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
