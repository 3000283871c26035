/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - what the rest of the plugin may ask of its entry point
   (mesogpu_plugin.cpp): the DSO handle, and the registration table, the one
   place where each style is registered.
------------------------------------------------------------------------- */

#ifndef MESOGPU_MESOGPU_PLUGIN_H
#define MESOGPU_MESOGPU_PLUGIN_H

#include <string>
#include <typeinfo>

// the DSO handle LAMMPS gave lammpsplugin_init: identifies this plugin's entries in
// LAMMPS's plugin registry
void *mesogpu_plugin_handle();

namespace mesogpu {
// the styles of one LAMMPS kind ("pair", "bond", "angle", "dihedral", "fix") in the
// registration table that have a device part (DeviceForce, DeviceFix), in table order,
// joined by ", "; empty in a build without CUDA
std::string device_style_names(const char *style);
// whether the registered style of this class runs on several MPI ranks in a resident run
// (the class declares static constexpr bool several_ranks = true); false for classes not
// in the table
bool runs_on_several_ranks(const std::type_info &type);
// the styles of a kind ("pair", "bond", "fix", ...) that do, in registration order
std::string several_ranks_style_names(const char *style);
}    // namespace mesogpu

#endif
