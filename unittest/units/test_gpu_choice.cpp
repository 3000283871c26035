// The GPU of each rank of a resident run on several MPI ranks (src/cuda/gpu_choice.h):
// node-local rank modulo the GPUs, sharing only when asked for.
#include "cuda/gpu_choice.h"

#include "gtest/gtest.h"

#include <array>
#include <initializer_list>
#include <set>
#include <string>

using mesogpu::choose_gpu;

TEST(GpuChoice, OneRankPerGpuCoversEveryGpuOnce)
{
  for (int ngpu = 1; ngpu <= 8; ngpu++) {
    std::set<int> used;
    for (int r = 0; r < ngpu; r++) {
      const auto c = choose_gpu(r, ngpu, ngpu, false);
      EXPECT_TRUE(c.error.empty()) << c.error;
      ASSERT_GE(c.device, 0);
      ASSERT_LT(c.device, ngpu);
      used.insert(c.device);
    }
    EXPECT_EQ((int) used.size(), ngpu);
  }
}

TEST(GpuChoice, FewerRanksThanGpus)
{
  const auto c = choose_gpu(1, 2, 4, false);
  EXPECT_EQ(c.device, 1);
  EXPECT_TRUE(c.error.empty());
}

TEST(GpuChoice, SharingRefusedUnlessAsked)
{
  const auto refused = choose_gpu(3, 4, 1, false);
  EXPECT_EQ(refused.device, -1);
  EXPECT_NE(refused.error.find("4 MPI ranks on one node would share 1 GPU"), std::string::npos)
      << refused.error;
  EXPECT_NE(refused.error.find("share yes"), std::string::npos);
  EXPECT_NE(refused.error.find("MESOGPU_GPU_SHARE"), std::string::npos);
  // asked: ranks spread round-robin, each GPU holding ranks / GPUs of them
  int count[2] = {0, 0};
  for (int r = 0; r < 6; r++) {
    const auto c = choose_gpu(r, 6, 2, true);
    ASSERT_TRUE(c.error.empty());
    ASSERT_GE(c.device, 0);
    ASSERT_LT(c.device, 2);
    count[c.device]++;
  }
  EXPECT_EQ(count[0], 3);
  EXPECT_EQ(count[1], 3);
}

TEST(GpuChoice, NoGpuOrBadRank)
{
  EXPECT_EQ(choose_gpu(0, 1, 0, true).device, -1);
  EXPECT_FALSE(choose_gpu(0, 1, 0, true).error.empty());
  EXPECT_EQ(choose_gpu(2, 2, 1, true).device, -1);
  EXPECT_EQ(choose_gpu(-1, 2, 1, true).device, -1);
}

TEST(GpuChoice, ShareValues)
{
  bool share = false;
  std::string error;
  for (const char *yes : {"yes", "1", "true"}) {
    share = false;
    EXPECT_TRUE(mesogpu::parse_share(yes, share, error));
    EXPECT_TRUE(share);
  }
  for (const char *no : {"no", "0", "false"}) {
    share = true;
    EXPECT_TRUE(mesogpu::parse_share(no, share, error));
    EXPECT_FALSE(share);
  }
  EXPECT_FALSE(mesogpu::parse_share("maybe", share, error));
  EXPECT_NE(error.find("'maybe' is not yes or no"), std::string::npos);
  EXPECT_FALSE(mesogpu::parse_share(nullptr, share, error));
}

// a keyword parser of two values: `on_value` sets the flag, `off_value` clears it; each
// bad value, and a null one, is refused with the flag unchanged and an error that names
// the value and the allowed ones
void expect_two_choices(bool (*parse)(const char *, bool &, std::string &), const char *on_value,
                        const char *off_value, std::initializer_list<const char *> bad,
                        const std::string &allowed)
{
  bool flag = false;
  std::string error;
  EXPECT_TRUE(parse(on_value, flag, error));
  EXPECT_TRUE(flag);
  EXPECT_TRUE(parse(off_value, flag, error));
  EXPECT_FALSE(flag);
  for (const char *b : bad) {
    flag = true;
    EXPECT_FALSE(parse(b, flag, error)) << b;
    EXPECT_TRUE(flag) << b;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + b + "' is not " + allowed), std::string::npos) << error;
  }
  EXPECT_FALSE(parse(nullptr, flag, error));
}

