/* mesogpu: fix npt/rigid/single/cuda, nph/rigid/single/cuda; see fix_npt_rigid_single_cuda.h. */

#include "fix_npt_rigid_single_cuda.h"

#include "device_style_util.h"
#include "fix_nve_rigid_single_cuda.h"

#include "atom.h"
#include "compute.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "modify.h"
#include "update.h"

#include <cmath>
#include <cstring>
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

/* ----------------------------------------------------------------------
   the pressure's translational temperature (the CPU fix's compute temp of group all)
   becomes temp/cuda, same ID: in resident runs its scalar and kinetic tensor are device
   sums, elsewhere it is compute temp (under -sf cuda it is temp/cuda already)
------------------------------------------------------------------------- */

FixNPTRigidSingleCuda::FixNPTRigidSingleCuda(LAMMPS *lmp, int narg, char **arg) :
    FixNPTRigidSingle(lmp, narg, arg)
{
  Compute *t = modify->get_compute_by_id(id_temp_trans);
  if (t && strcmp(t->style, "temp/cuda") != 0) {
    modify->delete_compute(id_temp_trans);
    modify->add_compute(fmt::format("{} all temp/cuda", id_temp_trans), 0);
  }
}

/* ---------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::init()
{
  FixNPTRigidSingle::init();
  if (!device_util::resident_run(lmp)) return;
  rigid_single_cuda::check_resident(lmp, this, bodies);
  rigid_single_cuda::check_thermostat_temperature(lmp, this, bodies, temperature);
  if (!modify->get_fix_by_style("^mdscf").empty())
    error->all(FLERR,
               "Fix {} (ID {}): the box must not change under fix mdscf/cuda (its field grid "
               "is laid out once per run)",
               style, id);
  // the fix's own computes (fix_modify press is refused by the CPU fix): the pressure of
  // a temp/cuda, which reduces on the device
  if (!temp_trans || strcmp(temp_trans->style, "temp/cuda") != 0)
    error->all(FLERR,
               "Fix {} (ID {}): the pressure's temperature compute {} has style {}; a resident "
               "run needs compute temp/cuda",
               style, id, id_temp_trans, temp_trans ? temp_trans->style : "(none)");
  if (strcmp(pressure->style, "pressure") != 0)
    error->all(FLERR,
               "Fix {} (ID {}): the pressure compute {} has style {}; a resident run supports "
               "compute pressure",
               style, id, pressure->id, pressure->style);
}

/* ---------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::device_setup(Engine &engine)
{
  rigid_single_cuda::setup_engine(lmp, this, bodies, engine);
}

void FixNPTRigidSingleCuda::device_sync_host(Engine &)
{
  rigid_single_cuda::sync_dipoles(lmp, this, bodies);
}

/* ----------------------------------------------------------------------
   FixNPTRigidSingle::initial_integrate, unchanged: its pressure_now() reads the device
   through temp/cuda and the published virial; the virtual loops below run on the device
------------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::device_initial_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  FixNPTRigidSingle::initial_integrate(0);
}

/* ----------------------------------------------------------------------
   FixNPTRigidSingle::final_integrate (no bias: the thermostat's compute is a
   temp/rigid/single, checked at init) with the thermostat's temperature from a device sum
   in place of temperature->compute_scalar()
------------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::device_final_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  nve_v();
  nh_v_press();
  t_current = rigid_single_cuda::device_thermostat_temperature(lmp, engine, temperature);
  tdof = temperature->dof;
  pressure_now();
  nh_omega_dot_trans();
  if (tstat_flag) nhc_temp_integrate();
  if (mpchain) nhc_press_integrate();
}

/* ---------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::nh_v_temp()
{
  if (!active) return FixNPTRigidSingle::nh_v_temp();
  active->rigid_scale(groupbit, factor_eta);
}

void FixNPTRigidSingleCuda::nve_v()
{
  if (!active) return FixNPTRigidSingle::nve_v();
  active->rigid_step(dtv, dtf, groupbit, true, false);
}

void FixNPTRigidSingleCuda::nve_x()
{
  if (!active) return FixNPTRigidSingle::nve_x();
  active->rigid_step(dtv, dtf, groupbit, false, true);
}

/* ----------------------------------------------------------------------
   FixNH::nh_v_press's factors (no tilt terms: orthogonal box); the angular momenta are
   not scaled (FixNPTRigidSingle keeps FixNH's nh_v_press)
------------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::nh_v_press()
{
  if (!active) return FixNPTRigidSingle::nh_v_press();
  const double factor[3] = {exp(-dt4 * (omega_dot[0] + mtk_term2)),
                            exp(-dt4 * (omega_dot[1] + mtk_term2)),
                            exp(-dt4 * (omega_dot[2] + mtk_term2))};
  active->nh_v_press(groupbit, factor);
}

/* ----------------------------------------------------------------------
   FixNH::remap() with no local atoms (as fix npt/cuda): LAMMPS's own box arithmetic
   (omega, the new box about the fixed point, set_global_box, set_local_box) without its
   loops over the host atoms, which are stale during the run; the atoms are dilated on the
   device, orientations and angular momenta stay
------------------------------------------------------------------------- */

void FixNPTRigidSingleCuda::remap()
{
  if (!active) return FixNPTRigidSingle::remap();
  double old_lo[3], old_h_inv[3];
  for (int d = 0; d < 3; d++) {
    old_lo[d] = domain->boxlo[d];
    old_h_inv[d] = domain->h_inv[d];
  }
  const int nlocal = atom->nlocal;
  atom->nlocal = 0;
  try {
    FixNPTRigidSingle::remap();
  } catch (...) {
    atom->nlocal = nlocal;
    throw;
  }
  atom->nlocal = nlocal;
  try {
    // the engine's box: the global one, or on several ranks the new subdomain grown
    double lo[3], hi[3];
    device_util::engine_box(this->lmp, lo, hi);
    active->change_box(lo, hi);
    active->remap_atoms(old_lo, old_h_inv, domain->boxlo, domain->h,
                        allremap ? 0 : dilate_group_bit);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Fix {} (ID {}): {}", style, id, e.what());
  }
}
