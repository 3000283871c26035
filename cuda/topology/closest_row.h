/* mesogpu: the device row of an atom ID closest to a point, as LAMMPS's
 * Domain::closest_image() picks it among an atom's images (owned atom and ghosts), for the
 * bonded and special lists a reneighbouring step on the device makes from atom IDs on
 * several ranks (topology/topology_migrate.cu). The rows' tags sorted ascending with the
 * rows ascending within a tag (a stable sort of (tag, row) pairs): a binary search finds
 * the first image, the images follow. LAMMPS walks the images from the lowest index
 * (Atom::map) through sametag with a strict '<': the lowest row wins a tie here too.
 * Plain C++ for host and device: unit-tested on the host
 * (unittest/units/test_closest_row.cpp). */
#ifndef MESOGPU_CUDA_TOPOLOGY_CLOSEST_ROW_H
#define MESOGPU_CUDA_TOPOLOGY_CLOSEST_ROW_H

#include <algorithm>
#include <numeric>
#include <vector>

#ifdef __CUDACC__
#define MESOGPU_HOST_DEVICE __host__ __device__
#else
#define MESOGPU_HOST_DEVICE
#endif

namespace mesogpu {
namespace topology {

  // the first of n sorted tags not below `tag`
  MESOGPU_HOST_DEVICE inline int first_not_below(unsigned tag, const unsigned *sorted_tag, int n)
  {
    int lo = 0, hi = n;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (sorted_tag[mid] < tag)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

  // the row with atom ID `tag` closest to (xi, yi, zi) (squared distance in double, no
  // minimum image: the ghosts are images already); -1 when no row has it. x, y, z: the
  // positions by row.
  template <typename X>
  MESOGPU_HOST_DEVICE inline int closest_row(unsigned tag, const unsigned *sorted_tag,
                                             const int *sorted_row, int n, const X *x, const X *y,
                                             const X *z, double xi, double yi, double zi)
  {
    int best = -1;
    double best_rsq = 0.0;
    for (int p = first_not_below(tag, sorted_tag, n); p < n && sorted_tag[p] == tag; ++p) {
      const int r = sorted_row[p];
      const double dx = xi - static_cast<double>(x[r]);
      const double dy = yi - static_cast<double>(y[r]);
      const double dz = zi - static_cast<double>(z[r]);
      const double rsq = dx * dx + dy * dy + dz * dz;
      if (best < 0 || rsq < best_rsq) {
        best = r;
        best_rsq = rsq;
      }
    }
    return best;
  }

  // the host's side of closest_row (the host mirror of the device's resolution,
  // src/cuda/owned_topology.cpp, and the unit test): n rows' tags stably sorted with their
  // rows, and their positions (x y z per row in xyz) by column
  struct HostRows {
    std::vector<int> order;    // rows by tag, ascending rows within a tag
    std::vector<unsigned> sorted_tag;
    std::vector<double> x, y, z;
    HostRows(const int *tag, const double *xyz, int n) : order(n), sorted_tag(n), x(n), y(n), z(n)
    {
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return static_cast<unsigned>(tag[a]) < static_cast<unsigned>(tag[b]);
      });
      for (int p = 0; p < n; p++) sorted_tag[p] = static_cast<unsigned>(tag[order[p]]);
      for (int r = 0; r < n; r++) {
        x[r] = xyz[3 * r];
        y[r] = xyz[3 * r + 1];
        z[r] = xyz[3 * r + 2];
      }
    }
    // the row of atom ID `id` closest to row i; -1 when no row has it
    int closest(int id, int i) const
    {
      return closest_row(static_cast<unsigned>(id), sorted_tag.data(), order.data(),
                         static_cast<int>(order.size()), x.data(), y.data(), z.data(), x[i], y[i],
                         z[i]);
    }
  };

}    // namespace topology
}    // namespace mesogpu

#endif
