/* mesogpu: fix momentum/cuda; see fix_momentum_cuda.h. */

#include "fix_momentum_cuda.h"

#include "domain.h"
#include "engine.h"
#include "error.h"
#include "group.h"

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

void FixMomentumCuda::device_setup(Engine &)
{
  if (rescale) error->all(FLERR, "Fix momentum/cuda does not support 'rescale' yet");
  masstotal = group->mass(igroup);
}

void FixMomentumCuda::device_end_of_step(Engine &engine)
{
  if (linear) engine.zero_momentum(groupbit, masstotal, xflag, yflag, zflag);
  if (angular && masstotal > 0.0) {
    // LAMMPS's own 3x3 solve (Group::omega) on the device-reduced moments
    double mx[3], xcm[3], angmom[3], itensor[6], inertia[3][3], omega[3];
    // (positions unwrapped with the global box, which a rank's engine box is not on
    // several ranks)
    engine.group_mass_moment(groupbit, domain->prd, mx);
    for (int d = 0; d < 3; d++) xcm[d] = mx[d] / masstotal;
    engine.group_angmom_inertia(groupbit, domain->prd, xcm, angmom, itensor);
    inertia[0][0] = itensor[0];
    inertia[1][1] = itensor[1];
    inertia[2][2] = itensor[2];
    inertia[0][1] = inertia[1][0] = itensor[3];
    inertia[1][2] = inertia[2][1] = itensor[4];
    inertia[0][2] = inertia[2][0] = itensor[5];
    group->omega(angmom, inertia, omega);
    engine.subtract_rotation(groupbit, domain->prd, xcm, omega);
  }
}
