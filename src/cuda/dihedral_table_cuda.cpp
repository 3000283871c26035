/* mesogpu: dihedral_style table/cuda; see dihedral_table_cuda.h. */

#include "dihedral_table_cuda.h"

using namespace LAMMPS_NS;

void DihedralTableCuda::device_setup(mesogpu::cuda::Engine &engine)
{
  mesogpu::cuda::add_dihedral_table(engine, pack());
}
