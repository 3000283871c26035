/* GPU tests of bonds inserted and removed on the device (engine.h: topology edits;
   cuda/topology/topology_edit.cu) and of their download into LAMMPS (command device_bonds,
   VerletCuda::sync_topology):
   - the engine alone: random candidates with conflicts and full lists, after sorts along
     the space-filling curve, against a slow sequential reference written here (bond lists
     in order, special lists as graph distances); the same result without sorting and from
     a device array of candidates; removal; overflow and invalid candidates stop with
     messages naming the capacity;
   - forces: lj/cut + bond harmonic on the engine's edited lists (special bits from the
     rebuilt special lists, the neighbour list rebuilt because it went stale) against
     LAMMPS's CPU styles with the same bonds made by create_bonds;
   - through LAMMPS: device_bonds create/skip and break after a run 0, LAMMPS's arrays
     (bond storage, nbonds, special lists) against the reference and against a CPU
     instance with the same bonds (its Special::build), forces of a following run 0.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. Tolerances depend on
   MESOGPU_PRECISION. */

#include "gpu_test_main.h"
#include "atom.h"
#include "lammps.h"
#include "update.h"

#include "engine.h"
#include "forces/bonded_builtin.h"
#include "forces/pair_isotropic.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cuda_runtime_api.h>
#include <map>
#include <mpi.h>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

using mesogpu::cuda::BondEdit;
using mesogpu::cuda::BondEditResult;
using mesogpu::cuda::Engine;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-3, ENERGY_TOL = 1e-5;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-6;
const char *PREC = "mixed";
#endif

// ---- the reference: per-atom lists, edits one by one in candidate order -------------
struct Ref {
  int n, width;
  std::vector<std::vector<std::pair<int, int>>> adj;    // (partner, type) in list order
  int applied = 0, unchanged = 0, full = 0;
  Ref(int n_, int w) : n(n_), width(w), adj(n_) {}
  bool bonded(int i, int j) const
  {
    for (auto &e : adj[i])
      if (e.first == j) return true;
    return false;
  }
  void insert(int i, int j, int t)
  {
    if (bonded(i, j)) {
      unchanged++;
    } else if ((int) adj[i].size() >= width || (int) adj[j].size() >= width) {
      full++;
    } else {
      adj[i].push_back({j, t});
      adj[j].push_back({i, t});
      applied++;
    }
  }
  void remove(int i, int j)
  {
    if (!bonded(i, j)) {
      unchanged++;
      return;
    }
    for (int s = 0; s < 2; ++s) {
      auto &l = adj[s ? j : i];
      const int other = s ? i : j;
      for (size_t k = 0; k < l.size(); ++k)
        if (l[k].first == other) {
          l.erase(l.begin() + k);
          break;
        }
    }
    applied++;
  }
  // atoms at 1, 2, 3 bonds (shortest path) from i
  std::vector<std::set<int>> levels(int i) const
  {
    std::vector<int> dist(n, -1);
    std::queue<int> q;
    dist[i] = 0;
    q.push(i);
    while (!q.empty()) {
      const int a = q.front();
      q.pop();
      if (dist[a] == 3) continue;
      for (auto &e : adj[a])
        if (dist[e.first] < 0) {
          dist[e.first] = dist[a] + 1;
          q.push(e.first);
        }
    }
    std::vector<std::set<int>> out(3);
    for (int a = 0; a < n; ++a)
      if (dist[a] >= 1) out[dist[a] - 1].insert(a);
    return out;
  }
};

// ---- an engine of n atoms at random positions in a box of edge L (tags index + 1) ----
struct System {
  int n;
  double L;
  std::vector<double> x;
  System(int n_, double L_, unsigned seed) : n(n_), L(L_), x(3 * n_)
  {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, L);
    for (auto &c : x) c = u(rng);
  }
};

