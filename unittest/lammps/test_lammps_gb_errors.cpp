/* pair_style gb: the errors a user sees for bad commands, each message checked (part of the
   test_lammps_gb executable, whose main() is in test_lammps_gb.cpp). */

#include "lmp_session.h"

#include "gtest/gtest.h"

#include <string>

namespace {
class GbErrors : public ::testing::Test {
 protected:
  LmpSession *s = nullptr;
  void SetUp() override { s = new LmpSession(); }
  void TearDown() override { delete s; }
  void cmd(const std::string &c) { s->cmd(c); }
  void has(const std::string &c, const std::string &want)
  {
    const std::string msg = s->error_of(c);
    EXPECT_NE(msg.find(want), std::string::npos) << c << " -> '" << msg << "'";
  }
  void box(const std::string &style = "ellipsoid")
  {
    cmd("units lj");
    cmd("atom_style " + style);
    cmd("region box block 0 12 0 12 0 12");
    cmd("create_box 2 box");
  }
};
}    // namespace

TEST_F(GbErrors, PairStyleArguments)
{
  box();
  has("pair_style gb", "expected 'pair_style gb rc [sigma0 cleaver|arithmetic]");
  has("pair_style gb 0", "rc = 0 must be > 0");
  has("pair_style gb -9", "rc = -9 must be > 0");
  has("pair_style gb 9 sigma0", "keyword sigma0 needs a value");
  has("pair_style gb 9 sigma0 geometric",
      "unknown sigma0 rule 'geometric' (allowed: cleaver, arithmetic)");
  has("pair_style gb 9 shift maybe", "Expected boolean parameter");
  has("pair_style gb 9 mu 0", "mu = 0 must be > 0");
  has("pair_style gb 9 mu -2", "mu = -2 must be > 0");
  has("pair_style gb 9 nu -1", "nu = -1 must be >= 0");
  has("pair_style gb 9 gamma 1", "unknown keyword 'gamma'");
}

TEST_F(GbErrors, PairCoeffRangesNameTheParameter)
{
  box();
  cmd("pair_style gb 9.0");
  has("pair_coeff 1", "missing argument");    // LAMMPS's own check
  has("pair_coeff 1 1", "1 1 names no unlike pair; a type is given with 'pair_coeff I I gb d l");
  has("pair_coeff 1 1 gb 1 3 1 1", "expected 'pair_coeff I I gb d l eps_X eps_S eps_E [dw D] "
                                   "[cut rc]' or 'pair_coeff I I lj sigma epsilon");
  has("pair_coeff 1 1 lj 1", "got 4 arguments");
  has("pair_coeff 1 1 gb 0 3 1 1 0.2", "d = 0 must be > 0");
  has("pair_coeff 1 1 gb 1 -3 1 1 0.2", "l = -3 must be > 0");
  has("pair_coeff 1 1 gb 1 3 0 1 0.2", "eps_X = 0 must be > 0");
  has("pair_coeff 1 1 gb 1 3 1 -1 0.2", "eps_S = -1 must be > 0");
  has("pair_coeff 1 1 gb 1 3 1 1 0", "eps_E = 0 must be > 0");
  has("pair_coeff 1 1 gb 1 3 1 1 0.2 dw 0", "dw = 0 must be > 0");
  has("pair_coeff 1 1 gb 1 3 1 1 0.2 cut -1", "cut = -1 must be > 0");
  has("pair_coeff 1 1 gb 1 3 1 1 0.2 dw", "keyword dw needs a value");
  has("pair_coeff 1 1 gb 1 3 1 1 0.2 mu 1",
      "unknown keyword 'mu' in a type line (allowed: dw, cut; mu and nu are global or per unlike "
      "pair)");
  has("pair_coeff 1 1 lj 0 1", "sigma = 0 must be > 0");
  has("pair_coeff 1 1 lj 1 -1", "epsilon = -1 must be > 0");
  has("pair_coeff 1 1 lj 1 x", "Expected floating point parameter");
  has("pair_coeff 1 2 gb 1 3 1 1 0.2", "I and J must be the same type or range (got 1 2)");
  has("pair_coeff 1 1 1 3 1 1 0.2", "unknown keyword or type kind '1'");
  has("pair_coeff 1 1 eps0 1", "1 1 names no unlike pair");
  has("pair_coeff 1 2 eps0 -1", "eps0 = -1 must be >= 0");
  has("pair_coeff 1 2 dw 0", "dw = 0 must be > 0");
  has("pair_coeff 1 2 mu 0", "mu = 0 must be > 0");
  has("pair_coeff 1 2 nu -0.5", "nu = -0.5 must be >= 0");
  has("pair_coeff 1 2 cut 0", "cut = 0 must be > 0");
  has("pair_coeff 1 2 eps0", "keyword eps0 needs a value");
  has("pair_coeff 1 2 sigma 1", "unknown keyword or type kind 'sigma'");
  has("pair_coeff 1 3 eps0 1", "Numeric index 3 is out of bounds");
}

TEST_F(GbErrors, OrientationsAndUnusedLammpsOptions)
{
  box();
  cmd("pair_style gb 9.0");
  cmd("pair_coeff 1 1 gb 1 3 1 1 0.2");
  cmd("pair_coeff 2 2 lj 1 1");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("create_atoms 2 single 5 1 1 units box");
  cmd("set type * mass 1.0");
  // a rod without a bonus has no orientation; the sphere (type 2) needs none
  has("run 0", "atom 1 of type 1 has no orientation (no ellipsoid bonus), but type 1 is an "
               "ellipsoid");
  cmd("set type 1 shape 1 1 3");
  cmd("set type 1 quat/random 77");
  EXPECT_EQ(s->error_of("run 0"), "");
  // d = l with eps_S != eps_E is anisotropic: it needs an orientation
  cmd("pair_coeff 2 2 gb 1 1 1 1 0.5");
  has("run 0", "atom 2 of type 2 has no orientation");
  cmd("pair_coeff 2 2 gb 1 1 1 0.5 0.5");
  EXPECT_EQ(s->error_of("run 0"), "");

  cmd("pair_modify shift yes");
  has("run 0", "shift the energy with 'pair_style gb rc shift yes'");
  cmd("pair_modify shift no tail yes");
  has("run 0", "Pair gb has no tail correction");
}

TEST_F(GbErrors, MissingTypeAndAtomStyle)
{
  box();
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("set type * mass 1.0");
  cmd("pair_style gb 9.0");
  cmd("pair_coeff 1 1 lj 1 1");
  has("run 0", "All pair coeffs are not set");    // LAMMPS's own check, before init_one
  cmd("clear");
  box("atomic");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("create_atoms 2 single 4 1 1 units box");
  cmd("mass * 1.0");
  cmd("pair_style gb 9.0");
  cmd("pair_coeff 1 1 lj 1 1");
  cmd("pair_coeff 2 2 lj 1.2 0.5");
  // spheres only: no orientations needed, any atom style
  EXPECT_EQ(s->error_of("run 0"), "");
  cmd("pair_coeff 2 2 gb 1 3 1 1 0.2");
  has("run 0", "Pair gb needs per-particle orientations (ellipsoid quaternions) and torques");
}
