/* mesogpu: pair_style ssd/cuda; see pair_ssd_cuda.h. */

#include "pair_ssd_cuda.h"

#include "atom.h"
#include "body_pair_util.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "forces/pair_ssd.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairSSDCuda::init_style()
{
  PairSSD::init_style();
  device_util::warn_if_host(lmp, "Pair", "ssd/cuda");
}

void PairSSDCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  // every water type (a type given to this style) needs its quaternion
  std::vector<int> needs(np1, 0);
  for (int i = 1; i < np1; i++) needs[i] = setflag[i][i];
  device_util::require_body_orientations(lmp, engine, "ssd/cuda", needs);

  mesogpu::cuda::HostSsd p;
  p.params.resize((size_t) np1 * np1, pair_params(1, 1));
  p.cutsq.assign((size_t) np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      p.params[i * np1 + j] = pair_params(i, j);
      p.cutsq[i * np1 + j] = cutsq[i][j];
    }
  for (int k = 1; k < 4; k++) p.special_coul[k] = force->special_coul[k];
  mesogpu::cuda::add_pair_ssd(engine, p);
}
