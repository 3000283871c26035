/* mesogpu: fix nve/rigid/single/cuda; see fix_nve_rigid_single_cuda.h. */

#include "fix_nve_rigid_single_cuda.h"

#include "device_context.h"
#include "device_style_util.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "group.h"

#include <mpi.h>
#include <stdexcept>
#include <vector>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

/* ---------------------------------------------------------------------- */

void rigid_single_cuda::check_resident(LAMMPS *lmp, Fix *fix, const RigidSingleBodies &bodies)
{
  if (!device_util::resident_run(lmp)) return;
  if (lmp->group->dynamic[fix->igroup])
    lmp->error->all(FLERR,
                    "Fix {} (ID {}): dynamic group {} is not supported in resident runs "
                    "(run_style verlet/cuda keeps the group bits of the run's start)",
                    fix->style, fix->id, lmp->group->names[fix->igroup]);
  if (bodies.dipole && lmp->atom->omega_flag)
    lmp->error->all(FLERR,
                    "Fix {} (ID {}): 'dipole yes' with atom attribute omega is not supported in "
                    "resident runs: the device keeps its own dipole orientations for that atom "
                    "style, which would not follow the quaternions (drop omega from the atom "
                    "style, or use 'dipole no')",
                    fix->style, fix->id);
}

/* ---------------------------------------------------------------------- */

void rigid_single_cuda::setup_engine(LAMMPS *lmp, Fix *fix, const RigidSingleBodies &bodies,
                                     Engine &engine)
{
  if (!engine.has_bodies())
    lmp->error->all(FLERR,
                    "Fix {} (ID {}): the device holds no rigid bodies (the atom style needs an "
                    "ellipsoid bonus, angmom and torque)",
                    fix->style, fix->id);
  const int ntypes = lmp->atom->ntypes;
  std::vector<double> inertia(3 * (size_t) (ntypes + 1), 0.0);
  std::vector<int> zero_axis(ntypes + 1, -1);
  for (int t = 1; t <= ntypes && t < (int) bodies.inertia.size(); ++t) {
    if (!bodies.inertia_set[t]) continue;
    for (int k = 0; k < 3; ++k) inertia[3 * t + k] = bodies.inertia[t][k];
    zero_axis[t] = bodies.zero_axis[t];
  }
  try {
    engine.set_rigid_inertia(inertia, zero_axis, bodies.scheme == RigidSingleBodies::Scheme::DLM);
  } catch (std::runtime_error &e) {
    lmp->error->all(FLERR, "Fix {} (ID {}): {}", fix->style, fix->id, e.what());
  }
}

/* ---------------------------------------------------------------------- */

void rigid_single_cuda::sync_dipoles(LAMMPS *lmp, Fix *fix, RigidSingleBodies &bodies)
{
  if (!bodies.dipole) return;
  Atom *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    if (!(atom->mask[i] & fix->groupbit)) continue;
    if (const double *q = bodies.quat_of(i)) bodies.set_dipole(i, q);
  }
}

/* ---------------------------------------------------------------------- */

bool rigid_single_cuda::device_rotational_energy(LAMMPS *lmp, Fix *fix, double &erot)
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (!engine) return false;
  double sums[2];
  try {
    engine->rigid_kinetic_sums(fix->groupbit, sums);
  } catch (std::runtime_error &e) {
    lmp->error->all(FLERR, "Fix {} (ID {}): {}", fix->style, fix->id, e.what());
  }
  erot = 0.5 * sums[1] * lmp->force->mvv2e;
  return true;
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingleCuda::init()
{
  FixNVERigidSingle::init();
  if (!device_util::resident_run(lmp)) return;
  if (langevin)
    error->all(FLERR,
               "Fix {} (ID {}): keyword langevin is not supported in resident runs (run_style "
               "verlet/cuda): its noise is one serial random stream (RanMars) drawn in atom "
               "order, which the device cannot reproduce; run the fix on the host, or drop "
               "langevin",
               style, id);
  rigid_single_cuda::check_resident(lmp, this, bodies);
}

/* ---------------------------------------------------------------------- */

void FixNVERigidSingleCuda::device_setup(Engine &engine)
{
  rigid_single_cuda::setup_engine(lmp, this, bodies, engine);
}

void FixNVERigidSingleCuda::device_initial_integrate(Engine &engine)
{
  engine.rigid_step(dtv, dtf, groupbit, true, true);
}

void FixNVERigidSingleCuda::device_final_integrate(Engine &engine)
{
  engine.rigid_step(dtv, dtf, groupbit, true, false);
}

void FixNVERigidSingleCuda::device_sync_host(Engine &)
{
  rigid_single_cuda::sync_dipoles(lmp, this, bodies);
}

/* ---------------------------------------------------------------------- */

double FixNVERigidSingleCuda::compute_scalar()
{
  double erot;
  if (rigid_single_cuda::device_rotational_energy(lmp, this, erot)) return erot;
  return FixNVERigidSingle::compute_scalar();
}
