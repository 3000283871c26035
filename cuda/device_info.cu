/* mesogpu: device queries and what the engine was compiled for. */
#include "cuda_check.h"
#include "mesogpu_cuda.h"

#include <cuda_profiler_api.h>

#include <cstdio>
#include <cstdlib>

#define MESOGPU_STR2(x) #x
#define MESOGPU_STR(x) MESOGPU_STR2(x)

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
    snprintf(buf, sizeof buf, "%s, compute capability %d.%d (sm_%d%d), %.1f GiB", prop.name,
             prop.major, prop.minor, prop.major, prop.minor, prop.totalGlobalMem / 1073741824.0);
    return buf;
  }

  const char *precision_name()
  {
#if defined(MESOGPU_PREC_SINGLE)
    return "single (float arithmetic, float accumulation and state)";
#elif defined(MESOGPU_PREC_DOUBLE)
    return "double (double everywhere)";
#else
    return "mixed (float pair/bond arithmetic, double accumulation and x, v, f)";
#endif
  }

  std::string compiled_architectures()
  {
    // nvcc lists the architectures of this compilation (CUDA 11.5+), e.g. "750,900"
#ifdef __CUDA_ARCH_LIST__
    const std::string list = MESOGPU_STR(__CUDA_ARCH_LIST__);
    std::string out;
    size_t pos = 0;
    while (pos < list.size()) {
      size_t end = list.find(',', pos);
      if (end == std::string::npos) end = list.size();
      const int arch = std::atoi(list.substr(pos, end - pos).c_str());
      if (!out.empty()) out += " ";
      out += "sm_" + std::to_string(arch / 10);
      pos = end + 1;
    }
    return out;
#else
    return "unknown (nvcc older than 11.5)";
#endif
  }

  static std::string version_string(int v)
  {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  }

  std::string runtime_version()
  {
    int v = 0;
    if (cudaRuntimeGetVersion(&v) != cudaSuccess) {
      cudaGetLastError();
      return "unknown";
    }
    return version_string(v);
  }

  std::string driver_version()
  {
    int v = 0;
    if (cudaDriverGetVersion(&v) != cudaSuccess || v == 0) {
      cudaGetLastError();
      return "none (no CUDA driver installed)";
    }
    return version_string(v);
  }

  void profiler_start()
  {
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    MESOGPU_CUDA_CALL(cudaProfilerStart());
  }

  void profiler_stop()
  {
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    MESOGPU_CUDA_CALL(cudaProfilerStop());
  }

}    // namespace cuda
}    // namespace mesogpu
