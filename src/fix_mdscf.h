/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix mdscf: hybrid particle-field molecular dynamics (MD-SCF; Milano and Kawakatsu,
   J. Chem. Phys. 130, 214106 (2009); Zhu et al., J. Comput. Chem. 34, 2197 (2013)).
   Intermolecular non-bonded forces come from density fields on a periodic grid:
   cloud-in-cell densities, field potential V_K = kT sum chi_KK' phi_K' + (sum phi - 1)/kappa,
   central-difference gradients, trilinear interpolation to the particles. The field is
   rebuilt every n steps and its stored gradients are interpolated at every step.
   The grid is distributed over the MPI ranks with ghost layers (LAMMPS Grid3d).
   Physics: src/physics/mdscf.h. Docs: doc/fix_mdscf.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_MDSCF_H
#define MESOGPU_FIX_MDSCF_H

#include "fix.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class FixMDSCF : public Fix {
 public:
  FixMDSCF(class LAMMPS *, int, char **);
  ~FixMDSCF() override;

  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;

  double compute_scalar() override;
  double compute_vector(int) override;
  double compute_array(int, int) override;

  void write_restart(FILE *) override;
  void restart(char *) override;

  void reset_grid() override;
  void pack_forward_grid(int, void *, int, int *) override;
  void unpack_forward_grid(int, void *, int, int *) override;
  void pack_reverse_grid(int, void *, int, int *) override;
  void unpack_reverse_grid(int, void *, int, int *) override;
  void pack_remap_grid(int, void *, int, int *) override;
  void unpack_remap_grid(int, void *, int, int *) override;
  void pack_write_grid(int, void *) override;
  void unpack_write_grid(int, void *, int *) override;
  int get_grid_by_name(const std::string &, int &) override;
  void *get_grid_by_index(int) override;
  int get_griddata_by_name(int, const std::string &, int &) override;
  void *get_griddata_by_index(int) override;

  void *extract(const char *, int &) override;
  double memory_usage() override;

  // ---- settings, public so a device part can read them ----
  int nxgrid = 0, nygrid = 0, nzgrid = 0;    // grid nodes per box edge
  double temperature = 0.0;                  // T of the kT scale of chi
  double kappa = 0.0;                        // compressibility (1/energy)
  int nupdate = 1;                           // field rebuilt when step % nupdate == 0
  double rho0_user = 0.0;                    // > 0: rho0 given by the user
  int profile_dim = 2;                       // axis of the global array profile
  bool deposit_gather = false;               // device density assignment: gather, not atomics
  int ncomp = 0;                             // number of field components (types)
  std::vector<int> type2comp;                // per type 1..ntypes: component or -1
  std::vector<int> comp2type;                // per component: its type
  double **chi_type = nullptr;               // chi per type pair, (ntypes+1)^2
  std::vector<double> chi_comp;              // chi per component pair, ncomp^2, row-major

  // ---- state ----
  double rho0 = 0.0;          // reference number density, fixed once set
  double kT = 0.0;            // force->boltz * temperature
  bool have_field = false;    // densities (and what derives from them) are valid
  bigint last_update = -1;    // step of the last rebuild from particle positions
  double energy_chi = 0.0, energy_kappa = 0.0;    // W = energy_chi + energy_kappa
  double virial_local = 0.0;                      // this rank's diagonal field virial

 protected:
  class Grid3d *grid = nullptr;
  int nxlo_in = 0, nxhi_in = -1, nylo_in = 0, nyhi_in = -1, nzlo_in = 0, nzhi_in = -1;
  int nxlo_out = 0, nxhi_out = -1, nylo_out = 0, nyhi_out = -1, nzlo_out = 0, nzhi_out = -1;
  double maxdist = -1.0;    // ghost distance the grid was built for

  // per node [iz][iy][ix][*]: phi (ncomp), potential V (ncomp), gradient (3 ncomp)
  double ****phi = nullptr, ****pot = nullptr, ****grad = nullptr;
  double *grid_buf1 = nullptr, *grid_buf2 = nullptr;
  int ngrid_buf1 = 0, ngrid_buf2 = 0;

  // previous decomposition while remapping
  double ****phi_previous = nullptr;
  int nxlo_out_prev = 0, nylo_out_prev = 0, nzlo_out_prev = 0;

  std::vector<double> profile;        // [plane][type-1], phi averaged over the plane
  std::vector<double> write_buf;      // whole grid on rank 0 while writing a restart
  std::vector<double> restart_phi;    // whole grid read from a restart, until init()
  double restart_rho0 = 0.0;
  bigint restart_step = -1;
  bool restart_pending = false;
  bool warned_restart_size = false;

  void make_grid();
  void allocate_grid();
  void deallocate_grid();
  void set_rho0();
  void build_field();
  void derive_field();
  void apply_forces(int);
  void load_restart_field();
  void check_range(int, int, int, int);
  void check_periodic();
  std::string grid_size_text() const;
  // values per node and component: phi, V and the 3 gradient components
  static constexpr int VALUES_PER_NODE = 5;
  static std::string gib_text(double bytes);
  double *flat(double ****a) { return &a[nzlo_out][nylo_out][nxlo_out][0]; }
  // v_c: the volume of one grid cell (the box over the node count)
  double cell_volume() const;
};

}    // namespace LAMMPS_NS

#endif
