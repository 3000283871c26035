/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - run_style verlet/cuda: whole velocity-Verlet timesteps on one GPU.
   Host arrays are brought up to date only at output steps (thermo, dump,
   restart) and at the end of the run. Docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_VERLET_CUDA_H
#define MESOGPU_VERLET_CUDA_H

#include "verlet.h"

#include <memory>
#include <utility>
#include <vector>

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

class DeviceFix;

class VerletCuda : public Verlet {
 public:
  VerletCuda(class LAMMPS *, int, char **);
  ~VerletCuda() override;
  void init() override;
  void setup(int flag) override;
  void setup_minimal(int flag) override;
  void run(int) override;
  void cleanup() override;

 protected:
  std::unique_ptr<mesogpu::cuda::Engine> engine;
  std::vector<DeviceFix *> fix_initial, fix_post_force, fix_final;
  std::vector<std::pair<DeviceFix *, int>> fix_end_of_step;    // with the fix's nevery
  std::vector<int> tag_to_index;
  bool synced;    // host arrays hold the current device state

  void check_styles();
  void upload();
  void sync_to_host(bool energy_virial);
  void device_error(const char *what, const std::exception &e);
};

}    // namespace LAMMPS_NS

#endif
