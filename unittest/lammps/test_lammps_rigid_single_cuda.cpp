/* fix nve/rigid/single/cuda, nvt/rigid/single/cuda and npt|nph/rigid/single/cuda as far as
   they work without a GPU
   (CI): registration, -sf cuda picking them, the CPU fallback outside verlet/cuda
   (identical to the CPU fixes), and the init errors of resident runs (they come before any
   device work, so the same with or without a GPU). The device side is tested in
   unittest/gpu/test_gpu_rigid_single.cpp and (npt, nph) unittest/gpu/test_gpu_rigid_npt.cpp. */

#include "compute.h"
#include "fix.h"
#include "info.h"
#include "lammps.h"
#include "modify.h"

#include "lammps/rigid_single_test.h"
#include "lmp_session.h"
#include "mesogpu_cuda.h"

#include "gtest/gtest.h"

#include <mpi.h>
#include <string>
#include <utility>

namespace {

const std::string INERTIA = " inertia 1 0.9 0.55 0.3 inertia 2 0.4 0.75 1.1";

struct Lmp : LmpSession {
  using LmpSession::LmpSession;
  // 64 ellipsoids of two types with LJ forces, `fix 1 all <fix>` (after `pre`)
  void bodies(const std::string &fix, const std::string &pair = "lj/cut/cuda",
              const std::string &style = "ellipsoid", const std::string &pre = "")
  {
    cmds({"units lj",
          "atom_style " + style,
          "atom_modify map array sort 0 0.0",
          "lattice sc 0.6",
          "region box block 0 4 0 4 0 4",
          "create_box 2 box",
          "create_atoms 1 box",
          "set type 1 type/fraction 2 0.5 4321",
          "set type * shape 1.4 1.0 0.8",
          "set type * mass 1.0",
          "set type * quat/random 2718",
          "velocity all create 1.0 87287 loop geom",
          "variable ax atom 1.5*sin(1.7*id)",
          "variable ay atom 1.2*cos(2.3*id)",
          "variable az atom 0.9*sin(0.9*id+1)",
          "set type * angmom v_ax v_ay v_az",
          "pair_style " + pair + " 2.5",
          "pair_coeff * * 1.0 1.0",
          "neighbor 0.3 bin",
          "timestep 0.005",
          "thermo 0"});
    if (!pre.empty()) cmd(pre);
    cmd("fix 1 all " + fix);
  }
  std::string fix_style(const std::string &id)
  {
    auto *f = lmp->modify->get_fix_by_id(id);
    return f ? f->style : "(none)";
  }
  std::string compute_style(const std::string &id)
  {
    auto *c = lmp->modify->get_compute_by_id(id);
    return c ? c->style : "(none)";
  }
  // the error of the first step of a resident run
  std::string resident_error()
  {
    cmd("run_style verlet/cuda");
    return error_of("run 1 post no");
  }
};

bool has(const std::string &text, const std::string &part)
{
  return text.find(part) != std::string::npos;
}

}    // namespace

TEST(RigidSingleCuda, Registered)
{
  Lmp l;
  LAMMPS_NS::Info info(l.lmp);
  EXPECT_TRUE(info.has_style("fix", "nve/rigid/single/cuda"));
  EXPECT_TRUE(info.has_style("fix", "nvt/rigid/single/cuda"));
  EXPECT_TRUE(info.has_style("fix", "npt/rigid/single/cuda"));
  EXPECT_TRUE(info.has_style("fix", "nph/rigid/single/cuda"));
}

