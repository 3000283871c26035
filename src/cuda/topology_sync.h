/* mesogpu: LAMMPS's per-atom bond storage for the bonds the device holds after it
 * inserted or removed some (Engine::insert_bonds, remove_bonds; run_style verlet/cuda at a
 * host sync). The device lists every bond on both atoms; LAMMPS stores a bond once with
 * newton_bond (on one of its atoms) and on both atoms without. Bonds the host stores
 * already stay where they are (their type from the device); a bond gone from the device
 * goes; a bond only the device has is stored on the atom with the lower ID (newton_bond,
 * as fix bond/create does) or on both atoms; host entries of type <= 0 (bonds turned off,
 * which the device never held) stay. Host-only, no LAMMPS headers: unit-tested in
 * unittest/units/test_topology_edit.cpp. */
#ifndef MESOGPU_TOPOLOGY_SYNC_H
#define MESOGPU_TOPOLOGY_SYNC_H

#include <vector>

namespace mesogpu {

// per-atom bond lists, row-major: atom i's entry k at [i * width + k]; partners as atom IDs
struct BondStore {
  int width = 0;
  std::vector<int> num, partner, type;
};

// host: what LAMMPS stores now (LAMMPS order, n atoms with IDs tag[0..n)); device: the
// device's lists (Engine::download_bonds, LAMMPS order, both directions). Returns the new
// storage (width: the most entries of any atom) and sets nbonds to the number of bonds
// (each once, types <= 0 included as LAMMPS counts them).
BondStore merge_device_bonds(int n, const int *tag, bool newton_bond, const BondStore &host,
                             const BondStore &device, long long &nbonds);

}    // namespace mesogpu

#endif
