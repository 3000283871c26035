/* mesogpu: command "mesogpu info"; see mesogpu_info.h. */

#include "mesogpu_info.h"

#include "comm.h"
#include "error.h"

#include <cstring>
#include <string>

#ifdef MESOGPU_HAVE_CUDA
#include "mesogpu_cuda.h"
#endif

using namespace LAMMPS_NS;

void MesogpuInfo::command(int narg, char **arg)
{
  if (narg != 1 || strcmp(arg[0], "info") != 0)
    error->all(FLERR, "Illegal mesogpu command: expected 'mesogpu info'");

  std::string text = "mesogpu " MESOGPU_VERSION "\n  styles: pair table/r2\n";
#ifdef MESOGPU_HAVE_CUDA
  text += "  CUDA engine: compiled (sm_90)\n";
  const int ndev = mesogpu::cuda::device_count();
  text += "  CUDA devices visible: " + std::to_string(ndev) + "\n";
  for (int d = 0; d < ndev; ++d)
    text += "    " + std::to_string(d) + ": " + mesogpu::cuda::device_description(d) + "\n";
#else
  text += "  CUDA engine: not compiled (built with MESOGPU_CUDA=OFF or without nvcc)\n";
#endif
  if (comm->me == 0) utils::logmesg(lmp, text);
}
