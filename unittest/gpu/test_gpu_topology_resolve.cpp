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

#include "gpu_test_main.h"
#include "atom.h"
#include "domain.h"
#include "lammps.h"

#include "cuda/device_topology.h"
#include "cuda/owned_topology.h"
#include "engine.h"
#include "lmp_session.h"
#include "lammps/rings_topology_test.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <mpi.h>
#include <stdexcept>
#include <string>
#include <vector>

using mesogpu::cuda::Engine;

using namespace rings_test;

namespace {

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
    const mesogpu::DeviceTopology want = host_path(l.lmp);
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
    expect_same_lists(got, want, on);
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
  return gpu_test::run_gpu_tests(argc, argv);
}
