/* ----------------------------------------------------------------------
   mesogpu - what a resident run (run_style verlet/cuda) accepts: the styles and fixes
   that act during a step need a device part, thermo lines that device reductions alone
   can print, and whether a compute or fix needs host neighbour lists; which fixes share
   one pass over the atoms (MESOGPU_FUSED_FINAL). The run style itself is verlet_cuda.cpp.
------------------------------------------------------------------------- */

#include "verlet_cuda.h"

#include "angle.h"
#include "bond.h"
#include "comm.h"
#include "cuda/compute_temp_cuda.h"
#include "cuda/device_comm.h"
#include "cuda/device_styles.h"
#include "cuda/pair_hybrid_cuda.h"
#include "dihedral.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "improper.h"
#include "kspace.h"
#include "mesogpu_plugin.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "output.h"
#include "pair.h"
#include "thermo.h"
#include "thermo_keywords.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace LAMMPS_NS;
using namespace FixConst;

/* ----------------------------------------------------------------------
   every style that acts during a step must have a device part
------------------------------------------------------------------------- */

void VerletCuda::check_styles()
{
  // several ranks: each holds its atoms and ghosts on the device (doc/run_style_verlet_cuda.md)
  multi_rank = comm->nprocs > 1;
  if (multi_rank) DeviceComm::check_styles(lmp, false);
  if (domain->triclinic)
    error->all(FLERR,
               "run_style verlet/cuda supports orthogonal boxes only (this box is triclinic)");
  // shrink-wrapped boundaries change the box too (Domain::init() sets box_change): the
  // device follows them itself
  // a box that changes during the run: only fixes that move the device's box and atoms
  // with it (fix npt/cuda, nph/cuda, npt|nph/rigid/single/cuda); each fix's own flag
  // (domain->box_change is set by Domain::init(), after this check at init)
  for (auto &ifix : modify->get_fix_list()) {
    auto *dfix = dynamic_cast<DeviceFix *>(ifix);
    // fix balance moves the subdomain cuts, not the box (its steps go through the host)
    const bool balance = strcmp(ifix->style, "balance") == 0;
    if (ifix->box_change && !(dfix && dfix->device_changes_box()) && !balance)
      error->all(FLERR,
                 "run_style verlet/cuda: fix {} (style {}) changes the box, which a resident "
                 "run supports only for fix npt/cuda, nph/cuda, npt/rigid/single/cuda and "
                 "nph/rigid/single/cuda (not fix deform, box/relax, ...)",
                 ifix->id, ifix->style);
  }
  // an atom leaving through a non-periodic side stops the device run (the engine removes
  // no atoms): only LAMMPS's default 'thermo_modify lost error' matches that
  if (domain->nonperiodic && output->thermo && output->thermo->lostflag != Thermo::ERROR)
    error->all(FLERR, "run_style verlet/cuda: lost atoms always stop a device run (a "
                      "non-periodic box with thermo_modify lost ignore or warn is not supported)");
  if (domain->dimension != 3)
    error->all(FLERR, "run_style verlet/cuda supports 3d systems only (this one is 2d)");

  // a force style without a device part is named, with the device styles of its kind
  auto require_device = [&](auto *style, const char *kind, const char *name) {
    if (style && !dynamic_cast<DeviceForce *>(style))
      error->all(FLERR,
                 "run_style verlet/cuda: {} style {} has no device part (device {} styles: {}; run "
                 "with -sf cuda to pick them)",
                 kind, name, kind, mesogpu::device_style_names(kind));
  };
  require_device(force->pair, "pair", force->pair_style);
  require_device(force->bond, "bond", force->bond_style);
  require_device(force->angle, "angle", force->angle_style);
  require_device(force->dihedral, "dihedral", force->dihedral_style);
  if (force->improper)
    error->all(FLERR, "run_style verlet/cuda: improper style {} has no device part yet",
               force->improper_style);
  if (force->kspace)
    error->all(FLERR, "run_style verlet/cuda: kspace style {} has no device part",
               force->kspace_style);

  const int per_step = INITIAL_INTEGRATE | POST_INTEGRATE | PRE_EXCHANGE | PRE_NEIGHBOR |
                       POST_NEIGHBOR | PRE_FORCE | PRE_REVERSE | POST_FORCE | FINAL_INTEGRATE |
                       END_OF_STEP;
  fix_initial.clear();
  fix_post_force.clear();
  fix_final.clear();
  fix_end_of_step.clear();
  fix_device.clear();
  fix_balance.clear();
  balance_logged = host_step_logged = false;
  // host fixes that only read the system at the end of a step (and write files or
  // their own averages): they run on synced host arrays at their steps
  static const char *const observers[] = {
      "ave/time",           "ave/chunk", "ave/histo", "ave/histo/weight", "ave/correlate",
      "ave/correlate/long", "ave/atom",  "print",     "vector",           "halt"};
  for (auto &ifix : modify->get_fix_list()) {
    auto *dfix = dynamic_cast<DeviceFix *>(ifix);
    if (!dfix) {
      // fix balance: on several ranks its steps reneighbour through the host
      // (rank_rebuild), where it acts as in Verlet; on one rank there is nothing to move
      if (strcmp(ifix->style, "balance") == 0) {
        if (multi_rank) fix_balance.push_back(ifix);
        continue;
      }
      bool observer = false;
      for (const char *name : observers) observer |= strcmp(ifix->style, name) == 0;
      if (observer && (ifix->setmask() & per_step) == END_OF_STEP) {
        fix_end_of_step.push_back({ifix, nullptr});
        continue;
      }
      if (ifix->setmask() & per_step)
        error->all(
            FLERR,
            "run_style verlet/cuda: fix {} (style {}) acts during the step and has no device "
            "part (device fixes: {}; host fixes that only observe at the end of a step: "
            "ave/time, ave/chunk, ave/histo, ave/correlate, ave/atom, print, vector, halt; run "
            "with -sf cuda to pick the device fixes)",
            ifix->id, ifix->style, mesogpu::device_style_names("fix"));
      continue;
    }
    fix_device.push_back(dfix);
    const int mask = ifix->setmask();
    if (mask &
        (POST_INTEGRATE | PRE_EXCHANGE | PRE_NEIGHBOR | POST_NEIGHBOR | PRE_FORCE | PRE_REVERSE))
      error->all(FLERR,
                 "run_style verlet/cuda: fix {} (style {}) needs a step stage the device "
                 "loop does not run yet",
                 ifix->id, ifix->style);
    if (mask & INITIAL_INTEGRATE) fix_initial.push_back(dfix);
    if (mask & POST_FORCE) fix_post_force.push_back(dfix);
    if (mask & FINAL_INTEGRATE) fix_final.push_back(dfix);
    if (mask & END_OF_STEP) fix_end_of_step.push_back({ifix, dfix});
  }
}

