/* mesogpu: the device engine; see engine.h. All device memory is owned here
 * (DeviceArray); kernels are small and named for what they do. */

#include "cuda_check.h"
#include "engine.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "physics/angle.h"
#include "physics/bond_fene.h"
#include "physics/dihedral.h"
#include "physics/mdscf.h"
#include "physics/bond_harmonic.h"
#include "physics/pair_dpd.h"
#include "physics/pair_gauss.h"
#include "physics/pair_harmonic_cut.h"
#include "physics/pair_lj_cut.h"
#include "physics/random.h"
#include "physics/rotation_leapfrog.h"
#include "physics/soft_aniso.h"
#include "physics/table_r2.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <type_traits>

namespace mesogpu {
namespace cuda {

  namespace {

    constexpr int SBBITS = 30;    // special-neighbour bits on top of the index, as LAMMPS
    constexpr int NEIGHMASK = 0x3FFFFFFF;
    constexpr int BLOCK = 128;

    enum ErrorBits : int { ERR_BELOW_TABLE = 1, ERR_BAD_FENE = 2, ERR_ROTATION = 4 };

    // atoms per device: the two special-neighbour bits sit on top of the atom index in the
    // neighbour list (as in LAMMPS), so indices must stay below 2^30
    constexpr long long MAX_ATOMS = (long long) NEIGHMASK + 1;

    // ---- device memory: the only place that allocates --------------------------------
    // Every allocation is checked against the free device memory (and an optional cap on
    // what the engine may hold, MESOGPU_DEVICE_MEMORY_LIMIT) before cudaMalloc: a run that
    // does not fit stops with what was being allocated, the bytes needed and the bytes
    // free, never with a failed or illegal access later.
    size_t g_engine_bytes = 0;    // device memory the engine holds now
    size_t g_memory_limit = 0;    // 0: no cap
    thread_local const char *g_alloc_what = "the atom arrays";
    // names what the allocations inside its scope are for (the error message says it)
    struct AllocLabel {
      const char *prev;
      explicit AllocLabel(const char *what) : prev(g_alloc_what) { g_alloc_what = what; }
      ~AllocLabel() { g_alloc_what = prev; }
      AllocLabel(const AllocLabel &) = delete;
    };

    std::string bytes_text(size_t b)
    {
      std::ostringstream m;
      m.setf(std::ios::fixed);
      m.precision(2);
      m << b / 1073741824.0 << " GiB (" << b << " bytes)";
      return m.str();
    }

    void *device_alloc(size_t count, size_t elem)
    {
      const size_t n = std::max<size_t>(count, 1);
      if (n > SIZE_MAX / elem)
        throw std::runtime_error(std::string("mesogpu: ") + g_alloc_what + ": " +
                                 std::to_string(count) + " elements do not fit in 64-bit sizes");
      const size_t bytes = n * elem;
      size_t free_b = 0, total_b = 0;
      MESOGPU_CUDA_CALL(cudaMemGetInfo(&free_b, &total_b));
      auto fail = [&](const std::string &why) {
        std::ostringstream m;
        m << "not enough GPU memory for " << g_alloc_what << ": it needs " << bytes_text(bytes)
          << " more; " << why << " (the engine holds " << bytes_text(g_engine_bytes) << " of "
          << bytes_text(total_b)
          << "). Fewer atoms per GPU (or a shorter cutoff + skin, fewer neighbours) would fit";
        throw std::runtime_error(m.str());
      };
      if (g_memory_limit && g_engine_bytes + bytes > g_memory_limit)
        fail("the cap MESOGPU_DEVICE_MEMORY_LIMIT = " + bytes_text(g_memory_limit) + " leaves " +
             bytes_text(g_memory_limit > g_engine_bytes ? g_memory_limit - g_engine_bytes : 0));
      if (bytes > free_b) fail(bytes_text(free_b) + " are free");
      void *p = nullptr;
      const cudaError_t e = cudaMalloc(&p, bytes);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();    // not sticky: clear it, report it as the memory error it is
        fail(bytes_text(free_b) + " were free, but cudaMalloc could not place them");
      }
      MESOGPU_CUDA_CALL(e);
      g_engine_bytes += bytes;
      return p;
    }

    template <typename T> class DeviceArray {
     public:
      DeviceArray() = default;
      DeviceArray(const DeviceArray &) = delete;
      ~DeviceArray() { release(); }
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
      }
      void release()
      {
        if (ptr) {
          cudaFree(ptr);
          g_engine_bytes -= std::max<size_t>(cap, 1) * sizeof(T);
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
      void swap(DeviceArray &o)
      {
        std::swap(ptr, o.ptr);
        std::swap(count, o.count);
        std::swap(cap, o.cap);
      }

     private:
      T *ptr = nullptr;
      size_t count = 0, cap = 0;
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

    struct BoxD {
      acc lo[3], prd[3];
      real prd_r[3], inv_prd_r[3];
    };

    __device__ __forceinline__ real min_image(real d, real prd, real inv_prd)
    {
      return d - prd * rint(d * inv_prd);
    }

    // per-atom and per-node launches: n <= MAX_ATOMS, so the block count is an int
    inline int blocks(int n)
    {
      return (n + BLOCK - 1) / BLOCK;
    }
    // launches over products of counts (cell slots): 64-bit, x dimension (up to 2^31 - 1)
    inline unsigned blocks64(long long n)
    {
      return static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
    }

    // ---- integrators ----------------------------------------------------------------
    // the arithmetic of LAMMPS FixNVE (dtfm = dtf / mass), so CPU and device agree
    __global__ void nve_initial_kernel(int n, acc *x0, acc *x1, acc *x2, acc *v0, acc *v1, acc *v2,
                                       const acc *f0, const acc *f1, const acc *f2, const int *type,
                                       const acc *mass, const acc *rmass, acc dtv, acc dtf,
                                       PosType<real> *pos, const int *mask, int groupbit)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      acc vx = v0[i] + dtfm * f0[i], vy = v1[i] + dtfm * f1[i], vz = v2[i] + dtfm * f2[i];
      v0[i] = vx;
      v1[i] = vy;
      v2[i] = vz;
      acc x = x0[i] + dtv * vx, y = x1[i] + dtv * vy, z = x2[i] + dtv * vz;
      x0[i] = x;
      x1[i] = y;
      x2[i] = z;
      pos[i].x = static_cast<real>(x);
      pos[i].y = static_cast<real>(y);
      pos[i].z = static_cast<real>(z);
    }

    __global__ void nve_final_kernel(int n, acc *v0, acc *v1, acc *v2, const acc *f0, const acc *f1,
                                     const acc *f2, const int *type, const acc *mass,
                                     const acc *rmass, acc dtf, const int *mask, int groupbit)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      v0[i] += dtfm * f0[i];
      v1[i] += dtfm * f1[i];
      v2[i] += dtfm * f2[i];
    }

    // ---- neighbour list ---------------------------------------------------------------
    __global__ void displacement_check_kernel(int n, const acc *x0, const acc *x1, const acc *x2,
                                              const acc *h0, const acc *h1, const acc *h2,
                                              acc triggersq, int *flag)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const acc dx = x0[i] - h0[i], dy = x1[i] - h1[i], dz = x2[i] - h2[i];
      if (dx * dx + dy * dy + dz * dz > triggersq) *flag = 1;    // benign race: all write 1
    }

