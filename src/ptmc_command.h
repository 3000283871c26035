/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - command "ptmc": parallel-tempering (replica-exchange) Metropolis Monte Carlo of
   bead-spring polymers (pair lj/cut + bond fene or fene/expand) on a temperature ladder,
   CPU reference of the GPU version (physics in src/physics/ptmc.h). doc/ptmc.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PTMC_COMMAND_H
#define MESOGPU_PTMC_COMMAND_H

#include "command.h"
#include "physics/ptmc.h"

#include <cstdio>
#include <string>
#include <vector>

namespace LAMMPS_NS {

class PTMC : public Command {
 public:
  PTMC(class LAMMPS *lmp) : Command(lmp) {}
  void command(int, char **) override;

 private:
  // settings
  bigint nsweeps = 0, nequil = 0;
  int swap_every = 10, sample_every = 1, tune_window = 10, nbins = 50, ncv = 100;
  int dump_every = 0, keep = -1;
  bool use_gpu = false;    // keyword gpu yes: the sweeps on the device (src/ptmc_gpu.cpp)
  unsigned seed = 0;
  double tune_target = -1.0;    // < 0: no tuning
  std::vector<double> temps, beta, delta;
  std::vector<int> dump_temps;
  std::string prefix, restart_in, restart_out, dump_file;

  // the model (physics::PtmcModel points into these)
  int n = 0, M = 0;
  std::vector<int> type, bond_start, bond_partner, bond_type, special_start, special_partner;
  std::vector<double> special_weight;
  std::vector<mesogpu::physics::PtmcLJ> lj;
  std::vector<mesogpu::physics::PtmcFENE> fene;
  std::vector<std::vector<int>> chains;
  mesogpu::physics::PtmcModel model{};

  // the state (what the restart file holds)
  bigint sweep = 0;
  std::vector<double> x;                   // [M][3n] unwrapped coordinates of replica r
  std::vector<double> energy;              // [M] of replica r, bookkept incrementally
  std::vector<int> temp_of;                // temperature index of replica r
  std::vector<int> rep_at;                 // replica at temperature index k
  std::vector<bigint> win_acc, win_try;    // tuning window counts per temperature

  // statistics of this command's production sweeps
  std::vector<bigint> acc, tries, swap_acc, swap_try;
  std::vector<double> swap_expect;               // sum of min(1, exp(dbeta dE)) per pair
  std::vector<double> samples_e, samples_rg2;    // [nsamples][M] by temperature
  FILE *efile = nullptr;
  double sweep_seconds = 0.0;    // wall time of this command's sweep loop

  void parse(int, char **);
  void check_system();
  void build_model();
  void gather_atoms(std::vector<double> &x0);
  void read_restart();
  void write_restart();
  void one_sweep();
  void record_sweep(int r, bigint accepted, double e, bool production);
  void after_sweep(const double *rg2_by_replica);
  void sync_positions();
  void check_gpu();
  void run_gpu();
  void swap_step();
  void sample(const double *rg2_by_replica);
  void tune();
  void dump_frames();
  void write_back(int k);
  double rg2(const double *xr) const;
  void outputs();
  void wham(std::vector<double> &f) const;
};

}    // namespace LAMMPS_NS

#endif
