/* mesogpu: table/r2 evaluation on the device through the shared evaluator
   (src/physics/table_r2.h). The pair-force kernels of the engine call the same
   evaluator per neighbour; this kernel evaluates it per rsq so tests can compare the
   device arithmetic with the CPU one. */
#include "core/device_array.cuh"
#include "cuda_check.h"
#include "mesogpu_cuda.h"
#include "physics/table_r2.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  namespace {

    template <typename Real>
    __global__ void evaluate_table_r2_kernel(physics::TableR2View<Real> table, const Real *rsq,
                                             int count, Real *fdivr, Real *energy, int *ok)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= count) return;
      Real f, e;
      ok[i] = physics::EvaluatorTableR2<Real>(rsq[i], table).evaluate(f, e) ? 1 : 0;
      fdivr[i] = f;
      energy[i] = e;
    }

    template <typename Real>
    void run(const TableR2Host &t, const std::vector<double> &rsq_in, std::vector<double> &fdivr,
             std::vector<double> &energy, std::vector<int> &ok)
    {
      const int count = static_cast<int>(rsq_in.size());
      std::vector<Real> coeff(t.coeff.begin(), t.coeff.end()), rsq(rsq_in.begin(), rsq_in.end());
      std::vector<Real> f(count), e(count);
      ok.assign(count, 0);

      // the engine's allocator (core/memory.cu): checked against the free memory first
      detail::AllocLabel label("the table/r2 test arrays");
      detail::DeviceArray<Real> d_coeff, d_rsq, d_f, d_e;
      detail::DeviceArray<int> d_ok;
      d_coeff.upload(coeff);
      d_rsq.upload(rsq);
      d_f.resize(count);
      d_e.resize(count);
      d_ok.resize(count);

      physics::TableR2View<Real> view;
      view.coeff = d_coeff.get();
      view.z_lo = static_cast<Real>(t.z_lo);
      view.dz = static_cast<Real>(t.dz);
      view.inv_dz = static_cast<Real>(1.0 / t.dz);
      view.n = t.n;
      view.inner = static_cast<physics::InnerMode>(t.inner);

      const int block = 256;
      const int grid = (count + block - 1) / block;
      if (count > 0) {
        evaluate_table_r2_kernel<Real>
            <<<grid, block>>>(view, d_rsq.get(), count, d_f.get(), d_e.get(), d_ok.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
      d_f.download(f.data(), count);
      d_e.download(e.data(), count);
      d_ok.download(ok.data(), count);
      fdivr.assign(f.begin(), f.end());
      energy.assign(e.begin(), e.end());
    }

  }    // namespace

  void evaluate_table_r2(const TableR2Host &table, const std::vector<double> &rsq, bool single,
                         std::vector<double> &fdivr, std::vector<double> &energy,
                         std::vector<int> &ok)
  {
    if (single)
      run<float>(table, rsq, fdivr, energy, ok);
    else
      run<double>(table, rsq, fdivr, energy, ok);
  }

}    // namespace cuda
}    // namespace mesogpu
