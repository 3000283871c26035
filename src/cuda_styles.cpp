/* mesogpu: /cuda styles; see cuda_styles.h. Host computations (run 0, setup, the
   force-style tests) use the inherited CPU code; the device part hands parameters to
   the engine, whose kernels use the same evaluators (src/physics/). */

#include "cuda_styles.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "engine.h"
#include "error.h"
#include "force.h"
#include "compute.h"
#include "group.h"
#include "update.h"
#include "physics/rotation_leapfrog.h"
#include "verlet_cuda.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using mesogpu::cuda::Engine;

// enums private to LAMMPS's fix_langevin.cpp and fix_temp_berendsen.cpp
static constexpr int TSTYLE_CONSTANT = 0;
static constexpr int NOBIAS_TEMPERATURE = 0;

namespace {
// a /cuda style outside run_style verlet/cuda runs its CPU code: say so once at init
void warn_if_host(LAMMPS *lmp, const char *kind, const char *style)
{
  if (lmp->comm->me == 0 && strcmp(lmp->update->integrate_style, "verlet/cuda") != 0 &&
      lmp->update->whichflag == 1)
    lmp->error->warning(FLERR,
                        "{} style {} computes on the host because run_style is '{}'; use the "
                        "-sf cuda command-line switch or 'run_style verlet/cuda'",
                        kind, style, lmp->update->integrate_style);
}
// compute temp or temp/cuda (the same temperature): what the device thermostats reproduce
bool is_plain_temp(const Compute *c)
{
  return strcmp(c->style, "temp") == 0 || strcmp(c->style, "temp/cuda") == 0;
}
// a run (not a minimisation) under run_style verlet/cuda: the device parts act
bool resident_run(LAMMPS *lmp)
{
  return lmp->update->whichflag == 1 && strcmp(lmp->update->integrate_style, "verlet/cuda") == 0;
}
// the device thermostats sum m v^2 over a group, as compute temp does: a temperature
// compute set by fix_modify temp must be one (of any group), without a bias. Checked at
// init, before any device work, so the error comes the same with or without a GPU.
void require_plain_temperature(LAMMPS *lmp, const Fix *fix, const Compute *temperature, int which)
{
  if (!resident_run(lmp) || (which == NOBIAS_TEMPERATURE && is_plain_temp(temperature))) return;
  lmp->error->all(FLERR,
                  "Fix {} (ID {}): the temperature compute {} (style {}{}) cannot be used: the "
                  "device version computes the temperature of a group as compute temp does, from "
                  "a device sum of m v^2 without a bias; set a compute temp with fix_modify temp "
                  "(any group), or run the fix on the host",
                  fix->style, fix->id, temperature->id, temperature->style,
                  temperature->tempbias ? ", with a bias" : "");
}
}    // namespace

/* ---------------------------------------------------------------------- */

void PairLJCutCuda::init_style()
{
  PairLJCut::init_style();
  warn_if_host(lmp, "Pair", "lj/cut/cuda");
}

void PairLJCutCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostLJ p;
  for (auto *v : {&p.lj1, &p.lj2, &p.lj3, &p.lj4, &p.offset, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.lj1[k] = lj1[i][j];
      p.lj2[k] = lj2[i][j];
      p.lj3[k] = lj3[i][j];
      p.lj4[k] = lj4[i][j];
      p.offset[k] = offset_flag ? offset[i][j] : 0.0;
      p.cutsq[k] = cutsq[i][j];
    }
  engine.set_pair_lj(p);
}

/* ---------------------------------------------------------------------- */

void PairTableR2Cuda::init_style()
{
  PairTableR2::init_style();
  warn_if_host(lmp, "Pair", "table/r2/cuda");
}

void PairTableR2Cuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostTableR2 p;
  p.table_of_pair.assign(np1 * np1, -1);
  p.offset.assign(np1 * np1, 0.0);
  p.cutsq.assign(np1 * np1, 0.0);
  for (const Table &t : tables) {
    p.n.push_back(t.n);
    p.z_lo.push_back(t.z_lo);
    p.dz.push_back(t.dz);
    p.coeff.insert(p.coeff.end(), t.coeff.begin(), t.coeff.end());
  }
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.table_of_pair[k] = tabindex[i][j];
      p.offset[k] = offset[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  p.inner = static_cast<int>(inner);
  engine.set_pair_table_r2(p);
}

/* ---------------------------------------------------------------------- */

void BondHarmonicCuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondHarmonic p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
  }
  engine.set_bond_harmonic(p);
}

void BondFENECuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostBondFENE p;
  for (int t = 0; t <= atom->nbondtypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.r0.push_back(t ? r0[t] : 0.0);
    p.epsilon.push_back(t ? epsilon[t] : 0.0);
    p.sigma.push_back(t ? sigma[t] : 0.0);
  }
  engine.set_bond_fene(p);
}

/* ---------------------------------------------------------------------- */

void FixNVECuda::device_initial_integrate(Engine &engine)
{
  engine.nve_initial(dtv, dtf, groupbit);
}

void FixNVECuda::device_final_integrate(Engine &engine)
{
  engine.nve_final(dtf, groupbit);
}

/* ---------------------------------------------------------------------- */

void PairGaussCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostGauss p;
  for (auto *v : {&p.a, &p.b, &p.offset, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.a[k] = a[i][j];
      p.b[k] = b[i][j];
      p.offset[k] = offset[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  engine.set_pair_gauss(p);
}

void PairHarmonicCutCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostHarmonicCut p;
  for (auto *v : {&p.k, &p.cut, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int kk = i * np1 + j;
      p.k[kk] = k[i][j];
      p.cut[kk] = cut[i][j];
      p.cutsq[kk] = cutsq[i][j];
    }
  engine.set_pair_harmonic_cut(p);
}

/* ---------------------------------------------------------------------- */

FixLangevinCuda::FixLangevinCuda(LAMMPS *lmp, int narg, char **arg) : FixLangevin(lmp, narg, arg)
{
  // arg[6] is the seed the user gave; the device stream uses it directly
  stream_seed = static_cast<unsigned>(utils::inumeric(FLERR, arg[6], false, lmp));
}

void FixLangevinCuda::device_setup(Engine &engine)
{
  if (tstyle != TSTYLE_CONSTANT)
    error->all(
        FLERR,
        "Fix langevin/cuda: the target temperature must be constant or a ramp (no variables yet)");
  if (tallyflag || zeroflag || oflag || ascale > 0.0 || tbiasflag)
    error->all(FLERR, "Fix langevin/cuda supports none of the keywords tally, zero, omega, angmom, "
                      "and no temperature bias yet");
  for (int t = 1; t <= atom->ntypes; t++)
    if (ratio[t] != 1.0) error->all(FLERR, "Fix langevin/cuda does not support 'scale' yet");
  if (atom->rmass_flag)
    error->all(FLERR,
               "Fix langevin/cuda supports per-type masses only (atom style {} has "
               "per-atom masses)",
               atom->atom_style);
  // the prefactors FixLangevin::init() computed for this run
  engine.set_langevin(std::vector<double>(gfactor1, gfactor1 + atom->ntypes + 1),
                      std::vector<double>(gfactor2, gfactor2 + atom->ntypes + 1));
}

void FixLangevinCuda::device_post_force(Engine &engine, int)
{
  compute_target();    // t_target and tsqrt for this step (a ramp over the run)
  engine.langevin(groupbit, tsqrt, stream_seed, update->ntimestep);
}

/* ---------------------------------------------------------------------- */

void FixNVTCuda::init()
{
  FixNVT::init();
  if (pstat_flag && resident_run(lmp))
    error->all(FLERR, "Fix nvt/cuda: pressure control is not supported");
  require_plain_temperature(lmp, this, temperature, which);
}

void FixNVTCuda::device_initial_integrate(Engine &engine)
{
  active = &engine;
  compute_temp_target();
  nhc_temp_integrate();    // host scalars; nh_v_temp() below scales on the device
  engine.nve_initial(dtv, dtf, groupbit);
  active = nullptr;
}

void FixNVTCuda::device_final_integrate(Engine &engine)
{
  active = &engine;
  engine.nve_final(dtf, groupbit);
  // the temperature compute's group (fix_modify temp may name another one) and dof
  tdof = temperature->dof;
  t_current = tdof > 0
                  ? engine.kinetic_sum(temperature->groupbit) * force->mvv2e / (tdof * force->boltz)
                  : 0.0;
  nhc_temp_integrate();
  active = nullptr;
}

void FixNVTCuda::nh_v_temp()
{
  if (active)
    active->scale_velocities(groupbit, factor_eta);
  else
    FixNVT::nh_v_temp();
}

/* ---------------------------------------------------------------------- */

void FixTempBerendsenCuda::init()
{
  FixTempBerendsen::init();
  if (tstyle != TSTYLE_CONSTANT && resident_run(lmp))
    error->all(FLERR, "Fix temp/berendsen/cuda: the target temperature must be constant or a ramp");
  require_plain_temperature(lmp, this, temperature, which);
}

void FixTempBerendsenCuda::device_end_of_step(Engine &engine)
{
  const double tdof = temperature->dof;
  if (tdof < 1) return;
  double delta = update->ntimestep - update->beginstep;
  if (delta != 0.0) delta /= update->endstep - update->beginstep;
  t_target = t_start + delta * (t_stop - t_start);
  const double tfactor = force->mvv2e / (tdof * force->boltz);
  if (temperature->igroup == igroup) {    // all on the device, no read-back
    engine.berendsen(groupbit, tfactor, t_target, update->dt / t_period);
    return;
  }
  // the temperature of another group (fix_modify temp): its sum comes back (8 bytes)
  const double t_current = engine.kinetic_sum(temperature->groupbit) * tfactor;
  if (t_current == 0.0)
    error->all(FLERR, "Computed current temperature for fix temp/berendsen/cuda must not be 0.0");
  engine.scale_velocities(groupbit,
                          sqrt(1.0 + update->dt / t_period * (t_target / t_current - 1.0)));
}

/* ---------------------------------------------------------------------- */

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
    engine.group_mass_moment(groupbit, mx);
    for (int d = 0; d < 3; d++) xcm[d] = mx[d] / masstotal;
    engine.group_angmom_inertia(groupbit, xcm, angmom, itensor);
    inertia[0][0] = itensor[0];
    inertia[1][1] = itensor[1];
    inertia[2][2] = itensor[2];
    inertia[0][1] = inertia[1][0] = itensor[3];
    inertia[1][2] = inertia[2][1] = itensor[4];
    inertia[0][2] = inertia[2][0] = itensor[5];
    group->omega(angmom, inertia, omega);
    engine.subtract_rotation(groupbit, xcm, omega);
  }
}

