/* mesogpu: the host half of the ghost exchange on several ranks; see device_comm.h. */

#include "device_comm.h"

#include "atom.h"
#include "comm.h"
#include "device_bodies.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "modify.h"
#include "pair.h"
#include "pair_gauss_cuda.h"
#include "pair_harmonic_cut_cuda.h"
#include "pair_hybrid_cuda.h"
#include "pair_lj_cut_cuda.h"
#include "pair_table_r2_cuda.h"
#include "pair_zero_cuda.h"

#include <cstring>
#include <mpi.h>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

DeviceComm::DeviceComm(LAMMPS *lmp) : Pointers(lmp), plan(lmp) {}

void DeviceComm::rebuild(Engine &engine)
{
  plan.rebuild();    // an error naming comm_style tiled, which has no such plan
  if (plan.nghost() != atom->nghost)
    error->one(FLERR, "run_style verlet/cuda: the ghost plan receives {} atoms, LAMMPS has {}",
               plan.nghost(), atom->nghost);
  engine.set_ghost_plan(plan.send_index());
}

void DeviceComm::forward(Engine &engine)
{
  for (const CommBrickPlan::Swap &s : plan.swaps()) {
    double d[3];
    plan.shift(s, d);
    if (s.send_proc == comm->me) {
      // CommBrick's swap with itself: the same values, no message
      engine.copy_positions(s.send_offset, s.send_count, d, s.pbc_flag != 0, s.first_recv);
      continue;
    }
    send_buf.resize(3 * (size_t) s.send_count);
    recv_buf.resize(3 * (size_t) s.recv_count);
    engine.pack_positions(s.send_offset, s.send_count, d, s.pbc_flag != 0, send_buf.data());
    MPI_Sendrecv(send_buf.data(), 3 * s.send_count, MPI_DOUBLE, s.send_proc, 0, recv_buf.data(),
                 3 * s.recv_count, MPI_DOUBLE, s.recv_proc, 0, world, MPI_STATUS_IGNORE);
    engine.unpack_positions(s.first_recv, s.recv_count, recv_buf.data());
  }
}

void DeviceComm::reverse(Engine &engine)
{
  const auto &swaps = plan.swaps();
  for (int k = static_cast<int>(swaps.size()) - 1; k >= 0; k--) {
    const CommBrickPlan::Swap &s = swaps[k];
    if (s.send_proc == comm->me) {
      engine.copy_add_forces(s.first_recv, s.recv_count, s.send_offset);
      continue;
    }
    // the ghosts' forces go back to the rank they came from, the owners' come in from
    // the rank they were sent to
    send_buf.resize(3 * (size_t) s.recv_count);
    recv_buf.resize(3 * (size_t) s.send_count);
    engine.pack_forces(s.first_recv, s.recv_count, send_buf.data());
    MPI_Sendrecv(send_buf.data(), 3 * s.recv_count, MPI_DOUBLE, s.recv_proc, 0, recv_buf.data(),
                 3 * s.send_count, MPI_DOUBLE, s.send_proc, 0, world, MPI_STATUS_IGNORE);
    engine.unpack_add_forces(s.send_offset, s.send_count, recv_buf.data());
  }
}

void DeviceComm::node_rank_size(MPI_Comm world, int &rank, int &size)
{
  MPI_Comm node;
  int me = 0;
  MPI_Comm_rank(world, &me);
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
}

/* ----------------------------------------------------------------------
   what runs on several ranks now: isotropic pair styles of the pair kernel (no ghost
   velocities, orientations or bodies), the atom-centric bonded kernels, the integrators
   and thermostats whose sums go through the engine's sum over ranks
------------------------------------------------------------------------- */

void DeviceComm::check_styles(LAMMPS *lmp, bool host_lists)
{
  Error *error = lmp->error;
  Force *force = lmp->force;
  const int nprocs = lmp->comm->nprocs;
  auto refuse = [&](const char *kind, const char *style, const char *supported) {
    error->all(FLERR,
               "run_style verlet/cuda: {} style {} does not run on several MPI ranks yet (this "
               "run has {}; multi-rank device {} styles: {}); run it on one rank",
               kind, style, nprocs, kind, supported);
  };
  if (lmp->comm->style != Comm::BRICK)
    error->all(FLERR, "run_style verlet/cuda on several MPI ranks needs comm_style brick (this "
                      "run uses comm_style tiled)");

  static const char *const pair_list = "lj/cut, gauss, harmonic/cut, table/r2, zero (/cuda), and "
                                       "hybrid/cuda or hybrid/overlay/cuda of them";
  auto isotropic = [](Pair *p) {
    return dynamic_cast<PairLJCutCuda *>(p) || dynamic_cast<PairGaussCuda *>(p) ||
           dynamic_cast<PairHarmonicCutCuda *>(p) || dynamic_cast<PairTableR2Cuda *>(p) ||
           dynamic_cast<PairZeroCuda *>(p);
  };
  if (force->pair) {
    const bool hybrid = dynamic_cast<PairHybridCuda *>(force->pair) ||
                        dynamic_cast<PairHybridOverlayCuda *>(force->pair);
    bool ok = isotropic(force->pair);
    if (hybrid) {
      ok = true;
      for (Pair *sub : device_util::hybrid_sub_styles(force->pair)) ok &= isotropic(sub);
    }
    if (!ok) refuse("pair", force->pair_style, pair_list);
  }
  auto one_of = [](const char *style, std::initializer_list<const char *> names) {
    for (const char *n : names)
      if (style && strcmp(style, n) == 0) return true;
    return false;
  };
  if (force->bond && !one_of(force->bond_style, {"harmonic/cuda", "fene/cuda", "table/cuda"}))
    refuse("bond", force->bond_style, "harmonic, fene, table (/cuda)");
  if (force->angle &&
      !one_of(force->angle_style, {"harmonic/cuda", "cosine/squared/cuda", "table/cuda"}))
    refuse("angle", force->angle_style, "harmonic, cosine/squared, table (/cuda)");
  if (force->dihedral && !one_of(force->dihedral_style, {"harmonic/cuda", "table/cuda"}))
    refuse("dihedral", force->dihedral_style, "harmonic, table (/cuda)");

  // device fixes that act on owned atoms only, with global sums; host observers are fine
  for (auto &ifix : lmp->modify->get_fix_list()) {
    if (!dynamic_cast<DeviceFix *>(ifix)) continue;
    if (!one_of(ifix->style,
                {"nve/cuda", "langevin/cuda", "nvt/cuda", "temp/berendsen/cuda", "momentum/cuda"}))
      error->all(FLERR,
                 "run_style verlet/cuda: fix {} (style {}) does not run on several MPI ranks yet "
                 "(this run has {}; multi-rank device fixes: nve, langevin, nvt, temp/berendsen, "
                 "momentum without angular (/cuda)); run it on one rank",
                 ifix->id, ifix->style, nprocs);
  }
  Atom *atom = lmp->atom;
  if ((atom->mu_flag && atom->omega_flag && atom->torque_flag) || mesogpu::atoms_have_bodies(lmp))
    error->all(FLERR,
               "run_style verlet/cuda: oriented particles and rigid bodies (atom style {}) "
               "do not run on several MPI ranks yet; run on one rank",
               atom->atom_style);
  if (host_lists)
    error->all(FLERR, "run_style verlet/cuda: a compute or fix with its own neighbour list (rdf, "
                      "...) does not run with a resident run on several MPI ranks yet");
}
