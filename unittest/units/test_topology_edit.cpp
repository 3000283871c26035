/* CPU tests of the bond edits the device kernels run (src/physics/topology_edit.h) and of
   the host storage of the device's bonds (src/cuda/topology_sync.cpp), against slow
   reference loops written here: bond lists as sets of pairs, special lists as graph
   distances (1-2: 1 bond, 1-3: 2 bonds, 1-4: 3 bonds; LAMMPS's levels are exactly the
   shortest-path distances), and LAMMPS's storage rules for newton_bond on and off. */

#include "cuda/topology_sync.h"
#include "physics/topology_edit.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace mesogpu;

namespace {

// bond lists in the engine's column-major layout, on the host
struct Lists {
  int n, width;
  std::vector<int> count, partner, type;
  Lists(int n_, int w) :
      n(n_), width(w), count(n_, 0), partner((size_t) n_ * w, -7), type((size_t) n_ * w, -7)
  {
  }
  topo::BondLists view()
  {
    return topo::BondLists{n, width, count.data(), partner.data(), type.data()};
  }
  std::vector<std::pair<int, int>> of(int i) const    // (partner, type) in list order
  {
    std::vector<std::pair<int, int>> r;
    for (int k = 0; k < count[i]; ++k)
      r.push_back({partner[(size_t) k * n + i], type[(size_t) k * n + i]});
    return r;
  }
};

// the reference: per-atom lists as vectors of (partner, type), edits taken one by one
struct Ref {
  int n, width;
  std::vector<std::vector<std::pair<int, int>>> adj;
  Ref(int n_, int w) : n(n_), width(w), adj(n_) {}
  bool bonded(int i, int j) const
  {
    for (auto &e : adj[i])
      if (e.first == j) return true;
    return false;
  }
  int insert(int i, int j, int t)
  {
    if (i < 0 || j < 0 || i >= n || j >= n || i == j || t < 1) return topo::EDIT_INVALID;
    if (bonded(i, j)) return topo::EDIT_NOTHING;
    if ((int) adj[i].size() >= width || (int) adj[j].size() >= width) return topo::EDIT_FULL;
    adj[i].push_back({j, t});
    adj[j].push_back({i, t});
    return topo::EDIT_DONE;
  }
  int remove(int i, int j)
  {
    if (i < 0 || j < 0 || i >= n || j >= n || i == j) return topo::EDIT_INVALID;
    if (!bonded(i, j)) return topo::EDIT_NOTHING;
    auto drop = [&](int a, int b) {
      for (size_t k = 0; k < adj[a].size(); ++k)
        if (adj[a][k].first == b) {
          adj[a].erase(adj[a].begin() + k);
          return;
        }
    };
    drop(i, j);
    drop(j, i);
    return topo::EDIT_DONE;
  }
  // atoms at 1, 2, 3 bonds from i (breadth-first)
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

}    // namespace

TEST(TopologyEdit, InsertAndRemoveMatchSequentialReference)
{
  const int n = 60, width = 4;
  Lists l(n, width);
  Ref ref(n, width);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> atom(-1, n), type(0, 3), coin(0, 2);
  int done = 0, full = 0;
  for (int step = 0; step < 3000; ++step) {
    const int i = atom(rng), j = atom(rng);
    topo::BondLists v = l.view();
    if (coin(rng)) {
      const int t = type(rng);
      const int r = topo::insert_bond(v, i, j, t);
      ASSERT_EQ(r, ref.insert(i, j, t)) << "insert " << i << " " << j << " " << t;
      done += r == topo::EDIT_DONE;
      full += r == topo::EDIT_FULL;
    } else {
      ASSERT_EQ(topo::remove_bond(v, i, j), ref.remove(i, j)) << "remove " << i << " " << j;
    }
    if (step % 100 == 0)
      for (int a = 0; a < n; ++a) ASSERT_EQ(l.of(a), ref.adj[a]) << "atom " << a;
  }
  EXPECT_GT(done, 100);    // the walk did insert, and did meet full lists
  EXPECT_GT(full, 10);
  for (int a = 0; a < n; ++a) EXPECT_EQ(l.of(a), ref.adj[a]);
}

TEST(TopologyEdit, SpecialListsAreGraphDistances)
{
  const int n = 80, width = 3;
  Lists l(n, width);
  Ref ref(n, width);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> atom(0, n - 1);
  for (int k = 0; k < 90; ++k) {    // branched chains and rings
    const int i = atom(rng), j = atom(rng);
    topo::BondLists v = l.view();
    ASSERT_EQ(topo::insert_bond(v, i, j, 1), ref.insert(i, j, 1));
  }
  for (int levels = 1; levels <= 3; ++levels) {
    const int cap = 40;
    for (int i = 0; i < n; ++i) {
      std::vector<int> row(cap, -1);
      int ns[3];
      ASSERT_TRUE(topo::build_special_one(l.view(), i, levels, row.data(), cap, ns));
      const auto want = ref.levels(i);
      std::set<int> got[3];
      for (int k = 0; k < ns[0]; ++k) got[0].insert(row[k]);
      for (int k = ns[0]; k < ns[1]; ++k) got[1].insert(row[k]);
      for (int k = ns[1]; k < ns[2]; ++k) got[2].insert(row[k]);
      for (int d = 0; d < 3; ++d) {
        if (d < levels) {
          EXPECT_EQ(got[d], want[d]) << "atom " << i << " level " << d + 1 << " of " << levels;
        } else {
          EXPECT_TRUE(got[d].empty()) << "atom " << i << " level " << d + 1;
        }
      }
      // each atom once, never itself
      std::set<int> all(row.begin(), row.begin() + ns[2]);
      EXPECT_EQ((int) all.size(), ns[2]);
      EXPECT_EQ(all.count(i), 0u);
    }
  }
}

TEST(TopologyEdit, SpecialOverflowIsReported)
{
  // a star: the centre has 6 partners; with room for 4 the list does not fit
  const int n = 7;
  Lists l(n, 6);
  for (int j = 1; j < n; ++j) {
    topo::BondLists v = l.view();
    ASSERT_EQ(topo::insert_bond(v, 0, j, 1), topo::EDIT_DONE);
  }
  std::vector<int> row(4, -1);
  int ns[3];
  EXPECT_FALSE(topo::build_special_one(l.view(), 0, 3, row.data(), 4, ns));
  EXPECT_LE(ns[2], 4);
  // an outer atom: 1 partner, 5 at two bonds: 6 entries fit in 6, not in 5
  std::vector<int> row6(6, -1);
  EXPECT_TRUE(topo::build_special_one(l.view(), 1, 3, row6.data(), 6, ns));
  EXPECT_EQ(ns[0], 1);
  EXPECT_EQ(ns[1], 6);
  EXPECT_EQ(ns[2], 6);
  EXPECT_FALSE(topo::build_special_one(l.view(), 1, 3, row6.data(), 5, ns));
}

namespace {

// device lists (both directions, LAMMPS order, partner IDs) from a set of bonds
BondStore device_store(int n, const std::vector<int> &tag,
                       const std::map<std::pair<int, int>, int> &bonds, int width)
{
  BondStore d;
  d.width = width;
  d.num.assign(n, 0);
  d.partner.assign((size_t) n * width, 0);
  d.type.assign((size_t) n * width, 0);
  std::map<int, int> index;
  for (int i = 0; i < n; ++i) index[tag[i]] = i;
  for (auto &b : bonds)
    for (int s = 0; s < 2; ++s) {
      const int a = s ? b.first.second : b.first.first, p = s ? b.first.first : b.first.second;
      const int i = index[a];
      d.partner[(size_t) i * width + d.num[i]] = p;
      d.type[(size_t) i * width + d.num[i]++] = b.second;
    }
  return d;
}

}    // namespace

TEST(TopologySync, NewtonBondKeepsStoredBondsAndPutsNewOnLowerID)
{
  // IDs not in index order; host stores bond 30-10 on 30 (the higher ID), 10-20 on 10,
  // 20-40 of type 0 (turned off) on 20, and 40-30 which the device removed
  const int n = 4;
  const std::vector<int> tag = {30, 10, 40, 20};
  BondStore host;
  host.width = 2;
  host.num = {2, 1, 0, 1};
  host.partner = {10, 40, 20, 0, 0, 0, 40, 0};
  host.type = {1, 2, 1, 0, 0, 0, 0, 0};
  // the device: 10-30 (type 3 now), 10-20, and new 20-30 (type 2) and 10-40 (type 1)
  const std::map<std::pair<int, int>, int> dev = {
      {{10, 30}, 3}, {{10, 20}, 1}, {{20, 30}, 2}, {{10, 40}, 1}};
  long long nb = 0;
  const BondStore out =
      merge_device_bonds(n, tag.data(), true, host, device_store(n, tag, dev, 4), nb);
  auto row = [&](int i) {
    std::vector<std::pair<int, int>> r;
    for (int k = 0; k < out.num[i]; ++k)
      r.push_back({out.partner[(size_t) i * out.width + k], out.type[(size_t) i * out.width + k]});
    return r;
  };
  using R = std::vector<std::pair<int, int>>;
  EXPECT_EQ(row(0), (R{{10, 3}}));             // 30: kept 30-10 with the device's type; 40 gone
  EXPECT_EQ(row(1), (R{{20, 1}, {40, 1}}));    // 10: kept 10-20, new 10-40 (10 < 40)
  EXPECT_EQ(row(2), (R{}));                    // 40
  EXPECT_EQ(row(3), (R{{40, 0}, {30, 2}}));    // 20: type 0 kept, new 20-30 (20 < 30)
  EXPECT_EQ(nb, 5);                            // 4 device bonds + the turned-off one
  EXPECT_EQ(out.width, 2);
}

TEST(TopologySync, NewtonOffStoresOnBothAtoms)
{
  const int n = 3;
  const std::vector<int> tag = {1, 2, 3};
  BondStore host;    // 1-2 on both atoms
  host.width = 1;
  host.num = {1, 1, 0};
  host.partner = {2, 1, 0};
  host.type = {1, 1, 0};
  const std::map<std::pair<int, int>, int> dev = {{{1, 2}, 1}, {{2, 3}, 2}};
  long long nb = 0;
  const BondStore out =
      merge_device_bonds(n, tag.data(), false, host, device_store(n, tag, dev, 3), nb);
  EXPECT_EQ(out.num, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(out.partner[1 * out.width + 1], 3);
  EXPECT_EQ(out.type[1 * out.width + 1], 2);
  EXPECT_EQ(out.partner[2 * out.width + 0], 2);
  EXPECT_EQ(nb, 2);
}

TEST(TopologySync, RandomEditsStoreEveryBondOnce)
{
  // random host storage and random device edits: with newton_bond every device bond is
  // stored exactly once, on the host's atom if the host had it, else on the lower ID
  const int n = 50;
  std::vector<int> tag(n);
  for (int i = 0; i < n; ++i) tag[i] = 3 * (n - i) + 1;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> atom(0, n - 1);
  std::map<std::pair<int, int>, int> before, after;
  std::map<std::pair<int, int>, int> owner;    // bond -> tag storing it on the host
  BondStore host;
  host.width = 8;
  host.num.assign(n, 0);
  host.partner.assign((size_t) n * 8, 0);
  host.type.assign((size_t) n * 8, 0);
  for (int k = 0; k < 80; ++k) {
    const int i = atom(rng), j = atom(rng);
    const auto key = std::make_pair(std::min(tag[i], tag[j]), std::max(tag[i], tag[j]));
    if (i == j || before.count(key) || host.num[i] >= 8) continue;
    before[key] = 1;
    owner[key] = tag[i];
    host.partner[(size_t) i * 8 + host.num[i]] = tag[j];
    host.type[(size_t) i * 8 + host.num[i]++] = 1;
  }
  after = before;
  for (auto it = after.begin(); it != after.end();)    // a third removed
    it = (atom(rng) % 3 == 0) ? after.erase(it) : std::next(it);
  for (int k = 0; k < 40; ++k) {    // some added
    const int i = atom(rng), j = atom(rng);
    if (i != j) after[{std::min(tag[i], tag[j]), std::max(tag[i], tag[j])}] = 2;
  }
  int dw = 0;
  {
    std::map<int, int> deg;
    for (auto &b : after) {
      deg[b.first.first]++;
      deg[b.first.second]++;
    }
    for (auto &d : deg) dw = std::max(dw, d.second);
  }
  long long nb = 0;
  const BondStore out =
      merge_device_bonds(n, tag.data(), true, host, device_store(n, tag, after, dw), nb);
  std::map<std::pair<int, int>, int> seen;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < out.num[i]; ++k) {
      const int p = out.partner[(size_t) i * out.width + k];
      const auto key = std::make_pair(std::min(tag[i], p), std::max(tag[i], p));
      ASSERT_EQ(seen.count(key), 0u) << "bond stored twice";
      seen[key] = out.type[(size_t) i * out.width + k];
      const int want_owner = owner.count(key) ? owner[key] : key.first;
      EXPECT_EQ(tag[i], want_owner);
    }
  EXPECT_EQ(seen, after);
  EXPECT_EQ(nb, (long long) after.size());
}
