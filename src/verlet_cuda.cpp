/* mesogpu: run_style verlet/cuda; see verlet_cuda.h. */

#include "verlet_cuda.h"

#include "angle.h"
#include "atom.h"
#include "bond.h"
#include "comm.h"
#include "cuda/device_bodies.h"
#include "cuda/device_comm.h"
#include "cuda/device_rebuild.h"
#include "cuda/device_topology.h"
#include "cuda/device_topology_sync.h"
#include "cuda/gpu_choice.h"
#include "cuda/owned_topology.h"
#include "cuda/device_style_util.h"
#include "cuda/device_styles.h"
#include "cuda/pair_hybrid_cuda.h"
#include "cuda/rank_timing.h"
#include "dihedral.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "memory_table.h"
#include "mesogpu_cuda.h"
#include "mesogpu_plugin.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "output.h"
#include "platform.h"
#include "pair.h"
#include "timer.h"
#include "update.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <mpi.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>    // MPIX_Query_cuda_support (Open MPI's cuda extension)
#endif
#endif
#include <vector>

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {
// Domain::small (the shrink-wrap margin, protected): read through a member pointer formed
// in a derived class, the one legal way in
struct DomainSmall : Domain {
  static const double *of(Domain *d)
  {
    double(Domain::*p)[3] = &DomainSmall::small;
    return d->*p;
  }
};
const double *domain_small(Domain *d)
{
  return DomainSmall::of(d);
}
}    // namespace

/* ----------------------------------------------------------------------
   exchange cuda-aware (or MESOGPU_EXCHANGE=cuda-aware): device buffers handed to MPI,
   the way between nodes. Only where the MPI library says at run time (Open MPI's
   MPIX_Query_cuda_support) that it takes device pointers: one that does not would read
   them as host memory. "" when it does, else why not.
------------------------------------------------------------------------- */

static std::string cuda_aware_missing()
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  const int aware = MPIX_Query_cuda_support();
#else
  const int aware = -1;
#endif
  if (aware == 0)
    return "cuda-aware: this MPI library is not CUDA-aware (MPIX_Query_cuda_support() returns "
           "0), so device buffers cannot be handed to it; use exchange ipc (ranks of one node: "
           "device to device through CUDA IPC) or exchange host";
  if (aware < 0)
    return "cuda-aware: this MPI library cannot say whether it is CUDA-aware (it has no "
           "MPIX_Query_cuda_support); use exchange ipc (ranks of one node) or exchange host";
  return "";
}

/* ---------------------------------------------------------------------- */

