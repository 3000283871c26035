/* mesogpu: command device_bonds, and VerletCuda::sync_topology (the download of the
   device's bonds into LAMMPS at host syncs, which the command calls too); see
   device_bonds.h.

   device_bonds create ID1 ID2 TYPE [ID1 ID2 TYPE ...]
   device_bonds create/skip ID1 ID2 TYPE [...]   (a bond that finds an atom full is skipped)
   device_bonds break ID1 ID2 [ID1 ID2 ...]                                              */

#include "device_bonds.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "topology_sync.h"
#include "update.h"
#include "verlet_cuda.h"

#include <cstring>
#include <vector>

using namespace LAMMPS_NS;

void DeviceBonds::command(int narg, char **arg)
{
  if (narg < 1) utils::missing_cmd_args(FLERR, "device_bonds", error);
  const std::string mode = arg[0];
  const bool create = mode == "create" || mode == "create/skip";
  if (!create && mode != "break")
    error->all(FLERR, "device_bonds: unknown mode {} (create, create/skip, break)", mode);
  const int per = create ? 3 : 2;
  if ((narg - 1) % per != 0 || narg == 1)
    error->all(FLERR, "device_bonds {}: {} values per bond (atom IDs{})", mode, per,
               create ? " and type" : "");
  auto *vc = dynamic_cast<VerletCuda *>(update->integrate);
  mesogpu::cuda::Engine *engine = vc ? vc->device_engine_mutable() : nullptr;
  if (!engine)
    error->all(FLERR, "device_bonds needs run_style verlet/cuda and a run before it (run 0)");
  if (atom->natoms != atom->nlocal)
    error->all(FLERR, "device_bonds: the atoms changed since the last run (run 0 first)");
  if (!atom->map_style) error->all(FLERR, "device_bonds needs an atom map");
  if (!force->bond) error->all(FLERR, "device_bonds needs a bond style (a device one)");
  if (create && engine->bond_capacity() == 0)
    error->all(FLERR, "device_bonds create: the run kept no room for new bonds: give it "
                      "extra/bond/per/atom (read_data, create_box) and run again");

  std::vector<int> device_index;
  std::vector<mesogpu::cuda::BondEdit> edits;
  try {
    device_index = engine->device_index_of_lammps();
  } catch (std::runtime_error &e) {
    error->all(FLERR, "device_bonds: {}", e.what());
  }
  for (int a = 1; a < narg; a += per) {
    mesogpu::cuda::BondEdit e;
    int idx[2];
    for (int k = 0; k < 2; k++) {
      const tagint id = utils::tnumeric(FLERR, arg[a + k], false, lmp);
      const int local = atom->map(id);
      if (local < 0 || local >= atom->nlocal)
        error->all(FLERR, "device_bonds {}: no atom with ID {}", mode, id);
      idx[k] = device_index[local];
    }
    e.i = idx[0];
    e.j = idx[1];
    e.type = create ? utils::inumeric(FLERR, arg[a + 2], false, lmp) : 0;
    if (create && (e.type < 1 || e.type > atom->nbondtypes))
      error->all(FLERR, "device_bonds {}: bond type {} is not in 1..{}", mode, e.type,
                 atom->nbondtypes);
    edits.push_back(e);
  }
  mesogpu::cuda::BondEditResult r;
  try {
    r = create
            ? engine->insert_bonds(edits.data(), (int) edits.size(), false, mode == "create/skip")
            : engine->remove_bonds(edits.data(), (int) edits.size(), false);
    engine->check_errors();
  } catch (std::runtime_error &e) {
    error->all(FLERR, "device_bonds {}: {}", mode, e.what());
  }
  vc->sync_topology();
  utils::logmesg(lmp,
                 "device_bonds {}: {} applied, {} unchanged, {} skipped (full), {} rounds; {} "
                 "bonds\n",
                 mode, r.applied, r.unchanged, r.full, r.rounds, atom->nbonds);
}

/* ----------------------------------------------------------------------
   bonds made or broken on the device since the last sync into LAMMPS's arrays:
   num_bond / bond_atom / bond_type (topology_sync.h: bonds stored before stay on their
   atom, a new one goes on its lower-ID atom with newton_bond), nbonds, and the special
   lists as the device rebuilt them (thermo 'bonds', write_data, restart see them)
------------------------------------------------------------------------- */

void VerletCuda::sync_topology()
{
  if (!engine || !engine->topology_changed()) return;
  if (atom->molecular != Atom::MOLECULAR)
    error->all(FLERR, "run_style verlet/cuda: bonds changed on the device need per-atom bond "
                      "arrays (atom_style bond, molecular, full; not template)");
  const int n = atom->nlocal;
  mesogpu::BondStore dev, host;
  std::vector<int> nspecial, special;
  const int ms = engine->special_capacity();
  try {
    dev.width = engine->bond_capacity();
    dev.num.assign(n, 0);
    dev.partner.assign((size_t) n * dev.width, 0);
    dev.type.assign((size_t) n * dev.width, 0);
    engine->download_bonds(dev.num.data(), dev.partner.data(), dev.type.data());
    if (ms > 0) {
      nspecial.assign(3 * (size_t) n, 0);
      special.assign((size_t) n * ms, 0);
      engine->download_special(nspecial.data(), special.data());
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
  engine->clear_topology_changed();
}
