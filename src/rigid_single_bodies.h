/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   Single-site rigid bodies in LAMMPS: the per-type principal moments of inertia, their
   'inertia' / 'rotation' / 'dipole' keywords, and the per-atom rotation step (half kick
   of the angular momentum, free rotation by NO_SQUISH or DLM, exact flow for linear
   bodies, dipole following body z). One object of this class is held by every style that
   needs them: fix nve/rigid/single, fix nvt/rigid/single, compute temp/rigid/single, so
   the step and the error messages exist once. Physics: src/physics/rigid_rotation.h.
------------------------------------------------------------------------- */

#ifndef MESOGPU_RIGID_SINGLE_BODIES_H
#define MESOGPU_RIGID_SINGLE_BODIES_H

#include "pointers.h"

#include <array>
#include <string>
#include <vector>

namespace LAMMPS_NS {

class RigidSingleBodies : protected Pointers {
 public:
  enum class Scheme { NO_SQUISH, DLM };

  // prefix names the style in errors, e.g. "Fix nve/rigid/single"
  RigidSingleBodies(class LAMMPS *, const std::string &prefix);

  // the keyword at arg[iarg]: returns the number of words it took, 0 if it is not one of
  // ours (inertia, or with all = true also rotation and dipole); bad values are errors
  int parse(int iarg, int narg, char **arg, bool all = true);

  // start of a run: atom style and attributes, an inertia for every oriented atom of the
  // group; with 'dipole yes' sets mu from the orientation
  void init(int groupbit);
  // start of a run: drop the spin of linear bodies about their axis
  void setup(int groupbit);

  double *quat_of(int i);    // the quaternion of local atom i, nullptr if it has none
  // half kick L += dtf tau (dtf = dt/2 ftm2v); a linear body keeps only the normal part
  void kick(int i, const double *q, double dtf);
  // full step: q renormalised, free rotation of (q, L) over dtv, then mu if 'dipole yes'
  void advance(int i, double *q, double dtv);
  // mu = |mu| (body z in the lab) of local atom i with quaternion q ('dipole yes')
  void set_dipole(int i, const double *q);
  // sum over local oriented atoms of the group of sum_k L_k^2 / (2 I_k), no mvv2e
  double kinetic_energy_local(int groupbit);
  // rotational degrees of freedom of an oriented atom of type t: 3, or 2 for a linear body
  int rot_dof(int t) const { return zero_axis[t] >= 0 ? 2 : 3; }

  // settings, public so a device part can read them
  std::vector<std::array<double, 3>> inertia;    // per type, index 1..ntypes, body frame
  std::vector<char> inertia_set;                 // type given an inertia by the user
  std::vector<int> zero_axis;    // per type: -1, or the axis (0..2) with I = 0 (linear body)
  Scheme scheme = Scheme::NO_SQUISH;
  bool dipole = false;    // set mu = |mu| (body z in the lab) after each rotation
  class AtomVecEllipsoid *avec = nullptr;    // set by init()

 private:
  std::string prefix;
  void project_spin(int i, const double *q);    // linear body: drop angmom along the axis
};

}    // namespace LAMMPS_NS

#endif
