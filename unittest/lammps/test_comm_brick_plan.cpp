/* CommBrickPlan (src/comm_brick_plan.h) against LAMMPS's own CommBrick: after a run, the
   plan's forward() fills every ghost's position and its reverse() adds every ghost's
   force to the owner bit for bit as comm->forward_comm() and comm->reverse_comm() do, on
   1 rank (label lammps) and on 2 and 4 ranks (label mpi: the same binary under mpiexec),
   for an orthogonal box, several swaps per dimension (ghost cutoff beyond the
   subdomain), a triclinic box, and after atoms migrated between ranks. */

#include "comm_brick_plan.h"
#include "lmp_session.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace LAMMPS_NS;

namespace {

void make_liquid(LmpSession &s, bool triclinic, const std::string &comm_cut)
{
  s.cmds({"units lj", "atom_style atomic", "lattice fcc 0.8442"});
  if (triclinic)
    s.cmds({"region box prism 0 6 0 5 0 5 0.7 -0.4 0.3", "create_box 1 box"});
  else
    s.cmds({"region box block 0 6 0 5 0 5", "create_box 1 box"});
  s.cmds({"create_atoms 1 box", "mass 1 1.0", "velocity all create 2.5 4928 loop geom",
          "pair_style lj/cut 2.5", "pair_coeff 1 1 1.0 1.0 2.5", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", "fix 1 all nve"});
  if (!comm_cut.empty()) s.cmd("comm_modify cutoff " + comm_cut);
}

// moves the local atoms a little (a different amount per atom), as a step would
void displace_locals(LAMMPS *lmp, unsigned seed)
{
  std::mt19937 gen(seed + 977 * lmp->comm->me);
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  for (int i = 0; i < lmp->atom->nlocal; i++)
    for (int c = 0; c < 3; c++) lmp->atom->x[i][c] += u(gen);
}

void check_forward(LAMMPS *lmp, const CommBrickPlan &plan, unsigned seed)
{
  Atom *atom = lmp->atom;
  const int nlocal = atom->nlocal, nall = atom->nlocal + atom->nghost;
  ASSERT_EQ(plan.nghost(), atom->nghost);
  displace_locals(lmp, seed);
  lmp->comm->forward_comm();    // LAMMPS's ghosts: the reference
  std::vector<double> ref(3 * static_cast<size_t>(nall));
  for (int i = 0; i < nall; i++)
    for (int c = 0; c < 3; c++) ref[3 * i + c] = atom->x[i][c];
  for (int i = nlocal; i < nall; i++)
    for (int c = 0; c < 3; c++) atom->x[i][c] = NAN;
  plan.forward(atom->x);
  int bad = 0;
  for (int i = 0; i < nall; i++)
    for (int c = 0; c < 3; c++)
      if (!(atom->x[i][c] == ref[3 * i + c])) bad++;
  EXPECT_EQ(bad, 0) << "rank " << lmp->comm->me << ": ghost coordinates differing from "
                    << "CommBrick::forward_comm() of " << 3 * (nall - nlocal);
}

void check_reverse(LAMMPS *lmp, const CommBrickPlan &plan)
{
  Atom *atom = lmp->atom;
  const int nlocal = atom->nlocal, nall = atom->nlocal + atom->nghost;
  // forces on every atom, ghosts included, from the tag and the slot (ghosts of one
  // atom in several slots carry different values, so each must land once)
  std::vector<double> mine(3 * static_cast<size_t>(nall));
  for (int i = 0; i < nall; i++)
    for (int c = 0; c < 3; c++) {
      const double v = std::sin(0.37 * atom->tag[i] + 1.3 * c) + 1e-3 * (i % 17);
      atom->f[i][c] = v;
      mine[3 * i + c] = v;
    }
  lmp->comm->reverse_comm();    // LAMMPS's sums on the owners: the reference
  std::vector<double *> rows(nall);
  for (int i = 0; i < nall; i++) rows[i] = &mine[3 * static_cast<size_t>(i)];
  plan.reverse(rows.data());
  int bad = 0;
  for (int i = 0; i < nlocal; i++)
    for (int c = 0; c < 3; c++)
      if (!(atom->f[i][c] == mine[3 * i + c])) bad++;
  EXPECT_EQ(bad, 0) << "rank " << lmp->comm->me << ": owner forces differing from "
                    << "CommBrick::reverse_comm() of " << 3 * nlocal;
}

// the table CommBrick::setup() made (CommBrickPlan::setup_table) against the plan of the
// borders() that followed: the same partners and shifts, 2 maxneed swaps per dimension,
// and every atom a swap sent inside that swap's slab along its dimension (orthogonal box:
// slabs in box units; triclinic: in lamda units, not checked here). The slab check needs
// the positions borders() saw (at_borders: no step since; after a run atoms have moved)
void check_setup(LAMMPS *lmp, const CommBrickPlan &plan, bool at_borders)
{
  const CommBrickPlan::Setup t = plan.setup_table();
  const auto &swaps = plan.swaps();
  ASSERT_EQ(t.swaps.size(), swaps.size());
  ASSERT_EQ(t.slab_lo.size(), swaps.size());
  EXPECT_EQ(2 * (t.maxneed[0] + t.maxneed[1] + t.maxneed[2]), (int) swaps.size());
  EXPECT_FALSE(t.bordergroup);
  int bad = 0, k = 0;
  for (int dim = 0; dim < 3; dim++)
    for (int ineed = 0; ineed < 2 * t.maxneed[dim]; ineed++, k++) {
      const CommBrickPlan::Swap &a = t.swaps[k], &b = swaps[k];
      bad += a.send_proc != b.send_proc || a.recv_proc != b.recv_proc || a.pbc_flag != b.pbc_flag;
      for (int d = 0; d < 6; d++) bad += a.pbc[d] != b.pbc[d];
      if (lmp->domain->triclinic || !at_borders) continue;
      for (int i = 0; i < b.send_count; i++) {
        const double x = lmp->atom->x[plan.send_index()[b.send_offset + i]][dim];
        bad += x < t.slab_lo[k] || x > t.slab_hi[k];
      }
    }
  EXPECT_EQ(bad, 0) << "rank " << lmp->comm->me
                    << ": setup table entries or sent atoms differing from the borders() plan";
}

void run_case(bool triclinic, const std::string &comm_cut, bool migrate)
{
  LmpSession s;
  make_liquid(s, triclinic, comm_cut);
  s.cmd("run 0 post no");
  if (migrate) s.cmd("run 300 post no");    // T = 2.5: atoms cross subdomains and the box
  CommBrickPlan plan(s.lmp);
  plan.rebuild();
  // the plan is not empty: ghosts exist on every rank (periodic images at least)
  EXPECT_GT(plan.nghost(), 0);
  EXPECT_GE(plan.swaps().size(), 6u);
  check_setup(s.lmp, plan, !migrate);
  check_forward(s.lmp, plan, 11);
  check_forward(s.lmp, plan, 12);    // twice: the plan is reused between reneighbourings
  check_reverse(s.lmp, plan);
}

}    // namespace

TEST(CommBrickPlan, OrthogonalBox)
{
  run_case(false, "", false);
}

TEST(CommBrickPlan, SeveralSwapsPerDimension)
{
  // a ghost cutoff of 9 sigma beyond a box of 10 x 8.4 x 8.4: two or more swaps per
  // direction, later swaps forwarding ghosts received in earlier ones
  LmpSession probe;
  make_liquid(probe, false, "9.0");
  probe.cmd("run 0 post no");
  CommBrickPlan plan(probe.lmp);
  plan.rebuild();
  EXPECT_GT(plan.swaps().size(), 6u) << "the case must need more than one swap per direction";
  check_forward(probe.lmp, plan, 21);
  check_reverse(probe.lmp, plan);
}

TEST(CommBrickPlan, TriclinicBox)
{
  run_case(true, "", false);
}

TEST(CommBrickPlan, AfterMigration)
{
  run_case(false, "", true);
}

TEST(CommBrickPlan, TiledRefused)
{
  LmpSession s;
  s.cmd("comm_style tiled");
  make_liquid(s, false, "");
  s.cmd("run 0 post no");
  CommBrickPlan plan(s.lmp);
  std::string e;
  try {
    plan.rebuild();
  } catch (std::exception &ex) {
    e = ex.what();
  }
  EXPECT_NE(e.find("comm_style brick"), std::string::npos) << "error text: " << e;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  // one report: the other ranks' results reach rank 0 through the exit status
  if (me != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  int rc = RUN_ALL_TESTS();
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
