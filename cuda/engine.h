/* mesogpu: the device engine's host interface (plain C++; the LAMMPS styles include
 * it with g++). One Engine holds one system resident on the GPU: atom state, cell and
 * neighbour lists, topology, force-field parameters, and the per-step kernels.
 *
 * Scope now: one GPU, orthogonal 3d box (periodic, fixed or shrink-wrapped per side;
 * periodic boxes of any size: below 2 x (cutoff + skin) the list takes explicit images;
 * the box may change during a run: the Nose-Hoover barostat), per-type or per-atom
 * masses; the force styles as a list of terms (cuda/forces/: one file and one add
 * function per style, any number of pair terms at once for pair_style hybrid); velocity
 * Verlet, Nose-Hoover, Langevin, Berendsen, momentum removal, the rotational leapfrog of
 * oriented particles, and the MD-SCF field; exclusions and special factors from LAMMPS's
 * special lists; bonds inserted and removed on the device (topology edits: spare capacity,
 * special lists rebuilt, downloaded at host syncs); neighbour rebuilds decided on the
 * device exactly as LAMMPS decides them
 * (every / delay / check with half the skin). Device order is LAMMPS order until the
 * first sort along a space-filling curve (set_sort); data come back in LAMMPS order. The
 * implementation is in parts: core/ (device memory, atoms, energies), neighbor/,
 * topology/, forces/, integrate/, field/; their shared state is core/engine_impl.cuh.
 * Sizes: at most 2^30 atoms (and MD-SCF grid nodes) per device; every product of counts
 * (neighbour-list entries, cell slots, per-atom lists) is indexed in 64 bits.
 * Errors: every CUDA failure and every violated limit throws std::runtime_error with
 * a message for the user; the LAMMPS side turns it into a LAMMPS error. Every device
 * allocation is checked first against the free memory (and the optional cap in bytes
 * from the environment variable MESOGPU_DEVICE_MEMORY_LIMIT): a run that does not fit
 * stops naming what was being allocated, the bytes needed and the bytes free. */
