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

    // per-atom energy and virial of one group: the group's first term of a step stores,
    // later terms (pair_style hybrid's sub-styles) add
    struct PerAtomEV {
      acc *e, *v0, *v1, *v2, *v3, *v4, *v5;
      bool add;
      __device__ void store(int i, acc energy, const acc v[6]) const
      {
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
      PerAtomEV view(bool add = false)
      {
        return {a[0].get(), a[1].get(), a[2].get(), a[3].get(),
                a[4].get(), a[5].get(), a[6].get(), add};
      }
    };

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
