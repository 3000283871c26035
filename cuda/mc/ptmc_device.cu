/* mesogpu: parallel-tempering Monte Carlo sweeps on the GPU (command ptmc, gpu yes): the
 * host side (model upload, kernel choice, launches) and the long-chain kernel.
 *
 * Two kernels, each running every replica's trials in order (the Markov chain is
 * sequential, so a replica's speed is the latency of one trial):
 * - chains up to WARP_AUTO_N = 128 monomers: ONE WARP PER REPLICA, 4 replicas per block
 *   (ptmc_warp.cu: no block barrier in a trial, random numbers drawn 32 trials at a time,
 *   model in shared memory, 1 .. 4 monomers per lane);
 * - longer chains: ONE THREAD BLOCK PER REPLICA (below): the threads share out the
 *   all-pairs sum over j of the displaced monomer i, its old and new pair energy at once,
 *   reduced by warp shuffles and one shared-memory step in a fixed order (deterministic).
 *   Thread 0 adds the bonds, decides (Metropolis with the same Philox numbers as the CPU)
 *   and moves the monomer. The replica's positions (and the atom types) sit in shared
 *   memory when they fit, in global memory otherwise.
 * Measured before the warp kernel existed (H100, bench/run_ptmc_bench.sh): the block kernel
 * takes ~3.7 us per trial for 30- to 300-mers alike (two __syncthreads, two Philox
 * evaluations and thread 0's serial tail per trial), so short chains gain most from a
 * cheaper trial; the warp kernel's pair work grows as n / 32 per lane, the block's is hidden
 * behind its fixed cost up to a few hundred monomers: the crossover, guessed from that
 * cost model and not yet measured, lies between 128 and a few hundred monomers.
 * MESOGPU_PTMC_KERNEL = auto | warp | block forces one (warp: n <= 256), MESOGPU_PTMC_WARPS
 * (1 .. 16) sets the replicas per block of the warp kernel, MESOGPU_PTMC_THREADS (32 .. 512)
 * the threads per block and MESOGPU_PTMC_SHARED=0 global-memory positions of the block kernel.
 *
 * Same Markov chain as the CPU: the trial move, the pair and bond energies and the
 * decisions are the functions of src/physics/ptmc.h in double precision. Both kernel files
 * are compiled with -fmad=false (cuda/CMakeLists.txt): no fused multiply-adds, so each pair
 * energy and each proposed position is bit for bit the host's; only the order of the
 * pair sum differs (energies agree to rounding, ~1e-14 relative). A decision could differ
 * only where u lies within that rounding of exp(-beta dE). */

#include "core/device_array.cuh"
#include "mc/ptmc_device.h"
#include "mc/ptmc_kernels.cuh"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace mesogpu {
namespace cuda {

  using namespace physics;
  using detail::AllocLabel;
  using detail::DeviceArray;
  using ptmc_detail::SweepArgs;
  using ptmc_detail::WarpLayout;

  namespace {

    constexpr int MAX_THREADS = 512;
    constexpr int MAX_SWEEPS = 1000;    // per run() call: the size of the output buffers
    // chains up to this length run one warp per replica (ptmc_warp.cu), longer ones one
    // block per replica (doc/ptmc.md, "GPU": the reasoning)
    constexpr int WARP_AUTO_N = 128;

