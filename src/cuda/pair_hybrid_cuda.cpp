/* mesogpu: pair_style hybrid/cuda and hybrid/overlay/cuda; see pair_hybrid_cuda.h. */

#include "pair_hybrid_cuda.h"

#include "atom.h"
#include "engine.h"
#include "error.h"

#include <vector>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void device_util::hybrid_device_setup(LAMMPS *lmp, Engine &engine, const char *style, int nstyles,
                                      Pair **styles, char **keywords, int ***map, int **nmap,
                                      double **special_lj, double **special_coul)
{
  const int ntypes = lmp->atom->ntypes;
  const int np1 = ntypes + 1;
  for (int m = 0; m < nstyles; m++) {
    auto *sub = dynamic_cast<DeviceForce *>(styles[m]);
    if (!sub)
      lmp->error->all(FLERR,
                      "pair_style {}: sub-style {} has no device part (write its /cuda variant, "
                      "or run with -sf cuda)",
                      style, keywords[m]);
    // the device applies one set of special factors to every term
    if ((special_lj && special_lj[m]) || (special_coul && special_coul[m]))
      lmp->error->all(FLERR,
                      "pair_style {}: 'pair_modify pair {} special' is not supported on the device "
                      "(all sub-styles use special_bonds)",
                      style, keywords[m]);
    std::vector<int> allowed(np1 * np1, 0);
    for (int i = 1; i <= ntypes; i++)
      for (int j = 1; j <= ntypes; j++)
        for (int k = 0; k < nmap[i][j]; k++)
          if (map[i][j][k] == m) allowed[i * np1 + j] = 1;
    engine.set_pair_filter(allowed);
    sub->device_setup(engine);
  }
  engine.set_pair_filter({});
}

void PairHybridCuda::device_setup(Engine &engine)
{
  device_util::hybrid_device_setup(lmp, engine, "hybrid/cuda", nstyles, styles, keywords, map, nmap,
                                   special_lj, special_coul);
}

void PairHybridOverlayCuda::device_setup(Engine &engine)
{
  device_util::hybrid_device_setup(lmp, engine, "hybrid/overlay/cuda", nstyles, styles, keywords,
                                   map, nmap, special_lj, special_coul);
}

std::vector<Pair *> device_util::hybrid_sub_styles(Pair *pair)
{
  if (auto *h = dynamic_cast<PairHybridCuda *>(pair)) return h->sub_styles();
  if (auto *h = dynamic_cast<PairHybridOverlayCuda *>(pair)) return h->sub_styles();
  return {};
}
