/* mesogpu: pair soft/aniso's device term (plain C++; pair_style soft/aniso/cuda calls it
 * from device_setup). Needs orientations (Engine::upload_orientation); adds forces and
 * torques. Kernel: cuda/forces/soft_aniso.cu. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_SOFT_ANISO_H
#define MESOGPU_CUDA_FORCES_PAIR_SOFT_ANISO_H

#include "physics/soft_aniso.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  // the evaluator's parameters per type pair, (ntypes+1)^2 row-major
  struct HostSoftAniso {
    std::vector<physics::SoftAnisoParams<double>> params;
    std::vector<double> cutsq;
  };

  void add_pair_soft_aniso(Engine &engine, const HostSoftAniso &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
