/* mesogpu: how the registered per-atom arrays migrate between ranks (core/per_atom.cuh:
 * Migrate, PerAtomRegistry::pack_all and edit_all): the arrays of values per atom
 * (columns, row-major topology rows) packed into exchange records, their holes filled,
 * arrivals written and ghost rows zeroed with one kernel per stage for all of them; the
 * reneighbouring step that calls these is core/migrate.cu, as core/permute.cu holds the
 * reorderings a sort applies. */

#include "core/per_atom.cuh"
#include "cuda_check.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <type_traits>

namespace mesogpu {
namespace cuda {
  namespace detail {
    namespace {

      // the arrays of one batched launch (kernel parameters: up to MAX_BATCH at a time)
      struct BlockSlot {
        void *data;
        ValueType type;
        int width, offset;    // values per atom, the first one's place in a record
      };
      constexpr int MAX_BATCH = 24;
      struct Batch {
        BlockSlot b[MAX_BATCH];
        int count;
      };

      __device__ inline double get_value(const BlockSlot &b, size_t e)
      {
        switch (b.type) {
          case ValueType::i32:
            return static_cast<double>(static_cast<const int *>(b.data)[e]);
          case ValueType::f32:
            return static_cast<double>(static_cast<const float *>(b.data)[e]);
          default:
            return static_cast<const double *>(b.data)[e];
        }
      }
      __device__ inline void put_value(const BlockSlot &b, size_t e, double v)
      {
        switch (b.type) {
          case ValueType::i32:
            static_cast<int *>(b.data)[e] = static_cast<int>(v);
            break;
          case ValueType::f32:
            static_cast<float *>(b.data)[e] = static_cast<float>(v);
            break;
          default:
            static_cast<double *>(b.data)[e] = v;
        }
      }
      __device__ inline void copy_value(const BlockSlot &b, size_t to, size_t from)
      {
        if (b.type == ValueType::f64)
          static_cast<double *>(b.data)[to] = static_cast<const double *>(b.data)[from];
        else    // int and float: the 4 bytes as they are
          static_cast<int *>(b.data)[to] = static_cast<const int *>(b.data)[from];
      }

      // blockIdx.y: the array; x: (row k, value c) of `count` rows, grid-stride
      __global__ void pack_batch_kernel(Batch batch, int count, const int *rows, double *rec,
                                        int stride)
      {
        const BlockSlot b = batch.b[blockIdx.y];
        const long long total = (long long) count * b.width;
        for (long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x; e < total;
             e += (long long) gridDim.x * blockDim.x) {
          const int k = (int) (e / b.width), c = (int) (e % b.width);
          rec[(size_t) k * stride + b.offset + c] = get_value(b, (size_t) rows[k] * b.width + c);
        }
      }

      // RowEdit: the few rows that fill the holes of the leavers (sources past every hole)
      __global__ void move_batch_kernel(Batch batch, int count, const int *dst, const int *src)
      {
        const BlockSlot b = batch.b[blockIdx.y];
        const long long total = (long long) count * b.width;
        for (long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x; e < total;
             e += (long long) gridDim.x * blockDim.x) {
          const int k = (int) (e / b.width), c = (int) (e % b.width);
          copy_value(b, (size_t) dst[k] * b.width + c, (size_t) src[k] * b.width + c);
        }
      }

      // rows first .. first+narrive-1 from the records, rows first+narrive .. n-1 zero
      __global__ void arrive_batch_kernel(Batch batch, int first, int narrive, int n,
                                          const double *rec, int stride)
      {
        const BlockSlot b = batch.b[blockIdx.y];
        const long long total = (long long) (n - first) * b.width;
        for (long long e = (long long) blockIdx.x * blockDim.x + threadIdx.x; e < total;
             e += (long long) gridDim.x * blockDim.x) {
          const int k = (int) (e / b.width), c = (int) (e % b.width);
          const size_t at = (size_t) (first + k) * b.width + c;
          if (k < narrive)
            put_value(b, at, rec[(size_t) k * stride + b.offset + c]);
          else if (b.type == ValueType::f64)
            static_cast<double *>(b.data)[at] = 0.0;
          else
            static_cast<int *>(b.data)[at] = 0;    // int 0 and float 0.0f: zero bytes
        }
      }

