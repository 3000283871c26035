/* mesogpu: parallel-tempering Monte Carlo of bead-spring polymers (Gross, Janke, Bachmann,
 * Physics Procedia 15, 29 (2011)): the energy of one monomer's interactions, the trial move
 * and the Metropolis / replica-swap decisions, shared by the CPU command (src/ptmc.cpp) and a
 * later device kernel. Plain pointers and PODs only (no containers), double precision.
 *
 * Energies use LAMMPS's arithmetic term by term:
 *   pair lj/cut:  E = factor_lj [r6inv (lj3 r6inv - lj4) - offset],  rsq < cutsq
 *   bond fene:    E = -1/2 K R0^2 ln(1 - r^2/R0^2) + WCA(r)             (shift = 0)
 *   bond fene/expand: the same with r -> r - shift
 * with one difference: LAMMPS clamps ln's argument at 0.1 (and warns), the Monte Carlo
 * uses the exact FENE, infinite at ln's argument <= 0 (the move is rejected). The two agree
 * for every bond with 1 - (r - shift)^2/R0^2 >= 0.1.
 *
 * Random numbers: Philox4x32-10 (random.h) keyed on (seed, replica, sweep, trial, purpose):
 * a replica's Markov chain does not depend on the order replicas are run in, nor on the
 * device, nor on the rank that runs it; restart needs no generator state. */
#ifndef MESOGPU_PHYSICS_PTMC_H
#define MESOGPU_PHYSICS_PTMC_H

#include "meso_hd.h"
#include "random.h"

#include <cmath>
#include <cstdint>

namespace mesogpu {
namespace physics {

  struct PtmcLJ {    // one type pair of pair_style lj/cut
    double lj3, lj4, offset, cutsq;
  };
  struct PtmcFENE {    // one bond type of bond_style fene (shift = 0) or fene/expand
    double k, r0, epsilon, sigma, shift;
  };

  // the model a replica lives in: read-only, shared by all replicas. Bonds and special
  // partners (1-2, 1-3, 1-4 pairs whose LJ weight is not 1) are CSR lists over monomers.
  struct PtmcModel {
    int n, ntypes;
    const int *type;                 // [n], 1..ntypes
    const PtmcLJ *lj;                // [(ntypes + 1)^2], index itype * (ntypes + 1) + jtype
    const PtmcFENE *fene;            // [nbondtypes + 1]
    const int *bond_start;           // [n + 1]
    const int *bond_partner;         // [bond_start[n]], each bond listed at both ends
    const int *bond_type;            // [bond_start[n]]
    const int *special_start;        // [n + 1]
    const int *special_partner;      // [special_start[n]]
    const double *special_weight;    // LAMMPS special_lj of that pair
    double prd[3];                   // box lengths
    int periodic[3];                 // minimum image along periodic dimensions
  };

  enum PtmcPurpose : uint32_t { PTMC_MOVE = 0, PTMC_ACCEPT = 1, PTMC_SWAP = 2 };

  // four 32-bit random words of stream (seed, a, b, c, purpose); b is 64-bit (the sweep)
  MESO_HD Philox4x32 ptmc_random(uint32_t seed, uint32_t a, int64_t b, uint32_t c, uint32_t purpose)
  {
    const uint64_t ub = static_cast<uint64_t>(b);
    return philox4x32(a, static_cast<uint32_t>(ub), c, purpose, seed,
                      0x70746D63u /* "ptmc" */ ^ static_cast<uint32_t>(ub >> 32));
  }

  MESO_HD void ptmc_min_image(const PtmcModel &m, double d[3])
  {
    for (int k = 0; k < 3; ++k)
      if (m.periodic[k]) d[k] -= m.prd[k] * rint(d[k] / m.prd[k]);
  }

