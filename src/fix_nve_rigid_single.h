/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix nve/rigid/single: NVE integration of single-site rigid bodies (one atom with a full
   orientation: SSD water, Gay-Berne beads, dipolar beads) with per-type principal moments
   of inertia. Translation: velocity Verlet. Rotation: half kick of the angular momentum
   with the torque, free rotation by NO_SQUISH (Miller et al. 2002) or DLM (Dullweber,
   Leimkuhler, McLachlan 1997), half kick. Orientation and angular momentum are LAMMPS's
   atom_style ellipsoid quaternion and atom->angmom.
   Physics: src/physics/rigid_rotation.h. Docs: doc/fix_nve_rigid_single.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVE_RIGID_SINGLE_H
#define MESOGPU_FIX_NVE_RIGID_SINGLE_H

#include "fix.h"

#include <array>
#include <vector>

namespace LAMMPS_NS {

class FixNVERigidSingle : public Fix {
 public:
  enum class Scheme { NO_SQUISH, DLM };

  FixNVERigidSingle(class LAMMPS *, int, char **);

  int setmask() override;
  void init() override;
  void setup(int) override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void reset_dt() override;
  double compute_scalar() override;

  // settings, public so a device part can read them
  std::vector<std::array<double, 3>> inertia;    // per type, index 1..ntypes, body frame
  std::vector<char> inertia_set;                 // type given an inertia by the user
  std::vector<int> zero_axis;    // per type: -1, or the axis (0..2) with I = 0 (linear body)
  Scheme scheme = Scheme::NO_SQUISH;
  bool dipole = false;    // set mu = |mu| (body z in the lab) after each rotation

 protected:
  double dtv = 0.0, dtf = 0.0;
  class AtomVecEllipsoid *avec = nullptr;

  double *quat_of(int i);    // the quaternion of local atom i, nullptr if it has none
  void rotate(int i, double *q);
  void kick(int i, const double *q);
  void set_dipole(int i, const double *q);
  void project_spin(int i, const double *q);    // linear body: drop angmom along the axis
};

}    // namespace LAMMPS_NS

#endif