    template <bool SHARED> __global__ void __launch_bounds__(MAX_THREADS) ptmc_sweeps(SweepArgs a)
    {
      extern __shared__ double smem[];
      __shared__ double red[64];
      const int r = blockIdx.x, tid = threadIdx.x, bs = blockDim.x;
      const int lane = tid & 31, warp = tid >> 5, nwarps = bs >> 5;
      PtmcModel m = a.m;
      const int n = m.n;
      double *x = a.x + (size_t) r * 3 * n;
      if (SHARED) {
        int *stype = reinterpret_cast<int *>(smem + 3 * n);
        for (int q = tid; q < 3 * n; q += bs) smem[q] = x[q];
        for (int q = tid; q < n; q += bs) stype[q] = m.type[q];
        m.type = stype;
        x = smem;
        __syncthreads();
      }
      const double beta = a.beta[r], delta = a.delta[r];
      double e = a.energy[r];    // bookkept by thread 0
      for (int l = 0; l < a.nsweeps; ++l) {
        const long long sweep = a.sweep0 + l;
        int nacc = 0;
        for (int t = 0; t < n; ++t) {
          // the trial move of ptmc_trial, in every thread
          const Philox4x32 rnd = ptmc_random(a.seed, static_cast<uint32_t>(r), sweep,
                                             static_cast<uint32_t>(t), PTMC_MOVE);
          int i = static_cast<int>(uniform01(rnd.v[0]) * n);
          if (i >= n) i = n - 1;
          const double xo[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
          const double xn[3] = {xo[0] + delta * (2.0 * uniform01(rnd.v[1]) - 1.0),
                                xo[1] + delta * (2.0 * uniform01(rnd.v[2]) - 1.0),
                                xo[2] + delta * (2.0 * uniform01(rnd.v[3]) - 1.0)};
          double en = 0.0, eo = 0.0;
          for (int j = tid; j < n; j += bs)
            if (j != i) {
              en += ptmc_pair_ij(m, x, i, xn, j);
              eo += ptmc_pair_ij(m, x, i, xo, j);
            }
          for (int off = 16; off > 0; off >>= 1) {
            en += __shfl_down_sync(0xFFFFFFFFu, en, off);
            eo += __shfl_down_sync(0xFFFFFFFFu, eo, off);
          }
          if (lane == 0) {
            red[warp] = en;
            red[32 + warp] = eo;
          }
          __syncthreads();
          if (tid == 0) {
            double e_new = 0.0, e_old = 0.0;
            for (int w = 0; w < nwarps; ++w) {
              e_new += red[w];
              e_old += red[32 + w];
            }
            bool ok = true;
            for (int k = m.bond_start[i]; k < m.bond_start[i + 1] && ok; ++k) {
              double eb;
              ok = ptmc_bond_k(m, x, xn, k, eb);
              if (ok) e_new += eb;
            }
            if (ok) {
              for (int k = m.bond_start[i]; k < m.bond_start[i + 1]; ++k) {
                double eb;
                if (!ptmc_bond_k(m, x, xo, k, eb)) break;
                e_old += eb;
              }
              const double de = e_new - e_old;
              const double u = uniform01(ptmc_random(a.seed, static_cast<uint32_t>(r), sweep,
                                                     static_cast<uint32_t>(t), PTMC_ACCEPT)
                                             .v[0]);
              if (ptmc_metropolis(de, beta, u)) {
                x[3 * i] = xn[0];
                x[3 * i + 1] = xn[1];
                x[3 * i + 2] = xn[2];
                e += de;
                ++nacc;
              }
            }
          }
          __syncthreads();
        }
        if (tid == 0) {
          a.acc_out[(size_t) l * a.M + r] = nacc;
          a.e_out[(size_t) l * a.M + r] = e;
        }
        const long long c = sweep + 1;
        if (c > a.nequil && (c - a.nequil) % a.sample_every == 0) {
          double *crg = a.chain_rg2 + (size_t) r * a.nchains;
          for (int ch = tid; ch < a.nchains; ch += bs)
            crg[ch] = ptmc_rg2(x, a.chain_members + a.chain_start[ch],
                               a.chain_start[ch + 1] - a.chain_start[ch]);
          __syncthreads();
          if (tid == 0) {    // the host's order: chains in order, then / count
            double s = 0.0;
            for (int ch = 0; ch < a.nchains; ++ch) s += crg[ch];
            a.rg2_out[(size_t) l * a.M + r] = s / a.nchains;
          }
          __syncthreads();
        }
      }
      if (tid == 0) a.energy[r] = e;
      if (SHARED) {
        double *xg = a.x + (size_t) r * 3 * n;
        for (int q = tid; q < 3 * n; q += bs) xg[q] = x[q];
      }
    }

  }    // namespace

