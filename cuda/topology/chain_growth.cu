/* mesogpu: stochastic chain growth on the device (engine.h: chain_growth_step; fix
 * polymerize/cuda). The decision rule is src/physics/chain_growth.h, the one the CPU fix
 * (src/fix_polymerize.cpp) uses, so both make the same bonds from the same positions:
 *   1. (host) the neighbour list must hold every pair within rc: rebuilt first when an
 *      atom moved more than (reach - rc) / 2 since the last build;
 *   2. one thread per active end of the group walks its full neighbour list, keeps the
 *      accepted free monomer of smallest (u, ID) and claims it with atomicMin of the
 *      64-bit key (u, end ID) (physics::candidate_key: the order of better_candidate);
 *   3. one thread per end that chose: the end whose key the monomer holds wins; it writes
 *      a BondEdit candidate and moves the chain state (end: init 0, cris + 1; monomer:
 *      init 1, cris 1, position + 1, new type);
 *   4. (host) insert_bonds with the candidates in device memory. Every atom is in one
 *      candidate at most (ends and free monomers are different atoms), so the candidates
 *      apply in one round whatever their order.
 * Distances are taken in `acc` from the integrated positions (double in mixed and double
 * precision): with the same positions the pairs within rc are those of the CPU fix. */

#include "core/engine_impl.cuh"
#include "physics/chain_growth.h"

#include <stdexcept>

namespace mesogpu {
namespace cuda {

  namespace {

    namespace phys = mesogpu::physics;

    struct ChainView {
      int n, ntp1, groupbit, btype;
      unsigned seed;
      long long step;
      acc rcsq;
      const acc *x, *y, *z;
      const int *mask, *tag;
      int *type;
      PosType<real> *pos;
      acc *state;    // column-major: init [i], cris [n + i], chain position [2 n + i]
      const double *prob;
      const int *newtype;
    };

    // some atom moved more than sqrt(trigsq) since the last list build
    __global__ void cg_moved_kernel(int n, const acc *x, const acc *y, const acc *z, const acc *hx,
                                    const acc *hy, const acc *hz, acc trigsq, int *flag)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const acc dx = x[i] - hx[i], dy = y[i] - hy[i], dz = z[i] - hz[i];
      if (dx * dx + dy * dy + dz * dz > trigsq) *flag = 1;
    }

    // x_i - x_j of a list entry in acc: the entry's image (small boxes), else the
    // minimum image in periodic dimensions
    template <bool Images>
    __device__ __forceinline__ void cg_delta(const ChainView &c, const BoxD &box, int i, int j,
                                             int code, acc d[3])
    {
      d[0] = c.x[i] - c.x[j];
      d[1] = c.y[i] - c.y[j];
      d[2] = c.z[i] - c.z[j];
      if constexpr (Images) {
        const int sx = code % box.img_n[0] - box.img_k[0];
        code /= box.img_n[0];
        const int sy = code % box.img_n[1] - box.img_k[1];
        const int sz = code / box.img_n[1] - box.img_k[2];
        d[0] -= static_cast<acc>(sx) * box.prd[0];
        d[1] -= static_cast<acc>(sy) * box.prd[1];
        d[2] -= static_cast<acc>(sz) * box.prd[2];
      } else {
        for (int k = 0; k < 3; ++k)
          if (box.periodic[k]) d[k] -= box.prd[k] * rint(d[k] / box.prd[k]);
      }
    }

