/* mesogpu: /cuda styles; see cuda_styles.h. Host computations (run 0, setup, the
   force-style tests) use the inherited CPU code; the device part hands parameters to
   the engine, whose kernels use the same evaluators (src/physics/). */

#include "cuda_styles.h"

#include "atom.h"
#include "comm.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "update.h"

#include <cstring>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

namespace {
// a /cuda style outside run_style verlet/cuda runs its CPU code: say so once at init
void warn_if_host(LAMMPS *lmp, const char *kind, const char *style)
{
  if (lmp->comm->me == 0 && strcmp(lmp->update->integrate_style, "verlet/cuda") != 0 &&
      lmp->update->whichflag == 1)
    lmp->error->warning(FLERR,
                        "{} style {} computes on the host because run_style is '{}'; use the "
                        "-sf cuda command-line switch or 'run_style verlet/cuda'",
                        kind, style, lmp->update->integrate_style);
}
}    // namespace

/* ---------------------------------------------------------------------- */

void PairLJCutCuda::init_style()
{
  PairLJCut::init_style();
  warn_if_host(lmp, "Pair", "lj/cut/cuda");
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
  engine.set_pair_lj(p);
}

/* ---------------------------------------------------------------------- */

void PairTableR2Cuda::init_style()
{
  PairTableR2::init_style();
  warn_if_host(lmp, "Pair", "table/r2/cuda");
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
  engine.set_pair_table_r2(p);
}

/* ---------------------------------------------------------------------- */

void BondHarmonicCuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondHarmonic p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
  }
  engine.set_bond_harmonic(p);
}

void BondFENECuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondFENE p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
    p.epsilon.push_back(t ? epsilon[t] : 0.0);
    p.sigma.push_back(t ? sigma[t] : 0.0);
  }
  engine.set_bond_fene(p);
}

/* ---------------------------------------------------------------------- */

void FixNVECuda::device_initial_integrate(Engine &engine)
{
  engine.nve_initial(dtv, dtf, groupbit);
}

void FixNVECuda::device_final_integrate(Engine &engine)
{
  engine.nve_final(dtf, groupbit);
}
