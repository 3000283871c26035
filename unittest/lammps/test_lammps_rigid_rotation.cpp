/* physics/rigid_rotation.h against LAMMPS's own NO_SQUISH: the conjugate momentum of
   FixRigidNH::setup (conjqm = 2 quatvec(q, R^T angmom)), the kick of initial_integrate
   (conjqm += 2 dtf quatvec(q, R^T torque)), the rotation sequence
   no_squish_rotate(3, 2, 1, 2, 3) with dt/2, dt/2, dt, dt/2, dt/2, and the way back to
   angmom (R invquatvec(q, conjqm) / 2). MathExtra only; no LAMMPS instance is needed. */

#include "math_extra.h"
#include "physics/rigid_rotation.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

namespace phys = mesogpu::physics;

TEST(LammpsRigidRotation, MatchesFixRigidNoSquish)
{
  double inertia[3] = {1.7696, 0.6145, 1.1550};    // SSD water
  double q[4] = {0.8, -0.3, 0.4, 0.25};
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double &x : q) x /= n;
  double ql[4] = {q[0], q[1], q[2], q[3]};
  double angmom[3] = {0.7, -1.3, 0.45};
  double ex[3], ey[3], ez[3], mb[3], cq[4], p[4];

  MathExtra::q_to_exyz(ql, ex, ey, ez);
  MathExtra::transpose_matvec(ex, ey, ez, angmom, mb);
  MathExtra::quatvec(ql, mb, cq);
  for (double &x : cq) x *= 2.0;
  phys::rigid_p_from_lab_angmom(q, angmom, p);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(p[i], cq[i], 1e-15);

  const double dt = 0.01;
  for (int s = 0; s < 200; ++s) {
    // a torque that depends on the orientation, so that a wrong q shows in p
    double tau[3] = {0.5 * ez[1], -0.5 * ez[0], 0.1}, tb[3], fq[4];
    MathExtra::transpose_matvec(ex, ey, ez, tau, tb);
    MathExtra::quatvec(ql, tb, fq);
    for (int i = 0; i < 4; ++i) cq[i] += dt * fq[i];    // dtf2 = 2 (dt/2)
    MathExtra::no_squish_rotate(3, cq, ql, inertia, 0.5 * dt);
    MathExtra::no_squish_rotate(2, cq, ql, inertia, 0.5 * dt);
    MathExtra::no_squish_rotate(1, cq, ql, inertia, dt);
    MathExtra::no_squish_rotate(2, cq, ql, inertia, 0.5 * dt);
    MathExtra::no_squish_rotate(3, cq, ql, inertia, 0.5 * dt);
    MathExtra::q_to_exyz(ql, ex, ey, ez);

    phys::rigid_kick_lab(q, p, tau, 0.5 * dt);
    phys::rigid_free_rotate(q, p, inertia, dt);
  }
  double dq = 0.0, dp = 0.0;
  for (int i = 0; i < 4; ++i) {
    dq = std::fmax(dq, std::fabs(q[i] - ql[i]));
    dp = std::fmax(dp, std::fabs(p[i] - cq[i]));
  }
  double am[3], mine[3];
  MathExtra::invquatvec(ql, cq, mb);
  MathExtra::matvec(ex, ey, ez, mb, am);
  for (double &x : am) x *= 0.5;
  phys::rigid_lab_angmom(q, p, mine);
  double da = 0.0;
  for (int d = 0; d < 3; ++d) da = std::fmax(da, std::fabs(mine[d] - am[d]));
  std::printf("[ info ] 200 steps vs LAMMPS: max |dq| %.2e, |dp| %.2e, |dangmom| %.2e\n", dq, dp,
              da);
  EXPECT_LT(dq, 1e-13);
  EXPECT_LT(dp, 1e-13);
  EXPECT_LT(da, 1e-13);
}