      // the grid of a batch: enough blocks for the widest array's values, at most what
      // keeps the GPU busy (the loops stride over the rest)
      dim3 batch_grid(const Batch &batch, long long rows)
      {
        int wmax = 1;
        for (int k = 0; k < batch.count; ++k) wmax = std::max(wmax, batch.b[k].width);
        const long long values = rows * wmax;
        const long long nb = std::min<long long>((values + BLOCK - 1) / BLOCK, 65535);
        return dim3((unsigned) std::max<long long>(nb, 1), (unsigned) batch.count);
      }

      // f(batch) for the registry's moved arrays in launches of up to MAX_BATCH (data()
      // read now: after a growth, the new block)
      template <class Entries, class F> void for_each_batch(const Entries &entries, F f)
      {
        Batch batch{};
        int off = 0;
        for (const auto &e : entries) {
          const Migrate &m = e.migrate;
          if (m.block && !m.block->unused() && m.block->width > 0) {
            batch.b[batch.count++] = BlockSlot{m.block->data(), m.block->type, m.block->width, off};
            if (batch.count == MAX_BATCH) {
              f(batch);
              batch.count = 0;
            }
          }
          off += m ? m.width : 0;
        }
        if (batch.count) f(batch);
      }

      // the array sized to n rows, its first `keep` kept. A block too small is replaced by
      // one with 1/64 more rows: the counts of a rank change a little at every rebuild, and
      // without the slack each small growth would cost a cudaMalloc and a (synchronising)
      // cudaFree of every per-atom array
      template <typename T> void grow_rows(DeviceArray<T> &a, size_t n, size_t keep)
      {
        if (n > a.capacity()) {
          DeviceArray<T> b;
          b.resize(n + n / 64 + 256);
          if (keep)
            MESOGPU_CUDA_CALL(
                cudaMemcpyAsync(b.get(), a.get(), keep * sizeof(T), cudaMemcpyDeviceToDevice, 0));
          a.swap(b);    // b frees the old block after the copy (cudaFree waits for it)
        }
        a.resize(n);
      }

      template <typename T> constexpr ValueType value_type()
      {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
        return std::is_same<T, double>::value  ? ValueType::f64
               : std::is_same<T, float>::value ? ValueType::f32
                                               : ValueType::i32;
      }

      // the scalar of an element type: itself, or the component of a 4-vector (real4)
      template <typename T> struct ScalarOf {
        using type = T;
      };
      template <> struct ScalarOf<real4> {
        using type = real;
      };

      // `w` elements of T per atom, each `lanes` scalars: w * lanes values in the record
      template <typename T> struct ArrayBlock : MigratingBlock {
        using Scalar = typename ScalarOf<T>::type;
        static constexpr int lanes = sizeof(T) / sizeof(Scalar);
        ArrayBlock(DeviceArray<T> *a, int w, bool opt, std::function<bool()> use = {}) :
            array(a), per_atom(w), optional(opt), in_use(std::move(use))
        {
          type = value_type<Scalar>();
          width = w * lanes;
        }
        void *data() const override { return array->get(); }
        // an array held only while in use: unused otherwise. Else an empty optional array
        // is one this run does not use (rmass); an empty one that is not optional belongs
        // to a rank that held no rows at the upload: it grows
        bool unused() const override
        {
          if (in_use) return !in_use();
          return optional && array->size() == 0;
        }
        void grow(size_t rows, size_t keep) override
        {
          grow_rows(*array, rows * per_atom, keep * per_atom);
        }
        DeviceArray<T> *array;
        int per_atom;
        bool optional;
        std::function<bool()> in_use;
      };

    }    // namespace

