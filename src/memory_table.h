/* mesogpu: the device memory report by array (run_style verlet/cuda memory yes, or
 * MESOGPU_MEMORY_REPORT=1). A process-wide table, name -> bytes held now and the most held
 * since the last reset, kept by the engine's DeviceArray on every allocation, free and
 * swap (cuda/core/device_array.cuh): host bookkeeping only, no CUDA calls, so the table
 * and its text are unit-testable without a GPU. Docs: doc/run_style_verlet_cuda.md. */
#ifndef MESOGPU_MEMORY_TABLE_H
#define MESOGPU_MEMORY_TABLE_H

#include <cstddef>
#include <string>
#include <vector>

namespace mesogpu {
namespace memtable {

  // one row of the table; its address is stable for the life of the process
  struct Account {
    std::string name;
    size_t bytes = 0, peak = 0;
  };

  // the row of `name` (made on first use)
  Account *account(const std::string &name);
  // bytes added to / taken from a row (taking more than it holds is a bookkeeping bug:
  // counted in mismatches() and clamped, never thrown: destructors free)
  void charge(Account *a, size_t bytes);
  void discharge(Account *a, size_t bytes);
  long long mismatches();
  // the sum of the rows now, and the most it was since the last reset_peaks()
  size_t total();
  size_t total_peak();
  // every peak (and the total's) back to what is held now
  void reset_peaks();

  struct Row {
    std::string name;
    size_t bytes, peak;
  };
  // the rows that hold or held memory since the last reset, most bytes first (then peak,
  // then name)
  std::vector<Row> rows();

  // the report: a header with `when` and the owned atoms, one line per row (name, bytes,
  // bytes per owned atom, share of `held`, peak), the sum of the rows, `held` (what the
  // allocator counts, independent of the rows), and the device's used memory
  // (cudaMemGetInfo: total - free) with what is not in the table. Lines of the table read
  // "  <name> | <bytes> | <B/atom> | <share>% | <peak>".
  std::string report(const std::vector<Row> &rows, const std::string &when, long long natoms,
                     size_t held, size_t held_peak, size_t device_used);

  // MESOGPU_MEMORY_REPORT: unset, "0", "no": off; "1", "yes": on; anything else false
  // with why set
  bool parse_report_env(const char *value, bool &on, std::string &why);

}    // namespace memtable
}    // namespace mesogpu

#endif
