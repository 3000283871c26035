/* The plugin as a whole inside LAMMPS (loaded from LAMMPS_PLUGIN_PATH): 'mesogpu info'
   lists exactly the styles LAMMPS's 'plugin list' shows, states how the plugin was
   built, and the styles survive 'clear' and a second 'plugin load'. */

#include "input.h"
#include "lammps.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <mpi.h>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using LAMMPS_NS::LAMMPS;

namespace {

class PluginInfo : public ::testing::Test {
 protected:
  LAMMPS *lmp = nullptr;
  void SetUp() override
  {
    LAMMPS::argv args = {"test", "-log", "none", "-echo", "none", "-screen", "none", "-nocite"};
    lmp = new LAMMPS(args, MPI_COMM_WORLD);
  }
  void TearDown() override { delete lmp; }
  void cmd(const std::string &line) { lmp->input->one(line); }
  // what the commands print (LAMMPS writes the same text to screen and log)
  std::string output_of(const std::vector<std::string> &lines)
  {
    const std::string log = "lmp_plugin_info_" + std::to_string(getpid()) + ".log";
    cmd("log " + log);
    for (const auto &l : lines) cmd(l);
    cmd("log none");
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(log.c_str());
    return text;
  }
};

// "   3: pair style plugin table/r2" -> "pair table/r2"
std::set<std::string> plugin_list_styles(const std::string &text)
{
  std::set<std::string> out;
  std::regex re(R"(^\s*\d+: (\S+) style plugin (\S+)\s*$)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, re)) out.insert(m[1].str() + " " + m[2].str());
  return out;
}

// the indented lines after "styles registered from this plugin: n"
std::set<std::string> info_styles(const std::string &text, int &announced)
{
  std::set<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  announced = -1;
  std::regex head(R"(^  styles registered from this plugin: (\d+)$)");
  std::regex item(R"(^    (\S+) (\S+)$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, head)) {
      inside = true;
      announced = std::stoi(m[1].str());
    } else if (inside && std::regex_match(line, m, item))
      out.insert(m[1].str() + " " + m[2].str());
    else
      inside = false;
  }
  return out;
}

}    // namespace

TEST_F(PluginInfo, ListsExactlyTheRegisteredStyles)
{
  const std::string list = output_of({"plugin list"});
  const std::string info = output_of({"mesogpu info"});
  const auto listed = plugin_list_styles(list);
  int announced = 0;
  const auto shown = info_styles(info, announced);
  EXPECT_GE(listed.size(), 5u) << list;    // at least the CPU styles
  EXPECT_EQ(shown, listed) << "plugin list:\n" << list << "mesogpu info:\n" << info;
  EXPECT_EQ(announced, static_cast<int>(shown.size())) << info;
  for (const char *s :
       {"pair table/r2", "pair soft/aniso", "fix leapfrog/aniso", "fix mdscf", "command mesogpu"})
    EXPECT_EQ(shown.count(s), 1u) << s << " missing in\n" << info;
}

TEST_F(PluginInfo, UnloadedStyleIsNotListed)
{
  cmd("plugin unload pair soft/aniso");
  const std::string info = output_of({"mesogpu info"});
  int announced = 0;
  const auto shown = info_styles(info, announced);
  EXPECT_EQ(shown.count("pair soft/aniso"), 0u) << info;
  EXPECT_EQ(shown.count("pair table/r2"), 1u) << info;
  EXPECT_EQ(shown, plugin_list_styles(output_of({"plugin list"})));
  cmd("plugin load " MESOGPU_PLUGIN_FILE);    // back for the tests that follow
  EXPECT_EQ(info_styles(output_of({"mesogpu info"}), announced).count("pair soft/aniso"), 1u);
}

TEST_F(PluginInfo, StatesBuild)
{
  const std::string info = output_of({"mesogpu info"});
  EXPECT_NE(info.find("CPU styles: double precision"), std::string::npos) << info;
#ifdef MESOGPU_HAVE_CUDA
  EXPECT_TRUE(std::regex_search(info, std::regex("CUDA engine: compiled for sm_[0-9]+"))) << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("device precision: (single|mixed|double) ")))
      << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("CUDA runtime: [0-9]+\\.[0-9]+, driver: ")))
      << info;
  EXPECT_NE(info.find("CUDA devices visible: "), std::string::npos) << info;
#else
  EXPECT_NE(info.find("CUDA engine: built without CUDA"), std::string::npos) << info;
#endif
}

TEST_F(PluginInfo, StylesSurviveClearAndSecondLoad)
{
  // a second 'plugin load' of the same file registers nothing twice
  std::string out = output_of({"plugin load " MESOGPU_PLUGIN_FILE});
  EXPECT_EQ(out.find("Ignoring load"), std::string::npos) << out;
  EXPECT_EQ(out.find("WARNING"), std::string::npos) << out;

  out = output_of({"clear", "mesogpu info", "units lj", "pair_style table/r2 100", "plugin list"});
  int announced = 0;
  EXPECT_EQ(info_styles(out, announced), plugin_list_styles(out)) << out;
  EXPECT_EQ(out.find("Ignoring load"), std::string::npos) << out;
}