  struct PtmcDevice::Impl {
    PtmcModel model{};    // device pointers
    int n = 0, M = 0, nchains = 0, threads = 32;
    uint32_t seed = 0;
    bool shared = false;
    size_t smem_bytes = 0;
    DeviceArray<int> type, bond_start, bond_partner, bond_type, special_start, special_partner;
    DeviceArray<double> special_weight;
    DeviceArray<PtmcLJ> lj;
    DeviceArray<PtmcFENE> fene;
    DeviceArray<int> chain_start, chain_members;
    DeviceArray<double> x, energy, beta, delta, chain_rg2;
    DeviceArray<int> acc_out;
    DeviceArray<double> e_out, rg2_out;
    // the warp kernel (ptmc_warp.cu): npl monomers per lane, wpb warps (replicas) per block
    bool warp = false;
    int npl = 0, wpb = 0;
    WarpLayout layout{};
    DeviceArray<unsigned char> code;
    DeviceArray<double> wtab;
  };

  namespace {

    // the warp kernel's special-pair table: code[i n + j] indexes wtab, the LJ weight of pair
    // (i, j) as ptmc_special finds it (its first entry in i's list), wtab[0] = 1 (not
    // special); false if more than 256 distinct weights
    bool special_codes(const PtmcModel &m, std::vector<unsigned char> &code,
                       std::vector<double> &wtab)
    {
      const int n = m.n;
      code.assign((size_t) n * n, 0);
      wtab.assign(1, 1.0);
      std::vector<char> seen((size_t) n * n, 0);
      for (int i = 0; i < n; ++i)
        for (int s = m.special_start[i]; s < m.special_start[i + 1]; ++s) {
          const size_t ij = (size_t) i * n + m.special_partner[s];
          if (seen[ij]) continue;
          seen[ij] = 1;
          const double w = m.special_weight[s];
          size_t c = 0;
          while (c < wtab.size() && std::memcmp(&wtab[c], &w, sizeof(double)) != 0) ++c;
          if (c == wtab.size()) wtab.push_back(w);
          if (c > 255) return false;
          code[ij] = (unsigned char) c;
        }
      return true;
    }

  }    // namespace

  PtmcDevice::PtmcDevice(const PtmcModel &m, const std::vector<int> &chain_start,
                         const std::vector<int> &chain_members, int M, uint32_t seed) :
      impl(new Impl)
  {
    Impl &d = *impl;
    int dev = 0;
    MESOGPU_CUDA_CALL(cudaGetDevice(&dev));
    AllocLabel label("the ptmc model and replicas");
    const int n = m.n, nt = m.ntypes;
    d.n = n;
    d.M = M;
    d.seed = seed;
    d.nchains = (int) chain_start.size() - 1;
    int nbondtypes = 0;
    for (int k = 0; k < m.bond_start[n]; ++k) nbondtypes = std::max(nbondtypes, m.bond_type[k]);
    d.type.upload(m.type, n);
    d.lj.upload(m.lj, (size_t) (nt + 1) * (nt + 1));
    d.fene.upload(m.fene, nbondtypes + 1);
    d.bond_start.upload(m.bond_start, n + 1);
    d.bond_partner.upload(m.bond_partner, m.bond_start[n]);
    d.bond_type.upload(m.bond_type, m.bond_start[n]);
    d.special_start.upload(m.special_start, n + 1);
    d.special_partner.upload(m.special_partner, m.special_start[n]);
    d.special_weight.upload(m.special_weight, m.special_start[n]);
    d.chain_start.upload(chain_start);
    d.chain_members.upload(chain_members);
    d.x.resize((size_t) M * 3 * n);
    d.energy.resize(M);
    d.beta.resize(M);
    d.delta.resize(M);
    d.chain_rg2.resize((size_t) M * std::max(d.nchains, 1));
    d.acc_out.resize((size_t) MAX_SWEEPS * M);
    d.e_out.resize((size_t) MAX_SWEEPS * M);
    d.rg2_out.resize((size_t) MAX_SWEEPS * M);
    d.model = m;
    d.model.type = d.type.get();
    d.model.lj = d.lj.get();
    d.model.fene = d.fene.get();
    d.model.bond_start = d.bond_start.get();
    d.model.bond_partner = d.bond_partner.get();
    d.model.bond_type = d.bond_type.get();
    d.model.special_start = d.special_start.get();
    d.model.special_partner = d.special_partner.get();
    d.model.special_weight = d.special_weight.get();

