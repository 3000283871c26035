/* mesogpu: symplectic rotational integrator for single-site rigid bodies with a full
 * orientation, NO_SQUISH (T. F. Miller III, M. Eleftheriou, P. Pattnaik, A. Ndirango,
 * D. Newns, G. J. Martyna, J. Chem. Phys. 116, 8649 (2002); journal, volume and pages as
 * LAMMPS's RIGID/fix_rigid_nh.cpp cites them, the paper's text itself was not available
 * here). What is implemented is the scheme as LAMMPS's fix rigid/nve runs it
 * (MathExtra::no_squish_rotate and FixRigidNH::initial_integrate/setup, LAMMPS 2026-07-04:
 * same permutations, order and conjugate-momentum convention;
 * unittest/lammps/test_lammps_rigid_rotation.cpp checks that against MathExtra), and as
 * Tuckerman, "Statistical Mechanics: Theory and Molecular Simulation" (OUP 2010), sec. 3.12
 * introduces it (omega^(4) = 2 S^T(q) qdot).
 *
 * State: the unit quaternion q = (w, x, y, z) (LAMMPS's convention: R(q) = body -> lab, the
 * matrix of quat_to_rotation in quaternion.h / MathExtra::quat_to_mat) and its conjugate momentum
 * p, a 4-vector. Principal moments I = (Ixx, Iyy, Izz) in the body frame. With
 *
 *   S(q) = | q0 -q1 -q2 -q3 |        S(q) (0, v) = q (x) (0, v), the Hamilton product,
 *          | q1  q0 -q3  q2 |        and S(q)^T S(q) = |q|^2 1,
 *          | q2  q3  q0 -q1 |
 *          | q3 -q2  q1  q0 |
 *
 * the momentum is p = 2 S(q) (0, L_body) and back L_body = (1/2) [S(q)^T p]_{1..3}; the
 * lab angular momentum (LAMMPS's atom->angmom for atom_style ellipsoid) is R(q) L_body.
 * P_k q is column k of S(q): P_1 q = (-q1, q0, q3, -q2), P_2 q = (-q2, -q3, q0, q1),
 * P_3 q = (-q3, q2, -q1, q0) (the same permutations act on p). Each P_k is orthogonal and
 * antisymmetric.
 *
 * One step (velocity-Verlet form, tau_body the torque in the body frame):
 *
 *   kick      p <- p + (dt/2) 2 S(q) (0, tau_body)                      rigid_kick
 *   free      P_3(dt/2) P_2(dt/2) P_1(dt) P_2(dt/2) P_3(dt/2)            rigid_free_rotate
 *   (forces at the new q)
 *   kick      p <- p + (dt/2) 2 S(q) (0, tau_body)
 *
 * with the exact flow of the free sub-Hamiltonian H_k = (p^T P_k q)^2 / (8 I_k) over h:
 *
 *   zeta = p^T P_k q / (4 I_k),
 *   q <- cos(zeta h) q + sin(zeta h) P_k q,   p <- cos(zeta h) p + sin(zeta h) P_k p,
 *
 * applied in the order k = 3, 2, 1, 2, 3 (first applied first) with h = dt/2, dt/2, dt,
 * dt/2, dt/2: the order of LAMMPS's FixRigidNH::initial_integrate (verified), said to be the
 * paper's symmetric splitting (unverified against the paper; any palindromic order is
 * second order and time reversible). I_k = 0 (a linear body): that sub-step is skipped,
 * as LAMMPS does.
 *
 * Why no renormalisation: each sub-step is a plane rotation of q (and of p) in the 4-space,
 * q . P_k q = 0 and |P_k q| = |q|, so |q| is kept exactly in exact arithmetic (and q . p = 0
 * as well: the kick adds S(q)(0, .) which is normal to q). Only rounding changes |q|, by a
 * random walk of ~1e-16 per step; the tests measure it over 1e5 steps. A caller that wants
 * to remove that drift may renormalise q (and should then project p onto q's normal space);
 * rigid_renormalize does both, but the scheme itself never calls it.
 *
 * Conservation for free rotation: each sub-flow is the exact flow of an H_k that is
 * invariant under lab rotations (q -> r (x) q), so the lab angular momentum is conserved
 * to rounding. The sub-flows do not commute for an asymmetric top, so the kinetic energy
 * H = sum H_k is not conserved exactly: it oscillates, bounded, with an O(dt^2) amplitude
 * (the splitting error of a symplectic method; also for a symmetric top, since the x and
 * y sub-flows each mix L_z with another component).
 *
 * DLM (A. Dullweber, B. Leimkuhler, R. McLachlan, "Symplectic splitting methods for rigid
 * body molecular dynamics", J. Chem. Phys. 107, 5840 (1997); title and abstract verified
 * from an index page, volume/page from a third-party citation only) uses the same
 * splitting of the free rotor into exact rotations about the principal axes, on a rotation
 * matrix and the body angular momentum; rigid_dlm_free_rotate below is that form on (q,
 * L_body): in exact arithmetic it gives the same map as rigid_free_rotate (the tests check
 * that to rounding).
 *
 * Units: tau in energy, I in mass*distance^2, L in mass*distance^2/time; LAMMPS's ftm2v
 * goes into the kick's time (dtf = dt/2 * ftm2v, as fix rigid/nve does). */
