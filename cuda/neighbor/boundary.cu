/* mesogpu: the box's boundaries (periodic, fixed, shrink-wrapped), the shrink-wrap of
 * LAMMPS's Domain::reset_box() on the device positions, and the cell grid / image mode the
 * neighbour list uses for the current box (see engine.h). */

#include "core/engine_impl.cuh"
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    constexpr int EXTENT_BLOCKS = 256;

    // per block: min x, max x, min y, max y, min z, max z of its atoms (exact: no rounding
    // in min/max, so the host's final pass gives LAMMPS's extent bit for bit)
    __global__ void extent_kernel(int n, const acc *x0, const acc *x1, const acc *x2, acc *out)
    {
      __shared__ acc sh[6][BLOCK];
      const int t = threadIdx.x;
      acc e[6] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        e[0] = min(e[0], x0[i]);
        e[1] = max(e[1], x0[i]);
        e[2] = min(e[2], x1[i]);
        e[3] = max(e[3], x1[i]);
        e[4] = min(e[4], x2[i]);
        e[5] = max(e[5], x2[i]);
      }
      for (int k = 0; k < 6; ++k) sh[k][t] = e[k];
      __syncthreads();
      for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if (t < h)
          for (int k = 0; k < 6; ++k)
            sh[k][t] = (k % 2 == 0) ? min(sh[k][t], sh[k][t + h]) : max(sh[k][t], sh[k][t + h]);
        __syncthreads();
      }
      if (t == 0)
        for (int k = 0; k < 6; ++k) out[6 * blockIdx.x + k] = sh[k][0];
    }

  }    // namespace

  void Engine::set_boundary(const HostBoundary &b)
  {
    Impl &s = *impl;
    for (int d = 0; d < 3; ++d) {
      if ((b.boundary[d][0] == 0) != (b.boundary[d][1] == 0))
        throw std::runtime_error("mesogpu: set_boundary: a dimension is periodic on one side only");
      for (int k = 0; k < 2; ++k) {
        if (b.boundary[d][k] < 0 || b.boundary[d][k] > 3)
          throw std::runtime_error("mesogpu: set_boundary: unknown boundary kind");
        s.boundary[d][k] = b.boundary[d][k];
      }
      s.small[d] = b.small[d];
      s.minlo[d] = b.minlo[d];
      s.minhi[d] = b.minhi[d];
    }
    s.built = false;
  }

  void Engine::get_box(double lo[3], double hi[3]) const
  {
    for (int d = 0; d < 3; ++d) {
      lo[d] = impl->lo[d];
      hi[d] = impl->hi[d];
    }
  }

  // Domain::reset_box() for an orthogonal box: shrink-wrapped sides to the atoms' extent
  // plus small[d] ('s'), or at least the minimum box ('m'); periodic and fixed sides stay
  void Engine::Impl::shrink_wrap()
  {
    Impl &s = *this;
    if (!s.shrink_wrapped() || s.n == 0) return;
    const int nb = std::min(blocks(s.n), EXTENT_BLOCKS);
    s.extent.resize(6 * (size_t) nb);
    extent_kernel<<<nb, BLOCK>>>(s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.extent.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    std::vector<acc> h(6 * (size_t) nb);
    s.extent.download(h.data(), h.size());
    double ext[3][2];
    for (int d = 0; d < 3; ++d) {
      ext[d][0] = HUGE_VAL;
      ext[d][1] = -HUGE_VAL;
      for (int b = 0; b < nb; ++b) {
        ext[d][0] = std::min(ext[d][0], static_cast<double>(h[6 * b + 2 * d]));
        ext[d][1] = std::max(ext[d][1], static_cast<double>(h[6 * b + 2 * d + 1]));
      }
    }
    for (int d = 0; d < 3; ++d) {
      if (s.periodic(d)) continue;
      if (s.boundary[d][0] == 2)
        s.lo[d] = ext[d][0] - s.small[d];
      else if (s.boundary[d][0] == 3)
        s.lo[d] = std::min(ext[d][0] - s.small[d], s.minlo[d]);
      if (s.boundary[d][1] == 2)
        s.hi[d] = ext[d][1] + s.small[d];
      else if (s.boundary[d][1] == 3)
        s.hi[d] = std::max(ext[d][1] + s.small[d], s.minhi[d]);
      if (s.lo[d] > s.hi[d])
        throw std::runtime_error("mesogpu: shrink-wrapping made an illegal simulation box");
    }
  }

  // Cells at least cutoff + skin wide where the box allows (the 27-cell stencil), coarser
  // in a dilute system (for a tight list, built at every step without the skin: as wide
  // as the largest pair cutoff or a little wider, Impl::cell_cut). A periodic dimension below 2 x
  // (cutoff + skin) switches the list to explicit images: an atom may see several images of one
  // neighbour (and its own), each entry carries its image code; cells may then be narrower than the
  // cutoff and the stencil reaches img_reach cells each way (neighbor_list.cu).
  void Engine::Impl::setup_cells()
  {
    Impl &s = *this;
    const double cut = s.cutneighmax;
    bool images = false;
    for (int d = 0; d < 3; ++d)
      if (s.periodic(d) && s.hi[d] - s.lo[d] < 2.0 * cut) images = true;
    double nc[3];
    // (a tight list: cells of the largest pair cutoff or a little wider)
    const double width = images ? cut : s.cell_cut();
    for (int d = 0; d < 3; ++d) nc[d] = std::max(1.0, std::floor((s.hi[d] - s.lo[d]) / width));
    const double max_cells = std::min(std::max(27.0, 2.0 * s.n), (double) MAX_ATOMS);
    while (nc[0] * nc[1] * nc[2] > max_cells && (nc[0] > 2 || nc[1] > 2 || nc[2] > 2)) {
      const double shrink = std::cbrt(max_cells / (nc[0] * nc[1] * nc[2]));
      for (int d = 0; d < 3; ++d)
        if (nc[d] > 2) nc[d] = std::max(2.0, std::min(nc[d] - 1.0, std::floor(nc[d] * shrink)));
    }
    int codes = 1;
    for (int d = 0; d < 3; ++d) {
      s.ncell[d] = static_cast<int>(nc[d]);
      const double prd = s.hi[d] - s.lo[d];
      if (images && s.periodic(d)) {
        // cells of width w = prd / nc: the cutoff reaches ceil(cut / w) cells each way,
        // shifts of up to ceil(reach / nc) boxes
        const double w = prd / s.ncell[d];
        s.img_reach[d] = std::max(1, static_cast<int>(std::ceil(cut / w - 1e-12)));
        s.img_k[d] = (s.img_reach[d] + s.ncell[d] - 1) / s.ncell[d];
      } else {
        s.img_reach[d] = 1;
        s.img_k[d] = 0;
      }
      s.img_n[d] = 2 * s.img_k[d] + 1;
      codes *= s.img_n[d];
    }
    s.img_bits = 0;
    if (images) {
      int code_bits = 0;
      while ((1 << code_bits) < codes) ++code_bits;
      s.img_bits = SBBITS - code_bits;
      if (s.img_bits < 1 || (long long) s.n > (1LL << s.img_bits)) {
        std::ostringstream m;
        m << "a periodic box below 2 x (cutoff + skin) = " << 2.0 * cut
          << " in some dimension takes explicit images: " << codes << " image shifts need "
          << code_bits << " bits of each neighbour entry, which "
          << "leaves room for " << (s.img_bits < 1 ? 0LL : (1LL << s.img_bits)) << " atoms, and "
          << "this system has " << s.n << " (use a larger box: replicate it)";
        throw std::runtime_error(m.str());
      }
    }
    const int ncells = s.ncell[0] * s.ncell[1] * s.ncell[2];
    AllocLabel label("the cell list");
    if (s.cell_count.size() != (size_t) ncells) s.cell_count.resize(ncells);
    // cell slots where none are held (a run's first grid, a change of the list's kind):
    // 1.5 x the mean count + 8 (LJ: 35 slots for 18.5 atoms, a liquid's fullest cell ~30);
    // a fuller cell grows them at the build (max + max/8 + 4)
    if (s.cell_cap == 0) s.cell_cap = static_cast<int>(std::min(1.5 * s.n / ncells + 8, s.n + 1.0));
  }

}    // namespace cuda
}    // namespace mesogpu
