/* mesogpu: the molecular topology of the owned atoms as the device engine takes it
 * (Engine::upload_special, upload_bonds, upload_angles, upload_dihedrals): per-atom lists of
 * local indices, read from the atoms' own arrays (atom_style bond, angle, molecular, full)
 * or, for atom_style template, expanded from the molecule templates the way LAMMPS's
 * NTopo*Template builders and the npair special lookups read them (template
 * onemols[molindex[i]], template atom molatom[i], IDs offset by tag[i] - molatom[i] - 1).
 * Host-only (no CUDA): unit-tested in unittest/lammps/test_lammps_topology.cpp. */
#ifndef MESOGPU_DEVICE_TOPOLOGY_H
#define MESOGPU_DEVICE_TOPOLOGY_H

#include "lmptype.h"

#include <functional>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace mesogpu {

struct DeviceTopology {
  // special neighbours: nspecial 3 n (cumulative 1-2, 1-3, 1-4), special n x maxspecial
  int maxspecial = 0;
  std::vector<int> nspecial, special;
  // bonds of each atom in both directions with newton_bond (stored once), else as stored
  int maxbond = 0;
  std::vector<int> nbond, bond_partner, bond_type;
  // angles (3 atoms) and dihedrals (4 atoms): every atom of a term lists it with
  // newton_bond (stored once), else the atom that stores it
  int maxangle = 0, maxdihedral = 0;
  std::vector<int> nangle, angle_atoms, angle_type;
  std::vector<int> ndihedral, dihedral_atoms, dihedral_type;
};

// local index of atom ID tag, referred to by atom i's list `what` (throws or stops with a
// LAMMPS error for a missing atom)
using IndexOf = std::function<int(LAMMPS_NS::tagint tag, const char *what, int i)>;

// which parts to build: specials (molecular systems), bonds, angles, dihedrals (each only
// when the force style exists and the system has such terms). rows: the device rows the
// lists have (-1: the owned atoms; several ranks: owned atoms and ghosts, index_of giving
// ghost rows too); the terms come from the owned atoms' arrays, so with newton_bond on a
// ghost row lists the terms an owned atom stores with it
void build_device_topology(LAMMPS_NS::LAMMPS *lmp, const IndexOf &index_of, bool special,
                           bool bonds, bool angles, bool dihedrals, DeviceTopology &t,
                           int rows = -1);

}    // namespace mesogpu

#endif
