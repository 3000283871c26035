/* mesogpu: bonds inserted and removed on the device, with spare capacity in the per-atom
 * lists, the special lists rebuilt from the bonds, and the lists downloaded in LAMMPS
 * order at host syncs (engine.h: "topology edits"). The per-bond and per-atom edits are
 * src/physics/topology_edit.h, unit-tested on the CPU. */

#include "core/engine_impl.cuh"
#include "physics/topology_edit.h"

#include <climits>
#include <sstream>

namespace mesogpu {
namespace cuda {

  namespace {

    using topo::BondLists;

    constexpr int PENDING = 0, DECIDED = 1;
    // edit_counters: [0] applied, [1] pending after this round, [2] full, [3] invalid,
    // [4] unchanged
    constexpr int NCOUNTERS = 5;
    // ErrorRecord::group of a topology record (negative: not a bonded term's)
    constexpr int TOPO_BONDS_FULL = -1, TOPO_SPECIAL_FULL = -2, TOPO_INVALID = -3;

    __device__ void record_topology_error(ErrorRecord *err, int kind, int i, int j, int type,
                                          int value)
    {
      if (atomicOr(&err->bits, ERR_TOPOLOGY) == 0) {
        err->i = i;
        err->j = j;
        err->type = type;
        err->rsq = value;
        err->group = kind;
      }
    }

    __global__ void edit_validate_kernel(int nc, const BondEdit *c, int n, bool insert, int *state,
                                         int *counters, ErrorRecord *err)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= nc) return;
      const BondEdit e = c[k];
      const bool bad =
          e.i < 0 || e.j < 0 || e.i >= n || e.j >= n || e.i == e.j || (insert && e.type < 1);
      state[k] = bad ? DECIDED : PENDING;
      if (bad) {
        atomicAdd(&counters[3], 1);
        record_topology_error(err, TOPO_INVALID, e.i, e.j, e.type, k);
      }
    }

