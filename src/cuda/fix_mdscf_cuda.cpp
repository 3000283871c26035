/* mesogpu: fix mdscf/cuda; see fix_mdscf_cuda.h. */

#include "fix_mdscf_cuda.h"

#include "device_context.h"
#include "device_style_util.h"

#include "comm.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "grid3d.h"
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

/* one rank: the whole grid as the engine holds it, node-major, from the host's owned
   nodes and back into them (derive_field() then fills the ghost layers) */
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
  // several ranks: this rank's brick of the host's Grid3d
  brick = comm->nprocs > 1;
  if (brick) {
    const int in_lo[3] = {nxlo_in, nylo_in, nzlo_in}, in_hi[3] = {nxhi_in, nyhi_in, nzhi_in};
    const int out_lo[3] = {nxlo_out, nylo_out, nzlo_out},
              out_hi[3] = {nxhi_out, nyhi_out, nzhi_out};
    for (int d = 0; d < 3; ++d) {
      p.in_lo[d] = in_lo[d];
      p.in_hi[d] = in_hi[d];
      p.out_lo[d] = out_lo[d];
      p.out_hi[d] = out_hi[d];
    }
  }
  engine.set_mdscf(p);
  // a rebuild during a run on several ranks (run_style verlet/cuda uploads the atoms again
  // and calls this): the engine kept its grids, which may be newer than the host's, unless
  // the brick moved (fix balance: reset_grid() brought the field to the host first)
  if (!update->setupflag && !engine.mdscf_brick_changed()) return;
  // the host's field (built at setup, or carried over from the last run or a restart)
  // goes to the device as it is; setup() always leaves one, the build is only a guard
  if (!have_field) build_field();
  if (brick) {
    engine.mdscf_upload_phi(flat(phi));    // the brick as the host holds it, ghosts too
  } else {
    std::vector<double> full;
    copy_phi(full, false);
    engine.mdscf_upload_phi(full.data());
  }
  host_field_stale = false;
  sums_stale = false;    // the host's energies are those of this field
}

void FixMDSCFCuda::device_post_force(Engine &engine, int vflag)
{
  if (update->ntimestep % nupdate == 0) {
    if (brick)
      update_brick(engine);
    else
      engine.mdscf_build_field();
    last_update = update->ntimestep;
    host_field_stale = true;
    sums_stale = true;
    if (brick) pull_sums(engine);    // collective: every rank updates at this step
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

/* a field update on the bricks: as FixMDSCF::build_field and derive_field, with the
   densities, Grid3d's buffers and the derivation on the device */
void FixMDSCFCuda::update_brick(Engine &engine)
{
  engine.mdscf_deposit();
  grid_engine = &engine;
  grid->reverse_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);
  engine.mdscf_scale_owned();
  grid->forward_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);
  grid_engine = nullptr;
  engine.mdscf_derive();
}

/* energies and the virial of the device field, read back once per field update (bricks:
   at the update, where every rank sums its owned nodes' energies with the others) */
void FixMDSCFCuda::pull_sums(Engine &engine)
{
  if (!sums_stale) return;
  double s[3];
  engine.mdscf_sums(s);
  const double per_node = rho0 * cell_volume();
  if (brick) {
    double all[2];
    MPI_Allreduce(s, all, 2, MPI_DOUBLE, MPI_SUM, world);
    energy_chi = per_node * all[0];
    energy_kappa = per_node * all[1];
    virial_local = per_node * s[2];    // this rank's nodes (LAMMPS sums fix virials)
  } else {
    energy_chi = per_node * s[0];
    energy_kappa = per_node * s[1];
    virial_local = per_node * s[2];
  }
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
  if (brick) {
    engine.mdscf_download_phi(flat(phi));
  } else {
    std::vector<double> full((size_t) nxgrid * nygrid * nzgrid * ncomp);
    engine.mdscf_download_phi(full.data());
    copy_phi(full, true);
  }
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

/* a rebalance during a resident run (fix balance on several ranks): the device's field
   into the host grid first, which the remap then moves to the new bricks; the rebuild's
   device_setup() uploads it, as the brick moved */
void FixMDSCFCuda::reset_grid()
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (engine) {
    try {
      device_sync_host(*engine);
    } catch (std::runtime_error &e) {
      error->all(FLERR, "Fix mdscf/cuda: {}", e.what());
    }
  }
  FixMDSCF::reset_grid();
}

/* Grid3d's buffers: on the device while a device field update runs (the engine's brick),
   else the CPU fix's (the host grid) */
void FixMDSCFCuda::pack_forward_grid(int which, void *vbuf, int nlist, int *list)
{
  if (!grid_engine) return FixMDSCF::pack_forward_grid(which, vbuf, nlist, list);
  try {
    grid_engine->mdscf_pack_nodes(list, nlist, static_cast<double *>(vbuf));
  } catch (std::runtime_error &e) {
    error->one(FLERR, "Fix mdscf/cuda: {}", e.what());
  }
}

void FixMDSCFCuda::unpack_forward_grid(int which, void *vbuf, int nlist, int *list)
{
  if (!grid_engine) return FixMDSCF::unpack_forward_grid(which, vbuf, nlist, list);
  unpack_device_nodes(vbuf, nlist, list, false);
}

void FixMDSCFCuda::pack_reverse_grid(int which, void *vbuf, int nlist, int *list)
{
  if (!grid_engine) return FixMDSCF::pack_reverse_grid(which, vbuf, nlist, list);
  pack_forward_grid(which, vbuf, nlist, list);
}

void FixMDSCFCuda::unpack_reverse_grid(int which, void *vbuf, int nlist, int *list)
{
  if (!grid_engine) return FixMDSCF::unpack_reverse_grid(which, vbuf, nlist, list);
  unpack_device_nodes(vbuf, nlist, list, true);
}

/* the nodes of a swap into the device's brick: set (forward) or added (reverse) */
void FixMDSCFCuda::unpack_device_nodes(void *vbuf, int nlist, int *list, bool add)
{
  try {
    grid_engine->mdscf_unpack_nodes(list, nlist, static_cast<const double *>(vbuf), add);
  } catch (std::runtime_error &e) {
    error->one(FLERR, "Fix mdscf/cuda: {}", e.what());
  }
}
