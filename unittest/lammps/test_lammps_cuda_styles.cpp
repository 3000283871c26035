/* The /cuda styles and run_style verlet/cuda as far as they work without a GPU (CI):
   registration, the CPU fallback of each /cuda style, and the setup errors that name a
   style without a device part. The device side is tested in unittest/gpu. */

#include "compute.h"
#include "force.h"
#include "info.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "update.h"

#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <mpi.h>
#include <string>

using LAMMPS_NS::LAMMPS;

namespace {
struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  void lj()
  {
    cmds({"units lj", "atom_style bond", "lattice fcc 0.8442", "region box block 0 5 0 5 0 5",
          "create_box 1 box bond/types 1", "create_atoms 1 box", "mass 1 1.0",
          "velocity all create 1.0 1 loop geom", "pair_style lj/cut 2.5", "pair_coeff 1 1 1.0 1.0",
          "fix 1 all nve"});
  }
};
}    // namespace

TEST(CudaStyles, Registered)
{
  Lmp l;
  LAMMPS_NS::Info info(l.lmp);
  for (const char *p : {"lj/cut/cuda", "table/r2/cuda", "gauss/cuda", "harmonic/cut/cuda",
                        "zero/cuda", "hybrid/cuda", "hybrid/overlay/cuda"})
    EXPECT_TRUE(info.has_style("pair", p)) << p;
  EXPECT_TRUE(info.has_style("bond", "harmonic/cuda"));
  EXPECT_TRUE(info.has_style("bond", "fene/cuda"));
  for (const char *f : {"nve/cuda", "nvt/cuda", "langevin/cuda", "temp/berendsen/cuda",
                        "momentum/cuda", "mdscf/cuda"})
    EXPECT_TRUE(info.has_style("fix", f)) << f;
}

TEST(CudaStyles, SuffixSwapsDefaultRunStyle)
{
  Lmp l(true);
  EXPECT_EQ(std::string(l.lmp->update->integrate_style), "verlet/cuda");
  // and the thermo temperature to temp/cuda, under the same ID
  EXPECT_EQ(std::string(l.lmp->modify->get_compute_by_id("thermo_temp")->style), "temp/cuda");
  l.lj();
  EXPECT_EQ(std::string(l.lmp->force->pair_style), "lj/cut/cuda");
}

TEST(CudaStyles, HostFallbackEqualsParent)
{
  Lmp a, b;
  a.lj();
  b.lj();
  b.cmd("pair_style lj/cut/cuda 2.5");
  b.cmd("pair_coeff 1 1 1.0 1.0");
  a.cmd("run 10 post no");
  b.cmd("run 10 post no");    // run_style verlet: the CPU code of lj/cut computes
  EXPECT_EQ(lammps_get_thermo(a.lmp, "pe"), lammps_get_thermo(b.lmp, "pe"));
}

// pair_style hybrid/overlay/cuda outside verlet/cuda is LAMMPS's hybrid/overlay, and -sf
// cuda picks it with /cuda sub-styles (keywords stay unsuffixed in pair_coeff)
TEST(CudaStyles, HybridHostFallbackEqualsParent)
{
  Lmp a, b, c(true);
  for (Lmp *l : {&a, &b, &c}) l->lj();
  a.cmds({"pair_style hybrid/overlay lj/cut 2.5 gauss 2.0", "pair_coeff * * lj/cut 1.0 1.0",
          "pair_coeff * * gauss -0.5 1.0"});
  b.cmds({"pair_style hybrid/overlay/cuda lj/cut 2.5 gauss 2.0", "pair_coeff * * lj/cut 1.0 1.0",
          "pair_coeff * * gauss -0.5 1.0"});
  c.cmds({"suffix off", "run_style verlet", "suffix on",
          "pair_style hybrid/overlay lj/cut 2.5 gauss 2.0", "pair_coeff * * lj/cut 1.0 1.0",
          "pair_coeff * * gauss -0.5 1.0"});
  EXPECT_EQ(std::string(c.lmp->force->pair_style), "hybrid/overlay/cuda");
  for (Lmp *l : {&a, &b, &c}) l->cmd("run 10 post no");
  EXPECT_NE(lammps_get_thermo(a.lmp, "pe"), 0.0);
  EXPECT_EQ(lammps_get_thermo(a.lmp, "pe"), lammps_get_thermo(b.lmp, "pe"));
  EXPECT_EQ(lammps_get_thermo(a.lmp, "pe"), lammps_get_thermo(c.lmp, "pe"));
}

// fix mdscf/cuda and pair zero/cuda outside verlet/cuda run the CPU code: the same
// energies and forces as fix mdscf with pair zero
TEST(CudaStyles, HostFallbackMDSCF)
{
  Lmp a, b;
  for (Lmp *l : {&a, &b}) {
    l->lj();
    l->cmds({"pair_style zero 0.1 nocoeff", "pair_coeff * *"});
  }
  a.cmds({"fix f all mdscf grid 5 5 5 temp 1 kappa 0.2", "fix_modify f energy yes"});
  b.cmds({"pair_style zero/cuda 0.1 nocoeff", "pair_coeff * *",
          "fix f all mdscf/cuda grid 5 5 5 temp 1 kappa 0.2", "fix_modify f energy yes"});
  a.cmd("run 10 post no");
  b.cmd("run 10 post no");
  EXPECT_NE(lammps_get_thermo(a.lmp, "pe"), 0.0);
  EXPECT_EQ(lammps_get_thermo(a.lmp, "pe"), lammps_get_thermo(b.lmp, "pe"));
  EXPECT_EQ(lammps_get_thermo(a.lmp, "press"), lammps_get_thermo(b.lmp, "press"));
}