    // threads per block: the pair sum of a trial spread over a warp for short chains, up to
    // 256 threads (MESOGPU_PTMC_THREADS overrides: a multiple of 32, 32 .. 512)
    d.threads = std::min(256, std::max(32, (n + 31) / 32 * 32));
    if (const char *env = std::getenv("MESOGPU_PTMC_THREADS")) {
      const int v = std::atoi(env);
      if (v < 32 || v > MAX_THREADS || v % 32)
        throw std::runtime_error("mesogpu: MESOGPU_PTMC_THREADS=" + std::string(env) +
                                 " (allowed: a multiple of 32 from 32 to 512)");
      d.threads = v;
    }
    // positions and types in shared memory where they fit
    int optin = 0;
    MESOGPU_CUDA_CALL(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    d.smem_bytes = (size_t) 3 * n * sizeof(double) + (size_t) n * sizeof(int);
    d.shared = d.smem_bytes + 64 * sizeof(double) <= (size_t) optin;
    if (const char *env = std::getenv("MESOGPU_PTMC_SHARED"))    // 0: global (tests, benchmarks)
      if (std::atoi(env) == 0) d.shared = false;
    if (d.shared)
      MESOGPU_CUDA_CALL(cudaFuncSetAttribute(
          ptmc_sweeps<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) d.smem_bytes));

    // the kernel: one warp per replica up to WARP_AUTO_N monomers, one block per replica
    // beyond (doc/ptmc.md, "GPU"); MESOGPU_PTMC_KERNEL = auto | warp | block forces one,
    // MESOGPU_PTMC_WARPS (1 .. 16, default 4) sets the warps (replicas) per block
    std::string kernel = "auto";
    if (const char *env = std::getenv("MESOGPU_PTMC_KERNEL")) kernel = env;
    if (kernel != "auto" && kernel != "warp" && kernel != "block")
      throw std::runtime_error("mesogpu: MESOGPU_PTMC_KERNEL=" + kernel +
                               " (allowed: auto, warp, block)");
    d.wpb = 4;
    if (const char *env = std::getenv("MESOGPU_PTMC_WARPS")) {
      const int v = std::atoi(env);
      if (v < 1 || v > ptmc_detail::WARP_MAX_WARPS)
        throw std::runtime_error("mesogpu: MESOGPU_PTMC_WARPS=" + std::string(env) +
                                 " (allowed: 1 to " + std::to_string(ptmc_detail::WARP_MAX_WARPS) +
                                 ")");
      d.wpb = v;
    }
    d.wpb = std::min(d.wpb, M);
    std::string why_not;    // why the warp kernel cannot take this model ("": it can)
    std::vector<unsigned char> code;
    std::vector<double> wtab;
    int max_bonds = 0;
    for (int i = 0; i < n; ++i)
      max_bonds = std::max(max_bonds, m.bond_start[i + 1] - m.bond_start[i]);
    if (n > ptmc_detail::WARP_MAX_N)
      why_not = "more than " + std::to_string(ptmc_detail::WARP_MAX_N) + " monomers";
    else if (max_bonds > 32)
      why_not = "a monomer with more than 32 bonds";
    else if (!special_codes(m, code, wtab))
      why_not = "more than 256 distinct special_bonds lj weights";
    else {
      d.layout = ptmc_detail::warp_layout(n, (int) wtab.size(), (nt + 1) * (nt + 1), nbondtypes + 1,
                                          m.bond_start[n], d.wpb);
      if (d.layout.bytes > (size_t) optin)
        why_not = "needs " + std::to_string(d.layout.bytes) +
                  " bytes of shared memory per block, " + "the device allows " +
                  std::to_string(optin);
    }
    if (kernel == "warp" && !why_not.empty())
      throw std::runtime_error("mesogpu: MESOGPU_PTMC_KERNEL=warp: the warp kernel cannot run " +
                               std::string("this model: ") + why_not);
    d.warp = why_not.empty() && (kernel == "warp" || (kernel == "auto" && n <= WARP_AUTO_N));
    if (d.warp) {
      d.npl = 1;
      while (32 * d.npl < n) d.npl *= 2;
      d.code.upload(code);
      d.wtab.upload(wtab);
      d.layout.code = d.code.get();
      d.layout.wtab = d.wtab.get();
      ptmc_detail::warp_set_smem(d.npl, d.layout.bytes);
    }
  }

