/* Units for src/physics/mdscf.h (MD-SCF, Milano and Kawakatsu 2009). References are independent of
   the header: the number of particles (mass conservation of the cloud-in-cell deposit), the first
   moment of the weights (a particle's own position), analytic derivatives of a sine (second-order
   convergence with the known leading error k^3 h^2/6), exact values of linear fields, the MD-SCF
   potential written out again for two components, finite differences of the energy density (V_K =
   df/dphi_K, virial = -dW/d strain), and the zero net force of an antisymmetric stencil with a
   symmetric chi on a periodic grid. */

#include "physics/mdscf.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

namespace mdscf = mesogpu::physics::mdscf;

namespace {

const double PI = 3.14159265358979323846;

// a small periodic grid and particles, everything computed with the header's functions
struct PeriodicGrid {
  int n[3];
  double h[3];
  int ncomp;
  std::vector<double> count;    // [node][comp], sum of CIC weights
  PeriodicGrid(int nx, int ny, int nz, double hx, double hy, double hz, int nc) :
      n{nx, ny, nz}, h{hx, hy, hz}, ncomp(nc), count((size_t) nx * ny * nz * nc, 0.0)
  {
  }
  int wrap(int i, int d) const { return ((i % n[d]) + n[d]) % n[d]; }
  size_t node(int ix, int iy, int iz) const
  {
    return ((size_t) wrap(iz, 2) * n[1] + wrap(iy, 1)) * n[0] + wrap(ix, 0);
  }
  // corner nodes and weights of a particle at x (box origin 0)
  void corners(const double *x, size_t nodes[8], double w[8]) const
  {
    double t[3];
    int c0[3];
    for (int d = 0; d < 3; ++d) c0[d] = mdscf::cell_index(x[d] / h[d], t[d]);
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c)
      nodes[c] = node(c0[0] + (c & 1), c0[1] + ((c >> 1) & 1), c0[2] + ((c >> 2) & 1));
  }
  void deposit(const double *x, int k)
  {
    size_t nodes[8];
    double w[8];
    corners(x, nodes, w);
    for (int c = 0; c < 8; ++c) count[nodes[c] * ncomp + k] += w[c];
  }
  size_t nnodes() const { return (size_t) n[0] * n[1] * n[2]; }
  double vc() const { return h[0] * h[1] * h[2]; }
};

struct Particle {
  double x[3];
  int k;
};

std::vector<Particle> random_particles(const PeriodicGrid &g, int n, int ncomp, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Particle> p(n);
  for (auto &q : p) {
    for (int d = 0; d < 3; ++d) q.x[d] = u(rng) * g.n[d] * g.h[d];
    q.k = static_cast<int>(u(rng) * ncomp) % ncomp;
  }
  return p;
}

}    // namespace

TEST(MdscfUnits, CellIndexAndFraction)
{
  double t;
  EXPECT_EQ(mdscf::cell_index(2.25, t), 2);
  EXPECT_DOUBLE_EQ(t, 0.25);
  EXPECT_EQ(mdscf::cell_index(-0.5, t), -1);    // ghost cell below the box
  EXPECT_DOUBLE_EQ(t, 0.5);
  EXPECT_EQ(mdscf::cell_index(3.0, t), 3);
  EXPECT_DOUBLE_EQ(t, 0.0);
  float tf;
  EXPECT_EQ(mdscf::cell_index(-2.75f, tf), -3);    // the same in single precision
  EXPECT_FLOAT_EQ(tf, 0.25f);
}