// atoms, tags, the reference's bonds and special lists (indices = LAMMPS order = device
// order before any sort), then room for more
void setup_engine(Engine &e, const System &s, const Ref &ref, int bond_cap, int special_cap,
                  int sort_every)
{
  const int n = s.n;
  std::vector<double> v(3 * n, 0.0), f(3 * n, 0.0), mass = {0.0, 1.0};
  std::vector<int> image(3 * n, 0), type(n, 1), mask(n, 1), tag(n);
  for (int i = 0; i < n; ++i) tag[i] = i + 1;
  const double lo[3] = {0, 0, 0}, hi[3] = {s.L, s.L, s.L};
  e.set_box(lo, hi);
  e.upload_atoms(n, 1, s.x.data(), v.data(), f.data(), image.data(), type.data(), mass.data());
  e.upload_mask(mask.data());
  e.upload_tags(tag.data());
  // the reference's specials (uploaded as LAMMPS gives them), at least width 1
  int ms = 1, mb = 1;
  std::vector<std::vector<int>> rows(n);
  std::vector<int> ns(3 * n, 0);
  for (int i = 0; i < n; ++i) {
    const auto lv = ref.levels(i);
    for (int d = 0; d < 3; ++d) {
      rows[i].insert(rows[i].end(), lv[d].begin(), lv[d].end());
      ns[3 * i + d] = (int) rows[i].size();
    }
    ms = std::max(ms, (int) rows[i].size());
    mb = std::max(mb, (int) ref.adj[i].size());
  }
  std::vector<int> sp((size_t) n * ms, -1);
  for (int i = 0; i < n; ++i)
    for (size_t k = 0; k < rows[i].size(); ++k) sp[(size_t) i * ms + k] = rows[i][k];
  const int flag[4] = {0, 0, 2, 2};
  const double lj[4] = {1.0, 0.0, 0.5, 0.8};
  e.upload_special(ns.data(), sp.data(), ms, flag, lj);
  std::vector<int> nb(n), bp((size_t) n * mb, 0), bt((size_t) n * mb, 0);
  for (int i = 0; i < n; ++i) {
    nb[i] = (int) ref.adj[i].size();
    for (int k = 0; k < nb[i]; ++k) {
      bp[(size_t) i * mb + k] = ref.adj[i][k].first;
      bt[(size_t) i * mb + k] = ref.adj[i][k].second;
    }
  }
  e.upload_bonds(nb.data(), bp.data(), bt.data(), mb);
  e.reserve_topology(bond_cap, special_cap, 3);
  e.set_neighbor(2.8, 0.3, {0.0, 0.0, 0.0, 2.8 * 2.8}, 1, 0, true);
  e.set_sort(sort_every);
  e.build_neighbor_list();
}

// candidates in LAMMPS indices to device indices
std::vector<BondEdit> to_device(const Engine &e, const std::vector<BondEdit> &c)
{
  const std::vector<int> d = e.device_index_of_lammps();
  std::vector<BondEdit> out = c;
  for (auto &b : out) {
    b.i = d[b.i];
    b.j = d[b.j];
  }
  return out;
}

// the engine's lists in LAMMPS order against the reference: bonds in order, special
// lists level by level
void expect_matches(const Engine &e, const Ref &ref, const char *what)
{
  const int n = ref.n, w = e.bond_capacity(), ms = e.special_capacity();
  std::vector<int> nb(n), bp((size_t) n * w), bt((size_t) n * w), ns(3 * n), sp((size_t) n * ms);
  e.download_bonds(nb.data(), bp.data(), bt.data());
  e.download_special(ns.data(), sp.data());
  int bad = 0;
  for (int i = 0; i < n && bad < 5; ++i) {
    std::vector<std::pair<int, int>> got, want;
    for (int k = 0; k < nb[i]; ++k)
      got.push_back({bp[(size_t) i * w + k] - 1, bt[(size_t) i * w + k]});
    want = ref.adj[i];
    if (got != want) {
      ADD_FAILURE() << what << ": bond list of atom " << i + 1 << " differs";
      bad++;
    }
    const auto lv = ref.levels(i);
    for (int d = 0; d < 3; ++d) {
      std::set<int> g;
      for (int k = d ? ns[3 * i + d - 1] : 0; k < ns[3 * i + d]; ++k)
        g.insert(sp[(size_t) i * ms + k] - 1);
      if (g != lv[d]) {
        ADD_FAILURE() << what << ": 1-" << d + 2 << " list of atom " << i + 1 << " differs";
        bad++;
      }
    }
  }
}

