/* mesogpu: plugin entry point. LAMMPS calls lammpsplugin_init() when it loads
   mesogpuplugin.so (plugin load, or LAMMPS_PLUGIN_PATH at start-up); every style
   the plugin provides is registered here. */

#include "lammpsplugin.h"
#include "version.h"

#include "mesogpu_plugin.h"

#include "cuda/device_styles.h"
#include "fix_leapfrog_aniso.h"
#include "fix_mdscf.h"
#include "compute_temp_rigid_single.h"
#include "fix_nve_rigid_single.h"
#include "fix_nvt_rigid_single.h"
#include "fix_npt_rigid_single.h"
#include "fix_polymerize.h"
#include "mesogpu_info.h"
#include "pair_coul_dipole_body.h"
#include "pair_gb.h"
#include "pair_soft_aniso.h"
#include "pair_ssd.h"
#include "pair_table_r2.h"
#include "ptmc_command.h"

#ifdef MESOGPU_HAVE_CUDA
#include "cuda/angle_cosine_squared_cuda.h"
#include "cuda/angle_harmonic_cuda.h"
#include "cuda/angle_table_cuda.h"
#include "cuda/bond_fene_cuda.h"
#include "cuda/bond_harmonic_cuda.h"
#include "cuda/bond_table_cuda.h"
#include "cuda/compute_temp_cuda.h"
#include "cuda/device_bonds.h"
#include "cuda/dihedral_charmm_cuda.h"
#include "cuda/dihedral_harmonic_cuda.h"
#include "cuda/dihedral_table_cuda.h"
#include "cuda/fix_langevin_cuda.h"
#include "cuda/fix_leapfrog_aniso_cuda.h"
#include "cuda/fix_mdscf_cuda.h"
#include "cuda/fix_momentum_cuda.h"
#include "cuda/fix_nh_cuda.h"
#include "cuda/fix_nve_cuda.h"
#include "cuda/fix_nvt_cuda.h"
#include "cuda/fix_nve_rigid_single_cuda.h"
#include "cuda/fix_nvt_rigid_single_cuda.h"
#include "cuda/fix_npt_rigid_single_cuda.h"
#include "cuda/fix_polymerize_cuda.h"
#include "cuda/fix_temp_berendsen_cuda.h"
#include "cuda/pair_dpd_cuda.h"
#include "cuda/pair_gauss_cuda.h"
#include "cuda/pair_harmonic_cut_cuda.h"
#include "cuda/pair_hybrid_cuda.h"
#include "cuda/pair_lj_cut_cuda.h"
#include "cuda/pair_soft_aniso_cuda.h"
#include "cuda/pair_ssd_cuda.h"
#include "cuda/pair_gb_cuda.h"
#include "cuda/pair_coul_dipole_body_cuda.h"
#include "cuda/pair_table_r2_cuda.h"
#include "cuda/pair_zero_cuda.h"
#include "compute.h"
#include "modify.h"
#include "update.h"
#include "verlet_cuda.h"
#endif

#include <cstring>
#include <type_traits>
#include <typeinfo>

// LAMMPS's plugin registry (src/PLUGIN/plugin.h is not among the installed headers)
namespace LAMMPS_NS {
int plugin_find(const char *, const char *);
}

using namespace LAMMPS_NS;

