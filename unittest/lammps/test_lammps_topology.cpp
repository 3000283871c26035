/* The per-atom topology lists run_style verlet/cuda uploads (src/cuda/device_topology.cpp):
   the expansion of atom_style template's molecule templates equals the lists of the same
   molecules in atom_style molecular (LAMMPS stores those on the atoms, so this compares
   the template expansion against LAMMPS's own bookkeeping), with newton_bond on and off.
   No GPU needed. */

#include "atom.h"
#include "input.h"
#include "lammps.h"

#include "cuda/device_topology.h"
#include "lmp_session.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <mpi.h>
#include <string>
#include <vector>

namespace {

std::string inputs()
{
  const char *env = getenv("MESOGPU_SOURCE_DIR");
  return std::string(env ? env : MESOGPU_SOURCE_DIR) + "/unittest/gpu/inputs/template";
}

// cyclohexane molecules (LAMMPS examples/template) placed by create_atoms with the same
// seeds, in atom_style template or molecular
void cyclohexanes(LmpSession &l, bool tmpl, bool newton_bond)
{
  l.cmds({"units real", std::string("newton on ") + (newton_bond ? "on" : "off"), "boundary p p p",
          "molecule cychex " + inputs() + "/cyclohexane.mol",
          tmpl ? "atom_style template cychex" : "atom_style molecular", "atom_modify map array",
          "region box block -15 15 -15 15 -15 15",
          tmpl ? "create_box 2 box bond/types 1 angle/types 1 dihedral/types 1"
               : "create_box 2 box bond/types 1 angle/types 1 dihedral/types 1 "
                 "extra/bond/per/atom 2 extra/angle/per/atom 3 extra/dihedral/per/atom 4 "
                 "extra/special/per/atom 8",
          "create_atoms 0 random 40 4711 NULL mol cychex 815", "create_atoms 2 random 30 99 NULL",
          "mass * 14.0"});
}

// each atom's lists as atom IDs, sorted (the order within an atom's list is free)
using PerTag = std::map<long, std::vector<std::vector<long>>>;
struct Canonical {
  PerTag special, bonds, angles, dihedrals;
};

Canonical canonical(LAMMPS_NS::LAMMPS *lmp, bool with_special)
{
  auto *atom = lmp->atom;
  mesogpu::DeviceTopology t;
  mesogpu::build_device_topology(
      lmp,
      [&](LAMMPS_NS::tagint tag, const char *, int) {
        const int j = atom->map(tag);
        EXPECT_GE(j, 0) << "missing atom " << tag;
        return j;
      },
      with_special, true, true, true, t);
  Canonical c;
  const int n = atom->nlocal;
  auto tag = [&](int i) { return (long) atom->tag[i]; };
  for (int i = 0; i < n; i++) {
    auto &sp = c.special[tag(i)];
    if (t.maxspecial > 0)
      for (int s = 0; s < t.nspecial[3 * i + 2]; s++) {
        const int level = s < t.nspecial[3 * i] ? 1 : s < t.nspecial[3 * i + 1] ? 2 : 3;
        sp.push_back({level, tag(t.special[(size_t) i * t.maxspecial + s])});
      }
    auto &b = c.bonds[tag(i)];
    for (int k = 0; k < (t.maxbond ? t.nbond[i] : 0); k++)
      b.push_back({tag(t.bond_partner[(size_t) i * t.maxbond + k]),
                   t.bond_type[(size_t) i * t.maxbond + k]});
    auto terms = [&](int nper, int maxn, const std::vector<int> &cnt, const std::vector<int> &at,
                     const std::vector<int> &ty, std::vector<std::vector<long>> &out) {
      for (int k = 0; k < (maxn ? cnt[i] : 0); k++) {
        const size_t slot = (size_t) i * maxn + k;
        std::vector<long> e;
        for (int a = 0; a < nper; a++) e.push_back(tag(at[slot * nper + a]));
        e.push_back(ty[slot]);
        out.push_back(e);
      }
    };
    terms(3, t.maxangle, t.nangle, t.angle_atoms, t.angle_type, c.angles[tag(i)]);
    terms(4, t.maxdihedral, t.ndihedral, t.dihedral_atoms, t.dihedral_type, c.dihedrals[tag(i)]);
    for (auto *v : {&sp, &b, &c.angles[tag(i)], &c.dihedrals[tag(i)]})
      std::sort(v->begin(), v->end());
  }
  return c;
}

size_t entries(const PerTag &p)
{
  size_t s = 0;
  for (auto &kv : p) s += kv.second.size();
  return s;
}

}    // namespace

TEST(DeviceTopology, TemplateExpansionEqualsMolecular)
{
  for (bool newton_bond : {true, false}) {
    LmpSession tm, mo;
    cyclohexanes(tm, true, newton_bond);
    cyclohexanes(mo, false, newton_bond);
    ASSERT_EQ(tm.lmp->atom->molecular, LAMMPS_NS::Atom::TEMPLATE);
    ASSERT_EQ(mo.lmp->atom->molecular, LAMMPS_NS::Atom::MOLECULAR);
    ASSERT_EQ(tm.lmp->atom->natoms, 270);
    // the upload keys on these counts (verlet_cuda.cpp: have_bonds, ...)
    EXPECT_EQ(tm.lmp->atom->nbonds, 240);
    EXPECT_EQ(tm.lmp->atom->nangles, 240);
    EXPECT_EQ(tm.lmp->atom->ndihedrals, 240);
    EXPECT_EQ(mo.lmp->atom->nbonds, 240);
    const Canonical a = canonical(tm.lmp, true), b = canonical(mo.lmp, true);
    // 40 rings of 6: 6 bonds, angles, dihedrals each; every atom of a term lists it with
    // newton_bond, the atom storing it without (bonds: both directions with newton_bond)
    const size_t nb = newton_bond ? 2 * 240 : 240;
    EXPECT_EQ(entries(a.bonds), newton_bond ? nb : entries(b.bonds));
    if (newton_bond) {
      EXPECT_EQ(entries(a.angles), 3u * 240);
      EXPECT_EQ(entries(a.dihedrals), 4u * 240);
    }
    EXPECT_GT(entries(a.special), 0u);
    EXPECT_EQ(a.special, b.special) << "newton_bond " << newton_bond;
    EXPECT_EQ(a.bonds, b.bonds) << "newton_bond " << newton_bond;
    EXPECT_EQ(a.angles, b.angles) << "newton_bond " << newton_bond;
    EXPECT_EQ(a.dihedrals, b.dihedrals) << "newton_bond " << newton_bond;
    // methane (no molecule: template index 0 -> molindex -1) has empty lists
    for (int i = 0; i < tm.lmp->atom->nlocal; i++)
      if (tm.lmp->atom->molindex[i] < 0) {
        EXPECT_TRUE(a.bonds.at(tm.lmp->atom->tag[i]).empty());
        EXPECT_TRUE(a.special.at(tm.lmp->atom->tag[i]).empty());
      }
  }
}