std::vector<BondEdit> random_candidates(int n, int count, unsigned seed, int type_max)
{
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> atom(0, n - 1), type(1, type_max);
  std::vector<BondEdit> c;
  while ((int) c.size() < count) {
    BondEdit b;
    b.i = atom(rng);
    b.j = atom(rng) % 40;    // a few atoms draw many candidates: conflicts and full lists
    b.type = type(rng);
    if (b.i != b.j) c.push_back(b);
  }
  return c;
}

}    // namespace

TEST(GpuTopology, InsertAndRemoveMatchSequentialReference)
{
  const int n = 400, cap = 4;
  const System sys(n, 12.0, 21);
  Ref ref(n, cap);
  for (int c = 0; c < 10; ++c)    // chains of 4 among the first 40 atoms
    for (int k = 0; k < 3; ++k) ref.insert(4 * c + k, 4 * c + k + 1, 1);
  ref.applied = 0;
  Engine e, plain;
  setup_engine(e, sys, ref, cap, 40, 1);    // sorted at its first build
  setup_engine(plain, sys, ref, cap, 40, 0);
  ASSERT_GE(e.sorts_done(), 1);
  expect_matches(e, ref, "uploaded");

  const std::vector<BondEdit> cand = random_candidates(n, 600, 5, 2);
  for (const auto &b : cand) ref.insert(b.i, b.j, b.type);
  const std::vector<BondEdit> dc = to_device(e, cand);
  const BondEditResult r = e.insert_bonds(dc.data(), (int) dc.size(), false, true);
  EXPECT_NO_THROW(e.check_errors());
  EXPECT_EQ(r.applied, ref.applied);
  EXPECT_EQ(r.full, ref.full);
  EXPECT_EQ(r.unchanged, ref.unchanged);
  EXPECT_GT(r.full, 50);    // the test did meet full lists and conflicts
  EXPECT_GT(r.rounds, 2);
  EXPECT_TRUE(e.topology_changed());
  EXPECT_TRUE(e.decide_rebuild());    // special lists changed: the list is stale
  expect_matches(e, ref, "inserted (sorted)");
  // the same candidates without sorting: the same lists in LAMMPS order
  const BondEditResult rp = plain.insert_bonds(cand.data(), (int) cand.size(), false, true);
  EXPECT_EQ(rp.applied, r.applied);
  expect_matches(plain, ref, "inserted (unsorted)");

  // removal: a third of the bonds, and pairs that are not bonded
  std::vector<BondEdit> rm;
  std::mt19937 rng(9);
  for (int i = 0; i < n; ++i)
    for (auto &b : ref.adj[i])
      if (b.first > i && rng() % 3 == 0) rm.push_back({i, b.first, 0});
  for (int k = 0; k < 20; ++k) rm.push_back({k, n - 1 - k, 0});
  ref.applied = ref.unchanged = 0;
  for (const auto &b : rm) ref.remove(b.i, b.j);
  const std::vector<BondEdit> drm = to_device(e, rm);
  const BondEditResult rr = e.remove_bonds(drm.data(), (int) drm.size(), false);
  EXPECT_NO_THROW(e.check_errors());
  EXPECT_EQ(rr.applied, ref.applied);
  EXPECT_EQ(rr.unchanged, ref.unchanged);
  expect_matches(e, ref, "removed");

  // candidates from device memory; then lists that follow another sort
  const std::vector<BondEdit> more = random_candidates(n, 300, 77, 3);
  ref.applied = ref.full = ref.unchanged = 0;
  for (const auto &b : more) ref.insert(b.i, b.j, b.type);
  const std::vector<BondEdit> dmore = to_device(e, more);
  BondEdit *dev = nullptr;
  ASSERT_EQ(cudaMalloc((void **) &dev, dmore.size() * sizeof(BondEdit)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dev, dmore.data(), dmore.size() * sizeof(BondEdit), cudaMemcpyHostToDevice),
            cudaSuccess);
  const BondEditResult rd = e.insert_bonds(dev, (int) dmore.size(), true, true);
  cudaFree(dev);
  EXPECT_EQ(rd.applied, ref.applied);
  EXPECT_EQ(rd.full, ref.full);
  e.build_neighbor_list();
  expect_matches(e, ref, "device candidates, sorted again");
  printf("[gpu] %d + %d bonds inserted (%d full, %d rounds), %d removed, lists equal to the "
         "sequential reference after %lld sorts\n",
         r.applied, rd.applied, r.full, r.rounds, rr.applied, e.sorts_done());
}

