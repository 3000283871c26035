/* mesogpu: LAMMPS's bond storage from the device's bond lists; see topology_sync.h. */

#include "topology_sync.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>

namespace mesogpu {

namespace {
  // a bond's key: its two atom IDs, lower first
  std::uint64_t key_of(int a, int b)
  {
    const std::uint32_t lo = static_cast<std::uint32_t>(std::min(a, b));
    const std::uint32_t hi = static_cast<std::uint32_t>(std::max(a, b));
    return (static_cast<std::uint64_t>(lo) << 32) | hi;
  }
}    // namespace

BondStore merge_device_bonds(int n, const int *tag, bool newton_bond, const BondStore &host,
                             const BondStore &device, long long &nbonds)
{
  // the device's bonds by key, with their types
  std::unordered_map<std::uint64_t, int> dev;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < device.num[i]; k++) {
      const size_t e = (size_t) i * device.width + k;
      dev.emplace(key_of(tag[i], device.partner[e]), device.type[e]);
    }
  // host entries kept: (key, owner ID) placed
  std::vector<std::vector<std::pair<int, int>>> rows(n);    // partner, type
  std::set<std::pair<std::uint64_t, int>> placed;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < host.num[i]; k++) {
      const size_t e = (size_t) i * host.width + k;
      const int p = host.partner[e], t = host.type[e];
      if (t <= 0) {    // turned off: the device never held it
        rows[i].push_back({p, t});
        continue;
      }
      auto it = dev.find(key_of(tag[i], p));
      if (it == dev.end()) continue;                               // removed on the device
      if (!placed.insert({it->first, tag[i]}).second) continue;    // listed twice
      rows[i].push_back({p, it->second});
    }
  // bonds only the device has, in LAMMPS order of their lower-ID atom
  std::unordered_map<int, int> index;
  index.reserve(2 * (size_t) n);
  for (int i = 0; i < n; i++) index[tag[i]] = i;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < device.num[i]; k++) {
      const size_t e = (size_t) i * device.width + k;
      const int p = device.partner[e], t = device.type[e];
      if (tag[i] > p) continue;    // each bond once, from its lower-ID atom
      const std::uint64_t key = key_of(tag[i], p);
      auto j = index.find(p);
      if (newton_bond) {
        if (placed.count({key, tag[i]}) || placed.count({key, p})) continue;
        rows[i].push_back({p, t});
        placed.insert({key, tag[i]});
      } else {
        if (!placed.count({key, tag[i]})) {
          rows[i].push_back({p, t});
          placed.insert({key, tag[i]});
        }
        if (j != index.end() && !placed.count({key, p})) {
          rows[j->second].push_back({tag[i], t});
          placed.insert({key, p});
        }
      }
    }
  BondStore out;
  out.width = 0;
  for (const auto &r : rows) out.width = std::max<int>(out.width, (int) r.size());
  out.num.assign(n, 0);
  out.partner.assign((size_t) n * out.width, 0);
  out.type.assign((size_t) n * out.width, 0);
  long long entries = 0;
  for (int i = 0; i < n; i++) {
    out.num[i] = (int) rows[i].size();
    entries += out.num[i];
    for (size_t k = 0; k < rows[i].size(); k++) {
      out.partner[(size_t) i * out.width + k] = rows[i][k].first;
      out.type[(size_t) i * out.width + k] = rows[i][k].second;
    }
  }
  nbonds = newton_bond ? entries : entries / 2;
  return out;
}

}    // namespace mesogpu