/* ----------------------------------------------------------------------
   a thermo line can be printed from device reductions alone when each keyword is
   one of thermo_keyword_on_device() (thermo_keywords.h) and the temperature is
   compute temp/cuda;
   anything else (c_, f_, v_, fmax, tensor components, thermo_modify) syncs first
------------------------------------------------------------------------- */

void VerletCuda::check_thermo()
{
  thermo_device_only = false;
  if (!output->thermo || output->thermo->modified) return;
  auto *temp = modify->get_compute_by_id("thermo_temp");
  if (!temp || !dynamic_cast<ComputeTempCuda *>(temp)) return;
  thermo_device_only = mesogpu::thermo_keywords_on_device(output->thermo->get_keywords());
}

/* ----------------------------------------------------------------------
   a compute or fix with its own neighbour list (after Neighbor::init() the requests
   live on as the lists' requestors): then the host builds its lists at setup and at
   sync steps; otherwise it builds none (only the pair style would read one)
------------------------------------------------------------------------- */

void VerletCuda::find_host_lists()
{
  // the pair style's lists, and with pair_style hybrid its sub-styles' lists
  std::vector<void *> pair_styles{force->pair};
  for (Pair *sub : device_util::hybrid_sub_styles(force->pair)) pair_styles.push_back(sub);
  // a device fix's occasional list is the fix's to build, at its host steps (fix
  // polymerize/cuda on several ranks: DeviceFix::device_host_step)
  std::vector<void *> device_fixes;
  for (auto *f : fix_device) device_fixes.push_back(dynamic_cast<Fix *>(f));
  host_lists_needed = false;
  for (int i = 0; i < neighbor->nlist; i++) {
    const NeighList *list = neighbor->lists[i];
    bool own = false;
    for (void *p : pair_styles) own |= list->requestor == p;
    if (list->occasional)
      for (void *p : device_fixes) own |= list->requestor == p;
    if (!own) host_lists_needed = true;
  }
}

