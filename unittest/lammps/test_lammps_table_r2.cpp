/* pair_style table/r2 inside LAMMPS (plugin loaded from LAMMPS_PLUGIN_PATH):
   agreement with LAMMPS's own lj/cut and table spline on the same system, restart and
   data-file round trips, the inner-cutoff modes, pair_modify shift, and the errors a
   user sees for bad commands and files. */

#include "atom.h"
#include "force.h"
#include "info.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "pair.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mpi.h>
#include <sys/stat.h>
#include <string>
#include <unistd.h>
#include <vector>

using LAMMPS_NS::LAMMPS;

namespace {

double lj_e(double r)
{
  return 4.0 * (std::pow(r, -12) - std::pow(r, -6));
}
double lj_f(double r)
{
  return 4.0 * (12.0 * std::pow(r, -13) - 6.0 * std::pow(r, -7));
}

std::string tmp_name(const std::string &stem)
{
  return "lmp_table_r2_" + std::to_string(getpid()) + "_" + stem;
}

// analytic LJ, N samples uniform in r from 0.9 to 2.5 (exact E and F)
std::string write_lj_table(const std::string &name)
{
  std::ofstream out(name);
  out << "# LJ epsilon = sigma = 1\n\nLJ\nN 2000 R 0.9 2.5\n\n";
  out.precision(17);
  for (int i = 0; i < 2000; ++i) {
    double r = 0.9 + 1.6 * i / 1999.0;
    out << i + 1 << " " << r << " " << lj_e(r) << " " << lj_f(r) << "\n";
  }
  return name;
}

class TableR2Lammps : public ::testing::Test {
 protected:
  LAMMPS *lmp = nullptr;
  std::string table;

  void SetUp() override
  {
    LAMMPS::argv args = {"test", "-log", "none", "-echo", "none", "-screen", "none", "-nocite"};
    lmp = new LAMMPS(args, MPI_COMM_WORLD);
    table = write_lj_table(tmp_name("lj.table"));
  }
  void TearDown() override
  {
    delete lmp;
    std::remove(table.c_str());
  }
  void cmd(const std::string &line) { lmp->input->one(line); }
  // runs the command and returns the LAMMPS error text ("" if none)
  std::string error_of(const std::string &line)
  {
    try {
      cmd(line);
    } catch (std::exception &e) {
      return e.what();
    }
    return "";
  }
  void lj_system()
  {
    cmd("units lj");
    cmd("atom_style atomic");
    cmd("atom_modify map array");
    cmd("lattice fcc 0.8442");
    cmd("region box block 0 4 0 4 0 4");
    cmd("create_box 2 box");
    cmd("create_atoms 1 box");
    cmd("set type 1 type/fraction 2 0.5 4321");
    cmd("mass * 1.0");
    cmd("displace_atoms all random 0.06 0.06 0.06 1234 units box");
  }
  double pe()
  {
    cmd("run 0 post no");
    return lammps_get_thermo(lmp, "pe") * lmp->atom->natoms;
  }
  std::vector<double> forces()
  {
    std::vector<double> f(3 * lmp->atom->nlocal);
    for (int i = 0; i < lmp->atom->nlocal; ++i)
      for (int d = 0; d < 3; ++d) f[3 * (lmp->atom->tag[i] - 1) + d] = lmp->atom->f[i][d];
    return f;
  }
  double pressure() { return lammps_get_thermo(lmp, "press"); }
  // what the commands write to the log (warnings included)
  std::string output_of(const std::vector<std::string> &lines)
  {
    const std::string log = tmp_name("out.log");
    cmd("log " + log);
    for (const auto &l : lines) cmd(l);
    cmd("log none");
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(log.c_str());
    return text;
  }
  void two_atoms(double r, const char *units = "lj")
  {
    cmd(std::string("units ") + units);
    cmd("atom_style atomic");
    cmd("atom_modify map array");
    cmd("region box block -5 5 -5 5 -5 5");
    cmd("create_box 1 box");
    cmd("create_atoms 1 single 0 0 0 units box");
    cmd("create_atoms 1 single " + std::to_string(r) + " 0 0 units box");
    cmd("mass 1 1.0");
  }
};

double max_abs_diff(const std::vector<double> &a, const std::vector<double> &b, double &scale)
{
  double d = 0.0;
  scale = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return d;
}

}    // namespace

