/* GPU tests of run_style verlet/cuda on several MPI ranks (each rank its own engine; on a
   test machine all ranks share one GPU). Run under mpirun -np 1, 2 and 4: the run on all
   ranks is compared with a one-rank device run and a one-rank CPU run of the same input
   (made on rank 0 over MPI_COMM_SELF): energies, pressure and per-atom forces at step 0,
   positions and velocities after 200 steps (nve, nvt with momentum, temp/berendsen; fix
   langevin/cuda, whose random numbers follow atom IDs, against the one-rank device run
   only). Systems: an LJ liquid and a Kremer-Grest melt (FENE + WCA, chains that cross
   rank and periodic boundaries), with newton_bond on (ghost forces sent back) and off,
   and with angles; the united-atom polyethylene melt of examples/polyethylene (harmonic
   bonds and angles, charmm torsions, real units); the melt with fix mdscf/cuda (whole
   field grid per rank, densities summed over ranks); a DPD fluid (pair dpd/cuda: ghosts' velocities
   forwarded, noise keyed by atom IDs and step, so the same on any number of ranks; against the
   CPU's pair dpd only in temperature and pressure averages; with one lane per atom, run_style
   verlet/cuda overlap yes against no on the same ranks; its rebuilds on the device); oriented
   particles (triblock and Janus soft/aniso particles under fix leapfrog/aniso with its
   Berendsen thermostat: orientations forwarded to ghosts every step, torques at step 0, n
   and omega after the run; rebuilds on the device, the host's radius, rmass and charges
   carried bit for bit) and single-site rigid bodies (SSD/E water under fix
   nvt/rigid/single, Gay-Berne ellipsoids and spheres, and charged and dipolar
   coul/dipole/body beads, under fix nve/rigid/single: quaternions forwarded, quaternions
   and angmom after the run), all reneighbouring on the device (rebuild device, the
   default; the log's counts are checked); stochastic chain growth (fix polymerize/cuda:
   its reaction steps reneighbour through the host and react there; the same bonds as one
   rank and the CPU). Also the clean refusals of styles without a multi-rank path. Needs a
   GPU: exits 77 (ctest "skipped") otherwise. Tolerances depend on MESOGPU_PRECISION: the
   strict ones (1e-10 at step 0, 1e-8 after 200 steps) need MESOGPU_PRECISION=double. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "domain.h"
#include "fix.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"

#include "gpu_test_util.h"
#include "lmp_session.h"
#include "multirank_test_util.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mpi.h>
#include <string>
#include <vector>

using namespace gpu_test;
using namespace multirank_test;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
// step 0; after 200 steps (chaotic growth of round-off over 200 steps stays far below)
const double STEP0_TOL = 1e-10, TRAJ_TOL = 1e-8;
// two runs of the same ranks whose forces are the same bit for bit (DPDOverlapMatchesNoOverlap)
const double SAME_TOL = 1e-12;
const int TRAJ_STEPS = 200;
// DPD (dt 0.04): 50 steps are 2 time units (the LJ cases' 200 are 1); the noise is the
// same on any number of ranks, so only round-off of summation order separates the runs,
// which a DPD fluid amplifies by e^(lambda t) with lambda of order 1: a few 10^2 over 2
// time units, far below 1e-8, where 200 steps (8 time units) might not be
const int DPD_STEPS = 50;
// torques, orientations, angular velocities and momenta: the same limits in double
const double ROT_FACTOR = 1;
const char *PREC = "double";
#else
// float pair arithmetic: a ghost's shifted position and a minimum-image difference round
// differently, and the difference grows along a chaotic trajectory: fewer steps, looser
const double STEP0_TOL = 5e-5, TRAJ_TOL = 2e-3;
const double SAME_TOL = 2e-3;    // float forces: a reduction order may differ between runs
const int TRAJ_STEPS = 50;
const int DPD_STEPS = 25;
// float angular terms (acos near |c| = 1, patch weights) lose more digits than radial
// ones: ten times the limits, as test_gpu_resident's soft/aniso torques
const double ROT_FACTOR = 10;
#if defined(MESOGPU_PREC_SINGLE)
const char *PREC = "single";
#else
const char *PREC = "mixed";
#endif
#endif

// what a run gives: step-0 energies, pressure and forces; positions and velocities later;
// oriented particles: torques at step 0, n (mu) and omega later; rigid bodies: torques at
// step 0, quaternions and angmom later (empty where the atom style has none)
struct Result {
  double pe = 0, press = 0, ebond = 0, eangle = 0;
  std::vector<double> f0, x, v;
  std::vector<double> t0, mu, omega, quat, angmom;
  // per-atom values that stay as set (the carried ones of a device rebuild)
  std::vector<double> radius, rmass, q;
  double box[3] = {0, 0, 0};
  long long nbonds = 0;    // after the run (fix polymerize makes bonds)
  // a device run's reneighbouring steps in the trajectory run (its log's last count line;
  // -1: none)
  long long rebuilds_device = -1, rebuilds_host = -1;
};

// the ellipsoid quaternions (w x y z) of every atom in atom-ID order, on every rank of
// comm (zero for an atom without a bonus)
std::vector<double> gather_quat(Lmp &l, MPI_Comm comm)
{
  LAMMPS_NS::Atom *atom = l.lmp->atom;
  std::vector<double> q(4 * (size_t) atom->natoms, 0.0);
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  for (int i = 0; avec && i < atom->nlocal; ++i)
    if (atom->ellipsoid[i] >= 0)
      for (int d = 0; d < 4; ++d)
        q[4 * (size_t) (atom->tag[i] - 1) + d] = avec->bonus[atom->ellipsoid[i]].quat[d];
  MPI_Allreduce(MPI_IN_PLACE, q.data(), (int) q.size(), MPI_DOUBLE, MPI_SUM, comm);
  return q;
}

// a data file path every rank agrees on (rank 0's process ID, so parallel test runs differ)
std::string shared_data_path(const std::string &name)
{
  return shared_path("multirank_" + name, ".data");
}

// a Kremer-Grest melt on a lattice: rows of 20 beads along x (two chains of 10 each),
// 12 x 12 rows, each row starting at another x so that chains wrap around the periodic
// boundary; bonds 0.97, rows 1.1 apart (density 0.85); angles along each chain
std::string write_kg_data(bool with_angles)
{
  static std::string paths[2];
  std::string &path = paths[with_angles ? 1 : 0];
  if (!path.empty()) return path;
  path = shared_data_path(with_angles ? "kg_angles" : "kg");
  if (world_rank() == 0) {
    const int nx = 20, ny = 12, nz = 12, len = 10;
    const double bx = 0.97, by = 1.1;
    const int natoms = nx * ny * nz, nchains = natoms / len;
    std::ofstream o(path);
    o << "Kremer-Grest lattice melt (mesogpu multi-rank test)\n\n"
      << natoms << " atoms\n"
      << nchains * (len - 1) << " bonds\n";
    if (with_angles) o << nchains * (len - 2) << " angles\n";
    o << "1 atom types\n1 bond types\n"
      << (with_angles ? "1 angle types\n" : "") << "\n"
      << "0 " << nx * bx << " xlo xhi\n0 " << ny * by << " ylo yhi\n0 " << nz * by
      << " zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # angle\n\n";
    char line[200];
    for (int iz = 0; iz < nz; ++iz)
      for (int iy = 0; iy < ny; ++iy) {
        const int row = iz * ny + iy, start = (iy + 3 * iz) % nx;
        for (int k = 0; k < nx; ++k) {
          const int id = row * nx + k + 1, mol = row * (nx / len) + k / len + 1;
          snprintf(line, sizeof(line), "%d %d 1 %.6f %.6f %.6f\n", id, mol,
                   ((start + k) % nx + 0.5) * bx, (iy + 0.5) * by, (iz + 0.5) * by);
          o << line;
        }
      }
    o << "\nBonds\n\n";
    int b = 0;
    for (int r = 0; r < ny * nz; ++r)
      for (int k = 0; k < nx; ++k)
        if (k % len != len - 1)
          o << ++b << " 1 " << r * nx + k + 1 << " " << r * nx + k + 2 << "\n";
    if (with_angles) o << "\nAngles\n\n";
    int a = 0;
    if (with_angles)
      for (int r = 0; r < ny * nz; ++r)
        for (int k = 0; k < nx; ++k)
          if (k % len < len - 2)
            o << ++a << " 1 " << r * nx + k + 1 << " " << r * nx + k + 2 << " " << r * nx + k + 3
              << "\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// an LJ liquid: fcc lattice moved off its sites, velocities at T = 1.44, made once on rank 0
// and read by every run: create_atoms numbers atoms by rank, so a lattice made on 4 ranks
// would be another system (other IDs, other velocities) than the one-rank references
std::string write_lj_data()
{
  static const std::string path = write_data_on_rank0(
      "multirank_lj", {"units lj", "atom_style atomic", "lattice fcc 0.8442",
                       "region box block 0 8 0 8 0 8", "create_box 1 box", "create_atoms 1 box",
                       "mass 1 1.0", "displace_atoms all random 0.05 0.05 0.05 5813 units box",
                       "velocity all create 1.44 87287 mom yes rot no dist gaussian"});
  return path;
}

// a DPD fluid (Groot-Warren, rho 3): fcc lattice moved off its sites, T = 1, made once on
// rank 0 as the LJ liquid is
std::string write_dpd_data()
{
  static const std::string path = write_data_on_rank0(
      "multirank_dpd", {"units lj", "atom_style atomic", "lattice fcc 3.0",
                        "region box block 0 8 0 8 0 8", "create_box 1 box", "create_atoms 1 box",
                        "mass 1 1.0", "displace_atoms all random 0.2 0.2 0.2 9127 units box",
                        "velocity all create 1.0 4928 mom yes rot no dist gaussian"});
  return path;
}

// a data file made once on rank 0 from `cmds` (write_data_on_rank0, nocoeff) and read by
// every run, as the LJ liquid's; a collective on the world at its first call
std::string write_once(const std::string &name, const std::vector<std::string> &cmds)
{
  static std::map<std::string, std::string> paths;
  std::string &path = paths[name];
  if (path.empty()) path = write_data_on_rank0("multirank_" + name, cmds, "nocoeff");
  return path;
}

// monomers (type 2) of an LJ liquid with 5 % initiators (type 1), made once on rank 0
std::string write_polymer_data()
{
  return write_once("polymer", {"units lj", "atom_style bond", "lattice fcc 0.8",
                                "region box block 0 7 0 7 0 7", "create_box 3 box bond/types 1",
                                "create_atoms 2 box", "set type 2 type/fraction 1 0.05 12345",
                                "mass * 1.0", "velocity all create 1.0 4928 loop geom",
                                "displace_atoms all random 0.08 0.08 0.08 777 units box"});
}

// DPPC/water of examples/mdscf/dppc (the MD-SCF phospholipid model as GALAMOST runs it):
// 208 lipids of 12 beads and 1600 water beads in an 81.6 x 81.6 x 62.6 A box, a
// pre-assembled bilayer, written by the example's make_dppc.py (python3, standard library)
std::string write_dppc_data()
{
  static std::string path;
  if (!path.empty()) return path;
  path = shared_path("multirank_dppc", ".data");
  int rc = 0;
  if (world_rank() == 0) {
    const std::string cmd = "python3 " + std::string(MESOGPU_SOURCE_DIR) +
                            "/examples/mdscf/dppc/make_dppc.py --lipids 208 --water 1600 "
                            "--box 81.6 81.6 62.6 --seed 20260704 -o " +
                            path;
    rc = std::system(cmd.c_str());
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != 0) ADD_FAILURE() << "make_dppc.py failed (" << rc << "): python3 is needed";
  return path;
}

// the DMPC bilayer of examples/membrane at its smallest (make_bilayer.py -n 4: 32 ELBA
// lipids in 960 SSD/E waters, 1376 atoms, atom_style hybrid full ellipsoid) with the
// example's force field: pair ssd, lj/cut and coul/dipole/body overlaid (charged heads, the
// dipoles of water, glycerol and ester beads along their body z), harmonic bonds,
// cosine/squared angles, special_bonds lj/coul 0 1 1; minimised and 200 fs of
// nvt/rigid/single at 303 K on the CPU
const char *MEMBRANE_INERTIA = " inertia 1 1.7696 0.6145 1.1550 inertia 4*5 1000.0 1000.0 1000.0";
std::vector<std::string> membrane_force_field(bool dev)
{
  const std::string lj = S(dev, "lj/cut"), cdb = S(dev, "coul/dipole/body"), ssd = S(dev, "ssd");
  std::vector<std::string> c = {"pair_style " + S(dev, "hybrid/overlay") + " " + ssd +
                                    " 9.0 ljmode shift elec sf " + lj + " 12.0 " + cdb +
                                    " 12.0 elec sf",
                                "pair_modify pair " + lj + " shift yes"};
  // ELBA's LJ between unlike and lipid beads (epsilon kcal/mol, sigma A)
  static const char *const table[] = {
      "1 2 0.725 4.225", "1 3 0.943 4.125", "1 4 0.651 3.825", "1 5 0.710 3.825",
      "1 6 0.554 3.775", "2 2 1.434 5.400", "2 3 1.434 5.300", "2 4 1.171 5.000",
      "2 5 1.171 5.000", "2 6 1.095 4.950", "3 3 1.434 5.200", "3 4 1.171 4.900",
      "3 5 1.171 4.900", "3 6 1.095 4.850", "4 4 0.956 4.600", "4 5 0.956 4.600",
      "4 6 0.894 4.550", "5 5 0.956 4.600", "5 6 0.894 4.550", "6 6 0.837 4.500"};
  for (const char *t : table) {
    const std::string row(t);
    const size_t sp = row.find(' ', row.find(' ') + 1);
    c.push_back("pair_coeff " + row.substr(0, sp) + " " + lj + row.substr(sp));
  }
  c.insert(c.end(),
           {"pair_coeff * * " + cdb, "pair_coeff 1 1 " + cdb + " dipole 2.42",
            "pair_coeff 4 4 " + cdb + " dipole 1.6", "pair_coeff 5 5 " + cdb + " dipole 2.0",
            "pair_coeff 1 1 none", "pair_coeff 1 1 " + ssd + " ssd/e",
            "special_bonds lj/coul 0.0 1.0 1.0", "bond_style " + S(dev, "harmonic"),
            "bond_coeff 1 1.506 4.770", "bond_coeff 2 1.506 4.410", "bond_coeff 3 1.506 4.140",
            "bond_coeff 4 1.506 4.095", "bond_coeff 5 1.506 4.050",
            "angle_style " + S(dev, "cosine/squared"), "angle_coeff 1 3.585 115.0",
            "angle_coeff 2 3.585 90.0", "angle_coeff 3 3.585 180.0"});
  return c;
}
std::string write_membrane_data()
{
  // (made at the first call, which every rank makes: shared_path and the broadcast are
  // collectives on the world, and the one-rank reference runs call this on rank 0 alone)
  static std::string path;
  if (!path.empty()) return path;
  const std::string raw = shared_path("multirank_bilayer", ".data");
  int rc = 0;
  if (world_rank() == 0) {
    const std::string cmd = "python3 " + std::string(MESOGPU_SOURCE_DIR) +
                            "/examples/membrane/make_bilayer.py -n 4 -o " + raw + " > /dev/null";
    rc = std::system(cmd.c_str());
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != 0) ADD_FAILURE() << "make_bilayer.py failed (" << rc << "): python3 is needed";
  std::vector<std::string> c = {"units real", "atom_style hybrid full ellipsoid",
                                "atom_modify map array", "read_data " + raw};
  const auto ff = membrane_force_field(false);
  c.insert(c.end(), ff.begin(), ff.end());
  c.insert(c.end(),
           {"neighbor 2.0 bin", "neigh_modify every 1 delay 0 check yes",
            "minimize 1.0e-4 1.0e-6 100 1000", "reset_timestep 0",
            "velocity all create 303.0 8151 mom yes rot no dist gaussian", "timestep 1.0",
            std::string("fix 1 all nvt/rigid/single temp 303.0 303.0 50.0") + MEMBRANE_INERTIA,
            "thermo 0", "run 200 post no"});
  path = write_once("membrane", c);
  return path;
}

// soft anisotropic particles (pair soft/aniso, rho = 3, 648 in a 6^3 box): 432 triblock
// (aba) and 216 Janus particles, random orientations and angular velocities, relaxed on the
// CPU styles for 300 steps under the thermostat of fix leapfrog/aniso. nu = 1: the patch
// weights are continuous at the patch edges (nu < 1 makes forces there arbitrarily
// sensitive to the last bit of an angle)
const std::vector<std::string> TRIBLOCK_COEFFS = {"pair_coeff 1 1 396 aba 88 1.0 60",
                                                  "pair_coeff 2 2 396 janus 88 1.0 90",
                                                  "pair_coeff 1 2 396 iso"};
std::string write_triblock_data()
{
  std::vector<std::string> c = {
      "units lj",
      "atom_style hybrid sphere dipole",
      "atom_modify map array",
      "region box block 0 6 0 6 0 6",
      "create_box 2 box",
      "create_atoms 1 random 432 20130818 NULL",
      "create_atoms 2 random 216 20130819 NULL",
      "set group all mass 1.0",
      "set group all dipole/random 20130820 1.0",
      "velocity all create 1.0 20130822 loop geom dist gaussian mom no rot no",
      "variable wx atom vx",
      "variable wy atom vy",
      "variable wz atom vz",
      "set group all omega v_wx v_wy v_wz",
      "velocity all create 1.0 20130821 loop geom mom yes",
      "pair_style soft/aniso 1.0"};
  c.insert(c.end(), TRIBLOCK_COEFFS.begin(), TRIBLOCK_COEFFS.end());
  c.insert(c.end(),
           {"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "comm_modify vel yes",
            "timestep 0.002", "fix 1 all leapfrog/aniso berendsen 1.0 0.1 0.1", "thermo 0",
            "run 300 post no",
            // per-type masses too: the dipole part of the hybrid style writes a
            // Masses section, which read_data refuses with zeros (rmass is used)
            "mass * 1.0"});
  return write_once("triblock", c);
}

// SSD/E water (real units): 500 molecules on an fcc lattice at 0.997 g/cm^3 (box 24.6 A,
// above 2 x (cutoff + skin), so the one-rank runs need no image codes), random
// quaternions, 100 fs of fix nvt/rigid/single at 298 K on the CPU
const char *SSD_INERTIA = " inertia 1 1.7696 0.6145 1.1550";
std::string write_ssd_data()
{
  return write_once(
      "ssd", {"units real", "atom_style ellipsoid", "atom_modify map array", "lattice fcc 4.9324",
              "region box block 0 5 0 5 0 5", "create_box 1 box", "create_atoms 1 box",
              "set type 1 mass 18.0153", "set type 1 shape 1 1 1", "set type 1 quat/random 4471",
              "velocity all create 298.0 4471 mom yes rot no dist gaussian",
              "pair_style ssd 9.0 ljmode switch elec rfswitch 1 7.7", "pair_coeff * * ssd/e",
              "neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "timestep 1.0",
              std::string("fix 1 all nvt/rigid/single temp 298.0 298.0 20.0") + SSD_INERTIA,
              "thermo 0", "run 100 post no"});
}

// Gay-Berne (LJ units, 343 particles): prolate and oblate ellipsoids and spheres without
// a bonus, random quaternions and angmom, 200 steps of fix nve/rigid/single on the CPU
const std::vector<std::string> GB_COEFFS = {"pair_coeff 1 1 gb 0.4 0.9 1.0 1.0 0.2",
                                            "pair_coeff 2 2 gb 0.6 0.4 0.8 0.5 1.0",
                                            "pair_coeff 3 3 lj 0.6 0.5"};
const char *GB_INERTIA = " inertia 1 0.9 0.55 0.3 inertia 2 0.4 0.75 1.1";
std::string write_gb_data()
{
  std::vector<std::string> c = {"units lj",
                                "atom_style ellipsoid",
                                "atom_modify map array",
                                "lattice sc 0.3",
                                "region box block 0 7 0 7 0 7",
                                "create_box 3 box",
                                "create_atoms 1 box",
                                "displace_atoms all random 0.05 0.05 0.05 7781 units box",
                                "set type 1 type/fraction 2 0.35 1234",
                                "set type 1 type/fraction 3 0.4 4321",
                                "set type 1 shape 0.6 0.6 1.4",
                                "set type 2 shape 1.0 1.0 0.6",
                                "set type * mass 1.0",
                                "set type 1*2 quat/random 4471",
                                "velocity all create 1.0 87287 loop geom",
                                "variable ax atom 0.5*sin(1.7*id)",
                                "variable ay atom 0.4*cos(2.3*id)",
                                "variable az atom 0.3*sin(0.9*id+1)",
                                "set type 1*2 angmom v_ax v_ay v_az",
                                "pair_style gb 3.0"};
  c.insert(c.end(), GB_COEFFS.begin(), GB_COEFFS.end());
  c.insert(c.end(),
           {"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "timestep 0.002",
            std::string("fix 1 all nve/rigid/single") + GB_INERTIA, "thermo 0", "run 200 post no"});
  return write_once("gb", c);
}

// charged and dipolar beads (real units, 216 on a 3.1 A lattice): cations, anions, a
// dipole along body z, a charged dipole along body x; coul/dipole/body (shifted force)
// overlaid with a repulsive lj/cut; 300 fs of fix nvt/rigid/single at 300 K on the CPU
// (the ions pair up and heat the lattice)
const char *BEADS_INERTIA =
    " inertia 1 7.2 7.2 7.2 inertia 2 7.2 7.2 7.2 inertia 3 9.0 6.0 4.0 inertia 4 5.0 7.0 8.0";
std::vector<std::string> beads_pair(bool dev)
{
  const std::string cdb = S(dev, "coul/dipole/body");
  return {"pair_style " + S(dev, "hybrid/overlay") + " " + S(dev, "lj/cut") + " 7.0 " + cdb +
              " 7.0 elec sf",
          "pair_coeff * * " + S(dev, "lj/cut") + " 0.2 2.6", "pair_coeff * * " + cdb,
          "pair_coeff 3 3 " + cdb + " dipole 2.8",
          "pair_coeff 4 4 " + cdb + " dipole/eA 0.5 1 0 0"};
}
std::string write_beads_data()
{
  std::vector<std::string> c = {"units real",
                                "atom_style hybrid ellipsoid charge",
                                "atom_modify map array",
                                "lattice sc 3.1",
                                "region box block 0 6 0 6 0 6",
                                "create_box 4 box",
                                "create_atoms 1 box",
                                "displace_atoms all random 0.15 0.15 0.15 7781 units box",
                                "set type 1 type/fraction 2 0.25 1234",
                                "set type 1 type/fraction 3 0.33 1235",
                                "set type 1 type/fraction 4 0.5 1236",
                                "set type * shape 1 1 1",
                                "set type * mass 72.0",
                                "mass * 72.0",
                                "set type * quat/random 4471",
                                "set type 1 charge 1.0",
                                "set type 2 charge -1.0",
                                "set type 3 charge 0.0",
                                "set type 4 charge -0.6",
                                "velocity all create 300.0 4928 loop geom"};
  const auto pair = beads_pair(false);
  c.insert(c.end(), pair.begin(), pair.end());
  c.insert(c.end(),
           {"neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "timestep 1.0",
            std::string("fix 1 all nvt/rigid/single temp 300.0 300.0 20.0") + BEADS_INERTIA,
            "thermo 0", "run 300 post no"});
  return write_once("beads", c);
}

// kg_mdscf: the Kremer-Grest melt with two types (chains of molecules 1-144 type 2, their
// rows fill the lower half in z) and fix mdscf (chi 2, every 5, deposit by atomics);
// kg_mdscf_gather: the same, every 3, deposit by gather
enum class System {
  lj,
  kg,
  kg_newton_off,
  kg_angles,
  kg_mdscf,
  kg_mdscf_gather,
  dpd,
  triblock,
  ssd,
  gb,
  beads,
  pe,
  dppc,
  membrane,
  polymer
};

// the input up to the fixes; dev: the /cuda styles and run_style verlet/cuda
void build(Lmp &l, System sys, bool dev)
{
  if (sys == System::lj) {
    l.cmds({"units lj", "atom_style atomic", "atom_modify map array",
            "read_data " + write_lj_data(), "pair_style " + S(dev, "lj/cut") + " 2.5",
            "pair_coeff 1 1 1.0 1.0 2.5"});
  } else if (sys == System::dpd) {
    // comm_modify vel yes: pair dpd needs ghosts' velocities (on the CPU and the device)
    l.cmds({"units lj", "atom_style atomic", "atom_modify map array", "comm_modify vel yes",
            "read_data " + write_dpd_data(), "pair_style " + S(dev, "dpd") + " 1.0 1.0 34387",
            "pair_coeff 1 1 25.0 4.5 1.0", "neighbor 0.3 bin",
            "neigh_modify every 1 delay 0 check yes", "timestep 0.04",
            "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::triblock) {
    // comm_modify vel yes as in examples/janus (ghosts' v and omega sent on the CPU)
    l.cmds({"units lj", "atom_style hybrid sphere dipole", "atom_modify map array",
            "comm_modify vel yes", "read_data " + write_triblock_data(),
            "pair_style " + S(dev, "soft/aniso") + " 1.0",
            // a charge, diameter and mass of each atom's own (the charges and diameters
            // act on nothing here: the host's values, carried by a device rebuild)
            "variable pq atom 0.01*(id%13)-0.06", "set group all charge v_pq",
            "variable pd atom 1.0+0.01*(id%11)", "set group all diameter v_pd",
            "variable pm atom 1.0+0.02*(id%7)", "set group all mass v_pm"});
    l.cmds(TRIBLOCK_COEFFS);
  } else if (sys == System::pe) {
    // the united-atom polyethylene of examples/polyethylene (4 chains of 300 sites, 46.4 A
    // box; Dreiding as Xu et al. 2010 use it): harmonic bonds and angles, the charmm
    // torsion without a 1-4 weight, full 1-4 LJ, plain truncation at 10 A; newton_bond
    // on, so the ghosts' bonded forces go back to their owners
    const std::string data =
        std::string(MESOGPU_SOURCE_DIR) + "/examples/polyethylene/data.pe_4x300";
    l.cmds({"units real",
            "atom_style molecular",
            "atom_modify map array",
            "special_bonds lj 0.0 0.0 1.0",
            "read_data " + data,
            "velocity all create 1000.0 4928459 dist gaussian mom yes rot yes",
            "pair_style " + S(dev, "lj/cut") + " 10.0",
            "pair_coeff 1 1 0.1984 3.6239",
            "pair_coeff 2 2 0.2500 3.6994",
            "pair_coeff 1 2 0.22271 3.6615",
            "bond_style " + S(dev, "harmonic"),
            "bond_coeff 1 350.0 1.53",
            "angle_style " + S(dev, "harmonic"),
            "angle_coeff 1 50.0 109.471",
            "dihedral_style " + S(dev, "charmm"),
            "dihedral_coeff 1 1.0 3 0 0.0",
            "neighbor 2.0 bin",
            "neigh_modify every 1 delay 0 check yes",
            "timestep 1.0",
            "thermo_style custom step temp pe press ebond eangle",
            "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::dppc) {
    // as examples/mdscf/dppc/in.dppc: harmonic bonds, cosine/squared angles, LJ between
    // beads of one lipid only (exclude molecule/inter), the field of all five types
    // (updated every 20 steps here, so the run crosses ten updates), nve and 10 fs
    const double kT = 0.0019872067 * 325.0;
    auto chi = [kT](int a, int b, double rt) {
      return " chi " + std::to_string(a) + " " + std::to_string(b) + " " +
             std::to_string(rt / 4.184 / kT);
    };
    const std::string Kb = std::to_string(1250.0 / 2.0 / 4.184 / 100.0),
                      Ka = std::to_string(25.0 / 2.0 / 4.184);
    l.cmds({"units real",
            "atom_style molecular",
            "atom_modify map array",
            "read_data " + write_dppc_data(),
            "bond_style " + S(dev, "harmonic"),
            "bond_coeff 1 " + Kb + " 4.7",
            "bond_coeff 2 " + Kb + " 4.7",
            "bond_coeff 3 " + Kb + " 3.7",
            "bond_coeff 4 " + Kb + " 4.7",
            "bond_coeff 5 " + Kb + " 4.7",
            "angle_style " + S(dev, "cosine/squared"),
            "angle_coeff 1 " + Ka + " 120.0",
            "angle_coeff 2 " + Ka + " 180.0",
            "angle_coeff 3 " + Ka + " 180.0",
            "angle_coeff 4 " + Ka + " 180.0",
            "special_bonds lj 0.0 1.0 1.0",
            "pair_style " + S(dev, "lj/cut") + " 9.0",
            "pair_coeff * * 0.478011 4.7",
            "neigh_modify exclude molecule/inter all",
            "comm_modify cutoff 14.0",
            "neighbor 4.0 bin",
            "neigh_modify every 1 delay 0 check yes",
            "fix field all " + S(dev, "mdscf") + " spacing 6.13 temp 325.0 kappa 0.4184 every 20" +
                chi(1, 2, -1.50) + chi(1, 3, 6.30) + chi(1, 4, 9.00) + chi(1, 5, -8.13) +
                chi(2, 3, 4.50) + chi(2, 4, 13.50) + chi(2, 5, -3.60) + chi(3, 4, 6.30) +
                chi(3, 5, 4.50) + chi(4, 5, 33.75),
            "fix_modify field energy yes",
            "velocity all create 325.0 20260704 loop geom",
            "timestep 10.0",
            "thermo_style custom step temp pe press ebond eangle",
            "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::polymer) {
    // chain growth (fix polymerize, the test's fix line): LJ between all beads, harmonic
    // bonds made during the run; ghosts three bonds from a new bond (comm_modify cutoff)
    l.cmds({"units lj", "atom_style bond", "atom_modify map array", "comm_modify cutoff 4.0",
            "read_data " + write_polymer_data() + " extra/bond/per/atom 2 extra/special/per/atom 6",
            "pair_style " + S(dev, "lj/cut") + " 2.5", "pair_coeff * * 1.0 1.0",
            "bond_style " + S(dev, "harmonic"), "bond_coeff 1 30.0 1.0",
            "special_bonds lj/coul 0.0 0.5 0.8", "group inits type 1", "neighbor 0.3 bin",
            "neigh_modify every 1 delay 0 check yes", "timestep 0.005",
            "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::membrane) {
    // a short skin and 2 fs steps: several rebuilds in 200 steps
    l.cmds({"units real", "atom_style hybrid full ellipsoid", "atom_modify map array",
            "read_data " + write_membrane_data()});
    l.cmds(membrane_force_field(dev));
    l.cmds({"neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes", "timestep 2.0",
            "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::beads) {
    l.cmds({"units real", "atom_style hybrid ellipsoid charge", "atom_modify map array",
            "read_data " + write_beads_data()});
    l.cmds(beads_pair(dev));
    l.cmds({"neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "timestep 1.0",
            "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::ssd || sys == System::gb) {
    const bool ssd = sys == System::ssd;
    l.cmds({ssd ? "units real" : "units lj", "atom_style ellipsoid", "atom_modify map array",
            "read_data " + (ssd ? write_ssd_data() : write_gb_data())});
    if (ssd)
      l.cmds({"pair_style " + S(dev, "ssd") + " 9.0 ljmode switch elec rfswitch 1 7.7",
              "pair_coeff * * ssd/e"});
    else
      l.cmd("pair_style " + S(dev, "gb") + " 3.0");
    if (!ssd) l.cmds(GB_COEFFS);
    l.cmds({ssd ? "neighbor 1.0 bin" : "neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes",
            ssd ? "timestep 1.0" : "timestep 0.002",
            "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
    if (dev) l.cmd("run_style verlet/cuda share yes");
    return;
  } else if (sys == System::kg_mdscf || sys == System::kg_mdscf_gather) {
    const bool gather = sys == System::kg_mdscf_gather;
    l.cmds({"units lj", "atom_style angle", "atom_modify map array", "comm_modify cutoff 3.0",
            "read_data " + write_kg_data(false) + " extra/atom/types 1", "mass 2 1.0",
            "set mol 1*144 type 2", "velocity all create 1.0 4928459 mom yes rot no dist gaussian",
            "pair_style " + S(dev, "lj/cut") + " 1.122462048309373",
            "pair_coeff * * 1.0 1.0 1.122462048309373", "pair_modify shift yes",
            "bond_style " + S(dev, "fene"), "bond_coeff 1 30.0 1.5 1.0 1.0", "special_bonds fene",
            // a grid that does not match the box edges (19.4 x 13.2 x 13.2)
            "fix field all " + S(dev, "mdscf") + " grid 11 7 8 temp 1.0 kappa 0.1 chi 1 2 2.0 " +
                (gather ? "every 3" : "every 5") +
                (dev ? (gather ? " deposit gather" : " deposit atomic") : ""),
            "fix_modify field energy yes"});
  } else {
    const bool angles = sys == System::kg_angles;
    l.cmds({"units lj", std::string("newton on ") + (sys == System::kg_newton_off ? "off" : "on"),
            "atom_style angle", "atom_modify map array",
            // every atom of a term an owned atom lists must be owned or a ghost
            "comm_modify cutoff 3.0", "read_data " + write_kg_data(angles),
            "velocity all create 1.0 4928459 mom yes rot no dist gaussian",
            "pair_style " + S(dev, "lj/cut") + " 1.122462048309373",
            "pair_coeff 1 1 1.0 1.0 1.122462048309373", "pair_modify shift yes",
            "bond_style " + S(dev, "fene"), "bond_coeff 1 30.0 1.5 1.0 1.0", "special_bonds fene"});
    if (angles) l.cmds({"angle_style " + S(dev, "cosine/squared"), "angle_coeff 1 1.5 180.0"});
  }
  l.cmds({"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "timestep 0.005",
          "thermo_style custom step temp pe press ebond eangle", "thermo 50"});
  if (dev) l.cmd("run_style verlet/cuda share yes");    // the ranks share the test GPU
}

// step 0 (run 0), then `fixes` and a run of TRAJ_STEPS
Result run_case(MPI_Comm comm, System sys, bool dev, const std::vector<std::string> &fixes,
                int steps = TRAJ_STEPS)
{
  Lmp l(comm);
  build(l, sys, dev);
  Result r;
  l.cmds({"fix 1 all " + S(dev, "nve"), "run 0 post no"});
  r.pe = l.thermo("pe");
  r.press = l.thermo("press");
  r.ebond = l.thermo("ebond");
  r.eangle = l.thermo("eangle");
  r.f0 = l.gather("f");
  LAMMPS_NS::Atom *atom = l.lmp->atom;
  if (atom->torque_flag) r.t0 = l.gather("torque");
  for (const auto &f : fixes) l.cmd(f);
  // (a device run's log: where its reneighbouring steps ran; unless a fix line logs)
  const bool logged = std::none_of(fixes.begin(), fixes.end(), [](const std::string &f) {
    return f.compare(0, 4, "log ") == 0;
  });
  const std::string logfile = shared_path("multirank_case", ".lammps", comm);
  if (dev && logged) l.cmd("log " + logfile);
  l.cmd("run " + std::to_string(steps) + " post no");
  if (dev && logged) {
    l.cmd("log none");
    int me = 0;
    MPI_Comm_rank(comm, &me);
    if (me == 0) rebuild_counts(read_text(logfile), r.rebuilds_device, r.rebuilds_host);
  }
  r.x = l.gather("x");
  r.v = l.gather("v");
  if (atom->mu_flag) r.mu = l.gather("mu");    // x y z of mu (|mu| is 1)
  if (atom->omega_flag) r.omega = l.gather("omega");
  if (atom->ellipsoid_flag) r.quat = gather_quat(l, comm);
  if (atom->angmom_flag) r.angmom = l.gather("angmom");
  if (atom->radius_flag) r.radius = l.gather("radius", 1);
  if (atom->rmass_flag) r.rmass = l.gather("rmass", 1);
  if (atom->q_flag) r.q = l.gather("q", 1);
  for (int d = 0; d < 3; ++d) r.box[d] = l.lmp->domain->prd[d];
  r.nbonds = atom->nbonds;
  return r;
}

// the positions of two runs, minimum image in a's box, over its largest edge
double position_diff(const Result &a, const Result &b)
{
  return multirank_test::position_diff(a.x, b.x, a.box);
}

// the run on every rank against the references of rank 0 (one-rank device; one-rank CPU
// when cpu); the result of rank 0's checks goes to every rank
// (returns the run on every rank)
Result compare(System sys, const char *name, const std::vector<std::string> &dev_fixes,
               const std::vector<std::string> &cpu_fixes, bool cpu, int steps = TRAJ_STEPS)
{
  const Result many = run_case(MPI_COMM_WORLD, sys, true, dev_fixes, steps);
  if (world_rank() == 0) {
    std::vector<std::pair<const char *, Result>> refs;
    refs.emplace_back("1-rank device", run_case(MPI_COMM_SELF, sys, true, dev_fixes, steps));
    if (cpu) refs.emplace_back("1-rank CPU", run_case(MPI_COMM_SELF, sys, false, cpu_fixes, steps));
    for (const auto &ref : refs) {
      const Result &r = ref.second;
      const double dpe = rel(many.pe, r.pe), dpress = rel(many.press, r.press);
      const double deb = std::fabs(many.ebond - r.ebond) / std::max(1.0, std::fabs(r.ebond));
      const double dea = std::fabs(many.eangle - r.eangle) / std::max(1.0, std::fabs(r.eangle));
      const double df = max_rel_diff(many.f0, r.f0);
      const double dx = position_diff(many, r), dv = max_rel_diff(many.v, r.v);
      printf("[gpu] %s on %d ranks vs %s: step 0 pe %.2e press %.2e ebond %.2e eangle %.2e "
             "f %.2e; after %d steps x %.2e v %.2e (%s)\n",
             name, world_size(), ref.first, dpe, dpress, deb, dea, df, steps, dx, dv, PREC);
      EXPECT_LE(dpe, STEP0_TOL) << name << " vs " << ref.first << ": " << many.pe << " " << r.pe;
      EXPECT_LE(dpress, STEP0_TOL) << name << " vs " << ref.first;
      EXPECT_LE(deb, STEP0_TOL) << name << " vs " << ref.first;
      EXPECT_LE(dea, STEP0_TOL) << name << " vs " << ref.first;
      EXPECT_LE(df, STEP0_TOL) << name << " vs " << ref.first;
      EXPECT_LE(dx, TRAJ_TOL) << name << " vs " << ref.first;
      EXPECT_LE(dv, TRAJ_TOL) << name << " vs " << ref.first;
      // the box (a barostat changes it)
      double dbox = 0;
      for (int d = 0; d < 3; ++d) dbox = std::max(dbox, rel(many.box[d], r.box[d]));
      EXPECT_LE(dbox, TRAJ_TOL) << name << " vs " << ref.first << ": box";
      EXPECT_EQ(many.nbonds, r.nbonds) << name << " vs " << ref.first << ": bonds";
      // oriented particles and rigid bodies: torques at step 0, the rotational state later
      // (each array where the atom style has it; the references have the same ones)
      const std::pair<const char *,
                      std::pair<const std::vector<double> *, const std::vector<double> *>>
          rot[] = {{"torque(0)", {&many.t0, &r.t0}},
                   {"mu", {&many.mu, &r.mu}},
                   {"omega", {&many.omega, &r.omega}},
                   {"quat", {&many.quat, &r.quat}},
                   {"angmom", {&many.angmom, &r.angmom}}};
      for (const auto &q : rot) {
        const std::vector<double> &a = *q.second.first, &b = *q.second.second;
        // (no ASSERT here: rank 0 must reach the barrier below)
        EXPECT_EQ(a.size(), b.size()) << name << " " << q.first;
        if (a.empty() || a.size() != b.size()) continue;
        double scale = 0;
        const double d = max_rel_diff(a, b, &scale);
        const bool step0 = q.first[0] == 't';
        printf("[gpu] %s on %d ranks vs %s: %s %.2e (max %.3g)\n", name, world_size(), ref.first,
               q.first, d, scale);
        EXPECT_GT(scale, 0.0) << name << " " << q.first << ": all zero";
        EXPECT_LE(d, ROT_FACTOR * (step0 ? STEP0_TOL : TRAJ_TOL))
            << name << " vs " << ref.first << ": " << q.first;
      }
      // values no step changes: the same bits, whichever rank held an atom
      const std::pair<const char *,
                      std::pair<const std::vector<double> *, const std::vector<double> *>>
          kept[] = {{"radius", {&many.radius, &r.radius}},
                    {"rmass", {&many.rmass, &r.rmass}},
                    {"q", {&many.q, &r.q}}};
      for (const auto &k : kept) {
        const std::vector<double> &a = *k.second.first, &b = *k.second.second;
        EXPECT_EQ(a.size(), b.size()) << name << " " << k.first;
        if (a.size() != b.size()) continue;
        size_t differ = 0;
        for (size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i];
        EXPECT_EQ(differ, 0u) << name << " vs " << ref.first << ": " << k.first;
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return many;
}

// the fix lines of a run: 'unfix 1' and fix 1 with `args`, whose %s becomes "/cuda" for
// the device run and "" for the CPU one
std::vector<std::string> fix_one(const std::string &args, bool dev)
{
  std::string f = args;
  f.replace(f.find("%s"), 2, dev ? "/cuda" : "");
  return {"unfix 1", "fix 1" + f};
}

// several ranks: the run's reneighbouring steps all ran on the device (rank 0 checks)
void expect_device_rebuilds(const Result &r, const char *name)
{
  if (world_rank() != 0 || world_size() < 2) return;
  printf("[gpu] %s on %d ranks: %lld rebuilds on the device, %lld through the host\n", name,
         world_size(), r.rebuilds_device, r.rebuilds_host);
  EXPECT_GE(r.rebuilds_device, 0) << name << ": no count of rebuilds in the log";
  EXPECT_EQ(r.rebuilds_host, 0) << name;
  // (the 50-step runs of mixed and single precision may not reneighbour at all)
  if (TRAJ_STEPS >= 200) {
    EXPECT_GT(r.rebuilds_device, 0) << name;
  }
}

}    // namespace

TEST(MultiRank, LJLiquidNVE)
{
  compare(System::lj, "LJ nve", {}, {}, true);
}

TEST(MultiRank, LJLiquidNVTMomentum)
{
  compare(
      System::lj, "LJ nvt + momentum",
      {"unfix 1", "fix 1 all nvt/cuda temp 1.0 1.0 0.5", "fix 2 all momentum/cuda 25 linear 1 1 1"},
      {"unfix 1", "fix 1 all nvt temp 1.0 1.0 0.5", "fix 2 all momentum 25 linear 1 1 1"}, true);
}

TEST(MultiRank, LJLiquidBerendsen)
{
  compare(System::lj, "LJ temp/berendsen", {"fix 2 all temp/berendsen/cuda 1.0 1.0 0.5"},
          {"fix 2 all temp/berendsen 1.0 1.0 0.5"}, true);
}

// fix momentum with angular: the centre of mass, angular momentum and inertia tensor of
// the unwrapped positions (the global box's edges, not a rank's) summed over ranks
TEST(MultiRank, LJLiquidNVTMomentumAngular)
{
  compare(
      System::lj, "LJ nvt + momentum angular",
      {"unfix 1", "fix 1 all nvt/cuda temp 1.0 1.0 0.5",
       "fix 2 all momentum/cuda 25 linear 1 1 1 angular"},
      {"unfix 1", "fix 1 all nvt temp 1.0 1.0 0.5", "fix 2 all momentum 25 linear 1 1 1 angular"},
      true);
}

// the Nose-Hoover barostat (isotropic): the box and the subdomains change every step, the
// atoms are dilated on their ranks, the pressure is summed over ranks; the rebuilds stay
// on the device (CommBrick's slabs of the new subdomains)
TEST(MultiRank, LJLiquidNPT)
{
  const Result r = compare(System::lj, "LJ npt",
                           {"unfix 1", "fix 1 all npt/cuda temp 1.0 1.0 0.5 iso 1.0 1.0 2.0"},
                           {"unfix 1", "fix 1 all npt temp 1.0 1.0 0.5 iso 1.0 1.0 2.0"}, true);
  expect_device_rebuilds(r, "LJ npt");
}

// the random forces follow atom IDs and steps: the same on any number of ranks (the CPU
// fix draws per rank, so no CPU reference)
TEST(MultiRank, LJLiquidLangevin)
{
  compare(System::lj, "LJ langevin", {"fix 2 all langevin/cuda 1.0 1.0 1.0 4321"}, {}, false);
}

TEST(MultiRank, KremerGrestNewtonBondOn)
{
  compare(System::kg, "KG newton_bond on", {}, {}, true);
}

TEST(MultiRank, KremerGrestNewtonBondOff)
{
  compare(System::kg_newton_off, "KG newton_bond off", {}, {}, true);
}

TEST(MultiRank, KremerGrestAngles)
{
  compare(System::kg_angles, "KG + angles", {}, {}, true);
}

TEST(MultiRank, KremerGrestLangevin)
{
  compare(System::kg, "KG langevin", {"fix 2 all langevin/cuda 1.0 1.0 1.0 777"}, {}, false);
}

// the field grid spans the global box on every rank; densities summed over ranks
TEST(MultiRank, KremerGrestMDSCFAtomic)
{
  compare(System::kg_mdscf, "KG + mdscf (atomic)", {}, {}, true);
}

TEST(MultiRank, KremerGrestMDSCFGather)
{
  compare(System::kg_mdscf_gather, "KG + mdscf (gather)", {}, {}, true);
}

// fix balance moves the cuts along z during the run (the chains of type 2 fill the lower
// half): each rank's brick of the field grid moves with them (fix mdscf/cuda's reset_grid:
// the device field to the host, Grid3d's remap, the new brick up)
TEST(MultiRank, KremerGrestMDSCFBalance)
{
  const std::vector<std::string> bal = {"fix bal all balance 20 1.0 shift z 10 1.0"};
  compare(System::kg_mdscf, "KG + mdscf + fix balance", bal, bal, true);
}

// the united-atom polyethylene melt (dihedral charmm/cuda on several ranks: the same
// device term as harmonic/cuda)
TEST(MultiRank, PolyethyleneMelt)
{
  compare(System::pe, "PE melt", {}, {}, true);
}

// chain growth on several ranks: the reaction steps reneighbour through the host, where
// fix polymerize's host step makes the bonds, the other rebuilds on the device; the same
// bonds and trajectory as one rank (the device's chain growth) and the CPU fix
TEST(MultiRank, ChainGrowthPolymerize)
{
  const std::string fix =
      " all %s 10 4321 prob 1 2 0.6 prob 3 2 0.6 rc 1.3 btype 1 jtype 2 3 init inits";
  auto line = [&fix](bool dev) {
    std::string f = fix;
    f.replace(f.find("%s"), 2, dev ? "polymerize/cuda" : "polymerize");
    return std::vector<std::string>{"fix p" + f};
  };
  const Result r = compare(System::polymer, "chain growth", line(true), line(false), true);
  EXPECT_GT(r.nbonds, 0) << "no bonds made";
  if (world_rank() == 0 && world_size() > 1) {
    printf("[gpu] chain growth on %d ranks: %lld bonds; %lld rebuilds on the device, %lld "
           "through the host\n",
           world_size(), r.nbonds, r.rebuilds_device, r.rebuilds_host);
    // a reaction step every 10 steps, each through the host; every other rebuild on the
    // device (the state moves with the atoms there)
    EXPECT_EQ(r.rebuilds_host, TRAJ_STEPS / 10);
  }
}

// MD-SCF with a chemically specific model: DPPC/water (bonds, angles, intramolecular LJ
// with molecule exclusions, the field's ghost grid between ranks)
TEST(MultiRank, DPPCWaterMDSCF)
{
  compare(System::dppc, "DPPC/water + mdscf", {}, {}, true);
}

// pair dpd/cuda: the noise of a pair follows its atom IDs and the step, the same on any
// number of ranks, so the one-rank device run is a reference like the others (forces,
// pressure with the random virial, trajectory); the CPU style draws its own numbers
TEST(MultiRank, DPDFluid)
{
  // the ghosts' velocities after a device rebuild: the new plan's forward exchange
  expect_device_rebuilds(compare(System::dpd, "DPD", {}, {}, false, DPD_STEPS), "DPD");
}

// overlap yes against overlap no, one lane per atom (which the overlap needs): on an
// overlapped step pair dpd/cuda's interior part reads the owned atoms' velocities, packed
// while the ghosts' ones travel, and the part after it the ghosts' ones. The same forces
// bit for bit, so the same trajectory (SAME_TOL); the log says the overlap ran
TEST(MultiRank, DPDOverlapMatchesNoOverlap)
{
  if (world_size() == 1) GTEST_SKIP() << "one rank has no ghosts: nothing to overlap";
  setenv("MESOGPU_PAIR_LANES", "1", 1);
  Result r[2];
  std::string log[2];
  for (int k = 0; k < 2; ++k) {
    const std::string mode = k == 0 ? "yes" : "no";
    setenv("MESOGPU_OVERLAP", mode.c_str(), 1);
    const std::string logfile = shared_path("dpd_overlap_" + mode, ".lammps");
    r[k] = run_case(MPI_COMM_WORLD, System::dpd, true, {"log " + logfile}, DPD_STEPS);
    if (world_rank() == 0) log[k] = read_text(logfile);
  }
  unsetenv("MESOGPU_OVERLAP");
  unsetenv("MESOGPU_PAIR_LANES");
  const double dx = position_diff(r[0], r[1]), dv = max_rel_diff(r[0].v, r[1].v);
  if (world_rank() == 0) {
    printf("[gpu] DPD on %d ranks, overlap yes vs no: after %d steps x %.2e v %.2e (%s)\n",
           world_size(), DPD_STEPS, dx, dv, PREC);
    EXPECT_NE(log[0].find("have no ghost in their lists"), std::string::npos) << log[0];
    EXPECT_EQ(log[1].find("verlet/cuda overlap"), std::string::npos) << log[1];
  }
  EXPECT_LE(dx, SAME_TOL);
  EXPECT_LE(dv, SAME_TOL);
  MPI_Barrier(MPI_COMM_WORLD);
}

// the DPD fluid's temperature and pressure averaged over steps 505-1000 (ave/time's
// window: the fix is defined at step 500) on all
// ranks on the device and on one rank on the CPU: other random numbers, the same
// statistics. Tolerances: 2048 atoms give T a standard deviation of sqrt(2/(3N)) = 0.018
// per sample and about 100 independent samples (every 5 steps), so a mean error near
// 0.002 (0.2 %); the CPU style on 1 and 2 ranks (other streams) gave 1.0235 and 1.0218,
// 23.839 and 23.825; 2 % for T and 1 % for the pressure (about 24) are many standard errors
// apart (ghost velocities that are wrong show up exactly in DPDFluid's step-0 forces)
TEST(MultiRank, DPDStatisticsAgainstCPU)
{
  auto averages = [](MPI_Comm comm, bool dev, double out[2]) {
    Lmp l(comm);
    build(l, System::dpd, dev);
    l.cmds({"fix 1 all " + S(dev, "nve"), "run 500 post no",
            "fix avg all ave/time 5 100 500 c_thermo_temp c_thermo_press", "run 500 post no"});
    auto *avg = l.lmp->modify->get_fix_by_id("avg");
    out[0] = avg->compute_vector(0);
    out[1] = avg->compute_vector(1);
  };
  double dev[2] = {0, 0}, cpu[2] = {0, 0};
  averages(MPI_COMM_WORLD, true, dev);
  if (world_rank() == 0) {
    averages(MPI_COMM_SELF, false, cpu);
    printf("[gpu] DPD on %d ranks: <T> %.5f <P> %.5f; 1-rank CPU <T> %.5f <P> %.5f (%s)\n",
           world_size(), dev[0], dev[1], cpu[0], cpu[1], PREC);
    EXPECT_LE(rel(dev[0], cpu[0]), 0.02) << dev[0] << " " << cpu[0];
    EXPECT_LE(rel(dev[1], cpu[1]), 0.01) << dev[1] << " " << cpu[1];
    // both near the set temperature (velocity-Verlet DPD at dt 0.04 heats by a few %)
    EXPECT_NEAR(dev[0], 1.0, 0.1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// oriented particles: triblock and Janus soft/aniso particles, fix leapfrog/aniso with its
// Berendsen thermostat (translational and rotational sums over ranks); the ghosts' n
// forwarded every step; the rebuilds on the device (atom_style hybrid sphere dipole: n,
// |mu|, omega and torque move with the atoms, and radius, rmass, q and mu are carried
// for the host: the host's radius, rmass and q after the run are the one-rank runs' bit
// for bit, mu and omega within the trajectory tolerance)
TEST(MultiRank, TriblockJanusLeapfrog)
{
  const std::vector<std::string> dev = {"unfix 1",
                                        "fix 1 all leapfrog/aniso/cuda berendsen 1.0 0.3 0.1"};
  const Result r = compare(System::triblock, "triblock soft/aniso leapfrog", dev,
                           {"unfix 1", "fix 1 all leapfrog/aniso berendsen 1.0 0.3 0.1"}, true);
  expect_device_rebuilds(r, "triblock soft/aniso leapfrog");
}

// single-site rigid bodies: SSD/E water under the Nose-Hoover chain of fix
// nvt/rigid/single (its temperature a device sum over ranks); quaternions forwarded
TEST(MultiRank, SSDWaterNVTRigidSingle)
{
  const std::string fix =
      std::string(" all nvt/rigid/single%s temp 298.0 298.0 100.0") + SSD_INERTIA;
  expect_device_rebuilds(compare(System::ssd, "SSD/E water nvt/rigid/single", fix_one(fix, true),
                                 fix_one(fix, false), true),
                         "SSD/E water");
}

// SSD/E water under the rigid-body barostat (npt/rigid/single, isotropic 1 atm): the box
// changes every step on every rank
TEST(MultiRank, SSDWaterNPTRigidSingle)
{
  const std::string fix =
      std::string(" all npt/rigid/single%s temp 298.0 298.0 100.0 iso 1.0 1.0 1000.0") +
      SSD_INERTIA;
  expect_device_rebuilds(compare(System::ssd, "SSD/E water npt/rigid/single", fix_one(fix, true),
                                 fix_one(fix, false), true),
                         "SSD/E water npt");
}

// Gay-Berne ellipsoids (two shapes) and spheres without a bonus under fix nve/rigid/single
TEST(MultiRank, GayBerneNVERigidSingle)
{
  expect_device_rebuilds(
      compare(System::gb, "Gay-Berne nve/rigid/single",
              {"unfix 1", std::string("fix 1 all nve/rigid/single/cuda") + GB_INERTIA},
              {"unfix 1", std::string("fix 1 all nve/rigid/single") + GB_INERTIA}, true),
      "Gay-Berne");
}

// charged and dipolar beads: coul/dipole/body (the ghosts' charges sent after each device
// rebuild) overlaid with lj/cut, fix nve/rigid/single
TEST(MultiRank, DipolarBeadsNVERigidSingle)
{
  expect_device_rebuilds(
      compare(System::beads, "coul/dipole/body beads nve/rigid/single",
              {"unfix 1", std::string("fix 1 all nve/rigid/single/cuda") + BEADS_INERTIA},
              {"unfix 1", std::string("fix 1 all nve/rigid/single") + BEADS_INERTIA}, true),
      "coul/dipole/body beads");
}

// the DMPC bilayer of examples/membrane (atom_style hybrid full ellipsoid): the topology,
// the ellipsoid bonus and the charges move with the atoms on the device; the ghosts' charges
// (coul/dipole/body) come by the forward exchange after each device rebuild
TEST(MultiRank, MembraneNVTRigidSingle)
{
  const std::string fix =
      std::string(" all nvt/rigid/single%s temp 303.0 303.0 100.0") + MEMBRANE_INERTIA;
  expect_device_rebuilds(compare(System::membrane, "DMPC membrane nvt/rigid/single",
                                 fix_one(fix, true), fix_one(fix, false), true),
                         "DMPC membrane");
}

// styles without a multi-rank path stop with an error naming them
TEST(MultiRank, Refusals)
{
  if (world_size() < 2) GTEST_SKIP() << "needs several ranks";
  auto error_of = [](const std::vector<std::string> &setup, const std::string &last) {
    Lmp l(MPI_COMM_WORLD);
    build(l, System::lj, true);
    l.cmds(setup);
    return l.error_of(last);
  };
  // pair dpd/cuda runs on several ranks, but as on the CPU only with ghosts' velocities
  std::string m = error_of(
      {"pair_style dpd/cuda 1.0 1.0 34387", "pair_coeff 1 1 25.0 4.5", "fix 1 all nve/cuda"},
      "run 0 post no");
  EXPECT_NE(m.find("Pair dpd requires ghost atoms store velocity"), std::string::npos) << m;
  m = error_of({"fix 1 all nve/cuda", "comm_style tiled"}, "run 0 post no");
  EXPECT_NE(m.find("comm_style tiled"), std::string::npos) << m;
  m = error_of({"fix 1 all nve/cuda", "compute r all rdf 50",
                "fix a all ave/time 10 1 10 c_r[*] "
                "mode vector file /dev/null"},
               "run 0 post no");
  EXPECT_NE(m.find("own neighbour list"), std::string::npos) << m;
  // more ranks on the node than GPUs, sharing not asked for
  if (mesogpu::cuda::device_count() < world_size()) {
    m = error_of({"fix 1 all nve/cuda", "run_style verlet/cuda"}, "run 0 post no");
    EXPECT_NE(m.find(std::to_string(world_size()) + " MPI ranks on one node would share"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("share yes"), std::string::npos) << m;
  }
}

int main(int argc, char **argv)
{
  return multirank_test::run_all_ranks(argc, argv, PREC);
}
