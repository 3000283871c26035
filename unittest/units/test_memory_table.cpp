/* Unit tests of the device memory report's table (src/memory_table.h) without a GPU: the
   rows, the total and the peaks follow charges and frees (against sums kept here), the
   report text's rows add up to its sum line and give bytes / atoms per atom, a free of more
   than a row holds is counted (not thrown), and MESOGPU_MEMORY_REPORT's values. The
   table's use by DeviceArray on the device: unittest/gpu/test_gpu_memory_report.cpp. */

#include "memory_table.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <sstream>
#include <string>

using namespace mesogpu;

namespace {

// the fields of a table line "  <name> | <bytes> | <B/atom> | <share> | <peak>"
struct Line {
  std::string name;
  std::string cols[4];
};
bool parse_line(const std::string &s, Line &out)
{
  std::istringstream in(s);
  std::string field;
  int k = -1;
  while (std::getline(in, field, '|')) {
    const auto a = field.find_first_not_of(' '), b = field.find_last_not_of(' ');
    const std::string t = a == std::string::npos ? "" : field.substr(a, b - a + 1);
    if (k < 0)
      out.name = t;
    else if (k < 4)
      out.cols[k] = t;
    ++k;
  }
  return k == 4;
}

}    // namespace

TEST(MemoryTable, ChargesFreesAndPeaks)
{
  const size_t t0 = memtable::total();
  memtable::Account *a = memtable::account("test a");
  memtable::Account *b = memtable::account("test b");
  EXPECT_EQ(memtable::account("test a"), a) << "one row per name";
  memtable::charge(a, 1000);
  memtable::charge(b, 300);
  memtable::charge(a, 500);
  EXPECT_EQ(a->bytes, 1500u);
  EXPECT_EQ(b->bytes, 300u);
  EXPECT_EQ(memtable::total(), t0 + 1800);
  memtable::discharge(a, 1000);
  EXPECT_EQ(a->bytes, 500u);
  EXPECT_EQ(a->peak, 1500u);
  EXPECT_GE(memtable::total_peak(), t0 + 1800);
  EXPECT_EQ(memtable::total(), t0 + 800);
  memtable::reset_peaks();
  EXPECT_EQ(a->peak, 500u);
  EXPECT_EQ(memtable::total_peak(), memtable::total());
  memtable::discharge(a, 500);
  memtable::discharge(b, 300);
  EXPECT_EQ(memtable::total(), t0);
  EXPECT_EQ(memtable::mismatches(), 0);
}

TEST(MemoryTable, RowsMostBytesFirstAndFreedRowsByPeak)
{
  memtable::reset_peaks();
  memtable::Account *big = memtable::account("rows big");
  memtable::Account *small = memtable::account("rows small");
  memtable::Account *gone = memtable::account("rows gone");
  memtable::charge(small, 10);
  memtable::charge(big, 1000);
  memtable::charge(gone, 50);
  memtable::discharge(gone, 50);
  const auto rows = memtable::rows();
  int ib = -1, is = -1, ig = -1;
  for (int k = 0; k < (int) rows.size(); ++k) {
    if (rows[k].name == "rows big") ib = k;
    if (rows[k].name == "rows small") is = k;
    if (rows[k].name == "rows gone") ig = k;
  }
  ASSERT_GE(ib, 0);
  ASSERT_GE(is, 0);
  ASSERT_GE(ig, 0) << "a row freed since the reset still shows its peak";
  EXPECT_LT(ib, is);
  EXPECT_EQ(rows[ig].bytes, 0u);
  EXPECT_EQ(rows[ig].peak, 50u);
  for (size_t k = 1; k < rows.size(); ++k) EXPECT_GE(rows[k - 1].bytes, rows[k].bytes);
  memtable::discharge(big, 1000);
  memtable::discharge(small, 10);
  memtable::reset_peaks();
  for (const auto &r : memtable::rows()) EXPECT_NE(r.name, "rows gone") << "no peak left";
}

TEST(MemoryTable, ReportRowsAddUp)
{
  const std::vector<memtable::Row> rows = {
      {"nbr", 4000000, 4000000}, {"x", 240000, 240000}, {"sort_key", 0, 40000}};
  const size_t held = 4240000, used = 5000000;
  const std::string text = memtable::report(rows, "end of setup", 10000, held, 4300000, used);
  EXPECT_NE(text.find("end of setup"), std::string::npos);
  EXPECT_NE(text.find("10000 owned atoms"), std::string::npos);
  std::istringstream in(text);
  std::string s;
  long long sum = 0, sum_line = -1, held_line = -1, used_line = -1, other_line = -1;
  int nrows = 0;
  while (std::getline(in, s)) {
    Line l;
    if (!parse_line(s, l) || l.name == "array") continue;
    const long long bytes = std::stoll(l.cols[0]);
    if (l.name == "sum of the rows") {
      sum_line = bytes;
    } else if (l.name == "held by the engine") {
      held_line = bytes;
      EXPECT_EQ(l.cols[3], "4300000");
    } else if (l.name == "device used (cudaMemGetInfo)") {
      used_line = bytes;
    } else if (l.name == "used, not held by the engine") {
      other_line = bytes;
    } else {
      ++nrows;
      sum += bytes;
      // bytes per atom: bytes / 10000, 2 decimals
      EXPECT_NEAR(std::stod(l.cols[1]), bytes / 10000.0, 0.006) << l.name;
      EXPECT_NEAR(std::stod(l.cols[2]), 100.0 * bytes / held, 0.06) << l.name;
    }
  }
  EXPECT_EQ(nrows, 3);
  EXPECT_EQ(sum, 4240000);
  EXPECT_EQ(sum_line, sum);
  EXPECT_EQ(held_line, (long long) held);
  EXPECT_EQ(used_line, (long long) used);
  EXPECT_EQ(other_line, (long long) (used - held));
  if (memtable::mismatches() == 0) EXPECT_EQ(text.find("WARNING"), std::string::npos);
}

TEST(MemoryTable, OverFreeIsCountedNotThrown)
{
  memtable::Account *a = memtable::account("over free");
  const long long m0 = memtable::mismatches();
  const size_t t0 = memtable::total();
  memtable::charge(a, 100);
  EXPECT_NO_THROW(memtable::discharge(a, 200));
  EXPECT_EQ(a->bytes, 0u);
  EXPECT_EQ(memtable::total(), t0);
  EXPECT_EQ(memtable::mismatches(), m0 + 1);
  EXPECT_NE(memtable::report({}, "x", 1, 0, 0, 0).find("WARNING"), std::string::npos);
}

TEST(MemoryTable, ReportEnvironmentValues)
{
  bool on = true;
  std::string why;
  EXPECT_TRUE(memtable::parse_report_env(nullptr, on, why));
  EXPECT_FALSE(on);
  for (const char *v : {"1", "yes"}) {
    on = false;
    EXPECT_TRUE(memtable::parse_report_env(v, on, why)) << v;
    EXPECT_TRUE(on) << v;
  }
  for (const char *v : {"0", "no", ""}) {
    on = true;
    EXPECT_TRUE(memtable::parse_report_env(v, on, why)) << v;
    EXPECT_FALSE(on) << v;
  }
  EXPECT_FALSE(memtable::parse_report_env("maybe", on, why));
  EXPECT_NE(why.find("maybe"), std::string::npos);
}
