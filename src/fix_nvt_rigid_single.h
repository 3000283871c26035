/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix nvt/rigid/single: Nose-Hoover chain thermostat (LAMMPS's FixNH) on the translational
   and rotational kinetic energy of single-site rigid bodies with per-type inertia, as
   fix nvt/asphere does it for ellipsoids: FixNH scales v and angmom by the same factor in
   nh_v_temp(), the temperature is compute temp/rigid/single (created by the fix, with the
   fix's inertia). Translation and rotation steps are those of fix nve/rigid/single
   (src/rigid_single_bodies.h: NO_SQUISH or DLM). Docs: doc/fix_nvt_rigid_single.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_NVT_RIGID_SINGLE_H
#define MESOGPU_FIX_NVT_RIGID_SINGLE_H

#include "fix_nh.h"
#include "rigid_single_bodies.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

// our keywords (inertia, rotation, dipole) taken out of the command line before FixNH
// parses the rest; a base class so that it is done before FixNH's constructor runs
struct RigidSingleNHArgs {
  RigidSingleNHArgs(class LAMMPS *, int, char **);
  RigidSingleBodies bodies;
  std::string inertia_words;            // the inertia keywords, for the temperature compute
  std::vector<std::string> nh_words;    // the command line without our keywords
  std::vector<char *> nh_argv;
};

class FixNVTRigidSingle : protected RigidSingleNHArgs, public FixNH {
 public:
  FixNVTRigidSingle(class LAMMPS *, int, char **);
  void init() override;
  void setup(int) override;

  const RigidSingleBodies &rigid_bodies() const { return bodies; }

 protected:
  void nve_v() override;
  void nve_x() override;
  void nh_v_temp() override;
};

}    // namespace LAMMPS_NS

#endif
