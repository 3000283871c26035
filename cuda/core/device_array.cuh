/* mesogpu: device memory and the atom layout every part of the engine shares (internal
 * to cuda/). Every allocation goes through device_alloc (core/memory.cu): it is checked
 * against the free device memory and the MESOGPU_DEVICE_MEMORY_LIMIT cap first. */
#ifndef MESOGPU_CUDA_CORE_DEVICE_ARRAY_CUH
#define MESOGPU_CUDA_CORE_DEVICE_ARRAY_CUH

#include "cuda_check.h"
#include "memory_table.h"
#include "precision.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace mesogpu {
namespace cuda {
  namespace detail {

    constexpr int SBBITS = 30;    // special-neighbour bits on top of the index, as LAMMPS
    constexpr int NEIGHMASK = 0x3FFFFFFF;
    constexpr int BLOCK = 128;
    static_assert(BLOCK % 32 == 0, "kernels sum energies per warp (PerAtomEV)");

    // what a kernel reports (ErrorRecord); ERR_BONDED: a bonded term outside its style's
    // range, named by the term (ForceTerm::describe_error); ERR_TOPOLOGY: a bond edit that
    // does not fit the lists or is invalid (topology/topology_edit.cu: topology_error_text);
    // ERR_INTERNAL: the engine sized something too small (a bug, never the input);
    // ERR_FIELD_RANGE: an atom outside its rank's brick of the MD-SCF grid
    enum ErrorBits : int {
      ERR_BELOW_TABLE = 1,
      ERR_BONDED = 2,
      ERR_ROTATION = 4,
      ERR_TOPOLOGY = 8,
      ERR_INTERNAL = 16,
      ERR_FIELD_RANGE = 32
    };

    // atoms per device: the two special-neighbour bits sit on top of the atom index in the
    // neighbour list (as in LAMMPS), so indices must stay below 2^30
    constexpr long long MAX_ATOMS = (long long) NEIGHMASK + 1;

    // device memory the engine holds now, the cap on it (0: none), and what the
    // allocations in the current AllocLabel scope are for (error messages name it)
    extern size_t g_engine_bytes;
    extern size_t g_memory_limit;
    extern thread_local const char *g_alloc_what;
    // names what the allocations inside its scope are for (the error message says it)
    struct AllocLabel {
      const char *prev;
      explicit AllocLabel(const char *what) : prev(g_alloc_what) { g_alloc_what = what; }
      ~AllocLabel() { g_alloc_what = prev; }
      AllocLabel(const AllocLabel &) = delete;
    };

    std::string bytes_text(size_t b);
    // count elements of elem bytes, or a runtime_error naming what and how much
    void *device_alloc(size_t count, size_t elem);
    // whether `bytes` more would pass device_alloc's checks now (free memory, the cap)
    bool device_fits(size_t bytes);

    // the row of the memory report (src/memory_table.h) an allocation is charged to: the
    // array's own name if it has one (set_name), else the AllocLabel in force
    inline memtable::Account *label_account()
    {
      return memtable::account(g_alloc_what);
    }

