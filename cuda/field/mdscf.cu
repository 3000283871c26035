/* mesogpu: the MD-SCF density field of fix mdscf/cuda (see engine.h). */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include "physics/mdscf.h"
#include "neighbor/cell_kernels.cuh"
#include <limits>
#include <stdexcept>
#include <vector>

namespace mesogpu {
namespace cuda {

  namespace {
#include "field/mdscf_kernels.cuh"
  }    // namespace

  void Engine::set_mdscf(const HostMDSCF &p)
  {
    Impl &s = *impl;
    if (p.ncomp < 1 || p.ncomp > MDSCF_MAX_COMP)
      throw std::runtime_error("mesogpu: fix mdscf/cuda supports 1 to " +
                               std::to_string(MDSCF_MAX_COMP) + " field types (got " +
                               std::to_string(p.ncomp) + ")");
    if ((int) p.type2comp.size() != s.ntypes + 1 || (int) p.chi.size() != p.ncomp * p.ncomp)
      throw std::runtime_error("mesogpu: set_mdscf: parameter arrays of the wrong size");
    const int nn[3] = {p.nx, p.ny, p.nz};
    const long long nodes64 = (long long) p.nx * p.ny * p.nz;
    if (nodes64 > MAX_ATOMS)
      throw std::runtime_error("mesogpu: fix mdscf/cuda: a grid of " + std::to_string(p.nx) +
                               " x " + std::to_string(p.ny) + " x " + std::to_string(p.nz) + " = " +
                               std::to_string(nodes64) + " nodes; the device holds at most " +
                               std::to_string(MAX_ATOMS) + " (2^30) nodes");
    AllocLabel label("the MD-SCF field grids");
    // the grid spans the given box (several ranks: the global one), else the engine's
    const bool given =
        p.boxhi[0] > p.boxlo[0] && p.boxhi[1] > p.boxlo[1] && p.boxhi[2] > p.boxlo[2];
    const bool brick = p.brick();
    if (s.nlocal < s.n && !(given && brick))
      throw std::logic_error("mesogpu: set_mdscf on several ranks needs the global box and the "
                             "rank's brick");
    const double *blo = given ? p.boxlo : s.lo, *bhi = given ? p.boxhi : s.hi;
    FieldGridD &g = s.field_grid;
    const FieldGridD before = g;
    g.brick = brick;
    for (int d = 0; d < 3; ++d) {
      if (nn[d] < 2) throw std::runtime_error("mesogpu: fix mdscf/cuda needs >= 2 nodes per edge");
      g.n[d] = nn[d];
      g.lo[d] = static_cast<acc>(blo[d]);
      g.inv_h[d] = static_cast<acc>(nn[d] / (bhi[d] - blo[d]));
      if (brick) {
        if (p.in_lo[d] < p.out_lo[d] || p.in_hi[d] > p.out_hi[d] || p.in_lo[d] > p.in_hi[d])
          throw std::logic_error("mesogpu: set_mdscf: the owned nodes lie outside the brick");
        g.nb[d] = p.out_hi[d] - p.out_lo[d] + 1;
        g.off[d] = p.out_lo[d];
        g.own_lo[d] = p.in_lo[d] - p.out_lo[d];
        g.own_hi[d] = p.in_hi[d] - p.out_lo[d];
      } else {
        g.nb[d] = nn[d];
        g.off[d] = 0;
        g.own_lo[d] = 0;
        g.own_hi[d] = nn[d] - 1;
      }
    }
    // (a brick that moved: the caller uploads the field again)
    s.field_brick_changed = false;
    for (int d = 0; d < 3; ++d)
      s.field_brick_changed |= before.nb[d] != g.nb[d] || before.off[d] != g.off[d] ||
                               before.own_lo[d] != g.own_lo[d] || before.own_hi[d] != g.own_hi[d];
    s.field_grid.ncomp = p.ncomp;
    for (int k = 0; k < p.ncomp * p.ncomp; ++k) s.field_params.chi[k] = static_cast<acc>(p.chi[k]);
    s.field_params.kT = static_cast<acc>(p.kT);
    s.field_params.inv_kappa = static_cast<acc>(p.inv_kappa);
    const double vc =
        (bhi[0] - blo[0]) * (bhi[1] - blo[1]) * (bhi[2] - blo[2]) / ((double) p.nx * p.ny * p.nz);
    s.field_scale = static_cast<acc>(1.0 / (p.rho0 * vc));
    s.field_groupbit = p.groupbit;
    s.field_gather = p.gather;
    s.field_type2comp.upload(p.type2comp);
    const size_t nodes = s.field_nodes();
    s.field_phi.resize(nodes * p.ncomp);
    s.field_pot.resize(nodes * p.ncomp);
    s.field_grad.resize(nodes * p.ncomp);
    s.field_sums.resize(3);
    if (s.field_gather) {
      s.field_cell_count.resize(nodes);
      if (s.field_cell_cap == 0) {
        // the mean occupancy of a field cell plus room for fluctuations
        const double mean = p.rho0 * vc;
        s.field_cell_cap = static_cast<int>(mean + 4.0 * std::sqrt(mean + 1.0)) + 4;
      }
    }
    s.have_field = true;
  }

  bool Engine::mdscf_brick_changed() const
  {
    return impl->field_brick_changed;
  }