    // the atoms of pending candidates are free again before the claims of a round
    __global__ void edit_reset_kernel(int nc, const BondEdit *c, const int *state, int *claim)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= nc || state[k] != PENDING) return;
      claim[c[k].i] = INT_MAX;
      claim[c[k].j] = INT_MAX;
    }

    // each atom goes to the lowest pending candidate naming it
    __global__ void edit_claim_kernel(int nc, const BondEdit *c, const int *state, int *claim)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= nc || state[k] != PENDING) return;
      atomicMin(&claim[c[k].i], k);
      atomicMin(&claim[c[k].j], k);
    }

    // a candidate holding both its atoms changes their lists (no other thread of this
    // round touches them); every lower candidate naming either atom is decided already,
    // so the result is that of taking the candidates one by one in order
    __global__ void edit_apply_kernel(int nc, const BondEdit *c, int *state, const int *claim,
                                      BondLists b, bool insert, bool skip_full, int *counters,
                                      ErrorRecord *err)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k >= nc || state[k] != PENDING) return;
      const BondEdit e = c[k];
      if (claim[e.i] != k || claim[e.j] != k) {
        atomicAdd(&counters[1], 1);
        return;
      }
      state[k] = DECIDED;
      const int r =
          insert ? topo::insert_bond(b, e.i, e.j, e.type) : topo::remove_bond(b, e.i, e.j);
      if (r == topo::EDIT_DONE) {
        atomicAdd(&counters[0], 1);
      } else if (r == topo::EDIT_FULL) {
        atomicAdd(&counters[2], 1);
        if (!skip_full)
          record_topology_error(err, TOPO_BONDS_FULL, e.i, e.j, e.type,
                                b.count[e.i] >= b.width ? e.i : e.j);
      } else if (r == topo::EDIT_NOTHING) {
        atomicAdd(&counters[4], 1);
      }
    }

    // every atom's special list again from the bond lists (rows of cap entries, unused -1)
    __global__ void special_rebuild_kernel(BondLists b, int levels, int *nspecial, int *special,
                                           int cap, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= b.n) return;
      int *row = special + (size_t) i * cap;
      int ns[3];
      const bool ok = topo::build_special_one(b, i, levels, row, cap, ns);
      for (int k = ns[2]; k < cap; ++k) row[k] = -1;
      nspecial[3 * (size_t) i] = ns[0];
      nspecial[3 * (size_t) i + 1] = ns[1];
      nspecial[3 * (size_t) i + 2] = ns[2];
      if (!ok) record_topology_error(err, TOPO_SPECIAL_FULL, i, -1, 0, cap);
    }

    BondLists bond_lists(Engine::Impl &s)
    {
      BondLists b;
      b.n = s.n;
      b.width = s.maxbond;
      b.count = s.nbond.get();
      b.partner = s.maxbond > 0 ? s.bond_partner.get() : nullptr;
      b.type = s.maxbond > 0 ? s.bond_type.get() : nullptr;
      return b;
    }

    // atom IDs of the device atoms (device order): the uploaded tags, else LAMMPS index + 1
    std::vector<int> device_tags(const Engine::Impl &s)
    {
      std::vector<int> t(s.n);
      if (s.tag.size() == (size_t) s.n) {
        s.tag.download(t.data(), s.n);
      } else {
        for (int d = 0; d < s.n; ++d) t[d] = s.order_host[d] + 1;
      }
      return t;
    }

    BondEditResult edit_bonds(Engine::Impl &s, const BondEdit *cand, int nc, bool on_device,
                              bool insert, bool skip_full)
    {
      BondEditResult r;
      if (nc <= 0 || s.n == 0) return r;
      if (s.nbond.size() != (size_t) s.n) {    // no bond lists held: no atom has a bond
        AllocLabel label("the bond lists");
        s.nbond.resize(s.n);
        s.nbond.zero();
      }
      if (s.special_levels > 0 && s.maxspecial <= 0)
        throw std::runtime_error(
            "mesogpu: bond edits rebuild the special lists, and the device holds none: give "
            "them room (Engine::reserve_topology; in LAMMPS extra/special/per/atom)");
      AllocLabel label("the bond edits");
      const BondEdit *c = cand;
      if (!on_device) {
        s.edit_candidates.upload(cand, nc);
        c = s.edit_candidates.get();
      }
      s.edit_state.resize(nc);
      s.edit_claim.resize(s.n);
      s.edit_counters.resize(NCOUNTERS);
      s.edit_counters.zero();
      const BondLists b = bond_lists(s);
      const int nb = blocks(nc);
      edit_validate_kernel<<<nb, BLOCK>>>(nc, c, s.n, insert, s.edit_state.get(),
                                          s.edit_counters.get(), s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      int h[NCOUNTERS] = {0, 0, 0, 0, 0};
      // each round decides at least the lowest pending candidate: at most nc rounds
      for (;;) {
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.edit_counters.get() + 1, 0, sizeof(int)));
        edit_reset_kernel<<<nb, BLOCK>>>(nc, c, s.edit_state.get(), s.edit_claim.get());
        edit_claim_kernel<<<nb, BLOCK>>>(nc, c, s.edit_state.get(), s.edit_claim.get());
        edit_apply_kernel<<<nb, BLOCK>>>(nc, c, s.edit_state.get(), s.edit_claim.get(), b, insert,
                                         skip_full, s.edit_counters.get(), s.err.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
        s.edit_counters.download(h, NCOUNTERS);
        r.rounds++;
        if (h[1] == 0) break;
        if (r.rounds > nc)    // cannot happen: the lowest pending candidate always applies
          throw std::runtime_error("mesogpu: bond edits did not settle (internal error)");
      }
      r.applied = h[0];
      r.full = h[2];
      r.invalid = h[3];
      r.unchanged = h[4];
      if (r.applied > 0) {
        if (s.special_levels > 0 && s.maxspecial > 0) {
          special_rebuild_kernel<<<blocks(s.n), BLOCK>>>(
              b, s.special_levels, s.nspecial.get(), s.special.get(), s.maxspecial, s.err.get());
          MESOGPU_CUDA_LAUNCH_CHECK();
        }
        s.built = false;    // the special bits of the neighbour list changed
        s.topology_changed = true;
      }
      return r;
    }

  }    // namespace

  std::string topology_error_text(const Engine::Impl &s, const ErrorRecord &e)
  {
    const std::vector<int> tags = device_tags(s);
    auto tag = [&](int d) {
      return d >= 0 && d < s.n ? std::to_string(tags[d]) : std::string("?");
    };
    std::ostringstream m;
    if (e.group == TOPO_BONDS_FULL) {
      const int full = static_cast<int>(e.rsq);
      m << "a new bond of type " << e.type << " between atoms " << tag(e.i) << " and " << tag(e.j)
        << " does not fit: atom " << tag(full) << " has " << s.maxbond
        << " bonds already, the device bond capacity per atom (bonds counted on both atoms); "
           "raise extra/bond/per/atom (read_data, create_box)";
    } else if (e.group == TOPO_SPECIAL_FULL) {
      m << "after a bond change the special list of atom " << tag(e.i) << " needs more than "
        << static_cast<int>(e.rsq)
        << " entries, the device special capacity per atom; raise extra/special/per/atom "
           "(read_data, create_box)";
    } else {
      m << "invalid bond edit (candidate " << static_cast<long long>(e.rsq) << "): atoms " << e.i
        << " and " << e.j << ", type " << e.type << " (device indices must be distinct and in 0.."
        << s.n - 1 << ", the type of a new bond at least 1)";
    }
    return m.str();
  }

  void Engine::reserve_topology(int bond_capacity, int special_capacity, int special_levels)
  {
    Impl &s = *impl;
    const size_t n = s.n;
    s.special_levels = std::max(0, std::min(3, special_levels));
    // (no capacity asked and no bonds: the lists stay empty, as upload_atoms left them)
    if (bond_capacity > s.maxbond || (bond_capacity > 0 && s.nbond.size() != n)) {
      const int w = std::max(bond_capacity, s.maxbond);
      std::vector<int> nb(n, 0), p(n * w, 0), t(n * w, 0);
      if (s.nbond.size() == n) s.nbond.download(nb.data(), n);
      if (s.maxbond > 0) {    // column-major on the device, row-major for upload_bonds
        std::vector<int> pc(n * s.maxbond), tc(n * s.maxbond);
        s.bond_partner.download(pc.data(), pc.size());
        s.bond_type.download(tc.data(), tc.size());
        for (size_t i = 0; i < n; ++i)
          for (int k = 0; k < s.maxbond; ++k) {
            p[i * w + k] = pc[k * n + i];
            t[i * w + k] = tc[k * n + i];
          }
      }
      upload_bonds(nb.data(), p.data(), t.data(), w);
    }
    if (special_capacity > s.maxspecial) {
      const int w = special_capacity;
      std::vector<int> ns(3 * n, 0), sp(n * w, -1);
      if (s.maxspecial > 0) {
        std::vector<int> old(n * s.maxspecial);
        s.nspecial.download(ns.data(), ns.size());
        s.special.download(old.data(), old.size());
        for (size_t i = 0; i < n; ++i)
          for (int k = 0; k < s.maxspecial; ++k) sp[i * w + k] = old[i * s.maxspecial + k];
      }
      int flag[4];
      double lj[4];
      for (int k = 0; k < 4; ++k) {
        flag[k] = s.special_flag[k];
        lj[k] = s.special_lj[k];
      }
      upload_special(ns.data(), sp.data(), w, flag, lj);
    }
  }

  int Engine::bond_capacity() const
  {
    return impl->maxbond;
  }

  int Engine::special_capacity() const
  {
    return impl->maxspecial;
  }

  BondEditResult Engine::insert_bonds(const BondEdit *candidates, int ncandidates, bool on_device,
                                      bool skip_full)
  {
    return edit_bonds(*impl, candidates, ncandidates, on_device, true, skip_full);
  }

  BondEditResult Engine::remove_bonds(const BondEdit *candidates, int ncandidates, bool on_device)
  {
    return edit_bonds(*impl, candidates, ncandidates, on_device, false, false);
  }

  bool Engine::topology_changed() const
  {
    return impl->topology_changed;
  }

  void Engine::clear_topology_changed()
  {
    impl->topology_changed = false;
  }

  std::vector<int> Engine::device_index_of_lammps() const
  {
    const Impl &s = *impl;
    std::vector<int> inv(s.n);
    for (int d = 0; d < s.n; ++d) inv[s.order_host[d]] = d;
    return inv;
  }

  void Engine::download_bonds(int *nbond, int *partner_tag, int *type) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const size_t n = s.n, w = s.maxbond;
    std::vector<int> nb(n, 0), pc(n * w), tc(n * w);
    if (s.nbond.size() == n) s.nbond.download(nb.data(), n);
    if (w > 0) {
      s.bond_partner.download(pc.data(), pc.size());
      s.bond_type.download(tc.data(), tc.size());
    }
    const std::vector<int> tags = device_tags(s);
    const int *o = s.order_host.data();    // device atom d is LAMMPS atom o[d]
    for (size_t d = 0; d < n; ++d) {
      const size_t l = o[d];
      nbond[l] = nb[d];
      for (size_t k = 0; k < w; ++k) {
        const bool used = (int) k < nb[d];
        partner_tag[l * w + k] = used ? tags[pc[k * n + d]] : 0;
        type[l * w + k] = used ? tc[k * n + d] : 0;
      }
    }
  }

  void Engine::download_special(int *nspecial, int *special_tag) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const size_t n = s.n, w = s.maxspecial;
    std::vector<int> ns(3 * n, 0), sp(n * w);
    if (w > 0) {
      s.nspecial.download(ns.data(), ns.size());
      s.special.download(sp.data(), sp.size());
    }
    const std::vector<int> tags = device_tags(s);
    const int *o = s.order_host.data();
    for (size_t d = 0; d < n; ++d) {
      const size_t l = o[d];
      for (int k = 0; k < 3; ++k) nspecial[3 * l + k] = ns[3 * d + k];
      for (size_t k = 0; k < w; ++k)
        special_tag[l * w + k] = (int) k < ns[3 * d + 2] ? tags[sp[d * w + k]] : 0;
    }
  }

}    // namespace cuda
}    // namespace mesogpu
