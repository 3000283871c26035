/* mesogpu: fix leapfrog/aniso/cuda; see fix_leapfrog_aniso_cuda.h. */

#include "fix_leapfrog_aniso_cuda.h"

#include "device_context.h"
#include "device_style_util.h"

#include "compute.h"
#include "engine.h"
#include "error.h"
#include "force.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixLeapfrogAnisoCuda::device_setup(Engine &engine)
{
  if (!engine.has_orientation())
    error->all(FLERR, "Fix leapfrog/aniso/cuda: the atom style has no orientations on the device "
                      "(use atom_style hybrid sphere dipole)");
  // the device sums m v^2 over the fix group itself: a fix_modify temp compute is honoured
  // only when it is that same temperature (its dof are used)
  if (temperature && (!device_util::is_plain_temp(temperature) || temperature->igroup != igroup))
    error->all(FLERR,
               "Fix leapfrog/aniso/cuda: fix_modify temp {} (compute style {}) cannot be used on "
               "the device: only a compute temp on the fix group is supported",
               temperature->id, temperature->style);
  engine.set_inertia(inertia);
}

void FixLeapfrogAnisoCuda::device_initial_integrate(Engine &engine)
{
  engine.leapfrog_initial(dtv, dtf, groupbit, limit_normalize);
}

// the device's count of normalised drifts joins the host's (post_run reports it)
void FixLeapfrogAnisoCuda::device_sync_host(Engine &engine)
{
  if (limit_normalize) nlimited += engine.take_rotation_limited();
}

void FixLeapfrogAnisoCuda::device_temperatures(Engine &engine, double &t_tr, double &t_rot,
                                               double &dof_tr, double &n_rot)
{
  // FixLeapfrogAniso::temperatures() on device sums
  double sum[4];
  engine.aniso_kinetic_sums(groupbit, sum);
  dof_tr = temperature ? temperature->dof : 3.0 * sum[2] - 3.0 - fix_dof;
  n_rot = sum[3];
  const double mvv2e = force->mvv2e, boltz = force->boltz;
  t_tr = dof_tr > 0.0 ? sum[0] * mvv2e / (dof_tr * boltz) : 0.0;
  t_rot = n_rot > 0.0 ? sum[1] * mvv2e / (2.0 * n_rot * boltz) : 0.0;
}

void FixLeapfrogAnisoCuda::device_final_integrate(Engine &engine)
{
  engine.leapfrog_final(dtf, dtv * force->ftm2v, groupbit);
  if (!berendsen) return;
  double t_tr, t_rot, dof_tr, n_rot, lambda_t, lambda_r;
  device_temperatures(engine, t_tr, t_rot, dof_tr, n_rot);
  // as on the host; also adds the energy removed to the fix's ecouple (host arithmetic)
  berendsen_factors(t_tr, t_rot, dof_tr, n_rot, lambda_t, lambda_r);
  engine.scale_aniso(groupbit, lambda_t, lambda_r);
}

double FixLeapfrogAnisoCuda::compute_vector(int n)
{
  auto *context = DeviceContext::current(lmp);
  Engine *engine = context ? context->engine_ahead_of_host() : nullptr;
  if (!engine) return FixLeapfrogAniso::compute_vector(n);
  double t_tr, t_rot, dof_tr, n_rot;
  try {
    device_temperatures(*engine, t_tr, t_rot, dof_tr, n_rot);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Fix leapfrog/aniso/cuda: {}", e.what());
  }
  return n == 0 ? t_tr : t_rot;
}
