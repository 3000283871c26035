/* mesogpu: pair_style gb/cuda; see pair_gb_cuda.h. */

#include "pair_gb_cuda.h"

#include "atom.h"
#include "body_pair_util.h"
#include "engine.h"
#include "forces/pair_gb.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairGBCuda::init_style()
{
  PairGB::init_style();
  device_util::warn_if_host(lmp, "Pair", "gb/cuda");
}

void PairGBCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  // the ellipsoid types (given to this style, not spheres) need their quaternions
  std::vector<int> needs(np1, 0);
  for (int i = 1; i < np1; i++) needs[i] = setflag[i][i] && !sphere[i];
  device_util::require_body_orientations(lmp, engine, "gb/cuda", needs);

  mesogpu::cuda::HostGayBerne p;
  p.params.resize((size_t) np1 * np1, pair_params(1, 1));
  p.cutsq.assign((size_t) np1 * np1, 0.0);
  p.sphere.assign(sphere.begin(), sphere.begin() + np1);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      p.params[i * np1 + j] = pair_params(i, j);
      p.cutsq[i * np1 + j] = cutsq[i][j];
    }
  mesogpu::cuda::add_pair_gb(engine, p);
}
