/* mesogpu: pair_style gauss/cuda; see pair_gauss_cuda.h. */

#include "pair_gauss_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_isotropic.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairGaussCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostGauss p;
  for (auto *v : {&p.a, &p.b, &p.offset, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.a[k] = a[i][j];
      p.b[k] = b[i][j];
      p.offset[k] = offset[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  mesogpu::cuda::add_pair_gauss(engine, p);
}