    template <typename T> class DeviceArray {
     public:
      DeviceArray() = default;
      DeviceArray(const DeviceArray &) = delete;
      ~DeviceArray() { release(); }
      // the row of the memory report this array's memory is charged to from now on (what
      // it holds moves there); unnamed arrays are charged to the AllocLabel of their
      // allocation
      void set_name(const std::string &name)
      {
        memtable::Account *a = memtable::account(name);
        if (ptr && acct != a) {
          memtable::discharge(acct, held());
          memtable::charge(a, held());
        }
        acct = a;
        named = true;
      }
      // the old contents are not kept when the array grows (the old block is freed first,
      // so growing never needs old + new at once)
      void resize(size_t n)
      {
        if (n <= cap) {
          count = n;
          return;
        }
        release();
        ptr = static_cast<T *>(device_alloc(n, sizeof(T)));
        cap = n;
        count = n;
        if (!named) acct = label_account();
        memtable::charge(acct, held());
      }
      void release()
      {
        if (ptr) {
          cudaFree(ptr);
          g_engine_bytes -= held();
          memtable::discharge(acct, held());
        }
        ptr = nullptr;
        cap = count = 0;
      }
      void upload(const T *host, size_t n)
      {
        resize(n);
        if (n) MESOGPU_CUDA_CALL(cudaMemcpy(ptr, host, n * sizeof(T), cudaMemcpyHostToDevice));
      }
      void upload(const std::vector<T> &host) { upload(host.data(), host.size()); }
      void download(T *host, size_t n) const
      {
        if (n) MESOGPU_CUDA_CALL(cudaMemcpy(host, ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
      }
      void zero()
      {
        if (count) MESOGPU_CUDA_CALL(cudaMemsetAsync(ptr, 0, count * sizeof(T)));
      }
      T *get() const { return ptr; }
      size_t size() const { return count; }
      // elements the block holds (resize up to it keeps the contents and allocates nothing)
      size_t capacity() const { return cap; }
      // the blocks change hands; each array's row is charged for the block it holds now
      // (so a named array stays charged to its name after a sort's permute_rows, and the
      // scratch array that frees its old block is charged for that, not the name)
      void swap(DeviceArray &o)
      {
        if (!acct) acct = label_account();
        if (!o.acct) o.acct = label_account();
        if (ptr) memtable::discharge(acct, held());
        if (o.ptr) memtable::discharge(o.acct, o.held());
        std::swap(ptr, o.ptr);
        std::swap(count, o.count);
        std::swap(cap, o.cap);
        if (ptr) memtable::charge(acct, held());
        if (o.ptr) memtable::charge(o.acct, o.held());
      }

     private:
      // bytes of the block (device_alloc allocates at least one element)
      size_t held() const { return std::max<size_t>(cap, 1) * sizeof(T); }
      T *ptr = nullptr;
      size_t count = 0, cap = 0;
      memtable::Account *acct = nullptr;    // the row ptr is charged to
      bool named = false;
    };

    // page-locked host memory (cudaHostAlloc), grown on demand (old contents not kept),
    // for copies that run asynchronously with the host (the ghost exchange's staging).
    // Before a block is freed the device is synchronised: a queued copy may still read it.
    template <typename T> class PinnedArray {
     public:
      PinnedArray() = default;
      PinnedArray(const PinnedArray &) = delete;
      PinnedArray &operator=(const PinnedArray &) = delete;
      ~PinnedArray() { release(); }
      // (half again as large when it grows: the exchange's sizes creep up over the first
      // rebuilds, and each growth synchronises the device and allocates page-locked memory)
      T *reserve(size_t n)
      {
        if (n <= cap && ptr) return ptr;
        const size_t want = std::max<size_t>({n, cap + cap / 2, 1});
        release();
        void *p = nullptr;
        MESOGPU_CUDA_CALL(cudaHostAlloc(&p, want * sizeof(T), cudaHostAllocDefault));
        ptr = static_cast<T *>(p);
        cap = want;
        return ptr;
      }
      void release()
      {
        if (ptr) {
          cudaDeviceSynchronize();    // (errors surface at the next checked call)
          cudaFreeHost(ptr);
        }
        ptr = nullptr;
        cap = 0;
      }
      T *get() const { return ptr; }
      size_t capacity() const { return cap; }

     private:
      T *ptr = nullptr;
      size_t cap = 0;
    };

    template <typename R> struct alignas(4 * sizeof(R)) PosType {
      R x, y, z;
      int type;
    };

    // a unit orientation packed for one 16- or 32-byte read per neighbour
    struct alignas(4 * sizeof(real)) real4 {
      real x, y, z, w;
    };
    __host__ __device__ inline real4 make_real4(acc x, acc y, acc z, acc w)
    {
      return {static_cast<real>(x), static_cast<real>(y), static_cast<real>(z),
              static_cast<real>(w)};
    }

    // the box as the kernels see it. A non-periodic dimension has inv_prd_r = 0, so
    // min_image() is the identity there. Small periodic boxes (below 2 x (cutoff + skin))
    // use explicit images: each neighbour entry carries an image code above its
    // img_bits index bits, shift s_d in -img_k[d]..img_k[d] (img_n = 2 img_k + 1 codes)
    struct BoxD {
      acc lo[3], prd[3];
      real prd_r[3], inv_prd_r[3];
      int periodic[3];
      int img_bits;    // index bits of an entry in image mode (30 - code bits)
      int img_n[3], img_k[3];
    };

    __device__ __forceinline__ real min_image(real d, real prd, real inv_prd)
    {
      return d - prd * rint(d * inv_prd);
    }

    // per-atom and per-node launches: n <= MAX_ATOMS, so the block count is an int
    inline int blocks(int n)
    {
      return n > 0 ? (n + BLOCK - 1) / BLOCK : 1;    // a rank may own no atoms: one idle block
    }
    // launches over products of counts (cell slots, lanes x atoms): 64-bit, x dimension
    // (up to 2^31 - 1); one idle block for none (a rank of a liquid-vapour slab may hold
    // no atom and no ghost: a launch of zero blocks is an error)
    inline unsigned blocks64(long long n)
    {
      return n > 0 ? static_cast<unsigned>((n + BLOCK - 1) / BLOCK) : 1;
    }

    // a kernel's lanes per atom (1, 4, 8, 16 or 32; anything else as 1) as a template
    // argument: f(std::integral_constant<int, lanes>{})
    template <class F> void with_lanes(int lanes, F &&f)
    {
      switch (lanes) {
        case 4:
          f(std::integral_constant<int, 4>{});
          return;
        case 8:
          f(std::integral_constant<int, 8>{});
          return;
        case 16:
          f(std::integral_constant<int, 16>{});
          return;
        case 32:
          f(std::integral_constant<int, 32>{});
          return;
        default:
          f(std::integral_constant<int, 1>{});
      }
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
