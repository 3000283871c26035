/* mesogpu: unit quaternions of oriented rigid bodies, LAMMPS's convention q = (w, x, y, z)
 * (atom_style ellipsoid, MathExtra). One rotation matrix for every model that reads a full
 * orientation (SSD water, the rigid-body integrator). */
#ifndef MESOGPU_PHYSICS_QUATERNION_H
#define MESOGPU_PHYSICS_QUATERNION_H

#include "meso_hd.h"

namespace mesogpu {
namespace physics {

  // R(q), body -> lab, row-major: the matrix of LAMMPS's MathExtra::quat_to_mat
  template <typename Real> MESO_HD void quat_to_rotation(const Real q[4], Real m[9])
  {
    const Real w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = w * w + x * x - y * y - z * z;
    m[1] = Real(2) * (x * y - w * z);
    m[2] = Real(2) * (x * z + w * y);
    m[3] = Real(2) * (x * y + w * z);
    m[4] = w * w - x * x + y * y - z * z;
    m[5] = Real(2) * (y * z - w * x);
    m[6] = Real(2) * (x * z - w * y);
    m[7] = Real(2) * (y * z + w * x);
    m[8] = w * w - x * x - y * y + z * z;
  }

  // A = R(q)^T, lab -> body: the body axes as rows
  template <typename Real> MESO_HD void quat_to_body_frame(const Real q[4], Real a[9])
  {
    Real m[9];
    quat_to_rotation(q, m);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) a[3 * r + c] = m[3 * c + r];
  }

}    // namespace physics
}    // namespace mesogpu

#endif
