/* Which thermo lines a resident run prints from device reductions alone
   (src/thermo_keywords.h), checked on the keyword lists of LAMMPS's own Thermo: the
   built-in styles and custom lines of energies, pressure, temperature and box are
   device-only; a compute, fix, variable or fmax entry is not. Thermo keeps one empty
   spare slot in its list (it allocates nfield + 1), which must not count as a keyword
   the device cannot print: otherwise every thermo step downloads all atoms. */

#include "lmp_session.h"
#include "thermo_keywords.h"

#include "output.h"
#include "thermo.h"

#include <gtest/gtest.h>

namespace {

struct ThermoKeywords : public ::testing::Test {
  LmpSession s;
  void SetUp() override
  {
    s.cmds({"units lj", "atom_style atomic", "region box block 0 4 0 4 0 4", "create_box 1 box",
            "create_atoms 1 random 20 4928 NULL", "mass 1 1.0", "pair_style lj/cut 2.5",
            "pair_coeff 1 1 1.0 1.0", "variable twice equal 2*step", "compute pe all pe/atom",
            "compute pesum all reduce sum c_pe"});
  }
  bool device_only(const std::string &style)
  {
    if (!style.empty()) s.cmd("thermo_style " + style);
    return mesogpu::thermo_keywords_on_device(s.lmp->output->thermo->get_keywords());
  }
};

TEST_F(ThermoKeywords, BuiltInStylesAreDeviceOnly)
{
  EXPECT_TRUE(device_only(""));    // LAMMPS's default: thermo_style one
  EXPECT_TRUE(device_only("one"));
  EXPECT_TRUE(device_only("multi"));
}

TEST_F(ThermoKeywords, EnergiesBoxAndCountsAreDeviceOnly)
{
  EXPECT_TRUE(device_only("custom step time temp press pe ke etotal evdwl ebond emol"));
  EXPECT_TRUE(device_only("custom step vol density lx ly lz xlo xhi atoms cpu tpcpu spcpu"));
}

TEST_F(ThermoKeywords, ComputesFixesVariablesAndForcesNeedTheAtoms)
{
  EXPECT_FALSE(device_only("custom step temp c_pesum"));
  EXPECT_FALSE(device_only("custom step temp v_twice"));
  EXPECT_FALSE(device_only("custom step temp fmax"));
  EXPECT_FALSE(device_only("custom step pxx"));
}

TEST_F(ThermoKeywords, TheSpareSlotIsEmpty)
{
  // the reason the empty keyword is skipped: LAMMPS lists one more than its fields
  s.cmd("thermo_style custom step temp");
  const auto &keys = s.lmp->output->thermo->get_keywords();
  ASSERT_GE(keys.size(), 2u);
  EXPECT_EQ(keys[0], "Step");
  EXPECT_EQ(keys[1], "Temp");
  for (size_t i = 2; i < keys.size(); i++) EXPECT_TRUE(keys[i].empty()) << i;
}

}    // namespace
