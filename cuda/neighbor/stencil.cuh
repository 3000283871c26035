/* mesogpu: the 27-cell stencil of the cell list (internal to cuda/): the list builds
 * (neighbor/list_build.cu) and the pair kernels that take their pairs straight from the
 * cells (forces/pair_kernel.cuh) walk the same cells in the same order. */
#ifndef MESOGPU_CUDA_NEIGHBOR_STENCIL_CUH
#define MESOGPU_CUDA_NEIGHBOR_STENCIL_CUH

#include "core/device_types.cuh"

namespace mesogpu {
namespace cuda {
  namespace detail {

    // a neighbour cell's index c (cell + offset, at most one cell outside 0..nc-1) wrapped
    // into the grid, and the shift of its atoms' image: -prd below, +prd above, 0 inside.
    // Branches, not wrap_cell() of cell_entry.h and a select: every such form tried (nvcc
    // 13, sm_90) changed the registers of the build kernels, some up by 5 to 11
    __device__ __forceinline__ real wrap_cell_shift(int &c, int nc, real prd)
    {
      if (c < 0) {
        c += nc;
        return -prd;
      }
      if (c >= nc) {
        c -= nc;
        return prd;
      }
      return real(0);
    }

    // a cell of the stencil as both builds read it: its atoms (m of them, their rows and
    // positions) and atom i's position less the cell's image shift (ByCell), once per cell
    struct StencilCell {
      int m;
      const int *atoms;
      const PosType<real> *pos;
      real qx, qy, qz;
      real sx, sy, sz;    // the cell's image shift (the pair kernels' x_i - x_j - s)
    };

    // the stencil of both builds: the cells at offsets lo..hi (each -1, 0 or +1) around
    // cell (cx, cy, cz), dz slowest and dx fastest (the order of a row's entries);
    // visit(cell, dx, dy, dz) with the wrapped cell's atoms and pi less its image shift
    template <class Visit>
    __device__ __forceinline__ void
    for_each_stencil_cell(const BoxD &box, int3 ncell, int cx, int cy, int cz, int3 lo, int3 hi,
                          const PosType<real> &pi, const int *cell_count, const int *cell_atoms,
                          const PosType<real> *cell_pos, int cell_cap, Visit &&visit)
    {
      for (int dz = lo.z; dz <= hi.z; ++dz) {
        int oz = cz + dz;
        const real sz = wrap_cell_shift(oz, ncell.z, box.prd_r[2]);
        for (int dy = lo.y; dy <= hi.y; ++dy) {
          int oy = cy + dy;
          const real sy = wrap_cell_shift(oy, ncell.y, box.prd_r[1]);
          for (int dx = lo.x; dx <= hi.x; ++dx) {
            int ox = cx + dx;
            const real sx = wrap_cell_shift(ox, ncell.x, box.prd_r[0]);
            const int oc = (oz * ncell.y + oy) * ncell.x + ox;
            const StencilCell cell{min(cell_count[oc], cell_cap),
                                   cell_atoms + (size_t) oc * cell_cap,
                                   cell_pos + (size_t) oc * cell_cap,
                                   pi.x - sx,
                                   pi.y - sy,
                                   pi.z - sz,
                                   sx,
                                   sy,
                                   sz};
            visit(cell, dx, dy, dz);
          }
        }
      }
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