/* ----------------------------------------------------------------------
   one pass over the atoms for the last post-force fix and the first final-integrate fix
   (fix langevin/cuda's force in fix nve/cuda's half step; MESOGPU_FUSED_FINAL=yes|no),
   and for the integrator's first half step and the displacement test of check yes
   (MESOGPU_FUSED_CHECK=yes|no); both default yes, read at each run's setup; whether this
   run's fixes pair up (after their device setup, which refuses what they cannot do), and
   the line that says so
------------------------------------------------------------------------- */

void VerletCuda::read_fusion_switches()
{
  std::string why;
  fused_final_allowed = true;
  const char *env = std::getenv("MESOGPU_FUSED_FINAL");
  if (env && !mesogpu::parse_yes_no(env, fused_final_allowed, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_FUSED_FINAL: {}", why);
  fused_check_allowed = true;
  env = std::getenv("MESOGPU_FUSED_CHECK");
  if (env && !mesogpu::parse_yes_no(env, fused_check_allowed, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_FUSED_CHECK: {}", why);
}

void VerletCuda::setup_fusions(bool full)
{
  // the displacement test in the integrator's pass: only where one fix moves the atoms
  // (the engine also asks for group all and one rank's rows)
  engine->set_integrator_check(fused_check_allowed && fix_initial.size() == 1);
  mesogpu::cuda::FinalForce ff;
  fused_final = fused_final_allowed && !fix_post_force.empty() && !fix_final.empty() &&
                fix_final.front()->device_takes_final_force() &&
                fix_post_force.back()->device_final_force(ff);
  if (!fused_final || !full || comm->me != 0) return;
  auto *force_fix = dynamic_cast<Fix *>(fix_post_force.back());
  auto *final_fix = dynamic_cast<Fix *>(fix_final.front());
  if (force_fix && final_fix)
    utils::logmesg(lmp,
                   "  verlet/cuda: fix {} ({}) adds its force in fix {} ({})'s final half step\n",
                   force_fix->id, force_fix->style, final_fix->id, final_fix->style);
}

void VerletCuda::post_force_and_final(int vflag)
{
  const size_t nforce = fix_post_force.size() - (fused_final ? 1 : 0);
  for (size_t k = 0; k < nforce; ++k) fix_post_force[k]->device_post_force(*engine, vflag);
  if (fused_final) {
    mesogpu::cuda::FinalForce ff;
    DeviceFix *last = fix_post_force.back();
    if (last->device_final_force(ff) &&
        fix_final.front()->device_final_integrate_with(*engine, ff)) {
      for (size_t k = 1; k < fix_final.size(); ++k) fix_final[k]->device_final_integrate(*engine);
      return;
    }
    last->device_post_force(*engine, vflag);    // the fixes declined this step: one by one
  }
  for (auto *f : fix_final) f->device_final_integrate(*engine);
}
