/* mesogpu: the host side of the tabulated bonded terms (bond_style, angle_style and
 * dihedral_style table/cuda): the tables as LAMMPS's BondTable, AngleTable and
 * DihedralTable built them from the table files, flattened into plain vectors (plain
 * C++, no CUDA: the styles include it with g++), and the engine's entry points that take
 * them. The evaluators that read them are src/physics/bond_table.h, angle_table.h and
 * dihedral_table.h; view() gives the evaluator's view of table k on these vectors (host)
 * or on device copies of them laid out the same way.
 *
 * Layout: ntables() tables of tablength values each; array X of table k is
 * X[k * tablength .. (k + 1) * tablength). table_of_type[t] is the table of type t
 * (1-based as in LAMMPS; index 0 and types without coefficients: -1). Every array is
 * filled (zeros where LAMMPS leaves values it never reads undefined), whatever the
 * interpolation. */
#ifndef MESOGPU_CUDA_FORCES_TABLE_BONDED_H
#define MESOGPU_CUDA_FORCES_TABLE_BONDED_H

#include "physics/bond_table.h"
#include "physics/angle_table.h"
#include "physics/dihedral_table.h"

#include <vector>

namespace mesogpu {
namespace cuda {

  class Engine;

  // where the six flattened arrays start (host or device memory)
  template <typename Real> struct TableArrays {
    const Real *e, *de, *f, *df, *e2, *f2;
  };

  // the resampled tables of bond_style or angle_style table (physics/table_lookup.h)
  struct HostUniformTables {
    int interp = 0;                    // physics::TableInterp: 0 linear, 1 spline
    int tablength = 0;                 // points per table (the style's second argument)
    std::vector<int> table_of_type;    // ntypes + 1 values
    std::vector<double> lo, hi, delta, invdelta, deltasq6;    // per table
    std::vector<double> e, de, f, df, e2, f2;                 // ntables * tablength each

    int ntables() const { return static_cast<int>(lo.size()); }
    template <typename Real>
    physics::UniformTableView<Real> view(int k, const TableArrays<Real> &a) const
    {
      const size_t o = static_cast<size_t>(k) * tablength;
      return {a.e + o,
              a.de + o,
              a.f + o,
              a.df + o,
              a.e2 + o,
              a.f2 + o,
              static_cast<Real>(lo[k]),
              static_cast<Real>(hi[k]),
              static_cast<Real>(delta[k]),
              static_cast<Real>(invdelta[k]),
              static_cast<Real>(deltasq6[k]),
              tablength,
              static_cast<physics::TableInterp>(interp)};
    }
    TableArrays<double> arrays() const
    {
      return {e.data(), de.data(), f.data(), df.data(), e2.data(), f2.data()};
    }
    physics::UniformTableView<double> view(int k) const { return view<double>(k, arrays()); }
  };

  // bond_style table/cuda: lo, hi the file's first and last r
  struct HostBondTable : HostUniformTables {};
  // angle_style table/cuda: lo = 0, hi = pi (theta in radians; f = -dE/dtheta per radian)
  struct HostAngleTable : HostUniformTables {};

  // dihedral_style table/cuda: the periodic tables on phi_i = i delta, delta = 2 pi / tablength
  struct HostDihedralTable {
    int interp = 0;                                   // physics::TableInterp
    int tablength = 0;                                // points per table
    std::vector<int> table_of_type;                   // ndihedraltypes + 1 values
    std::vector<double> delta, invdelta, deltasq6;    // per table
    std::vector<int> f_unspecified;                   // per table: NOF given
    std::vector<double> e, de, f, df, e2, f2;         // ntables * tablength each

    int ntables() const { return static_cast<int>(delta.size()); }
    template <typename Real>
    physics::DihedralTableView<Real> view(int k, const TableArrays<Real> &a) const
    {
      const size_t o = static_cast<size_t>(k) * tablength;
      return {a.e + o,
              a.de + o,
              a.f + o,
              a.df + o,
              a.e2 + o,
              a.f2 + o,
              static_cast<Real>(delta[k]),
              static_cast<Real>(invdelta[k]),
              static_cast<Real>(deltasq6[k]),
              tablength,
              static_cast<physics::TableInterp>(interp),
              f_unspecified[k]};
    }
    TableArrays<double> arrays() const
    {
      return {e.data(), de.data(), f.data(), df.data(), e2.data(), f2.data()};
    }
    physics::DihedralTableView<double> view(int k) const { return view<double>(k, arrays()); }
  };

  // the styles' device_setup(): hand the tables to the engine as one force term each
  void add_bond_table(Engine &engine, const HostBondTable &tables);
  void add_angle_table(Engine &engine, const HostAngleTable &tables);
  void add_dihedral_table(Engine &engine, const HostDihedralTable &tables);

}    // namespace cuda
}    // namespace mesogpu

#endif
