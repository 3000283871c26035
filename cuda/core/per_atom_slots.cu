/* mesogpu: per-atom data that styles ask for by name (engine.h, upload_per_atom): the
 * device keeps them column-major, registered with the per-atom registry so sorts carry
 * them; uploads and downloads translate between LAMMPS order and device order. */

#include "core/engine_impl.cuh"
#include "core/ghost_kernels.cuh"

#include <functional>

#include <stdexcept>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  void Engine::upload_per_atom(const std::string &name, int width, const double *values,
                               bool ghosts_read)
  {
    Impl &s = *impl;
    if (width <= 0)
      throw std::logic_error("mesogpu: upload_per_atom '" + name + "' needs width > 0");
    if (ghosts_read && width != 1)
      throw std::logic_error("mesogpu: upload_per_atom '" + name +
                             "': only one value per atom can be sent to ghosts");
    // (the node stays once made: a migration holds its array)
    Impl::PerAtomSlot &slot = s.slots[name];
    slot.width = width;
    slot.ghosts_read = ghosts_read;
    slot.used = true;
    const std::function<bool()> in_use = [&slot] { return slot.used; };
    // one value per atom migrates as a column; wider slots (column-major, their stride the
    // row count) keep a reneighbouring step on the host
    Migrate migrate;
    if (width == 1) migrate = column_migration_while(&slot.data, in_use);
    s.per_atom.add(
        "slot " + name,
        [&slot](const Permutation &q) {
          if (slot.used && slot.data.size()) permute_rows(slot.data, slot.width, q);
        },
        std::move(migrate), in_use);
    AllocLabel label("per-atom data of a style");
    slot.data.set_name("slot " + name);    // its row in the memory report
    const size_t n = s.n;
    std::vector<acc> buf((size_t) width * n);
    const int *o = s.order_host.data();    // device atom i is LAMMPS atom o[i]
    for (int k = 0; k < width; ++k)
      for (size_t i = 0; i < n; ++i)
        buf[k * n + i] = static_cast<acc>(values[(size_t) width * o[i] + k]);
    slot.data.upload(buf);
  }

  void Engine::download_per_atom(const std::string &name, double *values) const
  {
    const Impl &s = *impl;
    auto it = s.slots.find(name);
    if (it == s.slots.end() || !it->second.used)
      throw std::logic_error("mesogpu: no per-atom data '" + name + "' on the device");
    const int width = it->second.width;
    const size_t n = s.n;
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<acc> buf((size_t) width * n);
    it->second.data.download(buf.data(), buf.size());
    const int *o = s.order_host.data();
    for (int k = 0; k < width; ++k)
      for (size_t i = 0; i < n; ++i) values[(size_t) width * o[i] + k] = buf[k * n + i];
  }

  void Engine::upload_host_column(const std::string &name, const double *values, int stride)
  {
    Impl &s = *impl;
    if (stride <= 0)
      throw std::logic_error("mesogpu: upload_host_column '" + name + "' needs stride > 0");
    Impl::HostColumn &col = s.host_columns[name];
    add_column_while(s.per_atom, "host " + name, &col.data, [&col] { return col.used; });
    AllocLabel label("the host's per-atom values");
    col.data.set_name("host " + name);
    const size_t n = s.n;
    std::vector<double> buf(n);
    const int *o = s.order_host.data();
    for (size_t i = 0; i < n; ++i) buf[i] = values[(size_t) stride * o[i]];
    col.data.upload(buf);
    col.used = true;
  }

  void Engine::download_host_column(const std::string &name, double *values, int stride) const
  {
    const Impl &s = *impl;
    auto it = s.host_columns.find(name);
    if (it == s.host_columns.end() || !it->second.used)
      throw std::logic_error("mesogpu: no host column '" + name + "' on the device");
    const size_t n = s.nlocal;    // the owned atoms
    if (it->second.data.size() < n)
      throw std::logic_error("mesogpu: host column '" + name + "' holds fewer rows than the " +
                             std::to_string(n) + " owned atoms");
    MESOGPU_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<double> buf(n);
    it->second.data.download(buf.data(), n);
    const int *o = s.order_host.data();
    for (size_t i = 0; i < n; ++i) values[(size_t) stride * o[i]] = buf[i];
  }

  int Engine::per_atom_width(const std::string &name) const
  {
    auto it = impl->slots.find(name);
    return it == impl->slots.end() || !it->second.used ? 0 : it->second.width;
  }

  // --- the ghosts' values of a slot (several ranks, after a device rebuild) -----------
  namespace {
    __global__ void pack_column_kernel(int count, const int *send, const acc *a, double *buf)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k < count) buf[k] = static_cast<double>(a[send[k]]);
    }
    __global__ void unpack_column_kernel(int count, int first, const double *buf, acc *a)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k < count) a[first + k] = static_cast<acc>(buf[k]);
    }
    // a swap with this rank itself: sources and the new ghost rows never overlap
    __global__ void copy_column_kernel(int count, const int *send, int first, acc *a)
    {
      const int k = blockIdx.x * blockDim.x + threadIdx.x;
      if (k < count) a[first + k] = a[send[k]];
    }

    DeviceArray<acc> &ghost_slot(Engine::Impl &s, const std::string &name, const char *what)
    {
      auto it = s.slots.find(name);
      if (it == s.slots.end() || !it->second.used || !it->second.ghosts_read ||
          it->second.data.size() < (size_t) s.n)
        throw std::logic_error(std::string("mesogpu: ") + what + ": no per-atom data '" + name +
                               "' of every row whose ghosts are read");
      return it->second.data;
    }
  }    // namespace

  std::vector<std::string> Engine::ghost_slots() const
  {
    std::vector<std::string> out;
    for (const auto &e : impl->slots)
      if (e.second.used && e.second.ghosts_read) out.push_back(e.first);
    return out;
  }

  void Engine::pack_slot(const std::string &name, int offset, int count, double *buf)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "pack_slot");
    DeviceArray<acc> &a = ghost_slot(s, name, "pack_slot");
    if (count > 0) {
      pack_column_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, a.get(),
                                                   pack_target(s, buf, count));
      MESOGPU_CUDA_LAUNCH_CHECK();
    }
    finish_pack(s, buf, count, 0);
  }

  void Engine::unpack_slot(const std::string &name, int first, int count, const double *buf)
  {
    Impl &s = *impl;
    check_rows(s, first, count, "unpack_slot");
    DeviceArray<acc> &a = ghost_slot(s, name, "unpack_slot");
    if (count == 0) return;
    const double *src = unpack_source(s, buf, count, 0);
    unpack_column_kernel<<<blocks(count), BLOCK>>>(count, first, src, a.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

  void Engine::copy_slot(const std::string &name, int offset, int count, int first)
  {
    Impl &s = *impl;
    check_send(s, offset, count, "copy_slot");
    check_rows(s, first, count, "copy_slot");
    DeviceArray<acc> &a = ghost_slot(s, name, "copy_slot");
    if (count == 0) return;
    copy_column_kernel<<<blocks(count), BLOCK>>>(count, s.comm_send.get() + offset, first,
                                                 a.get());
    MESOGPU_CUDA_LAUNCH_CHECK();
  }

}    // namespace cuda
}    // namespace mesogpu