    // 2. each active end of the group chooses its monomer and claims it
    // List: the list's view (neighbor/list_view.cuh), 32-bit or 16-bit cell entries
    template <class List, bool Images>
    __global__ void cg_choose_kernel(ChainView c, BoxD box, List list, int *best,
                                     unsigned long long *key, unsigned long long *claim)
    {
      static_assert(!Images || List::allows_images, "explicit images need 32-bit entries");
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= c.n) return;
      best[i] = -1;
      if (!(c.mask[i] & c.groupbit) || c.state[i] != acc(1)) return;
      const int n = c.n;
      const int ti = c.type[i];
      const long long tag_i = c.tag[i];
      double ubest = 2.0;
      long long tbest = 0;
      int jbest = -1;
      const int m = list.nnbr[i];
      auto cur = list.cursor(i, i);    // entry k at [k n + i]
      for (int k = 0; k < m; ++k, list.advance(cur, n)) {
        int which;    // the special level: growth takes any pair within reach
        int j = list.neighbor(cur, which);
        (void) which;
        const int code = take_image<Images>(j, box);
        if (!(c.mask[j] & c.groupbit)) continue;
        if (!phys::chain_growth_free(static_cast<int>(c.state[j]),
                                     static_cast<int>(c.state[n + j])))
          continue;
        const double p = c.prob[ti * c.ntp1 + c.type[j]];
        if (p <= 0.0) continue;
        acc d[3];
        cg_delta<Images>(c, box, i, j, code, d);
        if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= c.rcsq) continue;
        const long long tag_j = c.tag[j];
        const double u = phys::chain_growth_uniform(c.seed, c.step, tag_i, tag_j);
        if (!phys::chain_growth_accept(u, p)) continue;
        if (phys::better_candidate(u, tag_j, ubest, tbest)) {
          ubest = u;
          tbest = tag_j;
          jbest = j;
        }
      }
      best[i] = jbest;
      if (jbest < 0) return;
      const unsigned long long kk = phys::candidate_key(ubest, tag_i);
      key[i] = kk;
      atomicMin(claim + jbest, kk);
    }

    // 3. the end whose key the monomer holds bonds to it; the chain state moves
    __global__ void cg_apply_kernel(ChainView c, const int *best, const unsigned long long *key,
                                    const unsigned long long *claim, BondEdit *cand, int *count)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= c.n) return;
      const int j = best[i];
      if (j < 0 || claim[j] != key[i]) return;
      const int k = atomicAdd(count, 1);
      BondEdit e;
      e.i = i;
      e.j = j;
      e.type = c.btype;
      cand[k] = e;
      const int n = c.n;
      c.state[i] = acc(0);
      c.state[n + i] += acc(1);
      c.state[j] = acc(1);
      c.state[n + j] = acc(1);
      c.state[2 * n + j] = c.state[2 * n + i] + acc(1);
      const int t = c.newtype[c.type[j]];
      if (t != c.type[j]) {
        c.type[j] = t;
        c.pos[j].type = t;
      }
    }

  }    // namespace

  Engine::ChainGrowthResult Engine::chain_growth_step(const ChainGrowth &p)
  {
    Impl &s = *impl;
    ChainGrowthResult r;
    if (s.n == 0) return r;
    acc *state = s.slot_data(p.slot);
    if (!state || per_atom_width(p.slot) != 3)
      throw std::logic_error("mesogpu: chain growth needs the per-atom data '" + p.slot +
                             "' of width 3 (init, cris, chain position) on the device");
    if (!s.has_pair_terms())
      throw std::runtime_error(
          "chain growth finds the monomers in the device neighbour list, and this run builds "
          "none (no pair forces on the device: pair_style zero/cuda makes no list; use a pair "
          "style with a cutoff covering rc, e.g. soft or lj/cut with zero energy)");
    if (s.tag.size() != (size_t) s.n)
      throw std::logic_error("mesogpu: chain growth needs the atom IDs (upload_tags)");
    const int ntp1 = s.ntp1();
    if (p.prob.size() != (size_t) ntp1 * ntp1 || p.newtype.size() != (size_t) ntp1)
      throw std::logic_error("mesogpu: chain growth: prob needs (ntypes+1)^2 values, newtype "
                             "ntypes+1");
    if (!(p.rc > 0.0) || p.reach < p.rc)
      throw std::runtime_error("chain growth: capture radius " + std::to_string(p.rc) +
                               " exceeds the neighbour cutoff " + std::to_string(p.reach) +
                               " (pair cutoff + skin) of a reacting type pair");
    AllocLabel label("the chain growth step");
    s.cg_flags.resize(2);    // [0] moved, [1] bonds made

    // 1. a list that holds every pair within rc now
    // (its test needs xhold: held from the next build on, if check no left none)
    s.xhold_for_growth = true;
    bool rebuild = !s.built || s.box_check || s.xhold[0].size() != (size_t) s.n;
    if (!rebuild) {
      const double half = 0.5 * (p.reach - p.rc);
      MESOGPU_CUDA_CALL(cudaMemsetAsync(s.cg_flags.get(), 0, sizeof(int)));
      cg_moved_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(),
                                              s.xhold[0].get(), s.xhold[1].get(), s.xhold[2].get(),
                                              static_cast<acc>(half * half), s.cg_flags.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      int moved = 0;
      s.cg_flags.download(&moved, 1);
      rebuild = moved != 0;
    }
    if (rebuild) {
      build_neighbor_list();    // may sort: the slot follows, the scratch comes after
      r.rebuilt = true;
    }
    state = s.slot_data(p.slot);

    s.cg_prob.upload(p.prob);
    s.cg_newtype.upload(p.newtype);
    s.cg_best.resize(s.n);
    s.cg_key.resize(s.n);
    s.cg_claim.resize(s.n);
    s.cg_candidates.resize(s.n);
    MESOGPU_CUDA_CALL(
        cudaMemsetAsync(s.cg_claim.get(), 0xFF, (size_t) s.n * sizeof(unsigned long long)));
    MESOGPU_CUDA_CALL(cudaMemsetAsync(s.cg_flags.get() + 1, 0, sizeof(int)));

    ChainView c;
    c.n = s.n;
    c.ntp1 = ntp1;
    c.groupbit = p.groupbit;
    c.btype = p.btype;
    c.seed = p.seed;
    c.step = p.step;
    c.rcsq = static_cast<acc>(p.rc * p.rc);
    c.x = s.x[0].get();
    c.y = s.x[1].get();
    c.z = s.x[2].get();
    c.mask = s.mask.get();
    c.tag = s.tag.get();
    c.type = s.type.get();
    c.pos = s.pos.get();
    c.state = state;
    c.prob = s.cg_prob.get();
    c.newtype = s.cg_newtype.get();
    const BoxD box = s.box();
    const int nb = blocks(s.n);
    if (box.img_bits)
      cg_choose_kernel<WideList, true><<<nb, BLOCK>>>(c, box, WideList{s.nnbr.get(), s.nbr.get()},
                                                      s.cg_best.get(), s.cg_key.get(),
                                                      s.cg_claim.get());
    else
      s.with_list([&](const auto &list) {
        cg_choose_kernel<std::decay_t<decltype(list)>, false>
            <<<nb, BLOCK>>>(c, box, list, s.cg_best.get(), s.cg_key.get(), s.cg_claim.get());
      });
    MESOGPU_CUDA_LAUNCH_CHECK();
    cg_apply_kernel<<<nb, BLOCK>>>(c, s.cg_best.get(), s.cg_key.get(), s.cg_claim.get(),
                                   s.cg_candidates.get(), s.cg_flags.get() + 1);
    MESOGPU_CUDA_LAUNCH_CHECK();
    int h[2] = {0, 0};
    s.cg_flags.download(h, 2);
    r.made = h[1];
    // 4. the bonds (special lists rebuilt, the neighbour list stale)
    if (r.made > 0) r.edit = insert_bonds(s.cg_candidates.get(), r.made, true, false);
    return r;
  }

  void Engine::download_types(int *type) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<int> t(s.n);
    s.type.download(t.data(), s.n);
    const int *o = s.order_host.data();    // device atom d is LAMMPS atom o[d]
    for (int d = 0; d < s.n; ++d) type[o[d]] = t[d];
  }

}    // namespace cuda
}    // namespace mesogpu
