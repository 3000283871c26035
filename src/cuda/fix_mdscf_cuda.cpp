/* mesogpu: fix mdscf/cuda; see fix_mdscf_cuda.h. */

#include "fix_mdscf_cuda.h"

#include "device_context.h"
#include "device_style_util.h"

#include "comm.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "update.h"

#include <algorithm>
#include <limits>
#include <mpi.h>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixMDSCFCuda::init()
{
  FixMDSCF::init();
  device_util::warn_if_host(lmp, "Fix", "mdscf/cuda");
}

/* the whole grid as the engine holds it, node-major, from the host's owned nodes (on
   several ranks each rank owns a brick of Grid3d: the bricks are summed into the whole
   grid on every rank, collective) and back into the owned nodes (derive_field() then
   fills the ghost layers) */
void FixMDSCFCuda::copy_phi(std::vector<double> &full, bool to_host)
{
  full.resize((size_t) nxgrid * nygrid * nzgrid * ncomp);
  if (!to_host) std::fill(full.begin(), full.end(), 0.0);
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix)
        for (int k = 0; k < ncomp; ++k) {
          double &flat = full[(((size_t) iz * nygrid + iy) * nxgrid + ix) * ncomp + k];
          if (to_host)
            phi[iz][iy][ix][k] = flat;
          else
            flat = phi[iz][iy][ix][k];
        }
  if (!to_host && comm->nprocs > 1) {
    if (full.size() > (size_t) std::numeric_limits<int>::max())
      error->all(FLERR, "Fix mdscf/cuda: the grid ({}) is too large to gather on every rank",
                 grid_size_text());
    MPI_Allreduce(MPI_IN_PLACE, full.data(), static_cast<int>(full.size()), MPI_DOUBLE, MPI_SUM,
                  world);
  }
}

void FixMDSCFCuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostMDSCF p;
  p.nx = nxgrid;
  p.ny = nygrid;
  p.nz = nzgrid;
  p.ncomp = ncomp;
  p.type2comp = type2comp;
  p.chi = chi_comp;
  p.kT = kT;
  p.inv_kappa = 1.0 / kappa;
  if (rho0 <= 0.0) set_rho0();
  p.rho0 = rho0;
  p.groupbit = groupbit;
  p.gather = deposit_gather;
  // the global periodic box (several ranks: the engine's box is the rank's subdomain)
  for (int d = 0; d < 3; ++d) {
    p.boxlo[d] = domain->boxlo[d];
    p.boxhi[d] = domain->boxhi[d];
  }
  engine.set_mdscf(p);
  // a rebuild during a run on several ranks (run_style verlet/cuda uploads the atoms again
  // and calls this): the engine kept its grids, which may be newer than the host's
  if (!update->setupflag) return;
  // the host's field (built at setup, or carried over from the last run or a restart)
  // goes to the device as it is; setup() always leaves one, the build is only a guard
  if (!have_field) build_field();
  std::vector<double> full;
  copy_phi(full, false);
  engine.mdscf_upload_phi(full.data());
  host_field_stale = false;
  sums_stale = false;    // the host's energies are those of this field
}

void FixMDSCFCuda::device_post_force(Engine &engine, int vflag)
{
  if (update->ntimestep % nupdate == 0) {
    engine.mdscf_build_field();
    last_update = update->ntimestep;
    host_field_stale = true;
    sums_stale = true;
  }
  engine.mdscf_apply_forces();
  v_init(vflag);
  if (vflag_global) {
    pull_sums(engine);
    virial[0] += virial_local;
    virial[1] += virial_local;
    virial[2] += virial_local;
  }
}

/* energies and the virial of the device field, read back once per field update */
void FixMDSCFCuda::pull_sums(Engine &engine)
{
  if (!sums_stale) return;
  double s[3];
  engine.mdscf_sums(s);
  const double per_node = rho0 * cell_volume();
  energy_chi = per_node * s[0];
  energy_kappa = per_node * s[1];
  // every rank has the whole grid's virial; LAMMPS sums the fixes' virials over ranks
  virial_local = comm->me == 0 ? per_node * s[2] : 0.0;
  sums_stale = false;
}

void FixMDSCFCuda::pull_sums_if_ahead()
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (!engine) return;
  try {
    pull_sums(*engine);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Fix mdscf/cuda: {}", e.what());
  }
}

/* the device field back into the host grid; derive_field() then recomputes potentials,
   gradients, energies and the profile on the host from the same phi */
void FixMDSCFCuda::device_sync_host(Engine &engine)
{
  if (!host_field_stale) return;
  std::vector<double> full((size_t) nxgrid * nygrid * nzgrid * ncomp);
  engine.mdscf_download_phi(full.data());
  copy_phi(full, true);
  have_field = true;
  derive_field();
  host_field_stale = false;
  sums_stale = false;
}

double FixMDSCFCuda::compute_scalar()
{
  pull_sums_if_ahead();
  return FixMDSCF::compute_scalar();
}

double FixMDSCFCuda::compute_vector(int n)
{
  pull_sums_if_ahead();
  return FixMDSCF::compute_vector(n);
}
