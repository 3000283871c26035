/* Units for src/physics/random.h: Philox4x32-10 against the known-answer vectors of
   its authors (Random123, kat_vectors), and the statistics of the uniform numbers. */

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
