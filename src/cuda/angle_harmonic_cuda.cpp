/* mesogpu: angle_style harmonic/cuda; see angle_harmonic_cuda.h. */

#include "angle_harmonic_cuda.h"

#include "atom.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void AngleHarmonicCuda::device_setup(Engine &engine)
{
  device_util::set_angle(engine, mesogpu::physics::AngleKind::harmonic, atom->nangletypes, k,
                         theta0);
}
