/* The topology rows a reneighbouring step on the device moves with molecular atoms on
   several ranks (src/cuda/owned_topology.cpp), without a GPU:
   - packed from LAMMPS's arrays and written back, they give LAMMPS's arrays again
     (molecule IDs, bonds, angles, dihedrals, special lists; improper counts the rows do
     not hold come back as zero, never as what the arrays held before);
   - the host mirror of the engine's resolve_topology (the same closest-image search of
     cuda/topology/closest_row.h, listing atoms and entry order) makes from the rows, the
     tags and the positions of owned atoms and ghosts exactly the lists the host path
     builds (build_device_topology with the closest image, as run_style verlet/cuda's
     upload() on several ranks), with newton_bond on and off: the same entries in the
     same order, so the device path sums the same forces in the same order;
   - a bond partner that is no row is reported with both atom IDs. */

#include "atom.h"
#include "domain.h"
#include "force.h"
#include "lammps.h"

#include "cuda/device_topology.h"
#include "cuda/owned_topology.h"
#include "lmp_session.h"
#include "rings_topology_test.h"

#include "gtest/gtest.h"

#include <cstring>
#include <mpi.h>
#include <string>
#include <vector>

using namespace rings_test;

TEST(OwnedTopology, PackUnpackGivesLammpsArraysAgain)
{
  LmpSession l;
  rings(l, true);
  auto *atom = l.lmp->atom;
  const int n = atom->nlocal;
  ASSERT_EQ(atom->natoms, 200);
  const auto layout = mesogpu::owned_topology_layout(l.lmp, true, true, true);
  EXPECT_EQ(layout.bond_per_atom, atom->bond_per_atom);
  EXPECT_EQ(layout.maxspecial, atom->maxspecial);
  EXPECT_EQ(layout.improper_per_atom, atom->improper_per_atom);
  EXPECT_TRUE(layout.newton_bond);
  std::vector<int> rows;
  mesogpu::pack_owned_topology(l.lmp, layout, rows);
  ASSERT_EQ(rows.size(), (size_t) n * layout.width);

  // what LAMMPS holds, then the arrays spoiled and written back from the rows
  std::vector<int> before_mol(n), before_nb(n), before_na(n), before_nd(n), before_ns(3 * n);
  std::vector<std::vector<int>> before_b(n), before_s(n), before_a(n), before_d(n);
  for (int i = 0; i < n; i++) {
    before_mol[i] = atom->molecule[i];
    before_nb[i] = atom->num_bond[i];
    before_na[i] = atom->num_angle[i];
    before_nd[i] = atom->num_dihedral[i];
    for (int k = 0; k < atom->num_bond[i]; k++)
      before_b[i].insert(before_b[i].end(), {atom->bond_type[i][k], atom->bond_atom[i][k]});
    for (int k = 0; k < atom->num_angle[i]; k++)
      before_a[i].insert(before_a[i].end(), {atom->angle_type[i][k], atom->angle_atom1[i][k],
                                             atom->angle_atom2[i][k], atom->angle_atom3[i][k]});
    for (int k = 0; k < atom->num_dihedral[i]; k++)
      before_d[i].insert(before_d[i].end(), {atom->dihedral_type[i][k], atom->dihedral_atom1[i][k],
                                             atom->dihedral_atom2[i][k], atom->dihedral_atom3[i][k],
                                             atom->dihedral_atom4[i][k]});
    for (int c = 0; c < 3; c++) before_ns[3 * i + c] = atom->nspecial[i][c];
    for (int s = 0; s < atom->nspecial[i][2]; s++) before_s[i].push_back(atom->special[i][s]);
    atom->molecule[i] = -7;
    atom->num_bond[i] = atom->num_angle[i] = atom->num_dihedral[i] = 0;
    atom->num_improper[i] = 99;    // garbage the rows do not hold
    for (int c = 0; c < 3; c++) atom->nspecial[i][c] = 0;
  }
  ASSERT_EQ(mesogpu::unpack_owned_topology(l.lmp, layout, rows.data()), "");
  int with_bonds = 0;
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(atom->molecule[i], before_mol[i]);
    ASSERT_EQ(atom->num_bond[i], before_nb[i]);
    ASSERT_EQ(atom->num_angle[i], before_na[i]);
    ASSERT_EQ(atom->num_dihedral[i], before_nd[i]);
    EXPECT_EQ(atom->num_improper[i], 0);
    with_bonds += atom->num_bond[i] > 0;
    for (int k = 0; k < atom->num_bond[i]; k++) {
      EXPECT_EQ(atom->bond_type[i][k], before_b[i][2 * k]);
      EXPECT_EQ(atom->bond_atom[i][k], before_b[i][2 * k + 1]);
    }
    for (int k = 0; k < atom->num_angle[i]; k++) {
      EXPECT_EQ(atom->angle_type[i][k], before_a[i][4 * k]);
      EXPECT_EQ(atom->angle_atom1[i][k], before_a[i][4 * k + 1]);
      EXPECT_EQ(atom->angle_atom2[i][k], before_a[i][4 * k + 2]);
      EXPECT_EQ(atom->angle_atom3[i][k], before_a[i][4 * k + 3]);
    }
    for (int k = 0; k < atom->num_dihedral[i]; k++) {
      EXPECT_EQ(atom->dihedral_type[i][k], before_d[i][5 * k]);
      EXPECT_EQ(atom->dihedral_atom1[i][k], before_d[i][5 * k + 1]);
      EXPECT_EQ(atom->dihedral_atom4[i][k], before_d[i][5 * k + 4]);
    }
    for (int c = 0; c < 3; c++) EXPECT_EQ(atom->nspecial[i][c], before_ns[3 * i + c]);
    for (int s = 0; s < atom->nspecial[i][2]; s++) EXPECT_EQ(atom->special[i][s], before_s[i][s]);
  }
  EXPECT_GT(with_bonds, 0);
}

