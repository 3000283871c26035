/* mesogpu: what the two files of the neighbour list share; internal to cuda/neighbor/.
 * neighbor_list.cu bins the atoms, chooses the build and runs the small-box build with
 * explicit images; list_build.cu holds the builds by atom and by cell. */
#ifndef MESOGPU_CUDA_NEIGHBOR_LIST_BUILD_CUH
#define MESOGPU_CUDA_NEIGHBOR_LIST_BUILD_CUH

#include "core/engine_impl.cuh"

namespace mesogpu {
namespace cuda {

  // the full list with Impl::build_group lanes per atom (16-bit cell entries where
  // Impl::cell_entries); the longest row to status[1] (list_build.cu)
  void launch_build_by_atom(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag);
  // the same list with Impl::build_cell_lanes lanes per cell, where the cells give the
  // images (by_cell_images) (list_build.cu)
  void launch_build_by_cell(Engine::Impl &s, const BoxD &box, int3 nc, int4 sflag);

  namespace {

    // atom i's special neighbours as the list builds read them: level(j) is 0 (not
    // special), 1 (1-2), 2 (1-3) or 3 (1-4); mark() applies LAMMPS's special flag of that
    // level to a list entry: false drops the pair (flag 0), flag 2 sets the special bits
    struct SpecialLookup {
      const int *list = nullptr;
      int n12 = 0, n13 = 0, n14 = 0;
      int flag[4];
      __device__ SpecialLookup(const int *nspecial, const int *special, int maxspecial, int i,
                               int4 special_flag) :
          flag{special_flag.x, special_flag.y, special_flag.z, special_flag.w}
      {
        if (!nspecial) return;
        const int *ns = nspecial + 3 * (size_t) i;
        n12 = ns[0];
        n13 = ns[1];
        n14 = ns[2];
        list = special + (size_t) i * maxspecial;
      }
      __device__ bool any() const { return n14 > 0; }
      __device__ int level(int j) const
      {
        for (int s = 0; s < n14; ++s)
          if (list[s] == j) return (s < n12) ? 1 : (s < n13) ? 2 : 3;
        return 0;
      }
      __device__ bool mark(int which, int &entry) const
      {
        if (!which) return true;
        if (flag[which] == 0) return false;
        if (flag[which] == 2) entry ^= which << SBBITS;
        return true;
      }
    };

    // with 4 or more cells in each periodic dimension the cells' shifts give the images
    inline bool by_cell_images(const BoxD &box, int3 nc)
    {
      return (!box.periodic[0] || nc.x >= 4) && (!box.periodic[1] || nc.y >= 4) &&
             (!box.periodic[2] || nc.z >= 4);
    }

  }    // namespace
}    // namespace cuda
}    // namespace mesogpu

#endif
