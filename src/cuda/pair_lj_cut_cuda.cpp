/* mesogpu: pair_style lj/cut/cuda; see pair_lj_cut_cuda.h. */

#include "pair_lj_cut_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_isotropic.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairLJCutCuda::init_style()
{
  PairLJCut::init_style();
  device_util::warn_if_host(lmp, "Pair", "lj/cut/cuda");
}

void PairLJCutCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostLJ p;
  for (auto *v : {&p.lj1, &p.lj2, &p.lj3, &p.lj4, &p.offset, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.lj1[k] = lj1[i][j];
      p.lj2[k] = lj2[i][j];
      p.lj3[k] = lj3[i][j];
      p.lj4[k] = lj4[i][j];
      p.offset[k] = offset_flag ? offset[i][j] : 0.0;
      p.cutsq[k] = cutsq[i][j];
    }
  mesogpu::cuda::add_pair_lj_cut(engine, p);
}
