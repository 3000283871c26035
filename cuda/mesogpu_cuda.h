/* mesogpu: host interface of the CUDA engine. Plain C++ (no CUDA headers), so the
   plugin and the tests include it with g++. Every function checks its CUDA calls and
   throws std::runtime_error with the CUDA error text; none needs a GPU to be linked. */
#ifndef MESOGPU_CUDA_H
#define MESOGPU_CUDA_H

#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  // Number of usable CUDA devices; 0 without a GPU or driver (never throws).
  int device_count();
  // "name, compute capability, memory" of device `dev`.
  std::string device_description(int dev);
  // the device precision this engine was compiled with (MESOGPU_PRECISION), in words
  const char *precision_name();
  // the GPU architectures compiled for, e.g. "sm_90"
  std::string compiled_architectures();
  // CUDA runtime linked in and driver installed, e.g. "12.4"; the driver may be absent
  std::string runtime_version();
  std::string driver_version();
  // the steps a profiler started with --profile-from-start off records
  // (MESOGPU_PROFILE_STEPS): cudaProfilerStart / cudaProfilerStop, after the work queued
  // before them
  void profiler_start();
  void profiler_stop();

  // Evaluates a table/r2 spline at each rsq on the device, in float or double.
  // fdivr = F/r, energy = V; ok = 0 where rsq is below the table start (inner error).
  struct TableR2Host {
    int n = 0;
    double z_lo = 0.0, dz = 0.0;
    int inner = 0;    // physics::InnerMode
    std::vector<double> coeff;
  };
  void evaluate_table_r2(const TableR2Host &table, const std::vector<double> &rsq, bool single,
                         std::vector<double> &fdivr, std::vector<double> &energy,
                         std::vector<int> &ok);

}    // namespace cuda
}    // namespace mesogpu

#endif
