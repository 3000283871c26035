/* mesogpu: rotational leapfrog of one-site anisotropic particles (GALAMOST, Zhu et al.,
 * J. Comput. Chem. 34, 2197 (2013), eq. 19-20 and Algorithm 3; the leapfrog of Fincham
 * for linear molecules, Mol. Simul. 8, 165 (1992)) and the Berendsen scaling factor.
 *
 * A particle has a unit orientation n (2 rotational degrees of freedom) and a moment of
 * inertia I. Equations of motion (GALAMOST's):
 *
 *   dn/dt = u,   du/dt = g_perp / I + lambda n,
 *
 * g = -dU/dn the "gorque", g_perp = g - (g.n) n, lambda the Lagrange multiplier that
 * keeps |n| = 1. Fincham's leapfrog (Mol. Simul. 8, 165 (1992)), with u at half steps:
 *
 *   u(t+dt/2) = u(t-dt/2) + dt g_perp(t)/I - 2 [u(t-dt/2).n(t)] n(t)            (K)
 *   n(t+dt)   = n(t) + dt u(t+dt/2),  renormalised                              (D)
 *
 * fincham_kick() and fincham_drift() are (K) and (D) literally, on a full 3-vector u.
 *
 * The angular-velocity form (what the LAMMPS fix and a kernel on LAMMPS's arrays use).
 * LAMMPS stores omega = n x u (so u_perp = omega x n, |omega| = |u_perp|) and the torque
 * tau = n x g; omega keeps only the part of u perpendicular to n. The parallel part of
 * the leapfrog u is the Lagrange-multiplier term, and it is fixed by the constraint: the
 * chord n(t) -> n(t+dt) = n(t) + dt u(t+dt/2) joins two unit vectors. With that, (K) and
 * (D) become, exactly in the perpendicular components:
 *
 *   kick   omega(t+dt/2) = omega(t-dt/2) + (dt/I) tau_perp(t)      tau_perp = n x g_perp
 *   drift  n(t+dt) = sqrt(1 - dt^2 |w|^2) n(t) + dt w,   w = omega x n(t)
 *
 * and omega is unchanged by the drift (the rotation axis of a free linear rotor is
 * fixed: n(t+dt) x u = n(t) x w for the chord u = (n(t+dt) - n(t))/dt). Why this is (K)
 * and (D): the kick changes only the perpendicular part of u, by dt g_perp/I, and
 * n x (dt g_perp/I) = dt tau_perp/I; (K)'s reflection term -2[u.n]n changes only the
 * part along n, which omega does not keep. That part is the Lagrange multiplier, and the
 * drift above evaluates it by solving |n(t+dt)| = 1 instead of (K)'s reflection followed
 * by (D)'s renormalisation. In free rotation the two give the same chord exactly (the
 * reflection of a chord velocity is the next chord); with a torque they differ in the
 * O(dt^3) local error, both being second order (unittest/units/test_rotation_leapfrog.cpp
 * measures it). The discrete free rotor turns by asin(dt |omega|) per step: frequency
 * |omega| (1 + dt^2 |omega|^2 / 6 + ...). dt |omega| < 1 is required.
 *
 * Between steps the state is n(t) and omega(t+dt/2): the kinetic energy (I/2)|omega|^2
 * is a half-step value (the mean over t-dt/2 and t+dt/2 is the better full-step estimate). Units:
 * omega in 1/time, tau in energy, I in mass*distance^2; LAMMPS's ftm2v goes into dt_over_I (dt *
 * ftm2v / I). */
