/* mesogpu: fix nvt/cuda; see fix_nvt_cuda.h. */

#include "fix_nvt_cuda.h"

#include "device_style_util.h"

#include "compute.h"
#include "engine.h"
#include "error.h"
#include "force.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixNVTCuda::init()
{
  FixNVT::init();
  if (pstat_flag && device_util::resident_run(lmp))
    error->all(FLERR, "Fix nvt/cuda: pressure control is not supported");
  device_util::require_plain_temperature(lmp, this, temperature, which);
}

void FixNVTCuda::device_initial_integrate(Engine &engine)
{
  active = &engine;
  compute_temp_target();
  nhc_temp_integrate();    // host scalars; nh_v_temp() below scales on the device
  engine.nve_initial(dtv, dtf, groupbit);
  active = nullptr;
}

void FixNVTCuda::device_final_integrate(Engine &engine)
{
  active = &engine;
  engine.nve_final(dtf, groupbit);
  // the temperature compute's group (fix_modify temp may name another one) and dof
  tdof = temperature->dof;
  t_current = tdof > 0
                  ? engine.kinetic_sum(temperature->groupbit) * force->mvv2e / (tdof * force->boltz)
                  : 0.0;
  nhc_temp_integrate();
  active = nullptr;
}

void FixNVTCuda::nh_v_temp()
{
  if (active)
    active->scale_velocities(groupbit, factor_eta);
  else
    FixNVT::nh_v_temp();
}
