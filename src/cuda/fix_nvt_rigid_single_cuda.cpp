/* mesogpu: fix nvt/rigid/single/cuda; see fix_nvt_rigid_single_cuda.h. */

#include "fix_nvt_rigid_single_cuda.h"

#include "compute_temp_rigid_single.h"
#include "device_style_util.h"
#include "fix_nve_rigid_single_cuda.h"

#include "atom.h"
#include "compute.h"
#include "engine.h"
#include "error.h"
#include "force.h"

#include <stdexcept>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

namespace {

// the engine of the device step, cleared however the step ends
struct ActiveEngine {
  Engine *&slot;
  ActiveEngine(Engine *&s, Engine &e) : slot(s) { slot = &e; }
  ~ActiveEngine() { slot = nullptr; }
};

}    // namespace

/* ---------------------------------------------------------------------- */

void rigid_single_cuda::check_thermostat_temperature(LAMMPS *lmp, Fix *fix,
                                                     const RigidSingleBodies &bodies,
                                                     Compute *temperature)
{
  // the chain's temperature is a device sum with this fix's inertia: the temperature
  // compute (the fix's own, or one set by fix_modify temp) must be a temp/rigid/single
  // with the same inertia (any group)
  auto *trs = dynamic_cast<ComputeTempRigidSingle *>(temperature);
  bool same = trs != nullptr;
  for (int t = 1; same && t <= lmp->atom->ntypes; ++t) {
    const bool a = t < (int) bodies.inertia_set.size() && bodies.inertia_set[t];
    const bool b = t < (int) trs->bodies.inertia_set.size() && trs->bodies.inertia_set[t];
    same = a == b && (!a || bodies.inertia[t] == trs->bodies.inertia[t]);
  }
  if (!same)
    lmp->error->all(FLERR,
                    "Fix {} (ID {}): the temperature compute {} (style {}) cannot be used in "
                    "resident runs: the device sums the kinetic energy of translation and "
                    "rotation with the fix's inertia, as compute temp/rigid/single with the same "
                    "inertia keywords does (set one with fix_modify temp, or run the fix on the "
                    "host)",
                    fix->style, fix->id, temperature->id, temperature->style);
}

double rigid_single_cuda::device_thermostat_temperature(LAMMPS *lmp, Engine &engine,
                                                        Compute *temperature)
{
  double sums[2];
  engine.rigid_kinetic_sums(temperature->groupbit, sums);
  const double dof = temperature->dof;
  return dof > 0.0 ? (sums[0] + sums[1]) * (lmp->force->mvv2e / (dof * lmp->force->boltz)) : 0.0;
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingleCuda::init()
{
  FixNVTRigidSingle::init();
  if (!device_util::resident_run(lmp)) return;
  rigid_single_cuda::check_resident(lmp, this, bodies);
  rigid_single_cuda::check_thermostat_temperature(lmp, this, bodies, temperature);
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingleCuda::device_setup(Engine &engine)
{
  rigid_single_cuda::setup_engine(lmp, this, bodies, engine);
}

/* ----------------------------------------------------------------------
   FixNH's own initial step; the virtual loops over atoms below run on the device
------------------------------------------------------------------------- */

void FixNVTRigidSingleCuda::device_initial_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  FixNVTRigidSingle::initial_integrate(0);
}

/* ----------------------------------------------------------------------
   FixNH::final_integrate of a thermostat without barostat and without a bias: the
   temperature from a device sum in place of temperature->compute_scalar()
------------------------------------------------------------------------- */

void FixNVTRigidSingleCuda::device_final_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  nve_v();
  t_current = rigid_single_cuda::device_thermostat_temperature(lmp, engine, temperature);
  tdof = temperature->dof;
  if (tstat_flag) nhc_temp_integrate();
}

void FixNVTRigidSingleCuda::device_sync_host(Engine &)
{
  rigid_single_cuda::sync_dipoles(lmp, this, bodies);
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingleCuda::nh_v_temp()
{
  if (!active) return FixNVTRigidSingle::nh_v_temp();
  active->rigid_scale(groupbit, factor_eta);
}

void FixNVTRigidSingleCuda::nve_v()
{
  if (!active) return FixNVTRigidSingle::nve_v();
  active->rigid_step(dtv, dtf, groupbit, true, false);
}

void FixNVTRigidSingleCuda::nve_x()
{
  if (!active) return FixNVTRigidSingle::nve_x();
  active->rigid_step(dtv, dtf, groupbit, false, true);
}