TEST_F(TableR2Lammps, StyleIsRegistered)
{
  LAMMPS_NS::Info info(lmp);
  EXPECT_TRUE(info.has_style("pair", "table/r2"));
  EXPECT_TRUE(info.has_style("command", "mesogpu"));
}

TEST_F(TableR2Lammps, MatchesLJCutAndTableSpline)
{
  lj_system();
  cmd("pair_style table/r2 4000");
  cmd("pair_coeff * * " + table + " LJ");
  const double e_r2 = pe();
  const double p_r2 = pressure();
  const auto f_r2 = forces();

  cmd("pair_style lj/cut 2.5");
  cmd("pair_coeff * * 1.0 1.0");
  const double e_lj = pe();
  const double p_lj = pressure();
  const auto f_lj = forces();

  cmd("pair_style table spline 2000");
  cmd("pair_coeff * * " + table + " LJ");
  const double e_sp = pe();
  const auto f_sp = forces();

  double scale;
  const double natoms = lmp->atom->natoms;
  EXPECT_GT(std::fabs(e_lj), 1.0);    // a real LJ liquid, not an empty box
  // analytic LJ: the spline error (dz^4 in E, dz^3 in F) is far below these bounds
  EXPECT_NEAR(e_r2 / natoms, e_lj / natoms, 1e-7);
  EXPECT_NEAR(p_r2, p_lj, 1e-6 * std::fabs(p_lj));
  double diff = max_abs_diff(f_r2, f_lj, scale);
  EXPECT_LT(diff, 1e-6 * scale);
  // LAMMPS's table spline on the same samples
  EXPECT_NEAR(e_r2 / natoms, e_sp / natoms, 1e-6);
  diff = max_abs_diff(f_r2, f_sp, scale);
  EXPECT_LT(diff, 1e-5 * scale);
}

TEST_F(TableR2Lammps, RestartCarriesTheTable)
{
  lj_system();
  cmd("pair_style table/r2 1000");
  cmd("pair_coeff 1 1 " + table + " LJ 2.5");
  cmd("pair_coeff 1 2 " + table + " LJ 2.0");
  cmd("pair_coeff 2 2 " + table + " LJ 1.8");
  const double e0 = pe();
  const auto f0 = forces();
  const std::string restart = tmp_name("r.restart");
  cmd("write_restart " + restart);
  std::remove(table.c_str());    // the restart must not need the file
  cmd("clear");
  cmd("read_restart " + restart);
  std::remove(restart.c_str());
  EXPECT_EQ(std::string(lmp->force->pair_style), "table/r2");
  const double e1 = pe();
  double scale;
  EXPECT_DOUBLE_EQ(e1, e0);
  const double diff = max_abs_diff(forces(), f0, scale);
  EXPECT_LE(diff, 1e-14 * scale);
  EXPECT_GT(scale, 0.0);
  int dim;
  auto cut = (double **) lmp->force->pair->extract("cut", dim);
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(dim, 2);
  EXPECT_DOUBLE_EQ(cut[1][2], 2.0);
  EXPECT_DOUBLE_EQ(cut[2][2], 1.8);
}

TEST_F(TableR2Lammps, DataFileRoundTrip)
{
  lj_system();
  cmd("pair_style table/r2 1000");
  cmd("pair_coeff * * " + table + " LJ 2.2");
  const double e0 = pe();
  const std::string data = tmp_name("d.data");
  cmd("write_data " + data + " pair ij");
  cmd("clear");
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("atom_modify map array");
  cmd("pair_style table/r2 1000");
  cmd("read_data " + data);
  std::remove(data.c_str());
  EXPECT_DOUBLE_EQ(pe(), e0);
}

TEST_F(TableR2Lammps, ShiftSubtractsEnergyAtCutoff)
{
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("region box block -5 5 -5 5 -5 5");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 0 0 0 units box");
  cmd("create_atoms 1 single 1.3 0 0 units box");
  cmd("mass 1 1.0");
  cmd("pair_style table/r2 4000");
  cmd("pair_coeff 1 1 " + table + " LJ 2.0");
  EXPECT_NEAR(pe(), lj_e(1.3), 1e-9);
  cmd("pair_modify shift yes");
  EXPECT_NEAR(pe(), lj_e(1.3) - lj_e(2.0), 1e-9);
}

