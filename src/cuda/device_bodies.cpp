/* mesogpu: single-site rigid bodies between LAMMPS and the device (device_bodies.h). */

#include "cuda/device_bodies.h"

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "ellipsoid_quat.h"
#include "engine.h"
#include "error.h"

#include <vector>

using namespace LAMMPS_NS;

namespace mesogpu {

namespace {
  AtomVecEllipsoid *ellipsoid_vec(LAMMPS *lmp)
  {
    return dynamic_cast<AtomVecEllipsoid *>(lmp->atom->style_match("ellipsoid"));
  }
}    // namespace

bool atoms_have_bodies(LAMMPS *lmp)
{
  const Atom *atom = lmp->atom;
  return atom->ellipsoid_flag && atom->angmom_flag && atom->torque_flag && ellipsoid_vec(lmp);
}

void upload_bodies(LAMMPS *lmp, cuda::Engine &engine)
{
  Atom *atom = lmp->atom;
  AtomVecEllipsoid *avec = ellipsoid_vec(lmp);
  // the engine's rows: the owned atoms, and on several ranks their ghosts after them
  // (borders() gave them their owners' bonus; their angmom only with comm_modify vel yes,
  // and no kernel reads it: zero)
  const int rows = engine.natoms(), n = atom->nlocal;
  if (rows != n && rows != n + atom->nghost)
    lmp->error->one(FLERR, "mesogpu: upload_bodies: the device holds {} rows, LAMMPS {} + {} atoms",
                    rows, n, atom->nghost);
  std::vector<double> quat(4 * (size_t) rows + 4, 0.0), angmom(3 * (size_t) rows + 3, 0.0);
  for (int i = 0; i < rows; ++i) {
    if (const double *q = ellipsoid_quat(atom, avec, i))
      for (int d = 0; d < 4; ++d) quat[4 * (size_t) i + d] = q[d];
    if (i < n)
      for (int d = 0; d < 3; ++d) angmom[3 * (size_t) i + d] = atom->angmom[i][d];
  }
  engine.upload_bodies(quat.data(), angmom.data());
}

void download_bodies(LAMMPS *lmp, const cuda::Engine &engine, bool state)
{
  Atom *atom = lmp->atom;
  const int n = atom->nlocal;
  if (n == 0 || !engine.has_bodies()) return;
  if (!state) {
    engine.download_bodies(nullptr, nullptr, atom->torque[0]);
    return;
  }
  AtomVecEllipsoid *avec = ellipsoid_vec(lmp);
  std::vector<double> quat(4 * (size_t) n, 0.0);
  engine.download_bodies(quat.data(), atom->angmom[0], atom->torque[0]);
  for (int i = 0; i < n; ++i)
    if (double *q = ellipsoid_quat(atom, avec, i))
      for (int d = 0; d < 4; ++d) q[d] = quat[4 * (size_t) i + d];
}

}    // namespace mesogpu
