/* mesogpu: dihedral_style charmm/cuda; see dihedral_charmm_cuda.h. */

#include "dihedral_charmm_cuda.h"

#include "atom.h"
#include "error.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void DihedralCharmmCuda::device_setup(Engine &engine)
{
  for (int t = 1; t <= atom->ndihedraltypes; t++)
    if (weight[t] != 0.0)
      error->all(FLERR,
                 "Dihedral charmm/cuda: dihedral type {} has 1-4 weight {}; the device part "
                 "supports weight 0 only (the torsion alone)",
                 t, weight[t]);
  device_util::set_dihedral(engine, atom->ndihedraltypes, k, cos_shift, sin_shift, multiplicity);
}
