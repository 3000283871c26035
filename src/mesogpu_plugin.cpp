/* mesogpu: plugin entry point. LAMMPS calls lammpsplugin_init() when it loads
   mesogpuplugin.so (plugin load, or LAMMPS_PLUGIN_PATH at start-up); every style
   the plugin provides is registered here. */

#include "lammpsplugin.h"
#include "version.h"

#include "mesogpu_info.h"
#include "pair_table_r2.h"

#ifdef MESOGPU_HAVE_CUDA
#include "cuda_styles.h"
#include "update.h"
#include "verlet_cuda.h"
#include <cstring>
#endif

using namespace LAMMPS_NS;

namespace {
Pair *table_r2_creator(LAMMPS *lmp)
{
  return new PairTableR2(lmp);
}
Command *mesogpu_info_creator(LAMMPS *lmp)
{
  return new MesogpuInfo(lmp);
}
#ifdef MESOGPU_HAVE_CUDA
Pair *lj_cut_cuda_creator(LAMMPS *lmp)
{
  return new PairLJCutCuda(lmp);
}
Pair *table_r2_cuda_creator(LAMMPS *lmp)
{
  return new PairTableR2Cuda(lmp);
}
Pair *dpd_cuda_creator(LAMMPS *lmp)
{
  return new PairDPDCuda(lmp);
}
Pair *gauss_cuda_creator(LAMMPS *lmp)
{
  return new PairGaussCuda(lmp);
}
Pair *harmonic_cut_cuda_creator(LAMMPS *lmp)
{
  return new PairHarmonicCutCuda(lmp);
}
Fix *fix_langevin_cuda_creator(LAMMPS *lmp, int narg, char **arg)
{
  return new FixLangevinCuda(lmp, narg, arg);
}
Fix *fix_temp_berendsen_cuda_creator(LAMMPS *lmp, int narg, char **arg)
{
  return new FixTempBerendsenCuda(lmp, narg, arg);
}
Fix *fix_momentum_cuda_creator(LAMMPS *lmp, int narg, char **arg)
{
  return new FixMomentumCuda(lmp, narg, arg);
}
Angle *angle_harmonic_cuda_creator(LAMMPS *lmp)
{
  return new AngleHarmonicCuda(lmp);
}
Angle *angle_cosine_squared_cuda_creator(LAMMPS *lmp)
{
  return new AngleCosineSquaredCuda(lmp);
}
Dihedral *dihedral_harmonic_cuda_creator(LAMMPS *lmp)
{
  return new DihedralHarmonicCuda(lmp);
}
Dihedral *dihedral_charmm_cuda_creator(LAMMPS *lmp)
{
  return new DihedralCharmmCuda(lmp);
}
Bond *bond_harmonic_cuda_creator(LAMMPS *lmp)
{
  return new BondHarmonicCuda(lmp);
}
Bond *bond_fene_cuda_creator(LAMMPS *lmp)
{
  return new BondFENECuda(lmp);
}
Fix *fix_nve_cuda_creator(LAMMPS *lmp, int narg, char **arg)
{
  return new FixNVECuda(lmp, narg, arg);
}
Integrate *verlet_cuda_creator(LAMMPS *lmp, int narg, char **arg)
{
  return new VerletCuda(lmp, narg, arg);
}
#endif
}    // namespace

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  auto register_plugin = (lammpsplugin_regfunc) regfunc;
  lammpsplugin_t plugin;

  plugin.version = LAMMPS_VERSION;
  plugin.author = "mesogpu developers";
  plugin.handle = handle;

  plugin.style = "pair";
  plugin.name = "table/r2";
  plugin.info = "mesogpu: tabulated pair potential, C2 spline of the energy on an r^2 grid";
  plugin.creator.v1 = (lammpsplugin_factory1 *) &table_r2_creator;
  (*register_plugin)(&plugin, lmp);

  plugin.style = "command";
  plugin.name = "mesogpu";
  plugin.info = "mesogpu: 'mesogpu info' prints the plugin build and visible CUDA devices";
  plugin.creator.v1 = (lammpsplugin_factory1 *) &mesogpu_info_creator;
  (*register_plugin)(&plugin, lmp);

