/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style ssd: the soft-sticky-dipole one-site water models (SSD, SSD1, SSD/E,
   SSD/RF) on the CPU. Each molecule is one ellipsoid-flagged particle (atom_style
   ellipsoid, or hybrid with ellipsoid) whose quaternion is the body frame: body z is
   the dipole, the H atoms lie in the body y-z plane at +z. Torques (lab frame, the
   physical torque as in LAMMPS's gayberne) go to atom->torque.
   Physics: src/physics/ssd.h. Docs: doc/pair_ssd.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_SSD_H
#define MESOGPU_PAIR_SSD_H

#include "pair.h"
#include "physics/ssd.h"

#include <vector>

namespace LAMMPS_NS {

class PairSSD : public Pair {
 public:
  PairSSD(class LAMMPS *);
  ~PairSSD() override;

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

  // evaluator parameters of a type pair (valid after init)
  const mesogpu::physics::SsdParams<double> &pair_params(int i, int j) const
  {
    return params[i * (ntypes_alloc + 1) + j];
  }

 protected:
  // global settings
  double coul_cut, lj_cut, eps_rf;
  double coul_sw;    // switching radius of 'elec rfswitch' (0 otherwise)
  int ljmode;        // mesogpu::physics::SsdLj as int
  int elec;          // mesogpu::physics::SsdElectrostatics as int

  int ntypes_alloc;
  std::vector<mesogpu::physics::SsdType<double>> types;    // ntypes+1, set where setflag[i][i]
  std::vector<int> type_set;      // named set of type i (SsdSet as int), -1 for custom
  double **lj_sigma, **lj_eps;    // per pair: given by 'pair_coeff I J lj' or mixed in init_one
  std::vector<mesogpu::physics::SsdParams<double>> params;    // (ntypes+1)^2

  class AtomVecEllipsoid *avec;
  int nmax;
  double **frame;    // lab -> body rotation A = R(q)^T of each local and ghost atom, row-major

  void allocate();
  void deallocate();
  void body_frames();
  void check_cutoffs(double sticky, const char *what) const;
};

}    // namespace LAMMPS_NS

#endif
