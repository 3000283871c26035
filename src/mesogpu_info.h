/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - command "mesogpu info": prints how the plugin was built (version,
   the styles it registered, CUDA architecture and precision) and the CUDA
   runtime, driver and devices this process can see.
------------------------------------------------------------------------- */

#ifndef MESOGPU_MESOGPU_INFO_H
#define MESOGPU_MESOGPU_INFO_H

#include "command.h"

namespace LAMMPS_NS {

class MesogpuInfo : public Command {
 public:
  MesogpuInfo(class LAMMPS *lmp) : Command(lmp) {}
  void command(int, char **) override;
};

}    // namespace LAMMPS_NS

#endif
