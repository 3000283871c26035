/* mesogpu: helpers of the /cuda styles; see device_style_util.h. */

#include "device_style_util.h"

#include "device_context.h"

#include "atom.h"
#include "comm.h"
#include "compute.h"
#include "domain.h"
#include "engine.h"
#include "forces/bonded_builtin.h"
#include "error.h"
#include "fix.h"
#include "neighbor.h"
#include "update.h"

#include <cstring>
#include <vector>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void device_util::warn_if_host(LAMMPS *lmp, const char *kind, const char *style)
{
  if (lmp->comm->me == 0 && !DeviceContext::current(lmp) && lmp->update->whichflag == 1)
    lmp->error->warning(FLERR,
                        "{} style {} computes on the host because run_style is '{}'; use the "
                        "-sf cuda command-line switch or 'run_style verlet/cuda'",
                        kind, style, lmp->update->integrate_style);
}

bool device_util::is_plain_temp(const Compute *c)
{
  return strcmp(c->style, "temp") == 0 || strcmp(c->style, "temp/cuda") == 0;
}

bool device_util::resident_run(LAMMPS *lmp)
{
  return lmp->update->whichflag == 1 && DeviceContext::current(lmp);
}

void device_util::engine_box(LAMMPS *lmp, double lo[3], double hi[3])
{
  const Domain *domain = lmp->domain;
  for (int d = 0; d < 3; d++) {
    if (lmp->comm->nprocs == 1) {
      lo[d] = domain->boxlo[d];
      hi[d] = domain->boxhi[d];
      continue;
    }
    const double grow = lmp->comm->cutghost[d] + lmp->neighbor->skin + 1e-6 * domain->prd[d];
    lo[d] = domain->sublo[d] - grow;
    hi[d] = domain->subhi[d] + grow;
  }
}

void device_util::require_plain_temperature(LAMMPS *lmp, const Fix *fix, const Compute *temperature,
                                            int which)
{
  if (!resident_run(lmp) || (which == NOBIAS_TEMPERATURE && is_plain_temp(temperature))) return;
  lmp->error->all(FLERR,
                  "Fix {} (ID {}): the temperature compute {} (style {}{}) cannot be used: the "
                  "device version computes the temperature of a group as compute temp does, from "
                  "a device sum of m v^2 without a bias; set a compute temp with fix_modify temp "
                  "(any group), or run the fix on the host",
                  fix->style, fix->id, temperature->id, temperature->style,
                  temperature->tempbias ? ", with a bias" : "");
}

/* ---------------------------------------------------------------------- */

void device_util::per_atom_arrays(Engine &engine, DeviceForceKind kind, LAMMPS *lmp, double *eatom,
                                  double **vatom)
{
  Engine::ForceKind engine_kind = Engine::ForceKind::pair;
  switch (kind) {
    case DeviceForceKind::pair:
      engine_kind = Engine::ForceKind::pair;
      break;
    case DeviceForceKind::bond:
      engine_kind = Engine::ForceKind::bond;
      break;
    case DeviceForceKind::angle:
      engine_kind = Engine::ForceKind::angle;
      break;
    case DeviceForceKind::dihedral:
      engine_kind = Engine::ForceKind::dihedral;
      break;
  }
  const int nlocal = lmp->atom->nlocal;
  std::vector<double> v(vatom ? 6 * (size_t) nlocal : 0);
  engine.download_per_atom_ev(engine_kind, eatom, vatom ? v.data() : nullptr);
  if (vatom)
    for (int i = 0; i < nlocal; i++)
      for (int k = 0; k < 6; k++) vatom[i][k] = v[6 * (size_t) i + k];
}

/* ---------------------------------------------------------------------- */

void device_util::set_angle(Engine &engine, mesogpu::physics::AngleKind kind, int ntypes,
                            const double *k, const double *theta0)
{
  mesogpu::cuda::HostAngle p;
  p.kind = static_cast<int>(kind);    // the engine takes the physics::AngleKind value
  for (int t = 0; t <= ntypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.theta0.push_back(t ? theta0[t] : 0.0);
  }
  mesogpu::cuda::add_angle(engine, p);
}

void device_util::set_dihedral(Engine &engine, int ntypes, const double *k, const double *cos_shift,
                               const double *sin_shift, const int *multiplicity)
{
  mesogpu::cuda::HostDihedral p;
  for (int t = 0; t <= ntypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.cos_shift.push_back(t ? cos_shift[t] : 0.0);
    p.sin_shift.push_back(t ? sin_shift[t] : 0.0);
    p.multiplicity.push_back(t ? multiplicity[t] : 0);
  }
  mesogpu::cuda::add_dihedral(engine, p);
}
