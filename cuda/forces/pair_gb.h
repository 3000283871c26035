/* mesogpu: pair gb's device term (plain C++; pair_style gb/cuda calls it from
 * device_setup). Reads the rigid-body quaternions (Engine::upload_bodies) of the
 * ellipsoid types; adds forces and torques. Kernel: cuda/forces/pair_gb.cu. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_GB_H
#define MESOGPU_CUDA_FORCES_PAIR_GB_H

#include "physics/gay_berne.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  // the evaluator's parameters per ordered type pair, (ntypes+1)^2 row-major; per type
  // (ntypes+1 values) 1 for a sphere (long axis taken as 0, as the CPU style does)
  struct HostGayBerne {
    std::vector<physics::GayBerneParams<double>> params;
    std::vector<double> cutsq;
    std::vector<int> sphere;
  };

  void add_pair_gb(Engine &engine, const HostGayBerne &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
