/* Units for src/physics/rotation_leapfrog.h: the rotational leapfrog of one-site
   anisotropic particles against analytic motion and conservation laws, and the
   Berendsen factor against its formula. No number here was produced by the code:
   references are the great circle of a free linear rotor, the energy and the angular
   momentum about the field axis of a rotor in a constant field, and
   lambda^2 = 1 + dt/tau (T0/T - 1). */

#include "physics/rotation_leapfrog.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

namespace phys = mesogpu::physics;
using phys::rotation::cross3;
using phys::rotation::dot3;
using phys::rotation::normalize3;

namespace {

struct Vec {
  double v[3];
};

Vec unit(double x, double y, double z)
{
  Vec a{{x, y, z}};
  normalize3(a.v);
  return a;
}

double dist(const double *a, const double *b)
{
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return std::sqrt(dot3(d, d));
}

// n0 and a unit vector e0 perpendicular to it: the plane of the great circle
void free_rotor_start(double *n0, double *e0)
{
  Vec n = unit(1.0, 2.0, 2.0);
  Vec t = unit(-0.3, 0.9, 0.1);
  phys::rotation::project_perp(t.v, n.v);
  normalize3(t.v);
  for (int d = 0; d < 3; ++d) n0[d] = n.v[d], e0[d] = t.v[d];
}

// free rotation, angular-velocity form (what the LAMMPS fix does): error at time T
// against n0 cos(wT) + e0 sin(wT)
double free_error_omega(double w, double T, double dt)
{
  double n[3], e0[3], n0[3], u0[3], omega[3];
  free_rotor_start(n0, e0);
  for (int d = 0; d < 3; ++d) n[d] = n0[d], u0[d] = w * e0[d];
  phys::omega_from_u(omega, n, u0);
  const double zero[3] = {0, 0, 0};
  const int steps = static_cast<int>(std::lround(T / dt));
  for (int s = 0; s < steps; ++s) {
    EXPECT_TRUE(phys::leapfrog_drift(n, omega, dt));
    phys::leapfrog_kick(omega, n, zero, dt);
  }
  double exact[3];
  for (int d = 0; d < 3; ++d) exact[d] = n0[d] * std::cos(w * T) + e0[d] * std::sin(w * T);
  return dist(n, exact);
}

// the same with the literal Fincham steps on a full u (u0 taken as u(dt/2))
double free_error_fincham(double w, double T, double dt)
{
  double n[3], e0[3], n0[3], u[3];
  free_rotor_start(n0, e0);
  for (int d = 0; d < 3; ++d) n[d] = n0[d], u[d] = w * e0[d];
  const double zero[3] = {0, 0, 0};
  const int steps = static_cast<int>(std::lround(T / dt));
  for (int s = 0; s < steps; ++s) {
    phys::fincham_drift(n, u, dt);
    phys::fincham_kick(u, n, zero, dt);
  }
  double exact[3];
  for (int d = 0; d < 3; ++d) exact[d] = n0[d] * std::cos(w * T) + e0[d] * std::sin(w * T);
  return dist(n, exact);
}

// rotor of inertia I in U = -k n.e (e = z): g = k e, tau = n x g
struct FieldRun {
  double max_energy_error = 0.0;               // max over full steps of |E(t) - E(0)|
  double max_lz_error = 0.0;                   // max |omega_z(t) - omega_z(0)| (L_z = I omega_z)
  double mean_first = 0.0, mean_last = 0.0;    // E - E(0) averaged over first/last tenth
  double n_final[3];
};

FieldRun field_run(double dt, double T, bool fincham = false)
{
  const double I = 0.7, k = 2.0, e[3] = {0, 0, 1};
  double n[3];
  Vec n0 = unit(std::sin(1.0), 0.0, std::cos(1.0));    // 1 rad from the field
  for (int d = 0; d < 3; ++d) n[d] = n0.v[d];
  double u[3] = {0.3, 1.1, 0.0};    // some precession and some nutation
  phys::rotation::project_perp(u, n);
  double omega[3];
  phys::omega_from_u(omega, n, u);
  const double lz0 = omega[2];

  FieldRun r;
  const int steps = static_cast<int>(std::lround(T / dt));
  double e0 = 0.0;
  const int tenth = steps / 10;
  for (int s = 0; s < steps; ++s) {
    // drift (initial_integrate), then the torque at the new n and the kick (final_integrate)
    double ke_before, ke_after;
    if (fincham) {
      phys::fincham_drift(n, u, dt);
      double up[3] = {u[0], u[1], u[2]};
      phys::rotation::project_perp(up, n);
      ke_before = 0.5 * I * dot3(up, up);
      const double g[3] = {k * e[0], k * e[1], k * e[2]};
      phys::fincham_kick(u, n, g, dt / I);
      for (int d = 0; d < 3; ++d) up[d] = u[d];
      phys::rotation::project_perp(up, n);
      ke_after = 0.5 * I * dot3(up, up);
      phys::omega_from_u(omega, n, u);
    } else {
      EXPECT_TRUE(phys::leapfrog_drift(n, omega, dt));
      ke_before = 0.5 * I * dot3(omega, omega);
      double g[3] = {k * e[0], k * e[1], k * e[2]}, tau[3];
      cross3(n, g, tau);
      phys::leapfrog_kick(omega, n, tau, dt / I);
      ke_after = 0.5 * I * dot3(omega, omega);
    }
    // leapfrog energy at the full step: kinetic energy averaged over the two half steps
    const double energy = 0.5 * (ke_before + ke_after) - k * dot3(n, e);
    if (s == 0) e0 = energy;
    r.max_energy_error = std::max(r.max_energy_error, std::fabs(energy - e0));
    r.max_lz_error = std::max(r.max_lz_error, std::fabs(omega[2] - lz0));
    if (s < tenth) r.mean_first += (energy - e0) / tenth;
    if (s >= steps - tenth) r.mean_last += (energy - e0) / tenth;
  }
  for (int d = 0; d < 3; ++d) r.n_final[d] = n[d];
  return r;
}

}    // namespace