  // lj/cut energy of one pair at rsq (caller checked rsq < cutsq), before factor_lj
  MESO_HD double ptmc_lj_energy(double rsq, const PtmcLJ &p)
  {
    const double r2inv = 1.0 / rsq;
    const double r6inv = r2inv * r2inv * r2inv;
    return r6inv * (p.lj3 * r6inv - p.lj4) - p.offset;
  }

  // FENE (+ WCA) energy of one bond; false where the exact FENE is infinite
  MESO_HD bool ptmc_fene_energy(double rsq, const PtmcFENE &p, double &e)
  {
    double s2 = rsq;    // (r - shift)^2, rsq itself for bond_style fene as in LAMMPS
    if (p.shift != 0.0) {
      const double rs = sqrt(rsq) - p.shift;
      s2 = rs * rs;
    }
    const double r0sq = p.r0 * p.r0;
    const double rlogarg = 1.0 - s2 / r0sq;
    if (!(rlogarg > 0.0)) return false;
    e = -0.5 * p.k * r0sq * log(rlogarg);
    // MY_CUBEROOT2 sigma^2; no WCA term at all for epsilon = 0 (LAMMPS's 0 * inf = NaN at
    // r = shift is left out)
    if (p.epsilon != 0.0 && s2 < 1.2599210498948732 * p.sigma * p.sigma) {
      const double sr2 = p.sigma * p.sigma / s2;
      const double sr6 = sr2 * sr2 * sr2;
      e += 4.0 * p.epsilon * sr6 * (sr6 - 1.0) + p.epsilon;
    }
    return true;
  }

  // LJ weight of pair (i, j): special_lj for 1-2/1-3/1-4 partners, else 1
  MESO_HD double ptmc_special(const PtmcModel &m, int i, int j)
  {
    for (int s = m.special_start[i]; s < m.special_start[i + 1]; ++s)
      if (m.special_partner[s] == j) return m.special_weight[s];
    return 1.0;
  }