    // Domain::pbc() of LAMMPS for an orthogonal box, then the atomic slot claim of the
    // cell list (one thread per atom). Overflowing atoms are only counted: the host grows
    // the capacity and bins again.
    __global__ void wrap_and_bin_kernel(int n, acc *x0, acc *x1, acc *x2, int *im0, int *im1,
                                        int *im2, acc *h0, acc *h1, acc *h2, PosType<real> *pos,
                                        BoxD box, int3 ncell, int *cell_of, int *cell_count,
                                        int *cell_atoms, int cell_cap, int *status)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc *xs[3] = {x0, x1, x2};
      int *ims[3] = {im0, im1, im2};
      int c[3];
      const int nc[3] = {ncell.x, ncell.y, ncell.z};
      acc w[3];
      for (int d = 0; d < 3; ++d) {
        acc x = xs[d][i];
        const acc hi = box.lo[d] + box.prd[d];
        if (x < box.lo[d]) {
          x += box.prd[d];
          ims[d][i] -= 1;
          if (x >= hi) x = box.lo[d];    // LAMMPS: x = MAX(x, lo) after the shift
        } else if (x >= hi) {
          x -= box.prd[d];
          ims[d][i] += 1;
          if (x < box.lo[d]) x = box.lo[d];
        }
        xs[d][i] = x;
        w[d] = x;
        int ci = static_cast<int>((x - box.lo[d]) / box.prd[d] * nc[d]);
        c[d] = min(max(ci, 0), nc[d] - 1);
      }
      h0[i] = w[0];
      h1[i] = w[1];
      h2[i] = w[2];
      pos[i].x = static_cast<real>(w[0]);
      pos[i].y = static_cast<real>(w[1]);
      pos[i].z = static_cast<real>(w[2]);
      const int cell = (c[2] * nc[1] + c[1]) * nc[0] + c[0];
      cell_of[i] = cell;
      const int slot = atomicAdd(&cell_count[cell], 1);
      // only overflowing claims touch the one status word (100 M atomics on one address
      // would serialise)
      if (slot < cell_cap)
        cell_atoms[(size_t) cell * cell_cap + slot] = i;
      else
        atomicMax(&status[0], slot + 1);
    }

    // atomic slot claims leave each cell in arbitrary order; sorting makes the
    // neighbour order, the force sums and so whole trajectories reproducible
    __global__ void sort_cells_kernel(int ncells, const int *cell_count, int *cell_atoms,
                                      int cell_cap)
    {
      const int c = blockIdx.x * blockDim.x + threadIdx.x;
      if (c >= ncells) return;
      int *a = cell_atoms + (size_t) c * cell_cap;
      const int m = min(cell_count[c], cell_cap);
      for (int k = 1; k < m; ++k) {
        const int v = a[k];
        int l = k - 1;
        while (l >= 0 && a[l] > v) {
          a[l + 1] = a[l];
          --l;
        }
        a[l + 1] = v;
      }
    }

    // positions in cell order (slot k of cell c at c * cell_cap + k): the list build then
    // reads each candidate with one contiguous load instead of an index and a gather
    __global__ void fill_cell_pos_kernel(long long nslots, int cell_cap, const int *cell_count,
                                         const int *cell_atoms, const PosType<real> *pos,
                                         PosType<real> *cell_pos)
    {
      const long long idx = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      if (idx >= nslots) return;
      const int c = static_cast<int>(idx / cell_cap), k = static_cast<int>(idx % cell_cap);
      if (k < min(cell_count[c], cell_cap)) cell_pos[idx] = pos[cell_atoms[idx]];
    }

    // neigh_modify exclude (type, group, molecule/intra|inter), as LAMMPS's
    // NPair::exclusion() applies it: an excluded pair never enters the list
    constexpr int MAX_EXCLUDE = 8;
    struct ExclusionD {
      int active = 0;
      const int *ex_type = nullptr;    // (ntypes+1)^2, nonzero: excluded; null: none
      int ngroup = 0, group1[MAX_EXCLUDE] = {}, group2[MAX_EXCLUDE] = {};
      int nmol = 0, mol_bit[MAX_EXCLUDE] = {}, mol_intra[MAX_EXCLUDE] = {};
      const int *mask = nullptr, *molecule = nullptr;
    };
    __device__ __forceinline__ bool excluded(const ExclusionD &ex, int i, int j, int itype,
                                             int jtype, int ntp1)
    {
      if (ex.ex_type && ex.ex_type[itype * ntp1 + jtype]) return true;
      const int mi = ex.ngroup || ex.nmol ? ex.mask[i] : 0,
                mj = ex.ngroup || ex.nmol ? ex.mask[j] : 0;
      for (int m = 0; m < ex.ngroup; ++m) {
        if ((mi & ex.group1[m]) && (mj & ex.group2[m])) return true;
        if ((mi & ex.group2[m]) && (mj & ex.group1[m])) return true;
      }
      for (int m = 0; m < ex.nmol; ++m)
        if ((mi & ex.mol_bit[m]) && (mj & ex.mol_bit[m]) &&
            ((ex.molecule[i] == ex.molecule[j]) == (ex.mol_intra[m] != 0)))
          return true;
      return false;
    }

    // neighbours from the 27 surrounding cells within (cut + skin), special pairs marked
    // or dropped as LAMMPS does; column-major (nbr[k * n + i]) so reads coalesce
    __global__ void build_neighbors_kernel(int n, const PosType<real> *pos, BoxD box, int3 ncell,
                                           const int *cell_of, const int *cell_count,
                                           const int *cell_atoms, const PosType<real> *cell_pos,
                                           int cell_cap, const real *cutneighsq, int ntp1,
                                           const int *nspecial, const int *special, int maxspecial,
                                           int4 special_flag, ExclusionD ex, int *nnbr, int *nbr,
                                           int nbr_cap, int *status)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const int cell = cell_of[i];
      const int cx = cell % ncell.x, cy = (cell / ncell.x) % ncell.y,
                cz = cell / (ncell.x * ncell.y);
      const int *nsi = nspecial ? nspecial + 3 * (size_t) i : nullptr;
      const int ns0 = nsi ? nsi[0] : 0, ns1 = nsi ? nsi[1] : 0, ns2 = nsi ? nsi[2] : 0;
      const int *speci = special ? special + (size_t) i * maxspecial : nullptr;
      const int sflag[4] = {special_flag.x, special_flag.y, special_flag.z, special_flag.w};
      int count = 0;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int ox = (cx + dx + ncell.x) % ncell.x, oy = (cy + dy + ncell.y) % ncell.y,
                      oz = (cz + dz + ncell.z) % ncell.z;
            const int oc = (oz * ncell.y + oy) * ncell.x + ox;
            const int m = min(cell_count[oc], cell_cap);
            const int *atoms = cell_atoms + (size_t) oc * cell_cap;
            const PosType<real> *cpos = cell_pos + (size_t) oc * cell_cap;
            for (int k = 0; k < m; ++k) {
              const PosType<real> pj = cpos[k];
              const real ddx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
              const real ddy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
              const real ddz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
              const real rsq = ddx * ddx + ddy * ddy + ddz * ddz;
              if (rsq > cutneighsq[pi.type * ntp1 + pj.type]) continue;
              const int j = atoms[k];
              if (j == i) continue;
              if (ex.active && excluded(ex, i, j, pi.type, pj.type, ntp1)) continue;
              int entry = j;
              if (ns2) {
                int which = 0;
                for (int s = 0; s < ns2; ++s)
                  if (speci[s] == j) {
                    which = (s < ns0) ? 1 : (s < ns1) ? 2 : 3;
                    break;
                  }
                if (which) {
                  if (sflag[which] == 0) continue;
                  if (sflag[which] == 2) entry = j ^ (which << SBBITS);
                }
              }
              // column k of the list starts at k n: past 2^31 entries at ~30 M atoms
              if (count < nbr_cap) nbr[(size_t) count * n + i] = entry;
              ++count;
            }
          }
      nnbr[i] = count;
      if (count > nbr_cap) atomicMax(&status[1], count);
    }

    // ---- space-filling-curve order -------------------------------------------------------
    // Morton (Z-order) code of each atom's cell: atoms close in space get close indices,
    // so the neighbour gathers of the force kernels hit the same cache lines
    __device__ __forceinline__ unsigned spread_bits10(unsigned v)
    {
      v &= 0x3ff;
      v = (v | (v << 16)) & 0x030000ff;
      v = (v | (v << 8)) & 0x0300f00f;
      v = (v | (v << 4)) & 0x030c30c3;
      v = (v | (v << 2)) & 0x09249249;
      return v;
    }
    // shift: cells per dimension beyond 1024 share a code (10 bits per dimension)
    __global__ void morton_keys_kernel(int n, const int *cell_of, int3 ncell, int shift,
                                       unsigned *key, int *value)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const int c = cell_of[i];
      const unsigned cx = (c % ncell.x) >> shift, cy = ((c / ncell.x) % ncell.y) >> shift,
                     cz = (c / (ncell.x * ncell.y)) >> shift;
      key[i] = spread_bits10(cx) | (spread_bits10(cy) << 1) | (spread_bits10(cz) << 2);
      value[i] = i;
    }
    __global__ void inverse_kernel(int n, const int *src, int *inv)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) inv[src[i]] = i;
    }
    // out[k * n + i] = in[k * n + src[i]] for k < rows (column-major per-atom lists); the
    // _remap variants also map stored atom indices through inv (negative = unused, kept)
    template <typename T>
    __global__ void permute_kernel(int n, int rows, const int *src, const T *in, T *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      for (int k = 0; k < rows; ++k) out[(size_t) k * n + i] = in[(size_t) k * n + src[i]];
    }
    __global__ void permute_remap_kernel(int n, int rows, const int *src, const int *inv,
                                         const int *in, int *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      for (int k = 0; k < rows; ++k) {
        const int v = in[(size_t) k * n + src[i]];
        out[(size_t) k * n + i] = v >= 0 ? inv[v] : v;
      }
    }
    // row-major variant for the special lists (special[i * maxspecial + s])
    __global__ void permute_rowmajor_kernel(int n, int width, const int *src, const int *inv,
                                            const int *in, int *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      for (int k = 0; k < width; ++k) {
        const int v = in[(size_t) src[i] * width + k];
        out[(size_t) i * width + k] = (inv && v >= 0) ? inv[v] : v;    // inv null: copy values
      }
    }
    __global__ void permute_int4_kernel(int n, int rows, const int *src, const int *inv,
                                        const int4 *in, int4 *out, bool remap_w)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      for (int k = 0; k < rows; ++k) {
        int4 v = in[(size_t) k * n + src[i]];
        v.x = inv[v.x];
        v.y = inv[v.y];
        v.z = inv[v.z];
        if (remap_w) v.w = inv[v.w];
        out[(size_t) k * n + i] = v;
      }
    }

    // ---- forces ------------------------------------------------------------------------
    struct PairLJDev {
      const physics::LJCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorLJCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
    struct PairTableDev {
      const physics::TableR2View<real> *t;
      const real *offset;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        const int ij = ti * ntp1 + tj;
        const bool ok = physics::EvaluatorTableR2<real>(rsq, t[ij]).evaluate(fpair, e);
        e -= offset[ij];
        return ok;
      }
    };

    struct PairGaussDev {
      const physics::GaussParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorGauss<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };
    struct PairHarmonicCutDev {
      const physics::HarmonicCutParams<real> *p;
      const real *cutsq;
      __device__ bool eval(int ti, int tj, int ntp1, real rsq, real &fpair, real &e) const
      {
        return physics::EvaluatorHarmonicCut<real>(rsq, p[ti * ntp1 + tj]).evaluate(fpair, e);
      }
    };

    struct Special4 {
      real w[4];    // special_lj[0..3], w[0] = 1
    };

    struct PerAtomEV {
      acc *e, *v0, *v1, *v2, *v3, *v4, *v5;
      __device__ void store(int i, acc energy, const acc v[6]) const
      {
        e[i] = energy;
        v0[i] = v[0];
        v1[i] = v[1];
        v2[i] = v[2];
        v3[i] = v[3];
        v4[i] = v[4];
        v5[i] = v[5];
      }
    };

    // each pair is seen from both atoms: half of d (x) d F/r per atom
    __device__ __forceinline__ void add_half_pair_virial(acc v[6], real dx, real dy, real dz,
                                                         real fdivr)
    {
      v[0] += acc(0.5) * dx * dx * fdivr;
      v[1] += acc(0.5) * dy * dy * fdivr;
      v[2] += acc(0.5) * dz * dz * fdivr;
      v[3] += acc(0.5) * dx * dy * fdivr;
      v[4] += acc(0.5) * dx * dz * fdivr;
      v[5] += acc(0.5) * dy * dz * fdivr;
    }

    // DPD needs velocities and a random number per pair and step: its own kernel, still one
    // thread per atom over the full list; the pair's two threads draw the same number
    template <bool EV>
    __global__ void dpd_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                      const int *nbr, const physics::DPDParams<real> *params,
                                      const real *cutsq, int ntp1, Special4 special_lj,
                                      Special4 special_sqrt, const acc *v0, const acc *v1,
                                      const acc *v2, const int *tag, uint32_t seed, uint32_t step,
                                      real dtinvsqrt, acc *f0, acc *f1, acc *f2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const real vix = v0[i], viy = v1[i], viz = v2[i];
      const uint32_t tagi = tag[i];
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nnbr[i];
      const int *nb = nbr + i;    // entry k at nb[k n]: a 64-bit pointer step, no int product
      for (int k = 0; k < m; ++k, nb += n) {
        int j = *nb;
        const int which = (j >> SBBITS) & 3;
        j &= NEIGHMASK;
        const PosType<real> pj = pos[j];
        const real dx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
        const real dy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
        const real dz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
        const real rsq = dx * dx + dy * dy + dz * dz;
        const int ij = pi.type * ntp1 + pj.type;
        if (rsq >= cutsq[ij]) continue;
        const real dot =
            dx * (vix - real(v0[j])) + dy * (viy - real(v1[j])) + dz * (viz - real(v2[j]));
        const real xi = static_cast<real>(
            physics::dpd_gaussian(seed, tagi, static_cast<uint32_t>(tag[j]), step));
        real fpair, en;
        if (!physics::dpd_pair<real>(rsq, dot, xi, dtinvsqrt, special_lj.w[which],
                                     special_sqrt.w[which], params[ij], fpair, en))
          continue;
        fx += dx * fpair;
        fy += dy * fpair;
        fz += dz * fpair;
        if (EV) {
          e += acc(0.5) * en;
          add_half_pair_virial(v, dx, dy, dz, fpair);
        }
      }
      f0[i] = fx;
      f1[i] = fy;
      f2[i] = fz;
      if (EV) ev.store(i, e, v);
    }

    // ---- thermostats ---------------------------------------------------------------------
    // the arithmetic of LAMMPS FixLangevin::post_force (no bias, no tally, per-type mass)
    __global__ void langevin_kernel(int n, const int *mask, int groupbit, const int *type,
                                    const int *tag, const acc *v0, const acc *v1, const acc *v2,
                                    acc *f0, acc *f1, acc *f2, const double *gfactor1,
                                    const double *gfactor2, double tsqrt, uint32_t seed,
                                    uint32_t step_lo, uint32_t step_hi)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const double gamma1 = gfactor1[type[i]], gamma2 = gfactor2[type[i]] * tsqrt;
      double u[3];
      physics::uniform3(seed, static_cast<uint32_t>(tag[i]), step_lo, step_hi, u);
      f0[i] += gamma1 * v0[i] + gamma2 * (u[0] - 0.5);
      f1[i] += gamma1 * v1[i] + gamma2 * (u[1] - 0.5);
      f2[i] += gamma1 * v2[i] + gamma2 * (u[2] - 0.5);
    }

    // Reductions are deterministic: each block writes its totals to a scratch slot, and
    // the last block to finish sums the slots in block order, so a sum (and a trajectory
    // that depends on it, e.g. through a thermostat) does not depend on which block
    // finished first. One scratch serves all reductions: they run one after another
    // on the default stream. Grids of at most RED_MAX_BLOCKS blocks, N <= RED_MAX_N.
    constexpr int RED_MAX_BLOCKS = 1024, RED_MAX_N = 16;
    __device__ double red_partials[RED_MAX_BLOCKS * RED_MAX_N];
    __device__ unsigned red_ticket = 0;

    // sums each thread's a[0..N) over the grid (blockDim.x == BLOCK) and adds the totals
    // to out[0..N) in double: the tail of every reduction kernel here
    template <int N> __device__ void block_sum_to(const double (&a)[N], double *out)
    {
      static_assert(N <= RED_MAX_N, "block_sum_to: too many components");
      __shared__ double sh[N][BLOCK];
      __shared__ bool last;
      const int t = threadIdx.x;
      for (int c = 0; c < N; ++c) sh[c][t] = a[c];
      __syncthreads();
      for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
          for (int c = 0; c < N; ++c) sh[c][t] += sh[c][t + w];
        __syncthreads();
      }
      if (gridDim.x > RED_MAX_BLOCKS) {    // callers launch fewer; never silently wrong
        if (t == 0)
          for (int c = 0; c < N; ++c) atomicAdd(&out[c], sh[c][0]);
        return;
      }
      if (t == 0) {
        for (int c = 0; c < N; ++c) red_partials[blockIdx.x * N + c] = sh[c][0];
        __threadfence();    // the totals are visible before the ticket says so
        last = atomicAdd(&red_ticket, 1u) == gridDim.x - 1;
      }
      __syncthreads();
      if (!last) return;
      // the last block: thread t sums blocks t, t + BLOCK, ... in order, then a fixed tree
      for (int c = 0; c < N; ++c) {
        double v = 0.0;
        for (int b = t; b < (int) gridDim.x; b += BLOCK) v += __ldcg(&red_partials[b * N + c]);
        sh[c][t] = v;
      }
      __syncthreads();
      for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
          for (int c = 0; c < N; ++c) sh[c][t] += sh[c][t + w];
        __syncthreads();
      }
      if (t == 0) {
        for (int c = 0; c < N; ++c) out[c] += sh[c][0];
        red_ticket = 0;    // ready for the next reduction
      }
    }