TEST(MdscfUnits, CicWeightsSumToOneAndReproducePosition)
{
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const double t[3] = {u(rng), u(rng), u(rng)};
    double w[8];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    double sum = 0.0, moment[3] = {0.0, 0.0, 0.0};
    for (int c = 0; c < 8; ++c) {
      EXPECT_GE(w[c], 0.0);
      EXPECT_LE(w[c], 1.0);
      sum += w[c];
      moment[0] += w[c] * (c & 1);
      moment[1] += w[c] * ((c >> 1) & 1);
      moment[2] += w[c] * ((c >> 2) & 1);
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(moment[d], t[d], 1e-15);    // first moment
  }
  // a particle on a node puts all of its weight there
  double w[8];
  mdscf::cic_weights(0.0, 0.0, 0.0, w);
  EXPECT_EQ(w[0], 1.0);
  for (int c = 1; c < 8; ++c) EXPECT_EQ(w[c], 0.0);
}

// sum_g phi_K v_c rho0 = N_K for every component, whatever rho0 and the cell shape
TEST(MdscfUnits, DepositConservesParticleNumberPerComponent)
{
  PeriodicGrid g(5, 6, 7, 0.9, 1.1, 0.7, 3);
  const auto parts = random_particles(g, 1234, 3, 42);
  int nk[3] = {0, 0, 0};
  for (const auto &p : parts) {
    g.deposit(p.x, p.k);
    ++nk[p.k];
  }
  const double rho0 = 2.7;
  for (int k = 0; k < 3; ++k) {
    double sum = 0.0;
    for (size_t m = 0; m < g.nnodes(); ++m) {
      const double phi = g.count[m * 3 + k] / (rho0 * g.vc());
      sum += phi * g.vc() * rho0;
    }
    EXPECT_GT(nk[k], 300);
    EXPECT_NEAR(sum, nk[k], 1e-10 * nk[k]) << "component " << k;
  }
}

// central differences of a sampled sine: error k^3 h^2/6 at leading order, so halving h
// divides the error by 4
TEST(MdscfUnits, CentralDifferenceOfSineConvergesAtSecondOrder)
{
  const double L = 7.3, k = 2.0 * PI / L, phase = 0.4;
  std::vector<double> err;
  for (int n : {16, 32, 64, 128}) {
    const double h = L / n;
    std::vector<double> f(n);
    for (int i = 0; i < n; ++i) f[i] = std::sin(k * i * h + phase);
    double emax = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = mdscf::central_difference(f[(i + n - 1) % n], f[(i + 1) % n], 0.5 / h);
      emax = std::max(emax, std::fabs(d - k * std::cos(k * i * h + phase)));
    }
    // leading error term of the central difference: f''' h^2/6, |f'''| <= k^3
    EXPECT_NEAR(emax / (k * k * k * h * h / 6.0), 1.0, 0.02) << "n = " << n;
    err.push_back(emax);
  }
  for (size_t i = 1; i < err.size(); ++i) {
    const double order = std::log2(err[i - 1] / err[i]);
    EXPECT_NEAR(order, 2.0, 0.02);
  }
}

// a linear field is reproduced exactly anywhere in the cell, and so is its gradient by
// central differences (the force of a linear potential is uniform)
TEST(MdscfUnits, TrilinearInterpolationExactForLinearFields)
{
  const double a = 0.3, b[3] = {1.7, -0.6, 2.2}, h[3] = {0.8, 1.2, 0.5};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto field = [&](double x, double y, double z) { return a + b[0] * x + b[1] * y + b[2] * z; };
  for (int trial = 0; trial < 200; ++trial) {
    const int c0[3] = {static_cast<int>(u(rng) * 10), static_cast<int>(u(rng) * 10),
                       static_cast<int>(u(rng) * 10)};
    const double t[3] = {u(rng), u(rng), u(rng)};
    double w[8], v[8], grad[8][3];
    mdscf::cic_weights(t[0], t[1], t[2], w);
    for (int c = 0; c < 8; ++c) {
      const double X[3] = {(c0[0] + (c & 1)) * h[0], (c0[1] + ((c >> 1) & 1)) * h[1],
                           (c0[2] + ((c >> 2) & 1)) * h[2]};
      v[c] = field(X[0], X[1], X[2]);
      for (int d = 0; d < 3; ++d) {
        double Xm[3] = {X[0], X[1], X[2]}, Xp[3] = {X[0], X[1], X[2]};
        Xm[d] -= h[d];
        Xp[d] += h[d];
        grad[c][d] = mdscf::central_difference(field(Xm[0], Xm[1], Xm[2]),
                                               field(Xp[0], Xp[1], Xp[2]), 0.5 / h[d]);
      }
    }
    const double x[3] = {(c0[0] + t[0]) * h[0], (c0[1] + t[1]) * h[1], (c0[2] + t[2]) * h[2]};
    EXPECT_NEAR(mdscf::interpolate(w, v), field(x[0], x[1], x[2]), 1e-12);
    double f[3];
    mdscf::field_force(w, grad, f);
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[d], -b[d], 1e-12);
  }
}

