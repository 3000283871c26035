/* mesogpu: bonds made or broken on the device into LAMMPS's arrays (see
   device_topology_sync.h). */

#include "device_topology_sync.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "topology_sync.h"
#include "update.h"

#include <vector>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   bonds made or broken on the device since the last sync into LAMMPS's arrays:
   num_bond / bond_atom / bond_type (topology_sync.h: bonds stored before stay on their
   atom, a new one goes on its lower-ID atom with newton_bond), nbonds, and the special
   lists as the device rebuilt them (thermo 'bonds', write_data, restart see them)
------------------------------------------------------------------------- */

void mesogpu::download_device_topology(LAMMPS *lmp, mesogpu::cuda::Engine &engine)
{
  Atom *atom = lmp->atom;
  Error *error = lmp->error;
  Update *update = lmp->update;
  Force *force = lmp->force;
  if (!engine.topology_changed()) return;
  if (atom->molecular != Atom::MOLECULAR)
    error->all(FLERR, "run_style verlet/cuda: bonds changed on the device need per-atom bond "
                      "arrays (atom_style bond, molecular, full; not template)");
  const int n = atom->nlocal;
  mesogpu::BondStore dev, host;
  std::vector<int> nspecial, special;
  const int ms = engine.special_capacity();
  try {
    dev.width = engine.bond_capacity();
    dev.num.assign(n, 0);
    dev.partner.assign((size_t) n * dev.width, 0);
    dev.type.assign((size_t) n * dev.width, 0);
    engine.download_bonds(dev.num.data(), dev.partner.data(), dev.type.data());
    if (ms > 0) {
      nspecial.assign(3 * (size_t) n, 0);
      special.assign((size_t) n * ms, 0);
      engine.download_special(nspecial.data(), special.data());
    }
  } catch (std::runtime_error &e) {
    error->all(FLERR, "run_style verlet/cuda: step {}: {}", update->ntimestep, e.what());
  }
  host.width = atom->bond_per_atom;
  host.num.assign(atom->num_bond, atom->num_bond + n);
  host.partner.assign((size_t) n * host.width, 0);
  host.type.assign((size_t) n * host.width, 0);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < atom->num_bond[i]; k++) {
      host.partner[(size_t) i * host.width + k] = atom->bond_atom[i][k];
      host.type[(size_t) i * host.width + k] = atom->bond_type[i][k];
    }
  static_assert(sizeof(tagint) == sizeof(int), "device tags are 32-bit");
  long long nbonds = 0;
  const mesogpu::BondStore out = mesogpu::merge_device_bonds(
      n, reinterpret_cast<const int *>(atom->tag), force->newton_bond != 0, host, dev, nbonds);
  if (out.width > atom->bond_per_atom)
    error->all(FLERR,
               "run_style verlet/cuda: step {}: after bonds made on the device an atom stores {} "
               "bonds, more than LAMMPS's {} per atom: raise extra/bond/per/atom (read_data, "
               "create_box)",
               update->ntimestep, out.width, atom->bond_per_atom);
  for (int i = 0; i < n; i++) {
    atom->num_bond[i] = out.num[i];
    for (int k = 0; k < out.num[i]; k++) {
      atom->bond_atom[i][k] = out.partner[(size_t) i * out.width + k];
      atom->bond_type[i][k] = out.type[(size_t) i * out.width + k];
    }
  }
  atom->nbonds = nbonds;
  if (ms > 0) {
    for (int i = 0; i < n; i++) {
      const int count = nspecial[3 * (size_t) i + 2];
      if (count > atom->maxspecial)
        error->all(FLERR,
                   "run_style verlet/cuda: step {}: atom {} has {} special neighbours after "
                   "bonds made on the device, more than LAMMPS's {}: raise "
                   "extra/special/per/atom",
                   update->ntimestep, atom->tag[i], count, atom->maxspecial);
      for (int k = 0; k < 3; k++) atom->nspecial[i][k] = nspecial[3 * (size_t) i + k];
      for (int k = 0; k < count; k++) atom->special[i][k] = special[(size_t) i * ms + k];
    }
  }
  engine.clear_topology_changed();
}
