/* mesogpu: compute temp/cuda; see compute_temp_cuda.h. */

#include "compute_temp_cuda.h"

#include "device_context.h"

#include "engine.h"
#include "error.h"
#include "force.h"
#include "update.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

double ComputeTempCuda::compute_scalar()
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (!engine) return ComputeTemp::compute_scalar();

  // ComputeTemp::compute_scalar() with the sum of m v^2 from the device (one rank)
  invoked_scalar = update->ntimestep;
  try {
    scalar = engine->kinetic_sum(groupbit);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Compute temp/cuda: {}", e.what());
  }
  if (dynamic) dof_compute();
  if (dof < 0.0 && natoms_temp > 0.0)
    error->all(FLERR, "Temperature compute degrees of freedom < 0");
  scalar *= tfactor;
  return scalar;
}

void ComputeTempCuda::compute_vector()
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (!engine) return ComputeTemp::compute_vector();

  // ComputeTemp::compute_vector() with the sums of m v_a v_b from the device (one rank):
  // the kinetic tensor of the pressure components and of fix npt/cuda's anisotropic
  // coupling, without a download of the atoms
  invoked_vector = update->ntimestep;
  try {
    engine->kinetic_tensor(groupbit, vector);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Compute temp/cuda: {}", e.what());
  }
  for (int i = 0; i < 6; i++) vector[i] *= force->mvv2e;
}
