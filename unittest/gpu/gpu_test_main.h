/* The main() of a one-rank GPU test program: MPI (the host LAMMPS needs it), GoogleTest,
   ctest's skip code 77 where no CUDA device is visible (the tests run on the GPU machine),
   and the device and precision in the log. */
#ifndef MESOGPU_UNITTEST_GPU_TEST_MAIN_H
#define MESOGPU_UNITTEST_GPU_TEST_MAIN_H

#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <mpi.h>

namespace gpu_test {

// the precision this test program was built for (MESOGPU_PRECISION)
inline const char *built_precision()
{
#if defined(MESOGPU_PREC_DOUBLE)
  return "double";
#elif defined(MESOGPU_PREC_SINGLE)
  return "single";
#else
  return "mixed";
#endif
}

// precision: what the log says of it (the build's, unless the program's own differs)
inline int run_gpu_tests(int argc, char **argv, const char *precision = built_precision())
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (mesogpu::cuda::device_count() == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return 77;
  }
  printf("[gpu] device 0: %s, precision %s\n", mesogpu::cuda::device_description(0).c_str(),
         precision);
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}

}    // namespace gpu_test

#endif
