/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix npt/rigid/single, fix nph/rigid/single (doc/fix_npt_rigid_single.md)

   FixNH's step (the order of fix npt) for single-site rigid bodies, with three
   quantities kept apart (FixNH uses one temperature compute for all of them):
     thermostat  t_current, tdof of compute temp/rigid/single (the fix's id_temp):
                 translation + rotation, the chain scales v and L (FixNVTRigidSingle)
     pressure    compute pressure on a compute temp of group all made by this fix
                 (id_temp_trans): kinetic part 2 KE_trans / (3V) (virial + translation)
     MTK terms   mtk_term1 = 2 KE_trans / (pdim N) (iso; per component of the
                 translational KE tensor otherwise), mtk_term2 = tr(omega_dot) / (pdim N),
                 both from translational momenta only: the box scaling acts on centre-of-
                 mass positions and momenta, q and L do not scale with the box
   couple() and nh_omega_dot() of FixNH are not virtual, so initial_integrate() and
   final_integrate() are FixNH's with two calls replaced: the translational temperature is
   recomputed before every pressure evaluation (a compute caches its value per timestep,
   and the velocities change between the two evaluations of one step), and
   nh_omega_dot_trans() takes the MTK kinetic term from it.
------------------------------------------------------------------------- */

#include "fix_npt_rigid_single.h"

#include "atom.h"
#include "compute.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "kspace.h"
#include "modify.h"
#include "neighbor.h"
#include "update.h"
#include "utils.h"

#include <cstring>

using namespace LAMMPS_NS;

namespace {
// FixNH's private enums (fix_nh.cpp, LAMMPS 2026-07-04), same values
enum { ISO, ANISO, TRICLINIC };
enum { NOBIAS, BIAS };
}    // namespace

/* ---------------------------------------------------------------------- */

FixNPTRigidSingle::FixNPTRigidSingle(LAMMPS *lmp, int narg, char **arg) :
    FixNVTRigidSingle(lmp, narg, arg)
{
  const bool nph = utils::strmatch(style, "^nph/rigid/single");
  if (nph && tstat_flag)
    error->all(FLERR,
               "Fix {}: temperature control (temp) can not be used; use fix "
               "npt/rigid/single",
               style);
  if (!nph && !tstat_flag)
    error->all(FLERR, "Fix {}: temperature control (temp Tstart Tstop Tdamp) must be used", style);
  if (!pstat_flag)
    error->all(FLERR, "Fix {}: pressure control (iso, aniso, x, y or z) must be used", style);
  if (domain->triclinic || pstyle == TRICLINIC || p_flag[3] || p_flag[4] || p_flag[5])
    error->all(FLERR, "Fix {}: only orthogonal boxes (iso, aniso, x, y, z; no tri, xy, xz, yz)",
               style);
  if (domain->dimension != 3) error->all(FLERR, "Fix {} requires a 3d system", style);

  // the pressure's temperature: translation only, of all atoms (as fix npt: group all)
  id_temp_trans = utils::strdup(std::string(id) + "_temp_trans");
  modify->add_compute(fmt::format("{} all temp", id_temp_trans));
  id_press = utils::strdup(std::string(id) + "_press");
  modify->add_compute(fmt::format("{} all pressure {}", id_press, id_temp_trans));
  pcomputeflag = 1;
}

/* ---------------------------------------------------------------------- */

FixNPTRigidSingle::~FixNPTRigidSingle()
{
  if (copymode) return;
  if (id_temp_trans && modify) modify->delete_compute(id_temp_trans);
  delete[] id_temp_trans;
}

/* ---------------------------------------------------------------------- */

void FixNPTRigidSingle::init()
{
  if (domain->triclinic) error->all(FLERR, "Fix {}: the box must stay orthogonal", style);
  FixNVTRigidSingle::init();
  temp_trans = modify->get_compute_by_id(id_temp_trans);
  if (!temp_trans)
    error->all(FLERR, "Fix {}: translational temperature compute {} does not exist", style,
               id_temp_trans);
}

/* ----------------------------------------------------------------------
   the translational temperature is recomputed before FixNH::setup() evaluates the pressure
------------------------------------------------------------------------- */

void FixNPTRigidSingle::setup(int vflag)
{
  temp_trans->compute_scalar();
  if (pstyle != ISO) temp_trans->compute_vector();
  FixNVTRigidSingle::setup(vflag);
}

/* ----------------------------------------------------------------------
   the pressure with the current translational kinetic energy, then FixNH's couple()
------------------------------------------------------------------------- */

void FixNPTRigidSingle::pressure_now()
{
  temp_trans->compute_scalar();
  if (pstyle == ISO) {
    pressure->compute_scalar();
  } else {
    temp_trans->compute_vector();
    pressure->compute_vector();
  }
  couple();
  pressure->addstep(update->ntimestep + 1);
}

/* ----------------------------------------------------------------------
   FixNH::initial_integrate() (LAMMPS 2026-07-04) with pressure_now() and
   nh_omega_dot_trans()
------------------------------------------------------------------------- */

void FixNPTRigidSingle::initial_integrate(int /*vflag*/)
{
  if (mpchain) nhc_press_integrate();
  if (tstat_flag) {
    compute_temp_target();
    nhc_temp_integrate();
  }
  pressure_now();
  compute_press_target();
  nh_omega_dot_trans();
  nh_v_press();
  nve_v();
  remap();
  nve_x();
  remap();
  if (kspace_flag) force->kspace->setup();
}

/* ----------------------------------------------------------------------
   FixNH::final_integrate() with pressure_now() and nh_omega_dot_trans()
------------------------------------------------------------------------- */

void FixNPTRigidSingle::final_integrate()
{
  nve_v();
  if (which == BIAS && neighbor->ago == 0) t_current = temperature->compute_scalar();
  nh_v_press();
  t_current = temperature->compute_scalar();
  tdof = temperature->dof;
  pressure_now();
  nh_omega_dot_trans();
  if (tstat_flag) nhc_temp_integrate();
  if (mpchain) nhc_press_integrate();
}

/* ----------------------------------------------------------------------
   FixNH::nh_omega_dot() with the MTK kinetic term of the translational temperature
   (fresh: pressure_now() ran just before). mtk_term1 = sum over barostatted components
   of the translational KE tensor sum m v_a v_a mvv2e (iso: 2 KE_trans = dof k_B T_trans),
   over pdim N; mtk_term2 = tr(omega_dot) / (pdim N) as in FixNH (N = atom->natoms: the
   3N centre-of-mass dof of the MTK equations, rotations not counted)
------------------------------------------------------------------------- */

void FixNPTRigidSingle::nh_omega_dot_trans()
{
  const double volume = domain->xprd * domain->yprd * domain->zprd;
  if (deviatoric_flag) compute_deviatoric();

  mtk_term1 = 0.0;
  if (mtk_flag) {
    if (pstyle == ISO) {
      mtk_term1 = temp_trans->dof * boltz * temp_trans->scalar;
    } else {
      const double *mvv = temp_trans->vector;
      for (int i = 0; i < 3; i++)
        if (p_flag[i]) mtk_term1 += mvv[i];
    }
    mtk_term1 /= pdim * atom->natoms;
  }

  for (int i = 0; i < 3; i++)
    if (p_flag[i]) {
      double f_omega =
          (p_current[i] - p_hydro) * volume / (omega_mass[i] * nktv2p) + mtk_term1 / omega_mass[i];
      if (deviatoric_flag) f_omega -= fdev[i] / (omega_mass[i] * nktv2p);
      omega_dot[i] += f_omega * dthalf;
      omega_dot[i] *= pdrag_factor;
    }

  mtk_term2 = 0.0;
  if (mtk_flag) {
    for (int i = 0; i < 3; i++)
      if (p_flag[i]) mtk_term2 += omega_dot[i];
    if (pdim > 0) mtk_term2 /= pdim * atom->natoms;
  }
}

/* ----------------------------------------------------------------------
   fix_modify temp: the thermostat's temperature only; the pressure keeps the fix's
   translational temperature. fix_modify press is refused (its temperature would not be
   recomputed before each evaluation, and it would have to be translational)
------------------------------------------------------------------------- */

int FixNPTRigidSingle::modify_param(int narg, char **arg)
{
  if (strcmp(arg[0], "press") == 0)
    error->all(FLERR,
               "Fix {}: fix_modify press is not supported: the fix makes its own pressure "
               "compute {} with the translational temperature {}",
               style, id_press, id_temp_trans);
  const int n = FixNVTRigidSingle::modify_param(narg, arg);
  if (n && strcmp(arg[0], "temp") == 0) {
    auto *p = modify->get_compute_by_id(id_press);
    if (p) p->reset_extra_compute_fix(id_temp_trans);
  }
  return n;
}
