/* mesogpu: small 3-vector arithmetic, seeded random directions and a finite-difference
 * derivative for the unit tests of oriented-particle physics (soft/aniso, SSD,
 * Gay-Berne). Test code only: the physics headers use raw arrays. */
#ifndef MESOGPU_UNITTEST_VEC3_TEST_H
#define MESOGPU_UNITTEST_VEC3_TEST_H

#include <algorithm>
#include <cmath>
#include <random>

namespace mesogpu_test {

struct V3 {
  double v[3];
  double &operator[](int d) { return v[d]; }
  double operator[](int d) const { return v[d]; }
};
inline V3 operator+(V3 a, V3 b)
{
  return {{a[0] + b[0], a[1] + b[1], a[2] + b[2]}};
}
inline V3 operator-(V3 a, V3 b)
{
  return {{a[0] - b[0], a[1] - b[1], a[2] - b[2]}};
}
inline V3 operator*(double s, V3 a)
{
  return {{s * a[0], s * a[1], s * a[2]}};
}
inline double dot(V3 a, V3 b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline V3 cross(V3 a, V3 b)
{
  return {{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
inline double norm(V3 a)
{
  return std::sqrt(dot(a, a));
}
inline V3 unit(V3 a)
{
  return (1.0 / norm(a)) * a;
}
inline double maxabs(V3 a)
{
  return std::max({std::fabs(a[0]), std::fabs(a[1]), std::fabs(a[2])});
}

// a seeded stream of uniform numbers and isotropic unit vectors (each test its own seed)
struct RandomDirections {
  std::mt19937_64 gen;
  explicit RandomDirections(unsigned long long seed) : gen(seed) {}
  double uniform(double lo, double hi)
  {
    return std::uniform_real_distribution<double>(lo, hi)(gen);
  }
  V3 direction()
  {
    std::normal_distribution<double> g;
    return unit(V3{{g(gen), g(gen), g(gen)}});
  }
};

// df/dx at 0 by the 4th-order central difference with step h
template <typename F> double diff(F f, double h)
{
  return (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h);
}

}    // namespace mesogpu_test

#endif
