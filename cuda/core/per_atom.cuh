/* mesogpu: the registry of per-atom device arrays (internal to cuda/). A sort reorders
 * the atoms on the device; every array indexed by atom must follow, and so must every
 * stored atom index. Each part of the engine registers the arrays it owns when it first
 * fills them, with the way they reorder; the sort walks the registry and knows no array
 * by name. On several MPI ranks a reneighbouring step on the device (core/migrate.cu)
 * also moves atoms between ranks: an entry may say how its array migrates (its part of
 * an atom's exchange record, and the array for a new row list). An entry without one
 * keeps that rebuild on the host. Bond and special lists hold device rows, which mean
 * nothing on another rank: they are made again after a migration from rows of atom IDs
 * that migrate (topology/topology_migrate.cu). */
#ifndef MESOGPU_CUDA_CORE_PER_ATOM_CUH
#define MESOGPU_CUDA_CORE_PER_ATOM_CUH

#include "core/device_array.cuh"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mesogpu {
namespace cuda {
  namespace detail {

    // a new atom order: new atom i is old atom src[i]; inv[old] is its new index
    // scratch (optional): a block every array is permuted into and copied back from, so
    // each array keeps its own block (and its capacity) and a sort allocates once instead
    // of a new block per array (a cudaMalloc and a synchronising cudaFree each)
    struct Permutation {
      int n;
      const int *src, *inv;
      DeviceArray<char> *scratch = nullptr;
    };

    // a new row list made in place after atoms moved between ranks (a reneighbouring step
    // where few atoms move: no new blocks, no pass over every row): rows 0 .. nkeep-1 stay,
    // except that row dst[k] takes old row src[k] (k < nmove; every src >= nkeep > every
    // dst, so no row is both read and written); rows nkeep .. nkeep+narrive-1 are exchange
    // records 0 .. narrive-1 (record r's part at rec[r stride + offset ..]); rows
    // nkeep+narrive .. n-1 (ghosts) are zero (the core writes the ghosts' positions, types,
    // masks and tags itself). The array ends with n rows (grown with some slack where its
    // block is too small, the first nkeep rows kept). Device pointers.
    struct RowEdit {
      int n, nkeep, nmove;
      const int *dst, *src;
      int narrive;
      const double *rec;
      int stride, offset;
    };

    // an array that migrates value by value: `width` values per atom (row-major), each one
    // double in the exchange record. The registry moves every such array of a step with one
    // kernel launch per stage (move, arrive, zero the ghost rows, pack) instead of a few per
    // array: a split dimension's exchange was ~60 launches for LJ, each a few microseconds
    enum class ValueType { i32, f32, f64 };
    struct MigratingBlock {
      virtual ~MigratingBlock() = default;
      virtual void *data() const = 0;
      // an optional array this run does not use (rmass, xhold): left empty
      virtual bool unused() const = 0;
      // sized to `rows` rows (slack where the block grows), the first `keep` rows kept
      virtual void grow(size_t rows, size_t keep) = 0;
      ValueType type = ValueType::f64;
      int width = 1;
    };

    // how an array migrates: `width` doubles per atom in an exchange record (0: none, the
    // array is derived or made again later). `block`: moved by the registry (above);
    // else `edit` changes the array itself for a RowEdit (derived arrays: only sized)
    struct Migrate {
      int width = 0;
      std::shared_ptr<MigratingBlock> block;
      std::function<void(const RowEdit &)> edit;
      explicit operator bool() const { return block || edit; }
    };

