/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - checks shared by the device pair styles of single-site rigid
   bodies (ssd/cuda, gb/cuda, coul/dipole/body/cuda): the engine holds the
   quaternions, and every atom of a type that needs an orientation has one.
------------------------------------------------------------------------- */

#ifndef MESOGPU_BODY_PAIR_UTIL_H
#define MESOGPU_BODY_PAIR_UTIL_H

#include <vector>

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {
class LAMMPS;

namespace device_util {
  // stops with a LAMMPS error unless the engine has the rigid-body quaternions (an atom
  // style with ellipsoid, angmom and torque), or if an owned atom of a type t with
  // needs_orientation[t] has no ellipsoid bonus (style: "ssd/cuda", ...)
  void require_body_orientations(LAMMPS *lmp, const mesogpu::cuda::Engine &engine,
                                 const char *style, const std::vector<int> &needs_orientation);
}    // namespace device_util

}    // namespace LAMMPS_NS

#endif
