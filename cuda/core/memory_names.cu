/* mesogpu: the names of the engine's device arrays in the memory report (src/memory_table.h,
 * run_style verlet/cuda memory yes): each member array of Engine::Impl is charged to a row
 * of its own, named after the member (the three components of x, v, f... share one row).
 * Arrays of force terms and other parts keep the AllocLabel of their allocation as row. */

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {

  namespace {
    template <typename T> void name(DeviceArray<T> &a, const char *n)
    {
      a.set_name(n);
    }
    template <typename T, size_t K> void name(DeviceArray<T> (&a)[K], const char *n)
    {
      for (auto &e : a) e.set_name(n);
    }
  }    // namespace

  void name_device_arrays(Engine::Impl &s)
  {
    // the atoms (x, v, f, xhold, image: one row per quantity, its three arrays summed;
    // xhold held only with check yes or chain growth)
    name(s.x, "x");
    name(s.v, "v");
    name(s.f, "f");
    name(s.xhold, "xhold");
    name(s.image, "image");
    name(s.type, "type");
    name(s.mask, "mask");
    name(s.tag, "tag");
    name(s.mass, "mass");
    name(s.rmass, "rmass");
    name(s.pos, "pos");
    // topology
    name(s.nspecial, "nspecial");
    name(s.special, "special");
    name(s.nbond, "nbond");
    name(s.bond_partner, "bond_partner");
    name(s.bond_type, "bond_type");
    name(s.edit_candidates, "edit_candidates");
    name(s.edit_state, "edit_state");
    name(s.edit_claim, "edit_claim");
    name(s.edit_counters, "edit_counters");
    name(s.nangle, "nangle");
    name(s.ndihedral, "ndihedral");
    name(s.dihedral_type, "dihedral_type");
    name(s.angle_atoms, "angle_atoms");
    name(s.dihedral_atoms, "dihedral_atoms");
    // cells and neighbour list
    name(s.cutneighsq, "cutneighsq");
    name(s.cell_of, "cell_of");
    name(s.cell_count, "cell_count");
    name(s.cell_atoms, "cell_atoms");
    name(s.nnbr, "nnbr");
    name(s.nbr, "nbr");
    name(s.nbr16, "nbr (16-bit)");
    name(s.cell_pos, "cell_pos");
    name(s.cell_order, "cell_order");
    name(s.border_send, "border_send");
    name(s.status, "status");
    name(s.extent, "extent");
    // oriented particles, rigid bodies
    name(s.orient, "orient");
    name(s.mu_len, "mu_len");
    name(s.omega, "omega");
    name(s.torque, "torque");
    name(s.inertia, "inertia");
    name(s.orient_packed, "orient_packed");
    name(s.quat, "quat");
    name(s.angmom, "angmom");
    name(s.quat_packed, "quat_packed");
    name(s.rigid_inertia, "rigid_inertia");
    name(s.rigid_zero_axis, "rigid_zero_axis");
    name(s.rotation_limited, "rotation_limited");
    // integrator sums, energies and virials (one row per force group), errors
    name(s.gfactor1, "gfactor1");
    name(s.gfactor2, "gfactor2");
    name(s.mv_sum, "mv_sum");
    const char *ev_names[NUM_FORCE_GROUPS] = {"ev (pair)", "ev (bond)", "ev (angle)",
                                              "ev (dihedral)"};
    const char *sum_names[NUM_FORCE_GROUPS] = {"ev sums (pair)", "ev sums (bond)",
                                               "ev sums (angle)", "ev sums (dihedral)"};
    for (int g = 0; g < NUM_FORCE_GROUPS; ++g) {
      name(s.ev[g].a, ev_names[g]);
      name(s.ev[g].warp_sums, sum_names[g]);
    }
    name(s.ev_sum, "ev_sum");
    name(s.err, "err");
    // exclusions, MD-SCF field
    name(s.ex_type, "ex_type");
    name(s.molecule, "molecule");
    name(s.owned_rows, "topology rows");
    name(s.owned_q, "q");
    name(s.field_type2comp, "field_type2comp");
    name(s.field_cell_count, "field_cell_count");
    name(s.field_cell_atoms, "field_cell_atoms");
    name(s.field_phi, "field_phi");
    name(s.field_pot, "field_pot");
    name(s.field_grad, "field_grad");
    name(s.field_sums, "field_sums");
    // sorting (scratch, freed after each sort: peak only)
    name(s.order, "order");
    name(s.sort_src, "sort_src");
    name(s.sort_inv, "sort_inv");
    name(s.sort_tmp_int, "sort_tmp_int");
    name(s.sort_key, "sort_key");
    name(s.sort_key_out, "sort_key_out");
    name(s.sort_scratch, "sort_scratch");
    name(s.sort_permute, "sort_permute");
    // several ranks: ghost exchange and device rebuilds
    name(s.comm_send, "comm_send");
    name(s.comm_buf, "comm_buf");
    name(s.comm_dev[0], "comm_dev_send");
    name(s.comm_dev[1], "comm_dev_recv");
    name(s.ipc_recv, "ipc_recv");
    name(s.ipc_records, "ipc_records");
    name(s.ipc_reverse, "ipc_reverse");
    name(s.mig_keep, "mig_keep");
    name(s.mig_leave, "mig_leave");
    name(s.mig_sel, "mig_sel");
    name(s.mig_sel_next, "mig_sel_next");
    name(s.mig_sel_count, "mig_sel_count");
    name(s.mig_scratch, "mig_scratch");
    name(s.mig_rec, "mig_rec");
    name(s.ghost_rec, "ghost_rec");
    // chain growth
    name(s.cg_prob, "cg_prob");
    name(s.cg_newtype, "cg_newtype");
    name(s.cg_best, "cg_best");
    name(s.cg_flags, "cg_flags");
    name(s.cg_key, "cg_key");
    name(s.cg_claim, "cg_claim");
    name(s.cg_candidates, "cg_candidates");
  }

}    // namespace cuda
}    // namespace mesogpu
