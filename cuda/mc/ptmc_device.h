/* mesogpu: host interface of the parallel-tempering Monte Carlo sweeps on the GPU (command
   ptmc, keyword gpu yes). Plain C++ (no CUDA headers): src/ptmc_gpu.cpp includes it with g++.
   All replicas stay resident on the device, one warp per replica for chains up to 128
   monomers (several replicas per block), one thread block per replica beyond; the physics is
   src/physics/ptmc.h, the same MESO_HD functions and Philox counters as the CPU path, in
   double precision in every build (MESOGPU_PRECISION does not apply), so the device follows
   the CPU's Markov chain. Swaps, tuning, statistics and files stay on the host. */
#ifndef MESOGPU_CUDA_MC_PTMC_DEVICE_H
#define MESOGPU_CUDA_MC_PTMC_DEVICE_H

#include "physics/ptmc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  class PtmcDevice {
   public:
    // copies the model (host arrays of m), the chains (CSR: chain_start[nchains + 1] into
    // chain_members) for Rg^2, and sizes the state of M replicas; throws std::runtime_error
    // (no device, not enough memory)
    PtmcDevice(const physics::PtmcModel &m, const std::vector<int> &chain_start,
               const std::vector<int> &chain_members, int M, uint32_t seed);
    ~PtmcDevice();
    PtmcDevice(const PtmcDevice &) = delete;
    PtmcDevice &operator=(const PtmcDevice &) = delete;

    // x: [M][3n] unwrapped coordinates, energy: [M], by replica
    void upload_state(const double *x, const double *energy);
    void download_positions(double *x) const;
    // the most sweeps one call of run() takes (the size of its output buffers)
    int max_sweeps() const;
    // sweeps sweep0 .. sweep0 + L - 1 of every replica r at inverse temperature beta[r] with
    // step delta[r] (by replica). Out, [L][M] by sweep and replica: accepted trials, the
    // energy after the sweep and, after each sweep c = sweep0 + l + 1 with c > nequil and
    // (c - nequil) % sample_every == 0, the chain-mean Rg^2 (other rows of rg2 undefined).
    void run(int64_t sweep0, int L, const double *beta, const double *delta, int64_t nequil,
             int sample_every, int *acc, double *energy, double *rg2);
    // the kernel: threads per block and where the positions live (shared or global memory),
    // or one warp per replica
    std::string describe() const;
    // monomers per lane of the one-warp-per-replica kernel (1, 2, 4, 8), 0 for the
    // one-block-per-replica kernel
    int monomers_per_lane() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> impl;
  };

}    // namespace cuda
}    // namespace mesogpu

#endif
