/* GPU test of the engine's resolve_topology (cuda/topology/topology_migrate.cu), the step
   of a reneighbouring step on the device that makes the bond, angle, dihedral and special
   lists of every device row from the owned atoms' topology rows (atom IDs) on several
   ranks, on one process: cyclohexane rings in a periodic box (many cross its sides), one
   LAMMPS rank with ghosts (its periodic images); the engine takes the owned atoms and
   ghosts (positions, tags) and the topology rows, resolves, and its lists must equal,
   entry by entry and in order, those the host path builds (build_device_topology with the
   closest image, as run_style verlet/cuda's upload() on several ranks), with newton_bond
   on and off, and those of the host mirror (src/cuda/owned_topology.cpp). A bond partner
   that is no row is an error naming both atoms. Needs a GPU: exits 77 otherwise. */

#include "atom.h"
#include "domain.h"
#include "lammps.h"

#include "cuda/device_topology.h"
#include "cuda/owned_topology.h"
#include "engine.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <mpi.h>
#include <stdexcept>
#include <string>
#include <vector>

using mesogpu::cuda::Engine;

namespace {

std::string inputs()
{
  const char *env = getenv("MESOGPU_SOURCE_DIR");
  return std::string(env ? env : MESOGPU_SOURCE_DIR) + "/unittest/gpu/inputs/template";
}

void rings(LmpSession &l, bool newton_bond)
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

// an engine holding LAMMPS's owned atoms and ghosts with the owned atoms' topology rows
void load(Engine &e, LAMMPS_NS::LAMMPS *lmp, const mesogpu::cuda::OwnedTopologyLayout &layout,
          const std::vector<int> &rows)
{
  auto *atom = lmp->atom;
  const int nall = atom->nlocal + atom->nghost;
  std::vector<double> zero(3 * (size_t) nall, 0.0);
  std::vector<int> image(3 * (size_t) nall, 0);
  const std::vector<double> mass(atom->mass, atom->mass + atom->ntypes + 1);
  double lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = lmp->domain->boxlo[d] - 7.0;
    hi[d] = lmp->domain->boxhi[d] + 7.0;
  }
  e.set_box(lo, hi);
  e.upload_atoms(nall, atom->ntypes, atom->x[0], zero.data(), zero.data(), image.data(), atom->type,
                 mass.data());
  e.set_owned(atom->nlocal);
  static_assert(sizeof(LAMMPS_NS::tagint) == sizeof(int), "32-bit tags");
  e.upload_tags(reinterpret_cast<const int *>(atom->tag));
  e.upload_owned_topology(layout, rows.data(), atom->q);
}

}    // namespace

TEST(TopologyResolve, DeviceListsEqualTheHostPath)
{
  for (bool newton_bond : {true, false}) {
    LmpSession l;
    rings(l, newton_bond);
    auto *atom = l.lmp->atom;
    const int nlocal = atom->nlocal, nall = atom->nlocal + atom->nghost;
    ASSERT_GT(atom->nghost, 0);
    // the host path's lists (verlet_cuda.cpp upload() on several ranks)
    mesogpu::DeviceTopology want;
    mesogpu::build_device_topology(
        l.lmp,
        [&](LAMMPS_NS::tagint tag, const char *, int i) {
          return l.lmp->domain->closest_image(i, atom->map(tag));
        },
        true, true, true, true, want, nall);
    const auto layout = mesogpu::owned_topology_layout(l.lmp, true, true, true);
    std::vector<int> rows;
    mesogpu::pack_owned_topology(l.lmp, layout, rows);
    Engine e;
    load(e, l.lmp, layout, rows);
    e.resolve_topology();
    mesogpu::cuda::HostLists got;
    e.download_lists(got);
    const std::string on = std::string("newton_bond ") + (newton_bond ? "on" : "off");
    EXPECT_GT(want.maxbond, 0);
    EXPECT_EQ(got.maxspecial, want.maxspecial) << on;
    EXPECT_EQ(got.nspecial, want.nspecial) << on;
    EXPECT_EQ(got.special, want.special) << on;
    EXPECT_EQ(got.maxbond, want.maxbond) << on;
    EXPECT_EQ(got.nbond, want.nbond) << on;
    EXPECT_EQ(got.bond_partner, want.bond_partner) << on;
    EXPECT_EQ(got.bond_type, want.bond_type) << on;
    EXPECT_EQ(got.maxangle, want.maxangle) << on;
    EXPECT_EQ(got.nangle, want.nangle) << on;
    EXPECT_EQ(got.angle_atoms, want.angle_atoms) << on;
    EXPECT_EQ(got.angle_type, want.angle_type) << on;
    EXPECT_EQ(got.maxdihedral, want.maxdihedral) << on;
    EXPECT_EQ(got.ndihedral, want.ndihedral) << on;
    EXPECT_EQ(got.dihedral_atoms, want.dihedral_atoms) << on;
    EXPECT_EQ(got.dihedral_type, want.dihedral_type) << on;
    // the rows and charges come back as they went up
    std::vector<int> back(rows.size());
    std::vector<double> q(nlocal);
    e.download_owned_topology(back.data(), q.data());
    EXPECT_EQ(back, rows) << on;
    EXPECT_EQ(q, std::vector<double>(atom->q, atom->q + nlocal)) << on;
    printf("[gpu] resolve_topology, %s: %d owned rows, %d ghosts, %d bonds / %d angles / %d "
           "dihedrals per row at most: as the host path\n",
           on.c_str(), nlocal, nall - nlocal, got.maxbond, got.maxangle, got.maxdihedral);
  }
}

TEST(TopologyResolve, MissingBondPartnerIsAnError)
{
  LmpSession l;
  rings(l, true);
  auto *atom = l.lmp->atom;
  const auto layout = mesogpu::owned_topology_layout(l.lmp, true, true, true);
  std::vector<int> rows;
  mesogpu::pack_owned_topology(l.lmp, layout, rows);
  int i = 0;
  while (i < atom->nlocal && atom->num_bond[i] == 0) i++;
  ASSERT_LT(i, atom->nlocal);
  rows[(size_t) i * layout.width + layout.bond_atom] = 100000;
  Engine e;
  load(e, l.lmp, layout, rows);
  std::string what;
  try {
    e.resolve_topology();
  } catch (std::runtime_error &err) {
    what = err.what();
  }
  EXPECT_NE(what.find("bond atom missing: the bond of atom " + std::to_string(atom->tag[i]) +
                      " refers to atom 100000"),
            std::string::npos)
      << what;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (mesogpu::cuda::device_count() == 0) {
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return 77;
  }
  printf("[gpu] device 0: %s\n", mesogpu::cuda::device_description(0).c_str());
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
