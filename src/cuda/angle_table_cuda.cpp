/* mesogpu: angle_style table/cuda; see angle_table_cuda.h. */

#include "angle_table_cuda.h"

using namespace LAMMPS_NS;

void AngleTableCuda::device_setup(mesogpu::cuda::Engine &engine)
{
  mesogpu::cuda::add_angle_table(engine, pack());
}
