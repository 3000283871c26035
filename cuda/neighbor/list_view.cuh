/* mesogpu: how kernels read the neighbour list (internal to cuda/). Two layouts of the same
 * list, both column-major (entry k of atom i at [k n + i]) and in the same order:
 *   WideList: 32-bit entries, the index with LAMMPS's special bits 30-31 (and, in boxes
 *             small enough for explicit images, the image code above box.img_bits);
 *   CellList: 16-bit cell entries (neighbor/cell_entry.h), turned back into the index by
 *             the cell list of the same build.
 * A kernel takes the view as a template parameter and asks it, per atom, for a cursor at
 * the atom's first entry (a pointer, and for cell entries the atom's cell), then per entry
 * for the neighbour, stepping the cursor by whole columns:
 *   auto c = list.cursor(i, i + (size_t) lane * n);
 *   for (k = lane; k < m; k += Group, list.advance(c, Group * n)) { j = list.neighbor(c, which); }
 * A pointer that steps, not an index times the entry size at each entry: the pair kernel
 * held 32 registers that way and 38 with the index (75 % occupancy instead of 100 %, LJ
 * 12-14 % slower on an H100). Engine::Impl::with_list() calls a functor with the view of
 * the last build. */
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
      struct Cursor {
        const int *at;
      };
      // atom i's entry at list position `first` (k n + i for its entry k)
      __device__ Cursor cursor(int, size_t first) const { return {nbr + first}; }
      __device__ void advance(Cursor &c, size_t stride) const { c.at += stride; }
      // the neighbour's index (with its image code in image mode) and special level
      __device__ int neighbor(const Cursor &c, int &which) const
      {
        const int e = *c.at;
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
      struct Cursor {
        const unsigned short *at;
        int cx, cy, cz;    // atom i's cell, which its entries are relative to
      };
      __device__ Cursor cursor(int i, size_t first) const
      {
        const int c = cell_of[i];
        return {nbr + first, c % nx, (c / nx) % ny, c / (nx * ny)};
      }
      __device__ void advance(Cursor &c, size_t stride) const { c.at += stride; }
      __device__ int neighbor(const Cursor &c, int &which) const
      {
        const unsigned e = *c.at;
        which = cell_entry_special(e);
        return cell_atoms[cell_entry_slot(e, c.cx, c.cy, c.cz, nx, ny, nz, cap)];
      }
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