TEST(GpuTopology, OverflowAndInvalidStopWithMessages)
{
  const System sys(10, 6.0, 3);
  const Ref none(10, 2);
  auto message = [](Engine &e) -> std::string {
    try {
      e.check_errors();
    } catch (std::exception &x) {
      return x.what();
    }
    return "";
  };
  {
    Engine e;
    setup_engine(e, sys, none, 2, 10, 0);
    const std::vector<BondEdit> c = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}};
    const BondEditResult r = e.insert_bonds(c.data(), 3, false);
    EXPECT_EQ(r.applied, 2);
    const std::string m = message(e);
    EXPECT_NE(m.find("extra/bond/per/atom"), std::string::npos) << m;
    EXPECT_NE(m.find("atom 1 "), std::string::npos) << m;
  }
  {
    Engine e;    // a chain of 6: atom 3 has 5 special neighbours, room for 3
    setup_engine(e, sys, none, 4, 3, 0);
    const std::vector<BondEdit> c = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {4, 5, 1}};
    e.insert_bonds(c.data(), 5, false);
    const std::string m = message(e);
    EXPECT_NE(m.find("extra/special/per/atom"), std::string::npos) << m;
  }
  {
    Engine e;
    setup_engine(e, sys, none, 4, 10, 0);
    const std::vector<BondEdit> c = {{0, 0, 1}, {1, 2, 1}};
    const BondEditResult r = e.insert_bonds(c.data(), 2, false);
    EXPECT_EQ(r.invalid, 1);
    EXPECT_EQ(r.applied, 1);
    const std::string m = message(e);
    EXPECT_NE(m.find("invalid bond edit"), std::string::npos) << m;
    EXPECT_EQ(message(e), "");    // reported once
  }
}

// ---- forces on the device's edited lists against LAMMPS's CPU styles ----------------
namespace {

const char *const SYSTEM[] = {"units lj",
                              "atom_style bond",
                              "atom_modify map array sort 0 0",
                              "region box block 0 8 0 8 0 8",
                              "create_box 1 box bond/types 1 extra/bond/per/atom 4 "
                              "extra/special/per/atom 80",
                              "create_atoms 1 random 220 4567 NULL overlap 0.85 maxtry 500",
                              "mass 1 1.0",
                              "special_bonds lj 0.0 0.5 0.8",
                              "neighbor 0.3 bin",
                              "thermo_modify norm no"};

void make_system(LmpSession &l, bool dev)
{
  for (const char *c : SYSTEM) l.cmd(c);
  const std::string sf = dev ? "/cuda" : "";
  l.cmds({"pair_style lj/cut" + sf + " 2.5", "pair_coeff 1 1 1.0 1.0", "bond_style harmonic" + sf,
          "bond_coeff 1 30.0 1.0"});
}

std::vector<double> forces_by_tag(LAMMPS_NS::LAMMPS *lmp)
{
  std::vector<double> out(3 * lmp->atom->natoms);
  for (int i = 0; i < lmp->atom->nlocal; ++i)
    for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = lmp->atom->f[i][d];
  return out;
}

double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b)
{
  double d = 0, s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return HUGE_VAL;
    d = std::max(d, std::fabs(a[i] - b[i]));
    s = std::max(s, std::fabs(b[i]));
  }
  return s > 0 ? d / s : d;
}

// pairs (i < j, LAMMPS indices) closer than rc, in index order
std::vector<BondEdit> close_pairs(LAMMPS_NS::LAMMPS *lmp, double rc, double L)
{
  std::vector<BondEdit> c;
  double **x = lmp->atom->x;
  for (int i = 0; i < lmp->atom->nlocal; ++i)
    for (int j = i + 1; j < lmp->atom->nlocal; ++j) {
      double r2 = 0;
      for (int d = 0; d < 3; ++d) {
        double dx = x[i][d] - x[j][d];
        dx -= L * std::round(dx / L);
        r2 += dx * dx;
      }
      if (r2 < rc * rc) c.push_back({i, j, 1});
    }
  return c;
}

}    // namespace

