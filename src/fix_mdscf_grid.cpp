/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix mdscf (doc/fix_mdscf.md): the grid side - its layout over the ranks
   (Grid3d), the density deposit, the field and its gradients, the forces from them,
   and the Grid3d communication and output hooks. The style side (parsing, setup,
   output values, restart) is in fix_mdscf.cpp.
------------------------------------------------------------------------- */

#include "fix_mdscf.h"

#include "physics/mdscf.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "grid3d.h"
#include "group.h"
#include "memory.h"
#include "neighbor.h"
#include "update.h"
#include "utils.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

using namespace LAMMPS_NS;
namespace mdscf = mesogpu::physics::mdscf;

/* ----------------------------------------------------------------------
   (re)create the distributed grid for the current decomposition and skin; keep the
   stored densities through a remap when the owned boxes change
------------------------------------------------------------------------- */

void FixMDSCF::make_grid()
{
  const double dist = 0.5 * neighbor->skin;
  auto *fresh = new Grid3d(lmp, world, nxgrid, nygrid, nzgrid);
  fresh->set_distance(dist);
  fresh->set_shift_grid(0.0);    // node g sits at the lower corner of cell g
  // atoms touch the nodes of their cell (0, +1); one more layer on each side lets every
  // node an atom touches take its central difference from local values
  fresh->set_stencil_atom(1, 2);
  int in[6], out[6];
  fresh->setup_grid(in[0], in[1], in[2], in[3], in[4], in[5], out[0], out[1], out[2], out[3],
                    out[4], out[5]);

  if (grid && grid->identical(fresh)) {
    delete fresh;
    maxdist = dist;
    return;
  }

  Grid3d *old = grid;
  if (old) {
    phi_previous = phi;
    phi = nullptr;
    nxlo_out_prev = nxlo_out;
    nylo_out_prev = nylo_out;
    nzlo_out_prev = nzlo_out;
    memory->destroy4d_offset_last(pot, nzlo_out, nylo_out, nxlo_out);
    memory->destroy4d_offset_last(grad, nzlo_out, nylo_out, nxlo_out);
    memory->destroy(grid_buf1);
    memory->destroy(grid_buf2);
  }

  grid = fresh;
  maxdist = dist;
  nxlo_in = in[0];
  nxhi_in = in[1];
  nylo_in = in[2];
  nyhi_in = in[3];
  nzlo_in = in[4];
  nzhi_in = in[5];
  nxlo_out = out[0];
  nxhi_out = out[1];
  nylo_out = out[2];
  nyhi_out = out[3];
  nzlo_out = out[4];
  nzhi_out = out[5];
  allocate_grid();

  if (old) {
    if (have_field) {
      int n1, n2;
      grid->setup_remap(old, n1, n2);
      double *buf1, *buf2;
      memory->create(buf1, (bigint) n1 * ncomp + 1, "mdscf:remap_buf1");
      memory->create(buf2, (bigint) n2 * ncomp + 1, "mdscf:remap_buf2");
      grid->remap(Grid3d::FIX, this, 0, ncomp, sizeof(double), buf1, buf2, MPI_DOUBLE);
      memory->destroy(buf1);
      memory->destroy(buf2);
    }
    memory->destroy4d_offset_last(phi_previous, nzlo_out_prev, nylo_out_prev, nxlo_out_prev);
    delete old;
    if (have_field) derive_field();
  }
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::allocate_grid()
{
  grid->setup_comm(ngrid_buf1, ngrid_buf2);
  // one LAMMPS error that names the grid, rather than a failure on one of the arrays
  const double nout_d =
      (double) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  const double need =
      (nout_d * VALUES_PER_NODE + (double) ngrid_buf1 + ngrid_buf2 + 2.0) * ncomp * sizeof(double);
  void *probe = need < 9.0e18 ? malloc((size_t) need) : nullptr;
  if (!probe)
    error->one(FLERR,
               "Fix mdscf: cannot allocate {}: rank {} needs {} for its {:.6g} owned and ghost "
               "nodes; use a coarser grid or more ranks",
               grid_size_text(), comm->me, gib_text(need), nout_d);
  free(probe);
  memory->create(grid_buf1, (bigint) ngrid_buf1 * ncomp + 1, "mdscf:grid_buf1");
  memory->create(grid_buf2, (bigint) ngrid_buf2 * ncomp + 1, "mdscf:grid_buf2");
  memory->create4d_offset_last(phi, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               ncomp, "mdscf:phi");
  memory->create4d_offset_last(pot, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               ncomp, "mdscf:pot");
  memory->create4d_offset_last(grad, nzlo_out, nzhi_out, nylo_out, nyhi_out, nxlo_out, nxhi_out,
                               3 * ncomp, "mdscf:grad");
  const bigint nout =
      (bigint) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  memset(flat(phi), 0, sizeof(double) * nout * ncomp);
  memset(flat(pot), 0, sizeof(double) * nout * ncomp);
  memset(flat(grad), 0, sizeof(double) * nout * 3 * ncomp);
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::deallocate_grid()
{
  memory->destroy4d_offset_last(phi, nzlo_out, nylo_out, nxlo_out);
  memory->destroy4d_offset_last(pot, nzlo_out, nylo_out, nxlo_out);
  memory->destroy4d_offset_last(grad, nzlo_out, nylo_out, nxlo_out);
  memory->destroy(grid_buf1);
  memory->destroy(grid_buf2);
}

/* ----------------------------------------------------------------------
   an atom's cell must lie where every corner has a gradient
------------------------------------------------------------------------- */

void FixMDSCF::check_range(int i, int ix, int iy, int iz)
{
  if (ix < nxlo_out + 1 || ix + 1 > nxhi_out - 1 || iy < nylo_out + 1 || iy + 1 > nyhi_out - 1 ||
      iz < nzlo_out + 1 || iz + 1 > nzhi_out - 1) {
    const double *xi = atom->x[i];
    if (!std::isfinite(xi[0]) || !std::isfinite(xi[1]) || !std::isfinite(xi[2]))
      error->one(FLERR,
                 "Fix mdscf: atom {} has a non-finite position ({} {} {}); the run has "
                 "blown up",
                 atom->tag[i], xi[0], xi[1], xi[2]);
    error->one(FLERR,
               "Fix mdscf: atom {} at ({:.8g} {:.8g} {:.8g}) is outside this rank's part of "
               "the grid (it moved more than half the neighbor skin since the last "
               "reneighboring; use 'neigh_modify every 1 delay 0 check yes' or a larger skin)",
               atom->tag[i], atom->x[i][0], atom->x[i][1], atom->x[i][2]);
  }
}

double FixMDSCF::cell_volume() const
{
  return domain->xprd * domain->yprd * domain->zprd / ((double) nxgrid * nygrid * nzgrid);
}

/* ----------------------------------------------------------------------
   densities from the current positions, then everything that derives from them
------------------------------------------------------------------------- */

void FixMDSCF::build_field()
{
  const bigint nout =
      (bigint) (nxhi_out - nxlo_out + 1) * (nyhi_out - nylo_out + 1) * (nzhi_out - nzlo_out + 1);
  memset(flat(phi), 0, sizeof(double) * nout * ncomp);

  double **x = atom->x;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double *boxlo = domain->boxlo;
  const double inv_h[3] = {nxgrid / domain->xprd, nygrid / domain->yprd, nzgrid / domain->zprd};

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const int k = type2comp[type[i]];
    if (k < 0) continue;
    double t[3];
    int c0[3];
    for (int d = 0; d < 3; ++d) c0[d] = mdscf::cell_index((x[i][d] - boxlo[d]) * inv_h[d], t[d]);
    check_range(i, c0[0], c0[1], c0[2]);
    double w[8];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c)
      phi[c0[2] + ((c >> 2) & 1)][c0[1] + ((c >> 1) & 1)][c0[0] + (c & 1)][k] += w[c];
  }

  grid->reverse_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);

  const double scale = 1.0 / (rho0 * cell_volume());
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix)
        for (int k = 0; k < ncomp; ++k) phi[iz][iy][ix][k] *= scale;

  have_field = true;
  last_update = update->ntimestep;
  derive_field();
}

