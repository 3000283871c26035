/* mesogpu: the isotropic pair styles' device terms (plain C++; the /cuda pair styles call
 * these from device_setup). Parameters as the host styles hold them per type pair,
 * (ntypes+1)^2 row-major, index [i * (ntypes+1) + j], 1-based types as in LAMMPS. Each
 * add_* appends one term to the engine's force list (restricted to the engine's pair
 * filter, see Engine::set_pair_filter). Kernels: cuda/forces/pair_<style>.cu. */
#ifndef MESOGPU_CUDA_FORCES_PAIR_ISOTROPIC_H
#define MESOGPU_CUDA_FORCES_PAIR_ISOTROPIC_H

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  struct HostLJ {
    std::vector<double> lj1, lj2, lj3, lj4, offset, cutsq;
  };
  struct HostTableR2 {
    std::vector<int> table_of_pair;       // (ntypes+1)^2, -1 if none
    std::vector<int> n;                   // per table: intervals
    std::vector<double> z_lo, dz;         // per table
    std::vector<double> coeff;            // all tables, 4 n each, in table order
    std::vector<double> offset, cutsq;    // per type pair
    int inner = 0;                        // physics::InnerMode
  };
  struct HostGauss {
    std::vector<double> a, b, offset, cutsq;
  };
  struct HostHarmonicCut {
    std::vector<double> k, cut, cutsq;
  };
  struct HostDPD {
    std::vector<double> a0, gamma, sigma, cut, cutsq;
    double special_sqrt[4] = {1, 1, 1, 1};
    unsigned seed = 0;
  };

  void add_pair_lj_cut(Engine &engine, const HostLJ &p);
  void add_pair_table_r2(Engine &engine, const HostTableR2 &p);
  void add_pair_gauss(Engine &engine, const HostGauss &p);
  void add_pair_harmonic_cut(Engine &engine, const HostHarmonicCut &p);
  // reads velocities and tags; the noise follows the step of Engine::set_step
  void add_pair_dpd(Engine &engine, const HostDPD &p);

}    // namespace cuda
}    // namespace mesogpu

#endif
