/* GPU check of table/r2: the device evaluation (cuda/table_r2_kernels.cu, through the
   shared evaluator) against the CPU evaluation and against analytic LJ. Exits 77
   (ctest: skipped) with a message when no GPU is present. */

#include "mesogpu_cuda.h"
#include "physics/table_r2.h"
#include "table_r2_io.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <unistd.h>

namespace {

double lj_e(double r)
{
  return 4.0 * (std::pow(r, -12) - std::pow(r, -6));
}
double lj_f(double r)
{
  return 4.0 * (12.0 * std::pow(r, -13) - 6.0 * std::pow(r, -7));
}

mesogpu::cuda::TableR2Host lj_table(int inner)
{
  const std::string file = "gpu_lj_" + std::to_string(getpid()) + ".table";
  {
    std::ofstream out(file);
    out << "LJ\nN 2000 R 0.9 2.5\n\n";
    out.precision(17);
    for (int i = 0; i < 2000; ++i) {
      double r = 0.9 + 1.6 * i / 1999.0;
      out << i + 1 << " " << r << " " << lj_e(r) << " " << lj_f(r) << "\n";
    }
  }
  auto s = mesogpu::make_table_r2_spline(mesogpu::read_table_r2_section(file, "LJ"), 0.0, 4000);
  std::remove(file.c_str());
  mesogpu::cuda::TableR2Host t;
  t.n = s.n;
  t.z_lo = s.z_lo;
  t.dz = s.dz;
  t.inner = inner;
  t.coeff = s.coeff;
  return t;
}

void compare(bool single)
{
  auto t = lj_table(0);
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(0.7, 2.5);
  std::vector<double> rsq(100000);
  for (auto &z : rsq) z = std::pow(u(gen), 2);
  std::vector<double> f, e;
  std::vector<int> ok;
  mesogpu::cuda::evaluate_table_r2(t, rsq, single, f, e, ok);

  mesogpu::physics::TableR2View<double> v{
      t.coeff.data(), t.z_lo, t.dz, 1.0 / t.dz, t.n, mesogpu::physics::InnerMode::error};
  // float: relative error of a Horner cubic with float delta, plus the cancellation in
  // delta = z - z_k (|z| ulp over the local slope); double: a few ulp
  const double tol_e = single ? 5e-5 : 1e-12, tol_f = single ? 2e-3 : 1e-10;
  double max_e = 0, max_f = 0, max_lj = 0;
  for (size_t i = 0; i < rsq.size(); ++i) {
    double fc, ec;
    bool okc = mesogpu::physics::EvaluatorTableR2<double>(rsq[i], v).evaluate(fc, ec);
    ASSERT_EQ(ok[i] != 0, okc) << "rsq " << rsq[i];
    if (!okc) continue;
    const double r = std::sqrt(rsq[i]);
    max_e = std::max(max_e, std::fabs(e[i] - ec) / std::max(1.0, std::fabs(ec)));
    max_f = std::max(max_f, std::fabs(f[i] - fc) / std::max(1.0, std::fabs(fc)));
    max_lj = std::max(max_lj, std::fabs(e[i] - lj_e(r)) / std::max(1.0, std::fabs(lj_e(r))));
  }
  printf("[gpu] %s: max rel. deviation from CPU: energy %.3g, F/r %.3g; from analytic LJ: %.3g\n",
         single ? "float " : "double", max_e, max_f, max_lj);
  EXPECT_LT(max_e, tol_e);
  EXPECT_LT(max_f, tol_f);
  EXPECT_LT(max_lj, single ? 1e-4 : 1e-7);
}

}    // namespace

TEST(GpuTableR2, DoubleMatchesCpu)
{
  compare(false);
}
TEST(GpuTableR2, FloatMatchesCpu)
{
  compare(true);
}

int main(int argc, char **argv)
{
  ::testing::InitGoogleTest(&argc, argv);
  const int n = mesogpu::cuda::device_count();
  if (n == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    return 77;
  }
  printf("[gpu] device 0: %s\n", mesogpu::cuda::device_description(0).c_str());
  return RUN_ALL_TESTS();
}
