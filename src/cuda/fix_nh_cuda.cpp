/* mesogpu: fix npt/cuda and fix nph/cuda; see fix_nh_cuda.h. */

#include "fix_nh_cuda.h"

#include "device_style_util.h"

#include "atom.h"
#include "compute.h"
#include "compute_pressure.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "modify.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

namespace {

// FixNH's pstyle TRICLINIC (a value of an enum private to fix_nh.cpp)
constexpr int PSTYLE_TRICLINIC = 2;

// the ID of the temperature compute of a compute pressure (null: none, or another style);
// ComputePressure keeps it protected, and a pointer to member formed through a derived
// class may read it
struct PressureTemperatureId : ComputePressure {
  static const char *of(Compute *c)
  {
    auto *p = dynamic_cast<ComputePressure *>(c);
    return p ? p->*(&PressureTemperatureId::id_temp) : nullptr;
  }
};

// the engine of the device step, cleared however the step ends
struct ActiveEngine {
  Engine *&slot;
  ActiveEngine(Engine *&s, Engine &e) : slot(s) { slot = &e; }
  ~ActiveEngine() { slot = nullptr; }
};

}    // namespace

/* ---------------------------------------------------------------------- */

template <class Base>
FixNHCuda<Base>::FixNHCuda(LAMMPS *lmp, int narg, char **arg) : Base(lmp, narg, arg)
{
  // the barostat's temperature and kinetic tensor come from the device: the fix's own
  // compute temp becomes temp/cuda (under -sf cuda it is one already), same ID, so the
  // fix's compute pressure finds it at init
  if (this->tcomputeflag) {
    this->modify->delete_compute(this->id_temp);
    this->modify->add_compute(fmt::format("{} all temp/cuda", this->id_temp), 0);
  }
}

template <class Base> void FixNHCuda<Base>::init()
{
  Base::init();
  if (!device_util::resident_run(this->lmp)) return;
  auto *error = this->error;
  const char *style = this->style, *id = this->id;

  if (this->domain->triclinic || this->pstyle == PSTYLE_TRICLINIC)
    error->all(FLERR,
               "Fix {} (ID {}): keywords tri, xy, xz, yz and triclinic boxes are not supported in "
               "resident runs (run_style verlet/cuda): orthogonal boxes with iso, aniso, x, y, z "
               "and couple only",
               style, id);
  if (this->dipole_flag)
    error->all(FLERR,
               "Fix {} (ID {}): keyword update dipole is not supported in resident runs "
               "(run_style verlet/cuda)",
               style, id);
  if (!this->modify->get_fix_by_style("^mdscf").empty())
    error->all(FLERR,
               "Fix {} (ID {}): the box must not change under fix mdscf/cuda (its field grid "
               "is laid out once per run)",
               style, id);

  // the pressure compute reads the temperature (and kinetic tensor) through its
  // temperature compute, which must reduce on the device
  auto require_device_temp = [&](const char *temp_id, const char *role) {
    Compute *t = this->modify->get_compute_by_id(temp_id);
    if (t && strcmp(t->style, "temp/cuda") != 0)
      error->all(FLERR,
                 "Fix {} (ID {}): {} compute {} has style {}; a resident run reads the "
                 "barostat's temperature from the device through compute temp/cuda (define it "
                 "with style temp/cuda, or run with -sf cuda)",
                 style, id, role, temp_id, t->style);
  };
  require_device_temp(this->id_temp, "the temperature");
  if (strcmp(this->pressure->style, "pressure") != 0)
    error->all(FLERR,
               "Fix {} (ID {}): the pressure compute {} has style {}; a resident run supports "
               "compute pressure",
               style, id, this->pressure->id, this->pressure->style);
  if (const char *ptemp = PressureTemperatureId::of(this->pressure))
    require_device_temp(ptemp, "the pressure's temperature");
}

/* ----------------------------------------------------------------------
   FixNH's own steps; the virtual loops over atoms below run on the device
------------------------------------------------------------------------- */

template <class Base> void FixNHCuda<Base>::device_initial_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  Base::initial_integrate(0);
}

template <class Base> void FixNHCuda<Base>::device_final_integrate(Engine &engine)
{
  ActiveEngine on(active, engine);
  Base::final_integrate();
}

template <class Base> void FixNHCuda<Base>::nh_v_temp()
{
  if (!active) return Base::nh_v_temp();
  active->scale_velocities(this->groupbit, this->factor_eta);
}

template <class Base> void FixNHCuda<Base>::nh_v_press()
{
  if (!active) return Base::nh_v_press();
  // FixNH::nh_v_press's factors (no tilt terms: orthogonal box)
  const double dt4 = this->dt4, mtk_term2 = this->mtk_term2;
  const double factor[3] = {exp(-dt4 * (this->omega_dot[0] + mtk_term2)),
                            exp(-dt4 * (this->omega_dot[1] + mtk_term2)),
                            exp(-dt4 * (this->omega_dot[2] + mtk_term2))};
  active->nh_v_press(this->groupbit, factor);
}

template <class Base> void FixNHCuda<Base>::nve_v()
{
  if (!active) return Base::nve_v();
  active->nve_v(this->dtf, this->groupbit);
}

template <class Base> void FixNHCuda<Base>::nve_x()
{
  if (!active) return Base::nve_x();
  active->nve_x(this->dtv, this->groupbit);
}

template <class Base> void FixNHCuda<Base>::remap()
{
  if (!active) return Base::remap();
  auto *domain = this->domain;
  auto *atom = this->atom;
  double old_lo[3], old_h_inv[3];
  for (int d = 0; d < 3; d++) {
    old_lo[d] = domain->boxlo[d];
    old_h_inv[d] = domain->h_inv[d];
  }
  // FixNH::remap() with no local atoms: LAMMPS's own box arithmetic (omega, the new
  // boxlo/boxhi about the fixed point, isochoric, set_global_box, set_local_box) without
  // its loops over the host atoms, which are stale during the run; the atoms move on the
  // device below
  const int nlocal = atom->nlocal;
  atom->nlocal = 0;
  try {
    Base::remap();
  } catch (...) {
    atom->nlocal = nlocal;
    throw;
  }
  atom->nlocal = nlocal;
  try {
    // the engine's box: the global one, or on several ranks the new subdomain grown
    double lo[3], hi[3];
    device_util::engine_box(this->lmp, lo, hi);
    active->change_box(lo, hi);
    active->remap_atoms(old_lo, old_h_inv, domain->boxlo, domain->h,
                        this->allremap ? 0 : this->dilate_group_bit);
  } catch (std::runtime_error &e) {
    this->error->all(FLERR, "Fix {} (ID {}): {}", this->style, this->id, e.what());
  }
}

namespace LAMMPS_NS {
template class FixNHCuda<FixNPT>;
template class FixNHCuda<FixNPH>;
}    // namespace LAMMPS_NS