/* ----------------------------------------------------------------------
   from the owned phi: ghosts, potentials, gradients, energy, virial, profile
------------------------------------------------------------------------- */

void FixMDSCF::derive_field()
{
  grid->forward_comm(Grid3d::FIX, this, 0, ncomp, sizeof(double), grid_buf1, grid_buf2, MPI_DOUBLE);

  const double *chi = chi_comp.data();
  const double inv_kappa = 1.0 / kappa;
  for (int iz = nzlo_out; iz <= nzhi_out; ++iz)
    for (int iy = nylo_out; iy <= nyhi_out; ++iy)
      for (int ix = nxlo_out; ix <= nxhi_out; ++ix)
        mdscf::field_potentials(ncomp, phi[iz][iy][ix], chi, kT, inv_kappa, pot[iz][iy][ix]);

  const double inv_2h[3] = {0.5 * nxgrid / domain->xprd, 0.5 * nygrid / domain->yprd,
                            0.5 * nzgrid / domain->zprd};
  for (int iz = nzlo_out + 1; iz <= nzhi_out - 1; ++iz)
    for (int iy = nylo_out + 1; iy <= nyhi_out - 1; ++iy)
      for (int ix = nxlo_out + 1; ix <= nxhi_out - 1; ++ix)
        for (int k = 0; k < ncomp; ++k) {
          double *g = &grad[iz][iy][ix][3 * k];
          g[0] =
              mdscf::central_difference(pot[iz][iy][ix - 1][k], pot[iz][iy][ix + 1][k], inv_2h[0]);
          g[1] =
              mdscf::central_difference(pot[iz][iy - 1][ix][k], pot[iz][iy + 1][ix][k], inv_2h[1]);
          g[2] =
              mdscf::central_difference(pot[iz - 1][iy][ix][k], pot[iz + 1][iy][ix][k], inv_2h[2]);
        }

  // energy, virial and the profile from the owned nodes
  const int ntypes = atom->ntypes;
  const int nplanes = size_array_rows;
  std::vector<double> prof_mine((size_t) nplanes * ntypes, 0.0);
  double sums[3] = {0.0, 0.0, 0.0};    // f_chi, f_kappa, virial density
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix) {
        const double *p = phi[iz][iy][ix];
        double f_chi, f_kappa;
        mdscf::energy_density(ncomp, p, chi, kT, inv_kappa, f_chi, f_kappa);
        sums[0] += f_chi;
        sums[1] += f_kappa;
        sums[2] +=
            mdscf::virial_density(ncomp, p, (const double *) pot[iz][iy][ix], f_chi + f_kappa);
        const int plane = profile_dim == 0 ? ix : (profile_dim == 1 ? iy : iz);
        for (int k = 0; k < ncomp; ++k)
          prof_mine[(size_t) plane * ntypes + comp2type[k] - 1] += p[k];
      }
  const double per_node = rho0 * cell_volume();
  double all[2];
  MPI_Allreduce(sums, all, 2, MPI_DOUBLE, MPI_SUM, world);
  energy_chi = per_node * all[0];
  energy_kappa = per_node * all[1];
  virial_local = per_node * sums[2];

  MPI_Allreduce(prof_mine.data(), profile.data(), nplanes * ntypes, MPI_DOUBLE, MPI_SUM, world);
  const double nodes_per_plane = (double) nxgrid * nygrid * nzgrid / nplanes;
  for (double &v : profile) v /= nodes_per_plane;
}

