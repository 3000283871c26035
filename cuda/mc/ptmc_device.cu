/* mesogpu: parallel-tempering Monte Carlo sweeps on the GPU (command ptmc, gpu yes).
 *
 * One thread block per replica runs that replica's trials in order (the Markov chain is
 * sequential); the threads share out the all-pairs sum over j of the displaced monomer i,
 * its old and new pair energy at once, reduced by warp shuffles and one shared-memory step
 * in a fixed order (deterministic). Thread 0 adds the bonds, decides (Metropolis with the
 * same Philox numbers as the CPU) and moves the monomer. The replica's positions (and the
 * atom types) sit in shared memory when they fit, in global memory otherwise.
 *
 * Same Markov chain as the CPU: the trial move, the pair and bond energies and the
 * decisions are the functions of src/physics/ptmc.h in double precision. This file is
 * compiled with -fmad=false (cuda/CMakeLists.txt): no fused multiply-adds, so each pair
 * energy and each proposed position is bit for bit the host's; only the order of the
 * pair sum differs (energies agree to rounding, ~1e-14 relative). A decision could differ
 * only where u lies within that rounding of exp(-beta dE). */

#include "core/device_array.cuh"
#include "mc/ptmc_device.h"

#include <algorithm>
#include <cstdlib>

namespace mesogpu {
namespace cuda {

  using namespace physics;
  using detail::AllocLabel;
  using detail::DeviceArray;

  namespace {

    constexpr int MAX_THREADS = 512;
    constexpr int MAX_SWEEPS = 1000;    // per run() call: the size of the output buffers

    struct SweepArgs {
      PtmcModel m;    // device pointers
      double *x;      // [M][3n]
      double *energy;
      const double *beta, *delta;
      uint32_t seed;
      long long sweep0, nequil;
      int nsweeps, sample_every, M;
      const int *chain_start, *chain_members;
      int nchains;
      double *chain_rg2;    // [M][nchains] scratch
      int *acc_out;
      double *e_out, *rg2_out;
    };

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
  };

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
    if (d.shared)
      ptmc_sweeps<true><<<d.M, d.threads, d.smem_bytes>>>(a);
    else
      ptmc_sweeps<false><<<d.M, d.threads>>>(a);
    MESOGPU_CUDA_LAUNCH_CHECK();
    d.acc_out.download(acc, (size_t) L * d.M);
    d.e_out.download(energy, (size_t) L * d.M);
    d.rg2_out.download(rg2, (size_t) L * d.M);
  }

  std::string PtmcDevice::describe() const
  {
    return std::to_string(impl->M) + " blocks of " + std::to_string(impl->threads) +
           " threads, positions in " + (impl->shared ? "shared" : "global") +
           " memory, double precision";
  }

}    // namespace cuda
}    // namespace mesogpu
