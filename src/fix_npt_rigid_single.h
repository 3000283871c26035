/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix npt/rigid/single and fix nph/rigid/single: FixNH's Nose-Hoover chain thermostat and
   MTK barostat for single-site rigid bodies with per-type inertia (fix nvt/rigid/single
   plus pressure control). The thermostat acts on translation + rotation (compute
   temp/rigid/single); the pressure's kinetic part and the MTK kinetic terms are
   translational only (a compute temp on group all of the fix's own), because rotations do
   not scale with the box. Orthogonal boxes; iso, aniso, x, y, z couplings.
   Docs: doc/fix_npt_rigid_single.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NPT_RIGID_SINGLE_H
#define MESOGPU_FIX_NPT_RIGID_SINGLE_H

#include "fix_nvt_rigid_single.h"

namespace LAMMPS_NS {

class FixNPTRigidSingle : public FixNVTRigidSingle {
 public:
  FixNPTRigidSingle(class LAMMPS *, int, char **);
  ~FixNPTRigidSingle() override;
  void init() override;
  void setup(int) override;
  void initial_integrate(int) override;
  void final_integrate() override;
  int modify_param(int, char **) override;

 protected:
  char *id_temp_trans = nullptr;    // compute temp on group all: the pressure's temperature
  class Compute *temp_trans = nullptr;
  void pressure_now();          // translational temperature, then pressure, couple()
  void nh_omega_dot_trans();    // FixNH::nh_omega_dot with translational MTK terms
};

}    // namespace LAMMPS_NS

#endif
