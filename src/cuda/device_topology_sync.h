/* mesogpu: the bonds the device engine made or broke since the last host sync, written
   into LAMMPS's arrays: num_bond / bond_atom / bond_type (topology_sync.h: bonds stored
   before stay on their atom, a new one goes on its lower-ID atom with newton_bond),
   nbonds, and the special lists as the device rebuilt them, so thermo 'bonds',
   write_data and restart files see them. Called by run_style verlet/cuda at every host
   sync and by the command device_bonds. */
#ifndef MESOGPU_DEVICE_TOPOLOGY_SYNC_H
#define MESOGPU_DEVICE_TOPOLOGY_SYNC_H

namespace LAMMPS_NS {
class LAMMPS;
}

namespace mesogpu {
namespace cuda {
  class Engine;
}

// no-op when the device topology did not change; LAMMPS errors name the capacity to raise
void download_device_topology(LAMMPS_NS::LAMMPS *lmp, cuda::Engine &engine);

}    // namespace mesogpu

#endif