// -sf cuda picks the device fixes; the thermostat's temperature is still temp/rigid/single
TEST(RigidSingleCuda, SuffixPicksThem)
{
  {
    Lmp l(true);
    l.bodies("nve/rigid/single" + INERTIA, "lj/cut");
    EXPECT_EQ(l.fix_style("1"), "nve/rigid/single/cuda");
  }
  {
    Lmp l(true);
    l.bodies("nvt/rigid/single temp 1 1 0.1" + INERTIA, "lj/cut");
    EXPECT_EQ(l.fix_style("1"), "nvt/rigid/single/cuda");
    EXPECT_EQ(l.compute_style("1_temp"), "temp/rigid/single");
  }
  // npt: the thermostat's temperature temp/rigid/single, the pressure's temp/cuda
  for (const std::string fix :
       {"npt/rigid/single temp 1 1 0.1 iso 1 1 1", "nph/rigid/single aniso 1 1 1"}) {
    Lmp l(true);
    l.bodies(fix + INERTIA, "lj/cut");
    const std::string style = fix.substr(0, fix.find(' '));
    EXPECT_EQ(l.fix_style("1"), style + "/cuda");
    EXPECT_EQ(l.compute_style("1_temp"), "temp/rigid/single");
    EXPECT_EQ(l.compute_style("1_temp_trans"), "temp/cuda");
    EXPECT_EQ(l.compute_style("1_press"), "pressure");
  }
  // without the suffix as well
  {
    Lmp l;
    l.bodies("npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA, "lj/cut");
    EXPECT_EQ(l.compute_style("1_temp_trans"), "temp/cuda");
  }
}

// outside verlet/cuda the fixes are the CPU ones: the same trajectory, exactly
TEST(RigidSingleCuda, HostFallbackEqualsParent)
{
  for (const std::string args :
       {"nve/rigid/single" + INERTIA + " rotation dlm",
        "nvt/rigid/single temp 1.0 1.3 0.1" + INERTIA + " rotation no_squish",
        "npt/rigid/single temp 1.0 1.3 0.1 iso 0.5 0.5 0.5 tchain 3 pchain 2" + INERTIA,
        "npt/rigid/single temp 1.0 1.0 0.1 aniso 0.5 0.8 0.5" + INERTIA + " rotation dlm",
        "nph/rigid/single x 0.5 0.5 0.5 y 0.5 0.5 0.5 z 1.0 1.0 0.5 couple xy" + INERTIA}) {
    const size_t sp = args.find(' ');
    Lmp a, b;
    a.bodies(args, "lj/cut");
    b.bodies(args.substr(0, sp) + "/cuda" + args.substr(sp), "lj/cut");
    a.cmd("run 50 post no");
    b.cmd("run 50 post no");
    const auto sa = rigid_single_test::state_of(a.lmp), sb = rigid_single_test::state_of(b.lmp);
    EXPECT_EQ(rigid_single_test::diff(sa, sb).max(), 0.0) << args;
    EXPECT_EQ(a.thermo("vol"), b.thermo("vol")) << args;
  }
}

// the CPU fix's own checks name the /cuda style: wrong keyword combinations of npt and nph
TEST(RigidSingleCuda, NptWrongCombinations)
{
  const std::pair<std::string, std::string> cases[] = {
      {"npt/rigid/single/cuda iso 1 1 1" + INERTIA,
       "Fix npt/rigid/single/cuda: temperature control (temp Tstart Tstop Tdamp) must be used"},
      {"nph/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA,
       "Fix nph/rigid/single/cuda: temperature control (temp) can not be used"},
      {"npt/rigid/single/cuda temp 1 1 0.1" + INERTIA,
       "Fix npt/rigid/single/cuda: pressure control (iso, aniso, x, y or z) must be used"},
      {"npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1 xy 0 0 1" + INERTIA,
       "Can not specify Pxy/Pxz/Pyz in fix npt/rigid/single/cuda with non-triclinic box"},
  };
  for (const auto &[fix, text] : cases) {
    Lmp l;
    l.bodies("nve/rigid/single" + INERTIA, "lj/cut");
    l.cmd("unfix 1");
    const std::string m = l.error_of("fix 1 all " + fix);
    EXPECT_TRUE(has(m, text)) << fix << ": " << m;
  }
  // fix_modify press: the pressure's temperature is the fix's own
  Lmp l;
  l.bodies("npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA, "lj/cut");
  l.cmds({"compute p2 all pressure thermo_temp"});
  const std::string m = l.error_of("fix_modify 1 press p2");
  EXPECT_TRUE(has(m, "Fix npt/rigid/single/cuda: fix_modify press is not supported")) << m;
}

TEST(RigidSingleCuda, ResidentRunRefuses)
{
  // the langevin option: one serial random stream
  {
    Lmp l;
    l.bodies("nve/rigid/single/cuda" + INERTIA + " langevin 1.0 0.5 1234");
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "Fix nve/rigid/single/cuda (ID 1): keyword langevin is not supported in "
                       "resident runs"))
        << m;
    EXPECT_TRUE(has(m, "RanMars")) << m;
  }
  // dynamic groups
  for (const std::string fix :
       {"nve/rigid/single/cuda" + INERTIA, "nvt/rigid/single/cuda temp 1 1 0.1" + INERTIA,
        "npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA}) {
    Lmp l;
    l.bodies(fix);
    l.cmds({"unfix 1", "region half block 0 2 INF INF INF INF", "group dyn dynamic all region half",
            "fix 1 dyn " + fix});
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "dynamic group dyn is not supported in resident runs")) << fix << ": " << m;
  }
  // the thermostat's temperature: a compute without the rotation, or other inertia
  {
    Lmp l;
    l.bodies("nvt/rigid/single/cuda temp 1 1 0.1" + INERTIA);
    l.cmds({"compute ht all temp", "fix_modify 1 temp ht"});
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "Fix nvt/rigid/single/cuda (ID 1): the temperature compute ht (style "
                       "temp) cannot be used in resident runs"))
        << m;
  }
  {
    Lmp l;
    l.bodies("nvt/rigid/single/cuda temp 1 1 0.1" + INERTIA);
    l.cmds({"compute tr all temp/rigid/single inertia 1 0.9 0.55 0.3 inertia 2 0.4 0.75 1.2",
            "fix_modify 1 temp tr"});
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "the temperature compute tr (style temp/rigid/single) cannot be used")) << m;
  }
  // the same for the thermostat of npt/rigid/single/cuda
  {
    Lmp l;
    l.bodies("npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA);
    l.cmds({"compute ht all temp", "fix_modify 1 temp ht"});
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "Fix npt/rigid/single/cuda (ID 1): the temperature compute ht (style "
                       "temp) cannot be used in resident runs"))
        << m;
  }
  // the pressure's temperature replaced by a host compute of the same ID
  {
    Lmp l;
    l.bodies("npt/rigid/single/cuda temp 1 1 0.1 iso 1 1 1" + INERTIA);
    l.cmds({"uncompute 1_temp_trans", "compute 1_temp_trans all temp"});
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "Fix npt/rigid/single/cuda (ID 1): the pressure's temperature compute "
                       "1_temp_trans has style temp; a resident run needs compute temp/cuda"))
        << m;
  }
  // another fix that changes the box is refused by the run style; this one is not
  {
    Lmp l;
    l.bodies("npt/rigid/single/cuda temp 1 1 0.1 x 1 1 1" + INERTIA);
    l.cmd("fix d all deform 1 z scale 1.01");
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "fix d (style deform) changes the box")) << m;
    EXPECT_FALSE(has(m, "fix 1 ")) << m;
  }
  // 'dipole yes' where the device keeps dipole orientations of its own (omega)
  {
    Lmp l;
    l.bodies("nve/rigid/single/cuda" + INERTIA + " dipole yes", "lj/cut/cuda",
             "hybrid ellipsoid dipole sphere", "set type * dipole 0 0 1.0");
    const std::string m = l.resident_error();
    EXPECT_TRUE(has(m, "'dipole yes' with atom attribute omega is not supported")) << m;
  }
  // valid input passes init: without a GPU the run stops only at the device
  if (mesogpu::cuda::device_count() == 0) {
    for (const std::string fix : {"nve/rigid/single" + INERTIA + " rotation dlm dipole no",
                                  "nvt/rigid/single temp 1 1 0.1" + INERTIA,
                                  "npt/rigid/single temp 1 1 0.1 aniso 1 1 1" + INERTIA,
                                  "nph/rigid/single iso 1 1 1" + INERTIA}) {
      Lmp l(true);
      l.bodies(fix, "lj/cut");
      const std::string m = l.error_of("run 1 post no");
      EXPECT_TRUE(has(m, "no CUDA device is visible")) << fix << ": " << m;
    }
  }
}
