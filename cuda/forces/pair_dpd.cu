/* mesogpu: pair dpd on the device (pair_isotropic.h): conservative, dissipative and
 * random forces; the random number of a pair follows its atoms' tags and the step. */

#include "forces/pair_isotropic.h"
#include "forces/pair_kernel.cuh"
#include "physics/pair_dpd.h"

#include <cmath>

namespace mesogpu {
namespace cuda {

  namespace {
    // a neighbour's velocity, as the pair arithmetic reads it (real), and its tag: one
    // aligned load per neighbour instead of four (three acc components and the tag)
    struct alignas(4 * sizeof(real)) VelTag {
      real vx, vy, vz;
      uint32_t tag;
    };

    __global__ void pack_vel_tag_kernel(int first, int last, const acc *v0, const acc *v1,
                                        const acc *v2, const int *tag, VelTag *out)
    {
      const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= last) return;
      out[i] = VelTag{real(v0[i]), real(v1[i]), real(v2[i]), static_cast<uint32_t>(tag[i])};
    }

    // DPD reads both atoms' velocities and draws a random number per pair and step (the
    // pair's two threads draw the same number from the tags, so the random forces cancel)
    struct PairDPDDev {
      static constexpr bool site_evaluator = true;
      const physics::DPDParams<real> *p;
      const real *cutsq;
      const VelTag *vt;    // packed at each launch (pack_vel_tag_kernel)
      detail::Special4 special_sqrt;
      uint32_t seed, step;
      real dtinvsqrt;
      struct AtomI {
        real vx, vy, vz;
        uint32_t tag;
      };
      __device__ AtomI load_i(int i) const
      {
        const VelTag w = vt[i];
        return {w.vx, w.vy, w.vz, w.tag};
      }
      __device__ bool eval_site(const AtomI &ai, int j, int ij, int which, real dx, real dy,
                                real dz, real rsq, const detail::Special4 &special_lj, real &fpair,
                                real &e) const
      {
        const VelTag w = vt[j];
        const real dot = dx * (ai.vx - w.vx) + dy * (ai.vy - w.vy) + dz * (ai.vz - w.vz);
        const real xi = physics::dpd_gaussian<real>(seed, ai.tag, w.tag, step);
        return physics::dpd_pair<real>(rsq, dot, xi, dtinvsqrt, special_lj.w[which],
                                       special_sqrt.w[which], p[ij], fpair, e);
      }
    };

    class PairDPDTerm : public detail::ForceTerm {
     public:
      PairDPDTerm(Engine::Impl &s, const HostDPD &h) :
          ForceTerm(detail::ForceGroup::pair), seed(h.seed)
      {
        detail::AllocLabel label("the pair coefficients");
        using P = physics::DPDParams<real>;
        params.upload(detail::per_type_pair<P>(s.ntp1(), [&](size_t k) {
          return P{static_cast<real>(h.a0[k]), static_cast<real>(h.gamma[k]),
                   static_cast<real>(h.sigma[k]), static_cast<real>(h.cut[k])};
        }));
        cutsq.upload(s.pair_cutsq_for_term(h.cutsq));
        for (int k = 0; k < 4; ++k) special_sqrt.w[k] = static_cast<real>(h.special_sqrt[k]);
      }
      bool takes_rows() const override { return true; }
      bool reads_ghost_velocities() const override { return true; }
      void launch(Engine::Impl &s, const detail::ForceStep &c) override
      {
        // the rows this launch reads: owned atoms for the interior part of an overlapped
        // step (the ghosts' velocities are still travelling), the ghosts for the part
        // after it (ordered after the interior part), every row otherwise
        {
          detail::AllocLabel label("the DPD velocities and tags");
          vel_tag.resize(s.n);
        }
        const int first = c.part == detail::ForceStep::Part::rest ? s.nlocal : 0;
        const int last = c.part == detail::ForceStep::Part::interior ? s.nlocal : s.n;
        if (last > first)
          pack_vel_tag_kernel<<<detail::blocks(last - first), detail::BLOCK, 0, c.stream>>>(
              first, last, s.v[0].get(), s.v[1].get(), s.v[2].get(), s.tag.get(), vel_tag.get());
        MESOGPU_CUDA_LAUNCH_CHECK();
        PairDPDDev dpd{};
        dpd.p = params.get();
        dpd.cutsq = cutsq.get();
        dpd.vt = vel_tag.get();
        dpd.special_sqrt = special_sqrt;
        dpd.seed = seed;
        dpd.step = static_cast<uint32_t>(s.step);
        // a step of length 0 (used to evaluate forces in place) carries no noise
        dpd.dtinvsqrt = s.dt > 0.0 ? static_cast<real>(1.0 / std::sqrt(s.dt)) : real(0);
        detail::launch_pair_kernel(s, c, dpd);
      }

     private:
      DeviceArray<physics::DPDParams<real>> params;
      DeviceArray<real> cutsq;
      DeviceArray<VelTag> vel_tag;
      detail::Special4 special_sqrt{};
      unsigned seed;
    };
  }    // namespace

  void add_pair_dpd(Engine &engine, const HostDPD &p)
  {
    Engine::Impl &s = engine.internals();
    s.add_force(std::make_unique<PairDPDTerm>(s, p));
  }

}    // namespace cuda
}    // namespace mesogpu
