/* pair_style coul/dipole/body: the errors a user sees for bad commands, each message checked
   (part of the test_lammps_coul_dipole_body executable, whose main() is in
   test_lammps_coul_dipole_body.cpp). */

#include "lmp_session.h"

#include "gtest/gtest.h"

#include <string>

namespace {
class CoulDipoleBodyErrors : public ::testing::Test {
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
};
}    // namespace

TEST_F(CoulDipoleBodyErrors, CommandErrorsNameTheProblem)
{
  cmd("units real");
  cmd("atom_style hybrid ellipsoid charge");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 2 box");
  has("pair_style coul/dipole/body", "expected 'pair_style coul/dipole/body cutoff");
  has("pair_style coul/dipole/body 0", "cutoff = 0 must be > 0");
  has("pair_style coul/dipole/body -9", "cutoff = -9 must be > 0");
  has("pair_style coul/dipole/body 9 elec", "keyword elec needs a value");
  has("pair_style coul/dipole/body 9 elec rf",
      "'elec rf' needs the reaction-field dielectric constant");
  has("pair_style coul/dipole/body 9 elec rf 0.5", "eps_rf = 0.5 must be >= 1");
  has("pair_style coul/dipole/body 9 elec sf 78", "'elec sf' takes no value (got '78')");
  has("pair_style coul/dipole/body 9 elec sf 9.0 elec cut", "'elec sf' takes no value (got '9.0')");
  has("pair_style coul/dipole/body 9 elec dsf 0.2",
      "unknown electrostatics 'dsf' (allowed: cut, rf eps_rf, sf)");
  has("pair_style coul/dipole/body 9 elec sf foo", "unknown keyword 'foo'");
  has("pair_style coul/dipole/body 9 cutoff 3", "unknown keyword 'cutoff'");
  cmd("pair_style coul/dipole/body 9.0");
  has("pair_coeff 1 1 quadrupole 2", "unknown keyword 'quadrupole'");
  has("pair_coeff 1 1 dipole", "(4 or 7 arguments), got 3");
  has("pair_coeff 1 1 dipole 2 0 1", "(4 or 7 arguments), got 6");
  has("pair_coeff 1 2 dipole 2", "I and J must be the same type or range (got 1 2)");
  has("pair_coeff 1 1 dipole -2", "dipole magnitude -2 must be >= 0");
  has("pair_coeff 1 1 dipole 2 0 0 0", "body direction 0 0 0 must not be zero");
  has("pair_coeff 1 1 dipole 2 x 0 1", "Expected floating point parameter");
  has("pair_coeff 1 3", "Numeric index 3 is out of bounds");

  // a dipolar type without an ellipsoid bonus has no orientation; charge-only types need none
  cmd("pair_coeff * *");
  cmd("pair_coeff 2 2 dipole 2.8");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("create_atoms 2 single 4 1 1 units box");
  cmd("set type * mass 72");
  cmd("set type 1 charge 1");
  has("run 0", "atom 2 of dipolar type 2 has no orientation (no ellipsoid bonus)");
  cmd("set type 2 shape 1 1 1");
  EXPECT_EQ(s->error_of("run 0"), "");

  cmd("pair_modify shift yes");
  has("run 0", "'pair_modify shift yes' is not used");
  cmd("pair_modify shift no tail yes");
  has("run 0", "Pair coul/dipole/body has no tail correction");
}

TEST_F(CoulDipoleBodyErrors, MissingCoefficients)
{
  cmd("units real");
  cmd("atom_style hybrid ellipsoid charge");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 2 box");
  cmd("create_atoms 1 single 1 1 1 units box");
  cmd("set type * mass 72");
  cmd("pair_style coul/dipole/body 9.0");
  cmd("pair_coeff 1 1 dipole 2.8");
  has("run 0", "All pair coeffs are not set");
}

TEST_F(CoulDipoleBodyErrors, NeedsUnitsRealChargesAndEllipsoids)
{
  cmd("units metal");
  cmd("atom_style hybrid ellipsoid charge");
  cmd("region box block 0 12 0 12 0 12");
  cmd("create_box 1 box");
  has("pair_style coul/dipole/body 9.0", "Pair style coul/dipole/body needs 'units real'");
  cmd("clear");
  for (const char *style : {"hybrid sphere dipole", "ellipsoid"}) {
    cmd("units real");
    cmd(std::string("atom_style ") + style);
    cmd("region box block 0 12 0 12 0 12");
    cmd("create_box 1 box");
    cmd("create_atoms 1 single 1 1 1 units box");
    cmd("set type 1 mass 72");
    cmd("pair_style coul/dipole/body 9.0");
    cmd("pair_coeff 1 1");
    has("run 0", std::string(style) == "ellipsoid" ? "needs per-atom charges"
                                                   : "needs per-particle orientations");
    cmd("clear");
  }
}