#ifdef MESOGPU_HAVE_CUDA
  auto reg = [&](const char *style, const char *name, const char *info, void *v1, void *v2) {
    plugin.style = style;
    plugin.name = name;
    plugin.info = info;
    if (v1)
      plugin.creator.v1 = (lammpsplugin_factory1 *) v1;
    else
      plugin.creator.v2 = (lammpsplugin_factory2 *) v2;
    (*register_plugin)(&plugin, lmp);
  };
  reg("pair", "lj/cut/cuda", "mesogpu: lj/cut resident on the GPU", (void *) &lj_cut_cuda_creator,
      nullptr);
  reg("pair", "table/r2/cuda", "mesogpu: table/r2 resident on the GPU",
      (void *) &table_r2_cuda_creator, nullptr);
  reg("bond", "harmonic/cuda", "mesogpu: bond harmonic resident on the GPU",
      (void *) &bond_harmonic_cuda_creator, nullptr);
  reg("bond", "fene/cuda", "mesogpu: bond fene resident on the GPU",
      (void *) &bond_fene_cuda_creator, nullptr);
  reg("pair", "dpd/cuda", "mesogpu: dpd resident on the GPU (Philox noise per pair and step)",
      (void *) &dpd_cuda_creator, nullptr);
  reg("pair", "gauss/cuda", "mesogpu: gauss resident on the GPU", (void *) &gauss_cuda_creator,
      nullptr);
  reg("pair", "harmonic/cut/cuda", "mesogpu: harmonic/cut resident on the GPU",
      (void *) &harmonic_cut_cuda_creator, nullptr);
  reg("fix", "langevin/cuda", "mesogpu: fix langevin resident on the GPU", nullptr,
      (void *) &fix_langevin_cuda_creator);
  reg("fix", "temp/berendsen/cuda", "mesogpu: fix temp/berendsen resident on the GPU", nullptr,
      (void *) &fix_temp_berendsen_cuda_creator);
  reg("fix", "momentum/cuda", "mesogpu: fix momentum resident on the GPU", nullptr,
      (void *) &fix_momentum_cuda_creator);
  reg("angle", "harmonic/cuda", "mesogpu: angle harmonic resident on the GPU",
      (void *) &angle_harmonic_cuda_creator, nullptr);
  reg("angle", "cosine/squared/cuda", "mesogpu: angle cosine/squared resident on the GPU",
      (void *) &angle_cosine_squared_cuda_creator, nullptr);
  reg("dihedral", "harmonic/cuda", "mesogpu: dihedral harmonic resident on the GPU",
      (void *) &dihedral_harmonic_cuda_creator, nullptr);
  reg("dihedral", "charmm/cuda", "mesogpu: dihedral charmm (torsion, weight 0) resident on the GPU",
      (void *) &dihedral_charmm_cuda_creator, nullptr);
  reg("fix", "nve/cuda", "mesogpu: fix nve resident on the GPU", nullptr,
      (void *) &fix_nve_cuda_creator);
  reg("run", "verlet/cuda", "mesogpu: velocity Verlet with whole timesteps on the GPU", nullptr,
      (void *) &verlet_cuda_creator);

  // LAMMPS creates its default run style before plugins on LAMMPS_PLUGIN_PATH load, so
  // '-sf cuda' alone would leave plain verlet in place: swap it here, while no run is active
  auto *l = (LAMMPS *) lmp;
  if (l->suffix_enable && l->suffix && strcmp(l->suffix, "cuda") == 0 &&
      strcmp(l->update->integrate_style, "verlet") == 0) {
    char verlet[] = "verlet";
    char *args[] = {verlet};
    l->update->create_integrate(1, args, 1);
  }
#endif
}
