// The 16-bit neighbour entry (cuda/neighbor/cell_entry.h): every (slot, stencil cell,
// special level) an entry can hold comes back as the cell-list position the list build
// visited, computed here independently with the build's own wrap, (c + d + n) % n.
#include "neighbor/cell_entry.h"

#include <gtest/gtest.h>

#include <vector>

using namespace mesogpu::cuda;

namespace {
long long reference_position(int slot, int dx, int dy, int dz, int cx, int cy, int cz, int nx,
                             int ny, int nz, int cap)
{
  const int ox = (cx + dx + nx) % nx, oy = (cy + dy + ny) % ny, oz = (cz + dz + nz) % nz;
  return (static_cast<long long>((oz * ny + oy) * nx + ox)) * cap + slot;
}
}    // namespace

TEST(CellEntry, EveryStencilCellSlotAndLevelRoundTrips)
{
  // grids with 2 cells (the -1 and +1 neighbours are one cell), odd and large counts
  const int grids[][3] = {{2, 2, 2}, {3, 5, 7}, {48, 48, 48}, {1024, 3, 2}};
  const int cap = CELL_ENTRY_MAX_SLOTS;
  for (const auto &g : grids) {
    const int nx = g[0], ny = g[1], nz = g[2];
    // corner, edge and interior cells
    const int cells[][3] = {{0, 0, 0}, {nx - 1, ny - 1, nz - 1}, {nx / 2, 0, nz - 1}};
    for (const auto &c : cells)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            for (int slot : {0, 1, 17, cap - 1})
              for (int special = 0; special < 4; ++special) {
                const unsigned e = make_cell_entry(slot, dx, dy, dz, special);
                EXPECT_EQ(cell_entry_special(e), special);
                EXPECT_EQ(cell_entry_slot(e, c[0], c[1], c[2], nx, ny, nz, cap),
                          reference_position(slot, dx, dy, dz, c[0], c[1], c[2], nx, ny, nz, cap))
                    << "grid " << nx << "x" << ny << "x" << nz << " cell " << c[0] << "," << c[1]
                    << "," << c[2] << " offset " << dx << "," << dy << "," << dz << " slot " << slot
                    << " special " << special;
              }
  }
}

TEST(CellEntry, DistinctEntriesForDistinctNeighbours)
{
  // 27 cells x 512 slots x 4 levels = 55,296 of the 65,536 values, each used once
  std::vector<char> seen(1 << 16, 0);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        for (int slot = 0; slot < CELL_ENTRY_MAX_SLOTS; ++slot)
          for (int special = 0; special < 4; ++special) {
            const unsigned e = make_cell_entry(slot, dx, dy, dz, special);
            ASSERT_LT(e, 1u << 16);
            EXPECT_EQ(seen[e], 0) << e;
            seen[e] = 1;
          }
}
