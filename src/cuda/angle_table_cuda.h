/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - angle_style table/cuda: LAMMPS angle_style table with a device
   part for run_style verlet/cuda (src/cuda/device_styles.h): the tables
   LAMMPS built from the file go to the engine as they are, and the kernel
   interpolates them with physics/angle_table.h. Docs: doc/bonded_table_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_ANGLE_TABLE_CUDA_H
#define MESOGPU_ANGLE_TABLE_CUDA_H

#include "device_style_util.h"
#include "forces/table_bonded.h"
#include "MOLECULE/angle_table.h"

#include "atom.h"
#include "math_const.h"

namespace LAMMPS_NS {

class AngleTableCuda : public AngleTable, public DeviceForce {
 public:
  static constexpr bool several_ranks = true;    // runs on several MPI ranks (verlet/cuda)
  MESOGPU_DEVICE_PER_ATOM(angle)
  AngleTableCuda(class LAMMPS *lmp) : AngleTable(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;

  // the tables as device_setup() hands them over (inline: the tests call it on the
  // plugin's object)
  mesogpu::cuda::HostAngleTable pack() const
  {
    // AngleTable's tabstyle values (an enum private to angle_table.cpp)
    constexpr int LMP_LINEAR = 0;
    mesogpu::cuda::HostAngleTable p;
    p.interp = static_cast<int>(tabstyle == LMP_LINEAR ? mesogpu::physics::TableInterp::linear
                                                       : mesogpu::physics::TableInterp::spline);
    p.tablength = tablength;
    p.table_of_type.assign(atom->nangletypes + 1, -1);
    for (int t = 1; t <= atom->nangletypes; t++)
      if (setflag && setflag[t]) p.table_of_type[t] = tabindex[t];
    for (int k = 0; k < ntables; k++) {
      const Table &tb = tables[k];
      p.lo.push_back(0.0);    // LAMMPS's ang[i] = i delta
      p.hi.push_back(MathConst::MY_PI);
      p.delta.push_back(tb.delta);
      p.invdelta.push_back(tb.invdelta);
      p.deltasq6.push_back(tb.deltasq6);
      p.e.insert(p.e.end(), tb.e, tb.e + tablength);
      p.de.insert(p.de.end(), tb.de, tb.de + tablength);
      p.f.insert(p.f.end(), tb.f, tb.f + tablength);
      p.df.insert(p.df.end(), tb.df, tb.df + tablength);
      p.e2.insert(p.e2.end(), tb.e2, tb.e2 + tablength);
      p.f2.insert(p.f2.end(), tb.f2, tb.f2 + tablength);
    }
    return p;
  }
};

}    // namespace LAMMPS_NS

#endif
