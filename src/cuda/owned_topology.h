/* mesogpu: LAMMPS's per-atom topology of the owned atoms as rows of atom IDs
 * (cuda/engine.h: OwnedTopologyLayout), the form in which a reneighbouring step on the
 * device on several ranks moves it with the atoms (molecular atom styles bond, angle,
 * molecular, full): packed from LAMMPS's arrays at upload, written back into them at the
 * host sync after device rebuilds (molecule, bonds, angles, dihedrals, impropers,
 * special lists). resolve_owned_topology is the host mirror of the engine's
 * resolve_topology (cuda/topology/topology_migrate.cu: the same closest-image search,
 * listing atoms and entry order), which the unit tests compare against
 * build_device_topology (src/cuda/device_topology.cpp). Host-only (no CUDA): unit-tested
 * in unittest/lammps/test_lammps_owned_topology.cpp. */
#ifndef MESOGPU_OWNED_TOPOLOGY_H
#define MESOGPU_OWNED_TOPOLOGY_H

#include "device_topology.h"
#include "engine.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace mesogpu {

// the layout of this atom style's rows; bonds, angles, dihedrals: the device lists the
// run makes (its force styles have terms); newton_bond from the force settings
cuda::OwnedTopologyLayout owned_topology_layout(LAMMPS_NS::LAMMPS *lmp, bool bonds, bool angles,
                                                bool dihedrals);

// the owned atoms' rows (nlocal x layout.width, row-major) from LAMMPS's arrays
void pack_owned_topology(LAMMPS_NS::LAMMPS *lmp, const cuda::OwnedTopologyLayout &layout,
                         std::vector<int> &rows);

// the rows of the owned atoms back into LAMMPS's arrays (counts, types, atom IDs, special
// lists, molecule IDs); "" or what does not fit LAMMPS's arrays (a count above its per-atom
// width)
std::string unpack_owned_topology(LAMMPS_NS::LAMMPS *lmp, const cuda::OwnedTopologyLayout &layout,
                                  const int *rows);

// the host mirror of Engine::resolve_topology: the lists of n rows (nlocal owned ones with
// their rows) from their tags and positions (x: 3 n), as build_device_topology makes them
// with index_of = the closest image; a partner that is no row: "" replaced by a message
// naming the atoms (bonds, angles, dihedrals), -1 (special)
std::string resolve_owned_topology(const cuda::OwnedTopologyLayout &layout, const int *rows,
                                   int nlocal, int n, const int *tag, const double *x,
                                   DeviceTopology &t);

}    // namespace mesogpu

#endif