/* ---------------------------------------------------------------------- */

void PairDPDCuda::device_setup(Engine &engine)
{
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostDPD p;
  for (auto *v : {&p.a0, &p.gamma, &p.sigma, &p.cut, &p.cutsq}) v->assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      const int k = i * np1 + j;
      p.a0[k] = a0[i][j];
      p.gamma[k] = gamma[i][j];
      p.sigma[k] = sigma[i][j];
      p.cut[k] = cut[i][j];
      p.cutsq[k] = cutsq[i][j];
    }
  // PairDPD fills special_sqrt in compute(), which a resident run never calls
  for (int k = 0; k < 4; k++) p.special_sqrt[k] = sqrt(force->special_lj[k]);
  p.seed = static_cast<unsigned>(seed);
  engine.set_pair_dpd(p);
}

/* ---------------------------------------------------------------------- */

namespace {
// angle and dihedral parameters per type, as the engine takes them
mesogpu::cuda::HostAngle angle_params(int kind, int ntypes, const double *k, const double *theta0)
{
  mesogpu::cuda::HostAngle p;
  p.kind = kind;
  for (int t = 0; t <= ntypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.theta0.push_back(t ? theta0[t] : 0.0);
  }
  return p;
}
mesogpu::cuda::HostDihedral dihedral_params(int ntypes, const double *k, const double *cos_shift,
                                            const double *sin_shift, const int *multiplicity)
{
  mesogpu::cuda::HostDihedral p;
  for (int t = 0; t <= ntypes; t++) {
    p.k.push_back(t ? k[t] : 0.0);
    p.cos_shift.push_back(t ? cos_shift[t] : 0.0);
    p.sin_shift.push_back(t ? sin_shift[t] : 0.0);
    p.multiplicity.push_back(t ? multiplicity[t] : 0);
  }
  return p;
}
}    // namespace

void AngleHarmonicCuda::device_setup(Engine &engine)
{
  engine.set_angle(angle_params(0 /* AngleKind::harmonic */, atom->nangletypes, k, theta0));
}

void AngleCosineSquaredCuda::device_setup(Engine &engine)
{
  engine.set_angle(angle_params(1 /* AngleKind::cosine_squared */, atom->nangletypes, k, theta0));
}

void DihedralHarmonicCuda::device_setup(Engine &engine)
{
  engine.set_dihedral(dihedral_params(atom->ndihedraltypes, k, cos_shift, sin_shift, multiplicity));
}

