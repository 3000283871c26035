/* mesogpu: the engine's state (Engine::Impl), shared by the parts of cuda/ that define
 * Engine's methods: core/ (atoms, energies), neighbor/ (list, sort), forces/, integrate/,
 * field/. Internal to cuda/. */
#ifndef MESOGPU_CUDA_CORE_ENGINE_IMPL_CUH
#define MESOGPU_CUDA_CORE_ENGINE_IMPL_CUH

#include "core/device_array.cuh"
#include "core/device_types.cuh"
#include "core/per_atom.cuh"
#include "engine.h"
#include "field/field_types.cuh"
#include "forces/force_term.cuh"
#include "mesogpu_cuda.h"
#include "neighbor/list_view.cuh"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  using namespace detail;

  struct Engine::Impl {
    int n = 0, ntypes = 0;
    // several MPI ranks (core/ghosts.cu): rows 0..nlocal-1 are the rank's own atoms, rows
    // nlocal..n-1 ghosts in LAMMPS's order (one rank: nlocal == n). Neighbour lists are
    // built for owned rows only (ghost rows get none, so pair kernels leave them at zero);
    // integrators, thermostat sums and downloads run over owned rows; bonded kernels over
    // all rows (with newton_bond on ghost rows take their share, sent back by the host)
    int nlocal = 0;
    // sums over ranks of a few doubles (MPI_Allreduce on the host; empty: one rank)
    std::function<void(double *, int)> global_sum;
    // the ghost plan on the device: the concatenated send lists of the swaps, and a
    // contiguous staging buffer (3 values per atom)
    DeviceArray<int> comm_send;
    // the send index a device rebuild's borders assemble (border_select), swapped into
    // comm_send by take_border_plan, and its length so far
    DeviceArray<int> border_send;
    int border_send_count = 0;
    DeviceArray<double> comm_buf;
    // page-locked host staging of the exchange: [0] send, [1] receive (exchange_buffer)
    PinnedArray<double> comm_host[2];
    // device buffers a CUDA-aware MPI reads and writes: [0] send, [1] receive
    // (exchange_device_buffer); the swaps pack into them and unpack from them directly
    DeviceArray<double> comm_dev[2];
    // a reneighbouring step on the device (core/migrate.cu): an exchange's send order and
    // moved rows, its leaving rows (count first), a swap's selection and the next swap's
    // (selected with it) and both counts, CUB scratch, exchange records, and the border
    // records of the ghosts received so far
    DeviceArray<int> mig_keep, mig_leave, mig_sel, mig_sel_next, mig_sel_count;
    DeviceArray<char> mig_scratch;
    DeviceArray<double> mig_rec, ghost_rec;
    int mig_nkeep = 0, mig_nghost = 0, mig_nsel = 0, mig_nsel_next = -1;
    int mig_nmove = 0;            // rows an exchange moves into the holes (core/migrate.cu)
    int mig_leave_cap = 1024;     // leaving rows copied down with their count (exchange_leaving)
    PinnedArray<int> mig_host;    // the leaving rows down, the send order up
    // the first `count` device sums of `a` summed over ranks in place (one rank: nothing)
    void sum_over_ranks(DeviceArray<double> &a, int count)
    {
      if (!global_sum || count <= 0) return;
      std::vector<double> h(count);
      a.download(h.data(), count);
      global_sum(h.data(), count);
      MESOGPU_CUDA_CALL(
          cudaMemcpy(a.get(), h.data(), count * sizeof(double), cudaMemcpyHostToDevice));
    }
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    DeviceArray<acc> x[3], v[3], f[3], xhold[3];
    DeviceArray<int> image[3], type, mask, tag;
    DeviceArray<acc> mass;
    DeviceArray<acc> rmass;    // per-atom masses (atom styles with rmass), else empty
    const acc *rmass_ptr() const { return rmass.size() ? rmass.get() : nullptr; }
    DeviceArray<PosType<real>> pos;

    // special neighbours
    DeviceArray<int> nspecial, special;
    int maxspecial = 0;
    int special_flag[4] = {0, 1, 1, 1};
    double special_lj[4] = {1, 1, 1, 1};

    // bonds
    DeviceArray<int> nbond, bond_partner, bond_type;
    int maxbond = 0;
    // bonds inserted and removed on the device (topology/topology_edit.cu): special
    // levels rebuilt (Engine::reserve_topology), whether the topology changed since the
    // host last took it, scratch of the conflict resolution
    int special_levels = 3;
    bool topology_changed = false;
    DeviceArray<BondEdit> edit_candidates;
    DeviceArray<int> edit_state, edit_claim, edit_counters;
    // angles and dihedrals
    DeviceArray<int> nangle, ndihedral, dihedral_type;
    DeviceArray<int4> angle_atoms, dihedral_atoms;
    int maxangle = 0, maxdihedral = 0;
    // the bond, angle and dihedral lists freed (a system without them holds none: every
    // reader takes an empty nbond, nangle, ndihedral as no terms of that kind)
    void release_topology()
    {
      nbond.release();
      bond_partner.release();
      bond_type.release();
      nangle.release();
      angle_atoms.release();
      ndihedral.release();
      dihedral_atoms.release();
      dihedral_type.release();
    }

    // several ranks, molecular atoms (topology/topology_migrate.cu): LAMMPS's topology of
    // the owned atoms, one row-major row of owned_layout.width ints per atom (partners as
    // atom IDs) and the charges (atom styles with q), both moving with the atoms; the
    // scratch of resolve_topology (sorted tags and rows, the terms' rows, lister keys)
    OwnedTopologyLayout owned_layout;
    bool owned_topology = false;
    bool lists_stale = false;    // border_finish ran, resolve_topology not yet
    DeviceArray<int> owned_rows;
    DeviceArray<double> owned_q;
    DeviceArray<unsigned> res_tag, res_tag_sorted;
    DeviceArray<int> res_row, res_row_sorted, res_term_rows, res_key, res_key_sorted, res_slot,
        res_slot_sorted, res_count, res_start, res_status;
    DeviceArray<char> res_scratch;

    // neighbour list
    double cutneighmax = 0, skin = 0;
    int every = 1, delay = 0;
    bool dist_check = true;
    // xhold (the positions of the last build) is held only while something compares
    // against it: the displacement test of check yes, or chain growth's own test (sticky
    // once a chain growth step ran); else it stays empty
    bool xhold_for_growth = false;
    bool holds_xhold() const { return dist_check || xhold_for_growth; }
    int ago = 0;
    bool built = false;
    bool decided_on_device = false;    // the last decide_rebuild() ran the displacement test
    // Engine::set_integrator_check; checked_in_integrator: the integrator's pass of this
    // step made the test (status[2]) that the next decide_rebuild() reads
    bool integrator_check = false, checked_in_integrator = false;
    long long integrator_checks = 0;
    // neigh_modify's step rule: a list `steps` steps old may be rebuilt (decide_rebuild)
    bool step_allows(int steps) const { return steps >= delay && steps % every == 0; }
    // the next decide_rebuild() runs the displacement test (check yes, a step the rule
    // allows, a list with the skin) and its squared trigger
    bool check_due_next() const
    {
      return built && !tight && dist_check && step_allows(ago + 1) && xhold[0].size() == (size_t) n;
    }
    double displacement_trigger() const;
    DeviceArray<real> cutneighsq;
    int ncell[3] = {1, 1, 1};
    int cell_cap = 0, nbr_cap = 0;
    // lanes per atom of the list build and of the isotropic pair kernels (1, 4, 8, 16, 32):
    // chosen at each build from the atoms per device and the work per atom
    // (choose_lanes, neighbor/neighbor_list.cu), or fixed by MESOGPU_BUILD_LANES /
    // MESOGPU_PAIR_LANES
    int build_group = 1, pair_group = 1;
    // lanes per cell of the list build (build_by_cell_kernel; 0: lanes per atom)
    int build_cell_lanes = 0;
    // the build by cell's fast path: one (cut + skin)^2 for every type pair, no special or
    // excluded pairs
    bool build_plain() const
    {
      return uniform_cutneighsq > real(0) && maxspecial == 0 && !exclusion.active;
    }
    int fixed_cell_lanes = -1;    // MESOGPU_BUILD_CELL_LANES (-1: chosen)
    // the tight list: the neighbour list without the skin, built at every step, where a list
    // with the skin would live one step anyway (Engine::set_tight_list;
    // neighbor/rebuild_decision.cu): asked for (-1 auto, 0 no, 1 yes), taken by the last build
    // (tight), the builds of that kind in a row, the rebuilds in a row the displacement test
    // asked for, and the builds so made this run
    int tight_setting = -1;
    bool tight = false;
    int tight_run = 0, rebuild_streak = 0;
    long long tight_builds = 0;
    bool list_kept = false;    // something reads the list up to cut + skin (chain growth)
    // the list's cutoffs per type pair with and without the skin ((ntypes+1)^2, uploaded to
    // cutneighsq for the kind of the build) and the largest pair cutoff
    std::vector<real> cutsq_skin, cutsq_tight;
    double pair_cut_max = 0;
    std::string tight_refusal() const;    // "" where the list may be tight
    bool want_tight();                    // at a build: this build's kind
    void set_list_cutoffs(bool tight_list);
    // the cells' width: cutoff + skin; for a tight list the largest pair cutoff, or wider
    // where cells of it would hold fewer than 4.5 atoms (the build by cell then fills 8 lanes)
    double cell_cut() const;
    // the (cut + skin)^2 of every type pair when they are all equal (0: read per pair)
    real uniform_cutneighsq = 0;
    int fixed_build_group = 0, fixed_pair_group = 0;    // 0: chosen
    int device_threads = 0;    // resident threads the device holds (SMs x threads per SM)
    DeviceArray<int> cell_of, cell_count, cell_atoms, nnbr, nbr;
    DeviceArray<PosType<real>> cell_pos;    // positions in cell order, for the list build
    // the cells in the Morton order of the row sort (the build by cell takes them in this
    // order, so the lists it writes at a time belong to nearby rows), for the grid dims
    DeviceArray<int> cell_order;
    int cell_order_dims[3] = {0, 0, 0};
    void order_cells();    // (neighbor/sort.cu)
    // the list in 16-bit cell entries (neighbor/cell_entry.h) instead of nbr, when the last
    // build wrote them (cell_entries); list_entries: 0 (auto), 16 or 32
    // (Engine::set_list_entries)
    DeviceArray<unsigned short> nbr16;
    bool cell_entries = false;
    int list_entries = 0;
    // cell entries name a slot of at most CELL_ENTRY_MAX_SLOTS in one of the 27 cells
    // around the atom's: no explicit images, no larger cells
    bool cell_entries_fit() const { return img_bits == 0 && cell_cap <= CELL_ENTRY_MAX_SLOTS; }
    // f(view) with the view of the last build's list (neighbor/list_view.cuh)
    template <class F> void with_list(F &&f) const
    {
      if (cell_entries)
        f(CellList{nnbr.get(), nbr16.get(), cell_of.get(), cell_atoms.get(), ncell[0], ncell[1],
                   ncell[2], cell_cap});
      else
        f(WideList{nnbr.get(), nbr.get()});
    }
    DeviceArray<int> status;       // [0] max cell occupancy, [1] max neighbours, [2] rebuild flag
    int *status_host = nullptr;    // pinned
    // the cells' fill at the last list build that measured it (pinned, after status_host):
    // slots offered by groups of 8, 16, 32 lanes (rounds x lanes, summed over cells) and
    // the atoms in cells; read with the build's status, used to choose the next build
    unsigned long long *fill_host = nullptr;
    DeviceArray<unsigned long long> cell_fill;
    bool fill_valid = false;

    // force field: the terms of the run's force styles, in group order (pair first)
    std::vector<std::unique_ptr<ForceTerm>> forces;
    std::vector<char> pair_filter;    // (ntypes+1)^2: pairs a new pair term acts on; empty: all
    long long step = 0;
    double dt = 0.0;
    void add_force(std::unique_ptr<ForceTerm> term)
    {
      auto at = forces.begin();
      while (at != forces.end() && (*at)->group <= term->group) ++at;
      forces.insert(at, std::move(term));
    }
    bool has_pair_terms() const
    {
      for (const auto &t : forces)
        if (t->group == ForceGroup::pair) return true;
      return false;
    }
    // a pair term's cutoffs on the device: 0 (never within) outside the pair filter
    std::vector<real> pair_cutsq_for_term(const std::vector<double> &cutsq) const
    {
      std::vector<real> c(cutsq.size());
      for (size_t k = 0; k < c.size(); ++k)
        c[k] = pair_filter.empty() || pair_filter[k] ? static_cast<real>(cutsq[k]) : real(0);
      return c;
    }
    // oriented particles: unit n, |mu| (0: none), omega, torque, packed n for the pair kernel
    DeviceArray<acc> orient[3], mu_len, omega[3], torque[3], inertia;
    DeviceArray<real4> orient_packed;
    bool have_orient = false;
    // single-site rigid bodies (core/bodies.cu): quaternion (w, x, y, z; all zero: no body)
    // and lab-frame angular momentum, kept in acc; the packed real4 copy the oriented pair
    // kernels read (refreshed by pack_bodies after every change of quat); torques in
    // torque[] above (shared with oriented particles)
    DeviceArray<acc> quat[4], angmom[3];
    DeviceArray<real4> quat_packed;
    bool have_bodies = false;
    bool have_torque() const { return have_orient || have_bodies; }
    // the forward exchange's doubles per atom past x y z (Engine::forward_width): n with
    // orientations, q with bodies, v where a force term reads the ghosts' velocities
    int forward_extra_width() const
    {
      return (have_orient ? 3 : 0) + (have_bodies ? 4 : 0) + (forwards_ghost_velocities() ? 3 : 0);
    }
    bool forwards_ghost_velocities() const
    {
      for (const auto &t : forces)
        if (t->reads_ghost_velocities()) return true;
      return false;
    }
    void pack_bodies();
    // fix nve|nvt/rigid/single/cuda (integrate/rigid_single.cu): 3 (ntypes + 1) moments,
    // the axis of a zero moment per type (-1: none), the scheme
    DeviceArray<acc> rigid_inertia;
    DeviceArray<int> rigid_zero_axis;
    bool rigid_dlm = false;
    DeviceArray<int> rotation_limited;    // drifts past dt |w| = 1 (normalised) since the last take
    DeviceArray<double> gfactor1, gfactor2, mv_sum;
    // the overlap of the forward exchange with the forces of interior atoms (several
    // ranks; Engine::begin_forces): per build, the owned atoms whose lists hold no ghost
    // (interior, from the build kernel) and the rows split by it: split_rows[0..n_interior)
    // those atoms, the rest the other owned atoms and the ghost rows. The interior part of
    // the leading terms that take rows runs on side_stream while the host exchanges.
    bool overlap = false;    // asked for (Engine::set_overlap)
    bool split_valid = false;
    DeviceArray<unsigned char> interior, split_scratch;
    DeviceArray<int> split_rows, split_count;
    int n_interior = 0;
    cudaStream_t side_stream = nullptr;
    cudaEvent_t side_ready = nullptr, side_done = nullptr;
    // the forward exchange of positions runs on xstream: 0, or while interior forces run
    // comm_stream, of the highest priority, so that its small kernels are not queued behind
    // the blocks of the forces (a kernel's blocks are dispatched before a later kernel's of
    // the same priority); Engine::join_exchange hands the order back to stream 0
    cudaStream_t xstream = 0, comm_stream = nullptr;
    cudaEvent_t comm_done = nullptr;
    bool split_wanted() const { return overlap && nlocal < n && has_pair_terms() && !img_bits; }
    // the step begun by begin_forces, finished by finish_forces
    bool forces_begun = false, pending_ev = false, pending_per_atom = false;
    // the leading terms whose interior rows begin_forces launched (0: the step is not split)
    size_t pending_prefix = 0;
    PerAtomEVStore ev[NUM_FORCE_GROUPS];    // energy/virial per ForceGroup
    bool ev_valid = false, per_atom_ev_valid = false;
    DeviceArray<double> ev_sum;
    DeviceArray<ErrorRecord> err;

    // neigh_modify exclude
    ExclusionD exclusion{};
    DeviceArray<int> ex_type, molecule;
    ExclusionD exclusion_view() const
    {
      ExclusionD e = exclusion;
      e.ex_type = ex_type.size() ? ex_type.get() : nullptr;
      e.mask = mask.get();
      e.molecule = molecule.size() ? molecule.get() : nullptr;
      return e;
    }

    // MD-SCF field of fix mdscf/cuda (mdscf_kernels.cuh)
    bool have_field = false;
    FieldGridD field_grid{};
    FieldParamsD field_params{};
    int field_groupbit = 0;
    acc field_scale = acc(1);    // 1/(rho0 v_c)
    bool field_gather = false;
    int field_cell_cap = 0;
    DeviceArray<int> field_type2comp, field_cell_count, field_cell_atoms;
    DeviceArray<acc> field_phi, field_pot;
    DeviceArray<real4> field_grad;
    DeviceArray<double> field_sums;    // f_chi, f_kappa, virial density summed over nodes
    // a brick's exchanges (mdscf_pack_nodes / unpack_nodes): the swap's nodes, its values
    DeviceArray<int> field_list;
    DeviceArray<double> field_buf;
    bool field_brick_changed = false;    // the last set_mdscf moved the brick
    // the nodes the arrays hold (the whole grid, or the brick with its ghost layers)
    int field_nodes() const { return field_grid.nb[0] * field_grid.nb[1] * field_grid.nb[2]; }
    void field_derive(acc scale);

    // every per-atom array, with how it follows a sort (parts register what they own)
    PerAtomRegistry per_atom;
    // per-atom data a style asks for by name (Engine::upload_per_atom): `width` values
    // per atom, column-major (value k of atom i at [k n + i]); follow sorts
    // (a node stays once made: the registry holds its array; `used` until the next
    // upload_atoms; ghosts_read: a device rebuild sends the ghosts' values, width 1)
    struct PerAtomSlot {
      int width = 0;
      bool used = false, ghosts_read = false;
      DeviceArray<acc> data;
    };
    std::map<std::string, PerAtomSlot> slots;
    // the device data of a slot (null if no style uploaded it for this run)
    acc *slot_data(const std::string &name)
    {
      auto it = slots.find(name);
      return it == slots.end() || !it->second.used ? nullptr : it->second.data.get();
    }

    // Engine::upload_host_column: values the host keeps, carried with the atoms (a node
    // stays once made: the registry holds its array; `used` until the next upload_atoms)
    struct HostColumn {
      DeviceArray<double> data;
      bool used = false;
    };
    std::map<std::string, HostColumn> host_columns;

    // device order: order[i] = LAMMPS index of device atom i (identity until the first sort)
    DeviceArray<int> order, sort_src, sort_inv, sort_tmp_int;
    DeviceArray<unsigned> sort_key, sort_key_out;
    DeviceArray<char> sort_scratch;
    // the block every per-atom array is permuted into during a sort (Permutation::scratch)
    DeviceArray<char> sort_permute;
    std::vector<int> order_host;
    int sort_every = 0;
    long long steps_since_sort = 0;
    long long sorts_done = 0;
    long long owned_sorts_done = 0;    // sort_owned (several ranks)
    bool sort_due = false;

    // boundaries (Domain::boundary: 0 p, 1 f, 2 s, 3 m per side), shrink-wrap margins,
    // the small-box image mode (neighbor/neighbor_list.cu: setup_cells)
    int boundary[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    double small[3] = {0, 0, 0}, minlo[3] = {0, 0, 0}, minhi[3] = {0, 0, 0};
    bool periodic(int d) const { return boundary[d][0] == 0; }
    bool shrink_wrapped() const
    {
      for (int d = 0; d < 3; ++d)
        if (boundary[d][0] >= 2 || boundary[d][1] >= 2) return true;
      return false;
    }
    int img_bits = 0;    // 0: minimum image; else index bits of an image-mode entry
    int img_n[3] = {1, 1, 1}, img_k[3] = {0, 0, 0}, img_reach[3] = {1, 1, 1};
    DeviceArray<acc> extent;    // per-block min/max of the shrink-wrap reduction
    void setup_cells();         // cell grid and image mode for the current box
    // most entries one atom can have: each other atom once, or with explicit images each
    // image once (and its own images)
    double nbr_limit() const
    {
      return img_bits ? std::min(2e9, (double) n * img_n[0] * img_n[1] * img_n[2] + 16) : n + 16.0;
    }
    void shrink_wrap();    // Domain::reset_box() on the device positions

    BoxD box() const
    {
      BoxD b;
      for (int d = 0; d < 3; ++d) {
        b.lo[d] = static_cast<acc>(lo[d]);
        b.prd[d] = static_cast<acc>(hi[d] - lo[d]);
        b.prd_r[d] = static_cast<real>(hi[d] - lo[d]);
        // non-periodic: min_image() is the identity
        b.inv_prd_r[d] = periodic(d) ? static_cast<real>(1.0 / (hi[d] - lo[d])) : real(0);
        b.periodic[d] = periodic(d) ? 1 : 0;
        b.img_n[d] = img_n[d];
        b.img_k[d] = img_k[d];
      }
      b.img_bits = img_bits;
      return b;
    }
    int ntp1() const { return ntypes + 1; }

    // a box that changes during the run (change_box, integrate/barostat.cu): the rebuild
    // test allows for its motion since the last build (lo_hold, hi_hold; Neighbor's
    // boxcheck), and the cell grid is laid out again at the next build (grid_stale)
    bool box_check = false, grid_stale = false;
    double lo_hold[3] = {0, 0, 0}, hi_hold[3] = {0, 0, 0};

    // chain growth (topology/chain_growth.cu): parameters and per-step scratch
    DeviceArray<double> cg_prob;
    DeviceArray<int> cg_newtype, cg_best, cg_flags;
    DeviceArray<unsigned long long> cg_key, cg_claim;
    DeviceArray<BondEdit> cg_candidates;

    // forward positions through CUDA IPC (core/ghosts_ipc.cu): this rank's receive area
    // (its own cudaMalloc block, so that its IPC handle names it from its base), the
    // doubles asked for at its allocation and the allocation's generation
    DeviceArray<double> ipc_recv;
    size_t ipc_cap = 0;
    unsigned long long ipc_gen = 0;
    // the same for the border records of a device rebuild (core/migrate.cu)
    DeviceArray<double> ipc_records;
    size_t ipc_records_cap = 0;
    unsigned long long ipc_records_gen = 0;
    // the same for the ghosts' forces coming back (reverse exchange, newton_bond on)
    DeviceArray<double> ipc_reverse;
    size_t ipc_reverse_cap = 0;
    unsigned long long ipc_reverse_gen = 0;
  };

  // the message of an ERR_TOPOLOGY record (topology/topology_edit.cu)
  std::string topology_error_text(const Engine::Impl &s, const ErrorRecord &e);
  // the rows of the memory report the member arrays are charged to (core/memory_names.cu)
  void name_device_arrays(Engine::Impl &s);
  // exclusive scan (CUB, deterministic) of n counts into out, scratch grown as CUB asks;
  // returns their total (one copy to the host; core/migrate.cu)
  int exclusive_scan_total(DeviceArray<char> &scratch, const int *in, int *out, int n);

}    // namespace cuda
}    // namespace mesogpu

#endif
