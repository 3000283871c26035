/* GPU tests of the engine's own interfaces, without LAMMPS styles: per-atom data that a
   style asks for by name (upload_per_atom) follows the atoms through sorts along the
   space-filling curve and comes back in LAMMPS order. Needs a GPU: exits 77 otherwise. */

#include "engine.h"
#include "engine_test_util.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <vector>

using mesogpu::cuda::Engine;

// random atoms in a 20^3 box: the first sort reorders nearly all of them
TEST(GpuEngine, PerAtomDataFollowsSorts)
{
  const int n = 5000;
  gpu_test::RandomAtoms atoms(n, 7);
  std::vector<double> quat(4 * n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k) quat[4 * i + k] = i + 0.25 * k;    // names its atom
  Engine e;
  atoms.upload(e);
  e.upload_per_atom("quat", 4, quat.data());
  EXPECT_EQ(e.per_atom_width("quat"), 4);
  EXPECT_EQ(e.per_atom_width("angmom"), 0);
  e.set_neighbor(2.8, 0.3, {0.0, 0.0, 0.0, 2.8 * 2.8}, 1, 0, true);
  e.set_sort(1);
  e.build_neighbor_list();    // sorts first
  e.compute_forces(false);
  e.build_neighbor_list();    // and again
  ASSERT_GE(e.sorts_done(), 1);
  std::vector<double> back(4 * n, -1.0), xb(3 * n);
  e.download_per_atom("quat", back.data());
  e.download_atoms(xb.data(), nullptr, nullptr, nullptr);
  EXPECT_EQ(back, quat);
  // positions as the device stores them (float in single precision)
  std::vector<double> x = atoms.x;
  for (auto &c : x) c = static_cast<double>(static_cast<mesogpu::cuda::acc>(c));
  EXPECT_EQ(xb, x);
  // uploaded after a sort: still read in LAMMPS order
  for (auto &q : quat) q = -q;
  e.upload_per_atom("quat", 4, quat.data());
  e.download_per_atom("quat", back.data());
  EXPECT_EQ(back, quat);
  printf("[gpu] per-atom data 'quat' (4 per atom) over %lld sorts of %d atoms: equal\n",
         e.sorts_done(), n);
}

int main(int argc, char **argv)
{
  ::testing::InitGoogleTest(&argc, argv);
  if (mesogpu::cuda::device_count() == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    return 77;
  }
  return RUN_ALL_TESTS();
}
