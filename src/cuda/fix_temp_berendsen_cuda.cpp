/* mesogpu: fix temp/berendsen/cuda; see fix_temp_berendsen_cuda.h. */

#include "fix_temp_berendsen_cuda.h"

#include "device_style_util.h"

#include "compute.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "update.h"

#include <cmath>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixTempBerendsenCuda::init()
{
  FixTempBerendsen::init();
  if (tstyle != TSTYLE_CONSTANT && device_util::resident_run(lmp))
    error->all(FLERR, "Fix temp/berendsen/cuda: the target temperature must be constant or a ramp");
  device_util::require_plain_temperature(lmp, this, temperature, which);
}

void FixTempBerendsenCuda::device_end_of_step(Engine &engine)
{
  const double tdof = temperature->dof;
  if (tdof < 1) return;
  double delta = update->ntimestep - update->beginstep;
  if (delta != 0.0) delta /= update->endstep - update->beginstep;
  t_target = t_start + delta * (t_stop - t_start);
  const double tfactor = force->mvv2e / (tdof * force->boltz);
  if (temperature->igroup == igroup) {    // all on the device, no read-back
    engine.berendsen(groupbit, tfactor, t_target, update->dt / t_period);
    return;
  }
  // the temperature of another group (fix_modify temp): its sum comes back (8 bytes)
  const double t_current = engine.kinetic_sum(temperature->groupbit) * tfactor;
  if (t_current == 0.0)
    error->all(FLERR, "Computed current temperature for fix temp/berendsen/cuda must not be 0.0");
  engine.scale_velocities(groupbit,
                          sqrt(1.0 + update->dt / t_period * (t_target / t_current - 1.0)));
}
