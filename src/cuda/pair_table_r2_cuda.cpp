/* mesogpu: pair_style table/r2/cuda; see pair_table_r2_cuda.h. */

#include "pair_table_r2_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_isotropic.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairTableR2Cuda::init_style()
{
  PairTableR2::init_style();
  device_util::warn_if_host(lmp, "Pair", "table/r2/cuda");
}

void PairTableR2Cuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostTableR2 p;
  p.table_of_pair.assign(np1 * np1, -1);
  p.offset.assign(np1 * np1, 0.0);
  p.cutsq.assign(np1 * np1, 0.0);
  for (const Table &t : tables) {
    p.n.push_back(t.n);
    p.z_lo.push_back(t.z_lo);
    p.dz.push_back(t.dz);
    p.coeff.insert(p.coeff.end(), t.coeff.begin(), t.coeff.end());
  }
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.table_of_pair[k] = tabindex[i][j];
      p.offset[k] = offset[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  p.inner = static_cast<int>(inner);
  mesogpu::cuda::add_pair_table_r2(engine, p);
}