TEST(OwnedTopology, ResolvedListsEqualTheHostPath)
{
  for (bool newton_bond : {true, false}) {
    LmpSession l;
    rings(l, newton_bond);
    auto *atom = l.lmp->atom;
    const int nlocal = atom->nlocal, nall = atom->nlocal + atom->nghost;
    ASSERT_GT(atom->nghost, 0);
    const mesogpu::DeviceTopology want = host_path(l.lmp);
    const auto layout = mesogpu::owned_topology_layout(l.lmp, true, true, true);
    EXPECT_EQ(layout.newton_bond, newton_bond);
    std::vector<int> rows;
    mesogpu::pack_owned_topology(l.lmp, layout, rows);
    static_assert(sizeof(LAMMPS_NS::tagint) == sizeof(int), "32-bit tags");
    mesogpu::DeviceTopology got;
    ASSERT_EQ(mesogpu::resolve_owned_topology(layout, rows.data(), nlocal, nall,
                                              reinterpret_cast<const int *>(atom->tag), atom->x[0],
                                              got),
              "");
    const std::string on = std::string("newton_bond ") + (newton_bond ? "on" : "off");
    EXPECT_GT(want.maxbond, 0) << on;
    EXPECT_GT(want.maxdihedral, 0) << on;
    expect_same_lists(got, want, on);
    // ghost rows list terms only with newton_bond
    int ghost_entries = 0;
    for (int r = nlocal; r < nall; r++) ghost_entries += got.nbond[r];
    if (newton_bond)
      EXPECT_GT(ghost_entries, 0);
    else
      EXPECT_EQ(ghost_entries, 0);
  }
}

TEST(OwnedTopology, MissingBondPartnerNamesTheAtoms)
{
  LmpSession l;
  rings(l, true);
  auto *atom = l.lmp->atom;
  const auto layout = mesogpu::owned_topology_layout(l.lmp, true, false, false);
  std::vector<int> rows;
  mesogpu::pack_owned_topology(l.lmp, layout, rows);
  // the first atom with a bond refers to an ID no row has
  int i = 0;
  while (i < atom->nlocal && atom->num_bond[i] == 0) i++;
  ASSERT_LT(i, atom->nlocal);
  rows[(size_t) i * layout.width + layout.bond_atom] = 100000;
  mesogpu::DeviceTopology got;
  const std::string err = mesogpu::resolve_owned_topology(
      layout, rows.data(), atom->nlocal, atom->nlocal + atom->nghost,
      reinterpret_cast<const int *>(atom->tag), atom->x[0], got);
  EXPECT_NE(err.find("bond of atom " + std::to_string(atom->tag[i]) + " refers to atom 100000"),
            std::string::npos)
      << err;
}
