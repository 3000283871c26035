/* mesogpu: CUDA error checking for host wrappers (never silent). */
#ifndef MESOGPU_CUDA_CHECK_H
#define MESOGPU_CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

#define MESOGPU_CUDA_CALL(call)                                                                    \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string("mesogpu CUDA error: ") + cudaGetErrorString(err_) +    \
                               " in " #call " at " __FILE__ ":" + std::to_string(__LINE__));       \
  } while (0)

// after a kernel launch: launch errors now, execution errors at the next sync
#define MESOGPU_CUDA_LAUNCH_CHECK() MESOGPU_CUDA_CALL(cudaGetLastError())

#endif
