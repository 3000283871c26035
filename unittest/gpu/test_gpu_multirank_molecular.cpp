/* GPU tests of the reneighbouring step on the device (run_style verlet/cuda rebuild
   device) for molecular atoms on several MPI ranks: their topology moves with them as
   rows of atom IDs and the device lists are made again after the ghosts are known
   (src/cuda/owned_topology.cpp, cuda/topology/topology_migrate.cu). Chains of 10 beads,
   zigzag in y and z (so angles and dihedrals are well defined), shifted along x so that
   most cross the periodic side, hot enough and with a short skin (0.1, check every step)
   that beads and chains cross rank and periodic boundaries at many rebuilds:
   - Kremer-Grest melt (atom_style bond, FENE + WCA, special_bonds fene) with newton_bond
     on (terms stored once, ghost rows list them, forces sent back device to device through
     CUDA IPC: the log must say so) and off;
   - with harmonic angles (atom_style angle);
   - with angles and dihedrals (atom_style molecular, special_bonds lj 0 0 0.5);
   - atom_style full with charges, impropers without an improper style (they only travel
     with their atoms) and neigh_modify exclude molecule/intra all (the ghosts' molecule
     IDs come with their border records).
   Each runs 'rebuild device' on all ranks, 'rebuild host' (LAMMPS's exchange, borders
   and topology) on the same ranks, and LAMMPS's CPU styles on one rank: energies at step 0
   (run 0), then two runs (the second with pre no: the host arrays and ghosts after device
   rebuilds must be right) with dumps every 50 steps (host syncs between rebuilds): energies,
   positions and velocities after 200 steps by atom ID, charges and molecule IDs; the log
   must say every rebuild ran on the device (a pass through the host fallback would prove
   nothing). After the runs write_data of the device run equals that of the host run
   (atoms' molecule, type, charge; bonds, angles, dihedrals, impropers as sets; positions
   within the trajectory tolerance) and keeps the topology of the input. Run under mpirun -np 1, 2,
   4 (ctest gpu:multirank_molecular_np*). Needs a GPU: exits 77 otherwise. Strict tolerances need
   MESOGPU_PRECISION=double. */

#include "atom.h"
#include "domain.h"
#include "lammps.h"
#include "library.h"

#include "gpu_test_util.h"
#include "lmp_session.h"
#include "multirank_test_util.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mpi.h>
#include <sstream>
#include <string>
#include <vector>

using namespace gpu_test;
using namespace multirank_test;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const double STEP0_TOL = 1e-10, TRAJ_TOL = 1e-8;
const int TRAJ_STEPS = 200;
const char *PREC = "double";
const double TRAJ_V_TOL = TRAJ_TOL;
#else
const double STEP0_TOL = 5e-5, TRAJ_TOL = 2e-3;
const int TRAJ_STEPS = 50;
const char *PREC = "mixed or single";
#if defined(MESOGPU_PREC_SINGLE)
// float forces, velocities and positions: the charged chains' Coulomb terms, each much
// larger than their sum, cancel in a float sum, and after 50 steps one atom's velocity
// is 4.8e-3 (of the largest) from the CPU's on 1 and 5.5e-3 on 2 ranks (H100,
// 2026-11-27; the neutral chains 3e-5; mixed precision, double sums, within 2e-3)
const double TRAJ_V_TOL = 1e-2;
#else
const double TRAJ_V_TOL = TRAJ_TOL;
#endif
#endif

// one system of the tests
struct Case {
  std::string name;
  std::string atom_style;    // bond, angle, molecular, full
  bool newton_bond = true;
  bool angles = false, dihedrals = false;
  bool exclude_molecule = false;
};

// chains of NBEAD beads along x on a NY x NZ grid (bead spacing BX, rows BY apart): bead
// k of chain c in slot (k + 7 c) mod NBEAD along x (most chains cross the periodic side;
// the data file's image flags are zero, LAMMPS takes the closest image), y and z of its
// row plus a zigzag by slot (+-0.2 in y, 0 / 0.2 / 0 / -0.2 in z); velocities from a
// fixed generator (the same on every rank count; T 0.5 at first, about 1.6 once the
// stretched bonds relaxed: some 40 rebuilds per 100 steps); charges +-0.3 alternating
// along a chain (atom_style full)
const int NBEAD = 10, NY = 10, NZ = 10;
const double BX = 0.97, BY = 1.1;

