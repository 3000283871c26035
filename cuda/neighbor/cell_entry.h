/* mesogpu: the 16-bit neighbour entry ("cell entry"), shared by the list build, the
 * kernels that read the list, and the unit test (host and device, no CUDA types).
 *
 * A full list of 32-bit indices is two thirds of the device memory of a plain LJ run
 * (116 entries x 4 B per atom of 692 B). Every neighbour of atom i sits in one of the 27
 * cells around i's cell, at a slot of that cell's sorted atom list: a cell entry names
 * that stencil cell (0..26, dx fastest) and that slot, and the cell list of the same build
 * turns it back into the index. Bits:
 *   0-8   slot within the cell (so at most 512 slots per cell),
 *   9-13  stencil cell s = 9 (dz + 1) + 3 (dy + 1) + (dx + 1), dx, dy, dz in {-1, 0, 1},
 *   14-15 LAMMPS's special level (0 none, 1-3: 1-2, 1-3, 1-4), as the 32-bit entry's bits
 *         30-31.
 * Cells wrap across periodic sides as the build visits them; a box small enough to need
 * explicit images keeps 32-bit entries. */
#ifndef MESOGPU_CUDA_NEIGHBOR_CELL_ENTRY_H
#define MESOGPU_CUDA_NEIGHBOR_CELL_ENTRY_H

#include "physics/meso_hd.h"

namespace mesogpu {
namespace cuda {

  constexpr int CELL_ENTRY_SLOT_BITS = 9;
  constexpr int CELL_ENTRY_MAX_SLOTS = 1 << CELL_ENTRY_SLOT_BITS;    // slots per cell
  constexpr int CELL_ENTRY_SPECIAL_SHIFT = 14;

  MESO_HD unsigned short make_cell_entry(int slot, int dx, int dy, int dz, int special)
  {
    const int s = 9 * (dz + 1) + 3 * (dy + 1) + (dx + 1);
    return static_cast<unsigned short>(slot | (s << CELL_ENTRY_SLOT_BITS) |
                                       (special << CELL_ENTRY_SPECIAL_SHIFT));
  }

  MESO_HD int cell_entry_special(unsigned e)
  {
    return static_cast<int>(e >> CELL_ENTRY_SPECIAL_SHIFT);
  }

  // wraps one cell coordinate moved by -1, 0 or +1 (as (c + d + n) % n, without a division)
  MESO_HD int wrap_cell(int c, int n)
  {
    return c < 0 ? c + n : (c >= n ? c - n : c);
  }

  // the cell-list position (cell * cap + slot) an entry of an atom in cell (cx, cy, cz)
  // names, for a grid of nx x ny x nz cells of cap slots each
  MESO_HD long long cell_entry_slot(unsigned e, int cx, int cy, int cz, int nx, int ny, int nz,
                                    int cap)
  {
    const int s = static_cast<int>(e >> CELL_ENTRY_SLOT_BITS) & 31;
    const int dz = s / 9, r = s - 9 * dz;
    const int dy = r / 3, dx = r - 3 * dy;
    const int ox = wrap_cell(cx + dx - 1, nx), oy = wrap_cell(cy + dy - 1, ny),
              oz = wrap_cell(cz + dz - 1, nz);
    return static_cast<long long>((oz * ny + oy) * nx + ox) * cap +
           static_cast<int>(e & (CELL_ENTRY_MAX_SLOTS - 1));
  }

}    // namespace cuda
}    // namespace mesogpu

#endif
