/* mesogpu: the engine's device allocator (the only cudaMalloc): every allocation is
 * checked against the free device memory and the MESOGPU_DEVICE_MEMORY_LIMIT cap first,
 * so a run that does not fit stops naming the bytes it needs. */

#include "core/device_array.cuh"

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace mesogpu {
namespace cuda {
  namespace detail {

    // ---- device memory: the only place that allocates --------------------------------
    // Every allocation is checked against the free device memory (and an optional cap on
    // what the engine may hold, MESOGPU_DEVICE_MEMORY_LIMIT) before cudaMalloc: a run that
    // does not fit stops with what was being allocated, the bytes needed and the bytes
    // free, never with a failed or illegal access later.
    size_t g_engine_bytes = 0;    // device memory the engine holds now
    size_t g_memory_limit = 0;    // 0: no cap
    thread_local const char *g_alloc_what = "the atom arrays";

    std::string bytes_text(size_t b)
    {
      std::ostringstream m;
      m.setf(std::ios::fixed);
      m.precision(2);
      m << b / 1073741824.0 << " GiB (" << b << " bytes)";
      return m.str();
    }

    void *device_alloc(size_t count, size_t elem)
    {
      const size_t n = std::max<size_t>(count, 1);
      if (n > SIZE_MAX / elem)
        throw std::runtime_error(std::string("mesogpu: ") + g_alloc_what + ": " +
                                 std::to_string(count) + " elements do not fit in 64-bit sizes");
      const size_t bytes = n * elem;
      size_t free_b = 0, total_b = 0;
      MESOGPU_CUDA_CALL(cudaMemGetInfo(&free_b, &total_b));
      auto fail = [&](const std::string &why) {
        std::ostringstream m;
        m << "not enough GPU memory for " << g_alloc_what << ": it needs " << bytes_text(bytes)
          << " more; " << why << " (the engine holds " << bytes_text(g_engine_bytes) << " of "
          << bytes_text(total_b)
          << "). Fewer atoms per GPU (or a shorter cutoff + skin, fewer neighbours) would fit";
        throw std::runtime_error(m.str());
      };
      if (g_memory_limit && g_engine_bytes + bytes > g_memory_limit)
        fail("the cap MESOGPU_DEVICE_MEMORY_LIMIT = " + bytes_text(g_memory_limit) + " leaves " +
             bytes_text(g_memory_limit > g_engine_bytes ? g_memory_limit - g_engine_bytes : 0));
      if (bytes > free_b) fail(bytes_text(free_b) + " are free");
      void *p = nullptr;
      const cudaError_t e = cudaMalloc(&p, bytes);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();    // not sticky: clear it, report it as the memory error it is
        fail(bytes_text(free_b) + " were free, but cudaMalloc could not place them");
      }
      MESOGPU_CUDA_CALL(e);
      g_engine_bytes += bytes;
      return p;
    }

    bool device_fits(size_t bytes)
    {
      size_t free_b = 0, total_b = 0;
      MESOGPU_CUDA_CALL(cudaMemGetInfo(&free_b, &total_b));
      if (g_memory_limit && g_engine_bytes + bytes > g_memory_limit) return false;
      return bytes <= free_b;
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu
