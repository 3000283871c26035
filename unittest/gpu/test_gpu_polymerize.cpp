/* GPU tests of fix polymerize/cuda (cuda/topology/chain_growth.cu, src/cuda/
   fix_polymerize_cuda.cpp) against fix polymerize on the CPU. Both instances start from
   the same data file (same atom IDs, positions, velocities) with the same seed; the CPU
   one runs run_style verlet, the device one verlet/cuda.
   - Identity: with the same positions both make the same decisions (physics/chain_growth.h
     on tags and the step), so the bond sets, the per-atom state (init, cris, chain
     position, type), the special lists and the fix's global vector must be equal.
     Static atoms (no integrator): the positions are the data file's in any precision, so
     this holds in mixed and double (single: distances in float, checked by the laws only).
     Moving atoms (fix nve): the trajectories agree to rounding in double precision only;
     there the identity is required, in mixed/single the laws below.
     Cases: a cutoff far above rc; rc at the neighbour cutoff (the device list is rebuilt
     for the reaction step); a small periodic box (the device list's explicit images).
   - Laws, in every precision, from LAMMPS's arrays of the device instance: no monomer in
     two chains, linear chains from the initiators, cris = degree, chain position = distance
     from the initiator, the active end at the far end, types changed, bonds = reactions =
     the fix's count, thermo 'bonds', the vector (conversion, ends, Mn, Mw, PDI) recomputed
     from the graph, and the special lists equal to those LAMMPS's Special::build makes from
     a write_data/read_data of the grown system.
   - Errors of resident runs: atype, a pair style without a device list, a full bond list.
   Needs a GPU: exits 77 (ctest "skipped") otherwise. */

#include "gpu_test_main.h"
#include "atom.h"
#include "domain.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"
#include "update.h"

#include "gpu/gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpi.h>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using gpu_test::S;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const char *PREC = "double";
const bool MOVING_IDENTITY = true, STATIC_IDENTITY = true;
#elif defined(MESOGPU_PREC_SINGLE)
const char *PREC = "single";
const bool MOVING_IDENTITY = false, STATIC_IDENTITY = false;
#else
const char *PREC = "mixed";
const bool MOVING_IDENTITY = false, STATIC_IDENTITY = true;
#endif

using tagint = LAMMPS_NS::tagint;

std::string tmp_name(const std::string &stem)
{
  return "gpu_polymerize_" + std::to_string(getpid()) + "_" + stem;
}

// fcc LJ liquid-like start: monomers type 2, a fraction of initiators type 1, velocities
void write_start(const std::string &path, int cells, double frac_init)
{
  LmpSession s;
  const std::string c = std::to_string(cells);
  s.cmds({"units lj", "atom_style bond", "lattice fcc 0.8",
          "region box block 0 " + c + " 0 " + c + " 0 " + c, "create_box 3 box bond/types 1",
          "create_atoms 2 box",
          "set type 2 type/fraction 1 " + std::to_string(frac_init) + " 12345", "mass * 1.0",
          "velocity all create 1.0 4928 loop geom",
          // displace off the lattice so that no distance sits at a lattice value
          "displace_atoms all random 0.08 0.08 0.08 777", "write_data " + path});
}

struct Case {
  std::string name;
  int cells;
  double frac_init, cut, rc;
  int nevery, nsteps;
  bool moving;
};

// one instance: the data file, lj/cut + bond harmonic, special lists to 1-4
void load(LmpSession &s, bool dev, const std::string &data, const Case &c,
          const std::string &extra_fix = "")
{
  s.cmds({"units lj", "atom_style bond",
          "read_data " + data + " extra/bond/per/atom 2 extra/special/per/atom 6",
          "pair_style " + S(dev, "lj/cut") + " " + std::to_string(c.cut), "pair_coeff * * 1.0 1.0",
          "bond_style " + S(dev, "harmonic"), "bond_coeff 1 30.0 1.0",
          "special_bonds lj/coul 0.0 0.5 0.8", "neighbor 0.3 bin", "group inits type 1",
          "timestep 0.005", "thermo 0"});
  if (dev) s.cmd("run_style verlet/cuda");
  if (c.moving) s.cmd("fix 1 all " + S(dev, "nve"));
  s.cmd("fix p all " + S(dev, "polymerize") + " " + std::to_string(c.nevery) +
        " 4321 prob 1 2 0.6 prob 3 2 0.6 rc " + std::to_string(c.rc) +
        " btype 1 jtype 2 3 init inits" + extra_fix);
}

