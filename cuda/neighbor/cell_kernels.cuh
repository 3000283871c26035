/* mesogpu: cell-list kernels shared by the neighbour list (neighbor/neighbor_list.cu) and
 * the MD-SCF gather deposit (field/mdscf.cu); internal to cuda/. */
#ifndef MESOGPU_CUDA_NEIGHBOR_CELL_KERNELS_CUH
#define MESOGPU_CUDA_NEIGHBOR_CELL_KERNELS_CUH

#include "core/device_array.cuh"

namespace mesogpu {
namespace cuda {
  namespace {
    using namespace detail;

    // atomic slot claims leave each cell in arbitrary order; sorting makes the
    // neighbour order, the force sums and so whole trajectories reproducible
    __global__ void sort_cells_kernel(int ncells, const int *cell_count, int *cell_atoms,
                                      int cell_cap)
    {
      const int c = blockIdx.x * blockDim.x + threadIdx.x;
      if (c >= ncells) return;
      int *a = cell_atoms + (size_t) c * cell_cap;
      const int m = min(cell_count[c], cell_cap);
      for (int k = 1; k < m; ++k) {
        const int v = a[k];
        int l = k - 1;
        while (l >= 0 && a[l] > v) {
          a[l + 1] = a[l];
          --l;
        }
        a[l + 1] = v;
      }
    }
  }    // namespace
}    // namespace cuda
}    // namespace mesogpu

#endif