/* ----------------------------------------------------------------------
   forces from the stored gradients at the current positions
------------------------------------------------------------------------- */

void FixMDSCF::apply_forces(int vflag)
{
  v_init(vflag);

  double **x = atom->x;
  double **f = atom->f;
  const int *type = atom->type;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double *boxlo = domain->boxlo;
  const double inv_h[3] = {nxgrid / domain->xprd, nygrid / domain->yprd, nzgrid / domain->zprd};

  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const int k = type2comp[type[i]];
    if (k < 0) continue;
    double t[3];
    int c0[3];
    for (int d = 0; d < 3; ++d) c0[d] = mdscf::cell_index((x[i][d] - boxlo[d]) * inv_h[d], t[d]);
    check_range(i, c0[0], c0[1], c0[2]);
    double w[8], g[8][3], fi[3];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c) {
      const double *gc =
          &grad[c0[2] + ((c >> 2) & 1)][c0[1] + ((c >> 1) & 1)][c0[0] + (c & 1)][3 * k];
      g[c][0] = gc[0];
      g[c][1] = gc[1];
      g[c][2] = gc[2];
    }
    mdscf::field_force(w, g, fi);
    f[i][0] += fi[0];
    f[i][1] += fi[1];
    f[i][2] += fi[2];
  }

  if (vflag_global) {
    virial[0] += virial_local;
    virial[1] += virial_local;
    virial[2] += virial_local;
  }
}

