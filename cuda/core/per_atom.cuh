/* mesogpu: the registry of per-atom device arrays (internal to cuda/). A sort reorders
 * the atoms on the device; every array indexed by atom must follow, and so must every
 * stored atom index. Each part of the engine registers the arrays it owns when it first
 * fills them, with the way they reorder; the sort walks the registry and knows no array
 * by name. */
#ifndef MESOGPU_CUDA_CORE_PER_ATOM_CUH
#define MESOGPU_CUDA_CORE_PER_ATOM_CUH

#include "core/device_array.cuh"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mesogpu {
namespace cuda {
  namespace detail {

    // a new atom order: new atom i is old atom src[i]; inv[old] is its new index
    struct Permutation {
      int n;
      const int *src, *inv;
    };

    class PerAtomRegistry {
     public:
      using Permute = std::function<void(const Permutation &)>;
      // a second registration under a name replaces the first (parts register on upload)
      void add(const std::string &name, Permute permute)
      {
        for (auto &e : entries)
          if (e.first == name) {
            e.second = std::move(permute);
            return;
          }
        entries.emplace_back(name, std::move(permute));
      }
      void permute_all(const Permutation &p) const
      {
        for (const auto &e : entries) e.second(p);
      }
      std::vector<std::string> names() const
      {
        std::vector<std::string> out;
        for (const auto &e : entries) out.push_back(e.first);
        return out;
      }

     private:
      std::vector<std::pair<std::string, Permute>> entries;
    };

    // the reorderings the registered arrays use (core/permute.cu): column-major per-atom
    // data of `rows` rows (a[k n + i]); the same holding atom indices (negative: unused,
    // kept); row-major lists (a[i width + k]), indices remapped when remap; int4 atom
    // tuples of angles and dihedrals (w remapped when remap_w)
    template <typename T> void permute_rows(DeviceArray<T> &a, int rows, const Permutation &p);
    void permute_rows_remap(DeviceArray<int> &a, int rows, const Permutation &p);
    void permute_rowmajor(DeviceArray<int> &a, int width, bool remap, const Permutation &p);
    void permute_int4(DeviceArray<int4> &a, int rows, bool remap_w, const Permutation &p);

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
