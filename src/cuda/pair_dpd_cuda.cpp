/* mesogpu: pair_style dpd/cuda; see pair_dpd_cuda.h. */

#include "pair_dpd_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/pair_isotropic.h"
#include "force.h"

#include <cmath>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairDPDCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostDPD p;
  for (auto *v : {&p.a0, &p.gamma, &p.sigma, &p.cut, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.a0[k] = a0[i][j];
      p.gamma[k] = gamma[i][j];
      p.sigma[k] = sigma[i][j];
      p.cut[k] = cut[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  // PairDPD fills special_sqrt in compute(), which a resident run never calls
  for (int k = 0; k < 4; k++) p.special_sqrt[k] = sqrt(force->special_lj[k]);
  p.seed = static_cast<unsigned>(seed);
  mesogpu::cuda::add_pair_dpd(engine, p);
}
