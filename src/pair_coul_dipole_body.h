/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style coul/dipole/body: charge-charge, charge-dipole and dipole-dipole
   electrostatics of coarse-grained beads (Orsi et al. 2008 lipids) on the CPU. Charges
   come from atom->q; a dipolar type carries a dipole of fixed magnitude along a fixed
   direction of its body frame, turned into the lab frame by the bead's quaternion
   (atom_style ellipsoid bonus, e.g. 'atom_style hybrid ellipsoid charge'). Plain cutoff,
   reaction field or shifted force (elec sf). No LJ part: combine with lj/cut, gb or ssd via
   hybrid/overlay.
   Torques (lab frame, the physical torque p x E) go to atom->torque.
   Physics: src/physics/bead_electrostatics.h. Docs: doc/pair_coul_dipole_body.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_COUL_DIPOLE_BODY_H
#define MESOGPU_PAIR_COUL_DIPOLE_BODY_H

#include "pair.h"
#include "physics/bead_electrostatics.h"

#include <vector>

namespace LAMMPS_NS {

class PairCoulDipoleBody : public Pair {
 public:
  PairCoulDipoleBody(class LAMMPS *);
  ~PairCoulDipoleBody() override;

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

  // evaluator parameters (valid after init)
  const mesogpu::physics::BeadElecParams<double> &elec_params() const { return params; }

 protected:
  double cut_global, eps_rf;
  int mode;    // mesogpu::physics::BeadElec as int

  // per type (ntypes+1): dipole magnitude (e Angstrom; 0: no dipole) and unit body direction
  std::vector<double> mu;
  std::vector<double> dir;    // 3 per type
  mesogpu::physics::BeadElecParams<double> params;

  class AtomVecEllipsoid *avec;
  int nmax;
  double **pvec;    // lab-frame dipole of each local and ghost atom (0 for none)

  void allocate();
  void deallocate();
  void lab_dipoles();
};

}    // namespace LAMMPS_NS

#endif
