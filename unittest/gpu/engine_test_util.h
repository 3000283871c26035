/* Helpers of the GPU tests that drive the device engine without LAMMPS styles
   (test_gpu_engine.cpp, test_gpu_memory_report.cpp): a seeded set of random atoms and its
   upload. */
#ifndef MESOGPU_UNITTEST_ENGINE_TEST_UTIL_H
#define MESOGPU_UNITTEST_ENGINE_TEST_UTIL_H

#include "engine.h"

#include <random>
#include <vector>

namespace gpu_test {

// n atoms of type 1 (mass 1) uniformly at random in the box [0, L)^3 (std::mt19937 with
// `seed`, x, y, z of atom 0 first), at rest, tags 1 .. n, mask 1: the first sort of an
// engine reorders nearly all of them
struct RandomAtoms {
  int n;
  double L;
  std::vector<double> x, v, f, mass;
  std::vector<int> image, type, mask, tag;

  RandomAtoms(int n_, unsigned seed, double L_ = 20.0) :
      n(n_), L(L_), x(3 * (size_t) n_), v(3 * (size_t) n_, 0.0),
      f(3 * (size_t) n_, 0.0), mass{0.0, 1.0}, image(3 * (size_t) n_, 0), type(n_, 1), mask(n_, 1),
      tag(n_)
  {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, L);
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < 3; ++d) x[3 * (size_t) i + d] = u(rng);
      tag[i] = i + 1;
    }
  }
  // the atoms' arrays only (a new run's setup)
  void upload_atoms(mesogpu::cuda::Engine &e) const
  {
    e.upload_atoms(n, 1, x.data(), v.data(), f.data(), image.data(), type.data(), mass.data());
  }
  // the box, the atoms, their masks and tags
  void upload(mesogpu::cuda::Engine &e) const
  {
    const double lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    e.set_box(lo, hi);
    upload_atoms(e);
    e.upload_mask(mask.data());
    e.upload_tags(tag.data());
  }
};

}    // namespace gpu_test

#endif
