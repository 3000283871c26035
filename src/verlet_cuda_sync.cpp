/* mesogpu: run_style verlet/cuda, the host's copies of the device state (see
   verlet_cuda.h): the atoms for host code at sync steps, the box after a device
   shrink-wrap, per-atom and global energies and virials for computes and thermo, and
   the bonds made or broken on the device. */

#include "verlet_cuda.h"

#include "angle.h"
#include "atom.h"
#include "bond.h"
#include "comm.h"
#include "cuda/device_bodies.h"
#include "cuda/device_styles.h"
#include "cuda/device_topology_sync.h"
#include "dihedral.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "neighbor.h"
#include "pair.h"

#include <stdexcept>
#include <vector>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   bring host arrays up to date
------------------------------------------------------------------------- */

void VerletCuda::sync_atoms()
{
  if (synced || !engine) return;
  const int n = atom->nlocal;
  std::vector<int> image(3 * (size_t) n);
  try {
    // atoms moved between ranks on the device: tags, types, masks, the atom map
    if (device_rebuild_pending()) sync_rebuilt_atoms();
    engine->download_atoms(n ? atom->x[0] : nullptr, n ? atom->v[0] : nullptr,
                           n ? atom->f[0] : nullptr, image.data());
    if (n && engine->has_orientation())
      engine->download_orientation(atom->mu[0], atom->omega[0], atom->torque[0]);
    mesogpu::download_bodies(lmp, *engine, true);
    for (auto *f : fix_device) f->device_sync_host(*engine);
    engine->check_errors();
  } catch (std::runtime_error &e) {
    step_error(e);
  }
  sync_topology();
  images_to_host(image);
  synced = true;
}

/* ----------------------------------------------------------------------
   the device's image counts (3 per owned atom) into LAMMPS's packed image flags
------------------------------------------------------------------------- */

void VerletCuda::images_to_host(const std::vector<int> &image)
{
  for (size_t i = 0; i < (size_t) atom->nlocal; i++)
    atom->image[i] = ((imageint) (image[3 * i] + IMGMAX) & IMGMASK) |
                     (((imageint) (image[3 * i + 1] + IMGMAX) & IMGMASK) << IMGBITS) |
                     (((imageint) (image[3 * i + 2] + IMGMAX) & IMGMASK) << IMG2BITS);
}

/* ----------------------------------------------------------------------
   the shrink-wrapped box the device set at its last list build (Domain::reset_box()
   as LAMMPS runs it at each reneighbouring): thermo Volume, Lx, ... read it
------------------------------------------------------------------------- */

void VerletCuda::device_box_to_host()
{
  engine->get_box(domain->boxlo, domain->boxhi);
  domain->set_global_box();
  domain->set_local_box();
  box_moved = true;
}

void VerletCuda::sync_for_host_code()
{
  if (synced) return;
  sync_atoms();
  if (!host_lists_needed) return;
  // one rank: the atoms stay where they are (pbc wraps them into the box), so LAMMPS
  // order and the device map are unchanged; ghosts and lists are rebuilt (for the box of
  // now, if a barostat changed it: as Verlet does on its reneighbouring steps)
  domain->pbc();
  // the box moved (a barostat, or the device's shrink-wrap at its last build): the host's
  // bins and ghost cutoffs follow it
  if (domain->box_change || box_moved) {
    comm->setup();
    if (neighbor->style) neighbor->setup_bins();
    box_moved = false;
  }
  comm->exchange();
  comm->borders();
  neighbor->build(1);
}

/* ----------------------------------------------------------------------
   per-atom energies/virials into the styles' eatom/vatom (compute pe/atom,
   stress/atom read them at output or end-of-step)
------------------------------------------------------------------------- */

void VerletCuda::publish_per_atom(int eflag_, int vflag_)
{
  if (reverse_forces)
    error->all(FLERR, "run_style verlet/cuda: per-atom energies or virials (compute pe/atom, "
                      "stress/atom) of bonded styles on several MPI ranks need newton_bond off "
                      "(newton on off)");
  try {
    auto per_atom = [&](auto *style) {
      if (style) dynamic_cast<DeviceForce *>(style)->device_per_atom(*engine, eflag_, vflag_);
    };
    per_atom(force->pair);
    per_atom(force->bond);
    per_atom(force->angle);
    per_atom(force->dihedral);
  } catch (std::runtime_error &e) {
    step_error(e);
  }
}

/* ----------------------------------------------------------------------
   global energies and virial from device reductions into the force styles
------------------------------------------------------------------------- */

void VerletCuda::publish_energy_virial()
{
  try {
    {
      const mesogpu::cuda::EnergyVirial ev = engine->reduce_energy_virial();
      if (force->pair) {
        force->pair->eng_vdwl = ev.e_pair;
        force->pair->eng_coul = 0.0;
        for (int k = 0; k < 6; k++) force->pair->virial[k] = ev.v_pair[k];
      }
      if (force->bond) {
        force->bond->energy = ev.e_bond;
        for (int k = 0; k < 6; k++) force->bond->virial[k] = ev.v_bond[k];
      }
      if (force->angle) {
        force->angle->energy = ev.e_angle;
        for (int k = 0; k < 6; k++) force->angle->virial[k] = ev.v_angle[k];
      }
      if (force->dihedral) {
        force->dihedral->energy = ev.e_dihedral;
        for (int k = 0; k < 6; k++) force->dihedral->virial[k] = ev.v_dihedral[k];
      }
    }
  } catch (std::runtime_error &e) {
    step_error(e);
  }
}

/* ----------------------------------------------------------------------
   bonds made or broken on the device into LAMMPS's arrays (part of sync_atoms)
------------------------------------------------------------------------- */

void VerletCuda::sync_topology()
{
  if (engine) mesogpu::download_device_topology(lmp, *engine);
}
