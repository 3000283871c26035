/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix nvt/rigid/single (doc/fix_nvt_rigid_single.md)

   FixNH's step (LAMMPS's Nose-Hoover chain of Martyna, Klein, Tuckerman; the order of
   fix nvt), with its three virtual hooks for an oriented atom of the group:
     nh_v_temp  v *= factor_eta  and  L *= factor_eta (the same chain acts on the
                translational and rotational kinetic energy, as fix nvt/asphere)
     nve_v      v += dt/2 f/m;  L += dt/2 tau
     nve_x      x += dt v;  (q, L) <- free rotation over dt (NO_SQUISH or DLM)
   The temperature of the chain is compute temp/rigid/single with the fix's inertia:
   translational + rotational KE over 3 + 3 (2 for linear bodies) dof per atom. The
   thermostat state (eta, eta_dot, ...) is FixNH's and goes into restart files.
------------------------------------------------------------------------- */

#include "fix_nvt_rigid_single.h"

#include "atom.h"
#include "citeme.h"
#include "error.h"
#include "group.h"
#include "modify.h"
#include "update.h"
#include "utils.h"

#include <cstring>
#include <map>

using namespace LAMMPS_NS;

namespace {

const char cite_fix_nvt_rigid_single[] =
    "fix nvt/rigid/single: https://doi.org/10.1063/1.463940\n\n"
    "@Article{Martyna92,\n"
    " author = {G. J. Martyna and M. L. Klein and M. E. Tuckerman},\n"
    " title = {{Nos\\'e}--{Hoover} chains: The canonical ensemble via continuous dynamics},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 1992,\n"
    " volume = 97,\n"
    " pages = {2635--2643},\n"
    " doi = {10.1063/1.463940}\n"
    "}\n\n"
    "@Article{Miller02,\n"
    " author = {T. F. Miller III and M. Eleftheriou and P. Pattnaik and A. Ndirango and "
    "D. Newns and G. J. Martyna},\n"
    " title = {Symplectic quaternion scheme for biophysical molecular dynamics},\n"
    " journal = {J.~Chem.\\ Phys.},\n"
    " year = 2002,\n"
    " volume = 116,\n"
    " pages = {8649--8659},\n"
    " doi = {10.1063/1.1473654}\n"
    "}\n\n";

}    // namespace

/* ---------------------------------------------------------------------- */

RigidSingleNHArgs::RigidSingleNHArgs(LAMMPS *lmp, int narg, char **arg) :
    bodies(lmp, std::string("Fix ") + (narg > 2 ? arg[2] : "nvt/rigid/single"))
{
  // FixNH's keywords and their word counts (fix_nh.cpp, LAMMPS 2026-07-04): their values
  // pass through unparsed ('update dipole' is FixNH's, not our 'dipole')
  static const std::map<std::string, int> nh_keywords = {
      {"temp", 4},      {"iso", 4},        {"aniso", 4},    {"tri", 4},    {"x", 4},
      {"y", 4},         {"z", 4},          {"yz", 4},       {"xz", 4},     {"xy", 4},
      {"couple", 2},    {"drag", 2},       {"ptemp", 2},    {"dilate", 2}, {"tchain", 2},
      {"pchain", 2},    {"mtk", 2},        {"tloop", 2},    {"ploop", 2},  {"nreset", 2},
      {"scalexy", 2},   {"scalexz", 2},    {"scaleyz", 2},  {"flip", 2},   {"update", 2},
      {"isochoric", 2}, {"fixedpoint", 4}, {"disc", 1},     {"erate", 3},  {"strain", 3},
      {"ext", 2},       {"psllod", 2},     {"peculiar", 2}, {"kick", 2},   {"integrator", 2}};
  int iarg = 0;
  while (iarg < narg) {
    if (iarg < 3) {
      nh_words.emplace_back(arg[iarg++]);
      continue;
    }
    auto nh = nh_keywords.find(arg[iarg]);
    if (nh != nh_keywords.end()) {
      for (int k = 0; k < nh->second && iarg < narg; ++k) nh_words.emplace_back(arg[iarg++]);
      continue;
    }
    const int n = bodies.parse(iarg, narg, arg);
    if (n == 0) {
      nh_words.emplace_back(arg[iarg++]);    // FixNH names it in its error
      continue;
    }
    if (strcmp(arg[iarg], "inertia") == 0)
      for (int k = 0; k < n; ++k) inertia_words += std::string(" ") + arg[iarg + k];
    iarg += n;
  }
  for (auto &w : nh_words) nh_argv.push_back(&w[0]);
  nh_argv.push_back(nullptr);
}

/* ---------------------------------------------------------------------- */

FixNVTRigidSingle::FixNVTRigidSingle(LAMMPS *lmp, int narg, char **arg) :
    RigidSingleNHArgs(lmp, narg, arg), FixNH(lmp, (int) nh_words.size(), nh_argv.data())
{
  if (lmp->citeme) lmp->citeme->add(cite_fix_nvt_rigid_single);
  // npt/rigid/single and nph/rigid/single (FixNPTRigidSingle) derive from this class and
  // check their own keywords
  if (utils::strmatch(style, "^nvt/rigid/single")) {
    if (!tstat_flag)
      error->all(FLERR, "Fix nvt/rigid/single: temperature control (temp Tstart Tstop Tdamp) must "
                        "be used");
    if (pstat_flag)
      error->all(FLERR, "Fix nvt/rigid/single: pressure control can not be used (use fix "
                        "npt/rigid/single)");
  }

  // the chain's temperature: translation + rotation with this fix's inertia
  id_temp = utils::strdup(std::string(id) + "_temp");
  modify->add_compute(
      fmt::format("{} {} temp/rigid/single{}", id_temp, group->names[igroup], inertia_words));
  tcomputeflag = 1;
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingle::init()
{
  bodies.init(groupbit);
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR,
               "Fix nvt/rigid/single does not support run_style respa: use run_style verlet");
  FixNH::init();
}

/* ----------------------------------------------------------------------
   linear bodies lose their spin about the axis before FixNH measures the temperature
------------------------------------------------------------------------- */

void FixNVTRigidSingle::setup(int vflag)
{
  bodies.setup(groupbit);
  FixNH::setup(vflag);
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingle::nve_v()
{
  FixNH::nve_v();
  const int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const double *q = bodies.quat_of(i);
    if (q) bodies.kick(i, q, dtf);
  }
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingle::nve_x()
{
  FixNH::nve_x();
  const int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    double *q = bodies.quat_of(i);
    if (q) bodies.advance(i, q, dtv);
  }
}

/* ---------------------------------------------------------------------- */

void FixNVTRigidSingle::nh_v_temp()
{
  FixNH::nh_v_temp();
  double **angmom = atom->angmom;
  const int *mask = atom->mask;
  const int *ellipsoid = atom->ellipsoid;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;
  for (int i = 0; i < nlocal; ++i)
    if ((mask[i] & groupbit) && ellipsoid[i] >= 0)
      for (int d = 0; d < 3; ++d) angmom[i][d] *= factor_eta;
}
