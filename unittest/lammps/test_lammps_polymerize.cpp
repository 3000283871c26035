/* fix polymerize inside LAMMPS (plugin from LAMMPS_PLUGIN_PATH), one rank. References are
   computed here from LAMMPS's own data, never from the fix's output: the bond graph (every
   chain a path from its initiator, no monomer captured twice, cris = degree, the chain
   position = distance from the initiator, the active end at the far end), the bond/angle
   counts, the special lists LAMMPS's Special::build makes from a write_data/read_data of the
   grown system, the statistics of the fix's vector recomputed from the graph, a restart that
   continues exactly, the kinetics against the expected number of reactions computed from the
   measured candidates of every end, and the error messages of bad input. The 1/2/4-rank
   determinism is unittest/mpi_polymerize.cmake. */

#include "lmp_session.h"

#include "physics/chain_growth.h"

#include "atom.h"
#include "domain.h"
#include "fix.h"
#include "modify.h"
#include "update.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

std::string tmp_name(const std::string &stem)
{
  return "lmp_polymerize_" + std::to_string(getpid()) + "_" + stem;
}

// an LJ liquid with 5 % initiators (type 1); monomers type 2 turn into type 3 in a chain
void setup_system(LmpSession &s, const std::string &newton, const std::string &special,
                  double rho = 0.8, int cells = 6, bool angles = true, double temp = 1.0)
{
  s.cmds({"units lj",
          std::string("atom_style ") + (angles ? "angle" : "bond"),
          "newton on " + newton,
          "lattice fcc " + std::to_string(rho),
          "region box block 0 " + std::to_string(cells) + " 0 " + std::to_string(cells) + " 0 " +
              std::to_string(cells),
          std::string("create_box 3 box bond/types 1 extra/bond/per/atom 2 ") +
              (angles ? "angle/types 1 extra/angle/per/atom 3 " : "") + "extra/special/per/atom 6",
          "create_atoms 2 box",
          "set type 2 type/fraction 1 0.05 12345",
          "mass * 1.0",
          "velocity all create " + std::to_string(temp) + " 4928 loop geom",
          "pair_style lj/cut 2.5",
          "pair_coeff * * 1.0 1.0",
          "bond_style fene",
          "bond_coeff 1 10.0 1.2 1.0 1.0",
          "special_bonds " + special,
          "neighbor 0.3 bin",
          "comm_modify cutoff 4.0",
          "group inits type 1",
          "timestep 0.005",
          "thermo_modify warn 0"});
  if (angles) s.cmds({"angle_style harmonic", "angle_coeff 1 5.0 180.0"});
}

const char *poly_fix = "fix p all polymerize 10 4321 prob 1 2 0.5 prob 3 2 0.5 rc 1.12246 "
                       "btype 1 jtype 2 3 init inits";

using Bond = std::pair<LAMMPS_NS::tagint, LAMMPS_NS::tagint>;

std::set<Bond> bonds_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::set<Bond> b;
  auto *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i)
    for (int k = 0; k < atom->num_bond[i]; ++k) {
      auto a = atom->tag[i], c = atom->bond_atom[i][k];
      b.insert({std::min(a, c), std::max(a, c)});
    }
  return b;
}

std::map<LAMMPS_NS::tagint, std::vector<double>> state_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::map<LAMMPS_NS::tagint, std::vector<double>> st;
  double **a = lmp->modify->get_fix_by_id("p")->array_atom;
  for (int i = 0; i < lmp->atom->nlocal; ++i)
    st[lmp->atom->tag[i]] = {a[i][0], a[i][1], a[i][2], (double) lmp->atom->type[i]};
  return st;
}

// special list of every atom by level: tag -> (sorted 1-2, 1-3, 1-4)
using Specials = std::map<LAMMPS_NS::tagint, std::vector<std::set<LAMMPS_NS::tagint>>>;
Specials specials_of(LAMMPS_NS::LAMMPS *lmp)
{
  Specials sp;
  auto *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    auto &v = sp[atom->tag[i]];
    v.resize(3);
    int lo = 0;
    for (int l = 0; l < 3; ++l) {
      for (int k = lo; k < atom->nspecial[i][l]; ++k) v[l].insert(atom->special[i][k]);
      lo = atom->nspecial[i][l];
    }
  }
  return sp;
}

// ---------------------------------------------------------------------------------------
// bookkeeping: newton_bond on/off, special lists with 1-2 only (fene) or all three levels

