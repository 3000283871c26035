/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - dihedral_style table/cuda: LAMMPS dihedral_style table with a
   device part for run_style verlet/cuda (src/cuda/device_styles.h): the
   periodic tables LAMMPS built from the file go to the engine as they are,
   and the kernel interpolates them with physics/dihedral_table.h.
   Docs: doc/bonded_table_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DIHEDRAL_TABLE_CUDA_H
#define MESOGPU_DIHEDRAL_TABLE_CUDA_H

#include "device_style_util.h"
#include "forces/table_bonded.h"
// dihedral_style table is in MOLECULE since LAMMPS 2024 releases, in EXTRA-MOLECULE before
#if __has_include("MOLECULE/dihedral_table.h")
#include "MOLECULE/dihedral_table.h"
#else
#include "EXTRA-MOLECULE/dihedral_table.h"
#endif

#include "atom.h"

#include <algorithm>

namespace LAMMPS_NS {

class DihedralTableCuda : public DihedralTable, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(dihedral)
  DihedralTableCuda(class LAMMPS *lmp) : DihedralTable(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;

  // the tables as device_setup() hands them over (inline: the tests call it on the
  // plugin's object). LAMMPS fills de, df only for linear and f, f2 only when the file
  // has forces (f also for linear without them); the rest stays zero here.
  mesogpu::cuda::HostDihedralTable pack() const
  {
    const bool linear = tabstyle == LINEAR;
    mesogpu::cuda::HostDihedralTable p;
    p.interp = static_cast<int>(linear ? mesogpu::physics::TableInterp::linear
                                       : mesogpu::physics::TableInterp::spline);
    p.tablength = tablength;
    p.table_of_type.assign(atom->ndihedraltypes + 1, -1);
    for (int t = 1; t <= atom->ndihedraltypes; t++)
      if (setflag && setflag[t]) p.table_of_type[t] = tabindex[t];
    const size_t n = static_cast<size_t>(ntables) * tablength;
    for (auto *v : {&p.e, &p.de, &p.f, &p.df, &p.e2, &p.f2}) v->assign(n, 0.0);
    for (int k = 0; k < ntables; k++) {
      const Table &tb = tables[k];
      const size_t o = static_cast<size_t>(k) * tablength;
      p.delta.push_back(tb.delta);
      p.invdelta.push_back(tb.invdelta);
      p.deltasq6.push_back(tb.deltasq6);
      p.f_unspecified.push_back(tb.f_unspecified ? 1 : 0);
      std::copy(tb.e, tb.e + tablength, p.e.begin() + o);
      std::copy(tb.e2, tb.e2 + tablength, p.e2.begin() + o);
      if (linear) {
        std::copy(tb.de, tb.de + tablength, p.de.begin() + o);
        std::copy(tb.df, tb.df + tablength, p.df.begin() + o);
      }
      if (linear || !tb.f_unspecified) std::copy(tb.f, tb.f + tablength, p.f.begin() + o);
      if (!tb.f_unspecified) std::copy(tb.f2, tb.f2 + tablength, p.f2.begin() + o);
    }
    return p;
  }
};

}    // namespace LAMMPS_NS

#endif
