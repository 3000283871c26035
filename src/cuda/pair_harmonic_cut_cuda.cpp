/* mesogpu: pair_style harmonic/cut/cuda; see pair_harmonic_cut_cuda.h. */

#include "pair_harmonic_cut_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_isotropic.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairHarmonicCutCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostHarmonicCut p;
  for (auto *v : {&p.k, &p.cut, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int kk = i * np1 + j;
      p.k[kk] = k[i][j];
      p.cut[kk] = cut[i][j];
      p.cutsq[kk] = cutsq[i][j];
    }
  mesogpu::cuda::add_pair_harmonic_cut(engine, p);
}
