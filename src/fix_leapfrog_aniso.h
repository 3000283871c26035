/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix leapfrog/aniso: integrator of GALAMOST's one-site soft anisotropic particles.
   Translation: velocity Verlet (as fix nve). Rotation of the unit orientation
   n = mu/|mu|: the rotational leapfrog of Fincham (Mol. Simul. 8, 165 (1992)) on
   omega = n x u, with an optional Berendsen thermostat coupling translation and rotation
   separately; the energy it exchanges is the fix's scalar (ecouple).
   Physics: src/physics/rotation_leapfrog.h. Docs: doc/fix_leapfrog_aniso.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_LEAPFROG_ANISO_H
#define MESOGPU_FIX_LEAPFROG_ANISO_H

#include "fix.h"

#include <vector>

namespace LAMMPS_NS {

class FixLeapfrogAniso : public Fix {
 public:
  FixLeapfrogAniso(class LAMMPS *, int, char **);
  ~FixLeapfrogAniso() override;

  int setmask() override;
  void init() override;
  void setup(int) override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void reset_dt() override;
  void post_run() override;
  double compute_scalar() override;
  double compute_vector(int) override;
  int modify_param(int, char **) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  void *extract(const char *, int &) override;

  // settings, public so a device part can read them
  std::vector<double> inertia;      // per type, index 1..ntypes (default 1)
  std::vector<char> inertia_set;    // type given an inertia by the user
  bool berendsen = false;
  double t_target = 0.0, tau_t = 0.0, tau_r = 0.0;
  bool limit_normalize = false;    // 'limit normalize': dt |w| >= 1 takes the normalised drift
  bigint nlimited = 0;             // such drifts on this rank in this run
  double energy = 0.0;             // cumulative energy the thermostat took out (ecouple)
  char *id_temp = nullptr;         // fix_modify temp: compute of T_tr, else none
  class Compute *temperature = nullptr;    // that compute (after init)

 protected:
  double dtv = 0.0, dtf = 0.0;
  double fix_dof = 0.0;    // degrees of freedom removed by other fixes (as compute temp)

  bool warned_cold = false;    // the 'T = 0 cannot be scaled up' warning was given

  void temperatures(double &t_tr, double &t_rot, double &dof_tr, double &n_rot);
  // Berendsen factors from the temperatures; adds the kinetic energy they remove to energy
  void berendsen_factors(double t_tr, double t_rot, double dof_tr, double n_rot, double &lambda_t,
                         double &lambda_r);
};

}    // namespace LAMMPS_NS

#endif
