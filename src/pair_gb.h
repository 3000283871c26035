/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style gb: Gay-Berne interaction of dissimilar uniaxial ellipsoids and of
   ellipsoids with spheres (Cleaver et al. 1996, as OpenMD's GB.cpp evaluates it), with
   per-type widths, lengths and well depths and per-type-pair eps0, dw, mu, nu and cutoff.
   The long axis u of an ellipsoid type is body z of its ellipsoid quaternion (atom_style
   ellipsoid or hybrid with ellipsoid); sphere types need no orientation. Lab-frame
   torques go to atom->torque. Physics: src/physics/gay_berne.h. Docs: doc/pair_gb.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_GB_H
#define MESOGPU_PAIR_GB_H

#include "pair.h"
#include "physics/gay_berne.h"

#include <vector>

namespace LAMMPS_NS {

class PairGB : public Pair {
 public:
  PairGB(class LAMMPS *);
  ~PairGB() override;

  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  void write_data(FILE *) override;
  void write_data_all(FILE *) override;
  double memory_usage() override;

  // evaluator parameters of the ordered type pair (i, j) (valid after init)
  const mesogpu::physics::GayBerneParams<double> &pair_params(int i, int j) const
  {
    return params[i * (ntypes_alloc + 1) + j];
  }

  // what a type line gave; the numbers of 'lj' become d = l and eps_S = eps_E at init
  enum Kind : int { GB = 0, LJ = 1 };
  struct TypeInput {
    int kind;       // Kind
    double v[5];    // gb: d l eps_X eps_S eps_E; lj: sigma epsilon (v[2..4] unused)
    double dw;      // softness of the self pair (mixed arithmetically)
    double cut;     // cutoff of the self pair; 0: the global one
  };
  // an unlike pair's own values; NaN where not given (then mixed)
  struct PairInput {
    double eps0, dw, mu, nu, cut;
  };

 protected:
  // global settings
  double cut_global;
  int rule;     // mesogpu::physics::GayBerneSigma0 as int
  int shift;    // 1: U(rc, same orientations) subtracted
  double mu_global, nu_global;

  int ntypes_alloc;
  std::vector<TypeInput> tin;     // ntypes+1, valid where setflag[i][i]
  std::vector<PairInput> pin;     // (ntypes+1)^2, i < j; valid where setflag[i][j]
  std::vector<PairInput> used;    // (ntypes+1)^2, the values init_one used (both orders)
  std::vector<mesogpu::physics::GayBerneParams<double>> params;    // (ntypes+1)^2
  std::vector<int> sphere;    // per type: 1 if d = l and eps_S = eps_E (no orientation)

  class AtomVecEllipsoid *avec;
  int nmax;
  double **axis;    // body z in the lab frame of every local and ghost atom (0 for spheres)

  void allocate();
  void deallocate();
  void long_axes();
  mesogpu::physics::GayBerneType<double> type_of(int i) const;
  double type_eps_x(int i) const;
  double type_cut(int i) const;
};

}    // namespace LAMMPS_NS

#endif