std::string write_chains(const Case &c)
{
  const std::string path = shared_path("molreb_" + c.name, ".data");
  if (world_rank() == 0) {
    const int nchain = NY * NZ, natoms = nchain * NBEAD;
    const double lx = NBEAD * BX;
    const int nbond = nchain * (NBEAD - 1), nangle = c.angles ? nchain * (NBEAD - 2) : 0,
              ndihedral = c.dihedrals ? nchain * (NBEAD - 3) : 0;
    const bool full = c.atom_style == "full";
    // atom_style full: one improper per chain, no improper style (no device one): LAMMPS
    // keeps them with their atoms, and so must the device rebuild
    const int nimproper = full ? nchain : 0;
    std::ofstream o(path);
    o.precision(17);
    o << "chains (mesogpu multirank molecular test)\n\n"
      << natoms << " atoms\n"
      << nbond << " bonds\n";
    if (c.atom_style != "bond") o << nangle << " angles\n";
    if (c.atom_style == "molecular" || full)
      o << ndihedral << " dihedrals\n" << nimproper << " impropers\n";
    o << "1 atom types\n1 bond types\n";
    if (c.atom_style != "bond") o << "1 angle types\n";
    if (c.atom_style == "molecular" || full) o << "1 dihedral types\n";
    if (nimproper) o << "1 improper types\n";
    o << "\n0 " << lx << " xlo xhi\n0 " << NY * BY << " ylo yhi\n0 " << NZ * BY
      << " zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # " << c.atom_style << "\n\n";
    const double zz[4] = {0.0, 0.2, 0.0, -0.2};
    for (int ch = 0; ch < nchain; ++ch) {
      const int m = ch * 7 % NBEAD;    // the chain's first slot along x
      for (int k = 0; k < NBEAD; ++k) {
        // the zigzag follows the slot, so that neighbouring chains keep their distance
        const int slot = (k + m) % NBEAD, id = ch * NBEAD + k + 1;
        const double x = (slot + 0.5) * BX;
        const double y = (ch % NY + 0.5) * BY + (slot % 2 ? 0.2 : -0.2);
        const double z = (ch / NY + 0.5) * BY + zz[slot % 4];
        o << id << " " << ch + 1 << " 1 ";
        if (full) o << (k % 2 ? 0.3 : -0.3) << " ";
        o << x << " " << y << " " << z << "\n";
      }
    }
    // velocities: a linear congruential generator, centred (no drift)
    std::vector<double> v(3 * (size_t) natoms);
    unsigned long long state = 88172645463325252ULL;
    double mean[3] = {0, 0, 0};
    for (size_t a = 0; a < v.size(); ++a) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      v[a] = 2.5 * (((state >> 11) * (1.0 / 9007199254740992.0)) - 0.5);
      mean[a % 3] += v[a] / natoms;
    }
    o << "\nVelocities\n\n";
    for (int a = 0; a < natoms; ++a)
      o << a + 1 << " " << v[3 * a] - mean[0] << " " << v[3 * a + 1] - mean[1] << " "
        << v[3 * a + 2] - mean[2] << "\n";
    o << "\nBonds\n\n";
    int b = 0;
    for (int ch = 0; ch < nchain; ++ch)
      for (int k = 0; k + 1 < NBEAD; ++k)
        o << ++b << " 1 " << ch * NBEAD + k + 1 << " " << ch * NBEAD + k + 2 << "\n";
    if (nangle) {
      o << "\nAngles\n\n";
      b = 0;
      for (int ch = 0; ch < nchain; ++ch)
        for (int k = 0; k + 2 < NBEAD; ++k)
          o << ++b << " 1 " << ch * NBEAD + k + 1 << " " << ch * NBEAD + k + 2 << " "
            << ch * NBEAD + k + 3 << "\n";
    }
    if (ndihedral) {
      o << "\nDihedrals\n\n";
      b = 0;
      for (int ch = 0; ch < nchain; ++ch)
        for (int k = 0; k + 3 < NBEAD; ++k)
          o << ++b << " 1 " << ch * NBEAD + k + 1 << " " << ch * NBEAD + k + 2 << " "
            << ch * NBEAD + k + 3 << " " << ch * NBEAD + k + 4 << "\n";
    }
    if (nimproper) {
      o << "\nImpropers\n\n";
      for (int ch = 0; ch < nchain; ++ch)
        o << ch + 1 << " 1 " << ch * NBEAD + 1 << " " << ch * NBEAD + 2 << " " << ch * NBEAD + 3
          << " " << ch * NBEAD + 4 << "\n";
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

struct Result : RunState {
  double pe0 = 0;                                        // after run 0
  std::vector<double> q, mol;                            // by atom ID (q: atom_style full)
  long long rebuilds_device = -1, rebuilds_host = -1;    // the last run's (rank 0's log)
  std::string log, data;                                 // rank 0: the log, write_data's file
};

// the last run's counts from rank 0's log
void read_counts(Result &r)
{
  long long d = -1, h = -1;
  if (rebuild_counts(r.log, d, h)) {
    r.rebuilds_device = d;
    r.rebuilds_host = h;
  }
}

// mode: "device", "host" (run_style verlet/cuda rebuild <mode>) or "" (CPU styles);
// input: write_chains's file (made before: it is a collective on the world, and the CPU
// run is rank 0's alone)
Result run_case(MPI_Comm comm, const Case &c, const std::string &mode, const std::string &input)
{
  const bool dev = !mode.empty();
  const std::string tag = c.name + "_" + (dev ? mode : "cpu");
  Lmp l(comm);
  const std::string logfile = shared_path("molreb_log_" + tag, ".lammps", comm);
  const std::string datafile = shared_path("molreb_out_" + tag, ".data", comm);
  l.cmds({"log " + logfile, "units lj", "atom_style " + c.atom_style, "atom_modify map array",
          std::string("newton on ") + (c.newton_bond ? "on" : "off"), "comm_modify cutoff 3.5",
          "read_data " + input, "pair_style " + S(dev, "lj/cut") + " 1.122462048309373",
          "pair_coeff 1 1 1.0 1.0 1.122462048309373", "pair_modify shift yes",
          "bond_style " + S(dev, "fene"), "bond_coeff 1 30.0 1.5 1.0 1.0"});
  if (c.angles) l.cmds({"angle_style " + S(dev, "harmonic"), "angle_coeff 1 5.0 130.0"});
  if (c.dihedrals)
    l.cmds({"dihedral_style " + S(dev, "harmonic"), "dihedral_coeff 1 1.0 1 3",
            "special_bonds lj 0.0 0.0 0.5"});
  else
    l.cmd("special_bonds fene");
  if (c.exclude_molecule) l.cmd("neigh_modify exclude molecule/intra all");
  l.cmds({"neighbor 0.1 bin", "neigh_modify every 1 delay 0 check yes", "timestep 0.005",
          "thermo_style custom step temp pe ebond press", "thermo 50", "fix 1 all " + S(dev, "nve"),
          "dump d all custom 50 /dev/null id mol x y z vx"});
  if (dev) l.cmd("run_style verlet/cuda share yes rebuild " + mode);
  Result r;
  l.cmd("run 0 post no");
  r.pe0 = l.thermo("pe");
  const int half = TRAJ_STEPS / 2;
  l.cmd("run " + std::to_string(half) + " post no");
  l.cmd("run " + std::to_string(TRAJ_STEPS - half) + " pre no post no");
  static_cast<RunState &>(r) = run_state(l);
  const long long natoms = l.lmp->atom->natoms;
  std::vector<int> mol(natoms);
  lammps_gather_atoms(l.lmp, const_cast<char *>("molecule"), 0, 1, mol.data());
  r.mol.assign(mol.begin(), mol.end());
  if (c.atom_style == "full") {
    r.q.resize(natoms);
    lammps_gather_atoms(l.lmp, const_cast<char *>("q"), 1, 1, r.q.data());
  }
  l.cmd("write_data " + datafile);
  l.cmd("log none");
  int me = 0;
  MPI_Comm_rank(comm, &me);
  if (me == 0) {
    r.log = read_text(logfile);
    r.data = read_text(datafile);
    read_counts(r);
  }
  return r;
}

// a data file's sections: per atom ID the Atoms and Velocities columns, the terms of
// Bonds, Angles, Dihedrals as sorted lists (type, atom IDs; bonds' two atoms ascending)
struct Data {
  std::map<long, std::vector<double>> atoms, velocities;
  std::map<std::string, std::vector<std::vector<long>>> terms;
};
Data parse_data(const std::string &text)
{
  Data d;
  std::istringstream in(text);
  std::string line, section;
  while (std::getline(in, line)) {
    const size_t hash = line.find('#');
    const std::string body = hash == std::string::npos ? line : line.substr(0, hash);
    std::istringstream words(body);
    std::string first;
    if (!(words >> first)) continue;
    if (std::isalpha(static_cast<unsigned char>(first[0]))) {
      section = first;
      continue;
    }
    std::istringstream values(body);
    std::vector<double> v;
    double x;
    while (values >> x) v.push_back(x);
    if (v.empty()) continue;
    const long id = std::lround(v[0]);
    if (section == "Atoms") {
      d.atoms[id].assign(v.begin() + 1, v.end());
    } else if (section == "Velocities") {
      d.velocities[id].assign(v.begin() + 1, v.end());
    } else if (section == "Bonds" || section == "Angles" || section == "Dihedrals" ||
               section == "Impropers") {
      std::vector<long> t;
      for (size_t k = 1; k < v.size(); ++k) t.push_back(std::lround(v[k]));
      if (section == "Bonds" && t.size() == 3 && t[1] > t[2]) std::swap(t[1], t[2]);
      d.terms[section].push_back(t);
    }
  }
  for (auto &kv : d.terms) std::sort(kv.second.begin(), kv.second.end());
  return d;
}

// write_data of two runs: the same atoms (every column but the position and image flags
// exactly; unwrapped positions within tol of the box), velocities within 10 vtol, the same
// terms
void expect_same_data(const std::string &what, const Data &a, const Data &b, const double box[3],
                      double tol, double vtol)
{
  ASSERT_EQ(a.atoms.size(), b.atoms.size()) << what;
  EXPECT_EQ(a.terms, b.terms) << what;
  const double lmax = std::max(box[0], std::max(box[1], box[2]));
  double dx = 0, dv = 0;
  for (const auto &kv : a.atoms) {
    auto it = b.atoms.find(kv.first);
    ASSERT_TRUE(it != b.atoms.end()) << what << ": atom " << kv.first;
    const std::vector<double> &p = kv.second, &q = it->second;
    ASSERT_EQ(p.size(), q.size()) << what;
    ASSERT_GE(p.size(), 6u) << what;
    const size_t nx = p.size() - 6;    // x y z ix iy iz last
    for (size_t k = 0; k < nx; ++k) EXPECT_EQ(p[k], q[k]) << what << ": atom " << kv.first;
    for (int d = 0; d < 3; ++d)
      dx = std::max(dx, std::fabs((p[nx + d] + p[nx + 3 + d] * box[d]) -
                                  (q[nx + d] + q[nx + 3 + d] * box[d])) /
                            lmax);
    const auto &va = a.velocities.at(kv.first), &vb = b.velocities.at(kv.first);
    for (int d = 0; d < 3; ++d) dv = std::max(dv, std::fabs(va[d] - vb[d]));
  }
  printf("[gpu] %s: write_data x %.2e v %.2e\n", what.c_str(), dx, dv);
  EXPECT_LE(dx, tol) << what;
  EXPECT_LE(dv, 10 * vtol) << what;    // absolute, velocities of order 1
}

void check_case(const Case &c)
{
  const std::string input = write_chains(c);
  const Result dev = run_case(MPI_COMM_WORLD, c, "device", input);
  const Result host = run_case(MPI_COMM_WORLD, c, "host", input);
  const std::string on = c.name + " on " + std::to_string(world_size()) + " ranks";
  if (world_rank() == 0) {
    if (world_size() > 1) {
      // the last run's rebuilds: all on the device (no silent fallback), the host run's all
      // through the host
      EXPECT_GT(dev.rebuilds_device, 3) << dev.log;
      EXPECT_EQ(dev.rebuilds_host, 0) << dev.log;
      EXPECT_EQ(dev.log.find("reneighbouring through the host"), std::string::npos) << dev.log;
      // newton_bond on: the ghosts' bonded forces go back device to device (exchange ipc,
      // the default; ranks sharing one GPU), compared below with the host run and the CPU;
      // under MESOGPU_EXCHANGE=cuda-aware (gpu:multirank_molecular_cuda_aware_np2) every
      // swap goes through device buffers handed to MPI instead
      const bool reverse_ipc =
          dev.log.find("reverse bonded forces device to device through CUDA IPC") !=
          std::string::npos;
      if (exchange_cuda_aware()) {
        EXPECT_FALSE(reverse_ipc) << dev.log;
        EXPECT_NE(dev.log.find("ghost swaps through device buffers handed to MPI"),
                  std::string::npos)
            << dev.log;
      } else {
        EXPECT_EQ(reverse_ipc, c.newton_bond) << dev.log;
      }
      EXPECT_EQ(host.rebuilds_device, 0) << host.log;
      EXPECT_GT(host.rebuilds_host, 3) << host.log;
    }
    const Result cpu = run_case(MPI_COMM_SELF, c, "", input);
    for (const Result *r : {&dev, &host}) {
      const char *which = r == &dev ? "rebuild device" : "rebuild host";
      printf("[gpu] %s %s: step 0 pe %.2e\n", on.c_str(), which, rel(r->pe0, cpu.pe0));
      EXPECT_LE(rel(r->pe0, cpu.pe0), STEP0_TOL) << on << " " << which;
    }
    const std::string after =
        " after " + std::to_string(TRAJ_STEPS) + " steps (" + std::string(PREC) + ")";
    expect_same_state(on + ": rebuild device vs rebuild host" + after, dev, host, TRAJ_TOL,
                      TRAJ_V_TOL);
    expect_same_state(on + ": rebuild device vs 1-rank CPU" + after, dev, cpu, TRAJ_TOL,
                      TRAJ_V_TOL);
    EXPECT_EQ(dev.mol, cpu.mol) << on << ": molecule IDs";
    EXPECT_EQ(dev.q, cpu.q) << on << ": charges";
    const Data ddev = parse_data(dev.data), dhost = parse_data(host.data);
    const Data dcpu = parse_data(cpu.data);
    const Data given = parse_data(read_text(input));
    EXPECT_FALSE(ddev.terms.empty()) << on;
    expect_same_data(on + ": write_data device vs host", ddev, dhost, dev.box, TRAJ_TOL,
                     TRAJ_V_TOL);
    expect_same_data(on + ": write_data device vs CPU", ddev, dcpu, dev.box, TRAJ_TOL, TRAJ_V_TOL);
    EXPECT_EQ(ddev.terms, given.terms) << on << ": the input's topology";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}    // namespace

TEST(MultiRankMolecular, KremerGrestNewtonBondOn)
{
  check_case({"kg_on", "bond", true, false, false, false});
}

TEST(MultiRankMolecular, KremerGrestNewtonBondOff)
{
  check_case({"kg_off", "bond", false, false, false, false});
}

TEST(MultiRankMolecular, Angles)
{
  check_case({"angles", "angle", true, true, false, false});
}

TEST(MultiRankMolecular, AnglesDihedralsNewtonBondOn)
{
  check_case({"dihedrals_on", "molecular", true, true, true, false});
}

TEST(MultiRankMolecular, AnglesDihedralsNewtonBondOff)
{
  check_case({"dihedrals_off", "molecular", false, true, true, false});
}

TEST(MultiRankMolecular, FullChargesMoleculeExclusion)
{
  check_case({"full", "full", true, true, true, true});
}

int main(int argc, char **argv)
{
  return multirank_test::run_all_ranks(argc, argv, PREC);
}