class Bookkeeping : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Bookkeeping, ChainsBondsSpecialsAngles)
{
  const std::string newton = std::get<0>(GetParam()), special = std::get<1>(GetParam());
  LmpSession s;
  setup_system(s, newton, special);
  s.cmds({"fix 1 all nve", std::string(poly_fix) + " atype 1", "run 300"});
  auto *lmp = s.lmp;
  auto *atom = lmp->atom;
  const int n = atom->nlocal;

  const auto bonds = bonds_of(lmp);
  const auto st = state_of(lmp);
  ASSERT_GT(bonds.size(), 200u) << "the test needs growth";
  EXPECT_EQ((LAMMPS_NS::bigint) bonds.size(), atom->nbonds);
  auto *fix = lmp->modify->get_fix_by_id("p");
  EXPECT_EQ(fix->compute_vector(2), (double) bonds.size());

  // graph: degree <= 2, initiators (type 1, never changed) start the paths
  std::map<LAMMPS_NS::tagint, std::vector<LAMMPS_NS::tagint>> adj;
  for (auto &b : bonds) {
    adj[b.first].push_back(b.second);
    adj[b.second].push_back(b.first);
  }
  std::vector<LAMMPS_NS::tagint> inits;
  for (int i = 0; i < n; ++i)
    if (atom->type[i] == 1) inits.push_back(atom->tag[i]);
  ASSERT_GT(inits.size(), 20u);
  std::set<LAMMPS_NS::tagint> seen;
  double sum_dp = 0, sum_dp2 = 0, grown = 0;
  int nangle_expected = 0;
  std::set<std::tuple<LAMMPS_NS::tagint, LAMMPS_NS::tagint, LAMMPS_NS::tagint>> angle_expected;
  for (auto t0 : inits) {
    ASSERT_LE(adj[t0].size(), 1u) << "initiator " << t0;
    std::vector<LAMMPS_NS::tagint> path = {t0};
    LAMMPS_NS::tagint prev = 0, cur = t0;
    while (true) {
      ASSERT_TRUE(seen.insert(cur).second) << "atom " << cur << " in two chains (captured twice)";
      ASSERT_LE(adj[cur].size(), 2u) << "atom " << cur << ": chain not linear";
      LAMMPS_NS::tagint next = 0;
      for (auto nb : adj[cur])
        if (nb != prev) next = nb;
      if (!next) break;
      prev = cur;
      cur = next;
      path.push_back(cur);
    }
    for (size_t k = 0; k < path.size(); ++k) {
      const auto &sv = st.at(path[k]);
      EXPECT_EQ(sv[0], k + 1 == path.size() ? 1.0 : 0.0) << "init of atom " << path[k];
      EXPECT_EQ(sv[1], (double) adj[path[k]].size()) << "cris of atom " << path[k];
      EXPECT_EQ(sv[2], (double) k) << "chain position of atom " << path[k];
      if (k > 0) EXPECT_EQ(sv[3], 3.0) << "type of chain monomer " << path[k];
      if (k >= 2) {
        auto a = path[k - 2], c = path[k];
        angle_expected.insert({std::min(a, c), path[k - 1], std::max(a, c)});
        ++nangle_expected;
      }
    }
    const double dp = path.size() - 1;
    if (dp >= 1) {
      grown += 1;
      sum_dp += dp;
      sum_dp2 += dp * dp;
    }
  }
  // every other atom is a free monomer of type 2 with no bonds
  for (auto &kv : st)
    if (!seen.count(kv.first)) {
      EXPECT_EQ(adj.count(kv.first), 0u);
      EXPECT_EQ(kv.second[0] + kv.second[1] + kv.second[2], 0.0);
      EXPECT_EQ(kv.second[3], 2.0);
    }
  const double nmono0 = n - (double) inits.size();
  EXPECT_DOUBLE_EQ(fix->compute_vector(0), (double) bonds.size() / nmono0);
  EXPECT_EQ(fix->compute_vector(1), (double) inits.size());
  EXPECT_EQ(fix->compute_vector(7), grown);
  EXPECT_NEAR(fix->compute_vector(4), sum_dp / grown, 1e-12);
  EXPECT_NEAR(fix->compute_vector(5), sum_dp2 / sum_dp, 1e-12);
  EXPECT_NEAR(fix->compute_vector(6), (sum_dp2 / sum_dp) / (sum_dp / grown), 1e-12);