TEST(GpuTopology, ForcesOnEditedListsEqualLammpsCpu)
{
  LmpSession cpu;
  make_system(cpu, false);
  LAMMPS_NS::LAMMPS *lmp = cpu.lmp;
  const int n = lmp->atom->nlocal;
  ASSERT_EQ(n, 220);
  for (int i = 0; i < n; ++i) ASSERT_EQ(lmp->atom->tag[i], i + 1);    // tags in order

  Engine e;
  std::vector<double> x(3 * n), v(3 * n, 0.0), f(3 * n, 0.0), mass = {0.0, 1.0};
  std::vector<int> image(3 * n, 0), type(n, 1), mask(n, 1), tag(n);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) x[3 * i + d] = lmp->atom->x[i][d];
    tag[i] = i + 1;
  }
  const double lo[3] = {0, 0, 0}, hi[3] = {8, 8, 8};
  e.set_box(lo, hi);
  e.upload_atoms(n, 1, x.data(), v.data(), f.data(), image.data(), type.data(), mass.data());
  e.upload_mask(mask.data());
  e.upload_tags(tag.data());
  // no bonds yet: empty special lists with LAMMPS's flags (lj 0 exclude, 0.5 and 0.8 weigh)
  std::vector<int> ns(3 * n, 0), sp(n, -1);
  const int flag[4] = {0, 0, 2, 2};
  const double lj[4] = {1.0, 0.0, 0.5, 0.8};
  e.upload_special(ns.data(), sp.data(), 1, flag, lj);
  e.reserve_topology(4, 80, 3);
  mesogpu::cuda::add_bond_harmonic(e, {{0.0, 30.0}, {0.0, 1.0}});
  mesogpu::cuda::HostLJ p;
  p.lj1 = {0, 0, 0, 48.0};
  p.lj2 = {0, 0, 0, 24.0};
  p.lj3 = {0, 0, 0, 4.0};
  p.lj4 = {0, 0, 0, 4.0};
  p.offset = {0, 0, 0, 0};
  p.cutsq = {0, 0, 0, 6.25};
  mesogpu::cuda::add_pair_lj_cut(e, p);
  e.set_neighbor(2.8, 0.3, {0.0, 0.0, 0.0, 2.8 * 2.8}, 1, 0, true);
  e.set_sort(1);
  e.build_neighbor_list();
  e.compute_forces(false);

  const std::vector<BondEdit> cand = close_pairs(lmp, 1.25, 8.0);
  const std::vector<BondEdit> dc = to_device(e, cand);
  const BondEditResult r = e.insert_bonds(dc.data(), (int) dc.size(), false, true);
  ASSERT_NO_THROW(e.check_errors());
  ASSERT_GT(r.applied, 40);
  ASSERT_TRUE(e.decide_rebuild());
  e.build_neighbor_list();
  e.compute_forces(true);
  std::vector<double> fdev(3 * n);
  e.download_atoms(nullptr, nullptr, fdev.data(), nullptr);
  const auto ev = e.reduce_energy_virial();

  // the same bonds on the host, LAMMPS's special lists from them
  const int w = e.bond_capacity();
  std::vector<int> nb(n), bp((size_t) n * w), bt((size_t) n * w);
  e.download_bonds(nb.data(), bp.data(), bt.data());
  int made = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < nb[i]; ++k)
      if (bp[(size_t) i * w + k] > i + 1) {
        cpu.cmd("create_bonds single/bond 1 " + std::to_string(i + 1) + " " +
                std::to_string(bp[(size_t) i * w + k]));
        made++;
      }
  ASSERT_EQ(made, r.applied);
  cpu.cmd("run 0 post no");
  const double pe = cpu.thermo("pe");
  const double err = max_rel_diff(fdev, forces_by_tag(lmp));
  EXPECT_LT(err, FORCE_TOL);
  EXPECT_NEAR(ev.e_pair + ev.e_bond, pe, ENERGY_TOL * std::fabs(pe) + 1e-12);
  printf("[gpu] %d bonds made on the device: forces vs LAMMPS CPU max rel diff %.2e, pe %.10g "
         "vs %.10g (%s)\n",
         r.applied, err, ev.e_pair + ev.e_bond, pe, PREC);
}

