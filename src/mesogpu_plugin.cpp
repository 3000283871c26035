/* mesogpu: plugin entry point. LAMMPS calls lammpsplugin_init() when it loads
   mesogpuplugin.so (plugin load, or LAMMPS_PLUGIN_PATH at start-up); every style
   the plugin provides is registered here. */

#include "lammpsplugin.h"
#include "version.h"

#include "mesogpu_info.h"
#include "pair_table_r2.h"

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
}
