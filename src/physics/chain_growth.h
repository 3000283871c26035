/* mesogpu: the decision rule of stochastic chain-growth polymerization (GALAMOST's
 * Algorithm 4, Zhu et al., J. Comput. Chem. 34, 2197 (2013), doi:10.1002/jcc.23365), shared
 * by the CPU fix (src/fix_polymerize.cpp) and a device kernel.
 *
 * Every Nevery steps each active chain end i looks at the free monomers j within the capture
 * radius (cris_j = 0, init_j = 0) and accepts each with probability P_r(type_i, type_j). The
 * random number of the pair is a counter-based Philox draw keyed on (seed, step, tag_i,
 * tag_j): no state, the same on any number of ranks, threads or GPUs. Conflicts are settled
 * by an order-independent rule instead of GALAMOST's atomicMax claim:
 *   - an end takes, among its accepted monomers, the one of smallest u (tie: smaller tag);
 *   - a monomer chosen by several ends goes to the end of smallest u for that pair (tie:
 *     smaller tag); the other ends do not react in this step.
 * Both comparisons are better_candidate() on (u, tag). */
#ifndef MESOGPU_PHYSICS_CHAIN_GROWTH_H
#define MESOGPU_PHYSICS_CHAIN_GROWTH_H

#include "meso_hd.h"
#include "random.h"

#include <cstdint>

namespace mesogpu {
namespace physics {

  // uniform number in [0, 1) of the pair (end tag_i, monomer tag_j) at step `step`; the
  // order matters (end first). 64-bit tags and steps: the high words go into the key.
  MESO_HD double chain_growth_uniform(uint32_t seed, int64_t step, int64_t tag_i, int64_t tag_j)
  {
    const uint64_t s = static_cast<uint64_t>(step), a = static_cast<uint64_t>(tag_i),
                   b = static_cast<uint64_t>(tag_j);
    const uint32_t hi =
        static_cast<uint32_t>(a >> 32) * 0x9E3779B1u ^ static_cast<uint32_t>(b >> 32) * 0x85EBCA77u;
    const Philox4x32 r =
        philox4x32(static_cast<uint32_t>(a), static_cast<uint32_t>(b), static_cast<uint32_t>(s),
                   static_cast<uint32_t>(s >> 32), seed, 0x706F6C79u /* "poly" */ ^ hi);
    return uniform01(r.v[0]);
  }

  // the end accepts the monomer: u < P_r (P_r = 0 never, P_r = 1 always)
  MESO_HD bool chain_growth_accept(double u, double p_r)
  {
    return u < p_r;
  }

  // candidate (u, tag) beats the current best (u_best, tag_best); tag_best = 0 is "none"
  MESO_HD bool better_candidate(double u, int64_t tag, double u_best, int64_t tag_best)
  {
    if (tag_best == 0) return true;
    return u < u_best || (u == u_best && tag < tag_best);
  }

  // better_candidate's order as one 64-bit key, smaller = better, for an atomicMin claim
  // on the device: u = k 2^-32 with k < 2^32 (uniform01), so the high word k orders by u
  // and the low word by tag (tags 1 .. 2^32 - 1)
  MESO_HD uint64_t candidate_key(double u, int64_t tag)
  {
    const uint64_t k = static_cast<uint64_t>(u * 4294967296.0);
    return k << 32 | static_cast<uint32_t>(tag);
  }

  // free monomer: no reaction-made bond, not an active end
  MESO_HD bool chain_growth_free(int init, int cris)
  {
    return init == 0 && cris == 0;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
