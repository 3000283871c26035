/* mesogpu: the engine's list of force terms (internal to cuda/). Every force style of a
 * run adds one term (a pair style, or each sub-style of pair_style hybrid, a bond,
 * angle or dihedral style); compute_forces walks the list. A term owns its parameters
 * on the device and launches its kernels, which are instantiations of the kernel
 * templates (pair_kernel.cuh, oriented_pair_kernel.cuh, bonded_kernels.cuh): a new
 * model is its own .cu file with an evaluator and a term, and an add function in its
 * own header; nothing here or in the engine's core names it. */
#ifndef MESOGPU_CUDA_FORCES_FORCE_TERM_CUH
#define MESOGPU_CUDA_FORCES_FORCE_TERM_CUH

#include "core/device_types.cuh"
#include "engine.h"

#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {
  namespace detail {

    // the energy/virial tally a term adds to (LAMMPS's split into pair, bond, angle,
    // dihedral energies and virials)
    enum class ForceGroup : int { pair = 0, bond = 1, angle = 2, dihedral = 3 };
    constexpr int NUM_FORCE_GROUPS = 4;

    // three per-atom device arrays a kernel writes once per atom: the first term of a
    // step stores (no clearing pass), every later term adds. A kernel starts its sums
    // from start() and stores them with store(): the flag is read before the loop over
    // the atom's terms, so it holds no register there (a branch at the store cost two,
    // which cut the occupancy of the LJ kernel from 32 to 34 registers per thread)
    struct Vec3Out {
      acc *c0, *c1, *c2;
      bool add;
      __device__ __forceinline__ void start(int i, acc &x, acc &y, acc &z) const
      {
        if (add) {
          x = c0[i];
          y = c1[i];
          z = c2[i];
        } else {
          x = y = z = acc(0);
        }
      }
      __device__ __forceinline__ void store(int i, acc x, acc y, acc z) const
      {
        c0[i] = x;
        c1[i] = y;
        c2[i] = z;
      }
    };

    // one step's launch settings for a term
    struct ForceStep {
      bool ev = false;    // the energy/virial variant (someone reads them this step)
      BoxD box{};
      Special4 special_lj{};
      int nb = 0;            // blocks over the atoms
      Vec3Out force{};       // f
      Vec3Out torque{};      // torques (oriented terms only)
      PerAtomEV ev_out{};    // the per-atom energy/virial of the term's group
      // a launch over some rows only (terms that take_rows; null: all rows), on `stream`:
      // the forces of interior atoms while the ghosts' positions travel (Engine::begin_forces)
      const int *rows = nullptr;
      int nrows = 0;
      cudaStream_t stream = 0;
      // which part of an overlapped step this launch is: the interior rows (their
      // neighbours are owned atoms: ghosts' data may be in flight), the other rows (after
      // the interior part, on the same terms), or a step that is not split
      enum class Part { all, interior, rest } part = Part::all;
    };

    class ForceTerm {
     public:
      explicit ForceTerm(ForceGroup g) : group(g) {}
      virtual ~ForceTerm() = default;
      ForceTerm(const ForceTerm &) = delete;
      ForceTerm &operator=(const ForceTerm &) = delete;

      const ForceGroup group;
      // false: nothing to compute this run (a bond style without bonds)
      virtual bool active(const Engine::Impl &) const { return true; }
      // reads orientations and writes torques
      virtual bool makes_torque() const { return false; }
      // reads the ghosts' velocities (the forward exchange sends them)
      virtual bool reads_ghost_velocities() const { return false; }
      // honours ForceStep::rows and ::stream (a pair term of launch_pair_kernel): its
      // forces on an atom read only the atom's neighbours' positions (and velocities)
      virtual bool takes_rows() const { return false; }
      virtual void launch(Engine::Impl &s, const ForceStep &c) = 0;
      // the message for an error record its kernels set (ErrorBits), "" if not its own
      virtual std::string describe_error(const ErrorRecord &) const { return ""; }
    };

    // per type pair parameters of a pair term: (ntypes+1)^2 values, make(k) for pair k
    template <class P, class Make> std::vector<P> per_type_pair(int ntp1, Make make)
    {
      std::vector<P> h((size_t) ntp1 * ntp1);
      for (size_t k = 0; k < h.size(); ++k) h[k] = make(k);
      return h;
    }

  }    // namespace detail
}    // namespace cuda
}    // namespace mesogpu

#endif