/* ---------------------------------------------------------------------- */

void FixMDSCF::reset_grid()
{
  make_grid();
}

/* ----------------------------------------------------------------------
   Grid3d callbacks; every exchange moves phi (ncomp values per node)
------------------------------------------------------------------------- */

void FixMDSCF::pack_forward_grid(int, void *vbuf, int nlist, int *list)
{
  auto *buf = (double *) vbuf;
  const double *src = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k) buf[(size_t) i * ncomp + k] = src[(size_t) list[i] * ncomp + k];
}

void FixMDSCF::unpack_forward_grid(int, void *vbuf, int nlist, int *list)
{
  const auto *buf = (const double *) vbuf;
  double *dest = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k)
      dest[(size_t) list[i] * ncomp + k] = buf[(size_t) i * ncomp + k];
}

void FixMDSCF::pack_reverse_grid(int, void *vbuf, int nlist, int *list)
{
  pack_forward_grid(0, vbuf, nlist, list);
}

void FixMDSCF::unpack_reverse_grid(int, void *vbuf, int nlist, int *list)
{
  const auto *buf = (const double *) vbuf;
  double *dest = flat(phi);
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k)
      dest[(size_t) list[i] * ncomp + k] += buf[(size_t) i * ncomp + k];
}

void FixMDSCF::pack_remap_grid(int, void *vbuf, int nlist, int *list)
{
  auto *buf = (double *) vbuf;
  const double *src = &phi_previous[nzlo_out_prev][nylo_out_prev][nxlo_out_prev][0];
  for (int i = 0; i < nlist; ++i)
    for (int k = 0; k < ncomp; ++k) buf[(size_t) i * ncomp + k] = src[(size_t) list[i] * ncomp + k];
}

void FixMDSCF::unpack_remap_grid(int, void *vbuf, int nlist, int *list)
{
  unpack_forward_grid(0, vbuf, nlist, list);
}

void FixMDSCF::pack_write_grid(int, void *vbuf)
{
  auto *buf = (double *) vbuf;
  size_t m = 0;
  for (int iz = nzlo_in; iz <= nzhi_in; ++iz)
    for (int iy = nylo_in; iy <= nyhi_in; ++iy)
      for (int ix = nxlo_in; ix <= nxhi_in; ++ix)
        for (int k = 0; k < ncomp; ++k) buf[m++] = phi[iz][iy][ix][k];
}

void FixMDSCF::unpack_write_grid(int, void *vbuf, int *bounds)
{
  const auto *buf = (const double *) vbuf;
  size_t m = 0;
  for (int iz = bounds[4]; iz <= bounds[5]; ++iz)
    for (int iy = bounds[2]; iy <= bounds[3]; ++iy)
      for (int ix = bounds[0]; ix <= bounds[1]; ++ix) {
        const size_t node = ((size_t) iz * nygrid + iy) * nxgrid + ix;
        for (int k = 0; k < ncomp; ++k) write_buf[node * ncomp + k] = buf[m++];
      }
}

/* ----------------------------------------------------------------------
   per-grid output (dump grid, fix ave/grid): grid "grid", data "phi" and "potential",
   arrays with one column per field type (in increasing type order)
------------------------------------------------------------------------- */

int FixMDSCF::get_grid_by_name(const std::string &name, int &dim)
{
  if (name == "grid") {
    dim = 3;
    return 0;
  }
  return -1;
}

void *FixMDSCF::get_grid_by_index(int index)
{
  return index == 0 ? grid : nullptr;
}

int FixMDSCF::get_griddata_by_name(int igrid, const std::string &name, int &ncol)
{
  if (igrid != 0) return -1;
  ncol = ncomp;
  if (name == "phi") return 0;
  if (name == "potential") return 1;
  return -1;
}

void *FixMDSCF::get_griddata_by_index(int index)
{
  if (index == 0) return phi;
  if (index == 1) return pot;
  return nullptr;
}
