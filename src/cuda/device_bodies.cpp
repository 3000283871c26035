/* mesogpu: single-site rigid bodies between LAMMPS and the device (device_bodies.h). */

#include "cuda/device_bodies.h"

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "ellipsoid_quat.h"
#include "engine.h"
#include "error.h"

#include <string>
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

void upload_ellipsoid_shapes(LAMMPS *lmp, cuda::Engine &engine)
{
  Atom *atom = lmp->atom;
  AtomVecEllipsoid *avec = ellipsoid_vec(lmp);
  if (!avec || !atom->ellipsoid) return;
  const int rows = engine.natoms();
  std::vector<double> shape(3 * (size_t) rows + 3, 0.0);
  for (int i = 0; i < rows; ++i) {
    const int e = atom->ellipsoid[i];
    if (e >= 0)
      for (int d = 0; d < 3; ++d) shape[3 * (size_t) i + d] = avec->bonus[e].shape[d];
  }
  for (int d = 0; d < 3; ++d)
    engine.upload_host_column(std::string("shape") + "xyz"[d], shape.data() + d, 3);
}

void rebuild_ellipsoid_bonus(LAMMPS *lmp, const cuda::Engine &engine)
{
  Atom *atom = lmp->atom;
  AtomVecEllipsoid *avec = ellipsoid_vec(lmp);
  if (!avec || !atom->ellipsoid) return;
  const int n = atom->nlocal;
  std::vector<double> shape(3 * (size_t) n + 3, 0.0);
  for (int d = 0; d < 3; ++d)
    if (n) engine.download_host_column(std::string("shape") + "xyz"[d], shape.data() + d, 3);
  // the bonus list of the atoms now here, in atom order (as AtomVecEllipsoid::set_shape
  // appends it; the ghosts' entries go: a reneighbouring step leaves no host ghosts)
  avec->clear_bonus();
  avec->nlocal_bonus = 0;
  for (int i = 0; i < n; ++i) atom->ellipsoid[i] = -1;
  for (int i = 0; i < n; ++i) {
    const double *sh = shape.data() + 3 * (size_t) i;
    avec->set_shape(i, sh[0], sh[1], sh[2]);
  }
}

}    // namespace mesogpu
