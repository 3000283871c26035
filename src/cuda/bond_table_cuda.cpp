/* mesogpu: bond_style table/cuda; see bond_table_cuda.h. */

#include "bond_table_cuda.h"

using namespace LAMMPS_NS;

void BondTableCuda::device_setup(mesogpu::cuda::Engine &engine)
{
  mesogpu::cuda::add_bond_table(engine, pack());
}
