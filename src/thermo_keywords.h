/* Which thermo keywords a resident run can print from its device reductions alone
   (energies, pressure and temperature are reduced on the device; box, counts and timers
   live on the host). Kept apart from verlet/cuda so that the LAMMPS-level tests can
   check it against LAMMPS's own Thermo without a GPU. */
#ifndef MESOGPU_THERMO_KEYWORDS_H
#define MESOGPU_THERMO_KEYWORDS_H

#include <string>
#include <vector>

namespace mesogpu {

inline bool thermo_keyword_on_device(const std::string &key)
{
  static const char *const device_keywords[] = {
      "Step",     "Elapsed", "Elaplong",  "Dt",      "Time",        "CPU",    "T/CPU",
      "S/CPU",    "%CPU",    "CPULeft",   "Part",    "TimeoutLeft", "Atoms",  "Temp",
      "Press",    "PotEng",  "KinEng",    "TotEng",  "E_vdwl",      "E_coul", "E_pair",
      "E_bond",   "E_angle", "E_dihed",   "E_impro", "E_mol",       "E_long", "E_tail",
      "Enthalpy", "Ecouple", "Econserve", "Volume",  "Density",     "Lx",     "Ly",
      "Lz",       "Xlo",     "Xhi",       "Ylo",     "Yhi",         "Zlo",    "Zhi",
      "Bonds",    "Angles",  "Diheds",    "Impros",  "Nbuild",      "Ndanger"};
  for (const char *name : device_keywords)
    if (key == name) return true;
  return false;
}

// keywords as Thermo::get_keywords() returns them: Thermo allocates one slot more than
// it has fields (nfield + 1), and that spare slot stays empty; it names no quantity
inline bool thermo_keywords_on_device(const std::vector<std::string> &keywords)
{
  for (const auto &key : keywords)
    if (!key.empty() && !thermo_keyword_on_device(key)) return false;
  return true;
}

}    // namespace mesogpu

#endif
