/* mesogpu: dihedral_style harmonic/cuda; see dihedral_harmonic_cuda.h. */

#include "dihedral_harmonic_cuda.h"

#include "atom.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void DihedralHarmonicCuda::device_setup(Engine &engine)
{
  device_util::set_dihedral(engine, atom->ndihedraltypes, k, cos_shift, sin_shift, multiplicity);
}
