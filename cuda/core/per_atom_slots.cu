/* mesogpu: per-atom data that styles ask for by name (engine.h, upload_per_atom): the
 * device keeps them column-major, registered with the per-atom registry so sorts carry
 * them; uploads and downloads translate between LAMMPS order and device order. */

#include "core/engine_impl.cuh"

#include <stdexcept>
#include <string>
#include <vector>

namespace mesogpu {
namespace cuda {

  void Engine::upload_per_atom(const std::string &name, int width, const double *values)
  {
    Impl &s = *impl;
    if (width <= 0)
      throw std::logic_error("mesogpu: upload_per_atom '" + name + "' needs width > 0");
    Impl::PerAtomSlot &slot = s.slots[name];
    slot.width = width;
    s.per_atom.add("slot " + name, [&s, name](const Permutation &q) {
      auto it = s.slots.find(name);
      if (it != s.slots.end() && it->second.data.size())
        permute_rows(it->second.data, it->second.width, q);
    });
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
    if (it == s.slots.end())
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
    return it == impl->slots.end() ? 0 : it->second.width;
  }

}    // namespace cuda
}    // namespace mesogpu