  // angles a-i-j along the chains, each once
  std::set<std::tuple<LAMMPS_NS::tagint, LAMMPS_NS::tagint, LAMMPS_NS::tagint>> angles;
  int nangle_stored = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < atom->num_angle[i]; ++k) {
      auto a = atom->angle_atom1[i][k], b = atom->angle_atom2[i][k], c = atom->angle_atom3[i][k];
      angles.insert({std::min(a, c), b, std::max(a, c)});
      ++nangle_stored;
    }
  EXPECT_EQ(angles, angle_expected);
  EXPECT_EQ(nangle_stored, nangle_expected * (newton == "on" ? 1 : 3));
  EXPECT_EQ(atom->nangles, nangle_expected);

  // special lists: those Special::build makes from the written topology
  const Specials grown_sp = specials_of(lmp);
  const std::string data = tmp_name("grown.data");
  s.cmd("write_data " + data + " nocoeff");
  LmpSession f;
  f.cmds({"units lj", "atom_style angle", "newton on " + newton, "special_bonds " + special,
          "read_data " + data + " extra/special/per/atom 6"});
  remove(data.c_str());
  const Specials fresh_sp = specials_of(f.lmp);
  ASSERT_EQ(fresh_sp.size(), grown_sp.size());
  for (auto &kv : fresh_sp)
    for (int l = 0; l < 3; ++l)
      EXPECT_EQ(grown_sp.at(kv.first)[l], kv.second[l]) << "atom " << kv.first << " level " << l;
}

INSTANTIATE_TEST_SUITE_P(NewtonSpecial, Bookkeeping,
                         ::testing::Combine(::testing::Values("on", "off"),
                                            ::testing::Values("fene", "lj 0.0 0.0 0.5",
                                                              "lj 0.0 0.5 1.0")));

// ---------------------------------------------------------------------------------------

TEST(Polymerize, RestartContinuesExactly)
{
  LmpSession a;
  setup_system(a, "on", "lj 0.0 1.0 0.5");
  a.cmds({"fix 1 all nve", std::string(poly_fix) + " atype 1", "run 300"});
  const auto bonds_a = bonds_of(a.lmp);
  const auto state_a = state_of(a.lmp);
  const double conv_a = a.lmp->modify->get_fix_by_id("p")->compute_vector(0);

  const std::string rst = tmp_name("half.restart");
  LmpSession b;
  setup_system(b, "on", "lj 0.0 1.0 0.5");
  b.cmds({"fix 1 all nve", std::string(poly_fix) + " atype 1", "run 150", "write_restart " + rst,
          "clear", "read_restart " + rst, "pair_style lj/cut 2.5", "pair_coeff * * 1.0 1.0",
          "neighbor 0.3 bin", "comm_modify cutoff 4.0", "timestep 0.005", "fix 1 all nve",
          std::string(poly_fix) + " atype 1", "run 150"});
  remove(rst.c_str());
  EXPECT_GT(bonds_a.size(), 200u);
  EXPECT_EQ(bonds_of(b.lmp), bonds_a);
  EXPECT_EQ(state_of(b.lmp), state_a);
  EXPECT_EQ(b.lmp->atom->nbonds, (LAMMPS_NS::bigint) bonds_a.size());
  // conversion continues from the stored count of initial monomers and bonds made
  EXPECT_DOUBLE_EQ(b.lmp->modify->get_fix_by_id("p")->compute_vector(0), conv_a);
}

// ---------------------------------------------------------------------------------------
// kinetics: per reaction step an end with n free monomers inside rc reacts with probability
// 1 - (1 - P_r)^n (one accept test per candidate, GALAMOST's Algorithm 4), so the expected
// monomer consumption is sum over ends of that, with binomial variance sum p (1 - p); the
// counts n are measured here from the positions at the reaction step. Conflicts (two ends
// accepting one monomer) are of order P_r^2 and neglected. Eq. 21, -d[M]/dt = [P*] P_r/tau,
// is the one-candidate case; the ratio observed / ([P*] P_r) (the mean candidate factor) is
// printed.

