/* mesogpu: pair_style soft/aniso/cuda; see pair_soft_aniso_cuda.h. */

#include "pair_soft_aniso_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_soft_aniso.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairSoftAnisoCuda::init_style()
{
  PairSoftAniso::init_style();
  device_util::warn_if_host(lmp, "Pair", "soft/aniso/cuda");
}

void PairSoftAnisoCuda::device_setup(Engine &engine)
{
  normalise_orientations();    // stops on an anisotropic atom without orientation
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostSoftAniso p;
  p.params.resize(np1 * np1, pair_params(1, 1));
  p.cutsq.assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      p.params[i * np1 + j] = pair_params(i, j);
      p.cutsq[i * np1 + j] = cutsq[i][j];
    }
  mesogpu::cuda::add_pair_soft_aniso(engine, p);
}