#ifndef MESOGPU_PHYSICS_ROTATION_LEAPFROG_H
#define MESOGPU_PHYSICS_ROTATION_LEAPFROG_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {

  // small 3-vector helpers, in their own namespace so that other model headers may
  // define theirs without a clash when a kernel includes both
  namespace rotation {

    template <typename Real> MESO_HD Real dot3(const Real *a, const Real *b)
    {
      return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    // c = a x b (c must not alias a or b)
    template <typename Real> MESO_HD void cross3(const Real *a, const Real *b, Real *c)
    {
      c[0] = a[1] * b[2] - a[2] * b[1];
      c[1] = a[2] * b[0] - a[0] * b[2];
      c[2] = a[0] * b[1] - a[1] * b[0];
    }

    // v <- v / |v|; returns |v| (0: v left unchanged)
    template <typename Real> MESO_HD Real normalize3(Real *v)
    {
      const Real len = sqrt(dot3(v, v));
      if (len > Real(0)) {
        const Real inv = Real(1) / len;
        v[0] *= inv;
        v[1] *= inv;
        v[2] *= inv;
      }
      return len;
    }

    // n = v / |v| without squaring v itself: the components are scaled by the largest
    // first, so |v|^2 neither overflows (|v| ~ 1e200) nor underflows (|v| ~ 1e-200).
    // Returns |v| (may be +inf when |v| itself exceeds the largest double); 0 (n = 0) for
    // v = 0; NaN (n = 0) when a component is inf or NaN. n must not alias v.
    template <typename Real> MESO_HD Real unit_vector(const Real *v, Real *n)
    {
      Real m = Real(0);
      for (int d = 0; d < 3; ++d) {
        if (!(v[d] - v[d] == Real(0))) {    // inf or NaN
          n[0] = n[1] = n[2] = Real(0);
          return v[d] - v[d];    // NaN
        }
        const Real a = fabs(v[d]);
        if (a > m) m = a;
      }
      if (m == Real(0)) {
        n[0] = n[1] = n[2] = Real(0);
        return Real(0);
      }
      const Real inv_m = Real(1) / m;
      Real s[3] = {v[0] * inv_m, v[1] * inv_m, v[2] * inv_m};
      const Real ls = sqrt(dot3(s, s));    // in [1, sqrt(3)]
      for (int d = 0; d < 3; ++d) n[d] = s[d] / ls;
      return m * ls;
    }

    // v <- v - (v.n) n, n a unit vector
    template <typename Real> MESO_HD void project_perp(Real *v, const Real *n)
    {
      const Real p = dot3(v, n);
      v[0] -= p * n[0];
      v[1] -= p * n[1];
      v[2] -= p * n[2];
    }

  }    // namespace rotation

  // omega = n x u (the perpendicular part of u is what omega keeps) and back, u = omega x n
  template <typename Real> MESO_HD void omega_from_u(Real *omega, const Real *n, const Real *u)
  {
    rotation::cross3(n, u, omega);
  }
  template <typename Real> MESO_HD void u_from_omega(Real *u, const Real *omega, const Real *n)
  {
    rotation::cross3(omega, n, u);
  }

  // ---- the literal Fincham steps (K) and (D), on a full u ------------------------------

  // (K): u <- u - 2 (u.n) n + dt_over_I * g_perp; g may carry a part along n (dropped)
  template <typename Real>
  MESO_HD void fincham_kick(Real *u, const Real *n, const Real *g, Real dt_over_I)
  {
    const Real un2 = Real(2) * rotation::dot3(u, n);
    const Real gn = rotation::dot3(g, n);
    for (int d = 0; d < 3; ++d) u[d] += dt_over_I * (g[d] - gn * n[d]) - un2 * n[d];
  }

  // (D): n <- (n + dt u) / |n + dt u|
  template <typename Real> MESO_HD void fincham_drift(Real *n, const Real *u, Real dt)
  {
    for (int d = 0; d < 3; ++d) n[d] += dt * u[d];
    rotation::normalize3(n);
  }

  // ---- the angular-velocity form on LAMMPS's omega = n x u and tau = n x g -------------

  // kick: omega <- omega + dt_over_I * (tau - (tau.n) n)
  template <typename Real>
  MESO_HD void leapfrog_kick(Real *omega, const Real *n, const Real *tau, Real dt_over_I)
  {
    const Real tn = rotation::dot3(tau, n);
    for (int d = 0; d < 3; ++d) omega[d] += dt_over_I * (tau[d] - tn * n[d]);
  }

  // drift: n <- sqrt(1 - dt^2 |w|^2) n + dt w with w = omega x n (the chord between two
  // unit vectors), renormalised against rounding; omega is unchanged. Returns false, and
  // leaves n unchanged, when dt |w| >= 1 (no such chord: the timestep is too long).
  template <typename Real> MESO_HD bool leapfrog_drift(Real *n, const Real *omega, Real dt)
  {
    Real w[3];
    rotation::cross3(omega, n, w);
    const Real s2 = dt * dt * rotation::dot3(w, w);
    if (!(s2 < Real(1))) return false;
    const Real c = sqrt(Real(1) - s2);
    for (int d = 0; d < 3; ++d) n[d] = c * n[d] + dt * w[d];
    rotation::normalize3(n);
    return true;
  }

  // drift past the chord's limit (dt |w| >= 1): Fincham's normalised step
  // n <- (n + dt w) / |n + dt w|, w = omega x n, a turn by atan(dt |w|) (< 90 degrees)
  // instead of asin(dt |w|); the form GALAMOST uses at every step. |n + dt w| >= 1
  // because w is normal to n, so it is always defined.
  template <typename Real>
  MESO_HD void leapfrog_drift_normalized(Real *n, const Real *omega, Real dt)
  {
    Real w[3];
    rotation::cross3(omega, n, w);
    for (int d = 0; d < 3; ++d) n[d] += dt * w[d];
    rotation::normalize3(n);
  }

  // ---- Berendsen ----------------------------------------------------------------------

  // lambda = sqrt(1 + dt/tau (T0/T - 1)), the factor that scales velocities (u or v).
  // T <= 0: returns 1 (nothing to scale; LAMMPS's fix temp/berendsen stops with an error
  // there instead). A negative argument (possible only when tau < dt and T > T0 dt/(dt-tau))
  // is clamped to 0, i.e. lambda = 0: the velocities are zeroed instead of becoming NaN
  // (LAMMPS's fix temp/berendsen has no clamp and would produce NaN); fix leapfrog/aniso
  // refuses tau < dt, so the clamp is only a guard.
  template <typename Real> MESO_HD Real berendsen_lambda(Real dt, Real tau, Real T0, Real T)
  {
    if (!(T > Real(0))) return Real(1);
    const Real arg = Real(1) + dt / tau * (T0 / T - Real(1));
    return arg > Real(0) ? sqrt(arg) : Real(0);
  }

}    // namespace physics
}    // namespace mesogpu

#endif