int nsteps_kin()
{
  const char *e = getenv("POLY_KIN_STEPS");
  return e ? atoi(e) : 40;
}
void kinetics(double p_r)
{
  LmpSession s;
  setup_system(s, "on", "fene", 0.7, 8, false, 1.5);
  s.cmds({"fix 1 all nve", "fix 2 all langevin 1.2 1.2 1.0 9876", "run 500"});
  const int nevery = 20;
  const char *seed = getenv("POLY_SEED") ? getenv("POLY_SEED") : "22";
  s.cmd(fmt::format("fix p all polymerize {} {} prob 1 2 {} prob 3 2 {} rc 1.12246 btype 1 "
                    "jtype 2 3 init inits",
                    nevery, seed, p_r, p_r));
  s.cmd("run 0");
  auto *lmp = s.lmp;
  const double rcsq = 1.12246 * 1.12246;
  double expected = 0, var = 0, observed = 0, naive = 0;
  int conflicts = 0;
  for (int step = 0; step < nsteps_kin(); ++step) {
    auto before = state_of(lmp);    // the state the next reaction step starts from
    const auto nbonds0 = lmp->atom->nbonds;
    s.cmd(fmt::format("run {}", nevery));
    auto *atom = lmp->atom;
    double **x = atom->x;
    // candidates of each end at the reaction step (positions after it are those it used)
    int nends = 0;
    for (int i = 0; i < atom->nlocal; ++i) {
      if (before.at(atom->tag[i])[0] != 1.0) continue;
      ++nends;
      int ncand = 0;
      for (int j = 0; j < atom->nlocal; ++j) {
        const auto &sj = before.at(atom->tag[j]);
        if (j == i || sj[0] != 0.0 || sj[1] != 0.0) continue;
        double d[3] = {x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]};
        lmp->domain->minimum_image(FLERR, d);
        if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < rcsq) ++ncand;
      }
      const double p = 1.0 - std::pow(1.0 - p_r, ncand);
      // the rule itself (physics/chain_growth.h): an end reacts iff it accepted a candidate,
      // unless another end took that monomer (a conflict)
      int nacc = 0;
      for (int j = 0; j < atom->nlocal; ++j) {
        const auto &sj = before.at(atom->tag[j]);
        if (j == i || sj[0] != 0.0 || sj[1] != 0.0) continue;
        double d[3] = {x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]};
        lmp->domain->minimum_image(FLERR, d);
        if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= rcsq) continue;
        nacc += mesogpu::physics::chain_growth_uniform(atoi(seed), lmp->update->ntimestep,
                                                       atom->tag[i], atom->tag[j]) < p_r;
      }
      const bool reacted = lmp->modify->get_fix_by_id("p")->array_atom[i][0] == 0.0;
      EXPECT_FALSE(reacted && nacc == 0) << "end " << atom->tag[i] << " reacted, accepted none";
      conflicts += !reacted && nacc > 0;
      expected += p;
      var += p * (1.0 - p);
    }
    naive += nends * p_r;
    int nfree_before = 0, nfree_after = 0;
    for (auto &kv : before) nfree_before += kv.second[0] == 0.0 && kv.second[1] == 0.0;
    for (auto &kv : state_of(lmp)) nfree_after += kv.second[0] == 0.0 && kv.second[1] == 0.0;
    observed += nfree_before - nfree_after;
    EXPECT_EQ(lmp->atom->nbonds - nbonds0, nfree_before - nfree_after);
  }
  const double sigma = std::sqrt(var);
  printf("[ kinetics ] P_r %g: consumed %g, expected %.1f +- %.1f (%.2f sigma); eq. 21 with one "
         "candidate per end: %.1f (observed/that = %.2f)\n",
         p_r, observed, expected, sigma, (observed - expected) / sigma, naive, observed / naive);
  EXPECT_GT(expected, 100.0);
  EXPECT_LE(conflicts, 0.02 * observed + 1) << "conflicts";
  EXPECT_LT(std::fabs(observed - expected), 4.0 * sigma + 1.0)
      << "consumed " << observed << " expected " << expected << " +- " << sigma;
}

TEST(Polymerize, KineticsSmallP)
{
  kinetics(0.01);
}
TEST(Polymerize, KineticsLargerP)
{
  kinetics(0.04);
}

// ---------------------------------------------------------------------------------------

std::string error_in(const std::vector<std::string> &setup, const std::string &cmd,
                     bool angles = true, const std::string &box_extra = "")
{
  LmpSession s;
  s.cmds({"units lj", std::string("atom_style ") + (angles ? "angle" : "bond"), "lattice fcc 0.8",
          "region box block 0 3 0 3 0 3",
          "create_box 2 box bond/types 1 " +
              (box_extra.empty() ? std::string(angles ? "angle/types 1 extra/angle/per/atom 3 "
                                                        "extra/bond/per/atom 2 "
                                                        "extra/special/per/atom 6"
                                                      : "extra/bond/per/atom 2 "
                                                        "extra/special/per/atom 6")
                                 : box_extra),
          "create_atoms 2 box", "mass * 1.0", "group inits id 1 2"});
  s.cmds(setup);
  return s.error_of(cmd);
}

const std::vector<std::string> full_ff = {
    "pair_style lj/cut 2.5", "pair_coeff * * 1 1",  "bond_style fene",   "bond_coeff 1 10 1.2 1 1",
    "angle_style harmonic",  "angle_coeff 1 5 180", "special_bonds fene"};
const std::string good = "fix p all polymerize 10 5 prob 1 2 0.1 rc 1.12 btype 1 init inits";

