/* mesogpu: bond_style, angle_style and dihedral_style table/cuda on the device
 * (table_bonded.h): LAMMPS's resampled tables uploaded once, one view per table, the
 * evaluators of src/physics/{bond,angle,dihedral}_table.h in the bonded kernel
 * templates. */

#include "forces/bonded_kernels.cuh"
#include "forces/table_bonded.h"

#include <cmath>
#include <sstream>

namespace mesogpu {
namespace cuda {

  namespace {

    struct BondTableDev {
      const physics::UniformTableView<real> *views;
      const int *table_of_type;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_table<real>(rsq, views[table_of_type[t]], fbond, e);
      }
    };
    struct AngleTableDev {
      const physics::UniformTableView<real> *views;
      const int *table_of_type;
      __device__ bool eval(int t, const real d1[3], const real d2[3], real f1[3], real f3[3],
                           real &e) const
      {
        return physics::angle_table<real>(d1, d2, views[table_of_type[t]], f1, f3, e);
      }
    };
    struct DihedralTableDev {
      const physics::DihedralTableView<real> *views;
      const int *table_of_type;
      __device__ bool eval(int t, const real vb1[3], const real vb2[3], const real vb3[3],
                           real g1[3], real g2[3], real g3[3], real g4[3], real &e) const
      {
        return physics::dihedral_table<real>(vb1, vb2, vb3, views[table_of_type[t]], g1, g2, g3, g4,
                                             e);
      }
    };

    // the six arrays of all tables on the device, and one view per table into them
    template <class Tables, class View> struct DeviceTables {
      DeviceArray<real> e, de, f, df, e2, f2;
      DeviceArray<View> views;
      DeviceArray<int> table_of_type;
      explicit DeviceTables(const Tables &h)
      {
        AllocLabel label("the bonded tables");
        auto up = [](DeviceArray<real> &d, const std::vector<double> &v) {
          d.upload(std::vector<real>(v.begin(), v.end()));
        };
        up(e, h.e);
        up(de, h.de);
        up(f, h.f);
        up(df, h.df);
        up(e2, h.e2);
        up(f2, h.f2);
        const TableArrays<real> a{e.get(), de.get(), f.get(), df.get(), e2.get(), f2.get()};
        std::vector<View> v(h.ntables());
        for (int k = 0; k < h.ntables(); ++k) v[k] = h.template view<real>(k, a);
        views.upload(v);
        // a type without a table is never used by a term (LAMMPS refuses such runs);
        // point it at table 0 rather than out of bounds
        std::vector<int> map(h.table_of_type);
        for (int &m : map)
          if (m < 0) m = 0;
        table_of_type.upload(map);
      }
    };

    class BondTableTerm : public detail::BondedTerm<detail::ForceGroup::bond> {
     public:
      explicit BondTableTerm(const HostBondTable &h) : host(h), tables(h) {}
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_bond_kernel(s, c,
                                   BondTableDev{tables.views.get(), tables.table_of_type.get()});
      }
      // LAMMPS's own words (bond_style table), with the atoms
      std::string describe_error(const detail::ErrorRecord &e) const override
      {
        if (!this->owns(e)) return "";
        const double r = std::sqrt(e.rsq);
        const int t = e.type;
        const int k = t >= 0 && t < (int) host.table_of_type.size() ? host.table_of_type[t] : -1;
        std::ostringstream m;
        m.precision(8);
        if (k >= 0 && r < host.lo[k])
          m << "Bond length < table inner cutoff: type " << t << " length " << r;
        else
          m << "Bond length > table outer cutoff: type " << t << " length " << r;
        m << " (bond_style table/cuda, atoms at device index " << e.i << " and " << e.j << ")";
        return m.str();
      }

     private:
      HostBondTable host;
      DeviceTables<HostBondTable, physics::UniformTableView<real>> tables;
    };

    class AngleTableTerm : public detail::BondedTerm<detail::ForceGroup::angle> {
     public:
      explicit AngleTableTerm(const HostAngleTable &h) : tables(h) {}
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_angle_kernel(s, c,
                                    AngleTableDev{tables.views.get(), tables.table_of_type.get()});
      }
      std::string describe_error(const detail::ErrorRecord &e) const override
      {
        if (!this->owns(e)) return "";
        std::ostringstream m;
        m << "Illegal angle in angle style table/cuda: type " << e.type
          << " (atoms at device index " << e.i << " and " << e.j << ": non-finite positions)";
        return m.str();
      }

     private:
      DeviceTables<HostAngleTable, physics::UniformTableView<real>> tables;
    };

    class DihedralTableTerm : public detail::BondedTerm<detail::ForceGroup::dihedral> {
     public:
      explicit DihedralTableTerm(const HostDihedralTable &h) : tables(h) {}
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        detail::launch_dihedral_kernel(
            s, c, DihedralTableDev{tables.views.get(), tables.table_of_type.get()});
      }
      std::string describe_error(const detail::ErrorRecord &e) const override
      {
        if (!this->owns(e)) return "";
        std::ostringstream m;
        m << "dihedral_style table/cuda: dihedral of type " << e.type
          << " with non-finite positions (atoms at device index " << e.i << " and " << e.j << ")";
        return m.str();
      }

     private:
      DeviceTables<HostDihedralTable, physics::DihedralTableView<real>> tables;
    };

  }    // namespace

  void add_bond_table(Engine &engine, const HostBondTable &tables)
  {
    engine.internals().add_force(std::make_unique<BondTableTerm>(tables));
  }
  void add_angle_table(Engine &engine, const HostAngleTable &tables)
  {
    engine.internals().add_force(std::make_unique<AngleTableTerm>(tables));
  }
  void add_dihedral_table(Engine &engine, const HostDihedralTable &tables)
  {
    engine.internals().add_force(std::make_unique<DihedralTableTerm>(tables));
  }

}    // namespace cuda
}    // namespace mesogpu
