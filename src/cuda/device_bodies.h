/* mesogpu: single-site rigid bodies between LAMMPS and the device engine
 * (Engine::upload_bodies, download_bodies): the quaternion of each atom's ellipsoid bonus
 * (atom_style ellipsoid, or hybrid with it), its angmom and torque. Atoms without a bonus
 * go up as quaternion (0, 0, 0, 0): the device's sign of "no body". */
#ifndef MESOGPU_DEVICE_BODIES_H
#define MESOGPU_DEVICE_BODIES_H

namespace LAMMPS_NS {
class LAMMPS;
}

namespace mesogpu {
namespace cuda {
  class Engine;
}

// whether the atom style keeps bodies: ellipsoid bonus, angmom and torque
bool atoms_have_bodies(LAMMPS_NS::LAMMPS *lmp);
// quaternions and angmom of the engine's rows to the device (owned atoms; on several
// ranks their ghosts after them, quaternions only)
void upload_bodies(LAMMPS_NS::LAMMPS *lmp, cuda::Engine &engine);
// back to LAMMPS: torque always; quaternions (into the bonus) and angmom when `state`
void download_bodies(LAMMPS_NS::LAMMPS *lmp, const cuda::Engine &engine, bool state);

// several ranks, reneighbouring on the device: the shapes of the owned atoms' ellipsoid
// bonus (0 0 0: none) to the device, carried with the atoms (Engine::upload_host_column);
// after atoms moved, the host's bonus list made again from them for the atoms now owned
// (identity quaternions until download_bodies writes the device's)
void upload_ellipsoid_shapes(LAMMPS_NS::LAMMPS *lmp, cuda::Engine &engine);
void rebuild_ellipsoid_bonus(LAMMPS_NS::LAMMPS *lmp, const cuda::Engine &engine);

}    // namespace mesogpu

#endif