// ---- through LAMMPS: device_bonds, LAMMPS's arrays after the sync -------------------
namespace {

// bonds stored in LAMMPS's arrays: (lower ID, higher ID) -> type, and the storing atom
std::map<std::pair<int, int>, int>
stored_bonds(LAMMPS_NS::LAMMPS *lmp, std::map<std::pair<int, int>, int> *owner, bool *twice)
{
  std::map<std::pair<int, int>, int> out;
  auto *a = lmp->atom;
  for (int i = 0; i < a->nlocal; ++i)
    for (int k = 0; k < a->num_bond[i]; ++k) {
      const int p = a->bond_atom[i][k];
      const auto key = std::make_pair(std::min<int>(a->tag[i], p), std::max<int>(a->tag[i], p));
      if (out.count(key)) *twice = true;
      out[key] = a->bond_type[i][k];
      if (owner) (*owner)[key] = a->tag[i];
    }
  return out;
}

// the special lists by ID, level by level
std::map<int, std::vector<std::set<int>>> specials(LAMMPS_NS::LAMMPS *lmp)
{
  std::map<int, std::vector<std::set<int>>> out;
  auto *a = lmp->atom;
  for (int i = 0; i < a->nlocal; ++i) {
    auto &lv = out[a->tag[i]];
    lv.resize(3);
    for (int d = 0; d < 3; ++d)
      for (int k = d ? a->nspecial[i][d - 1] : 0; k < a->nspecial[i][d]; ++k)
        lv[d].insert(a->special[i][k]);
  }
  return out;
}

}    // namespace