#ifndef MESOGPU_CUDA_ENGINE_H
#define MESOGPU_CUDA_ENGINE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  // fix mdscf/cuda: the MD-SCF field on the whole periodic grid (nx ny nz nodes); the
  // per-type component (-1: not in the field), chi per component pair (row-major), kT,
  // 1/kappa, rho0; the fix's group; deposit by gather over a field-grid cell list
  // instead of atomics
  struct HostMDSCF {
    int nx = 0, ny = 0, nz = 0, ncomp = 0;
    std::vector<int> type2comp;    // ntypes + 1 values
    std::vector<double> chi;       // ncomp^2 values
    double kT = 0.0, inv_kappa = 0.0, rho0 = 0.0;
    int groupbit = 0;
    bool gather = false;
    // the periodic box the grid spans (domain->boxlo/hi); unset (lo == hi): the engine's
    // box. Several ranks must set it: the engine's box is then the rank's grown subdomain
    double boxlo[3] = {0, 0, 0}, boxhi[3] = {0, 0, 0};
    // several ranks: the rank's brick of the grid as LAMMPS's Grid3d lays it out, global
    // node indices, inclusive: the owned nodes (in) and those with the ghost layers (out).
    // Unset (out_lo > out_hi): the whole grid on this GPU
    int in_lo[3] = {0, 0, 0}, in_hi[3] = {-1, -1, -1};
    int out_lo[3] = {0, 0, 0}, out_hi[3] = {-1, -1, -1};
    bool brick() const { return out_lo[0] <= out_hi[0]; }
  };

  // neigh_modify exclude as LAMMPS's Neighbor holds it: type pairs ((ntypes+1)^2 flags,
  // empty: none), group-bit pairs, molecule entries (group bit; 1 intra, 0 inter) with
  // the atoms' molecule IDs (LAMMPS order; needed when there are molecule entries)
  struct HostExclusions {
    std::vector<int> ex_type;
    std::vector<int> group1, group2;
    std::vector<int> mol_bit, mol_intra;
    std::vector<int> molecule;
  };

  // the boundaries as LAMMPS's Domain holds them: boundary[d][side] 0 periodic (p),
  // 1 fixed (f), 2 shrink-wrapped (s), 3 shrink-wrapped with a minimum (m); small[d] the
  // shrink-wrap margin (Domain::small), minlo/minhi the 'm' minimum box
  struct HostBoundary {
    int boundary[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    double small[3] = {0, 0, 0}, minlo[3] = {0, 0, 0}, minhi[3] = {0, 0, 0};
  };

  // a bond to insert or remove (Engine::insert_bonds, remove_bonds): device indices of
  // its two atoms and its type (1..nbondtypes; ignored by remove_bonds). Laid out as three
  // ints so a device kernel can fill an int3 array of candidates.
  struct BondEdit {
    int i = 0, j = 0, type = 0;
  };
  // what an insert_bonds or remove_bonds call did: candidates applied; left as they were
  // (insert: already bonded, also by an earlier candidate of the call; remove: not
  // bonded); not inserted because an atom's list was full (skip_full; otherwise an
  // error); invalid (an error); rounds of the conflict resolution (one host read each)
  struct BondEditResult {
    int applied = 0, unchanged = 0, full = 0, invalid = 0, rounds = 0;
  };

  // several ranks, a reneighbouring step on the device with molecular atoms
  // (topology/topology_migrate.cu): LAMMPS's own per-atom topology of each owned atom,
  // partners as atom IDs, one row of `width` ints per atom that moves with the atom
  // between ranks (a row index would mean nothing on another rank). Offsets into a row:
  // molecule ID, num_bond, num_angle, num_dihedral, num_improper, nspecial[3], then
  // bond_type and bond_atom (bond_per_atom each), angle_type and the angle's three atoms
  // (angle_per_atom, 3 x angle_per_atom), dihedrals and impropers the same with four
  // atoms, special (maxspecial). Widths 0 for what the atom style lacks. The engine's
  // bond, angle, dihedral and special lists of device rows are made from these rows after
  // the ghosts are known (Engine::border_finish), as the host path builds them from
  // LAMMPS's arrays (src/cuda/device_topology.cpp: listers, order, closest image).
  struct OwnedTopologyLayout {
    static constexpr int MOLECULE = 0, NUM_BOND = 1, NUM_ANGLE = 2, NUM_DIHEDRAL = 3,
                         NUM_IMPROPER = 4, NSPECIAL = 5, HEADER = 8;
    int bond_per_atom = 0, angle_per_atom = 0, dihedral_per_atom = 0, improper_per_atom = 0,
        maxspecial = 0;
    // the offsets, set by finish()
    int bond_type = 0, bond_atom = 0, angle_type = 0, angle_atom = 0, dihedral_type = 0,
        dihedral_atom = 0, improper_type = 0, improper_atom = 0, special = 0, width = 0;
    // which device lists to make (the run's force styles with terms, as upload() decides),
    // and newton_bond (a term stored once: every atom of it lists it, ghost rows too)
    bool bonds = false, angles = false, dihedrals = false, newton_bond = false;
    void finish()
    {
      bond_type = HEADER;
      bond_atom = bond_type + bond_per_atom;
      angle_type = bond_atom + bond_per_atom;
      angle_atom = angle_type + angle_per_atom;
      dihedral_type = angle_atom + 3 * angle_per_atom;
      dihedral_atom = dihedral_type + dihedral_per_atom;
      improper_type = dihedral_atom + 4 * dihedral_per_atom;
      improper_atom = improper_type + improper_per_atom;
      special = improper_atom + 4 * improper_per_atom;
      width = special + maxspecial;
    }
  };

  // the bonded and special lists of every device row, row-major as the host path builds
  // them (src/cuda/device_topology.h: entry k of row i at [i max + k], 3 atoms per angle
  // and 4 per dihedral entry; unused entries 0, unused special entries -1); empty where
  // the engine has no lists of a kind (Engine::download_lists, for tests)
  struct HostLists {
    int maxspecial = 0, maxbond = 0, maxangle = 0, maxdihedral = 0;
    std::vector<int> nspecial, special, nbond, bond_partner, bond_type, nangle, angle_atoms,
        angle_type, ndihedral, dihedral_atoms, dihedral_type;
  };

  struct EnergyVirial {
    double e_pair = 0.0, e_bond = 0.0, e_angle = 0.0, e_dihedral = 0.0;
    double v_pair[6] = {0, 0, 0, 0, 0, 0}, v_bond[6] = {0, 0, 0, 0, 0, 0};
    double v_angle[6] = {0, 0, 0, 0, 0, 0}, v_dihedral[6] = {0, 0, 0, 0, 0, 0};
  };

  // fix langevin/cuda's force of one step (Engine::langevin's arguments), for the final
  // integrator to add in its own pass over the atoms (Engine::nve_final_langevin)
  struct FinalForce {
    int groupbit = 0;
    double tsqrt = 0.0;
    unsigned seed = 0;
    long long step = 0;
  };

  class Engine {
   public:
    Engine();
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    // --- system -------------------------------------------------------------------
    // Atoms in LAMMPS order. x, v, f: 3 n values; image: 3 n ints (ix, iy, iz);
    // type 1..ntypes; mass_per_type: ntypes + 1 values.
    void set_box(const double lo[3], const double hi[3]);
    // non-periodic dimensions: no wrapping, no minimum image; an atom outside a
    // non-periodic side at a neighbour build is lost (an error, as LAMMPS's default
    // thermo_modify lost error); shrink-wrapped sides follow the atoms at every build as
    // Domain::reset_box() does (call before set_neighbor; default: periodic)
    void set_boundary(const HostBoundary &b);
    // the box now (shrink-wrapped boxes change at neighbour builds)
    void get_box(double lo[3], double hi[3]) const;
    void upload_atoms(int n, int ntypes, const double *x, const double *v, const double *f,
                      const int *image, const int *type, const double *mass_per_type);
    void download_atoms(double *x, double *v, double *f, int *image) const;
    // velocities, forces and angular velocities (3 n values each in LAMMPS order; null:
    // keep) after host fixes' setup changed them (first random forces, omega projected)
    void upload_setup_state(const double *v, const double *f, const double *omega);
    // bytes the engine holds on the device now; free and total device memory if asked
    static size_t device_memory(size_t *free_bytes = nullptr, size_t *total_bytes = nullptr);
    // neighbour-list entries allocated (capacity per atom x atoms; 0 without pair forces)
    long long neighbor_entries() const;
    void upload_mask(const int *mask);    // LAMMPS group bits per atom
    void upload_tags(const int *tag);     // atom IDs: random streams follow atoms, not slots
    int natoms() const;

    // special neighbours: for atom i, special[i * maxspecial + k] (device index) for
    // k < nspecial[3 i + 2]; nspecial as LAMMPS (cumulative 1-2, 1-3, 1-4 counts).
    // special_flag[1..3] as LAMMPS's Neighbor: 0 exclude, 1 include as normal pair,
    // 2 include with the special bits (factor special_lj[1..3] applied).
    void upload_special(const int *nspecial, const int *special, int maxspecial,
                        const int special_flag[4], const double special_lj[4]);

    // bonds of atom i: partners and types, both directions, bond_partner[i*maxbond + k]
    // (until upload_bonds, upload_angles, upload_dihedrals, after upload_atoms, the
    // engine holds no lists of that kind, not even per-atom counts)
    void upload_bonds(const int *nbond, const int *partner, const int *btype, int maxbond);
    // angles/dihedrals each atom takes part in: atoms (device indices, 3 or 4 per
    // entry) and type, entry k of atom i at [i * max + k]; every atom of an angle
    // lists it, and each thread keeps its own atom's force (no atomics)
    void upload_angles(const int *nangle, const int *atoms3, const int *type, int maxangle);
    void upload_dihedrals(const int *ndihedral, const int *atoms4, const int *type,
                          int maxdihedral);

    // --- neighbour list ------------------------------------------------------------
    // cutneighsq: (ntypes+1)^2 (cut + skin)^2 per type pair; cutneighmax = max cut + skin;
    // dist_check false (check no): the builds keep no copy of the positions (xhold)
    void set_neighbor(double cutneighmax, double skin, const std::vector<double> &cutneighsq,
                      int every, int delay, bool dist_check);
    // LAMMPS's Neighbor::decide(): rebuild when ago >= delay, ago % every == 0 and
    // (no check, or some atom moved more than skin/2 since the last build)
    bool decide_rebuild();
    // whether the last decide_rebuild() ran the displacement test on the device (check
    // yes on a step the rule ago >= delay, ago % every == 0 allows); otherwise its answer
    // was that step rule alone (yes with check no, no between allowed steps) while the
    // list was built
    bool last_decision_read_device() const;
    // the displacement test of the next decide_rebuild() made by the integrator's own pass
    // over the atoms (fix nve/cuda's first half step: the positions it writes are compared
    // with the last build's, and the next decide_rebuild() only reads the answer): allowed
    // by the run style where that integrator is the only fix that moves atoms in a step
    // (MESOGPU_FUSED_CHECK=no: never), made where it acts on group all on one rank. The same
    // test on the same values, so the same answers
    void set_integrator_check(bool allowed);
    long long integrator_checks() const;    // tests made so since this engine was made
    bool list_built() const;                // false: the next decide_rebuild() says yes
    void build_neighbor_list();             // wraps positions into the box, updates images
    // pairs LAMMPS's neigh_modify exclude removes from the list (after upload_atoms and
    // upload_mask; reset by upload_atoms)
    void set_exclusions(const HostExclusions &e);
    // reorder atoms along a space-filling curve (Morton order of their cells) at the next
    // neighbour build (call after upload_atoms), then at the first build at least `every`
    // steps after the last sort; 0 = never. Results do not depend on it beyond rounding;
    // downloads come back in LAMMPS order.
    void set_sort(int every);
    // sorts along the space-filling curve since this engine was made
    long long sorts_done() const;
    // several ranks, a reneighbouring step on the device: after the exchange
    // (exchange_arrivals; the rows are the owned atoms, no ghosts) and before the borders,
    // the owned rows along the space-filling curve of the rank's cells, every per-atom array
    // following (the bonded lists are made again after the borders). The host takes the
    // new order at its next sync (download_ids); the caller decides when (atom_modify sort)
    void sort_owned();
    long long owned_sorts_done() const;
    // lanes per atom of the last list build and of the isotropic pair kernels until the
    // next (1, 4, 8, 16 or 32): more than one where the atoms are too few to fill the
    // device and each has long lists; MESOGPU_BUILD_LANES / MESOGPU_PAIR_LANES fix them
    int build_lanes() const;
    // lanes per cell of the list build where it goes by cell (0: by atom, build_lanes())
    int build_cell_lanes() const;
    // the fraction of those lanes that held an atom at the last build (0: not measured)
    double build_cell_fill() const;
    // the neighbour list's entries (neighbor/cell_entry.h): 0 (default, auto): 32-bit
    // indices, unless they would leave too little device memory free and 16-bit cell
    // entries fit; 16 or 32 ask for one layout (16 takes 32-bit entries where cell entries
    // do not fit). list_entry_bits(): the layout of the
    // last build (16 or 32); cell_entries_refusal(): why cell entries do not fit the current
    // grid and box ("" when they do)
    void set_list_entries(int bits);
    int list_entry_bits() const;
    std::string cell_entries_refusal() const;
    int pair_lanes() const;
    // the tight list: where a list with the skin would live one step anyway (DPD at
    // dt 0.04), build it at every step without the skin (cutoff only, in cells of the
    // cutoff or a little wider): fewer candidates and entries, the same pairs. mode -1
    // (default, auto): after 16 steps in a row whose displacement test asked for a rebuild
    // (or every 1 delay 0 check no), with the skin again for one build after every 500
    // tight builds, to see whether its list lives longer now; 1: wherever allowed; 0:
    // never. Not allowed (refusal, "" if allowed): several ranks, a list reader
    // (keep_neighbor_list), explicit images. tight_list(): the last build's kind;
    // tight_list_builds(): the tight builds of this run
    void set_tight_list(int mode);
    bool tight_list() const;
    long long tight_list_builds() const;
    std::string tight_list_refusal() const;
    // something outside the pair terms reads the neighbour list up to cutoff + skin (device
    // chain growth): never a tight list, and the list is built again now if it was tight
    void keep_neighbor_list();

    // --- force field ---------------------------------------------------------------
    // A list of force terms, cleared by upload_atoms: each force style of the run adds
    // its own (the add_* functions in cuda/forces/*.h, called from the styles'
    // device_setup). Pair terms added while a filter is set act only on the type pairs it
    // allows ((ntypes+1)^2 flags, [i * (ntypes+1) + j]; empty: all): pair_style hybrid
    // gives each sub-style its pairs. Without pair terms no neighbour list is built.
    void set_pair_filter(const std::vector<int> &allowed);
    int force_terms() const;
    // the timestep and dt that step-dependent forces (DPD noise) use
    void set_step(long long step, double dt);
    // f = the sum of all terms (torques too); with energy_virial their energy and virial
    // sums (reduce_energy_virial), and with per_atom too the per-atom values
    // (download_per_atom_ev), which cost 56 bytes per atom and force kind once asked for
    void compute_forces(bool energy_virial, bool per_atom = false);
    // compute_forces in two calls around the forward exchange of ghost positions (several
    // ranks): with overlap (and set_overlap(true), a list built with ghosts, one lane per
    // atom) begin_forces queues the forces of the owned atoms whose lists hold no ghost
    // for the leading pair terms that allow it on a second stream and returns true; the
    // host then exchanges, and finish_forces queues the rest. Without, begin_forces only
    // prepares and finish_forces does everything. The same forces bit for bit either way
    // (each atom's force is one thread's sum in list order); the energy and virial sums
    // group the atoms into warps differently, so they may differ in the last bits.
    bool begin_forces(bool energy_virial, bool per_atom, bool overlap);
    void finish_forces();
    // run_style verlet/cuda overlap yes|no: lets begin_forces split (builds flag the
    // interior atoms: 5 bytes per row on several ranks)
    void set_overlap(bool on);
    // after begin_forces split, the forward exchange of positions (pack, copy, unpack)
    // runs on a stream of the highest priority; this queues whatever follows on the
    // default stream after it (the end of DeviceComm::forward; finish_forces calls it too)
    void join_exchange();
    // the owned atoms whose forces begin_forces starts early (the last build's count), or
    // -1 when it would not split (overlap off, one rank, lanes per atom above one)
    int interior_atoms() const;
    EnergyVirial reduce_energy_virial();
    // per-atom energies and virials of one force kind (as LAMMPS splits them: half of a
    // pair or bond, a third of an angle, a quarter of a dihedral to each atom), in LAMMPS
    // order: e n values, virial 6 n values (xx, yy, zz, xy, xz, yz per atom); either may
    // be null. Valid after compute_forces(true, true).
    enum class ForceKind { pair = 0, bond = 1, angle = 2, dihedral = 3 };
    void download_per_atom_ev(ForceKind kind, double *energy, double *virial) const;

    // --- per-atom data a style asks for ------------------------------------------------
    // `width` doubles per atom in LAMMPS order (atom i at [width i + k]), kept on the
    // device under `name` (quaternions, angular momenta, ...) and reordered with every
    // sort; download_per_atom gives them back in LAMMPS order. Out of use after the next
    // upload_atoms until uploaded again. One value per atom migrates with its atom on a
    // reneighbouring step on the device; wider data keeps that step on the host.
    // ghosts_read (one value per atom): kernels read the ghosts' values, which a
    // reneighbouring step on the device fills by the new plan's forward exchange
    // (ghost_slots, pack_slot, unpack_slot, copy_slot)
    void upload_per_atom(const std::string &name, int width, const double *values,
                         bool ghosts_read = false);
    void download_per_atom(const std::string &name, double *values) const;
    int per_atom_width(const std::string &name) const;    // 0: no such data
    std::vector<std::string> ghost_slots() const;
    void pack_slot(const std::string &name, int offset, int count, double *buf);
    void unpack_slot(const std::string &name, int first, int count, const double *buf);
    void copy_slot(const std::string &name, int offset, int count, int first);
    // per-atom values the host keeps and the device only carries with its atoms (radius,
    // per-atom mass, charge, dipole of the atom styles a reneighbouring step on the device
    // moves): one value per atom, value of atom i at values[stride i], every row (owned
    // and ghosts); kept as doubles, so they come back bit for bit; follow sorts and
    // migrations. download_host_column: the owned atoms' values in LAMMPS order. Out of
    // use after the next upload_atoms until uploaded again.
    void upload_host_column(const std::string &name, const double *values, int stride);
    void download_host_column(const std::string &name, double *values, int stride) const;

    // --- oriented particles (pair soft/aniso, fix leapfrog/aniso) ----------------------
    // per-atom masses for atom styles with rmass (n values); without it masses are per type
    void upload_rmass(const double *rmass);
    // orientations as LAMMPS's dipole style holds them (mu: 4 n values x, y, z, |mu|; the
    // device keeps n = mu/|mu| and |mu|; |mu| = 0: no orientation), omega and torque 3 n
    void upload_orientation(const double *mu4, const double *omega);
    void download_orientation(double *mu4, double *omega, double *torque) const;
    bool has_orientation() const;
    // fix leapfrog/aniso: velocity Verlet for x, v; n drifts with omega (initial), omega is
    // kicked by the torque (final); inertia per type (ntypes + 1 values); dtr = dt ftm2v
    void set_inertia(const std::vector<double> &inertia);
    // normalize_limit: a drift with dt |w| >= 1 takes the normalised step
    // (physics::leapfrog_drift_normalized) and is counted, instead of stopping the run
    void leapfrog_initial(double dtv, double dtf, int groupbit, bool normalize_limit = false);
    // how many drifts took the normalised step since the last call (one read-back)
    long long take_rotation_limited();
    void leapfrog_final(double dtf, double dtr, int groupbit);
    // sums over the group: [0] m v^2, [1] I |omega x n|^2 over oriented atoms, [2] atoms,
    // [3] oriented atoms
    void aniso_kinetic_sums(int groupbit, double sums[4]);
    // v *= lambda_t for the group, omega *= lambda_r for its oriented atoms
    void scale_aniso(int groupbit, double lambda_t, double lambda_r);

    // --- single-site rigid bodies (ellipsoid quaternions: pair ssd/gb/coul/dipole/body,
    // fix nve|nvt/rigid/single/cuda) --------------------------------------------------
    // quat: 4 n values (w, x, y, z) in LAMMPS order, all four 0 for an atom without a
    // body; angmom: 3 n values, lab frame. Torques are kept (and downloaded) with them.
    void upload_bodies(const double *quat, const double *angmom);
    // any pointer may be null; atoms without a body keep their host quat values
    void download_bodies(double *quat, double *angmom, double *torque) const;
    bool has_bodies() const;
    // fix nve/rigid/single/cuda, nvt/rigid/single/cuda (integrate/rigid_single.cu): the
    // step of src/rigid_single_bodies.h on the atoms of the group (physics/rigid_rotation.h,
    // rigid_lab_kick and rigid_lab_advance); group atoms without a body are translated only.
    // inertia: 3 (ntypes + 1) principal moments ([3 t + k], body frame); zero_axis: ntypes + 1
    // values (-1, or the axis with a zero moment: a linear body); dlm: DLM instead of NO_SQUISH
    void set_rigid_inertia(const std::vector<double> &inertia, const std::vector<int> &zero_axis,
                           bool dlm);
    // kick: v += dtf/m f and L += dtf tau (fix nve's final_integrate, FixNH::nve_v);
    // drift: x += dtv v and (q, L) <- rotation over dtv (FixNH::nve_x); both: kick, then
    // drift (fix nve's initial_integrate)
    void rigid_step(double dtv, double dtf, int groupbit, bool kick, bool drift);
    // sums over the group: [0] m v^2, [1] sum_k L_k^2 / I_k over its bodies (one read-back)
    void rigid_kinetic_sums(int groupbit, double sums[2]);
    // v *= factor and L *= factor for the group (FixNH::nh_v_temp of fix nvt/rigid/single)
    void rigid_scale(int groupbit, double factor);

    // --- MD-SCF field (fix mdscf/cuda) -----------------------------------------------
    // grids are node-major: value k of node (ix, iy, iz) at ((iz ny + iy) nx + ix) ncomp + k,
    // over the nodes the engine holds: the whole periodic grid (one rank), or the rank's
    // brick with its ghost layers (several ranks: HostMDSCF's in/out extents, Grid3d's
    // layout; nx ny nz are then the brick's edges with ghosts). On a brick the host runs
    // Grid3d's exchanges with mdscf_pack_nodes / unpack_nodes as its buffers' callbacks,
    // forces go to owned atoms, and mdscf_sums are the owned nodes' (the caller sums over
    // ranks). A second set_mdscf with the same arrays keeps phi, potentials and gradients
    // (a multi-rank rebuild uploads the atoms again, which drops the field's parameters,
    // not its grids); mdscf_brick_changed() says whether it moved the brick (the caller
    // then uploads the field again)
    void set_mdscf(const HostMDSCF &p);
    bool mdscf_brick_changed() const;
    // phi (volume fractions) of every node the engine holds from the host (a brick: its
    // ghost nodes too), then potentials, gradients and sums from it
    void mdscf_upload_phi(const double *phi);
    void mdscf_download_phi(double *phi) const;
    // the whole grid: densities from the current positions, then potentials, gradients,
    // sums
    void mdscf_build_field();
    // a brick, the same in parts around the host's Grid3d exchanges: the owned atoms'
    // counts onto the brick's nodes, ghosts included (then the reverse exchange adds the
    // ghost nodes' counts to their owners); counts to phi on the owned nodes (then the
    // forward exchange sets the ghost nodes); potentials, gradients and the owned sums
    void mdscf_deposit();
    void mdscf_scale_owned();
    void mdscf_derive();
    // Grid3d's buffers: phi of the nodes list[0..count) (offsets into the brick's
    // arrays; ncomp values each) into buf (host), and back from buf, added or set
    void mdscf_pack_nodes(const int *list, int count, double *buf);
    void mdscf_unpack_nodes(const int *list, int count, const double *buf, bool add);
    // f += field force of every field atom at its current position (stored gradients)
    void mdscf_apply_forces();
    // sums over the nodes this rank owns (one rank: all) of f_chi, f_kappa and the virial
    // density of the current field (physics/mdscf.h; one device-to-host copy)
    void mdscf_sums(double sums[3]) const;

    // --- integrators -----------------------------------------------------------------
    // fix nve on the atoms whose mask has groupbit (upload_mask first)
    void nve_initial(double dtv, double dtf, int groupbit);
    void nve_final(double dtf, int groupbit);
    // langevin(ff...) and then nve_final(dtf, groupbit) in one kernel, one pass over the
    // atoms (the same arithmetic: bitwise the same f and v); f is written (the next step's
    // nve_initial and output read it)
    void nve_final_langevin(double dtf, int groupbit, const FinalForce &ff);

    // --- thermostats and momentum (all on device data, no host round trip) -------------
    // fix langevin: f += gamma1 m-scaled drag + gamma2 sqrt(T) (u - 1/2) per component,
    // gfactor1/2 per type as LAMMPS precomputes them (set once per run); u from
    // Philox(seed, tag, step, d)
    void set_langevin(const std::vector<double> &gfactor1, const std::vector<double> &gfactor2);
    void langevin(int groupbit, double tsqrt, unsigned seed, long long step);
    // fix temp/berendsen: T from a device reduction of sum m v^2 (tfactor = mvv2e / (dof k_B)),
    // v *= sqrt(1 + dt/tau (T_target/T - 1)), all on the device
    void berendsen(int groupbit, double tfactor, double t_target, double dt_over_period);
    // sum over the group of m v^2 (a device reduction read back to the host: one sync)
    double kinetic_sum(int groupbit);
    // v *= factor for the group (Nose-Hoover chain scaling)
    void scale_velocities(int groupbit, double factor);
    // fix momentum angular, in three device steps: sum of m x (unwrapped positions, x +
    // image prd with prd the global box's edges: on several ranks the engine's box is the
    // rank's subdomain); angular momentum and inertia tensor about xcm (I as xx, yy, zz,
    // xy, yz, xz); v -= omega x (x_unwrapped - xcm). Owned atoms, sums over ranks.
    void group_mass_moment(int groupbit, const double prd[3], double sum_mx[3]);
    void group_angmom_inertia(int groupbit, const double prd[3], const double xcm[3],
                              double angmom[3], double inertia[6]);
    void subtract_rotation(int groupbit, const double prd[3], const double xcm[3],
                           const double omega[3]);
    // fix momentum linear: remove the centre-of-mass velocity of the group
    void zero_momentum(int groupbit, double masstotal, bool x, bool y, bool z);

    // --- barostat (fix npt/cuda, nph/cuda): LAMMPS FixNH's loops over atoms, orthogonal box;
    // the products and sums are rounded one by one as on the host (no fused multiply-add) --
    // a new box during a run: forces use it from the next computation on, the cell grid is
    // laid out again at the next list build, and the rebuild test allows for the motion of
    // the box since the last build as LAMMPS's Neighbor::check_distance does (boxcheck);
    // throws if a length falls below 2 x (cutoff + skin)
    void change_box(const double lo[3], const double hi[3]);
    // FixNH::remap's dilation: x to lamda in the old box (old_lo; old_h_inv = 1 / length as
    // Domain::h_inv holds it), back to x in the new box (new_lo; new_h = length as Domain::h);
    // groupbit 0: every atom (dilate all)
    void remap_atoms(const double old_lo[3], const double old_h_inv[3], const double new_lo[3],
                     const double new_h[3], int groupbit);
    // FixNH::nh_v_press without tilt: v_d *= factor_d twice, for the group
    void nh_v_press(int groupbit, const double factor[3]);
    // FixNH::nve_v (v += dtf / m f) and nve_x (x += dtv v) as separate steps
    void nve_v(double dtf, int groupbit);
    void nve_x(double dtv, int groupbit);
    // sums over the group of m v_a v_b as xx, yy, zz, xy, xz, yz (ComputeTemp::compute_vector
    // before mvv2e; one read-back)
    void kinetic_tensor(int groupbit, double t[6]);

    // --- topology edits on the device (cuda/topology/topology_edit.cu) -----------------
    // Bonds made or broken during a run (stochastic chain growth: a reactive end bonds to
    // a nearby monomer; fix bond/create and bond/break semantics), kept on the device and
    // downloaded at host syncs. Spare capacity first: bond lists of bond_capacity entries
    // per atom (both directions, so an atom's bonds count whichever atom LAMMPS stores
    // them on), special lists of special_capacity entries (LAMMPS's maxspecial, with
    // extra/special/per/atom); special_levels as LAMMPS's Special::build goes: 1 (1-2
    // only: special_bonds weighs 1-3 and 1-4 as 1.0), 2 (to 1-3) or 3 (to 1-4); 0 keeps no
    // special lists. Call after upload_bonds / upload_special (a width never shrinks;
    // contents kept; bond lists are made, empty, when there were none).
    void reserve_topology(int bond_capacity, int special_capacity, int special_levels);
    int bond_capacity() const;       // entries per atom of the bond lists now
    int special_capacity() const;    // entries per atom of the special lists now
    // Inserts the candidate bonds (device indices; `candidates` in device memory when
    // on_device, else host memory) in both atoms' lists, the result being that of taking
    // them one by one in candidate order: a candidate bonding atoms bonded already (also
    // by an earlier candidate) changes nothing; one that finds an atom's list full is
    // skipped when skip_full, else it records an error that check_errors() reports
    // naming the capacity to raise (extra/bond/per/atom); an invalid candidate records an
    // error too. Conflicts are resolved in rounds: each atom is claimed by the lowest
    // pending candidate naming it (atomicMin), candidates holding both their atoms apply,
    // the rest wait for the next round (the lowest pending one always applies). Then
    // the special lists of every atom are rebuilt from the bond lists (LAMMPS's 1-2, 1-3,
    // 1-4 rules, special_levels deep; overflow is an error naming extra/special/per/
    // atom), the neighbour list is marked stale (the next decide_rebuild() says yes) and
    // topology_changed() turns true. Angles and dihedrals are not made or removed.
    BondEditResult insert_bonds(const BondEdit *candidates, int ncandidates, bool on_device,
                                bool skip_full = false);
    // removes the bonds between the candidates' atoms (any type; fix bond/break), in the
    // same rounds, then rebuilds the special lists as insert_bonds does
    BondEditResult remove_bonds(const BondEdit *candidates, int ncandidates, bool on_device);
    // whether bonds were inserted or removed since the last clear_topology_changed()
    bool topology_changed() const;
    void clear_topology_changed();
    // device index of each atom in LAMMPS order (candidates name atoms by device index;
    // the identity until the first sort)
    std::vector<int> device_index_of_lammps() const;
    // the bond lists in LAMMPS order, partners as atom IDs (the uploaded tags; index + 1
    // without them): nbond n values, partner_tag and type n x bond_capacity() row-major
    // (atom i's entry k at [i * bond_capacity() + k]; unused entries 0); every bond listed
    // by both of its atoms
    void download_bonds(int *nbond, int *partner_tag, int *type) const;
    // the special lists in LAMMPS order as atom->nspecial and atom->special hold them:
    // nspecial 3 n (cumulative), special_tag n x special_capacity() row-major (unused 0)
    void download_special(int *nspecial, int *special_tag) const;

    // --- state ---------------------------------------------------------------------
    // throws with a message if a kernel reported a problem since the last call
    // (pair below table start, broken bond, lost atom, a bond edit that did not fit)
    void check_errors();
    void synchronize();

    // --- stochastic chain growth (fix polymerize/cuda; topology/chain_growth.cu) ---------
    // One reaction step of src/physics/chain_growth.h on the device: every active end of
    // the group (per-atom data `slot`, width 3: init, cris, chain position) picks, among
    // the free monomers of the group within rc that it accepts, the one of smallest u (tie:
    // smaller ID); a monomer chosen by several ends goes to the end of smallest u (tie:
    // smaller ID) through a 64-bit atomicMin of (u, end ID); the winners are bonded
    // (insert_bonds with device candidates: special lists rebuilt, neighbour list stale),
    // the state moves to the monomer and its type becomes newtype[type]. The neighbour
    // list must hold every pair within rc: `reach` is the smallest (cutoff + skin) of the
    // reacting type pairs, and the list is rebuilt first when an atom moved more than
    // (reach - rc) / 2 since the last build (always when the box changes during the run).
    struct ChainGrowth {
      std::string slot;
      unsigned seed = 0;
      long long step = 0;
      double rc = 0.0, reach = 0.0;
      int groupbit = 0, btype = 0;
      std::vector<double> prob;    // (ntypes+1)^2, P_r(type_end, type_monomer)
      std::vector<int> newtype;    // ntypes + 1: a captured monomer's new type
    };
    struct ChainGrowthResult {
      int made = 0;            // bonds made (monomers captured)
      bool rebuilt = false;    // the neighbour list was rebuilt for the step
      BondEditResult edit;     // what insert_bonds did with them
    };
    ChainGrowthResult chain_growth_step(const ChainGrowth &p);
    // the atom types in LAMMPS order (n values; chain growth may change them)
    void download_types(int *type) const;

    // --- several MPI ranks (core/ghosts.cu; the host side: src/cuda/device_comm.cpp) ----
    // Each rank holds its own atoms and its ghosts: upload_atoms(n, ...) with the nlocal
    // owned atoms first and the n - nlocal ghosts after them in LAMMPS's ghost order, then
    // set_owned(nlocal) before set_neighbor (no sort while there are ghosts). The box is
    // the rank's subdomain grown past the ghost cutoff with non-periodic sides. Lists are
    // built for owned atoms (over all rows), integrators and sums run over owned atoms,
    // downloads give owned atoms; bonded terms listed on ghost rows (newton_bond on) leave
    // their forces there for the reverse exchange.
    void set_owned(int nlocal);
    int owned() const;
    // sums over ranks: `sum` adds `count` doubles over all ranks in place (the host's
    // MPI_Allreduce); kinetic sums, Berendsen's and fix momentum's reductions use it
    void set_global_sum(std::function<void(double *, int)> sum);
    // the concatenated send lists of the swaps (CommBrickPlan::send_index(), rows)
    void set_ghost_plan(const std::vector<int> &send_index);
    // forward exchange, one swap: positions of rows send_index[offset .. offset + count)
    // (plus shift when shifted, as AtomVec::pack_comm adds it) into buf (host,
    // forward_width() count doubles: x y z of the count atoms, then their orientations,
    // then their velocities, each block in send order; see forward_width); the received
    // ones into rows first .. first + count; a swap with this rank itself stays on the
    // device
    void pack_positions(int offset, int count, const double shift[3], bool shifted, double *buf);
    void unpack_positions(int first, int count, const double *buf);
    void copy_positions(int offset, int count, const double shift[3], bool shifted, int first);
    // reverse exchange (newton_bond on), one swap: forces of ghost rows first .. first +
    // count into buf; received forces added to rows send_index[offset .. offset + count)
    void pack_forces(int first, int count, double *buf);
    void unpack_add_forces(int offset, int count, const double *buf);
    void copy_add_forces(int first, int count, int offset);
    // doubles per atom of the forward exchange: x y z, then with the positions in one
    // message, after the count atoms' positions: the orientations (oriented particles: the
    // unit vector n, as AtomVecDipole's comm of mu, 3 values; single-site rigid bodies: the
    // quaternion, as AtomVecEllipsoid's comm of its bonus, 4), then the velocities (3) when
    // a force term reads the ghosts' (pair dpd/cuda; AtomVec::pack_comm_vel without fix
    // deform's remap v). The received values go into the ghost rows with the packed copies
    // the pair kernels read. |mu| and which atoms have a body come with the ghosts at each
    // rebuild (an atom is oriented where its n is not zero).
    int forward_width() const;
    // page-locked host staging for the swaps (cudaHostAlloc; the engine owns and frees
    // it): buffer `which` (0 send, 1 receive) of at least count doubles, grown on demand
    // (old contents not kept; earlier pointers invalid after a growth). pack_* return
    // once buf holds the values (one stream synchronisation, which also finishes every
    // earlier copy from a host buffer); unpack_* only queue the copy and their kernel in
    // stream order, so a page-locked buf must not change until the next pack_* or
    // synchronize(). Pageable buffers work as before (the copy reads them at the call).
    double *exchange_buffer(int which, size_t count);
    // device memory for the swaps instead (exchange cuda-aware: a CUDA-aware MPI reads and
    // writes it): buffer `which` (0 send, 1 receive) of at least count doubles, grown on
    // demand as exchange_buffer. Handed to pack_* and unpack_*, the kernels write and read
    // it directly (no host copy); pack_* still return after one stream synchronisation
    double *exchange_device_buffer(int which, size_t count);
    // --- several MPI ranks, a reneighbouring step on the device (core/migrate.cu; the host
    // side, messages and LAMMPS's plan: src/cuda/device_rebuild.cpp) ---------------------
    // the per-atom arrays that cannot move between ranks on the device ("" when all can)
    std::string migration_missing() const;
    // Domain::pbc() on the owned rows for the global box lo..hi (periodic[d] != 0: wrap,
    // image counts follow); drops the ghost rows
    void wrap_owned(const double lo[3], const double hi[3], const int periodic[3]);
    // CommBrick::exchange, one dimension: owned rows with x[dim] outside [lo, hi) leave;
    // `count` of them, their records (record_width() doubles each, in CommBrick's send
    // order) in the page-locked exchange_buffer(0), which is returned
    const double *exchange_leaving(int dim, double lo, double hi, int &count);
    // the staying rows as CommBrick leaves them (each hole filled from the end), then the
    // `count` arriving records (buf may be exchange_buffer(1); free again on return)
    void exchange_arrivals(const double *records, int count);
    int record_width() const;
    int record_offset(const std::string &name) const;    // e.g. "xx", "xy", "xz"
    // CommBrick::borders, one swap: rows nfirst .. nlast-1 (owned, then ghosts received so
    // far) with lo <= x[dim] <= hi, in row order (border_select, below).
    // border_pack: their border records (x + shift when shifted, tag, type, mask: 6
    // doubles, + molecule) into the page-locked exchange_buffer(0), returned; border_receive:
    // records that become the next ghosts (buf may be exchange_buffer(1); free again on return);
    // border_copy: a swap with this rank itself. border_finish: the rows (owned + ghosts)
    // of all arrays; then, with topology rows (molecular atoms), resolve_topology for the
    // bonded and special lists of the new rows; then take_border_plan and
    // build_neighbor_list. A record is BORDER_WIDTH doubles, one
    // more (the molecule ID) while molecule exclusions need the ghosts' molecule IDs:
    // border_width() says which.
    static constexpr int BORDER_WIDTH = 6;
    int border_width() const;
    // border_select: both swaps of one need of a dimension in one pass (they have the
    // same candidates nfirst .. nlast-1; swap k's slab lo[k] <= x[dim] <= hi[k], none when
    // lo[k] > hi[k]). The first swap's rows are appended to the send index of these borders
    // on the device (take_border_plan makes it the forward plan's) and their count
    // returned; border_select_second() does the same for the second swap's, held until
    // the first swap's records have gone (was: a pass, a scan and a copy to the host each)
    int border_select(int dim, const double lo[2], const double hi[2], int nfirst, int nlast);
    int border_select_second();
    // the send index border_select assembled (send_total rows) becomes the forward plan's
    // (the role of set_ghost_plan after borders on the device)
    void take_border_plan(int send_total);
    const double *border_pack(const double shift[3], bool shifted);
    void border_receive(const double *buf, int count);
    void border_copy(const double shift[3], bool shifted);
    // the same through CUDA IPC between ranks of one node: border_pack_to_peer packs the
    // selected rows' records and copies them device to device into the partner's area
    // (peer, an ipc_open_peer pointer of its ipc_records_area) at peer_offset doubles,
    // one stream synchronisation: they are there when it returns; border_receive_from_ipc
    // appends `count` records from the start of this rank's own area (finished on return)
    void border_pack_to_peer(const double shift[3], bool shifted, void *peer, size_t peer_offset);
    void border_receive_from_ipc(int count);
    // this rank's receive area for border records, as ipc_recv_area for positions
    bool ipc_records_area(size_t count, char *handle, unsigned long long *generation,
                          std::string &error);
    void border_finish();
    // tags, types, masks of the owned rows (host sync after atoms moved between ranks)
    void download_ids(int *tag, int *type, int *mask) const;
    // --- several MPI ranks, molecular atoms on a reneighbouring step on the device
    // (topology/topology_migrate.cu) ---------------------------------------------------
    // the owned atoms' topology rows (OwnedTopologyLayout; nlocal x layout.width ints,
    // row-major, LAMMPS order; after upload_atoms and set_owned) and, for atom styles with
    // charges, their charges (nlocal values; null: none). Both move with the atoms; the
    // engine's bond, angle, dihedral and special lists of the device rows are remade from
    // them at every border_finish (resolve_topology).
    void upload_owned_topology(const OwnedTopologyLayout &layout, const int *rows, const double *q);
    bool has_owned_topology() const;
    const OwnedTopologyLayout &owned_topology_layout() const;
    // the rows and charges of the owned atoms (null: not wanted) into LAMMPS order
    void download_owned_topology(int *rows, double *q) const;
    // the device lists of every row (owned and ghost) from the owned atoms' rows (after
    // border_finish; build_neighbor_list refuses to run between the two): each
    // partner's atom ID found among the rows (sorted tags, binary search), of several
    // images the one closest to the atom that stores the term (Domain::closest_image);
    // listed as build_device_topology lists them. A bond, angle or dihedral partner that
    // is no row is a runtime_error naming the atoms (special partners: -1, as the host)
    void resolve_topology();
    // the engine's bond, angle, dihedral and special lists of all rows (tests compare them
    // with the host path's)
    void download_lists(HostLists &out) const;
    // the CUDA device this process uses (before the first Engine; run_style verlet/cuda:
    // node-local rank mod device count)
    static void use_device(int dev);
    // --- several MPI ranks, forward positions through CUDA IPC (core/ghosts_ipc.cu; the
    // host side: DeviceComm, run_style verlet/cuda exchange ipc) -------------------------
    // Each rank's receive area on its device: ipc_recv_area(n) makes it hold at least n
    // doubles (grown with slack, old contents not kept) and returns true when it was
    // (re)allocated, its cudaIpcMemHandle_t then in handle (IPC_HANDLE_BYTES bytes, for the
    // ranks that send to this one) and its generation in *generation (a new number per
    // allocation); false with a reason in `error` when the handle cannot be made.
    static constexpr int IPC_HANDLE_BYTES = 64;
    bool ipc_recv_area(size_t count, char *handle, unsigned long long *generation,
                       std::string &error);
    // another process's area on this node (any of its GPUs, or this one): the device
    // pointer, null with a reason in `error`; ipc_close_peer releases it
    static void *ipc_open_peer(const char *handle, std::string &error);
    static void ipc_close_peer(void *peer);
    // forward exchange through IPC, one swap: as pack_positions, then the packed values
    // copied into the partner's area (peer, an ipc_open_peer pointer) at peer_offset
    // doubles, then one stream synchronisation: they are there when it returns
    void pack_positions_to_peer(int offset, int count, const double shift[3], bool shifted,
                                void *peer, size_t peer_offset);
    // the received positions from this rank's own area at area_offset doubles into rows
    // first .. first + count (queued in stream order, no wait)
    void unpack_positions_from_ipc(int first, int count, size_t area_offset);
    // reverse exchange through IPC (newton_bond on), one swap: as pack_forces, the ghost
    // rows' forces copied into the partner's reverse area (an ipc_open_peer pointer of
    // its ipc_reverse_area) at peer_offset doubles, one stream synchronisation; and the
    // received forces added from this rank's own reverse area at area_offset doubles to
    // rows send_index[offset .. offset + count) (queued, no wait)
    bool ipc_reverse_area(size_t count, char *handle, unsigned long long *generation,
                          std::string &error);
    void pack_forces_to_peer(int first, int count, void *peer, size_t peer_offset);
    void unpack_add_forces_from_ipc(int offset, int count, size_t area_offset);

    // the engine's state, for the parts of cuda/ that add force terms (core/engine_impl.cuh)
    struct Impl;
    Impl &internals() { return *impl; }

   private:
    void sort_atoms();
    std::unique_ptr<Impl> impl;
  };

}    // namespace cuda
}    // namespace mesogpu

#endif
