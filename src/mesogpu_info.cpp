/* mesogpu: command "mesogpu info"; see mesogpu_info.h. */

#include "mesogpu_info.h"
#include "mesogpu_plugin.h"

#include "comm.h"
#include "error.h"
#include "lammpsplugin.h"

#include <cstring>
#include <string>

#ifdef MESOGPU_HAVE_CUDA
#include "mesogpu_cuda.h"
#endif

// LAMMPS's plugin registry (src/PLUGIN/plugin.h, which is not among the installed
// headers): every style loaded from any plugin, with the DSO handle it came from
namespace LAMMPS_NS {
int plugin_get_num_plugins();
const lammpsplugin_t *plugin_get_info(int);
}    // namespace LAMMPS_NS

using namespace LAMMPS_NS;

void MesogpuInfo::command(int narg, char **arg)
{
  if (narg != 1 || strcmp(arg[0], "info") != 0)
    error->all(FLERR, "Illegal mesogpu command: expected 'mesogpu info'");
  if (comm->me != 0) return;

  // the styles as LAMMPS has them registered from this plugin right now (so an
  // unloaded style is not listed, and the list cannot go stale)
  std::string styles;
  int nstyles = 0;
  for (int i = 0; i < plugin_get_num_plugins(); ++i) {
    const lammpsplugin_t *p = plugin_get_info(i);
    if (p && p->handle == mesogpu_plugin_handle()) {
      styles += fmt::format("    {} {}\n", p->style, p->name);
      ++nstyles;
    }
  }

  std::string text = "mesogpu " MESOGPU_VERSION "\n";
  text += fmt::format("  styles registered from this plugin: {}\n", nstyles) + styles;
  text += "  CPU styles: double precision\n";
#ifdef MESOGPU_HAVE_CUDA
  text += "  CUDA engine: compiled for " + mesogpu::cuda::compiled_architectures() + "\n";
  text += std::string("  device precision: ") + mesogpu::cuda::precision_name() + "\n";
  text += "  CUDA runtime: " + mesogpu::cuda::runtime_version() +
          ", driver: " + mesogpu::cuda::driver_version() + "\n";
  const int ndev = mesogpu::cuda::device_count();
  text += "  CUDA devices visible: " + std::to_string(ndev) + "\n";
  for (int d = 0; d < ndev; ++d) {
    try {
      text += "    " + std::to_string(d) + ": " + mesogpu::cuda::device_description(d) + "\n";
    } catch (std::exception &e) {
      text += "    " + std::to_string(d) + ": (query failed: " + e.what() + ")\n";
    }
  }
#else
  text += "  CUDA engine: built without CUDA (MESOGPU_CUDA=OFF or no nvcc found); the /cuda "
          "styles and run_style verlet/cuda are not available\n";
#endif
  utils::logmesg(lmp, text);
}
