/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - helpers shared by the /cuda styles (src/cuda/): the per-atom
   energy/virial publisher of the force styles, the host-fallback warning, the
   checks of the device thermostats, and parameter hand-over shared by styles.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_STYLE_UTIL_H
#define MESOGPU_DEVICE_STYLE_UTIL_H

#include "device_styles.h"
#include "physics/angle.h"

namespace LAMMPS_NS {

class Compute;
class Fix;
class LAMMPS;

// values of enums private to LAMMPS's fix_langevin.cpp, fix_nh.cpp and fix_temp_berendsen.cpp
constexpr int TSTYLE_CONSTANT = 0;       // tstyle: a constant (or ramped) target temperature
constexpr int NOBIAS_TEMPERATURE = 0;    // which: the temperature compute has no bias

// the force kinds whose per-atom energies and virials the engine keeps apart
enum class DeviceForceKind { pair, bond, angle, dihedral };

namespace device_util {
  // a /cuda style outside a device run style runs its CPU code: say so once at init
  void warn_if_host(LAMMPS *lmp, const char *kind, const char *style);
  // compute temp or temp/cuda (the same temperature): what the device thermostats reproduce
  bool is_plain_temp(const Compute *c);
  // a run (not a minimisation) under a device run style (verlet/cuda): the device parts act
  bool resident_run(LAMMPS *lmp);
  // the box the engine works in (its cell grid, its rebuild test): the global box on one
  // rank; on several, the rank's subdomain grown past the ghost cutoff and the skin
  // (non-periodic on every side: ghosts are rows of their own)
  void engine_box(LAMMPS *lmp, double lo[3], double hi[3]);
  // the device thermostats sum m v^2 over a group, as compute temp does: a temperature
  // compute set by fix_modify temp must be one (of any group), without a bias. Checked at
  // init, before any device work, so the error comes the same with or without a GPU.
  void require_plain_temperature(LAMMPS *lmp, const Fix *fix, const Compute *temperature,
                                 int which);

  // per-atom energies and virials of one force kind from the engine into a style's
  // eatom / vatom (either may be null)
  void per_atom_arrays(mesogpu::cuda::Engine &engine, DeviceForceKind kind, LAMMPS *lmp,
                       double *eatom, double **vatom);

  // angle and dihedral parameters per type (index 0 unused) to the engine
  void set_angle(mesogpu::cuda::Engine &engine, mesogpu::physics::AngleKind kind, int ntypes,
                 const double *k, const double *theta0);
  void set_dihedral(mesogpu::cuda::Engine &engine, int ntypes, const double *k,
                    const double *cos_shift, const double *sin_shift, const int *multiplicity);
}    // namespace device_util

}    // namespace LAMMPS_NS

// the DeviceForce per-atom hook: it needs the style's protected ev_setup, so each /cuda
// force class gets it in its own body; KIND is a DeviceForceKind (pair, bond, ...)
#define MESOGPU_DEVICE_PER_ATOM(KIND)                                                              \
  void device_per_atom(mesogpu::cuda::Engine &engine, int eflag, int vflag) override               \
  {                                                                                                \
    ev_setup(eflag, vflag);                                                                        \
    device_util::per_atom_arrays(engine, DeviceForceKind::KIND, lmp, eflag_atom ? eatom : nullptr, \
                                 vflag_atom ? vatom : nullptr);                                    \
  }

#endif
