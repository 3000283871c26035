/* The test system of the topology rows of molecular atoms (src/cuda/owned_topology.cpp),
   shared by the LAMMPS-level test (the host mirror of the device's resolution) and the GPU
   test (the device's own): cyclohexane rings placed at random in a periodic box (many
   cross its sides), charged (atom_style full), with ghosts after 'run 0' (ghost cutoff
   6 A); and the host path's lists of owned atoms and ghosts, the reference of both. */
#ifndef MESOGPU_UNITTEST_RINGS_TOPOLOGY_TEST_H
#define MESOGPU_UNITTEST_RINGS_TOPOLOGY_TEST_H

#include "atom.h"
#include "domain.h"
#include "lammps.h"

#include "cuda/device_topology.h"
#include "lmp_session.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>

namespace rings_test {

inline std::string inputs()
{
  const char *env = getenv("MESOGPU_SOURCE_DIR");
  return std::string(env ? env : MESOGPU_SOURCE_DIR) + "/unittest/gpu/inputs/template";
}

inline void rings(LmpSession &l, bool newton_bond)
{
  l.cmds({"units real",
          std::string("newton on ") + (newton_bond ? "on" : "off"),
          "boundary p p p",
          "molecule cychex " + inputs() + "/cyclohexane.mol",
          "atom_style full",
          "atom_modify map array",
          "region box block -12 12 -12 12 -12 12",
          "create_box 2 box bond/types 1 angle/types 1 dihedral/types 1 "
          "extra/bond/per/atom 2 extra/angle/per/atom 3 extra/dihedral/per/atom 4 "
          "extra/special/per/atom 8",
          "create_atoms 0 random 30 4711 NULL mol cychex 815",
          "create_atoms 2 random 20 99 NULL",
          "mass * 14.0",
          "set type 1 charge -0.25",
          "set type 2 charge 0.5",
          "pair_style zero 5.0",
          "pair_coeff * *",
          "bond_style zero",
          "bond_coeff *",
          "angle_style zero",
          "angle_coeff *",
          "dihedral_style zero",
          "dihedral_coeff *",
          "comm_modify cutoff 6.0",
          "run 0 post no"});
}

// the host path's lists of owned atoms and ghosts (verlet_cuda.cpp upload(), several
// ranks): partners by the atom map and the closest image; only a special partner may lie
// beyond the ghosts
inline mesogpu::DeviceTopology host_path(LAMMPS_NS::LAMMPS *lmp)
{
  auto *atom = lmp->atom;
  mesogpu::DeviceTopology t;
  mesogpu::build_device_topology(
      lmp,
      [&](LAMMPS_NS::tagint tag, const char *what, int i) {
        const int m = atom->map(tag);
        if (m >= 0) return lmp->domain->closest_image(i, m);
        EXPECT_EQ(std::string(what), "special list") << "missing atom " << tag;
        return -1;
      },
      true, true, true, true, t, atom->nlocal + atom->nghost);
  return t;
}

// two sets of per-row lists (the host path's DeviceTopology, the resolution's lists) equal
// entry by entry and in order
template <class Got, class Want>
void expect_same_lists(const Got &got, const Want &want, const std::string &what)
{
  EXPECT_EQ(got.maxspecial, want.maxspecial) << what;
  EXPECT_EQ(got.nspecial, want.nspecial) << what;
  EXPECT_EQ(got.special, want.special) << what;
  EXPECT_EQ(got.maxbond, want.maxbond) << what;
  EXPECT_EQ(got.nbond, want.nbond) << what;
  EXPECT_EQ(got.bond_partner, want.bond_partner) << what;
  EXPECT_EQ(got.bond_type, want.bond_type) << what;
  EXPECT_EQ(got.maxangle, want.maxangle) << what;
  EXPECT_EQ(got.nangle, want.nangle) << what;
  EXPECT_EQ(got.angle_atoms, want.angle_atoms) << what;
  EXPECT_EQ(got.angle_type, want.angle_type) << what;
  EXPECT_EQ(got.maxdihedral, want.maxdihedral) << what;
  EXPECT_EQ(got.ndihedral, want.ndihedral) << what;
  EXPECT_EQ(got.dihedral_atoms, want.dihedral_atoms) << what;
  EXPECT_EQ(got.dihedral_type, want.dihedral_type) << what;
}

}    // namespace rings_test

#endif
