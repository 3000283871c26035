// The GPU of each rank of a resident run on several MPI ranks (src/cuda/gpu_choice.h):
// node-local rank modulo the GPUs, sharing only when asked for.
#include "cuda/gpu_choice.h"

#include "gtest/gtest.h"

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

// run_style verlet/cuda exchange host|ipc|cuda-aware and MESOGPU_EXCHANGE
TEST(GpuChoice, ParseExchange)
{
  using mesogpu::ExchangePath;
  ExchangePath path = ExchangePath::host;
  std::string error;
  EXPECT_TRUE(mesogpu::parse_exchange("ipc", path, error));
  EXPECT_EQ(path, ExchangePath::ipc);
  EXPECT_TRUE(mesogpu::parse_exchange("cuda-aware", path, error));
  EXPECT_EQ(path, ExchangePath::cuda_aware);
  EXPECT_TRUE(mesogpu::parse_exchange("host", path, error));
  EXPECT_EQ(path, ExchangePath::host);
  for (const char *bad : {"IPC", "nvlink", "", "yes", "cuda_aware", "cuda"}) {
    path = ExchangePath::ipc;
    EXPECT_FALSE(mesogpu::parse_exchange(bad, path, error)) << bad;
    EXPECT_EQ(path, ExchangePath::ipc) << bad;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + bad + "' is not host, ipc or cuda-aware"),
              std::string::npos)
        << error;
  }
  EXPECT_FALSE(mesogpu::parse_exchange(nullptr, path, error));
  // the ranks agree on the smallest path any asks for: host before cuda-aware before ipc
  EXPECT_LT(static_cast<int>(ExchangePath::host), static_cast<int>(ExchangePath::cuda_aware));
  EXPECT_LT(static_cast<int>(ExchangePath::cuda_aware), static_cast<int>(ExchangePath::ipc));
}

// run_style verlet/cuda overlap yes|no (MESOGPU_OVERLAP) and rebuild device|host
TEST(GpuChoice, ParseYesNoAndRebuild)
{
  expect_two_choices(mesogpu::parse_yes_no, "yes", "no", {"YES", "1", "", "sometimes"},
                     "yes or no");
  expect_two_choices(mesogpu::parse_rebuild, "device", "host", {"gpu", "Device", ""},
                     "device or host");
}

TEST(GpuChoice, ParseListEntries)
{
  int bits = -1;
  std::string error;
  EXPECT_TRUE(mesogpu::parse_list_entries("auto", bits, error));
  EXPECT_EQ(bits, 0);
  EXPECT_TRUE(mesogpu::parse_list_entries("16", bits, error));
  EXPECT_EQ(bits, 16);
  EXPECT_TRUE(mesogpu::parse_list_entries("32", bits, error));
  EXPECT_EQ(bits, 32);
  for (const char *bad : {"8", "64", "short", "", "16bit"}) {
    bits = 32;
    EXPECT_FALSE(mesogpu::parse_list_entries(bad, bits, error)) << bad;
    EXPECT_EQ(bits, 32) << bad;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + bad + "' is not auto, 16 or 32"), std::string::npos);
  }
  EXPECT_FALSE(mesogpu::parse_list_entries(nullptr, bits, error));
}

TEST(GpuChoice, ParseTightList)
{
  int mode = 7;
  std::string error;
  EXPECT_TRUE(mesogpu::parse_tight_list("auto", mode, error));
  EXPECT_EQ(mode, -1);
  EXPECT_TRUE(mesogpu::parse_tight_list("yes", mode, error));
  EXPECT_EQ(mode, 1);
  EXPECT_TRUE(mesogpu::parse_tight_list("no", mode, error));
  EXPECT_EQ(mode, 0);
  for (const char *bad : {"1", "Yes", "cells", "", "auto "}) {
    mode = 0;
    EXPECT_FALSE(mesogpu::parse_tight_list(bad, mode, error)) << bad;
    EXPECT_EQ(mode, 0) << bad;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + bad + "' is not auto, yes or no"), std::string::npos);
  }
  EXPECT_FALSE(mesogpu::parse_tight_list(nullptr, mode, error));
}

TEST(GpuChoice, ParseFusedFinal)
{
  bool on = false;
  std::string error;
  EXPECT_TRUE(mesogpu::parse_fused_final("yes", on, error));
  EXPECT_TRUE(on);
  EXPECT_TRUE(mesogpu::parse_fused_final("no", on, error));
  EXPECT_FALSE(on);
  for (const char *bad : {"1", "0", "Yes", "true", "", "no "}) {
    on = true;
    EXPECT_FALSE(mesogpu::parse_fused_final(bad, on, error)) << bad;
    EXPECT_TRUE(on) << bad;    // unchanged on a bad value
    EXPECT_NE(error.find(std::string("'") + bad + "' is not yes or no"), std::string::npos);
  }
  EXPECT_FALSE(mesogpu::parse_fused_final(nullptr, on, error));
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
