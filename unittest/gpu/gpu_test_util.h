/* Helpers every GPU test file shares: the relative difference of two per-atom vectors, the
   /cuda name of a style for the device instance, and the repository folder. */
#ifndef MESOGPU_UNITTEST_GPU_TEST_UTIL_H
#define MESOGPU_UNITTEST_GPU_TEST_UTIL_H

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace gpu_test {

// max |a - b| / max |b| (max |b| into scale_out); a NaN, an infinity or a length mismatch
// gives HUGE_VAL, so it never passes
inline double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b,
                           double *scale_out = nullptr)
{
  if (a.size() != b.size()) return HUGE_VAL;
  double d = 0, s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return HUGE_VAL;
    d = std::max(d, std::fabs(a[i] - b[i]));
    s = std::max(s, std::fabs(b[i]));
  }
  if (scale_out) *scale_out = s;
  return s > 0 ? d / s : d;
}

// the style name, with /cuda for the device instance
inline std::string S(bool dev, const std::string &style)
{
  return dev ? style + "/cuda" : style;
}

#ifdef MESOGPU_SOURCE_DIR
// the repository (MESOGPU_SOURCE_DIR in the environment wins: the GPU machine runs a copy)
inline std::string source_dir()
{
  const char *env = std::getenv("MESOGPU_SOURCE_DIR");
  return env ? env : MESOGPU_SOURCE_DIR;
}
#endif

}    // namespace gpu_test

#endif