std::map<std::pair<tagint, tagint>, int> bonds_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::map<std::pair<tagint, tagint>, int> b;
  auto *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i)
    for (int k = 0; k < atom->num_bond[i]; ++k) {
      const tagint a = atom->tag[i], c = atom->bond_atom[i][k];
      b[{std::min(a, c), std::max(a, c)}] += 1;    // a bond stored twice counts 2
    }
  return b;
}

// tag -> init, cris, chain position, type
std::map<tagint, std::vector<double>> state_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::map<tagint, std::vector<double>> st;
  double **a = lmp->modify->get_fix_by_id("p")->array_atom;
  for (int i = 0; i < lmp->atom->nlocal; ++i)
    st[lmp->atom->tag[i]] = {a[i][0], a[i][1], a[i][2], (double) lmp->atom->type[i]};
  return st;
}

using Specials = std::map<tagint, std::vector<std::set<tagint>>>;
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

// largest |x_dev - x_cpu| over atoms matched by ID (unwrapped with the images)
double max_position_diff(LAMMPS_NS::LAMMPS *a, LAMMPS_NS::LAMMPS *b)
{
  auto unwrapped = [](LAMMPS_NS::LAMMPS *lmp) {
    std::map<tagint, std::vector<double>> u;
    auto *atom = lmp->atom;
    for (int i = 0; i < atom->nlocal; ++i) {
      double x[3];
      lmp->domain->unmap(atom->x[i], atom->image[i], x);
      u[atom->tag[i]] = {x[0], x[1], x[2]};
    }
    return u;
  };
  const auto ua = unwrapped(a), ub = unwrapped(b);
  double worst = ua.size() == ub.size() ? 0.0 : 1e300;
  for (auto &kv : ua) {
    auto it = ub.find(kv.first);
    if (it == ub.end()) return 1e300;
    for (int d = 0; d < 3; ++d) worst = std::max(worst, std::fabs(kv.second[d] - it->second[d]));
  }
  return worst;
}

std::vector<double> vector_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::vector<double> v;
  auto *f = lmp->modify->get_fix_by_id("p");
  for (int k = 0; k < 8; ++k) v.push_back(f->compute_vector(k));
  return v;
}