// a keyword parser of three values: each name gives its value; each bad value, and a null
// one, is refused with the value unchanged and an error that names it and the allowed ones
template <class T>
void expect_three_choices(bool (*parse)(const char *, T &, std::string &),
                          const std::array<const char *, 3> &names, const std::array<T, 3> &values,
                          std::initializer_list<const char *> bad, const std::string &allowed)
{
  T out = values[2];
  std::string error;
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(parse(names[k], out, error)) << names[k];
    EXPECT_EQ(out, values[k]) << names[k];
  }
  for (const char *b : bad) {
    out = values[1];
    EXPECT_FALSE(parse(b, out, error)) << b;
    EXPECT_EQ(out, values[1]) << b;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + b + "' is not " + allowed), std::string::npos) << error;
  }
  EXPECT_FALSE(parse(nullptr, out, error));
}

// run_style verlet/cuda exchange host|ipc|cuda-aware and MESOGPU_EXCHANGE
TEST(GpuChoice, ParseExchange)
{
  using mesogpu::ExchangePath;
  expect_three_choices<ExchangePath>(
      mesogpu::parse_exchange, {"host", "ipc", "cuda-aware"},
      {ExchangePath::host, ExchangePath::ipc, ExchangePath::cuda_aware},
      {"IPC", "nvlink", "", "yes", "cuda_aware", "cuda"}, "host, ipc or cuda-aware");
  // the ranks agree on the smallest path any asks for: host before cuda-aware before ipc
  EXPECT_LT(static_cast<int>(ExchangePath::host), static_cast<int>(ExchangePath::cuda_aware));
  EXPECT_LT(static_cast<int>(ExchangePath::cuda_aware), static_cast<int>(ExchangePath::ipc));
}

// run_style verlet/cuda overlap yes|no (MESOGPU_OVERLAP, MESOGPU_FUSED_FINAL) and rebuild
// device|host
TEST(GpuChoice, ParseYesNoAndRebuild)
{
  expect_two_choices(mesogpu::parse_yes_no, "yes", "no",
                     {"YES", "1", "0", "Yes", "true", "", "no ", "sometimes"}, "yes or no");
  expect_two_choices(mesogpu::parse_rebuild, "device", "host", {"gpu", "Device", ""},
                     "device or host");
}

TEST(GpuChoice, ParseListEntries)
{
  expect_three_choices<int>(mesogpu::parse_list_entries, {"auto", "16", "32"}, {0, 16, 32},
                            {"8", "64", "short", "", "16bit"}, "auto, 16 or 32");
}

TEST(GpuChoice, ParseTightList)
{
  expect_three_choices<int>(mesogpu::parse_tight_list, {"auto", "yes", "no"}, {-1, 1, 0},
                            {"1", "Yes", "cells", "", "auto "}, "auto, yes or no");
}

TEST(GpuChoice, ParseProfileSteps)
{
  int first = -1, count = -1;
  std::string why;
  EXPECT_TRUE(mesogpu::parse_profile_steps("10:3", first, count, why));
  EXPECT_EQ(first, 10);
  EXPECT_EQ(count, 3);
  EXPECT_TRUE(mesogpu::parse_profile_steps("0:1", first, count, why));
  EXPECT_EQ(first, 0);
  EXPECT_EQ(count, 1);
  for (const char *bad :
       {"", "10", "10:", ":3", "10:0", "-1:3", "a:3", "10:3x", "1:2:3", "9999999999:1"}) {
    first = count = 7;
    why.clear();
    EXPECT_FALSE(mesogpu::parse_profile_steps(bad, first, count, why)) << bad;
    EXPECT_NE(why.find("FIRST:COUNT"), std::string::npos) << bad << ": " << why;
    EXPECT_EQ(first, 7) << bad;    // unchanged
    EXPECT_EQ(count, 7) << bad;
  }
  EXPECT_FALSE(mesogpu::parse_profile_steps(nullptr, first, count, why));
}
