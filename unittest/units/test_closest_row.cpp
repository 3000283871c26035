/* The closest-image search of a reneighbouring step on the device with molecular atoms
   (cuda/topology/closest_row.h, host and device code, through its host index HostRows)
   against LAMMPS's own way: Atom::map gives the lowest index of a tag, sametag the next
   image, and Domain::closest_image keeps the first image at the smallest distance
   (strict '<'). Rows with several images per tag, ties included, tags that are no row. */

#include "topology/closest_row.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <vector>

namespace {

// LAMMPS: map_set over rows nall-1 .. 0 (sametag[i] = the previous map entry), then
// closest_image(i, map(tag))
int lammps_closest(const std::vector<int> &tag, const std::vector<double> &x, int i, int want)
{
  const int n = static_cast<int>(tag.size());
  std::map<int, int> map;
  std::vector<int> sametag(n, -1);
  for (int r = n - 1; r >= 0; r--) {
    auto it = map.find(tag[r]);
    sametag[r] = it == map.end() ? -1 : it->second;
    map[tag[r]] = r;
  }
  auto it = map.find(want);
  if (it == map.end()) return -1;
  int j = it->second, closest = j;
  auto rsq = [&](int a) {
    const double dx = x[3 * i] - x[3 * a], dy = x[3 * i + 1] - x[3 * a + 1],
                 dz = x[3 * i + 2] - x[3 * a + 2];
    return dx * dx + dy * dy + dz * dz;
  };
  double best = rsq(j);
  while (sametag[j] >= 0) {
    j = sametag[j];
    if (rsq(j) < best) {
      best = rsq(j);
      closest = j;
    }
  }
  return closest;
}

}    // namespace

TEST(ClosestRow, EqualsLammpsClosestImage)
{
  std::mt19937 rng(12345);
  for (int round = 0; round < 20; round++) {
    // 60 atoms, each with up to 3 further images shifted by a box length of 10 (some on a
    // grid, so that distances tie)
    std::vector<int> tag;
    std::vector<double> x;
    std::uniform_real_distribution<double> u(0.0, 10.0);
    std::uniform_int_distribution<int> images(0, 3), side(-1, 1);
    const bool grid = round % 2 == 1;
    for (int a = 1; a <= 60; a++) {
      double p[3];
      for (double &c : p) c = grid ? std::floor(u(rng)) : u(rng);
      tag.push_back(a);
      x.insert(x.end(), {p[0], p[1], p[2]});
      for (int m = images(rng); m > 0; m--) {
        tag.push_back(a);
        x.insert(x.end(), {p[0] + 10.0 * side(rng), p[1] + 10.0 * side(rng), p[2]});
      }
    }
    // ghost rows in another order than the owned ones
    std::shuffle(tag.begin() + 60, tag.end(), rng);
    const int n = static_cast<int>(tag.size());
    const mesogpu::topology::HostRows rows(tag.data(), x.data(), n);
    for (int i = 0; i < n; i += 3)
      for (int want : {1, 7, 30, 59, 60, 61, 1000}) {
        const int got = rows.closest(want, i);
        EXPECT_EQ(got, lammps_closest(tag, x, i, want))
            << "round " << round << " row " << i << " tag " << want;
      }
  }
}

TEST(ClosestRow, FirstNotBelow)
{
  const std::vector<unsigned> t = {2, 2, 5, 9, 9, 9};
  EXPECT_EQ(mesogpu::topology::first_not_below(1, t.data(), 6), 0);
  EXPECT_EQ(mesogpu::topology::first_not_below(2, t.data(), 6), 0);
  EXPECT_EQ(mesogpu::topology::first_not_below(3, t.data(), 6), 2);
  EXPECT_EQ(mesogpu::topology::first_not_below(9, t.data(), 6), 3);
  EXPECT_EQ(mesogpu::topology::first_not_below(10, t.data(), 6), 6);
  EXPECT_EQ(mesogpu::topology::first_not_below(4, t.data(), 0), 0);
}
