/* Units for src/physics/rigid_rotation.h: NO_SQUISH (and the DLM form of its free
   rotation) against analytic motion and conservation laws. References not produced by
   the code: the torque-free symmetric top (body angular velocity precessing at
   Omega = (Izz - Ixx)/Ixx omega_z), uniform rotation about a principal axis, the
   conserved lab angular momentum, time reversal, the quaternion kinematics
   dq/dt = (1/2) q (x) (0, omega_body), and energy in a field U = -k e_z(body).z(lab). */

#include "physics/rigid_rotation.h"
#include "physics/quaternion.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

namespace phys = mesogpu::physics;

namespace {

const double kSsdInertia[3] = {1.7696, 0.6145, 1.1550};    // SSD water, amu A^2

void normalize4(double *q)
{
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; ++i) q[i] /= n;
}

double norm3(const double *a)
{
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

double dist3(const double *a, const double *b)
{
  const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(d);
}

double dist4(const double *a, const double *b)
{
  double s = 0.0;
  for (int i = 0; i < 4; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

// a generic start orientation
void start_quat(double *q)
{
  q[0] = 0.8;
  q[1] = -0.3;
  q[2] = 0.4;
  q[3] = 0.25;
  normalize4(q);
}

// reference R(q) from quaternion.h (checked against Rodrigues in test_ssd), body -> lab
void rotation(const double *q, double *m)
{
  phys::quat_to_rotation(q, m);
}

// field U = -k e_z(body) . z(lab) = -k R_zz; tau_lab = e x (k z) (torque from -dU/de)
double field_energy(const double *q, double k)
{
  double m[9];
  rotation(q, m);
  return -k * m[8];
}
void field_torque_lab(const double *q, double k, double *tau)
{
  double m[9];
  rotation(q, m);
  const double e[3] = {m[2], m[5], m[8]};    // third column: body z in the lab
  tau[0] = k * e[1];                         // e x (0, 0, k)
  tau[1] = -k * e[0];
  tau[2] = 0.0;
}

// one velocity-Verlet step of NO_SQUISH in the field (tau recomputed at the new q)
void step_field(double *q, double *p, const double *inertia, double k, double dt)
{
  double tau[3];
  field_torque_lab(q, k, tau);
  phys::rigid_kick_lab(q, p, tau, 0.5 * dt);
  phys::rigid_free_rotate(q, p, inertia, dt);
  field_torque_lab(q, k, tau);
  phys::rigid_kick_lab(q, p, tau, 0.5 * dt);
}

// symmetric top Ixx = Iyy = 1, Izz = 2, omega_body(0) = (0.3, 0, 1): Omega = 1. Returns
// |omega_body(T) - exact| with exact = (0.3 cos(Omega T), 0.3 sin(Omega T), 1) (Euler:
// d omega_x/dt = -Omega omega_y, d omega_y/dt = Omega omega_x)
double symmetric_top_error(double dt, double T)
{
  const double inertia[3] = {1.0, 1.0, 2.0};
  const double w0[3] = {0.3, 0.0, 1.0};
  const double L0[3] = {inertia[0] * w0[0], inertia[1] * w0[1], inertia[2] * w0[2]};
  double q[4], p[4];
  start_quat(q);
  phys::rigid_p_from_body_angmom(q, L0, p);
  const int steps = static_cast<int>(std::lround(T / dt));
  for (int s = 0; s < steps; ++s) phys::rigid_free_rotate(q, p, inertia, dt);
  const double Omega = (inertia[2] - inertia[0]) / inertia[0] * w0[2];
  const double exact[3] = {0.3 * std::cos(Omega * T), 0.3 * std::sin(Omega * T), 1.0};
  double w[3];
  phys::rigid_body_omega(q, p, inertia, w);
  return dist3(w, exact);
}

}    // namespace

TEST(RigidRotation, ConversionsRoundTripAndKineticEnergy)
{
  double q[4];
  start_quat(q);
  const double angmom[3] = {0.7, -1.3, 0.45};
  double p[4], back[3];
  phys::rigid_p_from_lab_angmom(q, angmom, p);
  phys::rigid_lab_angmom(q, p, back);
  EXPECT_LT(dist3(back, angmom), 1e-14);
  // p is normal to q (the constraint direction carries no momentum)
  EXPECT_NEAR(phys::rigid::dot4(p, q), 0.0, 1e-14);

  // KE against sum L_body^2/(2 I) with L_body = R^T angmom from quaternion.h's matrix
  double m[9];
  rotation(q, m);
  double Lb[3];
  for (int c = 0; c < 3; ++c)
    Lb[c] = m[c] * angmom[0] + m[3 + c] * angmom[1] + m[6 + c] * angmom[2];
  double ke = 0.0;
  for (int k = 0; k < 3; ++k) ke += Lb[k] * Lb[k] / (2.0 * kSsdInertia[k]);
  EXPECT_NEAR(phys::rigid_kinetic_energy(q, p, kSsdInertia), ke, 1e-14 * ke);
  double Lfromp[3];
  phys::rigid_body_angmom(q, p, Lfromp);
  EXPECT_LT(dist3(Lfromp, Lb), 1e-14);
  std::printf("[ info ] round trip %.2e, KE %.15g vs %.15g\n", dist3(back, angmom),
              phys::rigid_kinetic_energy(q, p, kSsdInertia), ke);
}

// the conventions of p and omega_body against the kinematics dq/dt = (1/2) q (x) (0, omega):
// central difference of the free flow over +-h
TEST(RigidRotation, BodyOmegaMatchesQuaternionKinematics)
{
  double q0[4];
  start_quat(q0);
  const double L[3] = {0.9, -0.4, 0.6};
  double p0[4];
  phys::rigid_p_from_body_angmom(q0, L, p0);
  double w[3];
  phys::rigid_body_omega(q0, p0, kSsdInertia, w);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(w[k], L[k] / kSsdInertia[k], 1e-14);

  const double h = 1e-4;
  double qf[4], pf[4], qb[4], pb[4];
  for (int i = 0; i < 4; ++i) qf[i] = qb[i] = q0[i], pf[i] = p0[i], pb[i] = p0[i];
  phys::rigid_free_rotate(qf, pf, kSsdInertia, h);
  phys::rigid_free_rotate(qb, pb, kSsdInertia, -h);
  // (1/2) q (x) (0, w), the Hamilton product written out
  const double qdot[4] = {0.5 * (-q0[1] * w[0] - q0[2] * w[1] - q0[3] * w[2]),
                          0.5 * (q0[0] * w[0] + q0[2] * w[2] - q0[3] * w[1]),
                          0.5 * (q0[0] * w[1] + q0[3] * w[0] - q0[1] * w[2]),
                          0.5 * (q0[0] * w[2] + q0[1] * w[1] - q0[2] * w[0])};
  double err = 0.0;
  for (int i = 0; i < 4; ++i) err = std::fmax(err, std::fabs((qf[i] - qb[i]) / (2 * h) - qdot[i]));
  std::printf("[ info ] |dq/dt - q(x)(0,w)/2| = %.2e\n", err);
  EXPECT_LT(err, 1e-7);    // O(h^2) with |w| ~ 1
}

TEST(RigidRotation, SymmetricTopPrecessionSecondOrder)
{
  const double T = 20.0;
  const double e1 = symmetric_top_error(0.01, T);
  const double e2 = symmetric_top_error(0.005, T);
  const double e3 = symmetric_top_error(0.0025, T);
  std::printf("[ info ] symmetric top |omega - exact| at T = %g: dt 0.01 %.3e, 0.005 %.3e, "
              "0.0025 %.3e; ratios %.3f %.3f\n",
              T, e1, e2, e3, e1 / e2, e2 / e3);
  EXPECT_LT(e1, 1e-3);
  EXPECT_GT(e1 / e2, 3.6);
  EXPECT_LT(e1 / e2, 4.4);
  EXPECT_GT(e2 / e3, 3.6);
  EXPECT_LT(e2 / e3, 4.4);
}

TEST(RigidRotation, AsymmetricTopConservesLabAngmomAndNorm)
{
  const double dt = 0.01;
  const int steps = 100000;
  double q[4];
  start_quat(q);
  const double w0[3] = {0.5, 1.2, -0.8};    // body angular velocity, 1/time
  const double Lb[3] = {kSsdInertia[0] * w0[0], kSsdInertia[1] * w0[1], kSsdInertia[2] * w0[2]};
  double p[4];
  phys::rigid_p_from_body_angmom(q, Lb, p);
  double L0[3];
  phys::rigid_lab_angmom(q, p, L0);
  const double ke0 = phys::rigid_kinetic_energy(q, p, kSsdInertia);
  double dL = 0.0, dnorm = 0.0, dke = 0.0, ke_first = 0.0, ke_last = 0.0;
  const int block = steps / 10;
  for (int s = 0; s < steps; ++s) {
    phys::rigid_free_rotate(q, p, kSsdInertia, dt);
    double L[3];
    phys::rigid_lab_angmom(q, p, L);
    dL = std::fmax(dL, dist3(L, L0) / norm3(L0));
    dnorm = std::fmax(dnorm, std::fabs(std::sqrt(phys::rigid::dot4(q, q)) - 1.0));
    const double ke = phys::rigid_kinetic_energy(q, p, kSsdInertia);
    dke = std::fmax(dke, std::fabs(ke - ke0) / ke0);
    if (s < block) ke_first += ke / block;
    if (s >= steps - block) ke_last += ke / block;
  }
  const double drift = std::fabs(ke_last - ke_first) / ke0;
  std::printf("[ info ] 1e5 free steps dt %g: max |dL_lab|/|L| %.2e, max ||q|-1| %.2e, max "
              "|dKE|/KE %.2e, KE drift (first vs last 10%%) %.2e\n",
              dt, dL, dnorm, dke, drift);
  EXPECT_LT(dL, 1e-12);       // round-off: each sub-step conserves L_lab exactly
  EXPECT_LT(dnorm, 1e-12);    // no renormalisation anywhere
  EXPECT_LT(dke, 1e-3);       // bounded O(dt^2) oscillation, not round-off
  EXPECT_LT(drift, 0.1 * dke);
}

// the KE oscillation of the free asymmetric top is the splitting error: O(dt^2)
TEST(RigidRotation, AsymmetricTopEnergyErrorSecondOrder)
{
  auto max_dke = [](double dt) {
    double q[4];
    start_quat(q);
    const double Lb[3] = {kSsdInertia[0] * 0.5, kSsdInertia[1] * 1.2, -kSsdInertia[2] * 0.8};
    double p[4];
    phys::rigid_p_from_body_angmom(q, Lb, p);
    const double ke0 = phys::rigid_kinetic_energy(q, p, kSsdInertia);
    double d = 0.0;
    const int steps = static_cast<int>(std::lround(50.0 / dt));
    for (int s = 0; s < steps; ++s) {
      phys::rigid_free_rotate(q, p, kSsdInertia, dt);
      d = std::fmax(d, std::fabs(phys::rigid_kinetic_energy(q, p, kSsdInertia) - ke0) / ke0);
    }
    return d;
  };
  const double a = max_dke(0.02), b = max_dke(0.01);
  std::printf("[ info ] free asymmetric top max |dKE|/KE: dt 0.02 %.3e, 0.01 %.3e, ratio %.3f\n", a,
              b, a / b);
  EXPECT_GT(a / b, 3.5);
  EXPECT_LT(a / b, 4.5);
}

TEST(RigidRotation, PrincipalAxisRotationIsStationary)
{
  // 1000 steps: about z (the intermediate axis) rounding grows as exp(0.7 t)
  const double dt = 0.01, w = 1.3;
  const int steps = 1000;
  for (int k = 0; k < 3; ++k) {
    double q0[4], q[4], p[4];
    start_quat(q0);
    for (int i = 0; i < 4; ++i) q[i] = q0[i];
    double Lb[3] = {0, 0, 0};
    Lb[k] = kSsdInertia[k] * w;
    phys::rigid_p_from_body_angmom(q, Lb, p);
    for (int s = 0; s < steps; ++s) phys::rigid_free_rotate(q, p, kSsdInertia, dt);
    // exact: q0 (x) (cos(w t/2), sin(w t/2) e_k) = cos q0 + sin P_k q0
    const double t = steps * dt;
    double kq[4], exact[4];
    phys::rigid::perm(k + 1, q0, kq);
    for (int i = 0; i < 4; ++i)
      exact[i] = std::cos(0.5 * w * t) * q0[i] + std::sin(0.5 * w * t) * kq[i];
    double L[3];
    phys::rigid_body_angmom(q, p, L);
    std::printf("[ info ] principal axis %d: |q - exact| %.2e, |L - L0| %.2e\n", k + 1,
                dist4(q, exact), dist3(L, Lb));
    EXPECT_LT(dist4(q, exact), 1e-12);
    EXPECT_LT(dist3(L, Lb), 1e-12);
  }
}

// SSD inertia: x largest, y smallest, z intermediate. A 1e-6 tilt of omega away from the
// axis stays small for x and y and grows to O(1) for z.
TEST(RigidRotation, IntermediateAxisInstability)
{
  const double dt = 0.01, w = 1.0;
  double maxdev[3];
  for (int k = 0; k < 3; ++k) {
    double q[4], p[4];
    start_quat(q);
    double Lb[3] = {1e-6, 1e-6, 1e-6};
    Lb[k] = w;
    for (int j = 0; j < 3; ++j) Lb[j] *= kSsdInertia[j];
    phys::rigid_p_from_body_angmom(q, Lb, p);
    maxdev[k] = 0.0;
    for (int s = 0; s < 10000; ++s) {
      phys::rigid_free_rotate(q, p, kSsdInertia, dt);
      double L[3];
      phys::rigid_body_angmom(q, p, L);
      maxdev[k] = std::fmax(maxdev[k], 1.0 - std::fabs(L[k]) / norm3(L));
    }
  }
  std::printf("[ info ] max 1 - |L_k|/|L| about x %.2e, y %.2e, z %.2e\n", maxdev[0], maxdev[1],
              maxdev[2]);
  EXPECT_LT(maxdev[0], 1e-9);
  EXPECT_LT(maxdev[1], 1e-9);
  EXPECT_GT(maxdev[2], 0.5);
}

TEST(RigidRotation, TimeReversible)
{
  // N = 1000: longer runs amplify rounding past 1e-12 (the field run is chaotic)
  const double dt = 0.01, kfield = 2.0;
  const int N = 1000;
  for (int field = 0; field < 2; ++field) {
    double q0[4], q[4], p0[4], p[4];
    start_quat(q0);
    const double Lb[3] = {0.6, -1.0, 0.9};
    phys::rigid_p_from_body_angmom(q0, Lb, p0);
    for (int i = 0; i < 4; ++i) q[i] = q0[i], p[i] = p0[i];
    for (int s = 0; s < N; ++s) {
      if (field)
        step_field(q, p, kSsdInertia, kfield, dt);
      else
        phys::rigid_free_rotate(q, p, kSsdInertia, dt);
    }
    const double moved = dist4(q, q0);
    for (int i = 0; i < 4; ++i) p[i] = -p[i];
    for (int s = 0; s < N; ++s) {
      if (field)
        step_field(q, p, kSsdInertia, kfield, dt);
      else
        phys::rigid_free_rotate(q, p, kSsdInertia, dt);
    }
    double pm[4];
    for (int i = 0; i < 4; ++i) pm[i] = -p[i];
    std::printf("[ info ] reversal (%s): moved %.3f, back |dq| %.2e, |dp| %.2e\n",
                field ? "field" : "free", moved, dist4(q, q0), dist4(pm, p0));
    EXPECT_GT(moved, 0.1);
    EXPECT_LT(dist4(q, q0), 1e-12);
    EXPECT_LT(dist4(pm, p0), 1e-12 * std::sqrt(phys::rigid::dot4(p0, p0)));
  }
}

// total energy in U = -k e_z(body).z(lab): bounded O(dt^2) fluctuation, no drift
TEST(RigidRotation, FieldEnergyBoundedSecondOrder)
{
  const double kfield = 2.0, T = 500.0;
  auto run = [&](double dt, double *drift) {
    double q[4], p[4];
    start_quat(q);
    const double Lb[3] = {0.8, -1.1, 0.7};
    phys::rigid_p_from_body_angmom(q, Lb, p);
    const double e0 = phys::rigid_kinetic_energy(q, p, kSsdInertia) + field_energy(q, kfield);
    const int steps = static_cast<int>(std::lround(T / dt));
    const int block = steps / 10;
    double d = 0.0, first = 0.0, last = 0.0;
    for (int s = 0; s < steps; ++s) {
      step_field(q, p, kSsdInertia, kfield, dt);
      const double e = phys::rigid_kinetic_energy(q, p, kSsdInertia) + field_energy(q, kfield);
      d = std::fmax(d, std::fabs(e - e0));
      if (s < block) first += (e - e0) / block;
      if (s >= steps - block) last += (e - e0) / block;
    }
    *drift = std::fabs(last - first);
    return d;
  };
  double drift1, drift2;
  const double a = run(0.01, &drift1), b = run(0.005, &drift2);
  std::printf("[ info ] field: max |dE| dt 0.01 %.3e, 0.005 %.3e, ratio %.3f; drift (first vs "
              "last 10%%) %.2e, %.2e\n",
              a, b, a / b, drift1, drift2);
  EXPECT_LT(a, 1e-3);
  EXPECT_GT(a / b, 3.5);
  EXPECT_LT(a / b, 4.5);
  EXPECT_LT(drift1, 0.2 * a);
  EXPECT_LT(drift2, 0.2 * b);
}

// DLM's free rotation on (q, L_body) is the same map as NO_SQUISH's, to rounding
TEST(RigidRotation, DlmFreeRotationMatchesNoSquish)
{
  double q[4], qd[4], p[4], L[3] = {0.8, -1.1, 0.7};
  start_quat(q);
  for (int i = 0; i < 4; ++i) qd[i] = q[i];
  phys::rigid_p_from_body_angmom(q, L, p);
  for (int s = 0; s < 1000; ++s) {
    phys::rigid_free_rotate(q, p, kSsdInertia, 0.01);
    phys::rigid_dlm_free_rotate(qd, L, kSsdInertia, 0.01);
  }
  double Ln[3];
  phys::rigid_body_angmom(q, p, Ln);
  std::printf("[ info ] DLM vs NO_SQUISH after 1000 steps: |dq| %.2e, |dL| %.2e\n", dist4(q, qd),
              dist3(Ln, L));
  EXPECT_LT(dist4(q, qd), 1e-12);
  EXPECT_LT(dist3(Ln, L), 1e-12);
}
