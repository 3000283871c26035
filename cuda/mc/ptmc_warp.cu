/* mesogpu: parallel-tempering Monte Carlo sweeps on the GPU (command ptmc, gpu yes), the
 * short-chain path: ONE WARP PER REPLICA, several replicas (warps) per block.
 *
 * Why: a sweep is N sequential trials, so a replica's speed is the latency of one trial.
 * The block kernel (ptmc_device.cu) pays per trial two block-wide barriers, two Philox
 * evaluations and a serial tail in thread 0 reading the bonds from global memory; measured,
 * that is a trial every ~3.7 us whatever N up to a few hundred monomers. Here a trial has no
 * block barrier (only __syncwarp), the Philox numbers of 32 trials are drawn at once (lane
 * L draws trial t0 + L, off the trial's critical path), the model (types, LJ and FENE
 * tables, bond CSR, and an N x N byte matrix of the special-pair LJ weights) sits in shared
 * memory with the replica's positions, and the bonds of monomer i are evaluated by lanes
 * 0 .. nb-1 at once.
 *
 * A trial: every lane reads monomer i, its displacement and the accept number of the batch
 * (shared memory, broadcast), sums the old and new pair energy of i over its NPL monomers
 * j = lane + 32 k (NPL = 1, 2, 4, 8 for N <= 32, 64, 128, 256), and a butterfly of
 * __shfl_xor_sync gives every lane the same sums (a + b == b + a bit for bit at every
 * level). The bond energies are added in CSR order (shuffled from lanes 0 .. nb-1), as thread
 * 0 of the block kernel adds them; then every lane takes the same Metropolis decision on the
 * same numbers (no broadcast needed), lane 0 moves the monomer, __syncwarp.
 *
 * Same Markov chain as the CPU: the Philox streams and counters (replica, sweep, trial,
 * purpose), the trial order, the proposed position (delta (2u - 1) is the same product, then
 * added to x_i), and the pair and bond energies are those of src/physics/ptmc.h
 * (ptmc_dist2, ptmc_lj_energy, ptmc_bond_k) in double precision; compiled with -fmad=false
 * (cuda/CMakeLists.txt). Only the order of the pair sum differs from the CPU's (and from
 * the block kernel's): energies agree to rounding, ~1e-14 relative. */

#include "core/device_array.cuh"
#include "mc/ptmc_kernels.cuh"

#include <algorithm>

namespace mesogpu {
namespace cuda {
  namespace ptmc_detail {

    using namespace physics;

    namespace {

      constexpr unsigned FULL = 0xFFFFFFFFu;

      template <typename T> __device__ T *carve(char *base, int offset)
      {
        return reinterpret_cast<T *>(base + offset);
      }

      // ptmc_pair_ij's arithmetic, the LJ weight w of the pair given
      __device__ double pair_term(double rsq, const PtmcLJ &p, double w)
      {
        if (!(rsq < p.cutsq)) return 0.0;
        if (w == 0.0) return 0.0;
        return w * ptmc_lj_energy(rsq, p);
      }