    class PerAtomRegistry {
     public:
      using Permute = std::function<void(const Permutation &)>;
      // a second registration under a name replaces the first (parts register on upload);
      // in_use: whether the array is held now (empty: always), else it needs no migration
      void add(const std::string &name, Permute permute, Migrate migrate = Migrate(),
               std::function<bool()> in_use = {})
      {
        for (auto &e : entries)
          if (e.name == name) {
            e.permute = std::move(permute);
            e.migrate = std::move(migrate);
            e.in_use = std::move(in_use);
            return;
          }
        entries.push_back({name, std::move(permute), std::move(migrate), std::move(in_use)});
      }
      void permute_all(const Permutation &p) const
      {
        for (const auto &e : entries) e.permute(p);
      }
      std::vector<std::string> names() const
      {
        std::vector<std::string> out;
        for (const auto &e : entries) out.push_back(e.name);
        return out;
      }
      // the entries that cannot migrate (empty: every array can)
      std::vector<std::string> without_migration() const
      {
        std::vector<std::string> out;
        for (const auto &e : entries)
          if (!e.migrate && (!e.in_use || e.in_use())) out.push_back(e.name);
        return out;
      }
      // doubles per atom in an exchange record, and where an entry's part starts (-1: none)
      int record_width() const
      {
        int w = 0;
        for (const auto &e : entries) w += e.migrate ? e.migrate.width : 0;
        return w;
      }
      int record_offset(const std::string &name) const
      {
        int w = 0;
        for (const auto &e : entries) {
          if (e.name == name) return e.migrate && e.migrate.width ? w : -1;
          w += e.migrate ? e.migrate.width : 0;
        }
        return -1;
      }
      // the records of `count` rows (device list) into rec (device, record_width() each)
      // (core/per_atom_migrate.cu)
      void pack_all(const int *rows, int count, double *rec) const;
      // every array edited in place (edit.stride and edit.offset are set here)
      void edit_all(RowEdit edit) const;

     private:
      struct Entry {
        std::string name;
        Permute permute;
        Migrate migrate;
        std::function<bool()> in_use;
      };
      std::vector<Entry> entries;
    };

    // the reorderings the registered arrays use (core/permute.cu): column-major per-atom
    // data of `rows` rows (a[k n + i]); the same holding atom indices (negative: unused,
    // kept); row-major lists (a[i width + k]), indices remapped when remap; int4 atom
    // tuples of angles and dihedrals (w remapped when remap_w)
    template <typename T> void permute_rows(DeviceArray<T> &a, int rows, const Permutation &p);
    void permute_rows_remap(DeviceArray<int> &a, int rows, const Permutation &p);
    void permute_rowmajor(DeviceArray<int> &a, int width, bool remap, const Permutation &p);
    void permute_int4(DeviceArray<int4> &a, int rows, bool remap_w, const Permutation &p);

    // the migration of a one-value-per-atom array (core/per_atom_migrate.cu): one double per atom
    // in the record. optional: an empty array is one this run does not use and stays empty
    // (rmass, xhold); else the array always has the engine's rows (a rank that held no
    // atom and no ghost at the upload has empty arrays, and atoms may arrive later);
    // derived_rows: no record, the array is only resized to the new rows (contents
    // rewritten by its owner: pos, order, cell_of)
    template <typename T> Migrate column_migration(DeviceArray<T> *a, bool optional = true);
    // the same for an array that a part of the engine holds only while `in_use` says so
    // (orientations, the host's columns): kept out of the moves while not in use, whatever
    // its size (a rank that held no row at the upload has an empty array in use). T may be
    // a vector of four scalars (real4: four values per atom in the record)
    template <typename T>
    Migrate column_migration_while(DeviceArray<T> *a, std::function<bool()> in_use);
    template <typename T> Migrate derived_rows(DeviceArray<T> *a);
    // a row-major array of `width` values per atom (atom i's at [i width ..]): `width`
    // doubles per atom in the record (LAMMPS's topology of an owned atom, its charge)
    template <typename T> Migrate rowmajor_migration(DeviceArray<T> *a, int width);
    // no record and left as it is: the array is made again from other per-atom data once
    // the rows are known (the bonded and special lists of the device rows, made from the
    // owned atoms' topology rows at border_finish)
    Migrate remade_later();

    // the common entry: a one-value-per-atom array that follows every sort and migrates
    // with one double per atom (column; optional as in column_migration), or is only
    // resized and rewritten by its owner (derived)
    template <typename T>
    void add_column(PerAtomRegistry &registry, const std::string &name, DeviceArray<T> *a,
                    bool optional = true)
    {
      registry.add(
          name, [a](const Permutation &q) { permute_rows(*a, 1, q); },
          column_migration(a, optional));
    }
    // add_column for an array held only while in_use() (sorts and migrations skip it
    // otherwise)
    template <typename T>
    void add_column_while(PerAtomRegistry &registry, const std::string &name, DeviceArray<T> *a,
                          std::function<bool()> in_use)
    {
      registry.add(
          name,
          [a, in_use](const Permutation &q) {
            if (in_use()) permute_rows(*a, 1, q);
          },
          column_migration_while(a, in_use));
    }
    template <typename T>
    void add_derived(PerAtomRegistry &registry, const std::string &name, DeviceArray<T> *a)
    {
      registry.add(
          name, [a](const Permutation &q) { permute_rows(*a, 1, q); }, derived_rows(a));
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
