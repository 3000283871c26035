/* mesogpu: run_style verlet/cuda, what a run's setup tells the log (see verlet_cuda.h):
   the setup line (times, device memory, neighbour entries, lanes), why a keyword's
   choice was not taken, and the device memory report by array (keyword memory yes). */

#include "verlet_cuda.h"

#include "atom.h"
#include "comm.h"
#include "engine.h"
#include "memory_table.h"

#include <stdexcept>
#include <string>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   rank 0 at a run's setup (not per frame of a rerun): the phases' times in seconds
   and the owned atoms n
------------------------------------------------------------------------- */

void VerletCuda::log_setup(double host_s, double upload_s, double forces_s, double output_s, int n)
{
  size_t free_b = 0, total_b = 0, held = 0;
  try {
    held = mesogpu::cuda::Engine::device_memory(&free_b, &total_b);
  } catch (std::runtime_error &e) {
    device_error("setup", e);
  }
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const long long entries = engine->neighbor_entries();
  utils::logmesg(
      lmp,
      "  verlet/cuda setup: {:.3f} s host (exchange, ghosts{}), {:.3f} s upload, "
      "{:.3f} s device list and forces, {:.3f} s fix setup and output; device "
      "memory {:.2f} GiB held, {:.2f} of {:.2f} GiB free; {} neighbour entries "
      "({} per atom, {}-bit); lanes per atom: {} list build, {} pair{}\n",
      host_s, host_lists_needed ? ", host lists" : "", upload_s, forces_s, output_s, held / gib,
      free_b / gib, total_b / gib, entries, n > 0 ? entries / n : 0, engine->list_entry_bits(),
      engine->build_lanes(), engine->pair_lanes(),
      engine->build_cell_lanes() > 0
          ? fmt::format("; list build by cell, {} lanes per cell{}", engine->build_cell_lanes(),
                        engine->build_cell_fill() > 0
                            ? fmt::format(" ({:.0f} % filled)", 100 * engine->build_cell_fill())
                            : std::string())
          : std::string());
  // asked for 16-bit entries and did not get them, or auto took them: say why
  if (list_entries == 16 && entries > 0 && engine->list_entry_bits() != 16)
    utils::logmesg(lmp, "  verlet/cuda list_entries 16: 32-bit entries instead: {}\n",
                   engine->cell_entries_refusal());
  // several ranks: how many of rank 0's atoms start their forces before the exchange
  if (multi_rank && overlap) {
    const int interior = engine->interior_atoms();
    if (interior >= 0)
      utils::logmesg(lmp,
                     "  verlet/cuda overlap: {} of {} owned atoms (rank 0) have no ghost in "
                     "their lists; their pair forces start while the ghosts' positions "
                     "travel\n",
                     interior, n);
    else
      utils::logmesg(lmp,
                     "  verlet/cuda overlap: not this run (it needs one lane per atom in the "
                     "pair kernels: {} here, and a list built with ghosts)\n",
                     engine->pair_lanes());
  }
  if (tight_list == 1 && !engine->tight_list())
    utils::logmesg(lmp, "  verlet/cuda tight_list yes: a list with the skin instead: {}\n",
                   engine->tight_list_refusal());
  if (list_entries == 0 && entries > 0 && engine->list_entry_bits() == 16)
    utils::logmesg(lmp, "  verlet/cuda list_entries auto: 16-bit cell entries, since 32-bit "
                        "ones would leave too little device memory free\n");
}

/* ----------------------------------------------------------------------
   the device memory report by array (keyword memory yes), rank 0's engine
------------------------------------------------------------------------- */

void VerletCuda::log_memory(const char *when)
{
  if (!memory_report || !engine || comm->me != 0) return;
  size_t free_b = 0, total_b = 0, held = 0;
  try {
    held = mesogpu::cuda::Engine::device_memory(&free_b, &total_b);
  } catch (std::runtime_error &e) {
    device_error(when, e);
  }
  namespace mt = mesogpu::memtable;
  utils::logmesg(
      lmp, mt::report(mt::rows(), when, atom->nlocal, held, mt::total_peak(), total_b - free_b));
}