TEST(RotationLeapfrog, UnitLengthKeptUnderTorque)
{
  // arbitrary, changing torques with a part along n (dropped), both forms
  double n[3], omega[3] = {0.4, -0.2, 0.9}, nf[3], u[3] = {0.4, -0.2, 0.9};
  Vec a = unit(0.3, -0.5, 0.8);
  for (int d = 0; d < 3; ++d) n[d] = nf[d] = a.v[d];
  phys::rotation::project_perp(omega, n);
  phys::rotation::project_perp(u, nf);
  const double dt = 0.01;
  double worst = 0.0, worst_f = 0.0, worst_perp = 0.0;
  for (int s = 0; s < 20000; ++s) {
    const double tau[3] = {std::sin(0.01 * s), 3.0 * std::cos(0.013 * s),
                           2.0 * std::sin(0.007 * s)};
    ASSERT_TRUE(phys::leapfrog_drift(n, omega, dt));
    phys::leapfrog_kick(omega, n, tau, dt / 1.5);
    phys::fincham_drift(nf, u, dt);
    phys::fincham_kick(u, nf, tau, dt / 1.5);
    worst = std::max(worst, std::fabs(std::sqrt(dot3(n, n)) - 1.0));
    worst_f = std::max(worst_f, std::fabs(std::sqrt(dot3(nf, nf)) - 1.0));
    // omega stays perpendicular to n: |omega.n| relative to |omega|
    worst_perp = std::max(worst_perp, std::fabs(dot3(omega, n)) / std::sqrt(dot3(omega, omega)));
  }
  EXPECT_LT(worst, 4e-16);
  EXPECT_LT(worst_f, 4e-16);
  EXPECT_LT(worst_perp, 1e-12);

  // single precision instantiation (what a mixed-precision kernel would use), in a field
  float nfl[3] = {0.6f, 0.0f, 0.8f}, wfl[3] = {0.0f, 2.0f, 0.0f};
  const float efl[3] = {0.5f, -0.25f, 1.0f};
  for (int s = 0; s < 10000; ++s) {
    ASSERT_TRUE(phys::leapfrog_drift(nfl, wfl, 0.01f));
    float tfl[3];
    cross3(nfl, efl, tfl);
    phys::leapfrog_kick(wfl, nfl, tfl, 0.01f);
  }
  EXPECT_NEAR(std::sqrt(dot3(nfl, nfl)), 1.0f, 1e-6f);
}

