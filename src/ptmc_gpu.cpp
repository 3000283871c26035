/* mesogpu - command "ptmc", keyword gpu yes: the sweeps of all replicas resident on the GPU
   (cuda/mc/ptmc_device.cu), everything else (swaps, tuning, samples, files, restart) on the
   host as in the CPU path. The device runs the sweeps up to the next sweep after which the
   host changes a replica's temperature or step (swap, tuning) or needs the positions
   (dump); it returns per sweep and replica the accepted trials, the energy and (at sample
   sweeps) Rg^2, and the host replays its per-sweep bookkeeping on them in order. */

#include "ptmc_command.h"

#include "comm.h"
#include "error.h"
#include "input.h"
#include "variable.h"

#ifdef MESOGPU_HAVE_CUDA
#include "mc/ptmc_device.h"
#include "mesogpu_cuda.h"
#endif

#include <exception>
#include <memory>

using namespace LAMMPS_NS;

void PTMC::check_gpu()
{
#ifdef MESOGPU_HAVE_CUDA
  if (comm->nprocs > 1)
    error->all(FLERR,
               "ptmc gpu yes runs on one MPI rank (this run has {}); use gpu no to run "
               "the replicas on the CPU",
               comm->nprocs);
  if (mesogpu::cuda::device_count() == 0)
    error->all(FLERR, "ptmc gpu yes: no CUDA device visible on this machine; use gpu no");
#else
  error->all(FLERR, "ptmc gpu yes: this mesogpu plugin was built without CUDA (MESOGPU_CUDA=OFF "
                    "or no nvcc found); use gpu no");
#endif
}

void PTMC::run_gpu()
{
#ifdef MESOGPU_HAVE_CUDA
  if (nsweeps == 0) return;
  std::vector<int> chain_start{0}, chain_members;
  for (auto &c : chains) {
    chain_members.insert(chain_members.end(), c.begin(), c.end());
    chain_start.push_back((int) chain_members.size());
  }
  std::unique_ptr<mesogpu::cuda::PtmcDevice> dev;
  try {
    dev.reset(new mesogpu::cuda::PtmcDevice(model, chain_start, chain_members, M, seed));
    dev->upload_state(x.data(), energy.data());
  } catch (std::exception &e) {
    error->one(FLERR, "ptmc gpu yes: {}", e.what());
  }
  if (comm->me == 0) utils::logmesg(lmp, "ptmc: on the GPU, {}\n", dev->describe());
  {    // internal variable ptmc_gpu_npl: monomers per lane of the one-warp-per-replica kernel,
       // 0 for one block per replica (which kernel ran: tests, benchmarks)
    Variable *v = input->variable;
    if (v->find("ptmc_gpu_npl") < 0) v->set("ptmc_gpu_npl internal 0");
    v->internal_set(v->find("ptmc_gpu_npl"), dev->monomers_per_lane());
  }

  // the sweeps after which the host changes what the device runs or reads its positions
  auto barrier = [&](bigint c) {
    return (tune_target > 0.0 && c <= nequil && c % tune_window == 0) ||
           (M > 1 && c % swap_every == 0) || (dump_every > 0 && c % dump_every == 0);
  };
  const int cap = dev->max_sweeps();
  std::vector<int> acc_buf((size_t) cap * M);
  std::vector<double> e_buf((size_t) cap * M), rg2_buf((size_t) cap * M);
  std::vector<double> beta_r(M), delta_r(M);
  bigint done = 0;
  while (done < nsweeps) {
    int L = 0;
    while (L < cap && done + L < nsweeps) {
      ++L;
      if (barrier(sweep + L)) break;
    }
    for (int r = 0; r < M; ++r) {
      beta_r[r] = beta[temp_of[r]];
      delta_r[r] = delta[temp_of[r]];
    }
    try {
      dev->run(sweep, L, beta_r.data(), delta_r.data(), nequil, sample_every, acc_buf.data(),
               e_buf.data(), rg2_buf.data());
      if (dump_every > 0 && (sweep + L) % dump_every == 0) dev->download_positions(x.data());
    } catch (std::exception &e) {
      error->one(FLERR, "ptmc gpu yes: {}", e.what());
    }
    // the bookkeeping of one_sweep(), then after_sweep(), sweep by sweep
    for (int l = 0; l < L; ++l) {
      const bool production = sweep >= nequil;
      for (int r = 0; r < M; ++r)
        record_sweep(r, acc_buf[(size_t) l * M + r], e_buf[(size_t) l * M + r], production);
      ++sweep;
      after_sweep(rg2_buf.data() + (size_t) l * M);
    }
    done += L;
  }
  try {
    dev->download_positions(x.data());
  } catch (std::exception &e) {
    error->one(FLERR, "ptmc gpu yes: {}", e.what());
  }
#endif
}
