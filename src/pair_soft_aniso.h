/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style soft/aniso: one-site soft anisotropic particles (GALAMOST "LZW"
   model: disk, rod, Janus, triblock ABA, triblock BAB belt). Orientation is the
   direction of the point dipole (atom_style hybrid sphere dipole); torques go to
   atom->torque with tau = n x g.
   Physics: src/physics/soft_aniso.h. Docs: doc/pair_soft_aniso.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_SOFT_ANISO_H
#define MESOGPU_PAIR_SOFT_ANISO_H

#include "pair.h"
#include "physics/soft_aniso.h"

#include <vector>

namespace LAMMPS_NS {

class PairSoftAniso : public Pair {
 public:
  PairSoftAniso(class LAMMPS *);
  ~PairSoftAniso() override;

  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void reinit() override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  void write_data(FILE *) override;
  void write_data_all(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void *extract(const char *, int &) override;
  double memory_usage() override;

  // evaluator parameters of a type pair (valid after init); for the device part
  const mesogpu::physics::SoftAnisoParams<double> &pair_params(int i, int j) const
  {
    return params[i * (ntypes_alloc + 1) + j];
  }
  // 1 if some pair of this type is anisotropic (its atoms need an orientation)
  int type_is_anisotropic(int i) const { return aniso_type[i]; }

 protected:
  double cut_global;
  int ntypes_alloc;    // ntypes when the arrays were allocated
  int **model;         // mesogpu::physics::SoftAnisoModel as int
  double **alpha_r, **alpha_a, **shape_mu, **nu, **beta_deg, **cut;
  std::vector<mesogpu::physics::SoftAnisoParams<double>> params;    // (ntypes+1)^2
  std::vector<int> aniso_type;                                      // ntypes+1

  int nmax;           // rows of orient
  double **orient;    // unit orientation of each local and ghost atom (mu / |mu|)

  virtual void allocate();
  void deallocate();
  void set_params(int i, int j);
  void check_coeffs(int i, int j);
  bool in_reinit = false;        // init_one() called by fix adapt (Pair::reinit) mid-run
  bool warned_unused = false;    // warned that fix adapt changed a parameter no model uses
  void normalise_orientations();
  void orientation_of(int i, double n[3]) const;
};

}    // namespace LAMMPS_NS

#endif