TEST(RotationLeapfrog, DriftRefusesMoreThanOneRadianPerStep)
{
  double n[3] = {0, 0, 1}, omega[3] = {2.0, 0, 0};
  EXPECT_FALSE(phys::leapfrog_drift(n, omega, 0.5));    // dt |omega| = 1
  EXPECT_EQ(n[2], 1.0);
  EXPECT_EQ(n[1], 0.0);
  EXPECT_TRUE(phys::leapfrog_drift(n, omega, 0.25));
  // chord of length dt|omega| = 0.5 between unit vectors: the angle is asin(0.5) = pi/6,
  // about +x: n = (0, -sin, cos)
  EXPECT_NEAR(n[2], std::cos(M_PI / 6), 1e-15);
  EXPECT_NEAR(n[1], -std::sin(M_PI / 6), 1e-15);
}

// past the limit: the normalised step turns by atan(dt |w|) in the plane of n and w
TEST(RotationLeapfrog, NormalisedDriftTurnsByArctan)
{
  for (double dtw : {0.5, 1.0, 3.0}) {
    double n[3] = {0, 0, 1}, omega[3] = {dtw / 0.25, 0, 0};
    phys::leapfrog_drift_normalized(n, omega, 0.25);
    // w = omega x n = (0, -|omega|, 0): a turn about +x by atan(dt |omega|)
    EXPECT_NEAR(n[0], 0.0, 1e-15);
    EXPECT_NEAR(n[1], -std::sin(std::atan(dtw)), 1e-15) << dtw;
    EXPECT_NEAR(n[2], std::cos(std::atan(dtw)), 1e-15) << dtw;
  }
}

TEST(RotationLeapfrog, FreeRotationFollowsTheGreatCircle)
{
  const double w = 1.3, T = 5.0;
  const double e1 = free_error_omega(w, T, 0.02);
  const double e2 = free_error_omega(w, T, 0.01);
  const double e3 = free_error_omega(w, T, 0.005);
  // second order: the error shrinks 4x per halving of dt
  EXPECT_NEAR(e1 / e2, 4.0, 0.2);
  EXPECT_NEAR(e2 / e3, 4.0, 0.2);
  // and it is the phase error of the chord: asin(dt w) per step instead of dt w, i.e.
  // T w^3 dt^2 / 6 after time T (leading order)
  EXPECT_NEAR(e3 / (T * w * w * w * 0.005 * 0.005 / 6), 1.0, 0.02);

  // the literal Fincham steps (renormalising) are second order too
  const double f1 = free_error_fincham(w, T, 0.02);
  const double f2 = free_error_fincham(w, T, 0.01);
  const double f3 = free_error_fincham(w, T, 0.005);
  EXPECT_NEAR(f1 / f2, 4.0, 0.4);
  EXPECT_NEAR(f2 / f3, 4.0, 0.4);
  EXPECT_LT(f3, 2e-4);
}

TEST(RotationLeapfrog, ConstantFieldConservesEnergyAndLz)
{
  const double T = 100.0;    // about 20 nutation periods
  const FieldRun a = field_run(0.01, T), b = field_run(0.005, T);
  // energy error bounded (no drift) and second order in dt; the energy scale is k = 2
  EXPECT_LT(a.max_energy_error, 1.5e-4);
  EXPECT_NEAR(a.max_energy_error / b.max_energy_error, 4.0, 0.6);
  EXPECT_LT(std::fabs(a.mean_last - a.mean_first), 0.2 * a.max_energy_error);
  // the torque k n x e is perpendicular to e: L.e is conserved exactly by the kick, and
  // the drift does not change omega
  EXPECT_LT(a.max_lz_error, 1e-12);
  EXPECT_LT(b.max_lz_error, 1e-12);

  // the literal Fincham steps: bounded too (measured about twice the error of the
  // angular-velocity form, whose drift keeps |n| = 1 exactly instead of renormalising)
  const FieldRun f = field_run(0.01, T, true);
  EXPECT_LT(f.max_energy_error, 4e-4);
  // the two forms share the perpendicular update and differ in how the Lagrange
  // multiplier is evaluated: they converge to the same motion, at second order
  const FieldRun fb = field_run(0.005, T, true);
  const double d1 = dist(a.n_final, f.n_final), d2 = dist(b.n_final, fb.n_final);
  EXPECT_NEAR(d1 / d2, 4.0, 1.0);
  EXPECT_LT(d2, 1e-3);
  std::printf("field, T = %g: max |E - E0| = %.3e (dt 0.01), %.3e (dt 0.005); "
              "Fincham literal %.3e; |n - n_Fincham| = %.3e, %.3e\n",
              T, a.max_energy_error, b.max_energy_error, f.max_energy_error, d1, d2);
}

