/* GPU tests of the device pair styles of single-site rigid bodies: ssd/cuda (SSD water),
   gb/cuda (Gay-Berne ellipsoids and spheres) and coul/dipole/body/cuda (charged and
   dipolar beads), alone and under hybrid/overlay/cuda, against the CPU styles in a
   second LAMMPS instance on the same configuration: forces, torques (atom->torque), pe,
   pressure. Orientations are the quaternions of the ellipsoid bonus, which stay fixed
   here (no device rotational integrator yet): a translational trajectory (fix nve vs
   nve/cuda, neighbour rebuilds and device sorts every few steps) moves the atoms under
   the torques. Needs a GPU: without one only the host checks (BodyPairsHost.*) run,
   then the program exits 77 (ctest "skipped"). Tolerances depend on MESOGPU_PRECISION. */

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "force.h"
#include "info.h"
#include "lammps.h"
#include "modify.h"
#include "pair.h"
#include "update.h"

#include "engine.h"
#include "gpu_test_util.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"
#include "precision.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <mpi.h>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

using namespace gpu_test;

namespace {

#if defined(MESOGPU_PREC_DOUBLE)
const double FORCE_TOL = 1e-10, ENERGY_TOL = 1e-11, TRAJ_TOL = 1e-9;
const char *PREC = "double";
#elif defined(MESOGPU_PREC_SINGLE)
const double FORCE_TOL = 2e-4, ENERGY_TOL = 1e-5, TRAJ_TOL = 1e-3;
const char *PREC = "single";
#else
const double FORCE_TOL = 2e-5, ENERGY_TOL = 1e-6, TRAJ_TOL = 1e-3;
const char *PREC = "mixed";
#endif

struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  std::vector<double> peratom(double **a)
  {
    std::vector<double> out(3 * lmp->atom->natoms);
    for (int i = 0; i < lmp->atom->nlocal; ++i)
      for (int d = 0; d < 3; ++d) out[3 * (lmp->atom->tag[i] - 1) + d] = a[i][d];
    return out;
  }
  std::vector<double> forces() { return peratom(lmp->atom->f); }
  std::vector<double> torques() { return peratom(lmp->atom->torque); }
  std::vector<double> positions() { return peratom(lmp->atom->x); }
};

using SystemFn = std::function<void(Lmp &, bool)>;

// what the tests vary: the atom_modify sort setting (0: never; the device sorts along its
// space-filling curve at the first neighbour build and then every N steps) and bonds with
// special factors (separate lj and coul factors at each level)
struct Opt {
  int variant = 0;
  std::string sort = "0 0.0";
  bool bonds = false;
};

// the bond part of a system: bonds between lattice neighbours, harmonic with k = 0 (no bond
// force: only their special factors act)
std::vector<std::string> bond_lines(bool dev, double rmin, double rmax)
{
  return {"bond_style " + S(dev, "harmonic"), "bond_coeff 1 0.0 1.0",
          "create_bonds many all all 1 " + std::to_string(rmin) + " " + std::to_string(rmax),
          "special_bonds lj 0.0 0.5 0.8 coul 0.2 0.6 1.0"};
}

std::string create_box(int ntypes, bool bonds)
{
  return "create_box " + std::to_string(ntypes) + " box" +
         (bonds ? " bond/types 1 extra/bond/per/atom 8 extra/special/per/atom 200" : "");
}