      template <int NPL>
      __global__ void __launch_bounds__(32 * WARP_MAX_WARPS)
          ptmc_sweeps_warp(SweepArgs a, WarpLayout L)
      {
        extern __shared__ double smem_warp[];
        char *sm = reinterpret_cast<char *>(smem_warp);
        const int tid = threadIdx.x, bs = blockDim.x, n = a.m.n;
        // the model's tables, once per block
        PtmcLJ *lj = carve<PtmcLJ>(sm, L.o_lj);
        PtmcFENE *fene = carve<PtmcFENE>(sm, L.o_fene);
        double *wtab = carve<double>(sm, L.o_wtab);
        int *type = carve<int>(sm, L.o_type), *bstart = carve<int>(sm, L.o_bstart);
        int *bpart = carve<int>(sm, L.o_bpart), *btype = carve<int>(sm, L.o_btype);
        unsigned char *code = carve<unsigned char>(sm, L.o_code);
        for (int q = tid; q < L.nlj; q += bs) lj[q] = a.m.lj[q];
        for (int q = tid; q < L.nfene; q += bs) fene[q] = a.m.fene[q];
        for (int q = tid; q < L.nw; q += bs) wtab[q] = L.wtab[q];
        for (int q = tid; q < n; q += bs) type[q] = a.m.type[q];
        for (int q = tid; q <= n; q += bs) bstart[q] = a.m.bond_start[q];
        for (int q = tid; q < L.nbk; q += bs) {
          bpart[q] = a.m.bond_partner[q];
          btype[q] = a.m.bond_type[q];
        }
        for (int q = tid; q < n * n; q += bs) code[q] = L.code[q];
        PtmcModel m = a.m;
        m.type = type;
        m.lj = lj;
        m.fene = fene;
        m.bond_start = bstart;
        m.bond_partner = bpart;
        m.bond_type = btype;
        const int stride = m.ntypes + 1;
        __syncthreads();    // the only block-wide barrier: warps without a replica leave now

        const int lane = tid & 31, w = tid >> 5;
        const int r = blockIdx.x * (bs >> 5) + w;
        if (r >= a.M) return;
        double *x = carve<double>(sm, L.o_x) + (size_t) w * 3 * n;
        double *bd = carve<double>(sm, L.o_batch) + w * 128;    // dx, dy, dz, u of 32 trials
        int *bi = carve<int>(sm, L.o_bi) + w * 32;              // monomer of 32 trials
        double *xg = a.x + (size_t) r * 3 * n;
        for (int q = lane; q < 3 * n; q += 32) x[q] = xg[q];
        const uint32_t ur = static_cast<uint32_t>(r);
        const double beta = a.beta[r], delta = a.delta[r];
        double e = a.energy[r];    // the same in every lane
        __syncwarp();
        for (int l = 0; l < a.nsweeps; ++l) {
          const long long sweep = a.sweep0 + l;
          int nacc = 0;
          for (int t0 = 0; t0 < n; t0 += 32) {
            // ptmc_trial's random numbers of trials t0 .. t0 + 31, lane L drawing t0 + L
            const int t = t0 + lane;
            if (t < n) {
              const Philox4x32 rnd =
                  ptmc_random(a.seed, ur, sweep, static_cast<uint32_t>(t), PTMC_MOVE);
              int i = static_cast<int>(uniform01(rnd.v[0]) * n);
              if (i >= n) i = n - 1;
              bi[lane] = i;
              bd[lane] = delta * (2.0 * uniform01(rnd.v[1]) - 1.0);
              bd[32 + lane] = delta * (2.0 * uniform01(rnd.v[2]) - 1.0);
              bd[64 + lane] = delta * (2.0 * uniform01(rnd.v[3]) - 1.0);
              bd[96 + lane] = uniform01(
                  ptmc_random(a.seed, ur, sweep, static_cast<uint32_t>(t), PTMC_ACCEPT).v[0]);
            }
            __syncwarp();
            const int tn = min(32, n - t0);
            for (int tt = 0; tt < tn; ++tt) {
              const int i = bi[tt];
              const double xo[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
              const double xn[3] = {xo[0] + bd[tt], xo[1] + bd[32 + tt], xo[2] + bd[64 + tt]};
              const PtmcLJ *lji = lj + type[i] * stride;
              const unsigned char *ci = code + (size_t) i * n;
              double en = 0.0, eo = 0.0;
#pragma unroll
              for (int k = 0; k < NPL; ++k) {
                const int j = lane + 32 * k;
                if (j < n && j != i) {
                  const PtmcLJ &p = lji[type[j]];
                  const double wij = wtab[ci[j]];
                  en += pair_term(ptmc_dist2(m, x, xn, j), p, wij);
                  eo += pair_term(ptmc_dist2(m, x, xo, j), p, wij);
                }
              }
#pragma unroll
              for (int off = 16; off > 0; off >>= 1) {
                en += __shfl_xor_sync(FULL, en, off);
                eo += __shfl_xor_sync(FULL, eo, off);
              }
              // bonds of i: lane b evaluates the b-th (CSR order), nb <= 32 (host check)
              const int b0 = bstart[i], nb = bstart[i + 1] - b0;
              double ebn = 0.0, ebo = 0.0;
              bool okn = true, oko = true;
              if (lane < nb) {
                okn = ptmc_bond_k(m, x, xn, b0 + lane, ebn);
                oko = ptmc_bond_k(m, x, xo, b0 + lane, ebo);
              }
              const unsigned broken = __ballot_sync(FULL, !okn);
              const unsigned old_ok = __ballot_sync(FULL, oko);
              if (broken == 0u) {    // else the exact FENE is infinite: rejected
                double e_new = en, e_old = eo;
                for (int b = 0; b < nb; ++b) e_new += __shfl_sync(FULL, ebn, b);
                // the old bonds up to the first broken one, as the CPU sums them
                for (int b = 0; b < nb && ((old_ok >> b) & 1u); ++b)
                  e_old += __shfl_sync(FULL, ebo, b);
                const double de = e_new - e_old;
                if (ptmc_metropolis(de, beta, bd[96 + tt])) {
                  if (lane == 0) {
                    x[3 * i] = xn[0];
                    x[3 * i + 1] = xn[1];
                    x[3 * i + 2] = xn[2];
                  }
                  e += de;
                  ++nacc;
                }
              }
              __syncwarp();
            }
          }
          if (lane == 0) {
            a.acc_out[(size_t) l * a.M + r] = nacc;
            a.e_out[(size_t) l * a.M + r] = e;
          }
          const long long c = sweep + 1;
          if (c > a.nequil && (c - a.nequil) % a.sample_every == 0) {
            // chain ch by lane ch % 32, summed in chain order as the host does, then / count
            double s = 0.0;
            for (int c0 = 0; c0 < a.nchains; c0 += 32) {
              const int ch = c0 + lane;
              double v = 0.0;
              if (ch < a.nchains)
                v = ptmc_rg2(x, a.chain_members + a.chain_start[ch],
                             a.chain_start[ch + 1] - a.chain_start[ch]);
              const int cn = min(32, a.nchains - c0);
              for (int q = 0; q < cn; ++q) s += __shfl_sync(FULL, v, q);
            }
            if (lane == 0) a.rg2_out[(size_t) l * a.M + r] = s / a.nchains;
          }
        }
        if (lane == 0) a.energy[r] = e;
        for (int q = lane; q < 3 * n; q += 32) xg[q] = x[q];
      }

      template <int NPL> void launch_npl(int wpb, const SweepArgs &a, const WarpLayout &l)
      {
        const int blocks = (a.M + wpb - 1) / wpb;
        ptmc_sweeps_warp<NPL><<<blocks, 32 * wpb, l.bytes>>>(a, l);
      }

      template <int NPL> void set_smem_npl(size_t bytes)
      {
        MESOGPU_CUDA_CALL(cudaFuncSetAttribute(
            ptmc_sweeps_warp<NPL>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes));
      }

    }    // namespace

