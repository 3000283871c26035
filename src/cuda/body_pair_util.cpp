/* mesogpu: checks of the device pair styles of rigid bodies; see body_pair_util.h. */

#include "body_pair_util.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "lammps.h"

using namespace LAMMPS_NS;

void device_util::require_body_orientations(LAMMPS *lmp, const mesogpu::cuda::Engine &engine,
                                            const char *style,
                                            const std::vector<int> &needs_orientation)
{
  if (!engine.has_bodies())
    lmp->error->all(FLERR,
                    "Pair {} needs the particles' orientations on the device, which run_style "
                    "verlet/cuda keeps for atom styles with ellipsoid quaternions, angmom and "
                    "torque: use 'atom_style ellipsoid' or a hybrid style with ellipsoid (e.g. "
                    "'atom_style hybrid ellipsoid charge')",
                    style);
  const Atom *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; i++) {
    const int t = atom->type[i];
    if (t < (int) needs_orientation.size() && needs_orientation[t] &&
        (!atom->ellipsoid || atom->ellipsoid[i] < 0))
      lmp->error->one(FLERR,
                      "Pair {}: atom {} of type {} has no orientation (no ellipsoid bonus); give "
                      "type {} a shape and a quaternion, e.g. 'set type {} shape 1 1 1' and 'set "
                      "type {} quat/random SEED'",
                      style, atom->tag[i], t, t, t, t);
  }
}