namespace {
void *this_handle = nullptr;
// LAMMPS's two factory signatures: (lmp) for pair/bond/angle/dihedral/command styles,
// (lmp, narg, arg) for fix, compute and run styles
template <class Style> void *create1(LAMMPS *lmp)
{
  return new Style(lmp);
}
template <class Style> void *create2(LAMMPS *lmp, int narg, char **arg)
{
  return new Style(lmp, narg, arg);
}

struct StyleEntry {
  const char *style;    // LAMMPS's kind: pair, bond, angle, dihedral, fix, compute, run, command
  const char *name;
  const char *info;
  lammpsplugin_factory1 *create1;    // one of the two factories is set
  lammpsplugin_factory2 *create2;
  bool device;    // has a device part: run_style verlet/cuda can run it
  // runs on several MPI ranks: the class declares static constexpr bool several_ranks
  bool several_ranks;
  const std::type_info *type;
};
template <class Style>
constexpr bool has_device_part =
    std::is_base_of<DeviceForce, Style>::value || std::is_base_of<DeviceFix, Style>::value;
template <class Style, class = void> struct SeveralRanks : std::false_type {
};
template <class Style>
struct SeveralRanks<Style, std::void_t<decltype(Style::several_ranks)>> :
    std::integral_constant<bool, Style::several_ranks> {
};
template <class Style> StyleEntry style1(const char *style, const char *name, const char *info)
{
  return {style,
          name,
          info,
          (lammpsplugin_factory1 *) &create1<Style>,
          nullptr,
          has_device_part<Style>,
          SeveralRanks<Style>::value,
          &typeid(Style)};
}
template <class Style> StyleEntry style2(const char *style, const char *name, const char *info)
{
  return {style,
          name,
          info,
          nullptr,
          (lammpsplugin_factory2 *) &create2<Style>,
          has_device_part<Style>,
          SeveralRanks<Style>::value,
          &typeid(Style)};
}

// the registration table: every style of the plugin, once, registered in this order.
// A new style is its own files and one line here; run_style verlet/cuda names the device
// styles of a kind in its errors in this order (device_style_names)
const StyleEntry styles[] = {
    style1<PairTableR2>(
        "pair", "table/r2",
        "mesogpu: tabulated pair potential, C2 spline of the energy on an r^2 grid"),
    style1<PairSoftAniso>(
        "pair", "soft/aniso",
        "mesogpu: one-site soft anisotropic particles (rod, disk, Janus, ABA, BAB)"),
    style1<PairSSD>("pair", "ssd",
                    "mesogpu: soft-sticky-dipole water (SSD, SSD1, SSD/E, SSD/RF), ellipsoid "
                    "quaternions, forces and torques"),
    style1<PairGB>("pair", "gb",
                   "mesogpu: Gay-Berne of dissimilar uniaxial ellipsoids and spheres (Cleaver "
                   "1996), per-type-pair parameters, ellipsoid quaternions, forces and torques"),
    style1<PairCoulDipoleBody>(
        "pair", "coul/dipole/body",
        "mesogpu: charges and body-frame point dipoles of coarse-grained beads (Orsi 2008 "
        "lipids), ellipsoid quaternions, plain cutoff or reaction field, forces and torques"),
    style1<MesogpuInfo>("command", "mesogpu",
                        "mesogpu: 'mesogpu info' prints the plugin build and visible CUDA devices"),
    style2<FixLeapfrogAniso>("fix", "leapfrog/aniso",
                             "mesogpu: velocity Verlet + rotational leapfrog of anisotropic "
                             "particles (n = mu/|mu|), optional Berendsen"),
    style2<FixMDSCF>("fix", "mdscf",
                     "mesogpu: hybrid particle-field MD (MD-SCF): density-field forces on a grid"),
    style2<FixNVERigidSingle>("fix", "nve/rigid/single",
                              "mesogpu: single-site rigid bodies (quaternion, per-type inertia), "
                              "NO_SQUISH or DLM rotation"),
    style2<FixNVTRigidSingle>("fix", "nvt/rigid/single",
                              "mesogpu: Nose-Hoover chain on translation and rotation of "
                              "single-site rigid bodies (per-type inertia)"),
    style2<ComputeTempRigidSingle>("compute", "temp/rigid/single",
                                   "mesogpu: temperature of single-site rigid bodies, "
                                   "translation + rotation with per-type inertia"),
    style2<FixNPTRigidSingle>("fix", "npt/rigid/single",
                              "mesogpu: Nose-Hoover chain on translation and rotation, MTK "
                              "barostat on translation, of single-site rigid bodies"),
    style2<FixNPTRigidSingle>("fix", "nph/rigid/single",
                              "mesogpu: MTK barostat on translation of single-site rigid bodies "
                              "(no thermostat)"),
    style2<FixPolymerize>("fix", "polymerize",
                          "mesogpu: stochastic chain-growth polymerization (GALAMOST), CPU, MPI"),
    style1<PTMC>("command", "ptmc",
                 "mesogpu: parallel-tempering Monte Carlo of bead-spring polymers (CPU, MPI over "
                 "replicas; gpu yes: all replicas on the GPU)"),

#ifdef MESOGPU_HAVE_CUDA
    style1<PairLJCutCuda>("pair", "lj/cut/cuda", "mesogpu: lj/cut resident on the GPU"),
    style1<PairTableR2Cuda>("pair", "table/r2/cuda", "mesogpu: table/r2 resident on the GPU"),
    style1<PairGaussCuda>("pair", "gauss/cuda", "mesogpu: gauss resident on the GPU"),
    style1<PairHarmonicCutCuda>("pair", "harmonic/cut/cuda",
                                "mesogpu: harmonic/cut resident on the GPU"),
    style1<PairDPDCuda>("pair", "dpd/cuda",
                        "mesogpu: dpd resident on the GPU (Philox noise per pair and step)"),
    style1<PairSoftAnisoCuda>("pair", "soft/aniso/cuda",
                              "mesogpu: soft anisotropic particles resident on the GPU"),
    style1<PairSSDCuda>("pair", "ssd/cuda", "mesogpu: ssd water resident on the GPU"),
    style1<PairGBCuda>("pair", "gb/cuda", "mesogpu: gb (Gay-Berne) resident on the GPU"),
    style1<PairCoulDipoleBodyCuda>("pair", "coul/dipole/body/cuda",
                                   "mesogpu: coul/dipole/body resident on the GPU"),
    style1<PairZeroCuda>("pair", "zero/cuda", "mesogpu: no pair forces, resident runs"),
    style1<PairHybridCuda>("pair", "hybrid/cuda",
                           "mesogpu: pair_style hybrid over /cuda sub-styles, resident on the GPU"),
    style1<PairHybridOverlayCuda>(
        "pair", "hybrid/overlay/cuda",
        "mesogpu: pair_style hybrid/overlay over /cuda sub-styles, resident on the GPU"),
    style1<BondHarmonicCuda>("bond", "harmonic/cuda", "mesogpu: bond harmonic resident on the GPU"),
    style1<BondFENECuda>("bond", "fene/cuda", "mesogpu: bond fene resident on the GPU"),
    style1<BondTableCuda>("bond", "table/cuda", "mesogpu: bond table resident on the GPU"),
    style1<AngleHarmonicCuda>("angle", "harmonic/cuda",
                              "mesogpu: angle harmonic resident on the GPU"),
    style1<AngleCosineSquaredCuda>("angle", "cosine/squared/cuda",
                                   "mesogpu: angle cosine/squared resident on the GPU"),
    style1<AngleTableCuda>("angle", "table/cuda", "mesogpu: angle table resident on the GPU"),
    style1<DihedralHarmonicCuda>("dihedral", "harmonic/cuda",
                                 "mesogpu: dihedral harmonic resident on the GPU"),
    style1<DihedralCharmmCuda>("dihedral", "charmm/cuda",
                               "mesogpu: dihedral charmm (torsion, weight 0) resident on the GPU"),
    style1<DihedralTableCuda>("dihedral", "table/cuda",
                              "mesogpu: dihedral table resident on the GPU"),
    style2<FixNVECuda>("fix", "nve/cuda", "mesogpu: fix nve resident on the GPU"),
    style2<FixNVTCuda>("fix", "nvt/cuda",
                       "mesogpu: fix nvt (Nose-Hoover chain) resident on the GPU"),
    style2<FixNPTCuda>("fix", "npt/cuda",
                       "mesogpu: fix npt (Nose-Hoover barostat) resident on the GPU"),
    style2<FixNPHCuda>("fix", "nph/cuda",
                       "mesogpu: fix nph (Nose-Hoover barostat) resident on the GPU"),
    style2<FixLangevinCuda>("fix", "langevin/cuda", "mesogpu: fix langevin resident on the GPU"),
    style2<FixTempBerendsenCuda>("fix", "temp/berendsen/cuda",
                                 "mesogpu: fix temp/berendsen resident on the GPU"),
    style2<FixLeapfrogAnisoCuda>("fix", "leapfrog/aniso/cuda",
                                 "mesogpu: fix leapfrog/aniso resident on the GPU"),
    style2<FixMDSCFCuda>("fix", "mdscf/cuda",
                         "mesogpu: fix mdscf (MD-SCF field) resident on the GPU"),
    style2<FixMomentumCuda>("fix", "momentum/cuda", "mesogpu: fix momentum resident on the GPU"),
    style2<FixNVERigidSingleCuda>("fix", "nve/rigid/single/cuda",
                                  "mesogpu: fix nve/rigid/single resident on the GPU"),
    style2<FixNVTRigidSingleCuda>("fix", "nvt/rigid/single/cuda",
                                  "mesogpu: fix nvt/rigid/single resident on the GPU"),
    style2<FixNPTRigidSingleCuda>("fix", "npt/rigid/single/cuda",
                                  "mesogpu: fix npt/rigid/single resident on the GPU"),
    style2<FixNPTRigidSingleCuda>("fix", "nph/rigid/single/cuda",
                                  "mesogpu: fix nph/rigid/single resident on the GPU"),
    style2<FixPolymerizeCuda>("fix", "polymerize/cuda",
                              "mesogpu: chain growth resident on the GPU"),
    style2<ComputeTempCuda>("compute", "temp/cuda",
                            "mesogpu: compute temp from a device reduction in resident runs"),
    style2<VerletCuda>("run", "verlet/cuda",
                       "mesogpu: velocity Verlet with whole timesteps on the GPU"),
    style1<DeviceBonds>("command", "device_bonds",
                        "mesogpu: bonds made or broken on the device copy of a verlet/cuda run"),
#endif
};
}    // namespace

