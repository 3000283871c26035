/* mesogpu: counter-based random numbers (Philox4x32-10, Salmon et al., SC11), the same
 * on host and device. A stream is addressed by (seed, a, b, c): e.g. (fix seed, atom
 * tag, timestep, 0) for Langevin forces, so a number does not depend on thread order,
 * device order, or how many GPUs or ranks share the work: no generator state to store,
 * restart or communicate. */
#ifndef MESOGPU_PHYSICS_RANDOM_H
#define MESOGPU_PHYSICS_RANDOM_H

#include "meso_hd.h"

#include <cstdint>

namespace mesogpu {
namespace physics {

  struct Philox4x32 {
    uint32_t v[4];
  };

  MESO_HD void mulhilo32(uint32_t a, uint32_t b, uint32_t &hi, uint32_t &lo)
  {
    const uint64_t p = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
    hi = static_cast<uint32_t>(p >> 32);
    lo = static_cast<uint32_t>(p);
  }

  // 10 rounds of Philox4x32 on counter c with key k
  MESO_HD Philox4x32 philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                                uint32_t k1)
  {
    for (int round = 0; round < 10; ++round) {
      uint32_t hi0, lo0, hi1, lo1;
      mulhilo32(0xD2511F53u, c0, hi0, lo0);
      mulhilo32(0xCD9E8D57u, c2, hi1, lo1);
      const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
      c0 = n0;
      c1 = lo1;
      c2 = n2;
      c3 = lo0;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    return Philox4x32{{c0, c1, c2, c3}};
  }

  // uniform in [0, 1) from 32 random bits (2^-32 resolution)
  MESO_HD double uniform01(uint32_t x)
  {
    return x * 2.3283064365386963e-10;
  }

  // three uniform numbers in [0, 1) for stream (seed, a, b, c)
  MESO_HD void uniform3(uint32_t seed, uint32_t a, uint32_t b, uint32_t c, double u[3])
  {
    const Philox4x32 r = philox4x32(a, b, c, 0x6D657367u /* "mesg" */, seed, 0x5EED5EEDu);
    u[0] = uniform01(r.v[0]);
    u[1] = uniform01(r.v[1]);
    u[2] = uniform01(r.v[2]);
  }

}    // namespace physics
}    // namespace mesogpu

#endif