VerletCuda::VerletCuda(LAMMPS *lmp, int narg, char **arg) :
    Verlet(lmp, narg, arg), synced(true), thermo_device_only(false), host_lists_needed(false)
{
  // several ranks per GPU: MESOGPU_GPU_SHARE (for -sf cuda runs), then the keyword
  std::string why;
  const char *env = std::getenv("MESOGPU_GPU_SHARE");
  if (env && !mesogpu::parse_share(env, share_gpu, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_GPU_SHARE: {}", why);
  // the forward exchange of ghost positions: MESOGPU_EXCHANGE, then the keyword exchange
  // (where the path came from, for the refusal of cuda-aware once the keywords are read)
  std::string exchange_from;
  env = std::getenv("MESOGPU_EXCHANGE");
  if (env && !mesogpu::parse_exchange(env, exchange, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_EXCHANGE: {}", why);
  if (env) exchange_from = "environment variable MESOGPU_EXCHANGE: ";
  // the device memory report by array: MESOGPU_MEMORY_REPORT, then the keyword memory
  if (!mesogpu::memtable::parse_report_env(std::getenv("MESOGPU_MEMORY_REPORT"), memory_report,
                                           why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_MEMORY_REPORT: {}", why);
  // the neighbour list's entries: MESOGPU_LIST_ENTRIES, then the keyword list_entries
  env = std::getenv("MESOGPU_LIST_ENTRIES");
  if (env && !mesogpu::parse_list_entries(env, list_entries, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_LIST_ENTRIES: {}", why);
  // the list without the skin: MESOGPU_TIGHT_LIST, then the keyword tight_list
  env = std::getenv("MESOGPU_TIGHT_LIST");
  if (env && !mesogpu::parse_tight_list(env, tight_list, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_TIGHT_LIST: {}", why);
  // the overlap of the forward exchange with interior forces: MESOGPU_OVERLAP, then overlap
  env = std::getenv("MESOGPU_OVERLAP");
  if (env && !mesogpu::parse_yes_no(env, overlap, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_OVERLAP: {}", why);
  // reneighbouring steps on several ranks: MESOGPU_REBUILD (for -sf cuda runs), then rebuild
  env = std::getenv("MESOGPU_REBUILD");
  if (env && !mesogpu::parse_rebuild(env, rebuild_on_device, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_REBUILD: {}", why);
  // the steps of each run that a profiler records (ncu --profile-from-start off)
  env = std::getenv("MESOGPU_PROFILE_STEPS");
  if (env && !mesogpu::parse_profile_steps(env, profile_first, profile_count, why))
    error->all(FLERR, "run_style verlet/cuda: environment variable MESOGPU_PROFILE_STEPS: {}", why);
  for (int i = 0; i < narg; i++) {
    if (strcmp(arg[i], "share") == 0) {
      if (i + 1 >= narg)
        error->all(FLERR, "run_style verlet/cuda: keyword share needs a value (yes or no)");
      if (!mesogpu::parse_share(arg[i + 1], share_gpu, why))
        error->all(FLERR, "run_style verlet/cuda: share {}", why);
      i++;
    } else if (strcmp(arg[i], "rebuild") == 0) {
      // reneighbouring steps on several ranks: on the device or through the host
      if (i + 1 >= narg || !mesogpu::parse_rebuild(arg[i + 1], rebuild_on_device, why))
        error->all(FLERR, "run_style verlet/cuda: rebuild {}",
                   i + 1 < narg ? why : "needs a value (device or host)");
      i++;
    } else if (strcmp(arg[i], "exchange") == 0) {
      // the ghost exchange between ranks: host memory, CUDA IPC (one node) or device
      // buffers handed to a CUDA-aware MPI
      if (i + 1 >= narg || !mesogpu::parse_exchange(arg[i + 1], exchange, why))
        error->all(FLERR, "run_style verlet/cuda: exchange {}",
                   i + 1 < narg ? why : "needs a value (host, ipc or cuda-aware)");
      exchange_from = "exchange ";
      i++;
    } else if (strcmp(arg[i], "memory") == 0) {
      // the device memory report by array at the end of setup and of the run
      if (i + 1 >= narg || (strcmp(arg[i + 1], "yes") != 0 && strcmp(arg[i + 1], "no") != 0))
        error->all(FLERR, "run_style verlet/cuda: keyword memory needs a value (yes or no)");
      memory_report = strcmp(arg[i + 1], "yes") == 0;
      i++;
    } else if (strcmp(arg[i], "list_entries") == 0) {
      // 16-bit cell entries or 32-bit indices in the neighbour list
      if (i + 1 >= narg || !mesogpu::parse_list_entries(arg[i + 1], list_entries, why))
        error->all(FLERR, "run_style verlet/cuda: list_entries {}",
                   i + 1 < narg ? why : "needs a value (auto, 16 or 32)");
      i++;
    } else if (strcmp(arg[i], "tight_list") == 0) {
      // the list without the skin, built at every step, where it would live one step
      if (i + 1 >= narg || !mesogpu::parse_tight_list(arg[i + 1], tight_list, why))
        error->all(FLERR, "run_style verlet/cuda: tight_list {}",
                   i + 1 < narg ? why : "needs a value (auto, yes or no)");
      i++;
    } else if (strcmp(arg[i], "overlap") == 0) {
      // several ranks: interior atoms' forces while the ghosts' positions travel
      if (i + 1 >= narg || !mesogpu::parse_yes_no(arg[i + 1], overlap, why))
        error->all(FLERR, "run_style verlet/cuda: overlap {}",
                   i + 1 < narg ? why : "needs a value (yes or no)");
      i++;
    } else {
      error->all(
          FLERR,
          "run_style verlet/cuda: unknown keyword '{}' (allowed: share yes|no, rebuild "
          "device|host, memory yes|no, exchange host|ipc|cuda-aware, list_entries auto|16|32, "
          "tight_list auto|yes|no, overlap yes|no)",
          arg[i]);
    }
  }
  // exchange cuda-aware only with an MPI library that takes device buffers (the keyword
  // overrides the variable, so a variable asking for it is refused only if it stays)
  if (exchange == mesogpu::ExchangePath::cuda_aware) {
    const std::string missing = cuda_aware_missing();
    if (!missing.empty()) error->all(FLERR, "run_style verlet/cuda: {}{}", exchange_from, missing);
  }
}

VerletCuda::~VerletCuda() = default;

void VerletCuda::device_error(const char *what, const std::exception &e)
{
  // a device error is seen by one rank: error->all would wait for the others forever
  if (comm->nprocs > 1)
    error->one(FLERR, "run_style verlet/cuda: rank {}: {}: {}", comm->me, what, e.what());
  error->all(FLERR, "run_style verlet/cuda: {}: {}", what, e.what());
}

void VerletCuda::step_error(const std::exception &e)
{
  device_error(fmt::format("step {}", update->ntimestep).c_str(), e);
}

void VerletCuda::init()
{
  Verlet::init();
  check_styles();
}

/* ----------------------------------------------------------------------
   device copy of the system: atoms, special lists, bonds, neighbour settings,
   force-field parameters
------------------------------------------------------------------------- */

void VerletCuda::upload()
{
  const int n = atom->nlocal;
  const int ntypes = atom->ntypes;
  // device rows: the owned atoms, and on several ranks their ghosts after them
  const int rows = multi_rank ? n + atom->nghost : n;

  // LAMMPS order is device order; tags map to indices (owned atoms only, no ghosts)
  bigint maxtag = 0;
  if (!multi_rank) {
    for (int i = 0; i < n; i++) maxtag = MAX(maxtag, atom->tag[i]);
    tag_to_index.assign(maxtag + 1, -1);
    for (int i = 0; i < n; i++) tag_to_index[atom->tag[i]] = i;
  }
  auto index_of = [&](tagint tag, const char *what, int i) {
    if (multi_rank) {
      // the image of the partner closest to atom i among owned atoms and ghosts, as
      // LAMMPS's topology builders take it; a 1-3 or 1-4 partner beyond the ghost
      // cutoff is no neighbour anyway
      const int m = atom->map(tag);
      if (m >= 0) return domain->closest_image(i, m);
      if (strcmp(what, "special list") == 0) return -1;
      error->one(FLERR,
                 "run_style verlet/cuda: {} of atom {} refers to atom {}, which is neither "
                 "owned nor a ghost on rank {} (raise comm_modify cutoff)",
                 what, atom->tag[i], tag, comm->me);
    }
    if (tag < 0 || tag > maxtag || tag_to_index[tag] < 0)
      error->one(FLERR, "run_style verlet/cuda: {} of atom {} refers to missing atom {}", what,
                 atom->tag[i], tag);
    return tag_to_index[tag];
  };

  std::vector<int> image(3 * (size_t) rows, 0);    // ghosts: 0 (never unwrapped)
  for (size_t i = 0; i < (size_t) n; i++) {
    const imageint im = atom->image[i];
    image[3 * i + 0] = (im & IMGMASK) - IMGMAX;
    image[3 * i + 1] = (im >> IMGBITS & IMGMASK) - IMGMAX;
    image[3 * i + 2] = (im >> IMG2BITS) - IMGMAX;
  }
  // per-type masses, unless the atom style has per-atom masses (rmass; atom_style ellipsoid
  // has no per-type ones), as Atom::check_mass asks
  if (!atom->rmass_flag && !atom->mass_setflag)
    error->all(FLERR, "run_style verlet/cuda: masses are not set");
  std::vector<double> mass(ntypes + 1, 0.0);
  if (atom->mass) mass.assign(atom->mass, atom->mass + ntypes + 1);

  try {
    if (!engine) {
      if (comm->nprocs > 1) select_device();
      engine = std::make_unique<mesogpu::cuda::Engine>();
    }
    engine->set_box(domain->boxlo, domain->boxhi);
    // boundaries: non-periodic sides neither wrap nor take images; shrink-wrapped ones
    // follow the atoms at each device list build (Domain::reset_box())
    mesogpu::cuda::HostBoundary bnd;
    for (int d = 0; d < 3; d++) {
      for (int k = 0; k < 2; k++) bnd.boundary[d][k] = domain->boundary[d][k];
      bnd.small[d] = domain_small(domain)[d];
    }
    bnd.minlo[0] = domain->minxlo;
    bnd.minhi[0] = domain->minxhi;
    bnd.minlo[1] = domain->minylo;
    bnd.minhi[1] = domain->minyhi;
    bnd.minlo[2] = domain->minzlo;
    bnd.minhi[2] = domain->minzhi;
    if (multi_rank) {
      // the rank's subdomain grown past the ghost cutoff, non-periodic on every side: plain
      // differences, no minimum image (a rank may hold several images of one atom), no
      // wrap; the host's exchange and borders move atoms between ranks at each rebuild
      double lo[3], hi[3];
      device_util::engine_box(lmp, lo, hi);
      for (int d = 0; d < 3; d++) {
        bnd.boundary[d][0] = bnd.boundary[d][1] = 1;
        bnd.small[d] = 0.0;
      }
      engine->set_box(lo, hi);
    }
    engine->set_boundary(bnd);
    if (multi_rank) {
      // ghosts' forces are neither sent nor used: zero; their velocities are their owners'
      // with comm_modify vel yes (borders() sent them; pair dpd/cuda reads them), else zero
      std::vector<double> v(3 * (size_t) rows, 0.0), f(3 * (size_t) rows, 0.0);
      const int vrows = comm->ghost_velocity ? rows : n;
      if (vrows) std::copy(atom->v[0], atom->v[0] + 3 * (size_t) vrows, v.begin());
      if (n) std::copy(atom->f[0], atom->f[0] + 3 * (size_t) n, f.begin());
      engine->upload_atoms(rows, ntypes, rows ? atom->x[0] : nullptr, v.data(), f.data(),
                           image.data(), atom->type, mass.data());
      engine->set_owned(n);
      engine->set_global_sum([this](double *values, int count) {
        MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, world);
      });
    } else {
      engine->upload_atoms(n, ntypes, n ? atom->x[0] : nullptr, n ? atom->v[0] : nullptr,
                           n ? atom->f[0] : nullptr, image.data(), atom->type, mass.data());
    }
    engine->upload_mask(atom->mask);
    static_assert(sizeof(tagint) == sizeof(int), "device tags are 32-bit");
    engine->upload_tags(reinterpret_cast<const int *>(atom->tag));
    if (atom->rmass_flag) engine->upload_rmass(atom->rmass);
    // oriented particles (atom_style hybrid sphere dipole): n = mu/|mu|, omega, torque
    // (several ranks: the ghosts' too, borders() sent their mu; their omega only with
    // comm_modify vel yes, and no kernel reads it: zero)
    if (atom->mu_flag && atom->omega_flag && atom->torque_flag) {
      std::vector<double> omega(3 * (size_t) rows, 0.0);
      if (n) std::copy(atom->omega[0], atom->omega[0] + 3 * (size_t) n, omega.begin());
      engine->upload_orientation(rows ? atom->mu[0] : nullptr, omega.data());
    }
    // single-site rigid bodies (ellipsoid quaternions, angmom, torque)
    if (mesogpu::atoms_have_bodies(lmp)) mesogpu::upload_bodies(lmp, *engine);
    // several ranks: the host's per-atom values a device rebuild carries with the atoms
    if (multi_rank) upload_carried_columns(lmp, *engine);

    // special neighbours (1-2, 1-3, 1-4), bonds, angles, dihedrals as per-atom lists of
    // device indices, from the atoms' arrays or expanded from atom_style template's
    // molecule templates (cuda/device_topology.cpp)
    // room for more bonds on the host (bond_per_atom above the most any atom stores:
    // extra/bond/per/atom of read_data or create_box): the device keeps bond lists with
    // as much spare capacity (and the bond term) even before the first bond, for bonds
    // made on the device
    int spare_bonds = 0;
    if (atom->molecular == Atom::MOLECULAR && atom->num_bond) {
      int stored = 0;
      for (int i = 0; i < n; i++) stored = MAX(stored, atom->num_bond[i]);
      spare_bonds = atom->bond_per_atom - stored;
    }
    // bonds made by device fixes (chain growth) need room even after the host slots of some
    // atoms filled up (the second run of a growing chain)
    int fix_room = 0;
    for (auto *f : fix_device) fix_room = MAX(fix_room, f->device_bond_room());
    const bool editable = spare_bonds > 0 || (fix_room > 0 && atom->molecular == Atom::MOLECULAR);
    const bool have_bonds = force->bond && (atom->nbonds > 0 || editable);
    const bool have_angles = force->angle && atom->nangles > 0;
    const bool have_dihedrals = force->dihedral && atom->ndihedrals > 0;
    // (several ranks, MESOGPU_RANK_TIMING: what a host-path rebuild spends on the topology)
    if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_UP);
    mesogpu::DeviceTopology topo;
    mesogpu::build_device_topology(lmp, index_of, true, have_bonds, have_angles, have_dihedrals,
                                   topo, rows);
    // bonds made on the device need special lists with LAMMPS's flags even when no atom
    // has special neighbours yet (monomers before polymerization)
    if (topo.maxspecial == 0 && have_bonds && editable) {
      topo.maxspecial = 1;
      topo.nspecial.assign(3 * (size_t) rows, 0);
      topo.special.assign(rows, -1);
    }
    // several ranks, molecular atoms: the special factors even where no atom of this rank
    // has special neighbours now (a reneighbouring step on the device may bring some)
    const bool owned_rows = multi_rank && atom->molecular == Atom::MOLECULAR;
    if (topo.maxspecial > 0 || owned_rows)
      engine->upload_special(topo.maxspecial ? topo.nspecial.data() : nullptr,
                             topo.maxspecial ? topo.special.data() : nullptr, topo.maxspecial,
                             neighbor->special_flag, force->special_lj);
    if (have_bonds) {
      engine->upload_bonds(topo.nbond.data(), topo.bond_partner.data(), topo.bond_type.data(),
                           topo.maxbond);
      dynamic_cast<DeviceForce *>(force->bond)->device_setup(*engine);
    }
    if (have_angles) {
      engine->upload_angles(topo.nangle.data(), topo.angle_atoms.data(), topo.angle_type.data(),
                            topo.maxangle);
      dynamic_cast<DeviceForce *>(force->angle)->device_setup(*engine);
    }
    if (have_dihedrals) {
      engine->upload_dihedrals(topo.ndihedral.data(), topo.dihedral_atoms.data(),
                               topo.dihedral_type.data(), topo.maxdihedral);
      dynamic_cast<DeviceForce *>(force->dihedral)->device_setup(*engine);
    }
    // spare capacity for bonds made on the device (engine.h: topology edits): the host's
    // spare on top of the most bonds any atom has (both directions), the
    // special lists as wide as LAMMPS's (maxspecial includes extra/special/per/atom),
    // rebuilt as deep as Special::build goes
    if (have_bonds && editable) {
      int levels = 3;
      if (force->special_lj[3] == 1.0 && force->special_coul[3] == 1.0)
        levels = (force->special_lj[2] == 1.0 && force->special_coul[2] == 1.0) ? 1 : 2;
      if ((force->special_angle || force->special_dihedral) && comm->me == 0)
        error->warning(FLERR, "run_style verlet/cuda: bonds made on the device rebuild the "
                              "special lists without special_bonds angle/dihedral yes trimming");
      engine->reserve_topology(MAX(topo.maxbond + spare_bonds, fix_room), atom->maxspecial, levels);
    }
    topo = mesogpu::DeviceTopology();    // host copies freed before the list build
    // several ranks, molecular atoms: LAMMPS's topology of the owned atoms as rows of atom
    // IDs (and their charges), which move with the atoms when a reneighbouring step runs on
    // the device, and from which the device lists are made again (src/cuda/owned_topology.h)
    if (owned_rows) {
      const mesogpu::cuda::OwnedTopologyLayout layout =
          mesogpu::owned_topology_layout(lmp, have_bonds, have_angles, have_dihedrals);
      std::vector<int> topology_rows;
      mesogpu::pack_owned_topology(lmp, layout, topology_rows);
      engine->upload_owned_topology(layout, topology_rows.data(),
                                    atom->q_flag && atom->q ? atom->q : nullptr);
    }
    if (rank_timing) rank_timing->mark(RankTiming::REB_HOST_TOPO);

    // neigh_modify exclude: the same pairs leave the device list (Neighbor::init() has
    // turned the group names into bits by now)
    if (neighbor->exclude) {
      mesogpu::cuda::HostExclusions ex;
      if (neighbor->nex_type) {
        ex.ex_type.assign((ntypes + 1) * (ntypes + 1), 0);
        for (int i = 1; i <= ntypes; i++)
          for (int j = 1; j <= ntypes; j++)
            ex.ex_type[i * (ntypes + 1) + j] = neighbor->ex_type[i][j];
      }
      for (int m = 0; m < neighbor->nex_group; m++) {
        ex.group1.push_back(neighbor->ex1_bit[m]);
        ex.group2.push_back(neighbor->ex2_bit[m]);
      }
      for (int m = 0; m < neighbor->nex_mol; m++) {
        ex.mol_bit.push_back(neighbor->ex_mol_bit[m]);
        ex.mol_intra.push_back(neighbor->ex_mol_intra[m]);
      }
      if (neighbor->nex_mol) {
        if (!atom->molecule_flag)
          error->all(FLERR,
                     "run_style verlet/cuda: neigh_modify exclude molecule needs molecule IDs");
        static_assert(sizeof(tagint) == sizeof(int), "device molecule IDs are 32-bit");
        ex.molecule.assign(atom->molecule, atom->molecule + rows);
      }
      engine->set_exclusions(ex);
    }

    std::vector<double> cutneighsq((ntypes + 1) * (ntypes + 1), 0.0);
    for (int i = 1; i <= ntypes; i++)
      for (int j = 1; j <= ntypes; j++)
        cutneighsq[i * (ntypes + 1) + j] = neighbor->cutneighsq[i][j];
    // the device sorts along a space-filling curve as often as LAMMPS would sort atoms
    // (atom_modify sort N; 0 turns it off)
    // (several ranks: not here, the rows stay in LAMMPS's order of owned atoms and ghosts;
    // a device rebuild sorts the owned rows between the exchange and the borders)
    engine->set_sort(multi_rank ? 0 : atom->sortfreq);
    engine->set_list_entries(list_entries);
    engine->set_tight_list(tight_list);
    engine->set_overlap(multi_rank && overlap);
    engine->set_neighbor(neighbor->cutneighmax, neighbor->skin, cutneighsq, neighbor->every,
                         neighbor->delay, neighbor->dist_check != 0);
    if (force->pair) dynamic_cast<DeviceForce *>(force->pair)->device_setup(*engine);
    if (multi_rank) upload_ghost_plan();
  } catch (std::runtime_error &e) {
    device_error("setup", e);
  }
}

/* ----------------------------------------------------------------------
   the setup of Verlet::setup() / setup_minimal() with the forces of the first step
   from the device: the host wraps atoms, exchanges and builds ghosts (and the bond
   topology) as usual, but builds no pair neighbour list that only the pair style would
   read and computes no forces: at 10^8 atoms those two took minutes on one core. Host
   fixes' setup (fix langevin's first random forces, fix mdscf's field forces, the
   thermostats' first temperature) runs on the device forces, which then go back up.
------------------------------------------------------------------------- */

void VerletCuda::setup(int flag)
{
  if (comm->me == 0 && screen) {
    fputs("Setting up Verlet/cuda run ...\n", screen);
    if (flag) {
      utils::print(screen,
                   "  Unit style    : {}\n"
                   "  Current step  : {}\n"
                   "  Time step     : {}\n",
                   update->unit_style, update->ntimestep, update->dt);
      timer->print_timeout(screen);
    }
  }
  resident_setup(flag, true);
}

void VerletCuda::setup_minimal(int flag)
{
  resident_setup(flag, false);
}

void VerletCuda::resident_setup(int flag, bool full)
{
  check_styles();
  if (full) read_fusion_switches();    // MESOGPU_FUSED_FINAL and _CHECK, before the device starts
  update->setupflag = 1;
  const double t0 = platform::walltime();
  if (full) {
    rebuilds_device = rebuilds_host = 0;
    if (device_rebuild) device_rebuild->new_run();
  }
  if (full && memory_report) mesogpu::memtable::reset_peaks();    // peaks of this run

  // host lists of computes/fixes (rdf, ...) are built, and refreshed at sync steps
  find_host_lists();
  if (multi_rank) DeviceComm::check_styles(lmp, host_lists_needed);
  if (full) atom->setup();
  // after reneighbouring on the device the host's ghosts are stale: always rebuilt here
  const bool last_run_device = host_ghosts_stale();
  const bool ghosts_stale = device_rebuild_pending() || last_run_device;
  if (full || flag || ghosts_stale) {
    if (device_rebuild_pending()) sync_rebuilt_atoms();
    modify->setup_pre_exchange();
    domain->pbc();
    domain->reset_box();
    comm->setup();
    if (neighbor->style) neighbor->setup_bins();
    comm->exchange();
    // no host atom->sort(): the device sorts its copy at its first list build
    comm->borders();
    domain->image_check();
    domain->box_too_small_check();
    modify->setup_pre_neighbor();
    if (host_lists_needed) {
      neighbor->build(1);
    } else {
      // Neighbor::build()'s bookkeeping and the bond topology (compute bond/local, ...),
      // without the pair list nobody reads
      neighbor->ago = 0;
      neighbor->ncalls++;
      neighbor->lastcall = update->ntimestep;
      if (atom->molecular != Atom::ATOMIC) neighbor->build_topology();
    }
    modify->setup_post_neighbor();
    neighbor->ncalls = 0;
  }
  if (full) force->setup();
  ev_set(update->ntimestep);
  force_clear();
  modify->setup_pre_force(vflag);
  if (vflag & VIRIAL_CENTROID)
    error->all(FLERR, "run_style verlet/cuda: the centroid per-atom virial (compute "
                      "centroid/stress/atom) is not supported in resident runs");
  const double t1 = platform::walltime();

  upload();    // atoms, topology, force styles; the device's first list build follows
  const double t2 = platform::walltime();

  const int n = atom->nlocal;
  try {
    engine->build_neighbor_list();
    engine->set_step(update->ntimestep, update->dt);
    device_forces(eflag, vflag);
    engine->download_atoms(nullptr, nullptr, n ? atom->f[0] : nullptr, nullptr);
    if (n && engine->has_orientation())
      engine->download_orientation(nullptr, nullptr, atom->torque[0]);
    mesogpu::download_bodies(lmp, *engine, false);
    engine->check_errors();
  } catch (std::runtime_error &e) {
    device_error("setup", e);
  }
  if ((eflag & ENERGY_ATOM) || (vflag & VIRIAL_ATOM)) publish_per_atom(eflag, vflag);
  if (eflag || vflag) publish_energy_virial();
  const double t3 = platform::walltime();

  modify->setup_pre_reverse(eflag, vflag);
  if (force->newton) comm->reverse_comm();
  synced = true;    // host arrays hold the device state: host computes read them
  modify->setup(vflag);
  try {
    // after their host setup, which leaves what the device parts take (fix mdscf's field)
    for (auto &ifix : modify->get_fix_list())
      if (auto *dfix = dynamic_cast<DeviceFix *>(ifix)) dfix->device_setup(*engine);
    // what host fix setups changed: forces (fix langevin, fix mdscf), omega (fix
    // leapfrog/aniso projects it), velocities
    if (n)
      engine->upload_setup_state(atom->v[0], atom->f[0],
                                 engine->has_orientation() ? atom->omega[0] : nullptr);
    // angmom too (the rigid-body fixes' setup drops linear bodies' spin about their axis)
    if (engine->has_bodies()) mesogpu::upload_bodies(lmp, *engine);
    // forces fixes add on the device at setup (fix langevin/cuda's first random forces)
    for (auto *f : fix_device) f->device_setup_forces(*engine);
  } catch (std::runtime_error &e) {
    device_error("setup", e);
  }
  check_thermo();
  setup_fusions(full);
  if (full) output->setup(flag);
  update->setupflag = 0;
  const double t4 = platform::walltime();

  if (full && comm->me == 0) log_setup(t1 - t0, t2 - t1, t3 - t2, t4 - t3, n);
  if (full) log_memory("end of setup");
}

/* ----------------------------------------------------------------------
   the timestep loop on the device
------------------------------------------------------------------------- */

void VerletCuda::run(int n)
{
  // device order stays LAMMPS order during the run (no host sorting in between)
  // several ranks with MESOGPU_RANK_TIMING: the phases of each step (rank_timing.h)
  RankTiming *rt = multi_rank ? rank_timing.get() : nullptr;
  auto lap = [rt](RankTiming::Phase p) {
    if (rt) rt->mark(p);
  };
  try {
    if (rt) rt->begin(*engine);
    bool profiling = false;
    for (int i = 0; i < n; i++) {
      if (timer->check_timeout(i)) {
        update->nsteps = i;
        break;
      }
      if (i == profile_first) {
        mesogpu::cuda::profiler_start();
        profiling = true;
      }
      const bigint ntimestep = ++update->ntimestep;
      ev_set(ntimestep);
      if (vflag & VIRIAL_CENTROID)
        error->all(FLERR, "run_style verlet/cuda: the centroid per-atom virial (compute "
                          "centroid/stress/atom) is not supported in resident runs");
      synced = false;

      for (auto *f : fix_initial) f->device_initial_integrate(*engine);
      lap(RankTiming::FIXES);

      // fix balance forces its steps as Neighbor::decide() does (the same on every rank)
      const bool balance = balance_due(ntimestep);
      // a fix's work on the host (fix polymerize/cuda's reactions on several ranks)
      const Fix *host_step = multi_rank ? host_step_due(ntimestep) : nullptr;
      const bool rebuild = decide_rebuild_all_ranks() || balance || host_step;
      lap(RankTiming::DECIDE);
      bool forces_begun = false;
      if (rebuild) {
        if (multi_rank) {
          // on the device, or through the host (balance steps, a fix's host steps)
          rank_rebuild(balance, host_step);
        } else {
          engine->build_neighbor_list();
          if (domain->nonperiodic == 2) device_box_to_host();    // shrink-wrapped
        }
        neighbor->ncalls++;
        neighbor->lastcall = ntimestep;
        neighbor->ago = 0;
        lap(RankTiming::REBUILD);
      } else {
        // overlap yes: the forces of atoms with no ghost neighbour start on a second
        // stream while the ghosts' positions travel
        if (multi_rank && overlap) {
          engine->set_step(ntimestep, update->dt);
          device_forces_begin(eflag, vflag, true);
          forces_begun = true;
        }
        // ghosts' positions, with their orientations (unit vectors, quaternions) after the
        // integrator's drift and their velocities (pair dpd/cuda) after its first half
        if (multi_rank) device_comm->forward(*engine);
        neighbor->ago++;
      }

      if (!forces_begun) {
        engine->set_step(ntimestep, update->dt);
        device_forces_begin(eflag, vflag, false);
      }
      device_forces_finish();
      if ((eflag & ENERGY_ATOM) || (vflag & VIRIAL_ATOM)) publish_per_atom(eflag, vflag);
      if (eflag || vflag) publish_energy_virial();    // a few device sums, no atom data
      lap(RankTiming::SUMS);

      post_force_and_final(vflag);    // one kernel for both where the fixes allow
      for (auto &f : fix_end_of_step) {
        if (ntimestep % f.fix->nevery) continue;
        if (f.device) {
          f.device->device_end_of_step(*engine);
          synced = false;
        } else {
          sync_for_host_code();
          f.fix->end_of_step();
        }
      }
      lap(RankTiming::FIXES);

      if (ntimestep == output->next) {
        // a thermo-only step with device-computable keywords needs no atom download
        const bool thermo_only = output->next_thermo == ntimestep &&
                                 output->next_dump_any != ntimestep &&
                                 output->next_restart != ntimestep;
        if (!(thermo_only && thermo_device_only))
          sync_for_host_code();
        else
          sync_topology();    // thermo 'bonds' reads atom->nbonds
        lap(RankTiming::OUT_SYNC);
        timer->stamp();
        output->write(ntimestep);
        timer->stamp(Timer::OUTPUT);
      } else if (ntimestep % 1000 == 0) {
        engine->check_errors();    // a kernel problem stops the run within 1000 steps
      }
      lap(RankTiming::OUTPUT);
      if (rt) rt->step();
      if (profiling && i + 1 == profile_first + profile_count) {
        mesogpu::cuda::profiler_stop();
        profiling = false;
      }
    }
    if (profiling) mesogpu::cuda::profiler_stop();
    if (rt) rt->end();
  } catch (std::runtime_error &e) {
    step_error(e);
  }
  timer->stamp(Timer::PAIR);
}

void VerletCuda::cleanup()
{
  sync_atoms();
  // after reneighbouring steps on the device the host holds no ghosts of its owned atoms:
  // Verlet::cleanup's box check of molecular systems (and host code after the run) finds
  // bond partners among them. Ghosts as borders() makes them (the atoms stay where they
  // are, the next run's setup exchanges), and the host's bond lists for them
  if (multi_rank && rebuilds_device > 0 && atom->molecular != Atom::ATOMIC) {
    if (atom->map_style != Atom::MAP_NONE) atom->map_clear();    // borders() sets it anew
    comm->borders();
    neighbor->build_topology();
  }
  if (multi_rank) log_rebuilds();
  // the builds of a list without the skin (each step a rebuild while it lasts)
  if (engine && comm->me == 0 && engine->tight_list_builds() > 0)
    utils::logmesg(lmp,
                   "  verlet/cuda tight_list: {} of this run's list builds ({} steps, the "
                   "setup's included) without the skin\n",
                   engine->tight_list_builds(), update->nsteps);
  log_memory("end of the run");
  if (multi_rank && rank_timing) rank_timing->report();
  Verlet::cleanup();
}
