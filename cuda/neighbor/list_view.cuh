/* mesogpu: how kernels read the neighbour list (internal to cuda/). Two layouts of the same
 * list, both column-major (entry k of atom i at [k n + i]) and in the same order:
 *   WideList: 32-bit entries, the index with LAMMPS's special bits 30-31 (and, in boxes
 *             small enough for explicit images, the image code above box.img_bits);
 *   CellList: 16-bit cell entries (neighbor/cell_entry.h), turned back into the index by
 *             the cell list of the same build.
 * A kernel takes the view as a template parameter and asks it, per atom, for an origin
 * (what the entries of that atom are relative to) and then, per entry, for the neighbour:
 *   const auto o = list.origin(i);
 *   for (...) { int which; int j = list.neighbor(o, k * n + i, which); ... }
 * Engine::Impl::with_list() calls a functor with the view of the last build. */
#ifndef MESOGPU_CUDA_NEIGHBOR_LIST_VIEW_CUH
#define MESOGPU_CUDA_NEIGHBOR_LIST_VIEW_CUH

#include "core/device_array.cuh"
#include "neighbor/cell_entry.h"

namespace mesogpu {
namespace cuda {
  namespace detail {

    struct WideList {
      static constexpr bool allows_images = true;
      const int *nnbr;
      const int *nbr;
      struct Origin {};
      __device__ Origin origin(int) const { return {}; }
      // the neighbour's index (with its image code in image mode) and special level
      __device__ int neighbor(const Origin &, size_t at, int &which) const
      {
        const int e = nbr[at];
        which = (e >> SBBITS) & 3;    // as LAMMPS sbmask(): the shift is arithmetic
        return e & NEIGHMASK;
      }
    };

    struct CellList {
      static constexpr bool allows_images = false;
      const int *nnbr;
      const unsigned short *nbr;
      const int *cell_of, *cell_atoms;    // of the build that wrote the entries
      int nx, ny, nz, cap;
      struct Origin {
        int cx, cy, cz;
      };
      __device__ Origin origin(int i) const
      {
        const int c = cell_of[i];
        return {c % nx, (c / nx) % ny, c / (nx * ny)};
      }
      __device__ int neighbor(const Origin &o, size_t at, int &which) const
      {
        const unsigned e = nbr[at];
        which = cell_entry_special(e);
        return cell_atoms[cell_entry_slot(e, o.cx, o.cy, o.cz, nx, ny, nz, cap)];
      }
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