#ifndef MESOGPU_PHYSICS_RIGID_ROTATION_H
#define MESOGPU_PHYSICS_RIGID_ROTATION_H

#include "meso_hd.h"
#include "quaternion.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  namespace rigid {

    // c = P_k a for k = 1, 2, 3 (the permutations of Miller et al.; P_k q = column k of S(q))
    template <typename Real> MESO_HD void perm(int k, const Real *a, Real *c)
    {
      if (k == 1) {
        c[0] = -a[1];
        c[1] = a[0];
        c[2] = a[3];
        c[3] = -a[2];
      } else if (k == 2) {
        c[0] = -a[2];
        c[1] = -a[3];
        c[2] = a[0];
        c[3] = a[1];
      } else {
        c[0] = -a[3];
        c[1] = a[2];
        c[2] = -a[1];
        c[3] = a[0];
      }
    }

    template <typename Real> MESO_HD Real dot4(const Real *a, const Real *b)
    {
      return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    }

  }    // namespace rigid

  // ---- conversions ----------------------------------------------------------------------

  // p = 2 S(q) (0, L_body)
  template <typename Real>
  MESO_HD void rigid_p_from_body_angmom(const Real *q, const Real *L, Real *p)
  {
    p[0] = Real(2) * (-q[1] * L[0] - q[2] * L[1] - q[3] * L[2]);
    p[1] = Real(2) * (q[0] * L[0] - q[3] * L[1] + q[2] * L[2]);
    p[2] = Real(2) * (q[3] * L[0] + q[0] * L[1] - q[1] * L[2]);
    p[3] = Real(2) * (-q[2] * L[0] + q[1] * L[1] + q[0] * L[2]);
  }

  // L_body = (1/2) [S(q)^T p]_{1..3}, L_k = (1/2) p . P_k q
  template <typename Real> MESO_HD void rigid_body_angmom(const Real *q, const Real *p, Real *L)
  {
    L[0] = Real(0.5) * (-q[1] * p[0] + q[0] * p[1] + q[3] * p[2] - q[2] * p[3]);
    L[1] = Real(0.5) * (-q[2] * p[0] - q[3] * p[1] + q[0] * p[2] + q[1] * p[3]);
    L[2] = Real(0.5) * (-q[3] * p[0] + q[2] * p[1] - q[1] * p[2] + q[0] * p[3]);
  }

  // omega_body,k = L_k / I_k (0 where I_k = 0: no rotation about that axis)
  template <typename Real>
  MESO_HD void rigid_body_omega(const Real *q, const Real *p, const Real *inertia, Real *omega)
  {
    Real L[3];
    rigid_body_angmom(q, p, L);
    for (int k = 0; k < 3; ++k) omega[k] = inertia[k] > Real(0) ? L[k] / inertia[k] : Real(0);
  }

  // lab <-> body for any vector: v_lab = R(q) v_body, v_body = R(q)^T v_lab
  template <typename Real> MESO_HD void rigid_body_to_lab(const Real *q, const Real *vb, Real *vl)
  {
    Real m[9];
    quat_to_rotation(q, m);
    for (int r = 0; r < 3; ++r)
      vl[r] = m[3 * r] * vb[0] + m[3 * r + 1] * vb[1] + m[3 * r + 2] * vb[2];
  }
  template <typename Real> MESO_HD void rigid_lab_to_body(const Real *q, const Real *vl, Real *vb)
  {
    Real m[9];
    quat_to_rotation(q, m);
    for (int c = 0; c < 3; ++c) vb[c] = m[c] * vl[0] + m[3 + c] * vl[1] + m[6 + c] * vl[2];
  }

  // LAMMPS's lab angmom -> p, and back
  template <typename Real>
  MESO_HD void rigid_p_from_lab_angmom(const Real *q, const Real *angmom, Real *p)
  {
    Real L[3];
    rigid_lab_to_body(q, angmom, L);
    rigid_p_from_body_angmom(q, L, p);
  }
  template <typename Real> MESO_HD void rigid_lab_angmom(const Real *q, const Real *p, Real *angmom)
  {
    Real L[3];
    rigid_body_angmom(q, p, L);
    rigid_body_to_lab(q, L, angmom);
  }

  // rotational kinetic energy sum_k L_k^2 / (2 I_k) (axes with I_k = 0 carry none)
  template <typename Real>
  MESO_HD Real rigid_kinetic_energy(const Real *q, const Real *p, const Real *inertia)
  {
    Real L[3];
    rigid_body_angmom(q, p, L);
    Real ke = Real(0);
    for (int k = 0; k < 3; ++k)
      if (inertia[k] > Real(0)) ke += L[k] * L[k] / (Real(2) * inertia[k]);
    return ke;
  }

  // ---- NO_SQUISH steps ------------------------------------------------------------------

  // kick: p <- p + 2 h S(q) (0, tau_body); h = dt/2 (times ftm2v in LAMMPS units)
  template <typename Real>
  MESO_HD void rigid_kick(const Real *q, Real *p, const Real *tau_body, Real h)
  {
    Real dp[4];
    rigid_p_from_body_angmom(q, tau_body, dp);    // 2 S(q)(0, tau)
    for (int i = 0; i < 4; ++i) p[i] += h * dp[i];
  }

  // the same kick with the torque in the lab frame (LAMMPS's atom->torque)
  template <typename Real>
  MESO_HD void rigid_kick_lab(const Real *q, Real *p, const Real *tau_lab, Real h)
  {
    Real tb[3];
    rigid_lab_to_body(q, tau_lab, tb);
    rigid_kick(q, p, tb, h);
  }

  // exact flow of H_k over h (k = 1, 2, 3 for body x, y, z)
  template <typename Real>
  MESO_HD void rigid_free_substep(int k, Real *q, Real *p, const Real *inertia, Real h)
  {
    const Real Ik = inertia[k - 1];
    if (!(Ik > Real(0))) return;
    Real kq[4], kp[4];
    rigid::perm(k, q, kq);
    rigid::perm(k, p, kp);
    const Real zeta = rigid::dot4(p, kq) / (Real(4) * Ik);
    const Real c = cos(zeta * h), s = sin(zeta * h);
    for (int i = 0; i < 4; ++i) {
      q[i] = c * q[i] + s * kq[i];
      p[i] = c * p[i] + s * kp[i];
    }
  }

  // free rotation over dt: P_3(dt/2) P_2(dt/2) P_1(dt) P_2(dt/2) P_3(dt/2)
  template <typename Real>
  MESO_HD void rigid_free_rotate(Real *q, Real *p, const Real *inertia, Real dt)
  {
    const Real h = Real(0.5) * dt;
    rigid_free_substep(3, q, p, inertia, h);
    rigid_free_substep(2, q, p, inertia, h);
    rigid_free_substep(1, q, p, inertia, dt);
    rigid_free_substep(2, q, p, inertia, h);
    rigid_free_substep(3, q, p, inertia, h);
  }

  // optional clean-up against rounding (not part of the scheme): q <- q/|q|, p <- p - (p.q) q
  template <typename Real> MESO_HD void rigid_renormalize(Real *q, Real *p)
  {
    const Real n = sqrt(rigid::dot4(q, q));
    for (int i = 0; i < 4; ++i) q[i] /= n;
    const Real pq = rigid::dot4(p, q);
    for (int i = 0; i < 4; ++i) p[i] -= pq * q[i];
  }

  // ---- DLM on (q, L_body) ---------------------------------------------------------------

  // exact flow of L_k^2/(2 I_k) over h: the body turns by theta = h L_k / I_k about its axis k,
  // q <- q (x) (cos(theta/2), sin(theta/2) e_k), and L_body turns by -theta about e_k
  template <typename Real>
  MESO_HD void rigid_dlm_substep(int k, Real *q, Real *L, const Real *inertia, Real h)
  {
    const Real Ik = inertia[k - 1];
    if (!(Ik > Real(0))) return;
    const Real theta = h * L[k - 1] / Ik;
    const Real c = cos(Real(0.5) * theta), s = sin(Real(0.5) * theta);
    // q (x) (c, s e_k) = c q + s P_k q
    Real kq[4];
    rigid::perm(k, q, kq);
    for (int i = 0; i < 4; ++i) q[i] = c * q[i] + s * kq[i];
    const int a = k % 3, b = (k + 1) % 3;    // the two other axes, cyclic (a, b, k)
    const Real ct = cos(theta), st = sin(theta);
    const Real La = L[a], Lb = L[b];
    L[a] = ct * La + st * Lb;
    L[b] = -st * La + ct * Lb;
  }

  template <typename Real>
  MESO_HD void rigid_dlm_free_rotate(Real *q, Real *L, const Real *inertia, Real dt)
  {
    const Real h = Real(0.5) * dt;
    rigid_dlm_substep(3, q, L, inertia, h);
    rigid_dlm_substep(2, q, L, inertia, h);
    rigid_dlm_substep(1, q, L, inertia, dt);
    rigid_dlm_substep(2, q, L, inertia, h);
    rigid_dlm_substep(3, q, L, inertia, h);
  }

  // ---- single-site rigid bodies with the lab-frame angular momentum -------------------
  // The per-atom step of fix nve/rigid/single and nvt/rigid/single (src/rigid_single_bodies.cpp)
  // and of their device kernels (cuda/integrate/rigid_single.cu): q the ellipsoid
  // quaternion, L = atom->angmom (lab), tau = atom->torque (lab), zero_axis the body axis
  // (0..2) with a zero moment (a linear body, the two other moments equal) or -1.

  // body axis k (0..2) in the lab frame: column k of R(q)
  template <typename Real> MESO_HD void rigid_body_axis(const Real *q, int k, Real *u)
  {
    Real m[9];
    quat_to_rotation(q, m);
    for (int r = 0; r < 3; ++r) u[r] = m[3 * r + k];
  }

  // a linear body has no spin about its axis: L loses its part along body axis `axis`
  template <typename Real> MESO_HD void rigid_linear_project(const Real *q, int axis, Real *L)
  {
    Real u[3];
    rigid_body_axis(q, axis, u);
    const Real s = L[0] * u[0] + L[1] * u[1] + L[2] * u[2];
    for (int d = 0; d < 3; ++d) L[d] -= s * u[d];
  }

  // half kick L += dtf tau (dtf = dt/2 ftm2v); a linear body keeps only the normal part
  template <typename Real>
  MESO_HD void rigid_lab_kick(const Real *q, Real *L, const Real *tau, int zero_axis, Real dtf)
  {
    for (int d = 0; d < 3; ++d) L[d] += dtf * tau[d];
    if (zero_axis >= 0) rigid_linear_project(q, zero_axis, L);
  }

  // linear body (I_a = 0, the others equal iperp): with L normal to the axis omega = L /
  // iperp is constant, so the exact flow turns q by dt |L| / iperp about L (lab frame)
  template <typename Real>
  MESO_HD void rigid_linear_rotate(Real *q, const Real *L, Real iperp, Real dt)
  {
    const Real lnorm = sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
    if (!(lnorm > Real(0))) return;
    const Real half = Real(0.5) * dt * lnorm / iperp;
    const Real c = cos(half), s = sin(half) / lnorm;
    const Real r[4] = {c, s * L[0], s * L[1], s * L[2]};
    const Real q0[4] = {q[0], q[1], q[2], q[3]};
    q[0] = r[0] * q0[0] - r[1] * q0[1] - r[2] * q0[2] - r[3] * q0[3];
    q[1] = r[0] * q0[1] + r[1] * q0[0] + r[2] * q0[3] - r[3] * q0[2];
    q[2] = r[0] * q0[2] - r[1] * q0[3] + r[2] * q0[0] + r[3] * q0[1];
    q[3] = r[0] * q0[3] + r[1] * q0[2] - r[2] * q0[1] + r[3] * q0[0];
  }

  // the full rotation step over dt: q renormalised (|q| = 1 to rounding; R(q) of a
  // non-unit q scales by |q|^2, so every L -> p -> L round trip would scale L by |q|^4,
  // a drift of ~1e-14 a step; renormalising keeps it at rounding), then the free rotation
  // of (q, L): exact for a linear body, else NO_SQUISH (dlm false) or DLM, L going
  // through p or L_body and back
  template <typename Real>
  MESO_HD void rigid_lab_advance(Real *q, Real *L, const Real *inertia, int zero_axis, bool dlm,
                                 Real dt)
  {
    const Real qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) q[k] /= qn;
    if (zero_axis >= 0) {
      rigid_linear_rotate(q, L, inertia[(zero_axis + 1) % 3], dt);
    } else if (!dlm) {
      Real p[4];
      rigid_p_from_lab_angmom(q, L, p);
      rigid_free_rotate(q, p, inertia, dt);
      rigid_lab_angmom(q, p, L);
    } else {
      Real lb[3];
      rigid_lab_to_body(q, L, lb);
      rigid_dlm_free_rotate(q, lb, inertia, dt);
      rigid_body_to_lab(q, lb, L);
    }
  }

  // sum_k L_k^2 / (2 I_k) with L_k in the body frame (axes with I_k = 0 carry none)
  template <typename Real>
  MESO_HD Real rigid_lab_kinetic_energy(const Real *q, const Real *L, const Real *inertia)
  {
    Real lb[3];
    rigid_lab_to_body(q, L, lb);
    Real ke = Real(0);
    for (int k = 0; k < 3; ++k)
      if (inertia[k] > Real(0)) ke += lb[k] * lb[k] / (Real(2) * inertia[k]);
    return ke;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
