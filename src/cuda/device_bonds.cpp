/* mesogpu: command device_bonds; see device_bonds.h. The edited bonds reach LAMMPS's
   arrays through the run style's sync_topology (cuda/device_topology_sync.cpp).

   device_bonds create ID1 ID2 TYPE [ID1 ID2 TYPE ...]
   device_bonds create/skip ID1 ID2 TYPE [...]   (a bond that finds an atom full is skipped)
   device_bonds break ID1 ID2 [ID1 ID2 ...]                                              */

#include "device_bonds.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "device_context.h"
#include "update.h"

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
  DeviceContext *context = DeviceContext::current(lmp);
  mesogpu::cuda::Engine *engine = context ? context->engine_for_edits() : nullptr;
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
  context->sync_topology();
  utils::logmesg(lmp,
                 "device_bonds {}: {} applied, {} unchanged, {} skipped (full), {} rounds; {} "
                 "bonds\n",
                 mode, r.applied, r.unchanged, r.full, r.rounds, atom->nbonds);
}
