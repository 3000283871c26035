/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style table/r2: tabulated pair potential, one C2 cubic spline of the
   energy on a uniform r^2 grid; force is its exact derivative.
   Physics: src/physics/table_r2.h. Docs: doc/pair_table_r2.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_PAIR_TABLE_R2_H
#define MESOGPU_PAIR_TABLE_R2_H

#include "pair.h"
#include "physics/table_r2.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class PairTableR2 : public Pair {
 public:
  PairTableR2(class LAMMPS *);
  ~PairTableR2() override;

  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  double init_one(int, int) override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  void write_data(FILE *) override;
  void write_data_all(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void *extract(const char *, int &) override;

  // one fitted table; public so the device part can upload it
  struct Table {
    int n = 0;                      // intervals
    double z_lo = 0.0, dz = 0.0;    // grid in r^2
    std::vector<double> coeff;      // 4 n spline coefficients
    std::string file, keyword;      // where it came from (for write_data and messages)
    double cut = 0.0;               // cutoff given with pair_coeff (0: end of table)
  };
  const std::vector<Table> &get_tables() const { return tables; }
  int table_index(int i, int j) const { return tabindex[i][j]; }
  mesogpu::physics::InnerMode inner_mode() const { return inner; }

 protected:
  int n_intervals;                      // N of pair_style: spline intervals when resampling
  mesogpu::physics::InnerMode inner;    // below the table start: error or clamp
  std::vector<Table> tables;
  int **tabindex;    // table of each type pair (-1 if none)
  double **cut;
  double **offset;    // energy at the cutoff (pair_modify shift yes)

  virtual void allocate();
  void deallocate();
  mesogpu::physics::TableR2View<double> view(int itable) const;
  [[noreturn]] void below_table(int itable, double rsq, tagint itag, tagint jtag);
  void bcast_table(Table &t);
  void read_table(Table &t, std::string &message);
};

}    // namespace LAMMPS_NS

#endif