void DihedralCharmmCuda::device_setup(Engine &engine)
{
  for (int t = 1; t <= atom->ndihedraltypes; t++)
    if (weight[t] != 0.0)
      error->all(FLERR,
                 "Dihedral charmm/cuda: dihedral type {} has 1-4 weight {}; the device part "
                 "supports weight 0 only (the torsion alone)",
                 t, weight[t]);
  engine.set_dihedral(dihedral_params(atom->ndihedraltypes, k, cos_shift, sin_shift, multiplicity));
}

/* ---------------------------------------------------------------------- */

void LAMMPS_NS::device_per_atom_arrays(Engine &engine, int kind, LAMMPS *lmp, double *eatom,
                                       double **vatom)
{
  const int nlocal = lmp->atom->nlocal;
  std::vector<double> v(vatom ? 6 * (size_t) nlocal : 0);
  engine.download_per_atom_ev(static_cast<Engine::ForceKind>(kind), eatom,
                              vatom ? v.data() : nullptr);
  if (vatom)
    for (int i = 0; i < nlocal; i++)
      for (int k = 0; k < 6; k++) vatom[i][k] = v[6 * (size_t) i + k];
}

/* ---------------------------------------------------------------------- */

double ComputeTempCuda::compute_scalar()
{
  auto *verlet = dynamic_cast<VerletCuda *>(update->integrate);
  Engine *engine = verlet ? verlet->engine_ahead_of_host() : nullptr;
  if (!engine) return ComputeTemp::compute_scalar();

  // ComputeTemp::compute_scalar() with the sum of m v^2 from the device (one rank)
  invoked_scalar = update->ntimestep;
  try {
    scalar = engine->kinetic_sum(groupbit);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Compute temp/cuda: {}", e.what());
  }
  if (dynamic) dof_compute();
  if (dof < 0.0 && natoms_temp > 0.0)
    error->all(FLERR, "Temperature compute degrees of freedom < 0");
  scalar *= tfactor;
  return scalar;
}

void ComputeTempCuda::compute_vector()
{
  // the kinetic tensor (pressure components) from host velocities: sync first
  if (auto *verlet = dynamic_cast<VerletCuda *>(update->integrate)) verlet->sync_atoms();
  ComputeTemp::compute_vector();
}

/* ---------------------------------------------------------------------- */

void PairSoftAnisoCuda::init_style()
{
  PairSoftAniso::init_style();
  warn_if_host(lmp, "Pair", "soft/aniso/cuda");
}

void PairSoftAnisoCuda::device_setup(Engine &engine)
{
  normalise_orientations();    // stops on an anisotropic atom without orientation
  const int np1 = atom->ntypes + 1;
  mesogpu::cuda::HostSoftAniso p;
  p.params.resize(np1 * np1, pair_params(1, 1));
  p.cutsq.assign(np1 * np1, 0.0);
  for (int i = 1; i < np1; i++)
    for (int j = 1; j < np1; j++) {
      p.params[i * np1 + j] = pair_params(i, j);
      p.cutsq[i * np1 + j] = cutsq[i][j];
    }
  engine.set_pair_soft_aniso(p);
}

/* ---------------------------------------------------------------------- */

void FixLeapfrogAnisoCuda::device_setup(Engine &engine)
{
  if (!engine.has_orientation())
    error->all(FLERR, "Fix leapfrog/aniso/cuda: the atom style has no orientations on the device "
                      "(use atom_style hybrid sphere dipole)");
  // the device sums m v^2 over the fix group itself: a fix_modify temp compute is honoured
  // only when it is that same temperature (its dof are used)
  if (temperature && (!is_plain_temp(temperature) || temperature->igroup != igroup))
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
  auto *verlet = dynamic_cast<VerletCuda *>(update->integrate);
  Engine *engine = verlet ? verlet->engine_ahead_of_host() : nullptr;
  if (!engine) return FixLeapfrogAniso::compute_vector(n);
  double t_tr, t_rot, dof_tr, n_rot;
  try {
    device_temperatures(*engine, t_tr, t_rot, dof_tr, n_rot);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Fix leapfrog/aniso/cuda: {}", e.what());
  }
  return n == 0 ? t_tr : t_rot;
}

/* ---------------------------------------------------------------------- */

void PairZeroCuda::init_style()
{
  PairZero::init_style();
  warn_if_host(lmp, "Pair", "zero/cuda");
}