// SSD water on a perturbed simple-cubic lattice (216 molecules, 18.6 A box), random
// quaternions; two water types. Variant 0: ssd and ssd1, plain cutoff (atom_style ellipsoid:
// per-atom masses only). Variant 1: ssd/e and a custom set, reaction field, shifted LJ with
// its own cutoff, an explicit unlike LJ pair. Variant 2: variant 1 with 'elec sf' (shifted
// force). Variant 3: variant 1 with 'elec rfswitch 78 5.5' (switched reaction field). Variant 4:
// variant 3 with 'ljmode switch' (LJ switched from 5.5 to lj_cut 6.0, OOPSE's SSD/RF).
void ssd_water(Lmp &l, bool dev, const Opt &o)
{
  l.cmds({"units real", o.bonds ? "atom_style hybrid bond ellipsoid" : "atom_style ellipsoid",
          "atom_modify map array sort " + o.sort, "lattice sc 3.1", "region box block 0 6 0 6 0 6",
          create_box(2, o.bonds), "create_atoms 1 box",
          "displace_atoms all random 0.15 0.15 0.15 7781 units box",
          "set type 1 type/fraction 2 0.5 1234", "set type * shape 1 1 1",
          "set type * mass 18.0153", "set type * quat/random 4471"});
  if (o.bonds) l.cmd("mass * 18.0153");
  if (o.variant == 0) {
    l.cmds({"pair_style " + S(dev, "ssd") + " 7.0", "pair_coeff 1 1 ssd", "pair_coeff 2 2 ssd1"});
  } else {
    l.cmds({"pair_style " + S(dev, "ssd") + " 7.5 lj_cut 6.0 ljmode " +
                (o.variant == 4 ? "switch" : "shift") + " elec " +
                (o.variant == 2                     ? "sf"
                 : o.variant == 3 || o.variant == 4 ? "rfswitch 78.0 5.5"
                                                    : "rf 78.0"),
            "pair_coeff 1 1 ssd/e",
            "pair_coeff 2 2 custom 3.1 0.16 2.4 3.8 3.6 0.07715 2.5 3.4 2.75 3.9",
            "pair_coeff 1 2 lj 3.0 0.17"});
  }
  if (o.bonds) l.cmds(bond_lines(dev, 2.9, 3.3));
  l.cmds({"neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "timestep 1.0",
          "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// Gay-Berne in LJ units (216 particles): two ellipsoid types (prolate, oblate) and a sphere
// type without an ellipsoid bonus. Variant 0: Cleaver's sigma0, truncated; variant 1:
// arithmetic sigma0, shifted, other mu and nu, per-type softness and cutoffs, an unlike pair
// with its own eps0, dw and cutoff.
void gb_mix(Lmp &l, bool dev, const Opt &o)
{
  l.cmds({"units lj", o.bonds ? "atom_style hybrid bond ellipsoid" : "atom_style ellipsoid",
          "atom_modify map array sort " + o.sort, "lattice sc 0.3", "region box block 0 6 0 6 0 6",
          create_box(3, o.bonds), "create_atoms 1 box",
          "displace_atoms all random 0.05 0.05 0.05 7781 units box",
          "set type 1 type/fraction 2 0.35 1234", "set type 1 type/fraction 3 0.4 4321",
          "set type 1 shape 0.6 0.6 1.4", "set type 2 shape 1.0 1.0 0.6", "set type * mass 1.0",
          "set type 1*2 quat/random 4471"});
  if (o.bonds) l.cmd("mass * 1.0");
  if (o.variant == 0) {
    l.cmds({"pair_style " + S(dev, "gb") + " 3.0", "pair_coeff 1 1 gb 0.4 0.9 1.0 1.0 0.2",
            "pair_coeff 2 2 gb 0.6 0.4 0.8 0.5 1.0", "pair_coeff 3 3 lj 0.6 0.5"});
  } else {
    l.cmds({"pair_style " + S(dev, "gb") + " 2.6 sigma0 arithmetic shift yes mu 1.0 nu 2.0",
            "pair_coeff 1 1 gb 0.55 1.3 1.0 1.0 0.3 dw 0.9",
            "pair_coeff 2 2 gb 0.8 0.5 0.8 0.5 1.0 cut 2.4", "pair_coeff 3 3 lj 0.8 0.5 dw 1.1",
            "pair_coeff 1 2 eps0 0.7 dw 0.95 cut 2.2"});
  }
  if (o.bonds) l.cmds(bond_lines(dev, 1.3, 1.7));
  l.cmds({"neighbor 0.3 bin", "neigh_modify every 1 delay 0 check yes", "timestep 0.002",
          "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// charged and dipolar beads (real units, 216 beads): cations, anions, a neutral dipole along
// body z, a charged dipole along body x given in e Angstrom. Variant 0: plain cutoff;
// variant 1: reaction field; variant 2: shifted force.
void coul_beads(Lmp &l, bool dev, const Opt &o)
{
  l.cmds(
      {"units real",
       o.bonds ? "atom_style hybrid bond ellipsoid charge" : "atom_style hybrid ellipsoid charge",
       "atom_modify map array sort " + o.sort, "lattice sc 3.1", "region box block 0 6 0 6 0 6",
       create_box(4, o.bonds), "create_atoms 1 box",
       "displace_atoms all random 0.15 0.15 0.15 7781 units box",
       "set type 1 type/fraction 2 0.25 1234", "set type 1 type/fraction 3 0.33 1235",
       "set type 1 type/fraction 4 0.5 1236", "set type * shape 1 1 1", "set type * mass 72.0",
       "mass * 72.0", "set type * quat/random 4471", "set type 1 charge 1.0",
       "set type 2 charge -1.0", "set type 3 charge 0.0", "set type 4 charge -0.6"});
  l.cmds({"pair_style " + S(dev, "coul/dipole/body") + " 7.0" +
              (o.variant == 1   ? " elec rf 78.0"
               : o.variant == 2 ? " elec sf"
                                : ""),
          "pair_coeff * *", "pair_coeff 3 3 dipole 2.8", "pair_coeff 4 4 dipole/eA 0.5 1 0 0"});
  if (o.bonds) l.cmds(bond_lines(dev, 2.9, 3.3));
  l.cmds({"neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "timestep 1.0",
          "fix 1 all " + S(dev, "nve"), "run_style " + S(dev, "verlet")});
}

// the three styles at once (hybrid/overlay): SSD water (types 1, 2), Gay-Berne ellipsoids
// and spheres (3, 4) carrying charges and a dipole, coul/dipole/body on every pair
void overlay_all(Lmp &l, bool dev, const Opt &o)
{
  const std::string ssd = S(dev, "ssd"), gb = S(dev, "gb"), cdb = S(dev, "coul/dipole/body");
  l.cmds({"units real",
          "atom_style hybrid ellipsoid charge",
          "atom_modify map array sort " + o.sort,
          "lattice sc 4.0",
          "region box block 0 6 0 6 0 6",
          "create_box 4 box",
          "create_atoms 1 box",
          "displace_atoms all random 0.2 0.2 0.2 7781 units box",
          "set type 1 type/fraction 2 0.5 1234",
          "set type 1 type/fraction 3 0.4 1235",
          "set type 1 type/fraction 4 0.3 1236",
          "set type * shape 1 1 1",
          "set type * mass 30.0",
          "mass * 30.0",
          "set type * quat/random 4471",
          "set type 3 charge 0.5",
          "set type 4 charge -0.5",
          "pair_style " + S(dev, "hybrid/overlay") + " " + ssd + " 7.0 " + gb + " 8.0 " + cdb +
              " 9.0 elec rf 78.0",
          "pair_coeff 1 1 " + ssd + " ssd",
          "pair_coeff 2 2 " + ssd + " ssd1",
          "pair_coeff 1 2 " + ssd + " lj 3.0 0.15",
          "pair_coeff 3 3 " + gb + " gb 1.8 2.7 0.3 0.3 0.1",
          "pair_coeff 4 4 " + gb + " lj 3.2 0.2",
          "pair_coeff 3 4 " + gb,
          "pair_coeff * * " + cdb,
          "pair_coeff 3 3 " + cdb + " dipole 2.0",
          "neighbor 1.0 bin",
          "neigh_modify every 1 delay 0 check yes",
          "timestep 1.0",
          "fix 1 all " + S(dev, "nve"),
          "run_style " + S(dev, "verlet")});
}

SystemFn with(void (*f)(Lmp &, bool, const Opt &), Opt o)
{
  return [f, o](Lmp &l, bool dev) { f(l, dev, o); };
}

// forces, torques, pe and pressure of the two instances now (CPU: run 0; device: one step
// with dt = 0, whose forces are those of the same positions and orientations)
void compare_now(Lmp &cpu, Lmp &dev, const char *label)
{
  // the energy's rounding scale: sum of |per-atom energy| (SSD's pe cancels to ~1 of ~1e3)
  if (!cpu.lmp->modify->get_compute_by_id("pe_abs_atom"))
    cpu.cmds({"compute pe_abs_atom all pe/atom", "variable pe_abs atom abs(c_pe_abs_atom)",
              "compute pe_abs_sum all reduce sum v_pe_abs",
              "variable pe_scale equal c_pe_abs_sum"});
  cpu.cmds({"thermo_style custom step pe press c_pe_abs_sum", "run 0 post no"});
  const double pe_scale = std::max(1.0, cpu.variable("pe_scale"));
  dev.cmds({"timestep 0.0", "thermo_style custom step pe press", "thermo 1", "run 1 post no"});
  ASSERT_EQ(std::string(dev.lmp->update->integrate_style), "verlet/cuda");
  double fs = 0, ts = 0;
  const double df = max_rel_diff(dev.forces(), cpu.forces(), &fs);
  const double dt = max_rel_diff(dev.torques(), cpu.torques(), &ts);
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  const double p_c = cpu.thermo("press"), p_d = dev.thermo("press");
  printf("[gpu] %-28s %s: max |F_dev - F_cpu| / max|F| = %.3g (max %.3g); torque %.3g (max "
         "%.3g); pe %.12g vs %.12g; press %.10g vs %.10g\n",
         label, PREC, df, fs, dt, ts, pe_d, pe_c, p_d, p_c);
  EXPECT_GT(fs, 0.0);
  EXPECT_GT(ts, 0.0);
  const double tol = 10 * FORCE_TOL;    // as soft/aniso: torques and non-central forces
  EXPECT_LT(df, tol) << label;
  EXPECT_LT(dt, tol) << label;
  EXPECT_NEAR(pe_d, pe_c, ENERGY_TOL * pe_scale) << label;
  EXPECT_NEAR(p_d, p_c, 10 * ENERGY_TOL * std::max(1.0, std::fabs(p_c))) << label;
}

// the configuration as set up, then moved: every atom displaced and the atoms of the types
// `turned` (those with an ellipsoid bonus) turned on the host between runs (the next run
// uploads positions and quaternions again)
void compare_forces(const SystemFn &setup, const std::string &label, bool move = true,
                    const char *turned = "*")
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  compare_now(cpu, dev, label.c_str());
  if (!move) return;
  // moved on the CPU instance, then copied into the device instance by atom ID (both
  // commands draw per atom from a stream seeded by its position, which the device instance
  // holds rounded to the device precision after a run)
  cpu.cmds({"displace_atoms all random 0.1 0.1 0.1 5511 units box",
            std::string("set type ") + turned + " quat/random 9917"});
  using LAMMPS_NS::Atom;
  using LAMMPS_NS::AtomVecEllipsoid;
  Atom *ac = cpu.lmp->atom, *ad = dev.lmp->atom;
  auto *vc = dynamic_cast<AtomVecEllipsoid *>(ac->style_match("ellipsoid"));
  auto *vd = dynamic_cast<AtomVecEllipsoid *>(ad->style_match("ellipsoid"));
  ASSERT_TRUE(vc && vd);
  for (int i = 0; i < ad->nlocal; ++i) {
    const int j = ac->map(ad->tag[i]);
    ASSERT_GE(j, 0);
    for (int d = 0; d < 3; ++d) ad->x[i][d] = ac->x[j][d];
    ad->image[i] = ac->image[j];
    ASSERT_EQ(ad->ellipsoid[i] >= 0, ac->ellipsoid[j] >= 0);
    if (ad->ellipsoid[i] >= 0)
      for (int d = 0; d < 4; ++d)
        vd->bonus[ad->ellipsoid[i]].quat[d] = vc->bonus[ac->ellipsoid[j]].quat[d];
  }
  compare_now(cpu, dev, (label + ", moved").c_str());
}

// a translational trajectory with fixed orientations: fix nve against fix nve/cuda, a
// neighbour list built every step and (sort "5 0.0") device sorts every 5 steps
void compare_trajectory(const SystemFn &setup, const char *label, const char *temp, int steps)
{
  Lmp cpu, dev;
  setup(cpu, false);
  setup(dev, true);
  for (Lmp *l : {&cpu, &dev})
    l->cmds({std::string("velocity all create ") + temp + " 8821 loop geom",
             "neigh_modify every 1 delay 0 check no"});
  cpu.cmd("run " + std::to_string(steps) + " post no");
  dev.cmd("run " + std::to_string(steps) + " post no");
  const double dx = max_rel_diff(dev.positions(), cpu.positions());
  const double dt = max_rel_diff(dev.torques(), cpu.torques());
  const double pe_c = cpu.thermo("pe"), pe_d = dev.thermo("pe");
  printf("[gpu] %-28s %s, %d steps: max rel. position difference %.3g; torque %.3g; pe %.12g vs "
         "%.12g\n",
         label, PREC, steps, dx, dt, pe_d, pe_c);
  EXPECT_LT(dx, TRAJ_TOL);
  EXPECT_LT(dt, 100 * TRAJ_TOL);
  EXPECT_NEAR(pe_d, pe_c, 100 * TRAJ_TOL * std::max(1.0, std::fabs(pe_c)));
}

}    // namespace

// ---- each style alone ----------------------------------------------------------------

TEST(GpuBodyPairs, SsdCut)
{
  compare_forces(with(ssd_water, {0}), "ssd ssd+ssd1 cut");
}
TEST(GpuBodyPairs, SsdReactionFieldShiftCustom)
{
  compare_forces(with(ssd_water, {1}), "ssd rf shift custom");
}
TEST(GpuBodyPairs, SsdSpecialBonds)
{
  compare_forces(with(ssd_water, {1, "0 0.0", true}), "ssd special bonds", false);
}
TEST(GpuBodyPairs, SsdSorted)
{
  compare_forces(with(ssd_water, {0, "1 0.0"}), "ssd sorted");
}
TEST(GpuBodyPairs, SsdTrajectorySorted)
{
  compare_trajectory(with(ssd_water, {0, "5 0.0"}), "ssd trajectory", "300.0", 30);
}

// 'elec sf' (Allen-Germano shifted force) on the device against the CPU style
TEST(GpuBodyPairs, SsdShiftedForce)
{
  compare_forces(with(ssd_water, {2}), "ssd sf shift custom");
}
TEST(GpuBodyPairs, SsdShiftedForceSpecialBonds)
{
  compare_forces(with(ssd_water, {2, "0 0.0", true}), "ssd sf special bonds", false);
}
TEST(GpuBodyPairs, SsdShiftedForceTrajectorySorted)
{
  compare_trajectory(with(ssd_water, {2, "5 0.0"}), "ssd sf trajectory", "300.0", 30);
}

// 'elec rfswitch' (the switched reaction field of Fennell & Gezelter 2004, as OOPSE computes it)
TEST(GpuBodyPairs, SsdReactionFieldSwitch)
{
  compare_forces(with(ssd_water, {3}), "ssd rfswitch shift custom");
}
TEST(GpuBodyPairs, SsdReactionFieldSwitchSpecialBonds)
{
  compare_forces(with(ssd_water, {3, "0 0.0", true}), "ssd rfswitch special bonds", false);
}
TEST(GpuBodyPairs, SsdReactionFieldSwitchTrajectorySorted)
{
  compare_trajectory(with(ssd_water, {3, "5 0.0"}), "ssd rfswitch trajectory", "300.0", 30);
}

// 'ljmode switch' (OOPSE's switched LJ) with 'elec rfswitch'
TEST(GpuBodyPairs, SsdLjSwitch)
{
  compare_forces(with(ssd_water, {4}), "ssd ljswitch rfswitch custom");
}
TEST(GpuBodyPairs, SsdLjSwitchSpecialBonds)
{
  compare_forces(with(ssd_water, {4, "0 0.0", true}), "ssd ljswitch special bonds", false);
}
TEST(GpuBodyPairs, SsdLjSwitchTrajectorySorted)
{
  compare_trajectory(with(ssd_water, {4, "5 0.0"}), "ssd ljswitch trajectory", "300.0", 30);
}

TEST(GpuBodyPairs, GbCleaver)
{
  compare_forces(with(gb_mix, {0}), "gb cleaver", true, "1*2");
}
TEST(GpuBodyPairs, GbArithmeticShift)
{
  compare_forces(with(gb_mix, {1}), "gb arithmetic shift", true, "1*2");
}
TEST(GpuBodyPairs, GbSpecialBonds)
{
  compare_forces(with(gb_mix, {1, "0 0.0", true}), "gb special bonds", false);
}
TEST(GpuBodyPairs, GbSorted)
{
  compare_forces(with(gb_mix, {0, "1 0.0"}), "gb sorted", true, "1*2");
}
TEST(GpuBodyPairs, GbTrajectorySorted)
{
  compare_trajectory(with(gb_mix, {0, "5 0.0"}), "gb trajectory", "0.5", 30);
}

TEST(GpuBodyPairs, CoulDipoleBodyCut)
{
  compare_forces(with(coul_beads, {0}), "coul/dipole/body cut");
}
TEST(GpuBodyPairs, CoulDipoleBodyReactionField)
{
  compare_forces(with(coul_beads, {1}), "coul/dipole/body rf");
}
TEST(GpuBodyPairs, CoulDipoleBodySpecialBonds)
{
  compare_forces(with(coul_beads, {1, "0 0.0", true}), "coul/dipole/body special", false);
}
TEST(GpuBodyPairs, CoulDipoleBodySorted)
{
  // the charges are per-atom data on the device: they must follow the sort
  compare_forces(with(coul_beads, {0, "1 0.0"}), "coul/dipole/body sorted");
}
TEST(GpuBodyPairs, CoulDipoleBodyTrajectorySorted)
{
  compare_trajectory(with(coul_beads, {1, "5 0.0"}), "coul/dipole/body trajectory", "300.0", 30);
}

// 'elec sf' of the bead electrostatics
TEST(GpuBodyPairs, CoulDipoleBodyShiftedForce)
{
  compare_forces(with(coul_beads, {2}), "coul/dipole/body sf");
}
TEST(GpuBodyPairs, CoulDipoleBodyShiftedForceSpecialBonds)
{
  compare_forces(with(coul_beads, {2, "0 0.0", true}), "coul/dipole/body sf special", false);
}
TEST(GpuBodyPairs, CoulDipoleBodyShiftedForceTrajectorySorted)
{
  compare_trajectory(with(coul_beads, {2, "5 0.0"}), "coul/dipole/body sf trajectory", "300.0", 30);
}

// ---- all three under hybrid/overlay/cuda ----------------------------------------------

TEST(GpuBodyPairs, OverlaySsdGbCoulDipoleBody)
{
  compare_forces(with(overlay_all, {0}), "overlay ssd+gb+coul/dipole/body");
}
TEST(GpuBodyPairs, OverlaySorted)
{
  compare_forces(with(overlay_all, {0, "1 0.0"}), "overlay sorted", false);
}
TEST(GpuBodyPairs, OverlayTrajectorySorted)
{
  compare_trajectory(with(overlay_all, {0, "5 0.0"}), "overlay trajectory", "300.0", 30);
}

// per-atom energies of the device styles (compute pe/atom) sum to the pair energy
TEST(GpuBodyPairs, PerAtomEnergySumsToTotal)
{
  Lmp dev;
  overlay_all(dev, true, {});
  dev.cmds({"compute pea all pe/atom pair", "compute sum all reduce sum c_pea",
            "thermo_style custom step epair c_sum", "thermo_modify norm no", "thermo 1",
            "timestep 0.0", "run 1 post no"});
  const double epair = dev.thermo("epair");
  const double sum =
      *(double *) lammps_extract_compute(dev.lmp, "sum", LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR);
  printf("[gpu] body pairs per-atom pair energy sum %.12g vs total %.12g\n", sum, epair);
  EXPECT_NE(epair, 0.0);
  EXPECT_NEAR(sum, epair, 10 * ENERGY_TOL * std::max(1.0, std::fabs(epair)));
}

// ---- errors -----------------------------------------------------------------------------

TEST(GpuBodyPairs, Errors)
{
  {
    // gb of spheres only runs on the CPU without orientations; the device needs the bodies
    Lmp dev;
    dev.cmds({"units lj", "atom_style atomic", "region box block 0 6 0 6 0 6", "create_box 1 box",
              "create_atoms 1 random 200 5 NULL", "mass 1 1.0", "pair_style gb/cuda 2.0",
              "pair_coeff 1 1 lj 0.5 0.2", "fix 1 all nve/cuda", "run_style verlet/cuda"});
    const std::string m = dev.error_of("run 0 post no");
    EXPECT_NE(m.find("Pair gb/cuda needs the particles' orientations on the device"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("atom_style ellipsoid"), std::string::npos) << m;
  }
  {
    // a water type of which an atom has no ellipsoid bonus (no quaternion)
    Lmp dev;
    dev.cmds({"units real", "atom_style ellipsoid", "lattice sc 3.1",
              "region box block 0 6 0 6 0 6", "create_box 2 box", "create_atoms 1 box",
              "set type 1 type/fraction 2 0.5 1234", "set type 1 shape 1 1 1",
              "set type * mass 18.0", "set type 1 quat/random 4471", "pair_style ssd/cuda 7.0",
              "pair_coeff 1 1 ssd", "pair_coeff 2 2 ssd1", "fix 1 all nve/cuda",
              "run_style verlet/cuda"});
    const std::string m = dev.error_of("run 0 post no");
    EXPECT_NE(m.find("Pair ssd/cuda: atom"), std::string::npos) << m;
    EXPECT_NE(m.find("has no orientation"), std::string::npos) << m;
  }
  {
    // the CPU style's own check stops an atom style without orientations first
    Lmp dev;
    dev.cmds({"units real", "atom_style charge", "region box block 0 6 0 6 0 6", "create_box 1 box",
              "create_atoms 1 random 100 5 NULL", "mass 1 18.0",
              "pair_style coul/dipole/body/cuda 7.0", "pair_coeff * *", "fix 1 all nve/cuda",
              "run_style verlet/cuda"});
    const std::string m = dev.error_of("run 0 post no");
    EXPECT_NE(m.find("ellipsoid"), std::string::npos) << m;
  }
}

// ---- host checks (also without a GPU) -----------------------------------------------------

TEST(BodyPairsHost, Registered)
{
  Lmp l;
  LAMMPS_NS::Info info(l.lmp);
  for (const char *p : {"ssd/cuda", "gb/cuda", "coul/dipole/body/cuda"})
    EXPECT_TRUE(info.has_style("pair", p)) << p;
}

// -sf cuda picks the device variants, also as sub-styles of hybrid/overlay
TEST(BodyPairsHost, SuffixPicksDeviceStyles)
{
  {
    Lmp l(true);
    l.cmds({"units real", "atom_style ellipsoid", "region box block 0 6 0 6 0 6",
            "create_box 1 box", "pair_style ssd 7.0"});
    EXPECT_EQ(std::string(l.lmp->force->pair_style), "ssd/cuda");
    l.cmd("pair_style gb 7.0");
    EXPECT_EQ(std::string(l.lmp->force->pair_style), "gb/cuda");
    l.cmd("pair_style coul/dipole/body 7.0");
    EXPECT_EQ(std::string(l.lmp->force->pair_style), "coul/dipole/body/cuda");
  }
  {
    Lmp l(true);
    l.cmds({"units real", "atom_style hybrid ellipsoid charge", "region box block 0 6 0 6 0 6",
            "create_box 2 box", "pair_style hybrid/overlay ssd 7.0 gb 8.0 coul/dipole/body 9.0"});
    EXPECT_EQ(std::string(l.lmp->force->pair_style), "hybrid/overlay/cuda");
    // the keywords stay unsuffixed; the sub-styles are the device classes
    for (const char *s : {"ssd", "gb", "coul/dipole/body"}) {
      LAMMPS_NS::Pair *p = l.lmp->force->pair_match(s, 1);
      ASSERT_NE(p, nullptr) << s;
      EXPECT_NE(std::string(typeid(*p).name()).find("CudaE"), std::string::npos)
          << s << ": " << typeid(*p).name();
    }
  }
}

// the CPU halves of the comparisons run anywhere: every reference system is a valid input
// with forces and torques (so a failure on the GPU machine is the device's)
TEST(BodyPairsHost, ReferenceSystemsRunOnTheCpu)
{
  const std::vector<std::pair<std::string, SystemFn>> systems = {
      {"ssd 0", with(ssd_water, {0})},
      {"ssd 1 bonds", with(ssd_water, {1, "0 0.0", true})},
      {"gb 0", with(gb_mix, {0})},
      {"gb 1 bonds", with(gb_mix, {1, "0 0.0", true})},
      {"coul/dipole/body 0", with(coul_beads, {0})},
      {"coul/dipole/body 1 bonds", with(coul_beads, {1, "0 0.0", true})},
      {"ssd 2 (sf) bonds", with(ssd_water, {2, "0 0.0", true})},
      {"ssd 3 (rfswitch) bonds", with(ssd_water, {3, "0 0.0", true})},
      {"ssd 4 (ljswitch) bonds", with(ssd_water, {4, "0 0.0", true})},
      {"coul/dipole/body 2 (sf)", with(coul_beads, {2})},
      {"overlay", with(overlay_all, {0})}};
  for (const auto &sys : systems) {
    Lmp cpu;
    sys.second(cpu, false);
    cpu.cmds({"thermo_style custom step pe press", "run 0 post no"});
    double fs = 0, ts = 0;
    max_rel_diff(cpu.forces(), cpu.forces(), &fs);
    max_rel_diff(cpu.torques(), cpu.torques(), &ts);
    const double pe = cpu.thermo("pe");
    printf("[host] %-26s natoms %d bonds %d: pe %.10g press %.8g max|F| %.4g max|tau| %.4g\n",
           sys.first.c_str(), (int) cpu.lmp->atom->natoms, (int) cpu.lmp->atom->nbonds, pe,
           cpu.thermo("press"), fs, ts);
    EXPECT_TRUE(std::isfinite(pe)) << sys.first;
    EXPECT_GT(fs, 0.0) << sys.first;
    EXPECT_GT(ts, 0.0) << sys.first;
    EXPECT_LT(fs, 1e4) << sys.first;    // no near-overlap dominates the comparison
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (mesogpu::cuda::device_count() == 0) {
    // the host checks still run; the device tests are skipped
    ::testing::GTEST_FLAG(filter) = "BodyPairsHost.*";
    const int rc = RUN_ALL_TESTS();
    printf("SKIPPED: no CUDA device on this machine; gpu tests run on the GPU machine\n");
    MPI_Finalize();
    return rc ? rc : 77;
  }
  printf("[gpu] device 0: %s, precision %s\n", mesogpu::cuda::device_description(0).c_str(), PREC);
  const int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
