/* mesogpu: fix langevin/cuda; see fix_langevin_cuda.h. */

#include "fix_langevin_cuda.h"

#include "device_style_util.h"

#include "atom.h"
#include "engine.h"
#include "error.h"
#include "update.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

FixLangevinCuda::FixLangevinCuda(LAMMPS *lmp, int narg, char **arg) : FixLangevin(lmp, narg, arg)
{
  // arg[6] is the seed the user gave; the device stream uses it directly
  stream_seed = static_cast<unsigned>(utils::inumeric(FLERR, arg[6], false, lmp));
}

void FixLangevinCuda::device_setup(Engine &engine)
{
  if (tstyle != TSTYLE_CONSTANT)
    error->all(
        FLERR,
        "Fix langevin/cuda: the target temperature must be constant or a ramp (no variables yet)");
  if (tallyflag || zeroflag || oflag || ascale > 0.0 || tbiasflag)
    error->all(FLERR, "Fix langevin/cuda supports none of the keywords tally, zero, omega, angmom, "
                      "and no temperature bias yet");
  for (int t = 1; t <= atom->ntypes; t++)
    if (ratio[t] != 1.0) error->all(FLERR, "Fix langevin/cuda does not support 'scale' yet");
  if (atom->rmass_flag)
    error->all(FLERR,
               "Fix langevin/cuda supports per-type masses only (atom style {} has "
               "per-atom masses)",
               atom->atom_style);
  // the prefactors FixLangevin::init() computed for this run
  engine.set_langevin(std::vector<double>(gfactor1, gfactor1 + atom->ntypes + 1),
                      std::vector<double>(gfactor2, gfactor2 + atom->ntypes + 1));
}

void FixLangevinCuda::setup(int vflag)
{
  if (device_util::resident_run(lmp)) return;    // device_setup_forces adds them
  FixLangevin::setup(vflag);
}

void FixLangevinCuda::device_setup_forces(Engine &engine)
{
  compute_target();
  engine.langevin(groupbit, tsqrt, stream_seed, update->ntimestep);
}

void FixLangevinCuda::device_post_force(Engine &engine, int)
{
  compute_target();    // t_target and tsqrt for this step (a ramp over the run)
  engine.langevin(groupbit, tsqrt, stream_seed, update->ntimestep);
}

bool FixLangevinCuda::device_final_force(mesogpu::cuda::FinalForce &ff)
{
  compute_target();    // as device_post_force
  ff.groupbit = groupbit;
  ff.tsqrt = tsqrt;
  ff.seed = stream_seed;
  ff.step = update->ntimestep;
  return true;
}
