/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - which GPU a rank of a resident run on several MPI ranks uses
   (run_style verlet/cuda): its rank among the ranks of its node modulo the
   GPUs it sees. More ranks on a node than GPUs means ranks share a GPU, which
   a run must ask for (run_style verlet/cuda share yes, or MESOGPU_GPU_SHARE=yes):
   ranks that share a GPU split its memory and time, which is wanted for tests
   and for small systems, and a mistake in a job script otherwise.
   Plain C++, no LAMMPS or CUDA: unittest/units/test_gpu_choice.cpp.
------------------------------------------------------------------------- */

#ifndef MESOGPU_GPU_CHOICE_H
#define MESOGPU_GPU_CHOICE_H

#include <string>

namespace mesogpu {

struct GpuChoice {
  int device = -1;      // the GPU of this rank (0 .. ngpu-1), -1 when refused
  std::string error;    // why not, for the user; empty when device >= 0
};

// local_rank of local_size ranks on this node, ngpu GPUs visible (> 0)
inline GpuChoice choose_gpu(int local_rank, int local_size, int ngpu, bool share)
{
  GpuChoice c;
  if (ngpu <= 0 || local_size <= 0 || local_rank < 0 || local_rank >= local_size) {
    c.error = "no GPU to choose (" + std::to_string(ngpu) + " visible) for node-local rank " +
              std::to_string(local_rank) + " of " + std::to_string(local_size);
    return c;
  }
  if (local_size > ngpu && !share) {
    c.error = std::to_string(local_size) + " MPI ranks on one node would share " +
              std::to_string(ngpu) + (ngpu == 1 ? " GPU" : " GPUs") +
              " (one engine per rank): start at most " + std::to_string(ngpu) +
              " ranks per node, or allow sharing with 'run_style verlet/cuda share yes' "
              "(or the environment variable MESOGPU_GPU_SHARE=yes)";
    return c;
  }
  c.device = local_rank % ngpu;
  return c;
}

// MESOGPU_GPU_SHARE: yes/no (also 1/0, true/false); anything else is an error text
inline bool parse_share(const char *value, bool &share, std::string &error)
{
  const std::string v = value ? value : "";
  if (v == "yes" || v == "1" || v == "true") {
    share = true;
  } else if (v == "no" || v == "0" || v == "false") {
    share = false;
  } else {
    error = "'" + v + "' is not yes or no";
    return false;
  }
  return true;
}

// a keyword value of two choices: `on` true for `yes`, false for `no`; anything else is
// an error text naming both
inline bool parse_two_choices(const char *value, const char *yes, const char *no, bool &on,
                              std::string &error)
{
  const std::string v = value ? value : "";
  if (v != yes && v != no) {
    error = "'" + v + "' is not " + yes + " or " + no;
    return false;
  }
  on = v == yes;
  return true;
}

// a keyword value of three choices: `out` the value of the name given; anything else is an
// error text naming all three
template <class T>
inline bool parse_three_choices(const char *value, const char *const (&names)[3],
                                const T (&values)[3], T &out, std::string &error)
{
  const std::string v = value ? value : "";
  for (int k = 0; k < 3; ++k)
    if (v == names[k]) {
      out = values[k];
      return true;
    }
  error = "'" + v + "' is not " + names[0] + ", " + names[1] + " or " + names[2];
  return false;
}

// run_style verlet/cuda rebuild device|host: reneighbouring steps on several ranks on
// the device (true) or through the host
inline bool parse_rebuild(const char *value, bool &device, std::string &error)
{
  return parse_two_choices(value, "device", "host", device, error);
}

// run_style verlet/cuda exchange host|ipc|cuda-aware (or MESOGPU_EXCHANGE): the
// per-step ghost exchange on several ranks through host memory, device to device through
// CUDA IPC (ranks of one node), or device buffers handed to a CUDA-aware MPI. Ordered so
// that the ranks agree on the smallest any of them asks for (the host path is always there).
enum class ExchangePath { host = 0, cuda_aware = 1, ipc = 2 };

inline bool parse_exchange(const char *value, ExchangePath &path, std::string &error)
{
  return parse_three_choices(value, {"host", "ipc", "cuda-aware"},
                             {ExchangePath::host, ExchangePath::ipc, ExchangePath::cuda_aware},
                             path, error);
}

// a yes|no keyword value (run_style verlet/cuda overlap, MESOGPU_OVERLAP, MESOGPU_FUSED_FINAL)
inline bool parse_yes_no(const char *value, bool &on, std::string &error)
{
  return parse_two_choices(value, "yes", "no", on, error);
}

// run_style verlet/cuda list_entries auto|16|32 (or MESOGPU_LIST_ENTRIES): the neighbour
// list's entries, 0 for auto (32-bit, 16-bit cell entries only where 32-bit ones would not
// leave enough device memory free), 16 or 32
inline bool parse_list_entries(const char *value, int &bits, std::string &error)
{
  return parse_three_choices(value, {"auto", "16", "32"}, {0, 16, 32}, bits, error);
}

// run_style verlet/cuda tight_list auto|yes|no (or MESOGPU_TIGHT_LIST): the neighbour list
// without the skin, built at every step, where a list with the skin would live one step:
// -1 auto, 1 yes (wherever allowed), 0 no
inline bool parse_tight_list(const char *value, int &mode, std::string &error)
{
  return parse_three_choices(value, {"auto", "yes", "no"}, {-1, 1, 0}, mode, error);
}

// MESOGPU_PROFILE_STEPS=FIRST:COUNT: the steps of each run (counted from 0) that a
// profiler started with --profile-from-start off records (ncu, bench/README.md);
// FIRST >= 0, 1 <= COUNT
inline bool parse_profile_steps(const char *value, int &first, int &count, std::string &error)
{
  const std::string v = value ? value : "";
  const size_t colon = v.find(':');
  auto number = [](const std::string &t, long &out) {
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
      return false;
    out = std::stol(t);
    return true;
  };
  long a = -1, b = -1;
  if (colon == std::string::npos || !number(v.substr(0, colon), a) ||
      !number(v.substr(colon + 1), b) || b < 1) {
    error = "'" + v +
            "' is not FIRST:COUNT (the first step of each run to record, from 0, "
            "and how many, at least 1)";
    return false;
  }
  first = static_cast<int>(a);
  count = static_cast<int>(b);
  return true;
}

}    // namespace mesogpu

#endif
