/* mesogpu: pair ssd's device term (plain C++; pair_style ssd/cuda calls it from
 * device_setup). Reads the rigid-body quaternions (Engine::upload_bodies); adds forces
 * and torques. Kernel: cuda/forces/pair_ssd.cu. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_SSD_H
#define MESOGPU_CUDA_FORCES_PAIR_SSD_H

#include "physics/ssd.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  // the evaluator's parameters per ordered type pair, (ntypes+1)^2 row-major; the
  // Coulomb special factors (special_coul[0..3], [0] = 1; the van der Waals part takes
  // the engine's special_lj)
  struct HostSsd {
    std::vector<physics::SsdParams<double>> params;
    std::vector<double> cutsq;
    double special_coul[4] = {1, 1, 1, 1};
  };

  void add_pair_ssd(Engine &engine, const HostSsd &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
