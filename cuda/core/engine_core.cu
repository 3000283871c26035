/* mesogpu: the engine's atoms and box, force computation order, energies and virials, errors
 * (see engine.h). */

#include "core/engine_impl.cuh"
#include "core/reduce.cuh"
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mesogpu {
namespace cuda {

  namespace {

    // sums of the 7 per-warp sums (energy, 6 virial; PerAtomEV) in double
    __global__ void reduce_ev_kernel(long long nslots, const double *warp_sums, double *out)
    {
      const int t = threadIdx.x;
      double a[7] = {0, 0, 0, 0, 0, 0, 0};
      for (long long w = blockIdx.x * (long long) blockDim.x + t; w < nslots;
           w += (long long) blockDim.x * gridDim.x)
        for (int c = 0; c < 7; ++c) a[c] += warp_sums[c * nslots + w];
      block_sum_to(a, out);
    }

  }    // namespace

  Engine::Engine() : impl(new Impl)
  {
    name_device_arrays(*impl);    // rows of the memory report (core/memory_names.cu)
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
    // lanes per atom of the list build and the pair kernels, when fixed (benchmarks, tests)
    const auto lanes = [](const char *name) {
      const char *v = std::getenv(name);
      if (!v) return 0;
      const std::string s(v);
      for (int g : {1, 4, 8, 16, 32})
        if (s == std::to_string(g)) return g;
      throw std::runtime_error(std::string("mesogpu: ") + name + "='" + s +
                               "' is not one of 1, 4, 8, 16, 32 (lanes per atom)");
    };
    impl->fixed_build_group = lanes("MESOGPU_BUILD_LANES");
    // the list build by cell: MESOGPU_BUILD_CELL_LANES 8, 16 or 32 lanes per cell wherever
    // the cells' shifts give the images, 0 never; unset: chosen at each build
    if (const char *v = std::getenv("MESOGPU_BUILD_CELL_LANES")) {
      const std::string c(v);
      if (c != "0" && c != "8" && c != "16" && c != "32")
        throw std::runtime_error("mesogpu: MESOGPU_BUILD_CELL_LANES='" + c +
                                 "' is not one of 0, 8, 16, 32 (lanes per cell of the list "
                                 "build; 0: lanes per atom)");
      impl->fixed_cell_lanes = std::stoi(c);
    }
    impl->fixed_pair_group = lanes("MESOGPU_PAIR_LANES");
    int dev = 0, sms = 0, per_sm = 0;
    MESOGPU_CUDA_CALL(cudaGetDevice(&dev));
    MESOGPU_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    MESOGPU_CUDA_CALL(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    impl->device_threads = sms * per_sm;
    // 4 status words, then the cells' fill of the last list build (4 x 64 bits)
    MESOGPU_CUDA_CALL(cudaHostAlloc(&impl->status_host,
                                    4 * sizeof(int) + 4 * sizeof(unsigned long long),
                                    cudaHostAllocDefault));
    impl->fill_host = reinterpret_cast<unsigned long long *>(impl->status_host + 4);
    impl->status.resize(4);
    impl->ev_sum.resize(28);
    impl->err.resize(1);
    MESOGPU_CUDA_CALL(cudaMemset(impl->err.get(), 0, sizeof(ErrorRecord)));
  }

  Engine::~Engine()
  {
    if (impl && impl->status_host) cudaFreeHost(impl->status_host);
    if (impl && impl->side_stream) {
      cudaStreamDestroy(impl->side_stream);
      cudaStreamDestroy(impl->comm_stream);
      cudaEventDestroy(impl->side_ready);
      cudaEventDestroy(impl->side_done);
      cudaEventDestroy(impl->comm_done);
    }
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
    // the atom state follows every sort (core/per_atom.cuh)
    for (int d = 0; d < 3; ++d) {
      const std::string axis(1, "xyz"[d]);
      add_column(s.per_atom, "x" + axis, &s.x[d], false);
      add_column(s.per_atom, "v" + axis, &s.v[d], false);
      add_column(s.per_atom, "f" + axis, &s.f[d], false);
      // xhold: written at each list build, held only when compared against (holds_xhold;
      // empty, it stays empty through sorts and migrations)
      add_column(s.per_atom, "xhold" + axis, &s.xhold[d]);
      add_column(s.per_atom, "image" + axis, &s.image[d], false);
    }
    // migration (core/migrate.cu): pos and order are rewritten from x, type and the new
    // row list after atoms moved between ranks
    add_column(s.per_atom, "type", &s.type, false);
    add_column(s.per_atom, "mask", &s.mask, false);
    s.per_atom.add(
        "tag",
        [&s](const Permutation &q) {
          if (s.tag.size() == (size_t) q.n) permute_rows(s.tag, 1, q);
        },
        column_migration(&s.tag, false));
    add_derived(s.per_atom, "pos", &s.pos);
    add_derived(s.per_atom, "order", &s.order);
    if (n < 0 || n > MAX_ATOMS)
      throw std::runtime_error("mesogpu: " + std::to_string(n) +
                               " atoms on one GPU; the device engine holds at most " +
                               std::to_string(MAX_ATOMS) +
                               " (2^30: the neighbour list keeps LAMMPS's two special bits on "
                               "top of each atom index)");
    AllocLabel label("the atom arrays");
    s.n = n;
    s.nlocal = n;    // until set_owned names ghost rows
    s.ntypes = ntypes;
    std::vector<acc> buf(n);
    std::vector<int> ibuf(n);
    for (int d = 0; d < 3; ++d) {
      for (size_t i = 0; i < (size_t) n; ++i) buf[i] = static_cast<acc>(x[3 * i + d]);
      s.x[d].upload(buf);
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
    for (auto &st : s.ev) st.valid = false;
    // the bond, angle and dihedral lists exist only once upload_bonds / upload_angles /
    // upload_dihedrals (or reserve_topology) fill them: empty, nothing of their kind runs
    // (the bonded terms are active with maxbond, maxangle, maxdihedral > 0 only)
    s.maxbond = s.maxangle = s.maxdihedral = 0;
    s.release_topology();
    s.nnbr.resize(n);
    s.cell_of.resize(n);
    s.nspecial.resize(0);
    s.maxspecial = 0;
    s.special_levels = 3;
    s.topology_changed = false;
    s.built = false;
    s.ev_valid = s.per_atom_ev_valid = false;
    s.have_orient = false;
    s.have_bodies = false;
    s.have_field = false;          // until a fix sets one for this run
    s.exclusion = ExclusionD{};    // until set_exclusions
    s.ex_type.resize(0);
    s.molecule.resize(0);
    s.forces.clear();    // until the run's force styles add theirs
    for (auto &slot : s.slots) slot.second.used = false;
    for (auto &c : s.host_columns) c.second.used = false;
    s.pair_filter.clear();
    s.rmass.resize(0);
    s.order_host.resize(n);
    for (int i = 0; i < n; ++i) s.order_host[i] = i;
    s.order.upload(s.order_host);
    s.steps_since_sort = 0;
  }

  void Engine::upload_setup_state(const double *v, const double *f, const double *omega)
  {
    Impl &s = *impl;
    std::vector<acc> buf(s.n, acc(0));     // ghost rows: zero (never integrated)
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    auto up = [&](const double *h, DeviceArray<acc> *dst) {
      for (int d = 0; d < 3; ++d) {
        for (size_t i = 0; i < (size_t) s.nlocal; ++i)
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
    const Impl &s = *impl;
    if (!s.has_pair_terms()) return 0;
    return (long long) (s.cell_entries ? s.nbr16.size() : s.nbr.size());
  }

  void Engine::download_atoms(double *x, double *v, double *f, int *image) const
  {
    const Impl &s = *impl;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.nlocal;    // owned atoms (all atoms on one rank)
    std::vector<acc> buf(n);
    std::vector<int> ibuf(n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    for (int d = 0; d < 3; ++d) {
      if (x) {
        s.x[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) x[3 * (size_t) o[i] + d] = buf[i];
      }
      if (v) {
        s.v[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) v[3 * (size_t) o[i] + d] = buf[i];
      }
      if (f) {
        s.f[d].download(buf.data(), n);
        for (int i = 0; i < n; ++i) f[3 * (size_t) o[i] + d] = buf[i];
      }
      if (image) {
        s.image[d].download(ibuf.data(), n);
        for (int i = 0; i < n; ++i) image[3 * (size_t) o[i] + d] = ibuf[i];
      }
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

  void Engine::set_step(long long step, double dt)
  {
    impl->step = step;
    impl->dt = dt;
  }

  void Engine::set_pair_filter(const std::vector<int> &allowed)
  {
    Impl &s = *impl;
    if (!allowed.empty() && allowed.size() != (size_t) s.ntp1() * s.ntp1())
      throw std::logic_error("mesogpu: set_pair_filter needs (ntypes+1)^2 flags");
    s.pair_filter.assign(allowed.begin(), allowed.end());
  }

  int Engine::force_terms() const
  {
    return static_cast<int>(impl->forces.size());
  }

  namespace {
    // which of a step's outputs the terms launched so far wrote: the first term stores
    // the forces (the first oriented one the torques, the first of each group its
    // energies), every later one adds
    struct Written {
      bool f = false, torque = false;
      bool group[NUM_FORCE_GROUPS] = {false, false, false, false};
    };

    // one step's launch settings
    ForceStep force_step(const Engine::Impl &s, bool ev)
    {
      ForceStep c;
      c.ev = ev;    // the EV variants only on steps whose energy or virial someone reads
      c.box = s.box();
      c.special_lj.w[0] = real(1);
      for (int k = 1; k < 4; ++k) c.special_lj.w[k] = static_cast<real>(s.special_lj[k]);
      c.nb = blocks(s.n);
      return c;
    }

    void launch_term(Engine::Impl &s, ForceStep &c, ForceTerm &t, Written &w, bool per_atom)
    {
      const int g = static_cast<int>(t.group);
      c.force = Vec3Out{s.f[0].get(), s.f[1].get(), s.f[2].get(), w.f};
      if (t.makes_torque())
        c.torque = Vec3Out{s.torque[0].get(), s.torque[1].get(), s.torque[2].get(), w.torque};
      if (c.ev) c.ev_out = s.ev[g].view(per_atom, w.group[g], &s.err.get()->bits);
      t.launch(s, c);
      w.f = true;
      w.torque |= t.makes_torque();
      w.group[g] = true;
    }
  }    // namespace

  void Engine::compute_forces(bool ev, bool per_atom)
  {
    begin_forces(ev, per_atom, false);
    finish_forces();
  }

  void Engine::set_overlap(bool on)
  {
    impl->overlap = on;
  }

  void Engine::join_exchange()
  {
    Impl &s = *impl;
    if (!s.xstream) return;
    MESOGPU_CUDA_CALL(cudaEventRecord(s.comm_done, s.xstream));
    MESOGPU_CUDA_CALL(cudaStreamWaitEvent(0, s.comm_done, 0));
    s.xstream = 0;
  }

  int Engine::interior_atoms() const
  {
    const Impl &s = *impl;
    return s.split_valid ? s.n_interior : -1;    // a split list has one lane per atom
  }

  bool Engine::begin_forces(bool ev, bool per_atom, bool overlap)
  {
    Impl &s = *impl;
    if (s.forces_begun) throw std::logic_error("mesogpu: begin_forces twice without finish_forces");
    if (!s.built) build_neighbor_list();
    per_atom = per_atom && ev;
    // per-warp sums (and per-atom arrays when asked for) only for the groups that compute
    // (a group without terms reads as zero in the reductions and downloads); a slot for
    // every warp of the widest launch: the pair kernels' lanes per atom, or one
    bool has_group[NUM_FORCE_GROUPS] = {false, false, false, false};
    for (const auto &t : s.forces)
      if (t->active(s)) has_group[static_cast<int>(t->group)] = true;
    const long long lanes = std::max(1, s.pair_group);
    const long long nslots =
        (long long) std::max<unsigned>(blocks64(s.n * lanes), blocks(s.n)) * BLOCK / 32;
    for (int k = 0; k < NUM_FORCE_GROUPS; ++k) {
      if (ev && has_group[k]) {
        s.ev[k].resize_sums(nslots);    // zeroed: every launch adds its warps' sums
        if (per_atom) s.ev[k].resize_per_atom(s.n);
      }
      s.ev[k].valid = ev && has_group[k];
      s.ev[k].per_atom_valid = per_atom && has_group[k];
    }
    s.pending_ev = ev;
    s.pending_per_atom = per_atom;
    s.forces_begun = true;
    s.pending_prefix = 0;
    // the leading terms that take rows (pair terms sort first), with their interior rows
    // on the side stream: they read the positions of owned atoms only (split_valid: the
    // last build partitioned the rows, with one lane per atom)
    if (!overlap || !s.overlap || !s.split_valid) return false;
    size_t prefix = 0;
    bool any = false;
    for (; prefix < s.forces.size(); ++prefix) {
      const bool active = s.forces[prefix]->active(s);
      if (active && !s.forces[prefix]->takes_rows()) break;
      any |= active;
    }
    if (!any) return false;
    if (!s.side_stream) {
      int least = 0, greatest = 0;
      MESOGPU_CUDA_CALL(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      MESOGPU_CUDA_CALL(cudaStreamCreateWithPriority(&s.side_stream, cudaStreamNonBlocking, least));
      MESOGPU_CUDA_CALL(
          cudaStreamCreateWithPriority(&s.comm_stream, cudaStreamNonBlocking, greatest));
      MESOGPU_CUDA_CALL(cudaEventCreateWithFlags(&s.side_ready, cudaEventDisableTiming));
      MESOGPU_CUDA_CALL(cudaEventCreateWithFlags(&s.side_done, cudaEventDisableTiming));
      MESOGPU_CUDA_CALL(cudaEventCreateWithFlags(&s.comm_done, cudaEventDisableTiming));
    }
    // after everything queued so far (the integrator's drift, the sums' zeroing); the
    // exchange of positions that follows runs on the high-priority stream
    MESOGPU_CUDA_CALL(cudaEventRecord(s.side_ready, 0));
    MESOGPU_CUDA_CALL(cudaStreamWaitEvent(s.side_stream, s.side_ready, 0));
    MESOGPU_CUDA_CALL(cudaStreamWaitEvent(s.comm_stream, s.side_ready, 0));
    s.xstream = s.comm_stream;
    ForceStep c = force_step(s, ev);
    c.rows = s.split_rows.get();
    c.nrows = s.n_interior;
    c.stream = s.side_stream;
    c.part = ForceStep::Part::interior;
    Written w;
    for (size_t k = 0; k < prefix; ++k)
      if (s.forces[k]->active(s)) launch_term(s, c, *s.forces[k], w, per_atom);
    MESOGPU_CUDA_CALL(cudaEventRecord(s.side_done, s.side_stream));
    s.pending_prefix = prefix;
    return true;
  }

  void Engine::finish_forces()
  {
    Impl &s = *impl;
    if (!s.forces_begun) throw std::logic_error("mesogpu: finish_forces without begin_forces");
    s.forces_begun = false;
    join_exchange();
    const bool ev = s.pending_ev;
    ForceStep c = force_step(s, ev);
    Written w;
    size_t first = 0;
    if (s.pending_prefix > 0) {
      // the other rows of the same terms once the ghosts are in, after the interior part
      // (the sums of a warp slot add up in launch order)
      MESOGPU_CUDA_CALL(cudaStreamWaitEvent(0, s.side_done, 0));
      ForceStep rest = c;
      rest.rows = s.split_rows.get() + s.n_interior;
      rest.nrows = s.n - s.n_interior;
      rest.part = ForceStep::Part::rest;
      for (size_t k = 0; k < s.pending_prefix; ++k)
        if (s.forces[k]->active(s)) launch_term(s, rest, *s.forces[k], w, s.pending_per_atom);
      first = s.pending_prefix;
    }
    for (size_t k = first; k < s.forces.size(); ++k)
      if (s.forces[k]->active(s)) launch_term(s, c, *s.forces[k], w, s.pending_per_atom);
    if (!w.f)
      for (int d = 0; d < 3; ++d) s.f[d].zero();
    if (s.have_torque() && !w.torque)
      for (int d = 0; d < 3; ++d) s.torque[d].zero();    // no term makes torques
    s.ev_valid = ev;
    s.per_atom_ev_valid = s.pending_per_atom;
    s.pending_prefix = 0;
    s.steps_since_sort++;
  }

  EnergyVirial Engine::reduce_energy_virial()
  {
    Impl &s = *impl;
    if (!s.ev_valid)
      throw std::runtime_error(
          "mesogpu: energy/virial requested on a step that did not compute them");
    s.ev_sum.zero();
    long long most = 0;
    for (const auto &g : s.ev) most = std::max(most, g.nslots);
    const int nb = static_cast<int>(std::min<long long>(blocks64(most), 1024));
    for (int k = 0; k < NUM_FORCE_GROUPS; ++k)    // a group without terms sums to zero
      if (s.ev[k].valid && s.ev[k].nslots > 0)
        reduce_ev_kernel<<<nb, BLOCK>>>(s.ev[k].nslots, s.ev[k].warp_sums.get(),
                                        s.ev_sum.get() + 7 * k);
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
    if (!s.per_atom_ev_valid)
      throw std::runtime_error(
          "mesogpu: per-atom energy/virial requested on a step that did not compute them");
    const PerAtomEVStore &st = s.ev[static_cast<int>(kind)];
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    const int n = s.nlocal;    // owned atoms
    std::vector<acc> buf(n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    for (int c = 0; c < 7; ++c) {
      double *out = c == 0 ? energy : virial;
      if (!out) continue;
      if (st.per_atom_valid)
        st.a[c].download(buf.data(), n);
      else
        std::fill(buf.begin(), buf.end(), acc(0));    // no terms of this kind
      if (c == 0)
        for (int i = 0; i < n; ++i) out[o[i]] = buf[i];
      else
        for (int i = 0; i < n; ++i) out[6 * (size_t) o[i] + c - 1] = buf[i];
    }
  }

  void Engine::check_errors()
  {
    Impl &s = *impl;
    ErrorRecord e;
    s.err.download(&e, 1);
    if (e.bits == 0) return;
    MESOGPU_CUDA_CALL(cudaMemset(s.err.get(), 0, sizeof(ErrorRecord)));
    std::ostringstream m;
    if (e.bits & ERR_INTERNAL)
      throw std::logic_error("mesogpu: a force kernel ran with more warps than the engine "
                             "sized its energy/virial sums for (a bug in mesogpu; please report)");
    if (e.bits & ERR_BELOW_TABLE)
      m << "pair distance " << std::sqrt(e.rsq) << " between atoms at device index " << e.i
        << " and " << e.j
        << " is below the start of its table/r2 table (use 'inner clamp' or a table that starts "
           "closer)";
    else if (e.bits & ERR_ROTATION)
      m << "fix leapfrog/aniso: the atom at device index " << e.i
        << " turns by more than 1 radian per step (dt*|omega| = " << std::sqrt(e.rsq)
        << " >= 1): reduce the timestep, or use 'limit normalize'";
    else if (e.bits & ERR_FIELD_RANGE) {
      int tag = -1;
      if (e.i >= 0 && (size_t) e.i < s.tag.size())
        MESOGPU_CUDA_CALL(cudaMemcpy(&tag, s.tag.get() + e.i, sizeof(int), cudaMemcpyDeviceToHost));
      m << "fix mdscf/cuda: atom " << (tag >= 0 ? std::to_string(tag) : "?")
        << " is outside this rank's part of the field grid (it moved more than half the "
           "neighbor skin since the last reneighboring; use 'neigh_modify every 1 delay 0 "
           "check yes' or a larger skin)";
    } else if ((e.bits & ERR_TOPOLOGY) && e.group < 0)
      m << topology_error_text(s, e);
    else if (e.bits & ERR_BONDED) {
      std::string text;
      for (const auto &t : s.forces)
        if (text.empty()) text = t->describe_error(e);
      m << (text.empty() ? "a bonded term is outside its style's range" : text);
    }
    throw std::runtime_error(m.str());
  }

  void Engine::synchronize()
  {
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
  }

  void Engine::upload_rmass(const double *rmass)
  {
    Impl &s = *impl;
    s.per_atom.add(
        "rmass",
        [&s](const Permutation &q) {
          if (s.rmass.size()) permute_rows(s.rmass, 1, q);
        },
        column_migration(&s.rmass));
    std::vector<acc> m(rmass, rmass + s.n);
    s.rmass.upload(m);
  }

}    // namespace cuda
}    // namespace mesogpu