TEST_F(TableR2Lammps, BelowTableStopsOrClamps)
{
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("atom_modify map array");
  cmd("region box block -5 5 -5 5 -5 5");
  cmd("create_box 1 box");
  cmd("create_atoms 1 single 0 0 0 units box");
  cmd("create_atoms 1 single 0.5 0 0 units box");
  cmd("mass 1 1.0");
  cmd("pair_style table/r2 4000");
  cmd("pair_coeff 1 1 " + table + " LJ");
  std::string msg = error_of("run 0 post no");
  EXPECT_NE(msg.find("atoms 1 and 2 are 0.5 apart, below the start 0.9"), std::string::npos) << msg;
  EXPECT_NE(msg.find("inner clamp"), std::string::npos) << msg;

  // clamp: energy continued linearly in r^2 with the slope at the table start
  cmd("pair_style table/r2 4000 inner clamp");
  cmd("pair_coeff 1 1 " + table + " LJ");
  const double z0 = 0.81, dvdz = -lj_f(0.9) / (2 * 0.9);
  EXPECT_NEAR(pe(), lj_e(0.9) + dvdz * (0.25 - z0), 1e-6 * std::fabs(lj_e(0.9)));
  EXPECT_NEAR(lmp->atom->f[1][0], -2 * dvdz * 0.5, 1e-6 * std::fabs(dvdz));
}

TEST_F(TableR2Lammps, CommandErrorsNameTheProblem)
{
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("region box block 0 3 0 3 0 3");
  cmd("create_box 2 box");
  EXPECT_NE(error_of("pair_style table/r2").find("Illegal pair_style table/r2"), std::string::npos);
  EXPECT_NE(error_of("pair_style table/r2 1").find("N = 1 spline intervals is out of range"),
            std::string::npos);
  EXPECT_NE(error_of("pair_style table/r2 100 inner soft").find("unknown inner mode 'soft'"),
            std::string::npos);
  EXPECT_NE(error_of("pair_style table/r2 100 linear").find("unknown keyword 'linear'"),
            std::string::npos);
  cmd("pair_style table/r2 100");
  std::string msg = error_of("pair_coeff 1 1 " + table + " NOPE");
  EXPECT_NE(msg.find("file " + table + ": keyword 'NOPE' not found"), std::string::npos) << msg;
  msg = error_of("pair_coeff 1 1 " + table + " LJ 3.0");
  EXPECT_NE(msg.find("cutoff 3 lies outside table 'LJ' (0.9 < cutoff <= 2.5)"), std::string::npos)
      << msg;
  msg = error_of("pair_coeff 1 1 " + table + " LJ -1");
  EXPECT_NE(msg.find("cutoff must be > 0"), std::string::npos) << msg;
  msg = error_of("pair_coeff 1 3 " + table + " LJ");
  EXPECT_NE(msg.find("Numeric index 3 is out of bounds"), std::string::npos) << msg;
  msg = error_of("pair_coeff 1 1 /nonexistent/x.table LJ");
  EXPECT_NE(msg.find("/nonexistent/x.table: cannot open file"), std::string::npos) << msg;

  const std::string bad = tmp_name("bad.table");
  std::ofstream(bad) << "LJ\nN 3\n1 1.0 1 1\n2 1.2 0 0\n";
  msg = error_of("pair_coeff 1 1 " + bad + " LJ");
  EXPECT_NE(msg.find("file " + bad + " line 4: end of file after 2 of N = 3"), std::string::npos)
      << msg;
  std::remove(bad.c_str());

  // a missing type pair is named at run time: tables are never mixed
  cmd("pair_coeff 1 1 " + table + " LJ");
  cmd("pair_coeff 2 2 " + table + " LJ");
  cmd("mass * 1.0");
  msg = error_of("run 0");
  EXPECT_NE(msg.find("no table for atom types 1 2"), std::string::npos) << msg;
}

TEST_F(TableR2Lammps, TailIsRefused)
{
  lj_system();
  cmd("pair_style table/r2 1000");
  cmd("pair_coeff * * " + table + " LJ");
  cmd("pair_modify tail yes");
  const std::string msg = error_of("run 0 post no");
  EXPECT_NE(msg.find("does not support 'pair_modify tail yes'"), std::string::npos) << msg;
  cmd("pair_modify tail no");
  EXPECT_EQ(error_of("run 0 post no"), "");
}

