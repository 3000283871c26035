/* mesogpu: see device_context.h. */

#include "device_context.h"

#include "integrate.h"
#include "lammps.h"
#include "update.h"

using namespace LAMMPS_NS;

DeviceContext *DeviceContext::current(LAMMPS *lmp)
{
  return lmp->update ? dynamic_cast<DeviceContext *>(lmp->update->integrate) : nullptr;
}
