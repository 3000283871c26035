/* Units for src/physics/random.h: Philox4x32-10 against the known-answer vectors of
   its authors (Random123, kat_vectors), and the statistics of the uniform numbers. */

#include "physics/pair_dpd.h"
#include "physics/random.h"

#include "gtest/gtest.h"

#include <cmath>

using mesogpu::physics::philox4x32;

TEST(Philox, KnownAnswers)
{
  auto r = philox4x32(0, 0, 0, 0, 0, 0);
  EXPECT_EQ(r.v[0], 0x6627e8d5u);
  EXPECT_EQ(r.v[1], 0xe169c58du);
  EXPECT_EQ(r.v[2], 0xbc57ac4cu);
  EXPECT_EQ(r.v[3], 0x9b00dbd8u);
  r = philox4x32(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(r.v[0], 0x408f276du);
  EXPECT_EQ(r.v[1], 0x41c83b0eu);
  EXPECT_EQ(r.v[2], 0xa20bc7c6u);
  EXPECT_EQ(r.v[3], 0x6d5451fdu);
  r = philox4x32(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u);
  EXPECT_EQ(r.v[0], 0xd16cfe09u);
  EXPECT_EQ(r.v[1], 0x94fdccebu);
  EXPECT_EQ(r.v[2], 0x5001e420u);
  EXPECT_EQ(r.v[3], 0x24126ea1u);
}

TEST(Philox, UniformMomentsAndCorrelation)
{
  // 3e5 numbers: mean 1/2 and variance 1/12 to ~5 sigma, no lag-1 correlation
  const int n = 100000;
  double s = 0, s2 = 0, c = 0, prev = 0.5;
  for (int i = 0; i < n; ++i) {
    double u[3];
    mesogpu::physics::uniform3(12345u, static_cast<uint32_t>(i), 7u, 0u, u);
    for (double x : u) {
      ASSERT_GE(x, 0.0);
      ASSERT_LT(x, 1.0);
      s += x;
      s2 += x * x;
      c += (x - 0.5) * (prev - 0.5);
      prev = x;
    }
  }
  const double m = s / (3.0 * n), var = s2 / (3.0 * n) - m * m, corr = c / (3.0 * n) * 12.0;
  EXPECT_NEAR(m, 0.5, 5 * std::sqrt(1.0 / 12 / (3.0 * n)));
  EXPECT_NEAR(var, 1.0 / 12, 5 * std::sqrt(1.0 / 180 / (3.0 * n)));
  EXPECT_NEAR(corr, 0.0, 5 / std::sqrt(3.0 * n));
}

TEST(Philox, StreamsDiffer)
{
  double a[3], b[3], c[3];
  mesogpu::physics::uniform3(1u, 5u, 100u, 0u, a);
  mesogpu::physics::uniform3(1u, 5u, 101u, 0u, b);
  mesogpu::physics::uniform3(2u, 5u, 100u, 0u, c);
  EXPECT_NE(a[0], b[0]);
  EXPECT_NE(a[0], c[0]);
  double again[3];
  mesogpu::physics::uniform3(1u, 5u, 100u, 0u, again);
  EXPECT_EQ(a[0], again[0]);
}

// pair dpd's Gaussian in float (mixed and single device builds) against the double one
// (CPU and double builds) from the same Philox words: the same number to float rounding
// of log, sqrt and cos (1e-5 absolute up to the 6.66-sigma tail), the same for either
// order of the tags, finite at the extreme words, and unit moments
TEST(DPDGaussian, FloatFollowsDouble)
{
  using mesogpu::physics::dpd_gaussian;
  const int n = 1000000;
  double sum = 0, sum2 = 0, sum4 = 0, worst = 0;
  for (int k = 0; k < n; ++k) {
    const uint32_t a = 1 + 3u * k, b = 2 + 7u * k, step = k % 97;
    const double d = dpd_gaussian<double>(34387u, a, b, step);
    const float f = dpd_gaussian<float>(34387u, a, b, step);
    ASSERT_TRUE(std::isfinite(f)) << k;
    ASSERT_EQ(f, dpd_gaussian<float>(34387u, b, a, step)) << k;
    worst = std::max(worst, std::fabs(f - d));
    sum += f;
    sum2 += double(f) * f;
    sum4 += double(f) * f * f * f;
  }
  printf("largest |float - double|: %.3g\n", worst);
  EXPECT_LT(worst, 1e-5);
  // standard errors for n = 1e6: mean 1e-3, variance 1.4e-3, fourth moment 9.8e-3
  EXPECT_NEAR(sum / n, 0.0, 5e-3);
  EXPECT_NEAR(sum2 / n, 1.0, 7e-3);
  EXPECT_NEAR(sum4 / n, 3.0, 5e-2);
}