TEST(GpuTopology, DeviceBondsCommandWritesLammpsArrays)
{
  LmpSession dev, cpu;
  make_system(dev, true);
  make_system(cpu, false);
  // a few disjoint bonds at first, stored on the higher ID for every other one (they
  // must stay there); each atom then has at most one, so the device's room (most bonds
  // of an atom + the host's spare) equals bond_per_atom and no atom can store more
  {
    const std::vector<BondEdit> close = close_pairs(cpu.lmp, 1.25, 8.0);
    std::vector<char> used(cpu.lmp->atom->nlocal, 0);
    int made = 0;
    for (size_t c = 0; c < close.size() && made < 12; c += 5) {
      const BondEdit &b = close[c];
      if (used[b.i] || used[b.j]) continue;
      used[b.i] = used[b.j] = 1;
      const std::string ids = made % 2 ? std::to_string(b.i + 1) + " " + std::to_string(b.j + 1)
                                       : std::to_string(b.j + 1) + " " + std::to_string(b.i + 1);
      for (LmpSession *l : {&dev, &cpu}) l->cmd("create_bonds single/bond 1 " + ids);
      made++;
    }
  }
  dev.cmds({"fix 1 all nve/cuda", "run_style verlet/cuda", "run 0 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  LAMMPS_NS::LAMMPS *lmp = dev.lmp;
  const int n = lmp->atom->nlocal;
  for (int i = 0; i < n; ++i) ASSERT_EQ(lmp->atom->tag[i], i + 1);

  // the reference: the bonds LAMMPS has (in the order the device lists them: each atom's
  // stored bonds, then with newton_bond the partner lists it too), capacity as the run
  // reserved it (most bonds of an atom + the host's spare: bond_per_atom above the most any
  // atom stores)
  bool twice = false;
  std::map<std::pair<int, int>, int> owner0;
  const auto initial = stored_bonds(lmp, &owner0, &twice);
  ASSERT_GT(initial.size(), 5u);
  std::vector<int> degree(n, 0);
  for (auto &b : initial) {
    degree[b.first.first - 1]++;
    degree[b.first.second - 1]++;
  }
  int stored = 0;
  for (int i = 0; i < n; ++i) stored = std::max(stored, lmp->atom->num_bond[i]);
  Ref ref(n, *std::max_element(degree.begin(), degree.end()) + lmp->atom->bond_per_atom - stored);
  for (auto &b : initial) {
    ref.adj[b.first.first - 1].push_back({b.first.second - 1, b.second});
    ref.adj[b.first.second - 1].push_back({b.first.first - 1, b.second});
  }
  const std::vector<BondEdit> cand = close_pairs(lmp, 1.25, 8.0);
  std::string line = "device_bonds create/skip";
  for (const auto &b : cand) {
    ref.insert(b.i, b.j, 1);
    line += " " + std::to_string(b.i + 1) + " " + std::to_string(b.j + 1) + " 1";
  }
  dev.cmd(line);
  ASSERT_GT(ref.applied, 20);

  std::map<std::pair<int, int>, int> want;
  for (int i = 0; i < n; ++i)
    for (auto &b : ref.adj[i])
      if (b.first > i) want[{i + 1, b.first + 1}] = b.second;
  std::map<std::pair<int, int>, int> owner;
  const auto got = stored_bonds(lmp, &owner, &twice);
  EXPECT_FALSE(twice) << "a bond stored on both atoms with newton_bond";
  EXPECT_EQ(got, want);
  EXPECT_EQ(lmp->atom->nbonds, (LAMMPS_NS::bigint) want.size());
  EXPECT_EQ(dev.thermo("bonds"), (double) want.size());
  for (auto &b : got)    // bonds stored before stay on their atom, new ones on the lower ID
    EXPECT_EQ(owner[b.first], owner0.count(b.first) ? owner0[b.first] : b.first.first);
  const auto sp = specials(lmp);
  for (int i = 0; i < n; ++i) {
    const auto lv = ref.levels(i);
    for (int d = 0; d < 3; ++d) {
      std::set<int> w;
      for (int a : lv[d]) w.insert(a + 1);
      EXPECT_EQ(sp.at(i + 1)[d], w) << "atom " << i + 1 << " level 1-" << d + 2;
    }
  }

  // the CPU instance with the same bonds: LAMMPS's own special lists and forces
  for (auto &b : want)
    if (!initial.count(b.first))
      cpu.cmd("create_bonds single/bond 1 " + std::to_string(b.first.first) + " " +
              std::to_string(b.first.second));
  EXPECT_EQ(specials(cpu.lmp), sp);
  cpu.cmds({"fix 1 all nve", "run 0 post no"});
  dev.cmd("run 0 post no");
  EXPECT_LT(max_rel_diff(forces_by_tag(lmp), forces_by_tag(cpu.lmp)), FORCE_TOL);
  EXPECT_NEAR(dev.thermo("pe"), cpu.thermo("pe"), ENERGY_TOL * std::fabs(cpu.thermo("pe")));

  // break a third of the bonds (and one pair that is not bonded)
  std::string brk = "device_bonds break";
  std::vector<std::pair<int, int>> gone;
  int k = 0;
  for (auto &b : want)
    if (k++ % 3 == 0) {
      gone.push_back(b.first);
      brk += " " + std::to_string(b.first.first) + " " + std::to_string(b.first.second);
      ref.remove(b.first.first - 1, b.first.second - 1);
    }
  if (!want.count({1, n})) {    // and a pair that is not bonded: nothing to do
    brk += " 1 " + std::to_string(n);
    ref.remove(0, n - 1);
  }
  dev.cmd(brk);
  for (auto &g : gone) want.erase(g);
  EXPECT_EQ(stored_bonds(lmp, nullptr, &twice), want);
  EXPECT_EQ(lmp->atom->nbonds, (LAMMPS_NS::bigint) want.size());
  const auto sp2 = specials(lmp);
  for (int i = 0; i < n; ++i) {
    const auto lv = ref.levels(i);
    for (int d = 0; d < 3; ++d) {
      std::set<int> w;
      for (int a : lv[d]) w.insert(a + 1);
      EXPECT_EQ(sp2.at(i + 1)[d], w) << "after break: atom " << i + 1 << " level 1-" << d + 2;
    }
  }
  // and a run on the new topology
  dev.cmd("run 20 post no");
  EXPECT_EQ(dev.thermo("bonds"), (double) want.size());
  printf("[gpu] device_bonds: %zu bonds at first, %d made, %zu broken; LAMMPS's arrays and "
         "special lists as the reference and LAMMPS's Special::build\n",
         initial.size(), ref.applied, gone.size());

  // more bonds than extra/bond/per/atom allows on one atom: a LAMMPS error naming it
  std::string over = "device_bonds create";
  for (int j = 2; j <= 20; ++j) over += " 1 " + std::to_string(j) + " 1";
  const std::string m = dev.error_of(over);
  EXPECT_NE(m.find("extra/bond/per/atom"), std::string::npos) << m;
}

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
