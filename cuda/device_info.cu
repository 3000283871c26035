/* mesogpu: device queries. */
#include "cuda_check.h"
#include "mesogpu_cuda.h"

#include <cstdio>

namespace mesogpu {
namespace cuda {

  int device_count()
  {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();    // clear the sticky "no driver/device" error
      return 0;
    }
    return n;
  }

  std::string device_description(int dev)
  {
    cudaDeviceProp prop;
    MESOGPU_CUDA_CALL(cudaGetDeviceProperties(&prop, dev));
    char buf[512];
    snprintf(buf, sizeof buf, "%s, sm_%d%d, %.1f GiB", prop.name, prop.major, prop.minor,
             prop.totalGlobalMem / 1073741824.0);
    return buf;
  }

}    // namespace cuda
}    // namespace mesogpu