void PairZeroCuda::device_setup(Engine &engine)
{
  engine.set_pair_none();
}

void PairZeroCuda::device_per_atom(Engine &, int eflag, int vflag)
{
  ev_setup(eflag, vflag);    // zeroes eatom / vatom: the style contributes nothing
}

/* ----------------------------------------------------------------------
   fix mdscf/cuda
------------------------------------------------------------------------- */

void FixMDSCFCuda::init()
{
  FixMDSCF::init();
  warn_if_host(lmp, "Fix", "mdscf/cuda");
}

/* the whole grid (one rank owns it) as the engine holds it, node-major, and back */
void FixMDSCFCuda::copy_phi(std::vector<double> &full, bool to_host)
{
  full.resize((size_t) nxgrid * nygrid * nzgrid * ncomp);
  for (int iz = 0; iz < nzgrid; ++iz)
    for (int iy = 0; iy < nygrid; ++iy)
      for (int ix = 0; ix < nxgrid; ++ix)
        for (int k = 0; k < ncomp; ++k) {
          double &flat = full[(((size_t) iz * nygrid + iy) * nxgrid + ix) * ncomp + k];
          if (to_host)
            phi[iz][iy][ix][k] = flat;
          else
            flat = phi[iz][iy][ix][k];
        }
}

void FixMDSCFCuda::device_setup(Engine &engine)
{
  mesogpu::cuda::HostMDSCF p;
  p.nx = nxgrid;
  p.ny = nygrid;
  p.nz = nzgrid;
  p.ncomp = ncomp;
  p.type2comp = type2comp;
  p.chi = chi_comp;
  p.kT = kT;
  p.inv_kappa = 1.0 / kappa;
  if (rho0 <= 0.0) set_rho0();
  p.rho0 = rho0;
  p.groupbit = groupbit;
  p.gather = deposit_gather;
  engine.set_mdscf(p);
  // the host's field (built at setup, or carried over from the last run or a restart)
  // goes to the device as it is; setup() always leaves one, the build is only a guard
  if (!have_field) build_field();
  std::vector<double> full;
  copy_phi(full, false);
  engine.mdscf_upload_phi(full.data());
  host_field_stale = false;
  sums_stale = false;    // the host's energies are those of this field
}

void FixMDSCFCuda::device_post_force(Engine &engine, int vflag)
{
  if (update->ntimestep % nupdate == 0) {
    engine.mdscf_build_field();
    last_update = update->ntimestep;
    host_field_stale = true;
    sums_stale = true;
  }
  engine.mdscf_apply_forces();
  v_init(vflag);
  if (vflag_global) {
    pull_sums(engine);
    virial[0] += virial_local;
    virial[1] += virial_local;
    virial[2] += virial_local;
  }
}

/* energies and the virial of the device field, read back once per field update */
void FixMDSCFCuda::pull_sums(Engine &engine)
{
  if (!sums_stale) return;
  double s[3];
  engine.mdscf_sums(s);
  const double per_node = rho0 * cell_volume();
  energy_chi = per_node * s[0];
  energy_kappa = per_node * s[1];
  virial_local = per_node * s[2];
  sums_stale = false;
}

void FixMDSCFCuda::pull_sums_if_ahead()
{
  auto *verlet = dynamic_cast<VerletCuda *>(update->integrate);
  Engine *engine = verlet ? verlet->engine_ahead_of_host() : nullptr;
  if (!engine) return;
  try {
    pull_sums(*engine);
  } catch (std::runtime_error &e) {
    error->all(FLERR, "Fix mdscf/cuda: {}", e.what());
  }
}

/* the device field back into the host grid; derive_field() then recomputes potentials,
   gradients, energies and the profile on the host from the same phi */
void FixMDSCFCuda::device_sync_host(Engine &engine)
{
  if (!host_field_stale) return;
  std::vector<double> full((size_t) nxgrid * nygrid * nzgrid * ncomp);
  engine.mdscf_download_phi(full.data());
  copy_phi(full, true);
  have_field = true;
  derive_field();
  host_field_stale = false;
  sums_stale = false;
}

double FixMDSCFCuda::compute_scalar()
{
  pull_sums_if_ahead();
  return FixMDSCF::compute_scalar();
}

double FixMDSCFCuda::compute_vector(int n)
{
  pull_sums_if_ahead();
  return FixMDSCF::compute_vector(n);
}
