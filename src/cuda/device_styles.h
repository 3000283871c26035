/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - the device part of a style. A /cuda style inherits its CPU class
   (same parsing, coefficients, restart) and one of these interfaces; run_style
   verlet/cuda drives the step through them and refuses styles without one.
   Host computations (run 0, setup, the force-style tests) use the inherited CPU
   code; the device part hands parameters to the engine, whose kernels use the
   same evaluators (src/physics/). One file pair per style in src/cuda/.
------------------------------------------------------------------------- */

#ifndef MESOGPU_DEVICE_STYLES_H
#define MESOGPU_DEVICE_STYLES_H

#include "lmptype.h"

namespace mesogpu {
namespace cuda {
  class Engine;
  struct FinalForce;
}
}    // namespace mesogpu

namespace LAMMPS_NS {

// pair, bond, angle and dihedral styles hand their parameters to the engine once per
// run setup; the engine's force kernels then use them every step
class DeviceForce {
 protected:
  ~DeviceForce() = default;    // never deleted through the interface

 public:
  virtual void device_setup(mesogpu::cuda::Engine &engine) = 0;
  // per-atom energy and virial of this style into its eatom/vatom arrays (for compute
  // pe/atom and stress/atom): the style's ev_setup(eflag, vflag) and the engine's arrays
  virtual void device_per_atom(mesogpu::cuda::Engine &engine, int eflag, int vflag) = 0;
};

// fixes act at the integrate stages of the step on device data
class DeviceFix {
 protected:
  ~DeviceFix() = default;    // never deleted through the interface

 public:
  virtual void device_setup(mesogpu::cuda::Engine &) {}
  // at setup, after the host fixes' setup forces went up to the device: forces a fix adds
  // on the device instead of in its host setup (fix langevin/cuda: the setup step's random
  // forces from the device stream, the same on any number of ranks)
  virtual void device_setup_forces(mesogpu::cuda::Engine &) {}
  virtual void device_initial_integrate(mesogpu::cuda::Engine &) {}
  // vflag: the step's virial flags (as Modify::post_force gets them)
  virtual void device_post_force(mesogpu::cuda::Engine &, int /*vflag*/) {}
  virtual void device_final_integrate(mesogpu::cuda::Engine &) {}
  // one pass over the atoms instead of two (both passes are bound by memory bandwidth):
  // the last post-force fix of a step describes its force instead of launching a kernel
  // (fix langevin/cuda: true when it filled ff), and the first final-integrate fix adds it
  // in its own kernel before its half step (fix nve/cuda: true when it launched; false:
  // the run calls both fixes as usual). The order of operations stays, and so do the
  // results, bitwise. run_style verlet/cuda pairs the two at setup where the integrator
  // says it takes such a force (device_takes_final_force; MESOGPU_FUSED_FINAL=no: never)
  virtual bool device_final_force(mesogpu::cuda::FinalForce & /*ff*/) { return false; }
  virtual bool device_takes_final_force() const { return false; }
  virtual bool device_final_integrate_with(mesogpu::cuda::Engine &,
                                           const mesogpu::cuda::FinalForce & /*ff*/)
  {
    return false;
  }
  virtual void device_end_of_step(mesogpu::cuda::Engine &) {}
  // the host arrays are being brought up to date (output, host code, end of run): a fix
  // with state of its own on the device copies it back here
  virtual void device_sync_host(mesogpu::cuda::Engine &) {}
  // the fix changes the box during the run and moves the device's box and atoms with it
  // (Engine::change_box, remap_atoms): run_style verlet/cuda refuses other box changes
  virtual bool device_changes_box() const { return false; }
  // bond-list entries per atom (both directions) that the bonds this fix makes on the device
  // need (fix polymerize/cuda: 2, a chain's interior atom): the run keeps that much room even
  // when every host slot of some atom is taken (an atom already in a chain)
  virtual int device_bond_room() const { return 0; }
  // several ranks: the fix's work of this step runs on the host, between the host's
  // borders() and the upload of a reneighbouring step through the host that the run style
  // makes for it (fix polymerize/cuda: a reaction step, with a host list of the fresh
  // ghosts; its bonds, states and types then go up with the atoms). Steps only: every
  // rank must give the same answer
  virtual bool device_host_step(bigint /*step*/) const { return false; }
  virtual void device_host_step_after_borders() {}
  // several ranks: the fix's per-atom host arrays (Atom's grow callbacks) have device
  // copies of one value per atom that move with the atoms at a device rebuild;
  // device_sync_host writes them back in the host's order of then (so a device rebuild
  // need not go through the host for them)
  virtual bool device_moves_per_atom_arrays() const { return false; }
};

}    // namespace LAMMPS_NS

#endif
