/* mesogpu: the device memory report by array; see memory_table.h. */

#include "memory_table.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

namespace mesogpu {
namespace memtable {

  namespace {
    struct Table {
      std::map<std::string, std::unique_ptr<Account>> rows;
      size_t total = 0, peak = 0;
      long long mismatches = 0;    // frees of more than a row held (bookkeeping bugs)
    };
    Table &table()
    {
      // process-wide, and never destroyed: device arrays freed at exit still find it
      static Table *t = new Table;
      return *t;
    }
  }    // namespace

  Account *account(const std::string &name)
  {
    auto &slot = table().rows[name];
    if (!slot) {
      slot.reset(new Account);
      slot->name = name;
    }
    return slot.get();
  }

  void charge(Account *a, size_t bytes)
  {
    Table &t = table();
    a->bytes += bytes;
    a->peak = std::max(a->peak, a->bytes);
    t.total += bytes;
    t.peak = std::max(t.peak, t.total);
  }

  void discharge(Account *a, size_t bytes)
  {
    Table &t = table();
    if (bytes > a->bytes || bytes > t.total) {    // called from destructors: never throws
      ++t.mismatches;
      bytes = std::min(a->bytes, t.total);
    }
    a->bytes -= bytes;
    t.total -= bytes;
  }

  size_t total()
  {
    return table().total;
  }

  long long mismatches()
  {
    return table().mismatches;
  }

  size_t total_peak()
  {
    return table().peak;
  }

  void reset_peaks()
  {
    Table &t = table();
    for (auto &r : t.rows) r.second->peak = r.second->bytes;
    t.peak = t.total;
  }

  std::vector<Row> rows()
  {
    std::vector<Row> out;
    for (const auto &r : table().rows)
      if (r.second->peak > 0) out.push_back({r.first, r.second->bytes, r.second->peak});
    std::stable_sort(out.begin(), out.end(), [](const Row &a, const Row &b) {
      return a.bytes != b.bytes ? a.bytes > b.bytes : a.peak > b.peak;
    });
    return out;
  }

  namespace {
    std::string line(const std::string &name, const std::string &bytes, const std::string &per,
                     const std::string &share, const std::string &peak)
    {
      char b[256];
      snprintf(b, sizeof b, "  %-34s | %15s | %9s | %7s | %15s", name.c_str(), bytes.c_str(),
               per.c_str(), share.c_str(), peak.c_str());
      std::string out(b);
      out.erase(out.find_last_not_of(' ') + 1);
      return out + "\n";
    }
    std::string fmt(const char *f, double x)
    {
      char b[64];
      snprintf(b, sizeof b, f, x);
      return b;
    }
  }    // namespace

  std::string report(const std::vector<Row> &rows, const std::string &when, long long natoms,
                     size_t held, size_t held_peak, size_t device_used)
  {
    const double gib = 1024.0 * 1024.0 * 1024.0;
    auto per_atom = [&](double b) {
      return natoms > 0 ? fmt("%.2f", b / natoms) : std::string("-");
    };
    auto share = [&](size_t b) { return held > 0 ? fmt("%.1f%%", 100.0 * b / held) : "-"; };
    std::string out = "verlet/cuda device memory by array (" + when + "; " +
                      std::to_string(natoms) + " owned atoms on this rank):\n";
    out += line("array", "bytes", "B/atom", "share", "peak bytes");
    size_t sum = 0;
    for (const auto &r : rows) {
      sum += r.bytes;
      out += line(r.name, std::to_string(r.bytes), per_atom(r.bytes), share(r.bytes),
                  std::to_string(r.peak));
    }
    out += line("sum of the rows", std::to_string(sum), per_atom(sum), share(sum), "-");
    out += line("held by the engine", std::to_string(held), per_atom(held), share(held),
                std::to_string(held_peak));
    out += line("device used (cudaMemGetInfo)", std::to_string(device_used), per_atom(device_used),
                "-", "-");
    const long long other = (long long) device_used - (long long) held;
    out += line("used, not held by the engine", std::to_string(other), per_atom((double) other),
                "-", "-");
    if (mismatches())
      out += "  WARNING: the table lost track of " + std::to_string(mismatches()) +
             " frees (a row freed more than it held): a bug of the bookkeeping; the rows are "
             "not reliable\n";
    out += fmt("  (%.3f GiB held", held / gib) +
           fmt(", %.3f GiB used on the device", device_used / gib) +
           "; used but not held: the CUDA context and module images, the rounding of "
           "cudaMalloc, other processes on the GPU)\n";
    return out;
  }

  bool parse_report_env(const char *value, bool &on, std::string &why)
  {
    if (!value || !strcmp(value, "") || !strcmp(value, "0") || !strcmp(value, "no")) {
      on = false;
      return true;
    }
    if (!strcmp(value, "1") || !strcmp(value, "yes")) {
      on = true;
      return true;
    }
    why = std::string("'") + value + "' is not 0, 1, no or yes";
    return false;
  }

}    // namespace memtable
}    // namespace mesogpu
