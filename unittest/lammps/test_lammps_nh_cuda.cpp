/* fix npt/cuda and fix nph/cuda as far as they work without a GPU (CI): registration,
   the fix's temperature compute, the CPU fallback (identical to LAMMPS's fix npt / nph),
   and the init errors of resident runs (they come before any device work, so the same
   with or without a GPU). The device side is tested in unittest/gpu/test_gpu_npt.cpp. */

#include "compute.h"
#include "domain.h"
#include "fix.h"
#include "info.h"
#include "lammps.h"
#include "modify.h"
#include "update.h"

#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <mpi.h>
#include <string>

namespace {
struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  // an LJ liquid with `fix 1 all <fix>`
  void lj(const std::string &fix, const std::string &pair = "lj/cut/cuda")
  {
    cmds({"units lj", "atom_style atomic", "atom_modify map array", "lattice fcc 0.8442",
          "region box block 0 5 0 5 0 5", "create_box 1 box", "create_atoms 1 box", "mass 1 1.0",
          "velocity all create 1.5 1 loop geom", "pair_style " + pair + " 2.5",
          "pair_coeff 1 1 1.0 1.0", "fix 1 all " + fix});
  }
  std::string temp_style(const std::string &id)
  {
    LAMMPS_NS::Compute *c = lmp->modify->get_compute_by_id(id);
    return c ? c->style : "(none)";
  }
};
}    // namespace

TEST(NhCuda, Registered)
{
  Lmp l;
  LAMMPS_NS::Info info(l.lmp);
  EXPECT_TRUE(info.has_style("fix", "npt/cuda"));
  EXPECT_TRUE(info.has_style("fix", "nph/cuda"));
}

// the barostat reads its temperature from the device: the fix's own compute is temp/cuda,
// with or without the suffix, and -sf cuda picks the /cuda fixes
TEST(NhCuda, OwnTemperatureIsTempCuda)
{
  {
    Lmp l;
    l.lj("npt/cuda temp 1.5 1.5 0.5 iso 2.0 2.0 1.0");
    EXPECT_EQ(l.temp_style("1_temp"), "temp/cuda");
    EXPECT_EQ(l.temp_style("1_press"), "pressure");
  }
  {
    Lmp l(true);
    l.lj("nph aniso 2.0 2.0 1.0", "lj/cut");
    EXPECT_EQ(std::string(l.lmp->modify->get_fix_by_id("1")->style), "nph/cuda");
    EXPECT_EQ(l.temp_style("1_temp"), "temp/cuda");
  }
}

// outside verlet/cuda the fixes are LAMMPS's own: the same trajectory and box, exactly
TEST(NhCuda, HostFallbackEqualsParent)
{
  for (const std::string args :
       {"npt temp 1.5 1.5 0.5 iso 2.0 2.0 1.0", "nph aniso 2.0 2.0 1.0 couple xy"}) {
    const std::string style = args.substr(0, 3), rest = args.substr(4);
    Lmp a, b;
    a.lj(style + " " + rest, "lj/cut");
    b.lj(style + "/cuda " + rest, "lj/cut");
    a.cmds({"thermo_style custom step pe press vol", "run 50 post no"});
    b.cmds({"thermo_style custom step pe press vol", "run 50 post no"});
    EXPECT_EQ(a.thermo("pe"), b.thermo("pe")) << args;
    EXPECT_EQ(a.thermo("press"), b.thermo("press")) << args;
    EXPECT_EQ(a.thermo("vol"), b.thermo("vol")) << args;
    EXPECT_NE(a.thermo("vol"), 125 * 4 / 0.8442) << "the box should have changed";
  }
}

TEST(NhCuda, ResidentRunRefuses)
{
  // triclinic box and tilt couplings
  {
    Lmp l;
    l.cmds({"units lj", "atom_style atomic", "lattice fcc 0.8442",
            "region box prism 0 5 0 5 0 5 0 0 0", "create_box 1 box", "create_atoms 1 box",
            "mass 1 1.0", "velocity all create 1.5 1 loop geom", "pair_style lj/cut/cuda 2.5",
            "pair_coeff 1 1 1.0 1.0", "fix 1 all npt/cuda temp 1.5 1.5 0.5 tri 2.0 2.0 1.0",
            "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("orthogonal boxes only"), std::string::npos) << m;
  }
  // tilt keywords need a triclinic box in LAMMPS itself
  {
    Lmp l;
    l.lj("nve");
    l.cmd("unfix 1");
    const std::string e = l.error_of("fix 1 all nph/cuda xy 0.0 0.0 1.0");
    EXPECT_NE(e.find("non-triclinic box"), std::string::npos) << e;
  }
  // a temperature compute that reduces on the host
  {
    Lmp l;
    l.lj("npt/cuda temp 1.5 1.5 0.5 iso 2.0 2.0 1.0");
    l.cmds({"compute ht all temp", "fix_modify 1 temp ht", "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("Fix npt/cuda (ID 1): the temperature compute ht has style temp"),
              std::string::npos)
        << m;
  }
  // a pressure compute whose temperature reduces on the host
  {
    Lmp l;
    l.lj("nph/cuda iso 2.0 2.0 1.0");
    l.cmds({"compute ht all temp", "compute hp all pressure ht", "fix_modify 1 press hp",
            "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("the pressure's temperature compute ht has style temp"), std::string::npos)
        << m;
  }
  // other fixes that change the box
  {
    Lmp l;
    l.lj("nve/cuda");
    l.cmds({"fix d all deform 1 x scale 1.01", "run_style verlet/cuda"});
    const std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("fix d (style deform) changes the box"), std::string::npos) << m;
  }
  // valid input passes init: without a GPU the run stops only at the device
  if (mesogpu::cuda::device_count() == 0) {
    Lmp l(true);
    l.lj("npt temp 1.5 1.5 0.5 aniso 2.0 2.0 1.0 couple xy fixedpoint 0 0 0", "lj/cut");
    const std::string m = l.error_of("run 1");
    EXPECT_NE(m.find("no CUDA device is visible"), std::string::npos) << m;
  }
}
