/* mesogpu: bond_style fene/cuda; see bond_fene_cuda.h. */

#include "bond_fene_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/bonded_builtin.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void BondFENECuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondFENE p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
    p.epsilon.push_back(t ? epsilon[t] : 0.0);
    p.sigma.push_back(t ? sigma[t] : 0.0);
  }
  mesogpu::cuda::add_bond_fene(engine, p);
}