// the laws of linear chain growth on the instance's arrays; returns the bonds made
size_t check_laws(LmpSession &s, const std::string &what)
{
  auto *lmp = s.lmp;
  auto *atom = lmp->atom;
  const auto bonds = bonds_of(lmp);
  const auto st = state_of(lmp);
  std::map<tagint, std::vector<tagint>> adj;
  for (auto &b : bonds) {
    EXPECT_EQ(b.second, 1) << what << ": bond " << b.first.first << "-" << b.first.second
                           << " stored " << b.second << " times";
    adj[b.first.first].push_back(b.first.second);
    adj[b.first.second].push_back(b.first.first);
  }
  EXPECT_EQ(atom->nbonds, (LAMMPS_NS::bigint) bonds.size()) << what;
  EXPECT_EQ(s.thermo("bonds"), (double) bonds.size()) << what;
  auto *fix = lmp->modify->get_fix_by_id("p");
  EXPECT_EQ(fix->compute_vector(2), (double) bonds.size()) << what << ": bonds = reactions";

  std::vector<tagint> inits;
  for (auto &kv : st)
    if (kv.second[3] == 1.0) inits.push_back(kv.first);
  std::set<tagint> seen;
  double sum_dp = 0, sum_dp2 = 0, grown = 0;
  for (auto t0 : inits) {
    EXPECT_LE(adj[t0].size(), 1u) << what << ": initiator " << t0;
    std::vector<tagint> path = {t0};
    tagint prev = 0, cur = t0;
    for (;;) {
      if (!seen.insert(cur).second) {
        ADD_FAILURE() << what << ": atom " << cur << " in two chains (captured twice)";
        return bonds.size();
      }
      EXPECT_LE(adj[cur].size(), 2u) << what << ": atom " << cur << ": chain not linear";
      tagint next = 0;
      for (auto nb : adj[cur])
        if (nb != prev) next = nb;
      if (!next) break;
      prev = cur;
      cur = next;
      path.push_back(cur);
    }
    for (size_t k = 0; k < path.size(); ++k) {
      const auto &sv = st.at(path[k]);
      EXPECT_EQ(sv[0], k + 1 == path.size() ? 1.0 : 0.0) << what << ": init of " << path[k];
      EXPECT_EQ(sv[1], (double) adj[path[k]].size()) << what << ": cris of " << path[k];
      EXPECT_EQ(sv[2], (double) k) << what << ": chain position of " << path[k];
      if (k > 0) EXPECT_EQ(sv[3], 3.0) << what << ": type of chain monomer " << path[k];
    }
    const double dp = path.size() - 1;
    if (dp >= 1) {
      grown += 1;
      sum_dp += dp;
      sum_dp2 += dp * dp;
    }
  }
  for (auto &kv : st)    // everything else: a free monomer of type 2 without bonds
    if (!seen.count(kv.first)) {
      EXPECT_EQ(adj.count(kv.first), 0u) << what << ": atom " << kv.first;
      EXPECT_EQ(kv.second[0] + kv.second[1] + kv.second[2], 0.0) << what << ": " << kv.first;
      EXPECT_EQ(kv.second[3], 2.0) << what << ": atom " << kv.first;
    }
  const double nmono0 = (double) st.size() - (double) inits.size();
  EXPECT_DOUBLE_EQ(fix->compute_vector(0), (double) bonds.size() / nmono0) << what;
  EXPECT_EQ(fix->compute_vector(1), (double) inits.size()) << what;
  EXPECT_EQ(fix->compute_vector(7), grown) << what;
  if (grown > 0) {
    EXPECT_NEAR(fix->compute_vector(4), sum_dp / grown, 1e-12) << what;
    EXPECT_NEAR(fix->compute_vector(5), sum_dp2 / sum_dp, 1e-12) << what;
    EXPECT_NEAR(fix->compute_vector(6), (sum_dp2 / sum_dp) / (sum_dp / grown), 1e-12) << what;
  }

  // the special lists Special::build makes from the written topology
  const std::string data = tmp_name("grown.data");
  s.cmd("write_data " + data + " nocoeff");
  LmpSession f;
  f.cmds({"units lj", "atom_style bond", "special_bonds lj/coul 0.0 0.5 0.8",
          "read_data " + data + " extra/special/per/atom 6"});
  remove(data.c_str());
  EXPECT_EQ(specials_of(lmp), specials_of(f.lmp)) << what << ": special lists";
  return bonds.size();
}

class Growth : public ::testing::TestWithParam<Case> {};

TEST_P(Growth, DeviceAgainstCpu)
{
  const Case c = GetParam();
  const std::string data = tmp_name(c.name + ".data");
  write_start(data, c.cells, c.frac_init);
  LmpSession cpu, dev;
  load(cpu, false, data, c);
  load(dev, true, data, c);
  remove(data.c_str());
  const std::string run = "run " + std::to_string(c.nsteps) + " post no";
  cpu.cmd(run);
  dev.cmd(run);
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  ASSERT_EQ(std::string(dev.lmp->modify->get_fix_by_id("p")->style), "polymerize/cuda");

  const size_t made_cpu = check_laws(cpu, c.name + " cpu");
  const size_t made_dev = check_laws(dev, c.name + " device");
  EXPECT_GT(made_dev, 10u) << "the test needs growth";
  printf("[gpu] %s: %zu bonds on the device, %zu on the CPU (%s)\n", c.name.c_str(), made_dev,
         made_cpu, PREC);

  const bool identity = c.moving ? MOVING_IDENTITY : STATIC_IDENTITY;
  if (!identity) return;
  EXPECT_EQ(bonds_of(dev.lmp), bonds_of(cpu.lmp)) << c.name << ": bond sets";
  EXPECT_EQ(state_of(dev.lmp), state_of(cpu.lmp)) << c.name << ": per-atom state and types";
  EXPECT_EQ(specials_of(dev.lmp), specials_of(cpu.lmp)) << c.name << ": special lists";
  EXPECT_EQ(vector_of(dev.lmp), vector_of(cpu.lmp)) << c.name << ": global vector";
  // the same trajectory: bonded forces of the new bonds included (double: to rounding)
  const double dx = max_position_diff(dev.lmp, cpu.lmp);
  printf("[gpu] %s: trajectory max |dx| %.3g after %d steps (%s)\n", c.name.c_str(), dx, c.nsteps,
         PREC);
  if (c.moving && std::string(PREC) == "double") EXPECT_LT(dx, 1e-9) << c.name << ": positions";

  // and a second run continues from the downloaded state
  cpu.cmd(run);
  dev.cmd(run);
  EXPECT_EQ(bonds_of(dev.lmp), bonds_of(cpu.lmp)) << c.name << ": bond sets, second run";
  EXPECT_EQ(state_of(dev.lmp), state_of(cpu.lmp)) << c.name << ": state, second run";
  EXPECT_EQ(vector_of(dev.lmp), vector_of(cpu.lmp)) << c.name << ": vector, second run";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Growth,
    ::testing::Values(
        // no integrator: the positions of the data file (identity in mixed too)
        Case{"static", 6, 0.05, 2.5, 1.3, 2, 10, false},
        // lj/cut 2.5: the list reaches far beyond rc
        Case{"moving", 6, 0.05, 2.5, 1.12246, 10, 200, true},
        // WCA cutoff: rc = 1.42 next to cut + skin = 1.42246, the list is rebuilt for the
        // reaction steps
        Case{"rc_at_list_cutoff", 6, 0.05, 1.12246, 1.42, 5, 100, true},
        // 3 fcc cells (5.13 < 2 x 2.8): the device list holds explicit images
        Case{"small_box", 3, 0.15, 2.5, 1.3, 5, 50, true}),
    [](const ::testing::TestParamInfo<Case> &i) { return i.param.name; });

// ---- errors of resident runs --------------------------------------------------------

bool has(const std::string &text, const std::string &part)
{
  return text.find(part) != std::string::npos;
}

TEST(GpuPolymerize, Errors)
{
  const Case c{"errors", 4, 0.1, 2.5, 1.3, 1, 5, false};
  const std::string data = tmp_name("errors.data");
  write_start(data, c.cells, c.frac_init);
  {    // atype: no angles on the device
    LmpSession s;
    s.cmds({"units lj", "atom_style angle",
            "read_data " + data +
                " extra/bond/per/atom 2 extra/special/per/atom 6 "
                "extra/angle/per/atom 1 extra/angle/types 1",
            "pair_style lj/cut/cuda 2.5", "pair_coeff * * 1.0 1.0", "bond_style harmonic/cuda",
            "bond_coeff 1 30.0 1.0", "angle_style harmonic/cuda", "angle_coeff 1 5.0 180.0",
            "group inits type 1", "run_style verlet/cuda",
            "fix p all polymerize/cuda 1 4321 prob 1 2 0.6 rc 1.3 btype 1 init inits atype 1"});
    const std::string m = s.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "keyword atype is not supported in resident runs")) << m;
  }
  {    // pair zero/cuda builds no device list
    LmpSession s;
    s.cmds({"units lj", "atom_style bond",
            "read_data " + data + " extra/bond/per/atom 2 extra/special/per/atom 6",
            "pair_style zero/cuda 2.5", "pair_coeff * *", "bond_style harmonic/cuda",
            "bond_coeff 1 30.0 1.0", "group inits type 1", "run_style verlet/cuda",
            "fix p all polymerize/cuda 1 4321 prob 1 2 0.6 rc 1.3 btype 1 init inits"});
    const std::string m = s.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "device neighbour list")) << m;
    EXPECT_TRUE(has(m, "zero/cuda")) << m;
  }
  {    // an initiator storing two bonds already, room for two: no room left for new bonds
    LmpSession s;
    load(s, true, data, c);
    auto *atom = s.lmp->atom;
    tagint init = 0;
    for (int i = 0; i < atom->nlocal && !init; ++i)
      if (atom->type[i] == 1) init = atom->tag[i];
    ASSERT_GT(init, 0);
    // two monomers with higher IDs than the initiator (the bonds are stored on it)
    std::vector<tagint> partners;
    for (int i = 0; i < atom->nlocal && partners.size() < 2; ++i)
      if (atom->type[i] == 2 && atom->tag[i] > init) partners.push_back(atom->tag[i]);
    ASSERT_EQ(partners.size(), 2u);
    for (tagint p : partners)
      s.cmd("create_bonds single/bond 1 " + std::to_string(init) + " " + std::to_string(p) +
            " special yes");
    s.cmd("fix p all polymerize/cuda 1 4321 prob 1 2 1.0 prob 3 2 1.0 rc 1.3 btype 1 init "
          "inits");
    const std::string m = s.error_of("run 2 post no");
    EXPECT_TRUE(has(m, "extra/bond/per/atom")) << m;
  }
  remove(data.c_str());
}

}    // namespace

int main(int argc, char **argv)
{
  return gpu_test::run_gpu_tests(argc, argv);
}