  // squared minimum-image distance of position xi from monomer j (at x[3j..3j+2])
  MESO_HD double ptmc_dist2(const PtmcModel &m, const double *x, const double xi[3], int j)
  {
    double d[3] = {xi[0] - x[3 * j], xi[1] - x[3 * j + 1], xi[2] - x[3 * j + 2]};
    ptmc_min_image(m, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  }

  // pair energy of monomer i at position xi with monomer j (at x[3j..3j+2])
  MESO_HD double ptmc_pair_ij(const PtmcModel &m, const double *x, int i, const double xi[3], int j)
  {
    const double rsq = ptmc_dist2(m, x, xi, j);
    const PtmcLJ &p = m.lj[m.type[i] * (m.ntypes + 1) + m.type[j]];
    if (!(rsq < p.cutsq)) return 0.0;
    const double w = ptmc_special(m, i, j);
    if (w == 0.0) return 0.0;    // LAMMPS leaves such pairs out of the neighbour list
    return w * ptmc_lj_energy(rsq, p);
  }

  // bond energy of the k-th CSR bond of monomer i at position xi
  MESO_HD bool ptmc_bond_k(const PtmcModel &m, const double *x, const double xi[3], int k,
                           double &e)
  {
    return ptmc_fene_energy(ptmc_dist2(m, x, xi, m.bond_partner[k]), m.fene[m.bond_type[k]], e);
  }

  // all interactions of monomer i placed at xi (the others at x); false if a bond breaks
  MESO_HD bool ptmc_monomer_energy(const PtmcModel &m, const double *x, int i, const double xi[3],
                                   double &e)
  {
    e = 0.0;
    for (int j = 0; j < m.n; ++j)
      if (j != i) e += ptmc_pair_ij(m, x, i, xi, j);
    for (int k = m.bond_start[i]; k < m.bond_start[i + 1]; ++k) {
      double eb;
      if (!ptmc_bond_k(m, x, xi, k, eb)) return false;
      e += eb;
    }
    return true;
  }

  // total energy (each pair and bond once, in LAMMPS's sense of pe); false if a bond breaks
  MESO_HD bool ptmc_total_energy(const PtmcModel &m, const double *x, double &e)
  {
    e = 0.0;
    for (int i = 0; i < m.n; ++i) {
      const double *xi = x + 3 * i;
      for (int j = i + 1; j < m.n; ++j) e += ptmc_pair_ij(m, x, i, xi, j);
      for (int k = m.bond_start[i]; k < m.bond_start[i + 1]; ++k) {
        if (m.bond_partner[k] < i) continue;
        double eb;
        if (!ptmc_bond_k(m, x, xi, k, eb)) return false;
        e += eb;
      }
    }
    return true;
  }

  // Metropolis: accept a change dE at inverse temperature beta with uniform u in [0, 1)
  MESO_HD bool ptmc_metropolis(double de, double beta, double u)
  {
    return de <= 0.0 || u < exp(-beta * de);
  }

  // replica exchange of energies ei (at beta_i) and ej (at beta_j):
  // p = min(1, exp[(ei - ej)(beta_i - beta_j)])
  MESO_HD bool ptmc_swap_accept(double ei, double ej, double beta_i, double beta_j, double u)
  {
    const double a = (ei - ej) * (beta_i - beta_j);
    return a >= 0.0 || u < exp(a);
  }

  // uniform in [0, 1) deciding the swap of temperature pair (k, k+1) at swap attempt q
  MESO_HD double ptmc_swap_uniform(uint32_t seed, int k, int64_t q)
  {
    return uniform01(ptmc_random(seed, static_cast<uint32_t>(k), q, 0u, PTMC_SWAP).v[0]);
  }

  // trial t of sweep `sweep` of replica r: a random monomer displaced uniformly in the cube
  // [-delta, delta]^3, accepted by Metropolis at beta. Updates x and the energy e in place.
  MESO_HD bool ptmc_trial(const PtmcModel &m, double *x, uint32_t seed, int r, int64_t sweep, int t,
                          double delta, double beta, double &e)
  {
    const Philox4x32 a =
        ptmc_random(seed, static_cast<uint32_t>(r), sweep, static_cast<uint32_t>(t), PTMC_MOVE);
    int i = static_cast<int>(uniform01(a.v[0]) * m.n);
    if (i >= m.n) i = m.n - 1;
    double *xo = x + 3 * i;
    const double xn[3] = {xo[0] + delta * (2.0 * uniform01(a.v[1]) - 1.0),
                          xo[1] + delta * (2.0 * uniform01(a.v[2]) - 1.0),
                          xo[2] + delta * (2.0 * uniform01(a.v[3]) - 1.0)};
    double e_new, e_old;
    if (!ptmc_monomer_energy(m, x, i, xn, e_new)) return false;
    ptmc_monomer_energy(m, x, i, xo, e_old);
    const double de = e_new - e_old;
    const double u = uniform01(
        ptmc_random(seed, static_cast<uint32_t>(r), sweep, static_cast<uint32_t>(t), PTMC_ACCEPT)
            .v[0]);
    if (!ptmc_metropolis(de, beta, u)) return false;
    xo[0] = xn[0];
    xo[1] = xn[1];
    xo[2] = xn[2];
    e += de;
    return true;
  }

  // squared radius of gyration of the monomers idx[0..count) (unwrapped coordinates)
  MESO_HD double ptmc_rg2(const double *x, const int *idx, int count)
  {
    double c[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < count; ++a)
      for (int k = 0; k < 3; ++k) c[k] += x[3 * idx[a] + k];
    for (int k = 0; k < 3; ++k) c[k] /= count;
    double s = 0.0;
    for (int a = 0; a < count; ++a)
      for (int k = 0; k < 3; ++k) {
        const double d = x[3 * idx[a] + k] - c[k];
        s += d * d;
      }
    return s / count;
  }

}    // namespace physics
}    // namespace mesogpu

#endif