void expect_error(const std::string &msg, const std::string &what)
{
  EXPECT_NE(msg.find(what), std::string::npos) << "expected '" << what << "' in: " << msg;
}

TEST(Polymerize, Errors)
{
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 prob 1 2 1.5 rc 1.12 btype 1"),
               "probability 1.5 for types 1 2 is outside [0, 1]");
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 prob 1 2 -0.1 rc 1.12 btype 1"),
               "outside [0, 1]");
  expect_error(error_in(full_ff, "fix p all polymerize 0 5 prob 1 2 0.1 rc 1.12 btype 1"),
               "Nevery must be > 0");
  expect_error(error_in(full_ff, "fix p all polymerize 10 0 prob 1 2 0.1 rc 1.12 btype 1"),
               "seed must be > 0");
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 prob 1 2 0.1 rc 1.12 btype 2"),
               "bond type 2 does not exist");
  expect_error(error_in(full_ff, good + " atype 2"), "angle type 2 does not exist");
  expect_error(error_in({}, good + " atype 1", false), "angle type 1 does not exist");
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 prob 1 2 0.1 btype 1"), "keyword rc");
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 prob 1 2 0.1 rc 1.1"), "keyword btype");
  expect_error(error_in(full_ff, "fix p all polymerize 10 5 rc 1.1 btype 1"), "prob itype");
  expect_error(error_in(full_ff, good + " init nogroup"), "initiator group nogroup");
  expect_error(error_in(full_ff, good + " bogus 1"), "unknown keyword bogus");
  expect_error(error_in(full_ff, good + " jtype 2 5"), "jtype 2 5");
  // at run time
  {
    LmpSession s;
    s.cmds({"units lj", "atom_style angle", "lattice fcc 0.8", "region box block 0 3 0 3 0 3",
            "create_box 2 box bond/types 1 extra/bond/per/atom 2 extra/special/per/atom 6",
            "create_atoms 2 box", "mass * 1.0", "group inits id 1 2", "pair_style lj/cut 2.5",
            "pair_coeff * * 1 1", good, "fix 1 all nve"});
    expect_error(s.error_of("run 0"), "needs a bond style");
  }
  {
    std::vector<std::string> no_angle(full_ff.begin(), full_ff.end());
    no_angle.erase(no_angle.begin() + 4, no_angle.begin() + 6);
    LmpSession s;
    s.cmds({"units lj", "atom_style angle", "lattice fcc 0.8", "region box block 0 3 0 3 0 3",
            "create_box 2 box bond/types 1 angle/types 1 extra/bond/per/atom 2 "
            "extra/angle/per/atom 3 extra/special/per/atom 6",
            "create_atoms 2 box", "mass * 1.0", "group inits id 1 2"});
    s.cmds(no_angle);
    s.cmd(good + " atype 1");
    expect_error(s.error_of("run 0"), "needs an angle style");
  }
  auto run_error = [&](const std::string &box_extra, const std::string &newton,
                       const std::string &fix, const std::string &extra = "") {
    LmpSession s;
    s.cmds({"units lj", "atom_style angle", "newton on " + newton, "lattice fcc 0.8",
            "region box block 0 3 0 3 0 3", "create_box 2 box bond/types 1 " + box_extra,
            "create_atoms 2 box", "mass * 1.0", "group inits id 1 2"});
    s.cmds(full_ff);
    if (!extra.empty()) s.cmd(extra);
    s.cmd(fix);
    return s.error_of("run 0");
  };
  expect_error(
      run_error("angle/types 1 extra/bond/per/atom 1 extra/special/per/atom 6", "on", good),
      "set extra/bond/per/atom");
  expect_error(run_error("angle/types 1 extra/bond/per/atom 2 extra/special/per/atom 6", "on",
                         "fix p all polymerize 10 5 prob 1 2 0.1 rc 2.9 btype 1"),
               "rc = 2.9 exceeds the neighbour cutoff 2.8");
  expect_error(run_error("angle/types 1 extra/bond/per/atom 2 extra/special/per/atom 2", "on", good,
                         "special_bonds lj 0 0 0"),
               "set extra/special/per/atom");
  expect_error(run_error("angle/types 1 extra/bond/per/atom 2 extra/special/per/atom 6 "
                         "extra/angle/per/atom 2",
                         "off", good + " atype 1"),
               "set extra/angle/per/atom");
  {
    LmpSession s;
    s.cmds({"units lj", "atom_style atomic", "lattice fcc 0.8", "region box block 0 3 0 3 0 3",
            "create_box 2 box", "create_atoms 2 box"});
    expect_error(s.error_of(good), "needs a molecular atom style");
  }
}

}    // namespace
