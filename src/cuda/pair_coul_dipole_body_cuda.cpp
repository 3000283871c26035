/* mesogpu: pair_style coul/dipole/body/cuda; see pair_coul_dipole_body_cuda.h. */

#include "pair_coul_dipole_body_cuda.h"

#include "atom.h"
#include "body_pair_util.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "forces/pair_coul_dipole_body.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairCoulDipoleBodyCuda::init_style()
{
  PairCoulDipoleBody::init_style();
  device_util::warn_if_host(lmp, "Pair", "coul/dipole/body/cuda");
}

void PairCoulDipoleBodyCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  // the dipolar types need their quaternions (charges alone need none)
  std::vector<int> needs(np1, 0);
  for (int i = 1; i < np1; i++) needs[i] = mu[i] != 0.0;
  device_util::require_body_orientations(lmp, engine, "coul/dipole/body/cuda", needs);

  mesogpu::cuda::HostCoulDipoleBody p;
  p.params = params;
  p.cutsq.assign((size_t) np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) p.cutsq[i * np1 + j] = cutsq[i][j];
  p.mu.assign(mu.begin(), mu.begin() + np1);
  p.dir.assign(dir.begin(), dir.begin() + 3 * np1);
  for (int k = 1; k < 4; k++) p.special_coul[k] = force->special_coul[k];
  p.charge = atom->q;
  mesogpu::cuda::add_pair_coul_dipole_body(engine, p);
}
