/* mesogpu: when the neighbour list is built, and with which cutoffs (see engine.h): the step
 * rule and displacement test of neigh_modify (Engine::decide_rebuild), and the tight list
 * without the skin where a list lives one step. The builds themselves are in
 * neighbor/neighbor_list.cu and neighbor/list_build.cu. */

#include "core/engine_impl.cuh"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {
    // neigh_modify check yes: flag an atom that moved more than the trigger since the last
    // build (fix nve/cuda's first half step makes the same test, integrate/integrate.cu)
    __global__ void displacement_check_kernel(int n, const acc *x0, const acc *x1, const acc *x2,
                                              const acc *h0, const acc *h1, const acc *h2,
                                              acc triggersq, int *flag)
    {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const acc dx = x0[i] - h0[i], dy = x1[i] - h1[i], dz = x2[i] - h2[i];
      if (dx * dx + dy * dy + dz * dz > triggersq) *flag = 1;    // benign race: all write 1
    }
  }    // namespace

  // Neighbor::check_distance()'s trigger: (skin/2)^2, less what the box moved with
  // boxcheck (orthogonal box)
  double Engine::Impl::displacement_trigger() const
  {
    if (!box_check) return 0.25 * skin * skin;
    double d1 = 0.0, d2 = 0.0;
    for (int d = 0; d < 3; ++d) {
      d1 += (lo[d] - lo_hold[d]) * (lo[d] - lo_hold[d]);
      d2 += (hi[d] - hi_hold[d]) * (hi[d] - hi_hold[d]);
    }
    const double delta = std::max(0.0, 0.5 * (skin - (std::sqrt(d1) + std::sqrt(d2))));
    return delta * delta;
  }

  void Engine::set_integrator_check(bool allowed)
  {
    impl->integrator_check = allowed;
    impl->checked_in_integrator = false;
  }

  long long Engine::integrator_checks() const
  {
    return impl->integrator_checks;
  }

  bool Engine::decide_rebuild()
  {
    Impl &s = *impl;
    s.decided_on_device = false;
    // the integrator's pass of this step made the test (used once)
    const bool checked_in_integrator = s.checked_in_integrator;
    s.checked_in_integrator = false;
    if (!s.built) return true;
    s.ago++;
    if (s.tight) return true;    // a list without the skin holds for one step
    if (s.step_allows(s.ago)) {
      if (!s.dist_check) {
        s.rebuild_streak++;
        return true;
      }
      // (every build holds xhold with check yes, and set_neighbor, upload_atoms and a
      // device rebuild call for a build first)
      if (s.xhold[0].size() != (size_t) s.n)
        throw std::logic_error("mesogpu: check yes without the positions of the last "
                               "neighbour list build (internal error)");
      s.decided_on_device = true;
      if (checked_in_integrator)
        s.integrator_checks++;
      else {
        MESOGPU_CUDA_CALL(cudaMemsetAsync(s.status.get() + 2, 0, sizeof(int)));
        const acc triggersq = static_cast<acc>(s.displacement_trigger());
        displacement_check_kernel<<<blocks(s.n), BLOCK>>>(
            s.n, s.x[0].get(), s.x[1].get(), s.x[2].get(), s.xhold[0].get(), s.xhold[1].get(),
            s.xhold[2].get(), triggersq, s.status.get() + 2);
        MESOGPU_CUDA_LAUNCH_CHECK();
      }
      // one 4-byte copy into page-locked memory, one wait
      MESOGPU_CUDA_CALL(cudaMemcpyAsync(s.status_host + 2, s.status.get() + 2, sizeof(int),
                                        cudaMemcpyDeviceToHost, 0));
      MESOGPU_CUDA_CALL(cudaStreamSynchronize(0));
      const bool rebuild = s.status_host[2] != 0;
      s.rebuild_streak = rebuild ? s.rebuild_streak + 1 : 0;
      return rebuild;
    }
    s.rebuild_streak = 0;
    return false;
  }

  bool Engine::last_decision_read_device() const
  {
    return impl->decided_on_device;
  }

  bool Engine::list_built() const
  {
    return impl->built;
  }

  // ---- the tight list ---------------------------------------------------------------------

  namespace {
    // auto: a tight list once the displacement test asked for a rebuild at
    // TIGHT_AFTER_REBUILDS steps in a row (the list lived one step each time); after
    // TIGHT_PROBE_BUILDS builds so, one build takes the skin again, to see whether its list
    // lives longer now (an equilibrated system, a cooler thermostat)
    constexpr int TIGHT_AFTER_REBUILDS = 16, TIGHT_PROBE_BUILDS = 500;
    // the atoms per cell below which a tight list's cells are made wider than the cutoff:
    // the build by cell then fills 8 lanes (DPD at rho 3, r_c 1: cells of 1.145)
    constexpr double TIGHT_MIN_PER_CELL = 4.5;
  }    // namespace

  void Engine::Impl::set_list_cutoffs(bool tight_list)
  {
    const std::vector<real> &c = tight_list ? cutsq_tight : cutsq_skin;
    AllocLabel label("the list's cutoffs");
    cutneighsq.upload(c);
    // one cutoff for every pair of types 1..ntypes (one type, or equal cutoffs): the list
    // build compares with it instead of reading the type pair's (0: per pair)
    const int nt1 = ntp1();
    uniform_cutneighsq = nt1 >= 2 && c.size() == (size_t) nt1 * nt1 ? c[nt1 + 1] : real(0);
    for (int a = 1; a < nt1 && uniform_cutneighsq > real(0); ++a)
      for (int b = 1; b < nt1; ++b)
        if (c[(size_t) a * nt1 + b] != uniform_cutneighsq) uniform_cutneighsq = real(0);
  }

  double Engine::Impl::cell_cut() const
  {
    if (!tight) return cutneighmax;
    double volume = 1.0;
    for (int d = 0; d < 3; ++d) volume *= hi[d] - lo[d];
    const double wide = n > 0 ? std::cbrt(TIGHT_MIN_PER_CELL * volume / n) : 0.0;
    return std::min(cutneighmax, std::max(pair_cut_max, wide));
  }

  std::string Engine::Impl::tight_refusal() const
  {
    const Impl &s = *this;
    if (!s.has_pair_terms()) return "no pair forces (no list)";
    if (s.nlocal != s.n) return "several MPI ranks";
    if (s.list_kept) return "a fix reads the list up to cutoff + skin (fix polymerize/cuda)";
    if (s.img_bits)
      return "the box needs explicit images (a periodic side below 2 x (cutoff + skin))";
    if (s.pair_cut_max <= 0.0) return "no pair cutoff";
    return "";
  }

  bool Engine::Impl::want_tight()
  {
    if (tight_setting == 0 || !tight_refusal().empty()) return false;
    if (tight_setting == 1) return true;
    if (tight) return tight_run < TIGHT_PROBE_BUILDS;
    return rebuild_streak >= TIGHT_AFTER_REBUILDS;
  }

  void Engine::set_tight_list(int mode)
  {
    if (mode < -1 || mode > 1)
      throw std::invalid_argument("mesogpu: set_tight_list(" + std::to_string(mode) +
                                  "): -1 (auto), 0 (no) or 1 (yes)");
    impl->tight_setting = mode;
  }

  bool Engine::tight_list() const
  {
    return impl->tight;
  }

  long long Engine::tight_list_builds() const
  {
    return impl->tight_builds;
  }

  std::string Engine::tight_list_refusal() const
  {
    return impl->tight_refusal();
  }

  void Engine::keep_neighbor_list()
  {
    Impl &s = *impl;
    s.list_kept = true;
    if (s.tight) build_neighbor_list();    // the skin again, for the list's reader
  }

}    // namespace cuda
}    // namespace mesogpu
