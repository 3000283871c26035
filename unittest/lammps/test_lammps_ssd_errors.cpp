/* pair_style ssd: the errors a user sees for bad commands, each message checked (part of the
   test_lammps_ssd executable, whose main() is in test_lammps_ssd.cpp). */

#include "lmp_session.h"

#include "gtest/gtest.h"

#include <string>

namespace {
class SsdErrors : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
};
}    // namespace

TEST_F(SsdErrors, CommandErrorsNameTheProblem)
{
  cmd("units real");
  cmd("atom_style ellipsoid");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 2 box");
  auto has = [&](const std::string &c, const std::string &want) {
    const std::string msg = s->error_of(c);
    EXPECT_NE(msg.find(want), std::string::npos) << c << " -> '" << msg << "'";
  };
  has("pair_style ssd", "expected 'pair_style ssd coul_cut");
  has("pair_style ssd 0", "coul_cut = 0 must be > 0");
  has("pair_style ssd -9", "coul_cut = -9 must be > 0");
  has("pair_style ssd 9 lj_cut -1", "lj_cut = -1 must be > 0");
  has("pair_style ssd 9 lj_cut", "keyword lj_cut needs a value");
  has("pair_style ssd 9 ljmode switched",
      "unknown ljmode 'switched' (allowed: cut, shift, switch)");
  // ljmode switch takes r_sw of 'elec rfswitch', which must lie below lj_cut
  has("pair_style ssd 9 ljmode switch", "'ljmode switch' needs a switching radius");
  has("pair_style ssd 9 ljmode switch elec rf 80", "'ljmode switch' needs a switching radius");
  has("pair_style ssd 9 ljmode switch elec rfswitch 80 7.7 lj_cut 7.7",
      "'ljmode switch' needs the switching radius r_sw = 7.7 < lj_cut = 7.7");
  has("pair_style ssd 9 lj_cut 6 elec rfswitch 80 7.7 ljmode switch", "r_sw = 7.7 < lj_cut = 6");
  has("pair_style ssd 9 elec rf", "'elec rf' needs the reaction-field dielectric constant");
  has("pair_style ssd 9 elec rf 0.5", "eps_rf = 0.5 must be >= 1");
  has("pair_style ssd 9 elec dsf 0.2",
      "unknown electrostatics 'dsf' (allowed: cut, rf eps_rf, rfswitch eps_rf r_sw, sf;");
  has("pair_style ssd 9 elec rfswitch", "'elec rfswitch' needs the reaction-field dielectric");
  has("pair_style ssd 9 elec rfswitch 80", "'elec rfswitch eps_rf r_sw'");
  has("pair_style ssd 9 elec rfswitch 0.5 7.7", "eps_rf = 0.5 must be >= 1");
  has("pair_style ssd 9 elec rfswitch 80 9", "r_sw = 9 must be > 0 and < coul_cut = 9");
  has("pair_style ssd 9 elec rfswitch 80 9.5", "r_sw = 9.5 must be > 0 and < coul_cut = 9");
  has("pair_style ssd 9 elec rfswitch 80 0", "r_sw = 0 must be > 0 and < coul_cut = 9");
  has("pair_style ssd 9 elec rfswitch 80 -1", "r_sw = -1 must be > 0");
  has("pair_style ssd 9 elec sf 80", "'elec sf' takes no value (got '80')");
  has("pair_style ssd 9 elec sf 1e1 lj_cut 9", "'elec sf' takes no value (got '1e1')");
  has("pair_style ssd 9 elec sf foo", "keyword foo needs a value");
  has("pair_style ssd 9 cutoff 3", "unknown keyword 'cutoff'");
  cmd("pair_style ssd 9.0");
  has("pair_coeff 1 1", "expected 'pair_coeff I I ssd|ssd1|ssd/e|ssd/rf'");
  has("pair_coeff 1 1 tip3p", "unknown parameter set 'tip3p' (allowed: ssd, ssd1, ssd/e, ssd/rf");
  has("pair_coeff 1 1 ssd 9.0", "expected 'pair_coeff I I ssd' (3 arguments), got 4");
  has("pair_coeff 1 2 ssd", "I and J must be the same type or range (got 1 2)");
  has("pair_coeff 1 1 custom 3 0.15 2.35", "expected 'pair_coeff I I custom sigma epsilon mu");
  has("pair_coeff 1 1 custom 0 0.152 2.35 3.7 3.7 0.077 2.75 3.35 2.75 4.0",
      "custom sigma = 0 must be > 0");
  has("pair_coeff 1 1 custom 3 -0.152 2.35 3.7 3.7 0.077 2.75 3.35 2.75 4.0",
      "custom epsilon = -0.152 must be >= 0");
  has("pair_coeff 1 1 custom 3 0.152 -2.35 3.7 3.7 0.077 2.75 3.35 2.75 4.0",
      "custom mu = -2.35 must be >= 0");
  has("pair_coeff 1 1 custom 3 0.152 2.35 -3.7 3.7 0.077 2.75 3.35 2.75 4.0",
      "custom nu0 = -3.7 must be >= 0");
  has("pair_coeff 1 1 custom 3 0.152 2.35 3.7 -1 0.077 2.75 3.35 2.75 4.0",
      "custom nu0p = -1 must be >= 0");
  has("pair_coeff 1 1 custom 3 0.152 2.35 3.7 3.7 -0.077 2.75 3.35 2.75 4.0",
      "custom w0 = -0.077 must be >= 0");
  has("pair_coeff 1 1 custom 3 0.152 2.35 3.7 3.7 0.077 3.35 3.35 2.75 4.0",
      "custom rl = 3.35, ru = 3.35: need 0 < rl < ru");
  has("pair_coeff 1 1 custom 3 0.152 2.35 3.7 3.7 0.077 2.75 3.35 0 4.0",
      "custom rlp = 0, rup = 4.0: need 0 < rlp < rup");
  has("pair_coeff 1 1 custom 3 0.152 2.35 3.7 3.7 0.077 2.75 3.35 2.75 x",
      "Expected floating point parameter");
  has("pair_coeff 1 1 lj 3 0.1",
      "'lj' overrides the mixed LJ of unlike pairs I != J; 1 1 names none");
  has("pair_coeff 1 2 lj 3", "expected 'pair_coeff I J lj sigma epsilon'");
  has("pair_coeff 1 2 lj 0 0.1", "lj sigma = 0 must be > 0");
  has("pair_coeff 1 2 lj 3 -0.1", "lj epsilon = -0.1 must be >= 0");
  has("pair_coeff 1 3 ssd", "Numeric index 3 is out of bounds");

  // cutoffs shorter than the sticky range: SSD's rup = 4.0, SSD/E's ru = 3.8
  cmd("pair_style ssd 3.9");
  has("pair_coeff 1 1 ssd", "the cutoffs (coul_cut 3.9, lj_cut 3.9) are shorter than the sticky "
                            "range max(ru, rup) = 4 of 'ssd'");
  cmd("pair_style ssd 9.0 lj_cut 3.7");
  has("pair_coeff 1 1 ssd/e", "shorter than the sticky range max(ru, rup) = 3.8 of 'ssd/e'");
  cmd("pair_style ssd 9.0");
  cmd("pair_coeff 1 1 ssd");
  has("pair_style ssd 3.5", "shorter than the sticky range max(ru, rup) = 4 of type 1");

  // a type without a bonus (no shape, so no quaternion) has no orientation
  cmd("pair_style ssd 9.0");
  cmd("pair_coeff * * ssd/e");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("create_atoms 2 single 4 1 1 units box");
  cmd("set type * mass 18.0153");
  cmd("set type 1 shape 1 1 1");
  cmd("set type 1 quat/random 77");
  has("run 0", "atom 2 of type 2 has no orientation (no ellipsoid bonus)");
  cmd("set type 2 shape 1 1 1");
  EXPECT_EQ(s->error_of("run 0"), "");

  // LAMMPS's energy shift and tail corrections are refused with the alternative named
  cmd("pair_modify shift yes");
  has("run 0", "shift the LJ energy with 'pair_style ssd ... ljmode shift'");
  cmd("pair_modify shift no tail yes");
  has("run 0", "Pair ssd has no tail correction");
}

TEST_F(SsdErrors, NeedsUnitsRealAndEllipsoids)
{
  cmd("units metal");
  cmd("atom_style ellipsoid");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 1 box");
  std::string msg = s->error_of("pair_style ssd 9.0");
  EXPECT_NE(msg.find("Pair style ssd needs 'units real'"), std::string::npos) << msg;
  cmd("clear");
  cmd("units real");
  cmd("atom_style hybrid sphere dipole");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("set type 1 mass 18.0153");
  cmd("pair_style ssd 9.0");
  cmd("pair_coeff 1 1 ssd");
  msg = s->error_of("run 0");
  EXPECT_NE(msg.find("Pair ssd needs per-particle orientations (ellipsoid quaternions)"),
            std::string::npos)
      << msg;
}
