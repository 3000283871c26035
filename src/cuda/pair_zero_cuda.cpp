/* mesogpu: pair_style zero/cuda; see pair_zero_cuda.h. */

#include "pair_zero_cuda.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void PairZeroCuda::init_style()
{
  PairZero::init_style();
  device_util::warn_if_host(lmp, "Pair", "zero/cuda");
}

void PairZeroCuda::device_setup(Engine &)
{
  // no force term: the engine builds no neighbour list either
}

void PairZeroCuda::device_per_atom(Engine &, int eflag, int vflag)
{
  ev_setup(eflag, vflag);    // zeroes eatom / vatom: the style contributes nothing
}