  void Engine::Impl::field_derive(acc scale)
  {
    const int nodes = field_nodes();
    field_sums.zero();
    mdscf_derive_kernel<<<std::min(blocks(nodes), 1024), BLOCK>>>(
        field_grid, scale, field_params, field_phi.get(), field_pot.get(), field_sums.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    mdscf_gradient_kernel<<<blocks(nodes), BLOCK>>>(field_grid, field_pot.get(), field_grad.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_upload_phi(const double *phi)
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_upload_phi before set_mdscf");
    std::vector<acc> h(phi, phi + s.field_phi.size());
    s.field_phi.upload(h);
    s.field_derive(acc(1));
  }

  void Engine::mdscf_download_phi(double *phi) const
  {
    const Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_download_phi before set_mdscf");
    std::vector<acc> h(s.field_phi.size());
    s.field_phi.download(h.data(), h.size());
    std::copy(h.begin(), h.end(), phi);
  }

  void Engine::mdscf_build_field()
  {
    Impl &s = *impl;
    if (s.field_grid.brick)
      throw std::logic_error("mesogpu: mdscf_build_field on a brick: deposit, the host's "
                             "exchanges, scale_owned, derive");
    mdscf_deposit();
    s.field_derive(s.field_scale);
  }

  void Engine::mdscf_deposit()
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_deposit before set_mdscf");
    const int nodes = s.field_nodes();
    if (!s.field_gather) {
      s.field_phi.zero();
      mdscf_deposit_atomic_kernel<<<blocks(s.nlocal), BLOCK>>>(
          s.nlocal, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(),
          s.field_groupbit, s.field_type2comp.get(), s.field_grid, s.field_phi.get(), s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    } else {
      // bin on the field grid; grow the cell capacity and bin again on overflow
      AllocLabel label("the MD-SCF field cell list");
      for (;;) {
        s.field_cell_atoms.resize((size_t) nodes * s.field_cell_cap);
        s.field_cell_count.zero();
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 3, 0, sizeof(int)));
        mdscf_bin_kernel<<<blocks(s.nlocal), BLOCK>>>(
            s.nlocal, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(),
            s.field_groupbit, s.field_type2comp.get(), s.field_grid, s.field_cell_count.get(),
            s.field_cell_atoms.get(), s.field_cell_cap, s.status.get() + 3, s.err.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
        MESOGPU_CUDA_CALL(
            cudaMemcpy(s.status_host + 3, s.status.get() + 3, sizeof(int), cudaMemcpyDeviceToHost));
        if (s.status_host[3] <= s.field_cell_cap) break;
        s.field_cell_cap = s.status_host[3] + s.status_host[3] / 4 + 4;
      }
      // atoms in index order within each cell: the gather's sums do not depend on the
      // order of the slot claims
      sort_cells_kernel<<<blocks(nodes), BLOCK>>>(nodes, s.field_cell_count.get(),
                                                  s.field_cell_atoms.get(), s.field_cell_cap);
      MESOGPU_CUDA_LAUNCH_CHECK();
      mdscf_deposit_gather_kernel<<<blocks(nodes), BLOCK>>>(
          s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.field_type2comp.get(),
          s.field_grid, s.field_cell_count.get(), s.field_cell_atoms.get(), s.field_cell_cap,
          s.field_phi.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
  }

  void Engine::mdscf_scale_owned()
  {
    Impl &s = *impl;
    const FieldGridD &g = s.field_grid;
    const int owned = (g.own_hi[0] - g.own_lo[0] + 1) * (g.own_hi[1] - g.own_lo[1] + 1) *
                      (g.own_hi[2] - g.own_lo[2] + 1);
    mdscf_scale_owned_kernel<<<blocks(owned), BLOCK>>>(g, s.field_scale, s.field_phi.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_derive()
  {
    impl->field_derive(acc(1));
  }

  void Engine::mdscf_pack_nodes(const int *list, int count, double *buf)
  {
    Impl &s = *impl;
    if (count <= 0) return;
    const int nc = s.field_grid.ncomp;
    AllocLabel label("the MD-SCF grid exchange");
    s.field_list.upload(list, (size_t) count);
    s.field_buf.resize((size_t) count * nc);
    mdscf_pack_nodes_kernel<<<blocks(count * nc), BLOCK>>>(count, s.field_list.get(), nc,
                                                           s.field_phi.get(), s.field_buf.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.field_buf.download(buf, (size_t) count * nc);
  }

  void Engine::mdscf_unpack_nodes(const int *list, int count, const double *buf, bool add)
  {
    Impl &s = *impl;
    if (count <= 0) return;
    const int nc = s.field_grid.ncomp;
    AllocLabel label("the MD-SCF grid exchange");
    s.field_list.upload(list, (size_t) count);
    s.field_buf.upload(buf, (size_t) count * nc);
    mdscf_unpack_nodes_kernel<<<blocks(count * nc), BLOCK>>>(
        count, s.field_list.get(), nc, s.field_buf.get(), s.field_phi.get(), add);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_apply_forces()
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_apply_forces before set_mdscf");
    mdscf_force_kernel<<<blocks(s.nlocal), BLOCK>>>(
        s.nlocal, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(),
        s.field_groupbit, s.field_type2comp.get(), s.field_grid, s.field_grad.get(), s.f[0].get(),
        s.f[1].get(), s.f[2].get(), s.err.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_sums(double sums[3]) const
  {
    const Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_sums before set_mdscf");
    s.field_sums.download(sums, 3);
  }

}    // namespace cuda
}    // namespace mesogpu
