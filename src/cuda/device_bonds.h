/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - command "device_bonds": bonds made or broken on the device copy of a
   run_style verlet/cuda system between runs (after a 'run 0' or a run), then written
   back to LAMMPS's bond and special arrays, as create_bonds single/bond and
   delete_bonds do on the host. The scripted face of Engine::insert_bonds and
   remove_bonds (a device fix of stochastic chain growth calls them during a run);
   used by the GPU tests. Docs: doc/device_bonds.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_BONDS_H
#define MESOGPU_DEVICE_BONDS_H

#include "command.h"

namespace LAMMPS_NS {

class DeviceBonds : public Command {
 public:
  DeviceBonds(class LAMMPS *lmp) : Command(lmp) {}
  void command(int, char **) override;
};

}    // namespace LAMMPS_NS

#endif
