/* mesogpu: what the two sweep kernels of ptmc gpu yes share (cuda/mc/ptmc_device.cu: one
   thread block per replica, the long-chain path and host side; cuda/mc/ptmc_warp.cu: one
   warp per replica, the short-chain path): the kernel arguments and the warp kernel's
   shared-memory layout and launcher. */
#ifndef MESOGPU_CUDA_MC_PTMC_KERNELS_CUH
#define MESOGPU_CUDA_MC_PTMC_KERNELS_CUH

#include "physics/ptmc.h"

#include <cstddef>
#include <cstdint>

namespace mesogpu {
namespace cuda {
  namespace ptmc_detail {

    struct SweepArgs {
      physics::PtmcModel m;    // device pointers
      double *x;               // [M][3n]
      double *energy;
      const double *beta, *delta;
      uint32_t seed;
      long long sweep0, nequil;
      int nsweeps, sample_every, M;
      const int *chain_start, *chain_members;
      int nchains;
      double *chain_rg2;    // [M][nchains] scratch (block kernel)
      int *acc_out;
      double *e_out, *rg2_out;
    };

    // the warp kernel: monomers per lane NPL = 1, 2, 4 or 8 (n <= 32 NPL), up to
    // WARP_MAX_WARPS replicas (warps) per block
    constexpr int WARP_MAX_NPL = 8;
    constexpr int WARP_MAX_N = 32 * WARP_MAX_NPL;
    constexpr int WARP_MAX_WARPS = 16;

    // the model's tables in the shared memory of a warp-kernel block (copied once per
    // block), the per-warp positions and random batches; offsets in bytes
    struct WarpLayout {
      const unsigned char *code;    // [n][n] device: index into wtab of the LJ weight of (i, j)
      const double *wtab;           // [nw] device: wtab[0] = 1 (no special pair)
      int nw, nlj, nfene, nbk;      // entries of wtab, lj, fene, bond CSR
      int o_lj, o_fene, o_wtab, o_x, o_batch, o_type, o_bstart, o_bpart, o_btype, o_bi, o_code;
      size_t bytes;    // dynamic shared memory of one block
    };

    // offsets and size for n monomers, wpb warps per block (host)
    WarpLayout warp_layout(int n, int nw, int nlj, int nfene, int nbk, int wpb);
    // allows the dynamic shared memory of the NPL instance (host; throws on CUDA errors)
    void warp_set_smem(int npl, size_t bytes);
    // M replicas of the sweeps, wpb warps per block (host; throws on CUDA errors)
    void warp_launch(int npl, int wpb, const SweepArgs &a, const WarpLayout &l);

  }    // namespace ptmc_detail
}    // namespace cuda
}    // namespace mesogpu

#endif
