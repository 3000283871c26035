/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - /cuda variants of pair, bond and fix styles. Each is its CPU class
   plus a device part (device_styles.h); docs: doc/run_style_verlet_cuda.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_CUDA_STYLES_H
#define MESOGPU_CUDA_STYLES_H

#include "DPD-BASIC/pair_dpd.h"
#include "EXTRA-PAIR/pair_gauss.h"
#include "EXTRA-PAIR/pair_harmonic_cut.h"
#include "MOLECULE/angle_cosine_squared.h"
#include "MOLECULE/angle_harmonic.h"
#include "MOLECULE/bond_fene.h"
#include "MOLECULE/bond_harmonic.h"
#include "MOLECULE/dihedral_charmm.h"
#include "MOLECULE/dihedral_harmonic.h"
#include "compute_temp.h"
#include "device_styles.h"
#include "fix_langevin.h"
#include "fix_leapfrog_aniso.h"
#include "fix_mdscf.h"
#include "fix_momentum.h"
#include "fix_nve.h"
#include "fix_nvt.h"
#include "fix_temp_berendsen.h"
#include "pair_lj_cut.h"
#include "pair_zero.h"
#include "pair_soft_aniso.h"
#include "pair_table_r2.h"

namespace LAMMPS_NS {

// per-atom energies and virials of one force kind from the engine into a style's
// eatom / vatom (either may be null); kind: 0 pair, 1 bond, 2 angle, 3 dihedral
void device_per_atom_arrays(mesogpu::cuda::Engine &engine, int kind, class LAMMPS *lmp,
                            double *eatom, double **vatom);
#define MESOGPU_DEVICE_PER_ATOM_KIND_pair 0
#define MESOGPU_DEVICE_PER_ATOM_KIND_bond 1
#define MESOGPU_DEVICE_PER_ATOM_KIND_angle 2
#define MESOGPU_DEVICE_PER_ATOM_KIND_dihedral 3
// the DeviceForce per-atom hook: it needs the style's protected ev_setup, so each /cuda
// force class gets it in its own body
#define MESOGPU_DEVICE_PER_ATOM(KIND)                                                              \
  void device_per_atom(mesogpu::cuda::Engine &engine, int eflag, int vflag) override               \
  {                                                                                                \
    ev_setup(eflag, vflag);                                                                        \
    device_per_atom_arrays(engine, MESOGPU_DEVICE_PER_ATOM_KIND_##KIND, lmp,                       \
                           eflag_atom ? eatom : nullptr, vflag_atom ? vatom : nullptr);            \
  }

class PairLJCutCuda : public PairLJCut, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairLJCutCuda(class LAMMPS *lmp) : PairLJCut(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class PairTableR2Cuda : public PairTableR2, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairTableR2Cuda(class LAMMPS *lmp) : PairTableR2(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class PairGaussCuda : public PairGauss, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairGaussCuda(class LAMMPS *lmp) : PairGauss(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class PairHarmonicCutCuda : public PairHarmonicCut, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairHarmonicCutCuda(class LAMMPS *lmp) : PairHarmonicCut(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

// pair dpd with a counter-based random number per pair and step (shared by the pair's
// two atoms): the noise differs from the CPU style's, its statistics do not
class PairDPDCuda : public PairDPD, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairDPDCuda(class LAMMPS *lmp) : PairDPD(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class BondHarmonicCuda : public BondHarmonic, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(bond)
  BondHarmonicCuda(class LAMMPS *lmp) : BondHarmonic(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class BondFENECuda : public BondFENE, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(bond)
  BondFENECuda(class LAMMPS *lmp) : BondFENE(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class AngleHarmonicCuda : public AngleHarmonic, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(angle)
  AngleHarmonicCuda(class LAMMPS *lmp) : AngleHarmonic(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class AngleCosineSquaredCuda : public AngleCosineSquared, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(angle)
  AngleCosineSquaredCuda(class LAMMPS *lmp) : AngleCosineSquared(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class DihedralHarmonicCuda : public DihedralHarmonic, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(dihedral)
  DihedralHarmonicCuda(class LAMMPS *lmp) : DihedralHarmonic(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

// the torsion of dihedral charmm; its 1-4 Lennard-Jones part (weight > 0) has no device
// part yet, so all weights must be 0 (Xu et al.'s polyethylene uses the cos form alone)
class DihedralCharmmCuda : public DihedralCharmm, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(dihedral)
  DihedralCharmmCuda(class LAMMPS *lmp) : DihedralCharmm(lmp) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

class FixNVECuda : public FixNVE, public DeviceFix {
 public:
  FixNVECuda(class LAMMPS *lmp, int narg, char **arg) : FixNVE(lmp, narg, arg) {}
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
};

// fix langevin with a counter-based random stream per atom and step: the numbers
// differ from the CPU fix (whose stream depends on the MPI rank), the statistics do not
class FixLangevinCuda : public FixLangevin, public DeviceFix {
 public:
  FixLangevinCuda(class LAMMPS *lmp, int narg, char **arg);
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_post_force(mesogpu::cuda::Engine &engine, int vflag) override;

 private:
  unsigned stream_seed;
};

// fix nvt: LAMMPS's own Nose-Hoover chain arithmetic (FixNH) on the host, which is
// scalar work; the velocity scaling and the half-step updates run on the device, and
// the temperature comes from a device reduction (one 8-byte read-back per step) over the
// group of its temperature compute (compute temp; fix_modify temp may name another)
class FixNVTCuda : public FixNVT, public DeviceFix {
 public:
  FixNVTCuda(class LAMMPS *lmp, int narg, char **arg) : FixNVT(lmp, narg, arg) {}
  void init() override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;

 protected:
  void nh_v_temp() override;
  mesogpu::cuda::Engine *active = nullptr;    // set only inside the device step
};

class FixTempBerendsenCuda : public FixTempBerendsen, public DeviceFix {
 public:
  FixTempBerendsenCuda(class LAMMPS *lmp, int narg, char **arg) : FixTempBerendsen(lmp, narg, arg)
  {
  }
  void init() override;
  void device_end_of_step(mesogpu::cuda::Engine &engine) override;
};

class FixMomentumCuda : public FixMomentum, public DeviceFix {
 public:
  FixMomentumCuda(class LAMMPS *lmp, int narg, char **arg) : FixMomentum(lmp, narg, arg) {}
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_end_of_step(mesogpu::cuda::Engine &engine) override;
};

// pair soft/aniso: forces and torques from the packed device orientations
class PairSoftAnisoCuda : public PairSoftAniso, public DeviceForce {
 public:
  MESOGPU_DEVICE_PER_ATOM(pair)
  PairSoftAnisoCuda(class LAMMPS *lmp) : PairSoftAniso(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
};

// fix leapfrog/aniso: both halves of the step on the device; Berendsen from device sums
// (one 32-byte read-back per step); f_ID[1], f_ID[2] from device sums during a run
class FixLeapfrogAnisoCuda : public FixLeapfrogAniso, public DeviceFix {
 public:
  FixLeapfrogAnisoCuda(class LAMMPS *lmp, int narg, char **arg) : FixLeapfrogAniso(lmp, narg, arg)
  {
  }
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_initial_integrate(mesogpu::cuda::Engine &engine) override;
  void device_final_integrate(mesogpu::cuda::Engine &engine) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  double compute_vector(int) override;

 private:
  void device_temperatures(mesogpu::cuda::Engine &engine, double &t_tr, double &t_rot,
                           double &dof_tr, double &n_rot);
};

// pair_style zero: no pair forces on the device (and no neighbour list there); the
// cutoff still sets the host's ghost distance (bonds across boundaries)
class PairZeroCuda : public PairZero, public DeviceForce {
 public:
  PairZeroCuda(class LAMMPS *lmp) : PairZero(lmp) {}
  void init_style() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_per_atom(mesogpu::cuda::Engine &engine, int eflag, int vflag) override;
};

// fix mdscf: densities, potentials, gradients and forces on the device (the whole grid on
// one GPU). The host copy of the field (output, restart, the next run's setup) is
// refreshed from the device when the host arrays are synced; energies and the virial
// come from device sums (read back once per field update, when someone asks).
class FixMDSCFCuda : public FixMDSCF, public DeviceFix {
 public:
  FixMDSCFCuda(class LAMMPS *lmp, int narg, char **arg) : FixMDSCF(lmp, narg, arg) {}
  void init() override;
  void device_setup(mesogpu::cuda::Engine &engine) override;
  void device_post_force(mesogpu::cuda::Engine &engine, int vflag) override;
  void device_sync_host(mesogpu::cuda::Engine &engine) override;
  double compute_scalar() override;
  double compute_vector(int) override;

 private:
  bool host_field_stale = false;    // the device rebuilt the field since the host copy
  bool sums_stale = false;          // energies/virial of the device field not read yet
  void pull_sums(mesogpu::cuda::Engine &engine);
  void pull_sums_if_ahead();
  void copy_phi(std::vector<double> &full, bool to_host);
};

// compute temp whose scalar comes from a device reduction while a resident run holds
// the velocities on the GPU (thermo steps then need no download); the thermo
// temperature under -sf cuda. Anywhere else it is compute temp.
class ComputeTempCuda : public ComputeTemp {
 public:
  ComputeTempCuda(class LAMMPS *lmp, int narg, char **arg) : ComputeTemp(lmp, narg, arg) {}
  double compute_scalar() override;
  void compute_vector() override;
};

}    // namespace LAMMPS_NS

#endif