    WarpLayout warp_layout(int n, int nw, int nlj, int nfene, int nbk, int wpb)
    {
      WarpLayout l{};
      l.nw = nw;
      l.nlj = nlj;
      l.nfene = nfene;
      l.nbk = nbk;
      size_t o = 0;
      auto take = [&](size_t bytes, size_t align) {
        o = (o + align - 1) / align * align;
        const size_t at = o;
        o += bytes;
        return (int) at;
      };
      l.o_lj = take(sizeof(PtmcLJ) * nlj, 16);
      l.o_fene = take(sizeof(PtmcFENE) * nfene, 16);
      l.o_wtab = take(sizeof(double) * nw, 16);
      l.o_x = take(sizeof(double) * 3 * n * wpb, 16);
      l.o_batch = take(sizeof(double) * 128 * wpb, 16);
      l.o_type = take(sizeof(int) * n, 16);
      l.o_bstart = take(sizeof(int) * (n + 1), 16);
      l.o_bpart = take(sizeof(int) * nbk, 16);
      l.o_btype = take(sizeof(int) * nbk, 16);
      l.o_bi = take(sizeof(int) * 32 * wpb, 16);
      l.o_code = take((size_t) n * n, 16);
      l.bytes = (o + 15) / 16 * 16;
      return l;
    }

    void warp_set_smem(int npl, size_t bytes)
    {
      switch (npl) {
        case 1:
          set_smem_npl<1>(bytes);
          break;
        case 2:
          set_smem_npl<2>(bytes);
          break;
        case 4:
          set_smem_npl<4>(bytes);
          break;
        default:
          set_smem_npl<8>(bytes);
          break;
      }
    }

    void warp_launch(int npl, int wpb, const SweepArgs &a, const WarpLayout &l)
    {
      switch (npl) {
        case 1:
          launch_npl<1>(wpb, a, l);
          break;
        case 2:
          launch_npl<2>(wpb, a, l);
          break;
        case 4:
          launch_npl<4>(wpb, a, l);
          break;
        default:
          launch_npl<8>(wpb, a, l);
          break;
      }
      MESOGPU_CUDA_LAUNCH_CHECK();
    }

  }    // namespace ptmc_detail
}    // namespace cuda
}    // namespace mesogpu
