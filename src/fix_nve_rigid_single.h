/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix nve/rigid/single: NVE integration of single-site rigid bodies (one atom with a full
   orientation: SSD water, Gay-Berne beads, dipolar beads) with per-type principal moments
   of inertia. Translation: velocity Verlet. Rotation: half kick of the angular momentum
   with the torque, free rotation by NO_SQUISH (Miller et al. 2002) or DLM (Dullweber,
   Leimkuhler, McLachlan 1997), half kick. Orientation and angular momentum are LAMMPS's
   atom_style ellipsoid quaternion and atom->angmom. Optional Langevin bath (keyword
   langevin) on translation and rotation with the per-type inertia.
   Physics: src/physics/rigid_rotation.h; keywords and the per-atom step:
   src/rigid_single_bodies.h (shared with fix nvt/rigid/single). Docs:
   doc/fix_nve_rigid_single.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVE_RIGID_SINGLE_H
#define MESOGPU_FIX_NVE_RIGID_SINGLE_H

#include "fix.h"
#include "rigid_single_bodies.h"

namespace LAMMPS_NS {

class FixNVERigidSingle : public Fix {
 public:
  FixNVERigidSingle(class LAMMPS *, int, char **);
  ~FixNVERigidSingle() override;

  int setmask() override;
  void init() override;
  void setup(int) override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void post_force(int) override;
  void reset_dt() override;
  double compute_scalar() override;

  RigidSingleBodies bodies;    // inertia, scheme, dipole; public so a device part can read them

 protected:
  double dtv = 0.0, dtf = 0.0;
  // optional Langevin thermostat: friction and noise forces and torques (post_force)
  bool langevin = false;
  double t_langevin = 0.0, tdamp_langevin = 0.0;
  int seed_langevin = 0;
  class RanMars *random = nullptr;
};

}    // namespace LAMMPS_NS

#endif
