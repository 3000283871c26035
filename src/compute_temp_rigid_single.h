/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   compute temp/rigid/single: temperature of single-site rigid bodies from translational
   and rotational kinetic energy, the rotation with per-type principal moments of inertia
   (the 'inertia' keyword of fix nve/rigid/single and fix nvt/rigid/single).
   Docs: doc/fix_nvt_rigid_single.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_COMPUTE_TEMP_RIGID_SINGLE_H
#define MESOGPU_COMPUTE_TEMP_RIGID_SINGLE_H

#include "compute.h"
#include "rigid_single_bodies.h"

namespace LAMMPS_NS {

class ComputeTempRigidSingle : public Compute {
 public:
  ComputeTempRigidSingle(class LAMMPS *, int, char **);
  ~ComputeTempRigidSingle() override;
  void init() override;
  void setup() override;
  double compute_scalar() override;
  void compute_vector() override;

  RigidSingleBodies bodies;    // the inertia per type

 private:
  double tfactor = 0.0;
  void dof_compute();
};

}    // namespace LAMMPS_NS

#endif
