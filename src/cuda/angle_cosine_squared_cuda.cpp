/* mesogpu: angle_style cosine/squared/cuda; see angle_cosine_squared_cuda.h. */

#include "angle_cosine_squared_cuda.h"

#include "atom.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void AngleCosineSquaredCuda::device_setup(Engine &engine)
{
  device_util::set_angle(engine, mesogpu::physics::AngleKind::cosine_squared, atom->nangletypes, k,
                         theta0);
}