void *mesogpu_plugin_handle()
{
  return this_handle;
}

namespace {
// the names of the registered styles of one kind with a flag set, in registration order
std::string style_names(const char *style, bool StyleEntry::*flag)
{
  std::string names;
  for (const StyleEntry &s : styles)
    if (s.*flag && strcmp(s.style, style) == 0)
      names += (names.empty() ? "" : ", ") + std::string(s.name);
  return names;
}
}    // namespace

std::string mesogpu::device_style_names(const char *style)
{
  return style_names(style, &StyleEntry::device);
}

bool mesogpu::runs_on_several_ranks(const std::type_info &type)
{
  for (const StyleEntry &s : styles)
    if (*s.type == type) return s.several_ranks;
  return false;
}

std::string mesogpu::several_ranks_style_names(const char *style)
{
  return style_names(style, &StyleEntry::several_ranks);
}

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  this_handle = handle;
  auto register_plugin = (lammpsplugin_regfunc) regfunc;
  lammpsplugin_t plugin{};
  plugin.version = LAMMPS_VERSION;
  plugin.author = "mesogpu developers";
  plugin.handle = handle;

  // LAMMPS calls lammpsplugin_init again for every 'plugin load' of this file and, after
  // 'clear', from LAMMPS_PLUGIN_PATH; a style it already has (restored from its registry)
  // is not registered a second time
  for (const StyleEntry &s : styles) {
    if (plugin_find(s.style, s.name) >= 0) continue;
    plugin.style = s.style;
    plugin.name = s.name;
    plugin.info = s.info;
    if (s.create1)
      plugin.creator.v1 = s.create1;
    else
      plugin.creator.v2 = s.create2;
    (*register_plugin)(&plugin, lmp);
  }

#ifdef MESOGPU_HAVE_CUDA
  // LAMMPS creates its default run style before plugins on LAMMPS_PLUGIN_PATH load, so
  // '-sf cuda' alone would leave plain verlet in place: swap it here, while no run is active
  auto *l = (LAMMPS *) lmp;
  if (l->suffix_enable && l->suffix && strcmp(l->suffix, "cuda") == 0 &&
      strcmp(l->update->integrate_style, "verlet") == 0) {
    char verlet[] = "verlet";
    char *args[] = {verlet};
    l->update->create_integrate(1, args, 1);
    // the same holds for the thermo temperature: make it temp/cuda (same ID, which
    // thermo_press and thermo find by name at init), so thermo needs no atom download
    auto *temp = l->modify->get_compute_by_id("thermo_temp");
    if (temp && strcmp(temp->style, "temp") == 0 && strcmp(temp->id, "thermo_temp") == 0) {
      l->modify->delete_compute("thermo_temp");
      l->modify->add_compute("thermo_temp all temp/cuda");
    }
  }
#endif
}