    void PerAtomRegistry::pack_all(const int *rows, int count, double *rec) const
    {
      if (count <= 0) return;
      const int stride = record_width();
      for_each_batch(entries, [&](const Batch &batch) {
        pack_batch_kernel<<<batch_grid(batch, count), BLOCK>>>(batch, count, rows, rec, stride);
        MESOGPU_CUDA_LAUNCH_CHECK();
      });
    }

    void PerAtomRegistry::edit_all(RowEdit edit) const
    {
      edit.stride = record_width();
      // the holes filled first: their sources lie past nkeep, which a growth does not keep
      if (edit.nmove > 0)
        for_each_batch(entries, [&](const Batch &batch) {
          move_batch_kernel<<<batch_grid(batch, edit.nmove), BLOCK>>>(batch, edit.nmove, edit.dst,
                                                                      edit.src);
          MESOGPU_CUDA_LAUNCH_CHECK();
        });
      int off = 0;
      for (const auto &e : entries) {
        const Migrate &m = e.migrate;
        if (m.block && !m.block->unused()) {
          m.block->grow((size_t) edit.n, (size_t) edit.nkeep);
        } else if (!m.block && m.edit) {
          edit.offset = off;
          m.edit(edit);
        }
        off += m ? m.width : 0;
      }
      // the arrivals from their records, the ghost rows zero
      if (edit.n > edit.nkeep)
        for_each_batch(entries, [&](const Batch &batch) {
          arrive_batch_kernel<<<batch_grid(batch, edit.n - edit.nkeep), BLOCK>>>(
              batch, edit.nkeep, edit.narrive, edit.n, edit.rec, edit.stride);
          MESOGPU_CUDA_LAUNCH_CHECK();
        });
    }

    template <typename T> Migrate column_migration(DeviceArray<T> *a, bool optional)
    {
      Migrate m;
      m.width = 1;
      m.block = std::make_shared<ArrayBlock<T>>(a, 1, optional);
      return m;
    }

    template <typename T>
    Migrate column_migration_while(DeviceArray<T> *a, std::function<bool()> in_use)
    {
      Migrate m;
      m.block = std::make_shared<ArrayBlock<T>>(a, 1, false, std::move(in_use));
      m.width = m.block->width;
      return m;
    }

    // (an empty array is not 'unused' here: a rank without atoms at the upload has one)
    template <typename T> Migrate rowmajor_migration(DeviceArray<T> *a, int width)
    {
      Migrate m;
      m.width = width;
      m.block = std::make_shared<ArrayBlock<T>>(a, width, false);
      return m;
    }

    Migrate remade_later()
    {
      Migrate m;
      m.edit = [](const RowEdit &) {};
      return m;
    }

    template <typename T> Migrate derived_rows(DeviceArray<T> *a)
    {
      Migrate m;
      m.edit = [a](const RowEdit &e) { grow_rows(*a, (size_t) e.n, 0); };    // rewritten later
      return m;
    }

    template Migrate column_migration(DeviceArray<acc> *, bool);
    template Migrate column_migration(DeviceArray<int> *, bool);
    template Migrate derived_rows(DeviceArray<int> *);
    template Migrate derived_rows(DeviceArray<PosType<real>> *);
    template Migrate rowmajor_migration(DeviceArray<int> *, int);
    template Migrate rowmajor_migration(DeviceArray<double> *, int);
    template Migrate column_migration_while(DeviceArray<acc> *, std::function<bool()>);
    template Migrate column_migration_while(DeviceArray<real4> *, std::function<bool()>);
#if defined(MESOGPU_PREC_SINGLE)    // (acc is double otherwise)
    template Migrate column_migration_while(DeviceArray<double> *, std::function<bool()>);
#endif

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu
