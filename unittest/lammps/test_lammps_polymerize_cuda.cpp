/* fix polymerize/cuda as far as it works without a GPU (CI): registration, -sf cuda picking
   it, the CPU fallback outside verlet/cuda (the reaction at initial_integrate after the
   integrators, identical to fix polymerize at post_integrate), the init errors of resident
   runs (they come before any device work, so the same with or without a GPU), and the
   64-bit claim key of the device's conflict resolution against better_candidate. The
   device side is tested in unittest/gpu/test_gpu_polymerize.cpp. */

#include "atom.h"
#include "fix.h"
#include "info.h"
#include "lammps.h"
#include "modify.h"

#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "physics/chain_growth.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <map>
#include <mpi.h>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using tagint = LAMMPS_NS::tagint;

// an LJ liquid with 5 % initiators (type 1); monomers type 2 turn into type 3 in a chain;
// style names get /cuda when dev
void setup_system(LmpSession &s, bool dev, bool angles = true, bool extra = true)
{
  const std::string c = dev ? "/cuda" : "";
  s.cmds({"units lj", std::string("atom_style ") + (angles ? "angle" : "bond"), "lattice fcc 0.8",
          "region box block 0 5 0 5 0 5",
          std::string("create_box 3 box bond/types 1 ") +
              (extra ? "extra/bond/per/atom 2 extra/special/per/atom 6 " : "") +
              (angles ? "angle/types 1 extra/angle/per/atom 3" : ""),
          "create_atoms 2 box", "set type 2 type/fraction 1 0.05 12345", "mass * 1.0",
          "velocity all create 1.0 4928 loop geom", "pair_style lj/cut" + c + " 2.5",
          "pair_coeff * * 1.0 1.0", "bond_style fene" + c, "bond_coeff 1 10.0 1.2 1.0 1.0",
          "special_bonds fene", "neighbor 0.3 bin", "comm_modify cutoff 4.0", "group inits type 1",
          "timestep 0.005", "thermo_modify warn 0"});
  if (angles) s.cmds({"angle_style harmonic" + c, "angle_coeff 1 5.0 180.0"});
}

const std::string poly_args = " 10 4321 prob 1 2 0.5 prob 3 2 0.5 rc 1.12246 btype 1 jtype 2 3 "
                              "init inits";

bool has(const std::string &text, const std::string &part)
{
  return text.find(part) != std::string::npos;
}

std::set<std::pair<tagint, tagint>> bonds_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::set<std::pair<tagint, tagint>> b;
  auto *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i)
    for (int k = 0; k < atom->num_bond[i]; ++k) {
      const tagint a = atom->tag[i], c = atom->bond_atom[i][k];
      b.insert({std::min(a, c), std::max(a, c)});
    }
  return b;
}

// tag -> state, type, position, special list
std::map<tagint, std::vector<double>> atoms_of(LAMMPS_NS::LAMMPS *lmp)
{
  std::map<tagint, std::vector<double>> st;
  auto *atom = lmp->atom;
  double **a = lmp->modify->get_fix_by_id("p")->array_atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    auto &v = st[atom->tag[i]];
    v = {a[i][0],       a[i][1],       a[i][2],       (double) atom->type[i],
         atom->x[i][0], atom->x[i][1], atom->x[i][2], (double) atom->num_angle[i]};
    for (int l = 0; l < 3; ++l) v.push_back(atom->nspecial[i][l]);
    for (int k = 0; k < atom->nspecial[i][2]; ++k) v.push_back(atom->special[i][k]);
  }
  return st;
}

}    // namespace

TEST(PolymerizeCuda, Registered)
{
  LmpSession l;
  LAMMPS_NS::Info info(l.lmp);
  EXPECT_TRUE(info.has_style("fix", "polymerize/cuda"));
  EXPECT_TRUE(info.has_style("fix", "polymerize"));
}

TEST(PolymerizeCuda, SuffixPicksIt)
{
  LmpSession l(true);
  setup_system(l, false);
  l.cmds({"fix 1 all nve", "fix p all polymerize" + poly_args});
  EXPECT_EQ(std::string(l.lmp->modify->get_fix_by_id("p")->style), "polymerize/cuda");
}

// outside verlet/cuda the fix is the CPU one, at initial_integrate after fix nve: the same
// trajectory, bonds, angles, specials, state and vector, exactly
TEST(PolymerizeCuda, HostFallbackEqualsParent)
{
  LmpSession a, b;
  setup_system(a, false);
  setup_system(b, false);
  a.cmds({"fix 1 all nve", "fix p all polymerize" + poly_args + " atype 1", "run 200 post no"});
  b.cmds(
      {"fix 1 all nve", "fix p all polymerize/cuda" + poly_args + " atype 1", "run 200 post no"});
  const auto bonds = bonds_of(a.lmp);
  EXPECT_GT(bonds.size(), 50u) << "the test needs growth";
  EXPECT_EQ(bonds_of(b.lmp), bonds);
  EXPECT_EQ(atoms_of(b.lmp), atoms_of(a.lmp));
  EXPECT_EQ(b.lmp->atom->nangles, a.lmp->atom->nangles);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(b.lmp->modify->get_fix_by_id("p")->compute_vector(k),
              a.lmp->modify->get_fix_by_id("p")->compute_vector(k))
        << "vector " << k;
}

// the reaction needs the positions after the drift: an integrator defined later is an error
TEST(PolymerizeCuda, MustFollowIntegrators)
{
  LmpSession l;
  setup_system(l, false);
  l.cmds({"fix p all polymerize/cuda" + poly_args, "fix 1 all nve"});
  const std::string m = l.error_of("run 1 post no");
  EXPECT_TRUE(has(m, "Fix polymerize/cuda (ID p) reacts at the initial_integrate stage")) << m;
  EXPECT_TRUE(has(m, "define it after fix 1 (style nve)")) << m;
}

TEST(PolymerizeCuda, ResidentRunRefuses)
{
  {    // atype: no angles are made on the device
    LmpSession l;
    setup_system(l, true);
    l.cmds({"fix 1 all nve/cuda", "fix p all polymerize/cuda" + poly_args + " atype 1",
            "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "Fix polymerize/cuda (ID p): keyword atype is not supported in resident "
                       "runs"))
        << m;
  }
  {    // dynamic group
    LmpSession l;
    setup_system(l, true, false);
    l.cmds({"region half block 0 2.5 INF INF INF INF", "group dyn dynamic all region half",
            "fix 1 all nve/cuda", "fix p dyn polymerize/cuda" + poly_args,
            "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "dynamic group dyn is not supported in resident runs")) << m;
  }
  {    // no room for bonds: fix polymerize's own check, the same in resident runs
    LmpSession l;
    setup_system(l, true, false, false);
    l.cmds(
        {"fix 1 all nve/cuda", "fix p all polymerize/cuda" + poly_args, "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "extra/bond/per/atom")) << m;
  }
  // valid input passes init: without a GPU the run stops only at the device
  if (mesogpu::cuda::device_count() == 0) {
    LmpSession l(true);
    setup_system(l, false, false);
    l.cmds({"fix 1 all nve", "fix p all polymerize" + poly_args});
    const std::string m = l.error_of("run 1 post no");
    EXPECT_TRUE(has(m, "no CUDA device is visible")) << m;
  }
}

// the device settles a monomer claimed by several ends with atomicMin of candidate_key(u,
// tag): its order must be better_candidate's, ties in u included
TEST(PolymerizeCuda, CandidateKeyOrdersAsBetterCandidate)
{
  namespace phys = mesogpu::physics;
  std::mt19937_64 rng(42);
  int checked = 0;
  for (int t = 0; t < 200000; ++t) {
    // u as chain_growth_uniform gives it: k 2^-32; few distinct k so that ties occur
    const uint32_t ka = (uint32_t) (rng() % 64) * 0x03FFFFFFu + (uint32_t) (rng() % 2),
                   kb = (uint32_t) (rng() % 64) * 0x03FFFFFFu + (uint32_t) (rng() % 2);
    const double ua = phys::uniform01(ka), ub = phys::uniform01(kb);
    const int64_t ta = 1 + (int64_t) (rng() % 2000000000), tb = 1 + (int64_t) (rng() % 50);
    const bool better = phys::better_candidate(ua, ta, ub, tb);
    const bool key_less = phys::candidate_key(ua, ta) < phys::candidate_key(ub, tb);
    ASSERT_EQ(better, key_less) << "u " << ua << " tag " << ta << " vs u " << ub << " tag " << tb;
    ++checked;
  }
  // the extremes: the largest draw, the largest 32-bit tag
  const double umax = phys::uniform01(0xFFFFFFFFu);
  EXPECT_LT(phys::candidate_key(0.0, 7), phys::candidate_key(umax, 1));
  EXPECT_LT(phys::candidate_key(umax, 1), phys::candidate_key(umax, 0xFFFFFFFFll));
  EXPECT_EQ(phys::candidate_key(umax, 3) >> 32, 0xFFFFFFFFull);
  // a real draw: the key's high word is the draw's 32 bits
  const double u = phys::chain_growth_uniform(4321, 1234567, 17, 99);
  EXPECT_EQ(phys::uniform01((uint32_t) (phys::candidate_key(u, 5) >> 32)), u);
  EXPECT_EQ(checked, 200000);
}
