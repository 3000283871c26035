/* mesogpu: fix nve/cuda; see fix_nve_cuda.h. */

#include "fix_nve_cuda.h"

#include "engine.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixNVECuda::device_initial_integrate(Engine &engine)
{
  engine.nve_initial(dtv, dtf, groupbit);
}

void FixNVECuda::device_final_integrate(Engine &engine)
{
  engine.nve_final(dtf, groupbit);
}

bool FixNVECuda::device_final_integrate_with(Engine &engine, const mesogpu::cuda::FinalForce &ff)
{
  engine.nve_final_langevin(dtf, groupbit, ff);
  return true;
}