TEST(CudaStyles, SetupNamesStylesWithoutDevicePart)
{
  {
    Lmp l;
    l.lj();
    l.cmd("pair_style soft 1.0");
    l.cmd("pair_coeff * * 1.0");
    l.cmd("run_style verlet/cuda");
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("pair style soft has no device part"), std::string::npos) << m;
  }
  {
    Lmp l;
    l.lj();
    l.cmd("pair_style lj/cut/cuda 2.5");
    l.cmd("pair_coeff 1 1 1.0 1.0");
    l.cmd("unfix 1");
    l.cmd("fix 1 all nve/cuda");
    l.cmd("fix th all langevin 1.0 1.0 1.0 5");
    l.cmd("run_style verlet/cuda");
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("fix th (style langevin) acts during the step and has no device part"),
              std::string::npos)
        << m;
  }
  {
    Lmp l;
    l.lj();
    l.cmd("pair_style lj/cut/cuda 2.5");
    l.cmd("pair_coeff 1 1 1.0 1.0");
    l.cmd("bond_style harmonic");
    l.cmd("bond_coeff 1 1.0 1.0");
    l.cmd("run_style verlet/cuda");
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("bond style harmonic has no device part"), std::string::npos)
        << "message: " << m;
  }
  {
    Lmp l;
    l.lj();
    l.cmd("change_box all triclinic");
    l.cmd("run_style verlet/cuda");
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("supports orthogonal boxes only"), std::string::npos) << m;
  }
  {
    // non-periodic and shrink-wrapped boundaries run; a fix that changes the box does not
    Lmp l;
    l.lj();
    l.cmd("change_box all boundary s s p");
    l.cmd("fix def all deform 1 z scale 1.01");
    l.cmd("run_style verlet/cuda");
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("fix def (style deform) changes the box"), std::string::npos) << m;
  }
  {
    Lmp l;
    l.lj();
    l.cmds({"change_box all boundary f f p", "thermo_modify lost ignore", "run_style verlet/cuda"});
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("lost atoms always stop a device run"), std::string::npos) << m;
  }
  {
    Lmp l;
    l.cmds({"units lj", "dimension 2", "atom_style atomic", "lattice sq 0.8",
            "region box block 0 5 0 5 -0.5 0.5", "create_box 1 box", "create_atoms 1 box",
            "mass 1 1.0", "pair_style lj/cut 2.5", "pair_coeff 1 1 1.0 1.0", "fix 1 all nve",
            "run_style verlet/cuda"});
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("supports 3d systems only"), std::string::npos) << m;
  }
}

// a device thermostat given a temperature compute it cannot reproduce (here with a bias)
// by fix_modify temp stops at init, before any device work: the same with or without a GPU
TEST(CudaStyles, DeviceThermostatRefusesBiasedTemperature)
{
  for (const std::string fix : {"nvt/cuda temp 1.0 1.0 0.5", "temp/berendsen/cuda 1.0 1.0 0.5"}) {
    Lmp l;
    l.cmds({"units lj", "atom_style atomic", "lattice fcc 0.8442", "region box block 0 5 0 5 0 5",
            "create_box 1 box", "create_atoms 1 box", "mass 1 1.0",
            "velocity all create 1.0 1 loop geom", "pair_style lj/cut/cuda 2.5",
            "pair_coeff 1 1 1.0 1.0", "fix 1 all nve/cuda", "compute tp all temp/partial 0 1 1",
            "fix th all " + fix, "fix_modify th temp tp", "run_style verlet/cuda"});
    const std::string style = fix.substr(0, fix.find(' '));
    std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("Fix " + style +
                     " (ID th): the temperature compute tp (style temp/partial, "
                     "with a bias) cannot be used"),
              std::string::npos)
        << m;
    // on the host (run_style verlet) the CPU code honours it
    if (mesogpu::cuda::device_count() == 0) {
      l.cmd("run_style verlet");
      EXPECT_EQ(l.error_of("run 1"), "");
    }
  }
}

TEST(CudaStyles, NoDeviceIsAClearError)
{
  if (mesogpu::cuda::device_count() > 0) GTEST_SKIP() << "a GPU is present";
  Lmp l(true);
  l.lj();
  std::string m = l.error_of("run 1");
  EXPECT_NE(m.find("no CUDA device is visible"), std::string::npos) << m;
}

// device_bonds edits the engine of a verlet/cuda run: without one (or with bad
// arguments) it stops with a message that says what is missing
TEST(CudaStyles, DeviceBondsNeedsADeviceRun)
{
  Lmp l;
  l.lj();
  EXPECT_TRUE(LAMMPS_NS::Info(l.lmp).has_style("command", "device_bonds"));
  std::string m = l.error_of("device_bonds create 1 2 1");
  EXPECT_NE(m.find("needs run_style verlet/cuda and a run before it"), std::string::npos) << m;
  m = l.error_of("device_bonds grow 1 2 1");
  EXPECT_NE(m.find("unknown mode grow"), std::string::npos) << m;
  m = l.error_of("device_bonds create 1 2");
  EXPECT_NE(m.find("3 values per bond"), std::string::npos) << m;
  m = l.error_of("device_bonds break 1 2 3");
  EXPECT_NE(m.find("2 values per bond"), std::string::npos) << m;
}
