/* mesogpu: per-atom data that styles ask for by name (engine.h, upload_per_atom): the
 * device keeps them column-major, registered with the per-atom registry so sorts carry
 * them; uploads and downloads translate between LAMMPS order and device order. */

#include "core/engine_impl.cuh"

#include <stdexcept>

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

  int Engine::per_atom_width(const std::string &name) const
  {
    auto it = impl->slots.find(name);
    return it == impl->slots.end() ? 0 : it->second.width;
  }

}    // namespace cuda
}    // namespace mesogpu
