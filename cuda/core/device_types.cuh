/* mesogpu: small device-side types shared by the engine's parts (internal to cuda/):
 * exclusions, special-bond weights, per-atom energy/virial views and stores, error
 * records. */
#ifndef MESOGPU_CUDA_CORE_DEVICE_TYPES_CUH
#define MESOGPU_CUDA_CORE_DEVICE_TYPES_CUH

#include "core/device_array.cuh"

namespace mesogpu {
namespace cuda {
  namespace detail {

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

    // ---- pair geometry: the one place the force kernels take x_i - x_j ----------------
    // Images = false: the minimum image (the identity in non-periodic dimensions).
    // Images = true (small boxes): the neighbour entry names its image, x_j + s prd, in
    // the bits above box.img_bits; take_image() splits it off the index.
    struct Delta {
      real x, y, z;
    };
    template <bool Images> __device__ __forceinline__ int take_image(int &j, const BoxD &box)
    {
      if constexpr (Images) {
        const int code = j >> box.img_bits;
        j &= (1 << box.img_bits) - 1;
        return code;
      } else {
        return 0;
      }
    }
    template <bool Images>
    __device__ __forceinline__ Delta pair_delta(const PosType<real> &pi, const PosType<real> &pj,
                                                int code, const BoxD &box)
    {
      if constexpr (Images) {
        const int sx = code % box.img_n[0] - box.img_k[0];
        code /= box.img_n[0];
        const int sy = code % box.img_n[1] - box.img_k[1];
        const int sz = code / box.img_n[1] - box.img_k[2];
        return {(pi.x - pj.x) - static_cast<real>(sx) * box.prd_r[0],
                (pi.y - pj.y) - static_cast<real>(sy) * box.prd_r[1],
                (pi.z - pj.z) - static_cast<real>(sz) * box.prd_r[2]};
      } else {
        return {min_image(pi.x - pj.x, box.prd_r[0], box.inv_prd_r[0]),
                min_image(pi.y - pj.y, box.prd_r[1], box.inv_prd_r[1]),
                min_image(pi.z - pj.z, box.prd_r[2], box.inv_prd_r[2])};
      }
    }

    struct Special4 {
      real w[4];    // special_lj[0..3], w[0] = 1
    };

    // the energy and virial a force kernel hands back on an energy/virial step. Global
    // sums: each warp of the launch sums its atoms' values in double (a fixed shuffle
    // tree) and adds them to its own slot (7 x nslots, zeroed at the start of the step),
    // so no per-atom array is needed and the sums do not depend on scheduling. Per-atom
    // values (compute pe/atom, stress/atom) only when the host asks for them: the group's
    // first term stores them, later terms (pair_style hybrid's sub-styles) add.
    struct PerAtomEV {
      acc *e, *v0, *v1, *v2, *v3, *v4, *v5;    // null: no per-atom output this step
      bool add;
      double *warp_sums;    // [c nslots + w]: component c (energy, 6 virial) of warp w
      long long nslots;
      int *overflow;    // ErrorRecord::bits: a launch with more warps than slots

      // called by every thread that owns atom i < n (one lane of each group of Group
      // lanes); the threads of a warp that call it are known from n and Group alone
      template <int Group = 1>
      __device__ void store(int i, int n, acc energy, const acc v[6]) const
      {
        if (e) {
          if (add) {
            e[i] += energy;
            v0[i] += v[0];
            v1[i] += v[1];
            v2[i] += v[2];
            v3[i] += v[3];
            v4[i] += v[4];
            v5[i] += v[5];
          } else {
            e[i] = energy;
            v0[i] = v[0];
            v1[i] = v[1];
            v2[i] = v[2];
            v3[i] = v[3];
            v4[i] = v[4];
            v5[i] = v[5];
          }
        }
        const int lane = threadIdx.x & 31;
        const long long t0 = (long long) blockIdx.x * blockDim.x + (threadIdx.x - lane);
        const long long left = n - t0 / Group;    // atoms of this warp at or past its first
        const int count = left >= 32 / Group ? 32 / Group : static_cast<int>(left);
        unsigned mask = 0;    // lanes 0, Group, 2 Group, ... of the count atoms below n
        for (int k = 0; k < count; ++k) mask |= 1u << (k * Group);
        double s[7] = {double(energy), double(v[0]), double(v[1]), double(v[2]),
                       double(v[3]),   double(v[4]), double(v[5])};
        for (int off = 16; off >= Group; off >>= 1)
          for (int c = 0; c < 7; ++c) {
            const double o = __shfl_down_sync(mask, s[c], off);
            if (lane + off < 32 && ((mask >> (lane + off)) & 1u)) s[c] += o;
          }
        if (lane != 0) return;
        const long long w = t0 / 32;
        if (w >= nslots) {
          atomicOr(overflow, ERR_INTERNAL);
          return;
        }
        for (int c = 0; c < 7; ++c) warp_sums[c * nslots + w] += s[c];
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

    struct ErrorRecord {
      int bits;
      int i, j;
      double rsq;
      int type;     // the bonded term's type (ERR_BONDED)
      int group;    // its ForceGroup (1 bond, 2 angle, 3 dihedral)
    };

    // the energy and virial of one force kind: per-warp sums (1.75 B per atom and lane
    // group, always) and per-atom values (7 x 8 bytes per atom in mixed/double),
    // allocated on the first step that asks for per-atom output and kept
    struct PerAtomEVStore {
      DeviceArray<acc> a[7];
      DeviceArray<double> warp_sums;
      long long nslots = 0;
      bool valid = false;            // written by the last energy/virial step
      bool per_atom_valid = false;    // and per-atom values with it
      void resize_per_atom(int n)
      {
        AllocLabel label("the per-atom energy and virial arrays");
        for (auto &x : a) x.resize(n);
      }
      void resize_sums(long long slots)
      {
        AllocLabel label("the energy and virial sums of each warp");
        nslots = slots;
        warp_sums.resize(7 * (size_t) slots);
        warp_sums.zero();
      }
      PerAtomEV view(bool per_atom, bool add, int *overflow)
      {
        PerAtomEV v{};
        if (per_atom) {
          v.e = a[0].get();
          v.v0 = a[1].get();
          v.v1 = a[2].get();
          v.v2 = a[3].get();
          v.v3 = a[4].get();
          v.v4 = a[5].get();
          v.v5 = a[6].get();
        }
        v.add = add;
        v.warp_sums = warp_sums.get();
        v.nslots = nslots;
        v.overflow = overflow;
        return v;
      }
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