TEST(RotationLeapfrog, BerendsenFactor)
{
  using phys::berendsen_lambda;
  const double dt = 0.005, tau = 0.3;
  // at the target nothing changes
  EXPECT_DOUBLE_EQ(berendsen_lambda(dt, tau, 1.5, 1.5), 1.0);
  // lambda^2 = 1 + dt/tau (T0/T - 1)
  EXPECT_NEAR(berendsen_lambda(dt, tau, 1.0, 2.0), std::sqrt(1.0 - dt / tau * 0.5), 1e-15);
  EXPECT_NEAR(berendsen_lambda(dt, tau, 2.0, 0.5), std::sqrt(1.0 + dt / tau * 3.0), 1e-15);
  // tau = dt: one step brings T to T0 (lambda^2 T = T0)
  EXPECT_NEAR(berendsen_lambda(0.01, 0.01, 1.0, 3.0) * berendsen_lambda(0.01, 0.01, 1.0, 3.0) * 3.0,
              1.0, 1e-14);
  // T = 0 (e.g. no rotation yet): nothing to scale
  EXPECT_EQ(berendsen_lambda(dt, tau, 1.0, 0.0), 1.0);
  // tau < dt and T far above T0: the argument is negative, clamped to lambda = 0
  EXPECT_EQ(berendsen_lambda(0.01, 0.002, 1.0, 10.0), 0.0);    // 1 + 5 (0.1 - 1) < 0
  // single precision
  EXPECT_NEAR(berendsen_lambda(0.005f, 0.3f, 1.0f, 2.0f), std::sqrt(1.0f - 0.005f / 0.3f * 0.5f),
              1e-6f);
}

TEST(RotationLeapfrog, UnitVectorScalesBeforeSquaring)
{
  using phys::rotation::unit_vector;
  // (3, 4, 12) / 13 exactly, at any scale: |v|^2 would overflow (1e200) or underflow
  // (1e-200) in double, and 1e30 overflows in float
  for (double scale : {1.0, 1e200, 1e-200, -1e300}) {
    const double v[3] = {3 * scale, 4 * scale, 12 * scale};
    double n[3];
    const double len = unit_vector(v, n);
    const double sign = scale > 0 ? 1.0 : -1.0;
    EXPECT_NEAR(len / (13 * std::fabs(scale)), 1.0, 1e-15) << scale;
    EXPECT_NEAR(n[0], sign * 3.0 / 13, 1e-16) << scale;
    EXPECT_NEAR(n[1], sign * 4.0 / 13, 1e-16) << scale;
    EXPECT_NEAR(n[2], sign * 12.0 / 13, 1e-16) << scale;
  }
  const float vf[3] = {0.0f, 3e30f, -4e30f};
  float nf[3];
  EXPECT_NEAR(unit_vector(vf, nf) / 5e30f, 1.0f, 1e-6f);
  EXPECT_NEAR(nf[1], 0.6f, 1e-6f);
  EXPECT_NEAR(nf[2], -0.8f, 1e-6f);
  // zero: length 0, n = 0
  const double z[3] = {0.0, -0.0, 0.0};
  double n[3] = {1, 1, 1};
  EXPECT_EQ(unit_vector(z, n), 0.0);
  EXPECT_EQ(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 0.0);
  // inf or NaN in any component: NaN length (callers refuse it), n = 0
  for (int d = 0; d < 3; ++d)
    for (double bad : {INFINITY, -INFINITY, NAN}) {
      double v[3] = {1.0, 2.0, 3.0};
      v[d] = bad;
      n[0] = n[1] = n[2] = 1.0;
      EXPECT_TRUE(std::isnan(unit_vector(v, n))) << d << " " << bad;
      EXPECT_EQ(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 0.0);
    }
  // |v| beyond the largest double: the direction is still exact, the length is inf
  const double h[3] = {1.5e308, 1.5e308, 0.0};
  EXPECT_TRUE(std::isinf(unit_vector(h, n)));
  EXPECT_NEAR(n[0], std::sqrt(0.5), 2e-16);
  EXPECT_NEAR(n[1], std::sqrt(0.5), 2e-16);
}
