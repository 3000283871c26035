/* mesogpu: MD-SCF hybrid particle-field model (G. Milano and T. Kawakatsu, J. Chem. Phys.
 * 130, 214106 (2009), doi:10.1063/1.3142103; as in GALAMOST, Y.-L. Zhu et al., J. Comput.
 * Chem. 34, 2197 (2013), doi:10.1002/jcc.23365, "The MD-SCF treatment of interparticle
 * forces" and Algorithm 1). The per-particle and per-node arithmetic, shared by fix mdscf (CPU,
 * MPI) and a CUDA kernel; the loops over particles and nodes, the storage and the ghost exchange
 * belong to the caller.
 *
 * Grid: orthogonal, periodic, nodes at X_g = boxlo + g h (g_d = 0 .. N_d - 1), cell
 * volume v_c = h_x h_y h_z. A particle at grid coordinate s_d = (x_d - boxlo_d)/h_d lies
 * in the cell whose lower corner is node floor(s); t_d = s_d - floor(s_d) in [0,1).
 *
 * Cloud-in-cell (trilinear) weights of the 8 corners c = cx + 2 cy + 4 cz (c_d = 0: the
 * lower node, 1: the upper one):   w_c = prod_d (c_d ? t_d : 1 - t_d),   sum_c w_c = 1.
 *
 * Densities of component K:  rho_K(g) = (1/v_c) sum_{i in K} w_g(r_i),  phi_K = rho_K/rho0.
 * Field potential (energy units; kT = k_B T, kappa the compressibility, 1/energy):
 *     V_K(g) = kT sum_K' chi_KK' phi_K'(g) + (1/kappa) (sum_K' phi_K'(g) - 1)
 * Energy on the grid:  W = rho0 v_c sum_g f(g),
 *     f = 1/2 kT sum_KK' chi_KK' phi_K phi_K' + 1/(2 kappa) (sum_K phi_K - 1)^2,
 * so that V_K = df/dphi_K. Force on particle i of component K:
 *     F_i = - sum_c w_c(r_i) grad V_K(g_c),
 * the gradient by central differences (V(g+1) - V(g-1))/(2h) in each direction: with a
 * symmetric chi this antisymmetric stencil makes sum_i F_i = 0 at update steps.
 * Virial (affine strain of particles and grid together, rho0 held fixed): phi scales as
 * 1/v_c, so  W_dd = -dW/d(eps_dd) = rho0 v_c sum_g [sum_K phi_K V_K - f],  the same for
 * d = x, y, z; off-diagonal components are zero.
 *
 * chi is row-major ncomp x ncomp. Everything is templated on Real; the caller decides
 * where to accumulate in double (sums of many small weights in single precision lose
 * accuracy). */
#ifndef MESOGPU_PHYSICS_MDSCF_H
#define MESOGPU_PHYSICS_MDSCF_H

#include "meso_hd.h"

#include <cmath>

namespace mesogpu {
namespace physics {
  namespace mdscf {

    /* Grid coordinate s = (x - boxlo)/h along one axis -> index of the lower node of the
       particle's cell (floor(s)) and the fraction t = s - floor(s), 0 <= t <= 1. */
    template <typename Real> MESO_HD int cell_index(Real s, Real &t)
    {
      const Real fl = floor(s);
      t = s - fl;
      return static_cast<int>(fl);
    }

    /* Cloud-in-cell weights of the 8 corners of the cell, corner c = cx + 2 cy + 4 cz. */
    template <typename Real> MESO_HD void cic_weights(Real tx, Real ty, Real tz, Real w[8])
    {
      const Real wx[2] = {Real(1) - tx, tx};
      const Real wy[2] = {Real(1) - ty, ty};
      const Real wz[2] = {Real(1) - tz, tz};
      for (int c = 0; c < 8; ++c) w[c] = wx[c & 1] * wy[(c >> 1) & 1] * wz[(c >> 2) & 1];
    }

    /* Field potential of every component at one node: V[K] for K = 0..ncomp-1. */
    template <typename Real>
    MESO_HD void field_potentials(int ncomp, const Real *phi, const Real *chi, Real kT,
                                  Real inv_kappa, Real *V)
    {
      Real total = Real(0);
      for (int k = 0; k < ncomp; ++k) total += phi[k];
      const Real incompress = inv_kappa * (total - Real(1));
      for (int k = 0; k < ncomp; ++k) {
        Real s = Real(0);
        for (int l = 0; l < ncomp; ++l) s += chi[k * ncomp + l] * phi[l];
        V[k] = kT * s + incompress;
      }
    }

    /* Energy per (rho0 v_c) at one node: f = 1/2 kT phi.chi.phi + (sum phi - 1)^2/(2 kappa).
       Returned as its two parts, f_chi and f_kappa. */
    template <typename Real>
    MESO_HD void energy_density(int ncomp, const Real *phi, const Real *chi, Real kT,
                                Real inv_kappa, Real &f_chi, Real &f_kappa)
    {
      Real total = Real(0), quad = Real(0);
      for (int k = 0; k < ncomp; ++k) {
        total += phi[k];
        Real s = Real(0);
        for (int l = 0; l < ncomp; ++l) s += chi[k * ncomp + l] * phi[l];
        quad += phi[k] * s;
      }
      f_chi = Real(0.5) * kT * quad;
      f_kappa = Real(0.5) * inv_kappa * (total - Real(1)) * (total - Real(1));
    }

    /* Diagonal virial per (rho0 v_c) at one node: sum_K phi_K V_K - f (V from
       field_potentials, f = f_chi + f_kappa from energy_density at the same node). */
    template <typename Real>
    MESO_HD Real virial_density(int ncomp, const Real *phi, const Real *V, Real f)
    {
      Real s = Real(0);
      for (int k = 0; k < ncomp; ++k) s += phi[k] * V[k];
      return s - f;
    }

    /* Central difference of a node quantity: (v(g+1) - v(g-1)) / (2h). */
    template <typename Real> MESO_HD Real central_difference(Real v_minus, Real v_plus, Real inv_2h)
    {
      return (v_plus - v_minus) * inv_2h;
    }

    /* Trilinear interpolation of a node quantity from the cell's 8 corners. */
    template <typename Real> MESO_HD Real interpolate(const Real w[8], const Real v[8])
    {
      Real s = Real(0);
      for (int c = 0; c < 8; ++c) s += w[c] * v[c];
      return s;
    }

    /* Field force on a particle: F = - sum_c w_c grad[c], grad[c] the gradient of the
       particle's component potential at corner c. */
    template <typename Real>
    MESO_HD void field_force(const Real w[8], const Real grad[8][3], Real f[3])
    {
      f[0] = f[1] = f[2] = Real(0);
      for (int c = 0; c < 8; ++c) {
        f[0] -= w[c] * grad[c][0];
        f[1] -= w[c] * grad[c][1];
        f[2] -= w[c] * grad[c][2];
      }
    }

  }    // namespace mdscf
}    // namespace physics
}    // namespace mesogpu

#endif
