/* The main() of the LAMMPS-level tests: GoogleTest inside MPI_Init/MPI_Finalize (their
   LAMMPS instances run on MPI_COMM_WORLD or MPI_COMM_SELF). Linked from the static
   library mesogpu_mpi_test_main (unittest/CMakeLists.txt). */

#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