// the MD-SCF field potential for an A/B mixture written out by hand
TEST(MdscfUnits, PotentialOfTwoComponentsMatchesModelsFormula)
{
  const double chi[4] = {0.0, 1.3, 1.3, 0.0};
  const double phi[2] = {0.7, 0.45}, kT = 1.8, kappa = 0.08;
  double V[2];
  mdscf::field_potentials(2, phi, chi, kT, 1.0 / kappa, V);
  const double incompress = (phi[0] + phi[1] - 1.0) / kappa;
  EXPECT_NEAR(V[0], kT * 1.3 * phi[1] + incompress, 1e-14);
  EXPECT_NEAR(V[1], kT * 1.3 * phi[0] + incompress, 1e-14);
  double fc, fk;
  mdscf::energy_density(2, phi, chi, kT, 1.0 / kappa, fc, fk);
  EXPECT_NEAR(fc, kT * 1.3 * phi[0] * phi[1], 1e-14);    // 1/2 (chi_AB + chi_BA) phi_A phi_B
  EXPECT_NEAR(fk, 0.5 / kappa * (phi[0] + phi[1] - 1.0) * (phi[0] + phi[1] - 1.0), 1e-14);
}

// V_K = df/dphi_K (central finite differences; f is quadratic, so they are exact to rounding)
TEST(MdscfUnits, PotentialIsDerivativeOfEnergyDensity)
{
  const int nc = 4;
  const double chi[nc * nc] = {0.3,  1.2, -0.4, 2.0, 1.2, 0.0, 0.7, 0.1,
                               -0.4, 0.7, 0.5,  0.9, 2.0, 0.1, 0.9, 0.0};
  const double kT = 0.9, inv_kappa = 7.0;
  const double phi[nc] = {0.31, 0.18, 0.4, 0.2};
  double V[nc];
  mdscf::field_potentials(nc, phi, chi, kT, inv_kappa, V);
  auto f = [&](const double *p) {
    double a, b;
    mdscf::energy_density(nc, p, chi, kT, inv_kappa, a, b);
    return a + b;
  };
  const double d = 1e-4;
  for (int k = 0; k < nc; ++k) {
    double pp[nc], pm[nc];
    for (int l = 0; l < nc; ++l) pp[l] = pm[l] = phi[l];
    pp[k] += d;
    pm[k] -= d;
    EXPECT_NEAR(V[k], (f(pp) - f(pm)) / (2 * d), 1e-10) << "component " << k;
  }
}

