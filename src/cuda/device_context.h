/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - what a /cuda style may ask of the device run style (run_style
   verlet/cuda implements it): the engine while the device holds a newer state
   than the host arrays, and a sync of those arrays. Styles find it through
   DeviceContext::current(lmp) and need not know the run style's class.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_CONTEXT_H
#define MESOGPU_DEVICE_CONTEXT_H

namespace mesogpu {
namespace cuda {
  class Engine;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

class LAMMPS;

class DeviceContext {
 protected:
  ~DeviceContext() = default;    // never deleted through the interface

 public:
  // the run style in use (update->integrate) if it is a device run style, else null
  static DeviceContext *current(LAMMPS *lmp);

  // the engine while the device state is ahead of the host arrays (during a run,
  // between syncs), else null: device-aware computes and fixes ask it for reductions
  virtual mesogpu::cuda::Engine *engine_ahead_of_host() const = 0;
  // bring x, v, f and images on the host up to date (no-op when already synced)
  virtual void sync_atoms() = 0;
  // the engine of the last resident setup, for commands that edit the device state
  // between runs (device_bonds); null before the first
  virtual mesogpu::cuda::Engine *engine_for_edits() = 0;
  // bonds made or broken on the device since the last call into LAMMPS's bond and
  // special arrays (no-op when the device topology did not change)
  virtual void sync_topology() = 0;
};

}    // namespace LAMMPS_NS

#endif
