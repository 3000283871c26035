/* mesogpu: bond_style harmonic/cuda; see bond_harmonic_cuda.h. */

#include "bond_harmonic_cuda.h"

#include "atom.h"
#include "engine.h"
#include "forces/bonded_builtin.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void BondHarmonicCuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondHarmonic p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
  }
  mesogpu::cuda::add_bond_harmonic(engine, p);
}