// virial: W(v_c) = rho0 v_c sum_g f(n_g/(rho0 v_c)) with the counts n_g fixed (affine
// strain); -dW/d eps with v_c -> v_c (1 + eps) must equal rho0 v_c sum_g virial_density
TEST(MdscfUnits, VirialIsMinusStrainDerivativeOfEnergy)
{
  PeriodicGrid g(4, 5, 3, 1.0, 0.8, 1.3, 2);
  for (const auto &p : random_particles(g, 400, 2, 11)) g.deposit(p.x, p.k);
  const double chi[4] = {0.0, 2.5, 2.5, 0.0}, kT = 1.0, inv_kappa = 4.0, rho0 = 5.5;
  auto W = [&](double vc, double &vir) {
    double w = 0.0;
    vir = 0.0;
    for (size_t m = 0; m < g.nnodes(); ++m) {
      double phi[2], V[2], fc, fk;
      for (int k = 0; k < 2; ++k) phi[k] = g.count[m * 2 + k] / (rho0 * vc);
      mdscf::field_potentials(2, phi, chi, kT, inv_kappa, V);
      mdscf::energy_density(2, phi, chi, kT, inv_kappa, fc, fk);
      w += fc + fk;
      vir += mdscf::virial_density(2, phi, V, fc + fk);
    }
    vir *= rho0 * vc;
    return rho0 * vc * w;
  };
  double vir, tmp;
  const double vc = g.vc(), eps = 1e-6;
  W(vc, vir);
  const double dW = (W(vc * (1 + eps), tmp) - W(vc * (1 - eps), tmp)) / (2 * eps);
  EXPECT_NEAR(vir, -dW, 1e-7 * std::fabs(dW));
  EXPECT_GT(std::fabs(vir), 1.0);
}

// the whole update on a periodic grid from the header's functions: sum_i F_i = 0 with a
// symmetric chi (antisymmetric stencil), not with an asymmetric one
TEST(MdscfUnits, NetForceVanishesWithSymmetricChi)
{
  auto net_force = [](const double *chi, double out[3], double &fmax) {
    PeriodicGrid g(6, 5, 7, 0.9, 1.0, 1.1, 3);
    const auto parts = random_particles(g, 900, 3, 5);
    for (const auto &p : parts) g.deposit(p.x, p.k);
    const double rho0 = 900.0 / (g.nnodes() * g.vc());
    std::vector<double> V(g.nnodes() * 3);
    for (size_t m = 0; m < g.nnodes(); ++m) {
      double phi[3];
      for (int k = 0; k < 3; ++k) phi[k] = g.count[m * 3 + k] / (rho0 * g.vc());
      mdscf::field_potentials(3, phi, chi, 1.0, 10.0, &V[m * 3]);
    }
    out[0] = out[1] = out[2] = 0.0;
    fmax = 0.0;
    for (const auto &p : parts) {
      size_t nodes[8];
      double w[8], grad[8][3], f[3];
      g.corners(p.x, nodes, w);
      for (int c = 0; c < 8; ++c) {
        const size_t m = nodes[c];
        const int ix = m % g.n[0], iy = (m / g.n[0]) % g.n[1], iz = m / (g.n[0] * g.n[1]);
        grad[c][0] = mdscf::central_difference(V[g.node(ix - 1, iy, iz) * 3 + p.k],
                                               V[g.node(ix + 1, iy, iz) * 3 + p.k], 0.5 / g.h[0]);
        grad[c][1] = mdscf::central_difference(V[g.node(ix, iy - 1, iz) * 3 + p.k],
                                               V[g.node(ix, iy + 1, iz) * 3 + p.k], 0.5 / g.h[1]);
        grad[c][2] = mdscf::central_difference(V[g.node(ix, iy, iz - 1) * 3 + p.k],
                                               V[g.node(ix, iy, iz + 1) * 3 + p.k], 0.5 / g.h[2]);
      }
      mdscf::field_force(w, grad, f);
      for (int d = 0; d < 3; ++d) {
        out[d] += f[d];
        fmax = std::max(fmax, std::fabs(f[d]));
      }
    }
  };
  const double sym[9] = {0.0, 1.5, -0.7, 1.5, 0.0, 2.0, -0.7, 2.0, 0.0};
  double sum[3], fmax;
  net_force(sym, sum, fmax);
  EXPECT_GT(fmax, 1.0);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(sum[d], 0.0, 1e-12 * fmax * 900);
  const double asym[9] = {0.0, 1.5, -0.7, 0.2, 0.0, 2.0, -0.7, 2.0, 0.0};
  net_force(asym, sum, fmax);
  EXPECT_GT(std::fabs(sum[0]) + std::fabs(sum[1]) + std::fabs(sum[2]), 1e-3 * fmax);
}