TEST_F(TableR2Lammps, DuplicateKeywordIsRefused)
{
  two_atoms(1.2);
  const std::string dup = tmp_name("dup.table");
  std::ofstream(dup) << "# two sections of one name\nAA\nN 2 R 1 2\n\n1 1 1 0\n2 2 0 0\n\n"
                        "AA\nN 2 R 1 2\n\n1 1 5 0\n2 2 0 0\n";
  cmd("pair_style table/r2 100");
  const std::string msg = error_of("pair_coeff 1 1 " + dup + " AA");
  std::remove(dup.c_str());
  EXPECT_NE(msg.find("file " + dup + " line 8: keyword 'AA' appears twice, at lines 2 and 8"),
            std::string::npos)
      << msg;
}

TEST_F(TableR2Lammps, CoarseSplineWarns)
{
  two_atoms(1.2);
  // N = 2 on LJ: the energy at r = 1.2 is off by far more than the tolerance
  std::string out = output_of({"pair_style table/r2 2", "pair_coeff 1 1 " + table + " LJ"});
  EXPECT_NE(out.find("WARNING: Pair table/r2: the spline of N = 2 intervals misses table 'LJ'"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("with N = 4 they would be"), std::string::npos) << out;
  // the settings of the examples and of the tests above are accurate: no warning
  out = output_of({"pair_style table/r2 4000", "pair_coeff 1 1 " + table + " LJ",
                   "pair_style table/r2 1000",
                   "pair_coeff 1 1 " MESOGPU_POTENTIALS_DIR "/gauss_soft.table GAUSS_SOFT",
                   "pair_coeff 1 1 " MESOGPU_POTENTIALS_DIR "/gauss_soft.coeff GAUSS_SOFT"});
  EXPECT_EQ(out.find("WARNING"), std::string::npos) << out;
}

TEST_F(TableR2Lammps, InconsistentForcesWarn)
{
  // F = 0 everywhere while E varies: the force column does not belong to the energies
  two_atoms(1.2);
  const std::string bad = tmp_name("flat_f.table");
  {
    std::ofstream out(bad);
    out << "BAD\nN 200 R 0.9 2.5\n\n";
    for (int i = 0; i < 200; ++i) {
      const double r = 0.9 + 1.6 * i / 199.0;
      out << i + 1 << " " << r << " " << lj_e(r) << " 0.0\n";
    }
  }
  std::string out = output_of({"pair_style table/r2 1000", "pair_coeff 1 1 " + bad + " BAD"});
  std::remove(bad.c_str());
  EXPECT_NE(out.find(" of 200 forces of table 'BAD' in file " + bad + " differ from -dE/dr"),
            std::string::npos)
      << out;
  // analytic forces pass
  out = output_of({"pair_coeff 1 1 " + table + " LJ"});
  EXPECT_EQ(out.find("differ from -dE/dr"), std::string::npos) << out;
}

TEST_F(TableR2Lammps, ListedRDifferingFromGridWarns)
{
  two_atoms(1.2);
  const std::string off = tmp_name("off.table");
  std::ofstream(off) << "OFF\nN 3 R 1.0 2.0\n\n1 1.0 2 2\n2 1.7 1 1\n3 2.0 0 0\n";
  const std::string out = output_of({"pair_style table/r2 10", "pair_coeff 1 1 " + off + " OFF"});
  std::remove(off.c_str());
  EXPECT_NE(out.find("1 of 3 r values of table 'OFF'"), std::string::npos) << out;
}

// a table in its own folder, found through LAMMPS_POTENTIALS by its bare name from a
// working directory that does not hold it; read_data finds it the same way
TEST_F(TableR2Lammps, FindsTablesThroughLammpsPotentials)
{
  const std::string dir = tmp_name("potdir");
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  const std::string abs_dir = std::string(cwd) + "/" + dir;
  const std::string bare = "lj_found_" + std::to_string(getpid()) + ".table";
  std::rename(table.c_str(), (abs_dir + "/" + bare).c_str());
  const char *old = getenv("LAMMPS_POTENTIALS");
  const std::string saved = old ? old : "";
  setenv("LAMMPS_POTENTIALS", ("/nonexistent:" + abs_dir).c_str(), 1);

  two_atoms(1.3);
  cmd("pair_style table/r2 4000");
  std::string msg = error_of("pair_coeff 1 1 " + bare + " LJ 2.0");
  EXPECT_EQ(msg, "");
  EXPECT_NEAR(pe(), lj_e(1.3), 1e-9);
  // a relative path that does not exist here falls back to its name in those folders
  EXPECT_EQ(error_of("pair_coeff 1 1 ../elsewhere/" + bare + " LJ 2.0"), "");

  const std::string data = tmp_name("pot.data");
  cmd("pair_coeff 1 1 " + bare + " LJ 2.0");
  cmd("write_data " + data + " pair ij");
  cmd("clear");
  cmd("units lj");
  cmd("atom_style atomic");
  cmd("pair_style table/r2 4000");
  cmd("read_data " + data);
  std::remove(data.c_str());
  EXPECT_NEAR(pe(), lj_e(1.3), 1e-9);

  // without the variable the bare name is not found, and the message says where it looked
  unsetenv("LAMMPS_POTENTIALS");
  msg = error_of("pair_coeff 1 1 " + bare + " LJ 2.0");
  EXPECT_NE(msg.find("file " + bare +
                     ": cannot open file (looked in the working directory and "
                     "in LAMMPS_POTENTIALS = (not set))"),
            std::string::npos)
      << msg;
  if (old) setenv("LAMMPS_POTENTIALS", saved.c_str(), 1);
  std::remove((abs_dir + "/" + bare).c_str());
  rmdir(dir.c_str());
}

TEST_F(TableR2Lammps, UnitsLineIsChecked)
{
  const std::string real = tmp_name("real.table");
  {
    std::ofstream out(real);
    out << "# DATE: 2026-11-23 UNITS: real CONTRIBUTOR: test\n\nLJ\nN 200 R 0.9 2.5\n\n";
    out.precision(17);
    for (int i = 0; i < 200; ++i) {
      const double r = 0.9 + 1.6 * i / 199.0;
      out << i + 1 << " " << r << " " << lj_e(r) << " " << lj_f(r) << "\n";
    }
  }
  two_atoms(1.3, "lj");
  cmd("pair_style table/r2 1000");
  const std::string msg = error_of("pair_coeff 1 1 " + real + " LJ");
  EXPECT_NE(msg.find("file " + real +
                     " requires real units (its UNITS: line) but lj units are "
                     "in use"),
            std::string::npos)
      << msg;
  // the units it names are accepted
  cmd("clear");
  two_atoms(1.3, "real");
  cmd("pair_style table/r2 1000");
  EXPECT_EQ(error_of("pair_coeff 1 1 " + real + " LJ"), "");
  std::remove(real.c_str());
}

TEST_F(TableR2Lammps, MetalTableConvertsToRealLikePairTable)
{
  // LAMMPS's own pair_style table converts metal <-> real; table/r2 must agree with it
  const std::string metal = tmp_name("metal.table");
  {
    std::ofstream out(metal);
    out << "# UNITS: metal\n\nLJ\nN 2000 R 0.9 2.5\n\n";
    out.precision(17);
    for (int i = 0; i < 2000; ++i) {
      const double r = 0.9 + 1.6 * i / 1999.0;
      out << i + 1 << " " << r << " " << lj_e(r) << " " << lj_f(r) << "\n";
    }
  }
  two_atoms(1.3, "real");
  std::string out = output_of({"pair_style table/r2 4000", "pair_coeff 1 1 " + metal + " LJ"});
  EXPECT_NE(out.find("converting table 'LJ' of file " + metal + " from metal to real units"),
            std::string::npos)
      << out;
  const double e_r2 = pe();
  cmd("pair_style table spline 2000");
  cmd("pair_coeff 1 1 " + metal + " LJ");
  const double e_table = pe();
  std::remove(metal.c_str());
  EXPECT_GT(std::fabs(e_r2), 10.0 * std::fabs(lj_e(1.3)));    // converted, not as written
  EXPECT_NEAR(e_r2, e_table, 1e-5 * std::fabs(e_table));
}

TEST(TableR2Cite, CitesGalamost)
{
  const std::string cite = tmp_name("cite.bib");
  LAMMPS::argv args = {"test",    "-log", "none",  "-echo",     "none",
                       "-screen", "none", "-cite", cite.c_str()};
  auto *lmp = new LAMMPS(args, MPI_COMM_WORLD);
  lmp->input->one("units lj");
  lmp->input->one("pair_style table/r2 100");
  std::ifstream in(cite);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  delete lmp;
  std::remove(cite.c_str());
  EXPECT_NE(text.find("pair table/r2 command: doi:10.1002/jcc.23365"), std::string::npos) << text;
  EXPECT_NE(text.find("J.~Comput.\\ Chem."), std::string::npos) << text;
}
