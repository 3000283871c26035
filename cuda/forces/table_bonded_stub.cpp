/* mesogpu: TEMPORARY stand-ins for the engine's tabulated bonded terms (table_bonded.h)
 * until their kernels are wired into the engine's list of force terms; a resident run
 * with bond, angle or dihedral_style table/cuda stops here with a clear message. */

#include "forces/table_bonded.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  void add_bond_table(Engine &, const HostBondTable &)
  {
    throw std::runtime_error("bond_style table/cuda: the device part is not wired yet");
  }
  void add_angle_table(Engine &, const HostAngleTable &)
  {
    throw std::runtime_error("angle_style table/cuda: the device part is not wired yet");
  }
  void add_dihedral_table(Engine &, const HostDihedralTable &)
  {
    throw std::runtime_error("dihedral_style table/cuda: the device part is not wired yet");
  }

}    // namespace cuda
}    // namespace mesogpu