#include "mdscf_kernels.cuh"

    // sum over the group of m v^2 (slot 0) and m v (slots 1..3), double
    __global__ void reduce_mv_kernel(int n, const int *mask, int groupbit, const int *type,
                                     const acc *mass, const acc *rmass, const acc *v0,
                                     const acc *v1, const acc *v2, double *out)
    {
      const int t = threadIdx.x;
      double a[4] = {0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        a[0] += m * (double(v0[i]) * v0[i] + double(v1[i]) * v1[i] + double(v2[i]) * v2[i]);
        a[1] += m * v0[i];
        a[2] += m * v1[i];
        a[3] += m * v2[i];
      }
      block_sum_to(a, out);
    }

    // lambda from the reduced temperature, on the device: no host round trip per step
    __global__ void berendsen_scale_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                           acc *v2, const double *sums, double tfactor,
                                           double t_target, double dt_over_period)
    {
      const double t_current = sums[0] * tfactor;
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit) || t_current <= 0.0) return;
      const double lamda = sqrt(1.0 + dt_over_period * (t_target / t_current - 1.0));
      v0[i] *= lamda;
      v1[i] *= lamda;
      v2[i] *= lamda;
    }

    __global__ void zero_momentum_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                         acc *v2, const double *sums, double inv_mass, int3 dims)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      if (dims.x) v0[i] -= sums[1] * inv_mass;
      if (dims.y) v1[i] -= sums[2] * inv_mass;
      if (dims.z) v2[i] -= sums[3] * inv_mass;
    }

    struct ErrorRecord {
      int bits;
      int i, j;
      double rsq;
    };

    // one thread per atom over its full neighbour list: each pair is evaluated twice and
    // no atomics are needed; energy and virial take half of each pair
    template <class Pair, bool EV>
    __global__ void pair_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                       const int *nbr, Pair pair, int ntp1, Special4 special_lj,
                                       acc *f0, acc *f1, acc *f2, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nnbr[i];
      const int *nb = nbr + i;    // entry k at nb[k n]: a 64-bit pointer step, no int product
      for (int k = 0; k < m; ++k, nb += n) {
        int j = *nb;
        const int which = (j >> SBBITS) & 3;    // as LAMMPS sbmask(): the shift is arithmetic
        j &= NEIGHMASK;
        const PosType<real> pj = pos[j];
        const real dx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
        const real dy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
        const real dz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
        const real rsq = dx * dx + dy * dy + dz * dz;
        if (rsq >= pair.cutsq[pi.type * ntp1 + pj.type]) continue;
        real fpair, en;
        if (!pair.eval(pi.type, pj.type, ntp1, rsq, fpair, en)) {
          if (atomicOr(&err->bits, ERR_BELOW_TABLE) == 0) {
            err->i = i;
            err->j = j;
            err->rsq = rsq;
          }
        }
        const real factor = special_lj.w[which];
        fpair *= factor;
        fx += dx * fpair;
        fy += dy * fpair;
        fz += dz * fpair;
        if (EV) {
          e += acc(0.5) * factor * en;
          add_half_pair_virial(v, dx, dy, dz, fpair);
        }
      }
      f0[i] = fx;
      f1[i] = fy;
      f2[i] = fz;
      if (EV) ev.store(i, e, v);
    }

    struct BondHarmonicDev {
      const physics::BondHarmonicParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_harmonic<real>(rsq, p[t], fbond, e);
      }
    };
    struct BondFENEDev {
      const physics::BondFENEParams<real> *p;
      __device__ bool eval(int t, real rsq, real &fbond, real &e) const
      {
        return physics::bond_fene<real>(rsq, p[t], fbond, e);
      }
    };

    // bonded forces one thread per atom over its own bond list (each bond twice, no atomics)
    template <class Bond, bool EV>
    __global__ void bond_forces_kernel(int n, const PosType<real> *pos, BoxD box, const int *nbond,
                                       const int *partner, const int *btype, Bond bond, acc *f0,
                                       acc *f1, acc *f2, PerAtomEV ev, ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nbond[i];
      const int *pk = partner + i, *tk = btype + i;    // column-major: entry k at [k n + i]
      for (int k = 0; k < m; ++k, pk += n, tk += n) {
        const int j = *pk;
        const int t = *tk;
        const PosType<real> pj = pos[j];
        const real dx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
        const real dy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
        const real dz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
        const real rsq = dx * dx + dy * dy + dz * dz;
        real fbond, en;
        if (!bond.eval(t, rsq, fbond, en)) {
          if (atomicOr(&err->bits, ERR_BAD_FENE) == 0) {
            err->i = i;
            err->j = j;
            err->rsq = rsq;
          }
        }
        fx += dx * fbond;
        fy += dy * fbond;
        fz += dz * fbond;
        if (EV) {
          e += acc(0.5) * en;
          add_half_pair_virial(v, dx, dy, dz, fbond);
        }
      }
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

    // angles: one thread per atom over the angles it takes part in; the thread evaluates
    // the whole angle and keeps its own atom's force, a third of the energy and virial
    template <physics::AngleKind Kind, bool EV>
    __global__ void angle_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                        const int *nangle, const int4 *angle,
                                        const physics::AngleParams<real> *params, acc *f0, acc *f1,
                                        acc *f2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nangle[i];
      const int4 *ak = angle + i;
      for (int k = 0; k < m; ++k, ak += n) {
        const int4 a = *ak;    // atoms x, y, z; type w
        const PosType<real> p1 = pos[a.x], p2 = pos[a.y], p3 = pos[a.z];
        const real d1[3] = {min_image(p1.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                            min_image(p1.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                            min_image(p1.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real d2[3] = {min_image(p3.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                            min_image(p3.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                            min_image(p3.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        real fa[3], fc[3], en;
        physics::angle_force<Kind, real>(d1, d2, params[a.w], fa, fc, en);
        real mine[3];
        for (int d = 0; d < 3; ++d)
          mine[d] = (i == a.x) ? fa[d] : (i == a.z) ? fc[d] : -fa[d] - fc[d];
        fx += mine[0];
        fy += mine[1];
        fz += mine[2];
        if (EV) {
          const acc third = acc(1) / acc(3);
          e += third * en;
          v[0] += third * (d1[0] * fa[0] + d2[0] * fc[0]);
          v[1] += third * (d1[1] * fa[1] + d2[1] * fc[1]);
          v[2] += third * (d1[2] * fa[2] + d2[2] * fc[2]);
          v[3] += third * (d1[0] * fa[1] + d2[0] * fc[1]);
          v[4] += third * (d1[0] * fa[2] + d2[0] * fc[2]);
          v[5] += third * (d1[1] * fa[2] + d2[1] * fc[2]);
        }
      }
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

    // dihedrals the same way: a quarter of the energy and virial per atom
    template <bool EV>
    __global__ void dihedral_forces_kernel(int n, const PosType<real> *pos, BoxD box,
                                           const int *ndihedral, const int4 *atoms,
                                           const int *dtype,
                                           const physics::DihedralParams<real> *params, acc *f0,
                                           acc *f1, acc *f2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      acc fx = 0, fy = 0, fz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = ndihedral[i];
      const int4 *ak = atoms + i;
      const int *tk = dtype + i;
      for (int k = 0; k < m; ++k, ak += n, tk += n) {
        const int4 a = *ak;
        const int t = *tk;
        const PosType<real> p1 = pos[a.x], p2 = pos[a.y], p3 = pos[a.z], p4 = pos[a.w];
        const real vb1[3] = {min_image(p1.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p1.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p1.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real vb2[3] = {min_image(p3.x - p2.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p3.y - p2.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p3.z - p2.z, box.prd_r[2], box.inv_prd_r[2])};
        const real vb3[3] = {min_image(p4.x - p3.x, box.prd_r[0], box.inv_prd_r[0]),
                             min_image(p4.y - p3.y, box.prd_r[1], box.inv_prd_r[1]),
                             min_image(p4.z - p3.z, box.prd_r[2], box.inv_prd_r[2])};
        real g1[3], g2[3], g3[3], g4[3], en;
        physics::dihedral_force<real>(vb1, vb2, vb3, params[t], g1, g2, g3, g4, en);
        const real *mine = (i == a.x) ? g1 : (i == a.y) ? g2 : (i == a.z) ? g3 : g4;
        fx += mine[0];
        fy += mine[1];
        fz += mine[2];
        if (EV) {
          const acc quarter = acc(0.25);
          e += quarter * en;
          v[0] += quarter * (vb1[0] * g1[0] + vb2[0] * g3[0] + (vb3[0] + vb2[0]) * g4[0]);
          v[1] += quarter * (vb1[1] * g1[1] + vb2[1] * g3[1] + (vb3[1] + vb2[1]) * g4[1]);
          v[2] += quarter * (vb1[2] * g1[2] + vb2[2] * g3[2] + (vb3[2] + vb2[2]) * g4[2]);
          v[3] += quarter * (vb1[0] * g1[1] + vb2[0] * g3[1] + (vb3[0] + vb2[0]) * g4[1]);
          v[4] += quarter * (vb1[0] * g1[2] + vb2[0] * g3[2] + (vb3[0] + vb2[0]) * g4[2]);
          v[5] += quarter * (vb1[1] * g1[2] + vb2[1] * g3[2] + (vb3[1] + vb2[1]) * g4[2]);
        }
      }
      f0[i] += fx;
      f1[i] += fy;
      f2[i] += fz;
      if (EV) ev.store(i, e, v);
    }

    // sums of 7 per-atom arrays (energy, 6 virial) in double
    __global__ void reduce_ev_kernel(int n, PerAtomEV ev, double *out)
    {
      const int t = threadIdx.x;
      double a[7] = {0, 0, 0, 0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        a[0] += ev.e[i];
        a[1] += ev.v0[i];
        a[2] += ev.v1[i];
        a[3] += ev.v2[i];
        a[4] += ev.v3[i];
        a[5] += ev.v4[i];
        a[6] += ev.v5[i];
      }
      block_sum_to(a, out);
    }

    // per-atom energy and virial of one force kind (7 x 8 bytes per atom in mixed/double):
    // allocated on the first energy step of a kind that exists, so a pair-only run holds
    // one set, not four
    struct PerAtomEVStore {
      DeviceArray<acc> a[7];
      bool valid = false;    // written by the last energy/virial step
      void resize(int n)
      {
        AllocLabel label("the per-atom energy and virial arrays");
        for (auto &x : a) x.resize(n);
      }
      PerAtomEV view()
      {
        return {a[0].get(), a[1].get(), a[2].get(), a[3].get(), a[4].get(), a[5].get(), a[6].get()};
      }
    };

    // ---- oriented particles --------------------------------------------------------------
    // pair soft/aniso: one thread per atom over its full list; the thread keeps its own
    // atom's force and torque (tau_i = n_i x g_i), half of each pair's energy and virial
    template <bool EV>
    __global__ void soft_aniso_kernel(int n, const PosType<real> *pos, BoxD box, const int *nnbr,
                                      const int *nbr, const physics::SoftAnisoParams<real> *params,
                                      const real *cutsq, int ntp1, Special4 special_lj,
                                      const real4 *orient, acc *f0, acc *f1, acc *f2, acc *t0,
                                      acc *t1, acc *t2, PerAtomEV ev)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const PosType<real> pi = pos[i];
      const real4 oi = orient[i];
      const real ni[3] = {oi.x, oi.y, oi.z};
      acc fx = 0, fy = 0, fz = 0, tx = 0, ty = 0, tz = 0, e = 0, v[6] = {0, 0, 0, 0, 0, 0};
      const int m = nnbr[i];
      const int *nb = nbr + i;    // entry k at nb[k n]: a 64-bit pointer step, no int product
      for (int k = 0; k < m; ++k, nb += n) {
        int j = *nb;
        const int which = (j >> SBBITS) & 3;
        j &= NEIGHMASK;
        const PosType<real> pj = pos[j];
        const real dx = min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]);
        const real dy = min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]);
        const real dz = min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2]);
        const real rsq = dx * dx + dy * dy + dz * dz;
        const int ij = pi.type * ntp1 + pj.type;
        if (rsq >= cutsq[ij]) continue;
        const real4 oj = orient[j];
        const real nj[3] = {oj.x, oj.y, oj.z};
        const real rij[3] = {-dx, -dy, -dz};    // x_j - x_i
        real en, fj[3], gi[3], gj[3];
        if (!physics::soft_aniso_pair<real>(params[ij], rij, ni, nj, en, fj, gi, gj)) continue;
        const real factor = special_lj.w[which];
        // force on i is -F_j; torque on i is n_i x g_i
        fx -= factor * fj[0];
        fy -= factor * fj[1];
        fz -= factor * fj[2];
        tx += factor * (ni[1] * gi[2] - ni[2] * gi[1]);
        ty += factor * (ni[2] * gi[0] - ni[0] * gi[2]);
        tz += factor * (ni[0] * gi[1] - ni[1] * gi[0]);
        if (EV) {
          e += acc(0.5) * factor * en;
          const acc h = acc(0.5) * factor;    // del (x) F_i, del = x_i - x_j, F_i = -F_j
          v[0] -= h * dx * fj[0];
          v[1] -= h * dy * fj[1];
          v[2] -= h * dz * fj[2];
          v[3] -= h * dx * fj[1];
          v[4] -= h * dx * fj[2];
          v[5] -= h * dy * fj[2];
        }
      }
      f0[i] = fx;
      f1[i] = fy;
      f2[i] = fz;
      t0[i] = tx;
      t1[i] = ty;
      t2[i] = tz;
      if (EV) ev.store(i, e, v);
    }

    // the packed orientation the pair kernel reads (w = 1 for oriented atoms, else 0)
    __global__ void pack_orient_kernel(int n, const acc *n0, const acc *n1, const acc *n2,
                                       const acc *mu_len, real4 *out)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      out[i] = make_real4(n0[i], n1[i], n2[i], mu_len[i] > 0 ? 1 : 0);
    }

    // fix leapfrog/aniso, the arithmetic of FixLeapfrogAniso::initial_integrate
    __global__ void leapfrog_initial_kernel(int n, const int *mask, int groupbit, const int *type,
                                            const acc *mass, const acc *rmass, acc *x0, acc *x1,
                                            acc *x2, acc *v0, acc *v1, acc *v2, const acc *f0,
                                            const acc *f1, const acc *f2, acc *n0, acc *n1, acc *n2,
                                            const acc *mu_len, const acc *w0, const acc *w1,
                                            const acc *w2, PosType<real> *pos, real4 *orient,
                                            acc dtv, acc dtf, int normalize_limit, int *nlimited,
                                            ErrorRecord *err)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      acc vx = v0[i] + dtfm * f0[i], vy = v1[i] + dtfm * f1[i], vz = v2[i] + dtfm * f2[i];
      v0[i] = vx;
      v1[i] = vy;
      v2[i] = vz;
      const acc x = x0[i] + dtv * vx, y = x1[i] + dtv * vy, z = x2[i] + dtv * vz;
      x0[i] = x;
      x1[i] = y;
      x2[i] = z;
      pos[i].x = static_cast<real>(x);
      pos[i].y = static_cast<real>(y);
      pos[i].z = static_cast<real>(z);
      if (!(mu_len[i] > 0)) return;
      acc nv[3] = {n0[i], n1[i], n2[i]};
      const acc w[3] = {w0[i], w1[i], w2[i]};
      if (!physics::leapfrog_drift<acc>(nv, w, dtv)) {
        if (!normalize_limit) {
          if (atomicOr(&err->bits, ERR_ROTATION) == 0) {
            err->i = i;
            err->j = i;
            err->rsq = double(dtv) * dtv * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
          }
          return;
        }
        physics::leapfrog_drift_normalized<acc>(nv, w, dtv);
        atomicAdd(nlimited, 1);
      }
      n0[i] = nv[0];
      n1[i] = nv[1];
      n2[i] = nv[2];
      orient[i] = make_real4(nv[0], nv[1], nv[2], 1);
    }

    __global__ void leapfrog_final_kernel(int n, const int *mask, int groupbit, const int *type,
                                          const acc *mass, const acc *rmass, acc *v0, acc *v1,
                                          acc *v2, const acc *f0, const acc *f1, const acc *f2,
                                          const acc *n0, const acc *n1, const acc *n2,
                                          const acc *mu_len, acc *w0, acc *w1, acc *w2,
                                          const acc *t0, const acc *t1, const acc *t2,
                                          const acc *inertia, acc dtf, acc dtr)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const acc dtfm = dtf / (rmass ? rmass[i] : mass[type[i]]);
      v0[i] += dtfm * f0[i];
      v1[i] += dtfm * f1[i];
      v2[i] += dtfm * f2[i];
      if (!(mu_len[i] > 0)) return;
      const acc nv[3] = {n0[i], n1[i], n2[i]}, tau[3] = {t0[i], t1[i], t2[i]};
      acc w[3] = {w0[i], w1[i], w2[i]};
      physics::leapfrog_kick<acc>(w, nv, tau, dtr / inertia[type[i]]);
      w0[i] = w[0];
      w1[i] = w[1];
      w2[i] = w[2];
    }

    // [0] m v^2, [1] I |omega x n|^2 (oriented atoms), [2] atoms, [3] oriented atoms
    __global__ void reduce_aniso_kernel(int n, const int *mask, int groupbit, const int *type,
                                        const acc *mass, const acc *rmass, const acc *v0,
                                        const acc *v1, const acc *v2, const acc *n0, const acc *n1,
                                        const acc *n2, const acc *mu_len, const acc *w0,
                                        const acc *w1, const acc *w2, const acc *inertia,
                                        double *out)
    {
      const int t = threadIdx.x;
      double a[4] = {0, 0, 0, 0};
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        a[0] += m * (double(v0[i]) * v0[i] + double(v1[i]) * v1[i] + double(v2[i]) * v2[i]);
        a[2] += 1.0;
        if (mu_len[i] > 0) {
          const double nv[3] = {n0[i], n1[i], n2[i]}, w[3] = {w0[i], w1[i], w2[i]};
          double u[3];
          physics::u_from_omega<double>(u, w, nv);
          a[1] += inertia[type[i]] * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
          a[3] += 1.0;
        }
      }
      block_sum_to(a, out);
    }

    __global__ void scale_aniso_kernel(int n, const int *mask, int groupbit, const acc *mu_len,
                                       acc *v0, acc *v1, acc *v2, acc *w0, acc *w1, acc *w2, acc lt,
                                       acc lr)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      v0[i] *= lt;
      v1[i] *= lt;
      v2[i] *= lt;
      if (mu_len[i] > 0) {
        w0[i] *= lr;
        w1[i] *= lr;
        w2[i] *= lr;
      }
    }

  }    // namespace

  // ==================================================================================
  struct Engine::Impl {
    int n = 0, ntypes = 0;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    DeviceArray<acc> x[3], v[3], f[3], xhold[3];
    DeviceArray<int> image[3], type, mask, tag;
    DeviceArray<acc> mass;
    DeviceArray<acc> rmass;    // per-atom masses (atom styles with rmass), else empty
    const acc *rmass_ptr() const { return rmass.size() ? rmass.get() : nullptr; }
    DeviceArray<PosType<real>> pos;

    // special neighbours
    DeviceArray<int> nspecial, special;
    int maxspecial = 0;
    int special_flag[4] = {0, 1, 1, 1};
    double special_lj[4] = {1, 1, 1, 1};

    // bonds
    DeviceArray<int> nbond, bond_partner, bond_type;
    int maxbond = 0;
    // angles and dihedrals
    DeviceArray<int> nangle, ndihedral, dihedral_type;
    DeviceArray<int4> angle_atoms, dihedral_atoms;
    int maxangle = 0, maxdihedral = 0;
    int angle_kind = -1;
    bool have_dihedral = false;
    DeviceArray<physics::AngleParams<real>> angle_params;
    DeviceArray<physics::DihedralParams<real>> dihedral_params;

    // neighbour list
    double cutneighmax = 0, skin = 0;
    int every = 1, delay = 0;
    bool dist_check = true;
    int ago = 0;
    bool built = false;
    DeviceArray<real> cutneighsq;
    int ncell[3] = {1, 1, 1};
    int cell_cap = 0, nbr_cap = 0;
    DeviceArray<int> cell_of, cell_count, cell_atoms, nnbr, nbr;
    DeviceArray<PosType<real>> cell_pos;    // positions in cell order, for the list build
    DeviceArray<int> status;       // [0] max cell occupancy, [1] max neighbours, [2] rebuild flag
    int *status_host = nullptr;    // pinned

    // force field
    enum class PairKind {
      none,
      lj,
      table,
      gauss,
      harmonic_cut,
      dpd,
      soft_aniso
    } pair_kind = PairKind::none;
    enum class BondKind { none, harmonic, fene } bond_kind = BondKind::none;
    DeviceArray<physics::LJCutParams<real>> lj;
    DeviceArray<physics::GaussParams<real>> gauss;
    DeviceArray<physics::DPDParams<real>> dpd;
    double dpd_special_sqrt[4] = {1, 1, 1, 1};
    unsigned dpd_seed = 0;
    long long step = 0;
    double dt = 0.0;
    DeviceArray<physics::HarmonicCutParams<real>> harmonic_cut;
    DeviceArray<physics::SoftAnisoParams<real>> soft_aniso;
    // oriented particles: unit n, |mu| (0: none), omega, torque, packed n for the pair kernel
    DeviceArray<acc> orient[3], mu_len, omega[3], torque[3], inertia;
    DeviceArray<real4> orient_packed;
    bool have_orient = false;
    DeviceArray<int> rotation_limited;    // drifts past dt |w| = 1 (normalised) since the last take
    DeviceArray<double> gfactor1, gfactor2, mv_sum;
    DeviceArray<physics::TableR2View<real>> table_view;
    DeviceArray<real> table_coeff, pair_offset, pair_cutsq;
    DeviceArray<physics::BondHarmonicParams<real>> bond_harmonic;
    DeviceArray<physics::BondFENEParams<real>> bond_fene;
    PerAtomEVStore ev_pair, ev_bond, ev_angle, ev_dihedral;
    bool ev_valid = false;
    DeviceArray<double> ev_sum;
    DeviceArray<ErrorRecord> err;

    // neigh_modify exclude
    ExclusionD exclusion{};
    DeviceArray<int> ex_type, molecule;
    ExclusionD exclusion_view() const
    {
      ExclusionD e = exclusion;
      e.ex_type = ex_type.size() ? ex_type.get() : nullptr;
      e.mask = mask.get();
      e.molecule = molecule.size() ? molecule.get() : nullptr;
      return e;
    }

    // MD-SCF field of fix mdscf/cuda (mdscf_kernels.cuh)
    bool have_field = false;
    FieldGridD field_grid{};
    FieldParamsD field_params{};
    int field_groupbit = 0;
    acc field_scale = acc(1);    // 1/(rho0 v_c)
    bool field_gather = false;
    int field_cell_cap = 0;
    DeviceArray<int> field_type2comp, field_cell_count, field_cell_atoms;
    DeviceArray<acc> field_phi, field_pot;
    DeviceArray<real4> field_grad;
    DeviceArray<double> field_sums;    // f_chi, f_kappa, virial density summed over nodes
    int field_nodes() const { return field_grid.n[0] * field_grid.n[1] * field_grid.n[2]; }
    void field_derive(acc scale);

    // device order: order[i] = LAMMPS index of device atom i (identity until the first sort)
    DeviceArray<int> order, sort_src, sort_inv, sort_tmp_int;
    DeviceArray<unsigned> sort_key, sort_key_out;
    DeviceArray<char> sort_scratch;
    std::vector<int> order_host;
    int sort_every = 0;
    long long steps_since_sort = 0;
    long long sorts_done = 0;
    bool sort_due = false;

    BoxD box() const
    {
      BoxD b;
      for (int d = 0; d < 3; ++d) {
        b.lo[d] = static_cast<acc>(lo[d]);
        b.prd[d] = static_cast<acc>(hi[d] - lo[d]);
        b.prd_r[d] = static_cast<real>(hi[d] - lo[d]);
        b.inv_prd_r[d] = static_cast<real>(1.0 / (hi[d] - lo[d]));
      }
      return b;
    }
    int ntp1() const { return ntypes + 1; }

    // per type pair parameters (make(k) for pair k of (ntypes+1)^2) and cutoffs to the device
    template <typename P, typename Make>
    void upload_pair(DeviceArray<P> &dst, const std::vector<double> &cutsq, PairKind kind,
                     Make make)
    {
      const int np = ntp1() * ntp1();
      std::vector<P> h(np);
      std::vector<real> c(np);
      for (int k = 0; k < np; ++k) {
        h[k] = make(k);
        c[k] = static_cast<real>(cutsq[k]);
      }
      dst.upload(h);
      pair_cutsq.upload(c);
      pair_kind = kind;
    }
  };

  Engine::Engine() : impl(new Impl)
  {
    if (device_count() == 0)
      throw std::runtime_error("mesogpu: no CUDA device is visible to this process");
    // a cap on the device memory the engine may hold (bytes; testing, or sharing a GPU)
    g_memory_limit = 0;
    if (const char *cap = std::getenv("MESOGPU_DEVICE_MEMORY_LIMIT")) {
      char *end = nullptr;
      const double b = std::strtod(cap, &end);
      if (end == cap || *end != '\0' || !(b > 0) || b > 1e18)
        throw std::runtime_error(std::string("mesogpu: MESOGPU_DEVICE_MEMORY_LIMIT='") + cap +
                                 "' is not a number of bytes (e.g. 2e9)");
      g_memory_limit = static_cast<size_t>(b);
    }
    MESOGPU_CUDA_CALL(cudaHostAlloc(&impl->status_host, 4 * sizeof(int), cudaHostAllocDefault));
    impl->status.resize(4);
    impl->ev_sum.resize(28);
    impl->err.resize(1);
    MESOGPU_CUDA_CALL(cudaMemset(impl->err.get(), 0, sizeof(ErrorRecord)));
  }

  Engine::~Engine()
  {
    if (impl && impl->status_host) cudaFreeHost(impl->status_host);
  }

  int Engine::natoms() const
  {
    return impl->n;
  }

  void Engine::set_box(const double lo[3], const double hi[3])
  {
    for (int d = 0; d < 3; ++d) {
      impl->lo[d] = lo[d];
      impl->hi[d] = hi[d];
    }
  }

  void Engine::upload_atoms(int n, int ntypes, const double *x, const double *v, const double *f,
                            const int *image, const int *type, const double *mass_per_type)
  {
    Impl &s = *impl;
    if (n < 0 || n > MAX_ATOMS)
      throw std::runtime_error("mesogpu: " + std::to_string(n) +
                               " atoms on one GPU; the device engine holds at most " +
                               std::to_string(MAX_ATOMS) +
                               " (2^30: the neighbour list keeps LAMMPS's two special bits on "
                               "top of each atom index)");
    AllocLabel label("the atom arrays");
    s.n = n;
    s.ntypes = ntypes;
    std::vector<acc> buf(n);
    std::vector<int> ibuf(n);
    for (int d = 0; d < 3; ++d) {
      for (size_t i = 0; i < (size_t) n; ++i) buf[i] = static_cast<acc>(x[3 * i + d]);
      s.x[d].upload(buf);
      s.xhold[d].upload(buf);
      for (size_t i = 0; i < (size_t) n; ++i) buf[i] = static_cast<acc>(v[3 * i + d]);
      s.v[d].upload(buf);
      for (size_t i = 0; i < (size_t) n; ++i) buf[i] = static_cast<acc>(f[3 * i + d]);
      s.f[d].upload(buf);
      for (size_t i = 0; i < (size_t) n; ++i) ibuf[i] = image[3 * i + d];
      s.image[d].upload(ibuf);
    }
    s.type.upload(type, n);
    std::vector<acc> m(mass_per_type, mass_per_type + ntypes + 1);
    s.mass.upload(m);
    std::vector<PosType<real>> p(n);
    for (size_t i = 0; i < (size_t) n; ++i) {
      p[i].x = static_cast<real>(x[3 * i]);
      p[i].y = static_cast<real>(x[3 * i + 1]);
      p[i].z = static_cast<real>(x[3 * i + 2]);
      p[i].type = type[i];
    }
    s.pos.upload(p);
    for (auto *st : {&s.ev_pair, &s.ev_bond, &s.ev_angle, &s.ev_dihedral}) st->valid = false;
    s.maxangle = s.maxdihedral = 0;
    s.nangle.resize(n);
    s.nangle.zero();
    s.ndihedral.resize(n);
    s.ndihedral.zero();
    s.nnbr.resize(n);
    s.cell_of.resize(n);
    s.nbond.resize(n);
    s.nbond.zero();
    s.maxbond = 0;
    s.nspecial.resize(0);
    s.maxspecial = 0;
    s.built = false;
    s.ev_valid = false;
    s.have_orient = false;
    s.have_field = false;          // until a fix sets one for this run
    s.exclusion = ExclusionD{};    // until set_exclusions
    s.ex_type.resize(0);
    s.molecule.resize(0);
    s.pair_kind = Impl::PairKind::none;    // until the pair style sets its kind
    s.rmass.resize(0);
    s.order_host.resize(n);
    for (int i = 0; i < n; ++i) s.order_host[i] = i;
    s.order.upload(s.order_host);
    s.steps_since_sort = 0;
  }

  void Engine::upload_setup_state(const double *v, const double *f, const double *omega)
  {
    Impl &s = *impl;
    std::vector<acc> buf(s.n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    auto up = [&](const double *h, DeviceArray<acc> *dst) {
      for (int d = 0; d < 3; ++d) {
        for (size_t i = 0; i < (size_t) s.n; ++i)
          buf[i] = static_cast<acc>(h[3 * (size_t) o[i] + d]);
        dst[d].upload(buf);
      }
    };
    if (v) up(v, s.v);
    if (f) up(f, s.f);
    if (omega && s.have_orient) up(omega, s.omega);
  }

  size_t Engine::device_memory(size_t *free_bytes, size_t *total_bytes)
  {
    size_t fb = 0, tb = 0;
    MESOGPU_CUDA_CALL(cudaMemGetInfo(&fb, &tb));
    if (free_bytes) *free_bytes = fb;
    if (total_bytes) *total_bytes = tb;
    return g_engine_bytes;
  }

  long long Engine::neighbor_entries() const
  {
    return impl->pair_kind == Impl::PairKind::none ? 0 : (long long) impl->nbr.size();
  }

  void Engine::download_atoms(double *x, double *v, double *f, int *image) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<acc> buf(s.n);
    std::vector<int> ibuf(s.n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    for (int d = 0; d < 3; ++d) {
      if (x) {
        s.x[d].download(buf.data(), s.n);
        for (int i = 0; i < s.n; ++i) x[3 * (size_t) o[i] + d] = buf[i];
      }
      if (v) {
        s.v[d].download(buf.data(), s.n);
        for (int i = 0; i < s.n; ++i) v[3 * (size_t) o[i] + d] = buf[i];
      }
      if (f) {
        s.f[d].download(buf.data(), s.n);
        for (int i = 0; i < s.n; ++i) f[3 * (size_t) o[i] + d] = buf[i];
      }
      if (image) {
        s.image[d].download(ibuf.data(), s.n);
        for (int i = 0; i < s.n; ++i) image[3 * (size_t) o[i] + d] = ibuf[i];
      }
    }
  }

  void Engine::upload_special(const int *nspecial, const int *special, int maxspecial,
                              const int special_flag[4], const double special_lj[4])
  {
    Impl &s = *impl;
    for (int k = 0; k < 4; ++k) {
      s.special_flag[k] = special_flag[k];
      s.special_lj[k] = special_lj[k];
    }
    s.maxspecial = maxspecial;
    AllocLabel label("the special-neighbour lists");
    if (maxspecial > 0) {
      s.nspecial.upload(nspecial, 3 * (size_t) s.n);
      s.special.upload(special, (size_t) s.n * maxspecial);
    } else {
      s.nspecial.resize(0);
    }
  }

  void Engine::upload_bonds(const int *nbond, const int *partner, const int *btype, int maxbond)
  {
    Impl &s = *impl;
    AllocLabel label("the bond lists");
    s.maxbond = maxbond;
    s.nbond.upload(nbond, s.n);
    // column-major on the device (partner[k * n + i]) so a warp's loads coalesce
    std::vector<int> p((size_t) maxbond * s.n), t((size_t) maxbond * s.n);
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < maxbond; ++k) {
        p[(size_t) k * s.n + i] = partner[(size_t) i * maxbond + k];
        t[(size_t) k * s.n + i] = btype[(size_t) i * maxbond + k];
      }
    s.bond_partner.upload(p);
    s.bond_type.upload(t);
  }
  void Engine::upload_angles(const int *nangle, const int *atoms3, const int *type, int maxangle)
  {
    Impl &s = *impl;
    AllocLabel label("the angle lists");
    s.maxangle = maxangle;
    s.nangle.upload(nangle, s.n);
    std::vector<int4> a((size_t) maxangle * s.n, make_int4(0, 0, 0, 0));
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < nangle[i]; ++k) {
        const int *q = atoms3 + 3 * ((size_t) i * maxangle + k);
        a[(size_t) k * s.n + i] = make_int4(q[0], q[1], q[2], type[(size_t) i * maxangle + k]);
      }
    s.angle_atoms.upload(a);
  }

  void Engine::upload_dihedrals(const int *ndihedral, const int *atoms4, const int *type,
                                int maxdihedral)
  {
    Impl &s = *impl;
    AllocLabel label("the dihedral lists");
    s.maxdihedral = maxdihedral;
    s.ndihedral.upload(ndihedral, s.n);
    std::vector<int4> a((size_t) maxdihedral * s.n, make_int4(0, 0, 0, 0));
    std::vector<int> t((size_t) maxdihedral * s.n, 0);
    for (int i = 0; i < s.n; ++i)
      for (int k = 0; k < ndihedral[i]; ++k) {
        const int *q = atoms4 + 4 * ((size_t) i * maxdihedral + k);
        a[(size_t) k * s.n + i] = make_int4(q[0], q[1], q[2], q[3]);
        t[(size_t) k * s.n + i] = type[(size_t) i * maxdihedral + k];
      }
    s.dihedral_atoms.upload(a);
    s.dihedral_type.upload(t);
  }

  void Engine::set_angle(const HostAngle &p)
  {
    std::vector<physics::AngleParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.theta0[t]),
              static_cast<real>(std::cos(p.theta0[t]))};
    impl->angle_params.upload(h);
    impl->angle_kind = p.kind;
  }

  void Engine::set_dihedral(const HostDihedral &p)
  {
    std::vector<physics::DihedralParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.cos_shift[t]),
              static_cast<real>(p.sin_shift[t]), p.multiplicity[t]};
    impl->dihedral_params.upload(h);
    impl->have_dihedral = true;
  }

  void Engine::set_neighbor(double cutneighmax, double skin, const std::vector<double> &cutneighsq,
                            int every, int delay, bool dist_check)
  {
    Impl &s = *impl;
    s.cutneighmax = cutneighmax;
    s.skin = skin;
    s.every = std::max(every, 1);
    s.delay = delay;
    s.dist_check = dist_check;
    std::vector<real> c(cutneighsq.begin(), cutneighsq.end());
    s.cutneighsq.upload(c);
    for (int d = 0; d < 3; ++d) {
      const double prd = s.hi[d] - s.lo[d];
      if (prd < 3.0 * cutneighmax) {
        std::ostringstream m;
        m << "box length " << prd << " in dimension "
          << "xyz"[d] << " is below 3 x (cutoff + skin) = " << 3.0 * cutneighmax
          << ": the device neighbour list needs at least 3 cells per dimension (use a larger box, "
             "or run without the cuda suffix)";
        throw std::runtime_error(m.str());
      }
    }
    // cells at least cutoff + skin wide; in a dilute system (or with a cutoff small against
    // the box) coarser cells keep the cell list below ~2 cells per atom: more cells than
    // atoms only cost memory, and the counts stay in int
    double nc[3];
    for (int d = 0; d < 3; ++d) nc[d] = std::floor((s.hi[d] - s.lo[d]) / cutneighmax);
    const double max_cells = std::min(std::max(27.0, 2.0 * s.n), (double) MAX_ATOMS);
    while (nc[0] * nc[1] * nc[2] > max_cells && (nc[0] > 3 || nc[1] > 3 || nc[2] > 3)) {
      const double shrink = std::cbrt(max_cells / (nc[0] * nc[1] * nc[2]));
      for (int d = 0; d < 3; ++d)
        nc[d] = std::max(3.0, std::min(nc[d] - 1.0, std::floor(nc[d] * shrink)));
    }
    for (int d = 0; d < 3; ++d) s.ncell[d] = static_cast<int>(nc[d]);
    const int ncells = s.ncell[0] * s.ncell[1] * s.ncell[2];
    AllocLabel label("the cell list");
    s.cell_count.resize(ncells);
    const double per_cell = static_cast<double>(s.n) / ncells;
    if (s.cell_cap == 0) s.cell_cap = static_cast<int>(std::min(2.0 * per_cell + 8, s.n + 1.0));
    if (s.nbr_cap == 0) {
      const double vol = (s.hi[0] - s.lo[0]) * (s.hi[1] - s.lo[1]) * (s.hi[2] - s.lo[2]);
      const double expect = 4.18879 * cutneighmax * cutneighmax * cutneighmax * s.n / vol;
      s.nbr_cap = static_cast<int>(std::min(1.3 * expect + 16, s.n + 16.0));
    }
    s.ago = 0;
    s.built = false;
  }

  bool Engine::decide_rebuild()
  {
    Impl &s = *impl;
    if (!s.built) return true;
    s.ago++;
    if (s.ago >= s.delay && s.ago % s.every == 0) {
      if (!s.dist_check) return true;
      MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 2, 0, sizeof(int)));
      const acc triggersq = static_cast<acc>(0.25 * s.skin * s.skin);
      displacement_check_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.xhold[0].get(), s.xhold[1].get(),
          s.xhold[2].get(), triggersq, s.status.get() + 2);
      MESOGPU_CUDA_LAUNCH_CHECK();
      MESOGPU_CUDA_CALL(
          cudaMemcpy(s.status_host + 2, s.status.get() + 2, sizeof(int), cudaMemcpyDeviceToHost));
      return s.status_host[2] != 0;
    }
    return false;
  }

  void Engine::build_neighbor_list()
  {
    Impl &s = *impl;
    const BoxD box = s.box();
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    const int ncells = nc.x * nc.y * nc.z;
    AllocLabel label("the cell list");
    // bin; grow the cell capacity and bin again on overflow
    for (;;) {
      s.cell_atoms.resize((size_t) ncells * s.cell_cap);
      s.cell_count.zero();
      MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get(), 0, 2 * sizeof(int)));
      wrap_and_bin_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(),
          s.image[2].get(), s.xhold[0].get(), s.xhold[1].get(), s.xhold[2].get(), s.pos.get(), box,
          nc, s.cell_of.get(), s.cell_count.get(), s.cell_atoms.get(), s.cell_cap, s.status.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      MESOGPU_CUDA_CALL(
          cudaMemcpy(s.status_host, s.status.get(), sizeof(int), cudaMemcpyDeviceToHost));
      if (s.status_host[0] <= s.cell_cap) break;
      // positions were wrapped already: wrapping again is a no-op, so retrying is safe
      s.cell_cap = static_cast<int>(
          std::min<long long>(s.status_host[0] + s.status_host[0] / 4 + 4, (long long) s.n + 1));
    }
    if (s.sort_every > 0 && s.steps_since_sort >= s.sort_every) {
      sort_atoms();    // reorders every per-atom array; the cell list must be built again
      s.steps_since_sort = 0;
      s.sorts_done++;
      s.cell_count.zero();
      wrap_and_bin_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(),
          s.image[2].get(), s.xhold[0].get(), s.xhold[1].get(), s.xhold[2].get(), s.pos.get(), box,
          nc, s.cell_of.get(), s.cell_count.get(), s.cell_atoms.get(), s.cell_cap, s.status.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    sort_cells_kernel<<<blocks(ncells), BLOCK>>>(ncells, s.cell_count.get(), s.cell_atoms.get(),
                                                 s.cell_cap);
    MESOGPU_CUDA_LAUNCH_CHECK();
    if (s.pair_kind != Impl::PairKind::none) {
      const long long nslots = (long long) ncells * s.cell_cap;
      s.cell_pos.resize(nslots);
      fill_cell_pos_kernel<<<blocks64(nslots), BLOCK>>>(nslots, s.cell_cap, s.cell_count.get(),
                                                        s.cell_atoms.get(), s.pos.get(),
                                                        s.cell_pos.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    const int4 sflag =
        make_int4(s.special_flag[0], s.special_flag[1], s.special_flag[2], s.special_flag[3]);
    // without pair forces nothing reads the list: binning (wrap, sort) is all a build does
    AllocLabel nlabel("the neighbour list");
    while (s.pair_kind != Impl::PairKind::none) {
      // nbr_cap entries per atom, column-major: 64-bit size (past 2^31 at ~30 M LJ atoms)
      s.nbr.resize((size_t) s.nbr_cap * s.n);
      MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 1, 0, sizeof(int)));
      build_neighbors_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.pos.get(), box, nc, s.cell_of.get(), s.cell_count.get(), s.cell_atoms.get(),
          s.cell_pos.get(), s.cell_cap, s.cutneighsq.get(), s.ntp1(),
          s.maxspecial ? s.nspecial.get() : nullptr, s.maxspecial ? s.special.get() : nullptr,
          s.maxspecial, sflag, s.exclusion_view(), s.nnbr.get(), s.nbr.get(), s.nbr_cap,
          s.status.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
      MESOGPU_CUDA_CALL(
          cudaMemcpy(s.status_host + 1, s.status.get() + 1, sizeof(int), cudaMemcpyDeviceToHost));
      if (s.status_host[1] <= s.nbr_cap) break;
      // grow, never truncate; the old list is freed before the new one is allocated
      s.nbr_cap = static_cast<int>(
          std::min<long long>(s.status_host[1] + s.status_host[1] / 4 + 8, (long long) s.n + 16));
    }
    s.ago = 0;
    s.built = true;
  }

  void Engine::set_exclusions(const HostExclusions &e)
  {
    Impl &s = *impl;
    ExclusionD ex{};
    if (e.group1.size() > (size_t) MAX_EXCLUDE || e.mol_bit.size() > (size_t) MAX_EXCLUDE)
      throw std::runtime_error("mesogpu: at most " + std::to_string(MAX_EXCLUDE) + " group and " +
                               std::to_string(MAX_EXCLUDE) +
                               " molecule entries of neigh_modify exclude on the device");
    if (!e.ex_type.empty()) {
      if ((int) e.ex_type.size() != s.ntp1() * s.ntp1())
        throw std::runtime_error("mesogpu: set_exclusions: type matrix of the wrong size");
      s.ex_type.upload(e.ex_type);
    } else {
      s.ex_type.resize(0);
    }
    ex.ngroup = (int) e.group1.size();
    for (int m = 0; m < ex.ngroup; ++m) {
      ex.group1[m] = e.group1[m];
      ex.group2[m] = e.group2[m];
    }
    ex.nmol = (int) e.mol_bit.size();
    for (int m = 0; m < ex.nmol; ++m) {
      ex.mol_bit[m] = e.mol_bit[m];
      ex.mol_intra[m] = e.mol_intra[m];
    }
    if (ex.nmol) {
      if ((int) e.molecule.size() != s.n)
        throw std::runtime_error("mesogpu: molecule exclusions need one molecule ID per atom");
      s.molecule.upload(e.molecule);
    }
    ex.active = !e.ex_type.empty() || ex.ngroup > 0 || ex.nmol > 0;
    s.exclusion = ex;
    s.built = false;    // the next build applies them
  }

  void Engine::set_pair_none()
  {
    impl->pair_kind = Impl::PairKind::none;
  }

  void Engine::set_pair_lj(const HostLJ &p)
  {
    impl->upload_pair(impl->lj, p.cutsq, Impl::PairKind::lj, [&](int k) {
      return physics::LJCutParams<real>{static_cast<real>(p.lj1[k]), static_cast<real>(p.lj2[k]),
                                        static_cast<real>(p.lj3[k]), static_cast<real>(p.lj4[k]),
                                        static_cast<real>(p.offset[k])};
    });
  }

  void Engine::set_pair_table_r2(const HostTableR2 &p)
  {
    Impl &s = *impl;
    const int np = s.ntp1() * s.ntp1();
    std::vector<real> coeff(p.coeff.begin(), p.coeff.end());
    s.table_coeff.upload(coeff);
    std::vector<size_t> start(p.n.size());
    size_t off = 0;
    for (size_t t = 0; t < p.n.size(); ++t) {
      start[t] = off;
      off += 4 * (size_t) p.n[t];
    }
    std::vector<physics::TableR2View<real>> views(np);
    std::vector<real> offset(np), cutsq(np);
    for (int k = 0; k < np; ++k) {
      const int t = p.table_of_pair[k];
      physics::TableR2View<real> v{};
      if (t >= 0) {
        v.coeff = s.table_coeff.get() + start[t];
        v.z_lo = static_cast<real>(p.z_lo[t]);
        v.dz = static_cast<real>(p.dz[t]);
        v.inv_dz = static_cast<real>(1.0 / p.dz[t]);
        v.n = p.n[t];
        v.inner = static_cast<physics::InnerMode>(p.inner);
      }
      views[k] = v;
      offset[k] = static_cast<real>(p.offset[k]);
      cutsq[k] = static_cast<real>(p.cutsq[k]);
    }
    s.table_view.upload(views);
    s.pair_offset.upload(offset);
    s.pair_cutsq.upload(cutsq);
    s.pair_kind = Impl::PairKind::table;
  }

  void Engine::set_pair_gauss(const HostGauss &p)
  {
    impl->upload_pair(impl->gauss, p.cutsq, Impl::PairKind::gauss, [&](int k) {
      return physics::GaussParams<real>{static_cast<real>(p.a[k]), static_cast<real>(p.b[k]),
                                        static_cast<real>(p.offset[k])};
    });
  }

  void Engine::set_pair_harmonic_cut(const HostHarmonicCut &p)
  {
    impl->upload_pair(impl->harmonic_cut, p.cutsq, Impl::PairKind::harmonic_cut, [&](int k) {
      return physics::HarmonicCutParams<real>{static_cast<real>(p.k[k]),
                                              static_cast<real>(p.cut[k])};
    });
  }

  void Engine::set_pair_dpd(const HostDPD &p)
  {
    impl->upload_pair(impl->dpd, p.cutsq, Impl::PairKind::dpd, [&](int k) {
      return physics::DPDParams<real>{static_cast<real>(p.a0[k]), static_cast<real>(p.gamma[k]),
                                      static_cast<real>(p.sigma[k]), static_cast<real>(p.cut[k])};
    });
    for (int k = 0; k < 4; ++k) impl->dpd_special_sqrt[k] = p.special_sqrt[k];
    impl->dpd_seed = p.seed;
  }

  void Engine::set_step(long long step, double dt)
  {
    impl->step = step;
    impl->dt = dt;
  }

  void Engine::set_bond_harmonic(const HostBondHarmonic &p)
  {
    std::vector<physics::BondHarmonicParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t])};
    impl->bond_harmonic.upload(h);
    impl->bond_kind = Impl::BondKind::harmonic;
  }

  void Engine::set_bond_fene(const HostBondFENE &p)
  {
    std::vector<physics::BondFENEParams<real>> h(p.k.size());
    for (size_t t = 0; t < p.k.size(); ++t)
      h[t] = {static_cast<real>(p.k[t]), static_cast<real>(p.r0[t]),
              static_cast<real>(p.epsilon[t]), static_cast<real>(p.sigma[t])};
    impl->bond_fene.upload(h);
    impl->bond_kind = Impl::BondKind::fene;
  }

  void Engine::compute_forces(bool ev)
  {
    Impl &s = *impl;
    if (!s.built) build_neighbor_list();
    const BoxD box = s.box();
    Special4 slj;
    slj.w[0] = real(1);
    for (int k = 1; k < 4; ++k) slj.w[k] = static_cast<real>(s.special_lj[k]);
    const bool bonds = s.maxbond > 0 && s.bond_kind != Impl::BondKind::none;
    const bool angles = s.maxangle > 0 && s.angle_kind >= 0;
    const bool dihedrals = s.maxdihedral > 0 && s.have_dihedral;
    // per-atom energy/virial arrays only for the kinds that compute (a kind without terms
    // reads as zero in the reductions and downloads)
    const bool has_kind[4] = {s.pair_kind != Impl::PairKind::none, bonds, angles, dihedrals};
    PerAtomEVStore *stores[4] = {&s.ev_pair, &s.ev_bond, &s.ev_angle, &s.ev_dihedral};
    for (int k = 0; k < 4; ++k) {
      if (ev && has_kind[k]) stores[k]->resize(s.n);
      stores[k]->valid = ev && has_kind[k];
    }
    const PerAtomEV evp = s.ev_pair.view(), evb = s.ev_bond.view();
    const int nb = blocks(s.n);

    // the EV variant only on steps whose energy or virial someone reads
    auto pair_launch = [&](auto pair) {
      using Pair = decltype(pair);
      auto kernel = ev ? pair_forces_kernel<Pair, true> : pair_forces_kernel<Pair, false>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.nnbr.get(), s.nbr.get(), pair, s.ntp1(), slj,
                            s.f[0].get(), s.f[1].get(), s.f[2].get(), evp, s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    };
    auto bond_launch = [&](auto bond) {
      using Bond = decltype(bond);
      auto kernel = ev ? bond_forces_kernel<Bond, true> : bond_forces_kernel<Bond, false>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.nbond.get(), s.bond_partner.get(),
                            s.bond_type.get(), bond, s.f[0].get(), s.f[1].get(), s.f[2].get(), evb,
                            s.err.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    };

    switch (s.pair_kind) {
      case Impl::PairKind::lj:
        pair_launch(PairLJDev{s.lj.get(), s.pair_cutsq.get()});
        break;
      case Impl::PairKind::table:
        pair_launch(PairTableDev{s.table_view.get(), s.pair_offset.get(), s.pair_cutsq.get()});
        break;
      case Impl::PairKind::gauss:
        pair_launch(PairGaussDev{s.gauss.get(), s.pair_cutsq.get()});
        break;
      case Impl::PairKind::harmonic_cut:
        pair_launch(PairHarmonicCutDev{s.harmonic_cut.get(), s.pair_cutsq.get()});
        break;
      case Impl::PairKind::dpd: {
        Special4 ssq;
        for (int k = 0; k < 4; ++k) ssq.w[k] = static_cast<real>(s.dpd_special_sqrt[k]);
        // a step of length 0 (used to evaluate forces in place) carries no noise
        const real dtinvsqrt = s.dt > 0.0 ? static_cast<real>(1.0 / std::sqrt(s.dt)) : real(0);
        auto kernel = ev ? dpd_forces_kernel<true> : dpd_forces_kernel<false>;
        kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.nnbr.get(), s.nbr.get(), s.dpd.get(),
                              s.pair_cutsq.get(), s.ntp1(), slj, ssq, s.v[0].get(), s.v[1].get(),
                              s.v[2].get(), s.tag.get(), s.dpd_seed, static_cast<uint32_t>(s.step),
                              dtinvsqrt, s.f[0].get(), s.f[1].get(), s.f[2].get(), evp);
        MESOGPU_CUDA_LAUNCH_CHECK();
        break;
      }
      case Impl::PairKind::soft_aniso: {
        auto kernel = ev ? soft_aniso_kernel<true> : soft_aniso_kernel<false>;
        kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.nnbr.get(), s.nbr.get(), s.soft_aniso.get(),
                              s.pair_cutsq.get(), s.ntp1(), slj, s.orient_packed.get(),
                              s.f[0].get(), s.f[1].get(), s.f[2].get(), s.torque[0].get(),
                              s.torque[1].get(), s.torque[2].get(), evp);
        MESOGPU_CUDA_LAUNCH_CHECK();
        break;
      }
      case Impl::PairKind::none:
        for (int d = 0; d < 3; ++d) s.f[d].zero();
        break;
    }

    if (s.have_orient && s.pair_kind != Impl::PairKind::soft_aniso)
      for (int d = 0; d < 3; ++d) s.torque[d].zero();    // no style makes torques

    if (bonds && s.bond_kind == Impl::BondKind::harmonic)
      bond_launch(BondHarmonicDev{s.bond_harmonic.get()});
    if (bonds && s.bond_kind == Impl::BondKind::fene) bond_launch(BondFENEDev{s.bond_fene.get()});

    const PerAtomEV eva = s.ev_angle.view(), evd = s.ev_dihedral.view();
    if (angles) {
      auto angle_launch = [&](auto kind_tag) {
        constexpr physics::AngleKind K = decltype(kind_tag)::value;
        auto kernel = ev ? angle_forces_kernel<K, true> : angle_forces_kernel<K, false>;
        kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.nangle.get(), s.angle_atoms.get(),
                              s.angle_params.get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), eva);
        MESOGPU_CUDA_LAUNCH_CHECK();
      };
      if (s.angle_kind == static_cast<int>(physics::AngleKind::harmonic))
        angle_launch(std::integral_constant<physics::AngleKind, physics::AngleKind::harmonic>{});
      else
        angle_launch(
            std::integral_constant<physics::AngleKind, physics::AngleKind::cosine_squared>{});
    }
    if (dihedrals) {
      auto kernel = ev ? dihedral_forces_kernel<true> : dihedral_forces_kernel<false>;
      kernel<<<nb, BLOCK>>>(s.n, s.pos.get(), box, s.ndihedral.get(), s.dihedral_atoms.get(),
                            s.dihedral_type.get(), s.dihedral_params.get(), s.f[0].get(),
                            s.f[1].get(), s.f[2].get(), evd);
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    s.ev_valid = ev;
    s.steps_since_sort++;
  }

  EnergyVirial Engine::reduce_energy_virial()
  {
    Impl &s = *impl;
    if (!s.ev_valid)
      throw std::runtime_error(
          "mesogpu: energy/virial requested on a step that did not compute them");
    s.ev_sum.zero();
    const int nb = std::min(blocks(s.n), 1024);
    PerAtomEVStore *stores[4] = {&s.ev_pair, &s.ev_bond, &s.ev_angle, &s.ev_dihedral};
    for (int k = 0; k < 4; ++k)    // a kind without terms sums to zero
      if (stores[k]->valid && s.n > 0)
        reduce_ev_kernel<<<nb, BLOCK>>>(s.n, stores[k]->view(), s.ev_sum.get() + 7 * k);
    MESOGPU_CUDA_LAUNCH_CHECK();
    double h[28];
    s.ev_sum.download(h, 28);
    EnergyVirial r;
    r.e_pair = h[0];
    r.e_bond = h[7];
    r.e_angle = h[14];
    r.e_dihedral = h[21];
    for (int k = 0; k < 6; ++k) {
      r.v_pair[k] = h[1 + k];
      r.v_bond[k] = h[8 + k];
      r.v_angle[k] = h[15 + k];
      r.v_dihedral[k] = h[22 + k];
    }
    return r;
  }

  void Engine::download_per_atom_ev(ForceKind kind, double *energy, double *virial) const
  {
    const Impl &s = *impl;
    if (!s.ev_valid)
      throw std::runtime_error(
          "mesogpu: per-atom energy/virial requested on a step that did not compute them");
    const PerAtomEVStore *stores[4] = {&s.ev_pair, &s.ev_bond, &s.ev_angle, &s.ev_dihedral};
    const PerAtomEVStore &st = *stores[static_cast<int>(kind)];
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<acc> buf(s.n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    for (int c = 0; c < 7; ++c) {
      double *out = c == 0 ? energy : virial;
      if (!out) continue;
      if (st.valid)
        st.a[c].download(buf.data(), s.n);
      else
        std::fill(buf.begin(), buf.end(), acc(0));    // no terms of this kind
      if (c == 0)
        for (int i = 0; i < s.n; ++i) out[o[i]] = buf[i];
      else
        for (int i = 0; i < s.n; ++i) out[6 * (size_t) o[i] + c - 1] = buf[i];
    }
  }

  void Engine::upload_mask(const int *mask)
  {
    impl->mask.upload(mask, impl->n);
  }
  void Engine::upload_tags(const int *tag)
  {
    impl->tag.upload(tag, impl->n);
  }

  void Engine::set_langevin(const std::vector<double> &gfactor1,
                            const std::vector<double> &gfactor2)
  {
    impl->gfactor1.upload(gfactor1);
    impl->gfactor2.upload(gfactor2);
  }

  void Engine::langevin(int groupbit, double tsqrt, unsigned seed, long long step)
  {
    Impl &s = *impl;
    langevin_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.type.get(), s.tag.get(), s.v[0].get(), s.v[1].get(),
        s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), s.gfactor1.get(), s.gfactor2.get(),
        tsqrt, seed, static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::berendsen(int groupbit, double tfactor, double t_target, double dt_over_period)
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.n), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    berendsen_scale_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.mask.get(), groupbit, s.v[0].get(),
                                                   s.v[1].get(), s.v[2].get(), s.mv_sum.get(),
                                                   tfactor, t_target, dt_over_period);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  namespace {
    __global__ void scale_velocities_kernel(int n, const int *mask, int groupbit, acc *v0, acc *v1,
                                            acc *v2, acc factor)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      v0[i] *= factor;
      v1[i] *= factor;
      v2[i] *= factor;
    }
  }    // namespace

  namespace {
    // per-atom sums for the rotation of a group: mode 0 -> m x (3 values); mode 1 ->
    // angular momentum (3) and inertia tensor (6) about xcm; unwrapped positions
    template <int NSUM, int MODE>
    __global__ void
    reduce_rotation_kernel(int n, const int *mask, int groupbit, const int *type, const acc *mass,
                           const acc *rmass, const acc *x0, const acc *x1, const acc *x2,
                           const int *im0, const int *im1, const int *im2, const acc *v0,
                           const acc *v1, const acc *v2, double3 prd, double3 xcm, double *out)
    {
      const int t = threadIdx.x;
      double a[NSUM];
      for (int c = 0; c < NSUM; ++c) a[c] = 0.0;
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        if (!(mask[i] & groupbit)) continue;
        const double m = rmass ? rmass[i] : mass[type[i]];
        const double ux = x0[i] + im0[i] * prd.x, uy = x1[i] + im1[i] * prd.y,
                     uz = x2[i] + im2[i] * prd.z;
        if (MODE == 0) {
          a[0] += m * ux;
          a[1] += m * uy;
          a[2] += m * uz;
        } else {
          const double dx = ux - xcm.x, dy = uy - xcm.y, dz = uz - xcm.z;
          a[0] += m * (dy * v2[i] - dz * v1[i]);
          a[1] += m * (dz * v0[i] - dx * v2[i]);
          a[2] += m * (dx * v1[i] - dy * v0[i]);
          if (NSUM > 3) {
            a[3 % NSUM] += m * (dy * dy + dz * dz);
            a[4 % NSUM] += m * (dx * dx + dz * dz);
            a[5 % NSUM] += m * (dx * dx + dy * dy);
            a[6 % NSUM] -= m * dx * dy;
            a[7 % NSUM] -= m * dy * dz;
            a[8 % NSUM] -= m * dx * dz;
          }
        }
      }
      block_sum_to(a, out);
    }

    __global__ void subtract_rotation_kernel(int n, const int *mask, int groupbit, const acc *x0,
                                             const acc *x1, const acc *x2, const int *im0,
                                             const int *im1, const int *im2, acc *v0, acc *v1,
                                             acc *v2, double3 prd, double3 xcm, double3 w)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n || !(mask[i] & groupbit)) return;
      const double dx = x0[i] + im0[i] * prd.x - xcm.x, dy = x1[i] + im1[i] * prd.y - xcm.y,
                   dz = x2[i] + im2[i] * prd.z - xcm.z;
      v0[i] -= w.y * dz - w.z * dy;
      v1[i] -= w.z * dx - w.x * dz;
      v2[i] -= w.x * dy - w.y * dx;
    }
  }    // namespace

  void Engine::group_mass_moment(int groupbit, double sum_mx[3])
  {
    Impl &s = *impl;
    s.mv_sum.resize(12);
    s.mv_sum.zero();
    const double3 prd = make_double3(s.hi[0] - s.lo[0], s.hi[1] - s.lo[1], s.hi[2] - s.lo[2]);
    reduce_rotation_kernel<3, 0><<<std::min(blocks(s.n), 1024), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(), s.image[2].get(),
        s.v[0].get(), s.v[1].get(), s.v[2].get(), prd, make_double3(0, 0, 0), s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.mv_sum.download(sum_mx, 3);
  }

  void Engine::group_angmom_inertia(int groupbit, const double xcm[3], double angmom[3],
                                    double inertia[6])
  {
    Impl &s = *impl;
    s.mv_sum.resize(12);
    s.mv_sum.zero();
    const double3 prd = make_double3(s.hi[0] - s.lo[0], s.hi[1] - s.lo[1], s.hi[2] - s.lo[2]);
    reduce_rotation_kernel<9, 1><<<std::min(blocks(s.n), 1024), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.image[0].get(), s.image[1].get(), s.image[2].get(),
        s.v[0].get(), s.v[1].get(), s.v[2].get(), prd, make_double3(xcm[0], xcm[1], xcm[2]),
        s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    double h[9];
    s.mv_sum.download(h, 9);
    for (int k = 0; k < 3; ++k) angmom[k] = h[k];
    for (int k = 0; k < 6; ++k) inertia[k] = h[3 + k];
  }

  void Engine::subtract_rotation(int groupbit, const double xcm[3], const double omega[3])
  {
    Impl &s = *impl;
    const double3 prd = make_double3(s.hi[0] - s.lo[0], s.hi[1] - s.lo[1], s.hi[2] - s.lo[2]);
    subtract_rotation_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.image[0].get(),
        s.image[1].get(), s.image[2].get(), s.v[0].get(), s.v[1].get(), s.v[2].get(), prd,
        make_double3(xcm[0], xcm[1], xcm[2]), make_double3(omega[0], omega[1], omega[2]));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  double Engine::kinetic_sum(int groupbit)
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.n), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    double sums[4];
    s.mv_sum.download(sums, 4);
    return sums[0];
  }

  void Engine::scale_velocities(int groupbit, double factor)
  {
    Impl &s = *impl;
    scale_velocities_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.mask.get(), groupbit, s.v[0].get(),
                                                    s.v[1].get(), s.v[2].get(),
                                                    static_cast<acc>(factor));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::zero_momentum(int groupbit, double masstotal, bool x, bool y, bool z)
  {
    Impl &s = *impl;
    if (masstotal <= 0.0) return;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.n), 1024);
    reduce_mv_kernel<<<nb, BLOCK>>>(s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                    s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                    s.mv_sum.get());
    zero_momentum_kernel<<<blocks(s.n), BLOCK>>>(s.n, s.mask.get(), groupbit, s.v[0].get(),
                                                 s.v[1].get(), s.v[2].get(), s.mv_sum.get(),
                                                 1.0 / masstotal, make_int3(x, y, z));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_initial(double dtv, double dtf, int groupbit)
  {
    Impl &s = *impl;
    nve_initial_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
        s.f[0].get(), s.f[1].get(), s.f[2].get(), s.type.get(), s.mass.get(), s.rmass_ptr(),
        static_cast<acc>(dtv), static_cast<acc>(dtf), s.pos.get(), s.mask.get(), groupbit);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::nve_final(double dtf, int groupbit)
  {
    Impl &s = *impl;
    nve_final_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(),
        s.type.get(), s.mass.get(), s.rmass_ptr(), static_cast<acc>(dtf), s.mask.get(), groupbit);
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::check_errors()
  {
    Impl &s = *impl;
    ErrorRecord e;
    s.err.download(&e, 1);
    if (e.bits == 0) return;
    MESOGPU_CUDA_CALL(cudaMemset(s.err.get(), 0, sizeof(ErrorRecord)));
    std::ostringstream m;
    if (e.bits & ERR_BELOW_TABLE)
      m << "pair distance " << std::sqrt(e.rsq) << " between atoms at device index " << e.i
        << " and " << e.j
        << " is below the start of its table/r2 table (use 'inner clamp' or a table that starts "
           "closer)";
    else if (e.bits & ERR_ROTATION)
      m << "fix leapfrog/aniso: the atom at device index " << e.i
        << " turns by more than 1 radian per step (dt*|omega| = " << std::sqrt(e.rsq)
        << " >= 1): reduce the timestep, or use 'limit normalize'";
    else if (e.bits & ERR_BAD_FENE)
      m << "bad FENE bond between atoms at device index " << e.i << " and " << e.j << ": length "
        << std::sqrt(e.rsq) << " is at least twice R0";
    throw std::runtime_error(m.str());
  }

  long long Engine::sorts_done() const { return impl->sorts_done; }

  void Engine::set_sort(int every)
  {
    impl->sort_every = every;
    // the first build sorts (LAMMPS sorts at setup too): input order can be far from
    // spatial order (data files), and a resident setup leaves host sorting to the device
    impl->steps_since_sort = every;
  }

  void Engine::sort_atoms()
  {
    Impl &s = *impl;
    const int n = s.n;
    const int nb = blocks(n);
    const int3 nc = make_int3(s.ncell[0], s.ncell[1], s.ncell[2]);
    AllocLabel label("sorting the atoms (keys, permutation and one array at a time)");
    int shift = 0;    // 10 bits per dimension: beyond 1024 cells, neighbouring cells share codes
    while (((std::max({nc.x, nc.y, nc.z}) - 1) >> shift) >= 1024) ++shift;
    s.sort_key.resize(n);
    s.sort_key_out.resize(n);
    s.sort_tmp_int.resize(n);
    s.sort_src.resize(n);
    s.sort_inv.resize(n);
    morton_keys_kernel<<<nb, BLOCK>>>(n, s.cell_of.get(), nc, shift, s.sort_key.get(),
                                      s.sort_tmp_int.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    // stable radix sort of (key, old index): atoms of one cell keep their relative order
    size_t scratch = 0;
    // keys use 30 bits: three radix passes fewer than a full 32-bit sort would make
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(nullptr, scratch, s.sort_key.get(),
                                                      s.sort_key_out.get(), s.sort_tmp_int.get(),
                                                      s.sort_src.get(), n, 0, 30));
    s.sort_scratch.resize(scratch);
    MESOGPU_CUDA_CALL(cub::DeviceRadixSort::SortPairs(
        s.sort_scratch.get(), scratch, s.sort_key.get(), s.sort_key_out.get(), s.sort_tmp_int.get(),
        s.sort_src.get(), n, 0, 30));
    const int *src = s.sort_src.get();
    inverse_kernel<<<nb, BLOCK>>>(n, src, s.sort_inv.get());
    const int *inv = s.sort_inv.get();

    auto permute = [&](auto &arr, int rows) {
      using T = std::remove_reference_t<decltype(*arr.get())>;
      DeviceArray<T> out;
      out.resize(arr.size());
      if (rows > 0) permute_kernel<T><<<nb, BLOCK>>>(n, rows, src, arr.get(), out.get());
      arr.swap(out);
    };
    auto permute_remap = [&](DeviceArray<int> &arr, int rows) {
      DeviceArray<int> out;
      out.resize(arr.size());
      if (rows > 0) permute_remap_kernel<<<nb, BLOCK>>>(n, rows, src, inv, arr.get(), out.get());
      arr.swap(out);
    };
    for (int d = 0; d < 3; ++d) {
      permute(s.x[d], 1);
      permute(s.v[d], 1);
      permute(s.f[d], 1);
      permute(s.xhold[d], 1);
      permute(s.image[d], 1);
    }
    permute(s.type, 1);
    permute(s.mask, 1);
    if (s.rmass.size()) permute(s.rmass, 1);
    if (s.molecule.size()) permute(s.molecule, 1);
    if (s.have_orient) {
      for (int d = 0; d < 3; ++d) {
        permute(s.orient[d], 1);
        permute(s.omega[d], 1);
        permute(s.torque[d], 1);
      }
      permute(s.mu_len, 1);
      permute(s.orient_packed, 1);
    }
    if (s.tag.size() == (size_t) n) permute(s.tag, 1);
    permute(s.pos, 1);
    permute(s.order, 1);
    permute(s.cell_of, 1);
    if (s.maxspecial > 0) {
      DeviceArray<int> ns;
      ns.resize(s.nspecial.size());
      permute_rowmajor_kernel<<<nb, BLOCK>>>(n, 3, src, nullptr, s.nspecial.get(),
                                             ns.get());    // counts
      s.nspecial.swap(ns);
      DeviceArray<int> sp;
      sp.resize(s.special.size());
      permute_rowmajor_kernel<<<nb, BLOCK>>>(n, s.maxspecial, src, inv, s.special.get(),
                                             sp.get());    // indices
      s.special.swap(sp);
    }
    permute(s.nbond, 1);
    if (s.maxbond > 0) {
      permute_remap(s.bond_partner, s.maxbond);
      permute(s.bond_type, s.maxbond);
    }
    permute(s.nangle, 1);
    if (s.maxangle > 0) {
      DeviceArray<int4> out;
      out.resize(s.angle_atoms.size());
      permute_int4_kernel<<<nb, BLOCK>>>(n, s.maxangle, src, inv, s.angle_atoms.get(), out.get(),
                                         false);
      s.angle_atoms.swap(out);
    }
    permute(s.ndihedral, 1);
    if (s.maxdihedral > 0) {
      DeviceArray<int4> out;
      out.resize(s.dihedral_atoms.size());
      permute_int4_kernel<<<nb, BLOCK>>>(n, s.maxdihedral, src, inv, s.dihedral_atoms.get(),
                                         out.get(), true);
      s.dihedral_atoms.swap(out);
      permute(s.dihedral_type, s.maxdihedral);
    }
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.order.download(s.order_host.data(), n);
    // the sort's scratch (about 28 bytes per atom) is not held between sorts: the memory
    // goes to the neighbour list in between
    s.sort_key.release();
    s.sort_key_out.release();
    s.sort_tmp_int.release();
    s.sort_src.release();
    s.sort_inv.release();
    s.sort_scratch.release();
  }

  void Engine::synchronize()
  {
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
  }

  // ---- oriented particles ---------------------------------------------------------------

  void Engine::upload_rmass(const double *rmass)
  {
    Impl &s = *impl;
    std::vector<acc> m(rmass, rmass + s.n);
    s.rmass.upload(m);
  }

  void Engine::upload_orientation(const double *mu4, const double *omega)
  {
    Impl &s = *impl;
    const int n = s.n;
    std::vector<acc> len(n), buf[3], w[3];
    for (int d = 0; d < 3; ++d) {
      buf[d].resize(n);
      w[d].resize(n);
    }
    for (size_t i = 0; i < (size_t) n; ++i) {
      const double *m = mu4 + 4 * i;
      // the CPU styles' normalisation: no overflow of |mu|^2 for |mu| ~ 1e200
      double dir[3];
      const double norm = mesogpu::physics::rotation::unit_vector(m, dir);
      const bool oriented = m[3] > 0.0 && norm > 0.0;
      len[i] = oriented ? m[3] : 0.0;
      for (int d = 0; d < 3; ++d) {
        buf[d][i] = oriented ? dir[d] : 0.0;
        w[d][i] = omega[3 * i + d];
      }
    }
    for (int d = 0; d < 3; ++d) {
      s.orient[d].upload(buf[d]);
      s.omega[d].upload(w[d]);
      s.torque[d].resize(n);
      s.torque[d].zero();
    }
    s.mu_len.upload(len);
    s.orient_packed.resize(n);
    pack_orient_kernel<<<blocks(n), BLOCK>>>(n, s.orient[0].get(), s.orient[1].get(),
                                             s.orient[2].get(), s.mu_len.get(),
                                             s.orient_packed.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.have_orient = true;
  }

  bool Engine::has_orientation() const
  {
    return impl->have_orient;
  }

  void Engine::download_orientation(double *mu4, double *omega, double *torque) const
  {
    const Impl &s = *impl;
    if (!s.have_orient) return;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.n;
    const int *o = s.order_host.data();
    std::vector<acc> len(n), buf(n);
    s.mu_len.download(len.data(), n);
    for (int d = 0; d < 3; ++d) {
      if (mu4) {
        s.orient[d].download(buf.data(), n);
        // atoms without orientation keep their (zero-length) mu
        for (int i = 0; i < n; ++i)
          if (len[i] > 0) mu4[4 * (size_t) o[i] + d] = len[i] * buf[i];
      }
      if (omega) {
        s.omega[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) omega[3 * (size_t) o[i] + d] = buf[i];
      }
      if (torque) {
        s.torque[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) torque[3 * (size_t) o[i] + d] = buf[i];
      }
    }
  }

  void Engine::set_pair_soft_aniso(const HostSoftAniso &p)
  {
    if (!impl->have_orient)
      throw std::runtime_error("mesogpu: pair soft/aniso needs orientations (upload_orientation)");
    impl->upload_pair(impl->soft_aniso, p.cutsq, Impl::PairKind::soft_aniso, [&](int k) {
      const physics::SoftAnisoParams<double> &q = p.params[k];
      physics::SoftAnisoParams<real> r;
      r.model = q.model;
      r.alpha_r = static_cast<real>(q.alpha_r);
      r.alpha_a = static_cast<real>(q.alpha_a);
      r.mu = static_cast<real>(q.mu);
      r.nu = static_cast<real>(q.nu);
      r.k = static_cast<real>(q.k);
      r.c_edge = static_cast<real>(q.c_edge);
      r.rc = static_cast<real>(q.rc);
      r.inv_rc = static_cast<real>(q.inv_rc);
      return r;
    });
  }

  void Engine::set_inertia(const std::vector<double> &inertia)
  {
    std::vector<acc> h(inertia.begin(), inertia.end());
    impl->inertia.upload(h);
  }

  void Engine::leapfrog_initial(double dtv, double dtf, int groupbit, bool normalize_limit)
  {
    Impl &s = *impl;
    if (s.rotation_limited.size() != 1) {
      s.rotation_limited.resize(1);
      s.rotation_limited.zero();
    }
    if (!s.have_orient)
      throw std::runtime_error("mesogpu: fix leapfrog/aniso needs orientations on the device");
    leapfrog_initial_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.x[0].get(),
        s.x[1].get(), s.x[2].get(), s.v[0].get(), s.v[1].get(), s.v[2].get(), s.f[0].get(),
        s.f[1].get(), s.f[2].get(), s.orient[0].get(), s.orient[1].get(), s.orient[2].get(),
        s.mu_len.get(), s.omega[0].get(), s.omega[1].get(), s.omega[2].get(), s.pos.get(),
        s.orient_packed.get(), static_cast<acc>(dtv), static_cast<acc>(dtf),
        normalize_limit ? 1 : 0, s.rotation_limited.get(), s.err.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  long long Engine::take_rotation_limited()
  {
    Impl &s = *impl;
    if (s.rotation_limited.size() != 1) return 0;
    int count = 0;
    s.rotation_limited.download(&count, 1);
    s.rotation_limited.zero();
    return count;
  }

  void Engine::leapfrog_final(double dtf, double dtr, int groupbit)
  {
    Impl &s = *impl;
    leapfrog_final_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(), s.rmass_ptr(), s.v[0].get(),
        s.v[1].get(), s.v[2].get(), s.f[0].get(), s.f[1].get(), s.f[2].get(), s.orient[0].get(),
        s.orient[1].get(), s.orient[2].get(), s.mu_len.get(), s.omega[0].get(), s.omega[1].get(),
        s.omega[2].get(), s.torque[0].get(), s.torque[1].get(), s.torque[2].get(), s.inertia.get(),
        static_cast<acc>(dtf), static_cast<acc>(dtr));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::aniso_kinetic_sums(int groupbit, double sums[4])
  {
    Impl &s = *impl;
    s.mv_sum.resize(4);
    s.mv_sum.zero();
    const int nb = std::min(blocks(s.n), 1024);
    reduce_aniso_kernel<<<nb, BLOCK>>>(s.n, s.mask.get(), groupbit, s.type.get(), s.mass.get(),
                                       s.rmass_ptr(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
                                       s.orient[0].get(), s.orient[1].get(), s.orient[2].get(),
                                       s.mu_len.get(), s.omega[0].get(), s.omega[1].get(),
                                       s.omega[2].get(), s.inertia.get(), s.mv_sum.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    s.mv_sum.download(sums, 4);
  }

  void Engine::scale_aniso(int groupbit, double lambda_t, double lambda_r)
  {
    Impl &s = *impl;
    scale_aniso_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.mask.get(), groupbit, s.mu_len.get(), s.v[0].get(), s.v[1].get(), s.v[2].get(),
        s.omega[0].get(), s.omega[1].get(), s.omega[2].get(), static_cast<acc>(lambda_t),
        static_cast<acc>(lambda_r));
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  // ---- MD-SCF field (fix mdscf/cuda) ------------------------------------------------------

  void Engine::set_mdscf(const HostMDSCF &p)
  {
    Impl &s = *impl;
    if (p.ncomp < 1 || p.ncomp > MDSCF_MAX_COMP)
      throw std::runtime_error("mesogpu: fix mdscf/cuda supports 1 to " +
                               std::to_string(MDSCF_MAX_COMP) + " field types (got " +
                               std::to_string(p.ncomp) + ")");
    if ((int) p.type2comp.size() != s.ntypes + 1 || (int) p.chi.size() != p.ncomp * p.ncomp)
      throw std::runtime_error("mesogpu: set_mdscf: parameter arrays of the wrong size");
    const int nn[3] = {p.nx, p.ny, p.nz};
    const long long nodes64 = (long long) p.nx * p.ny * p.nz;
    if (nodes64 > MAX_ATOMS)
      throw std::runtime_error("mesogpu: fix mdscf/cuda: a grid of " + std::to_string(p.nx) +
                               " x " + std::to_string(p.ny) + " x " + std::to_string(p.nz) + " = " +
                               std::to_string(nodes64) + " nodes; the device holds at most " +
                               std::to_string(MAX_ATOMS) + " (2^30) nodes");
    AllocLabel label("the MD-SCF field grids");
    for (int d = 0; d < 3; ++d) {
      if (nn[d] < 2) throw std::runtime_error("mesogpu: fix mdscf/cuda needs >= 2 nodes per edge");
      s.field_grid.n[d] = nn[d];
      s.field_grid.lo[d] = static_cast<acc>(s.lo[d]);
      s.field_grid.inv_h[d] = static_cast<acc>(nn[d] / (s.hi[d] - s.lo[d]));
    }
    s.field_grid.ncomp = p.ncomp;
    for (int k = 0; k < p.ncomp * p.ncomp; ++k) s.field_params.chi[k] = static_cast<acc>(p.chi[k]);
    s.field_params.kT = static_cast<acc>(p.kT);
    s.field_params.inv_kappa = static_cast<acc>(p.inv_kappa);
    const double vc = (s.hi[0] - s.lo[0]) * (s.hi[1] - s.lo[1]) * (s.hi[2] - s.lo[2]) /
                      ((double) p.nx * p.ny * p.nz);
    s.field_scale = static_cast<acc>(1.0 / (p.rho0 * vc));
    s.field_groupbit = p.groupbit;
    s.field_gather = p.gather;
    s.field_type2comp.upload(p.type2comp);
    const size_t nodes = s.field_nodes();
    s.field_phi.resize(nodes * p.ncomp);
    s.field_pot.resize(nodes * p.ncomp);
    s.field_grad.resize(nodes * p.ncomp);
    s.field_sums.resize(3);
    if (s.field_gather) {
      s.field_cell_count.resize(nodes);
      if (s.field_cell_cap == 0) {
        // the mean occupancy of a field cell plus room for fluctuations
        const double mean = p.rho0 * vc;
        s.field_cell_cap = static_cast<int>(mean + 4.0 * std::sqrt(mean + 1.0)) + 4;
      }
    }
    s.have_field = true;
  }

  void Engine::Impl::field_derive(acc scale)
  {
    const int nodes = field_nodes();
    field_sums.zero();
    mdscf_derive_kernel<<<std::min(blocks(nodes), 1024), BLOCK>>>(
        nodes, field_grid.ncomp, scale, field_params, field_phi.get(), field_pot.get(),
        field_sums.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
    mdscf_gradient_kernel<<<blocks(nodes), BLOCK>>>(field_grid, field_pot.get(), field_grad.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_upload_phi(const double *phi)
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_upload_phi before set_mdscf");
    std::vector<acc> h(phi, phi + s.field_phi.size());
    s.field_phi.upload(h);
    s.field_derive(acc(1));
  }

  void Engine::mdscf_download_phi(double *phi) const
  {
    const Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_download_phi before set_mdscf");
    std::vector<acc> h(s.field_phi.size());
    s.field_phi.download(h.data(), h.size());
    std::copy(h.begin(), h.end(), phi);
  }

  void Engine::mdscf_build_field()
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_build_field before set_mdscf");
    const int nodes = s.field_nodes();
    if (!s.field_gather) {
      s.field_phi.zero();
      mdscf_deposit_atomic_kernel<<<blocks(s.n), BLOCK>>>(
          s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(),
          s.field_groupbit, s.field_type2comp.get(), s.field_grid, s.field_phi.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    } else {
      // bin on the field grid; grow the cell capacity and bin again on overflow
      AllocLabel label("the MD-SCF field cell list");
      for (;;) {
        s.field_cell_atoms.resize((size_t) nodes * s.field_cell_cap);
        s.field_cell_count.zero();
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 3, 0, sizeof(int)));
        mdscf_bin_kernel<<<blocks(s.n), BLOCK>>>(
            s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(),
            s.field_groupbit, s.field_type2comp.get(), s.field_grid, s.field_cell_count.get(),
            s.field_cell_atoms.get(), s.field_cell_cap, s.status.get() + 3);
        MESOGPU_CUDA_LAUNCH_CHECK();
        MESOGPU_CUDA_CALL(
            cudaMemcpy(s.status_host + 3, s.status.get() + 3, sizeof(int), cudaMemcpyDeviceToHost));
        if (s.status_host[3] <= s.field_cell_cap) break;
        s.field_cell_cap = s.status_host[3] + s.status_host[3] / 4 + 4;
      }
      // atoms in index order within each cell: the gather's sums do not depend on the
      // order of the slot claims
      sort_cells_kernel<<<blocks(nodes), BLOCK>>>(nodes, s.field_cell_count.get(),
                                                  s.field_cell_atoms.get(), s.field_cell_cap);
      MESOGPU_CUDA_LAUNCH_CHECK();
      mdscf_deposit_gather_kernel<<<blocks(nodes), BLOCK>>>(
          s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.field_type2comp.get(),
          s.field_grid, s.field_cell_count.get(), s.field_cell_atoms.get(), s.field_cell_cap,
          s.field_phi.get());
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    s.field_derive(s.field_scale);
  }

  void Engine::mdscf_apply_forces()
  {
    Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_apply_forces before set_mdscf");
    mdscf_force_kernel<<<blocks(s.n), BLOCK>>>(
        s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.type.get(), s.mask.get(), s.field_groupbit,
        s.field_type2comp.get(), s.field_grid, s.field_grad.get(), s.f[0].get(), s.f[1].get(),
        s.f[2].get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::mdscf_sums(double sums[3]) const
  {
    const Impl &s = *impl;
    if (!s.have_field) throw std::runtime_error("mesogpu: mdscf_sums before set_mdscf");
    s.field_sums.download(sums, 3);
  }

}    // namespace cuda
}    // namespace mesogpu