  int PtmcDevice::monomers_per_lane() const
  {
    return impl->warp ? impl->npl : 0;
  }

  PtmcDevice::~PtmcDevice() = default;

  int PtmcDevice::max_sweeps() const
  {
    return MAX_SWEEPS;
  }

  void PtmcDevice::upload_state(const double *x, const double *energy)
  {
    impl->x.upload(x, (size_t) impl->M * 3 * impl->n);
    impl->energy.upload(energy, impl->M);
  }

  void PtmcDevice::download_positions(double *x) const
  {
    impl->x.download(x, (size_t) impl->M * 3 * impl->n);
  }

  void PtmcDevice::run(int64_t sweep0, int L, const double *beta, const double *delta,
                       int64_t nequil, int sample_every, int *acc, double *energy, double *rg2)
  {
    Impl &d = *impl;
    if (L < 1) return;
    if (L > MAX_SWEEPS)
      throw std::runtime_error("mesogpu: ptmc device: more than " + std::to_string(MAX_SWEEPS) +
                               " sweeps in one call");
    d.beta.upload(beta, d.M);
    d.delta.upload(delta, d.M);
    SweepArgs a;
    a.m = d.model;
    a.x = d.x.get();
    a.energy = d.energy.get();
    a.beta = d.beta.get();
    a.delta = d.delta.get();
    a.seed = d.seed;
    a.sweep0 = sweep0;
    a.nequil = nequil;
    a.nsweeps = L;
    a.sample_every = sample_every;
    a.M = d.M;
    a.chain_start = d.chain_start.get();
    a.chain_members = d.chain_members.get();
    a.nchains = d.nchains;
    a.chain_rg2 = d.chain_rg2.get();
    a.acc_out = d.acc_out.get();
    a.e_out = d.e_out.get();
    a.rg2_out = d.rg2_out.get();
    if (d.warp)
      ptmc_detail::warp_launch(d.npl, d.wpb, a, d.layout);
    else {
      if (d.shared)
        ptmc_sweeps<true><<<d.M, d.threads, d.smem_bytes>>>(a);
      else
        ptmc_sweeps<false><<<d.M, d.threads>>>(a);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    d.acc_out.download(acc, (size_t) L * d.M);
    d.e_out.download(energy, (size_t) L * d.M);
    d.rg2_out.download(rg2, (size_t) L * d.M);
  }

  std::string PtmcDevice::describe() const
  {
    if (impl->warp)
      return std::to_string(impl->M) + " replicas of one warp each, " + std::to_string(impl->wpb) +
             " warps per block, " + std::to_string(impl->npl) +
             " monomer(s) per lane, positions and model in shared memory, double precision";
    return std::to_string(impl->M) + " blocks of " + std::to_string(impl->threads) +
           " threads, positions in " + (impl->shared ? "shared" : "global") +
           " memory, double precision";
  }

}    // namespace cuda
}    // namespace mesogpu
