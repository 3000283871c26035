/* fix mdscf inside LAMMPS (plugin from LAMMPS_PLUGIN_PATH), one rank. References are
   the MD-SCF equations written out here again, never numbers the fix produced: the
   cloud-in-cell deposit of the atoms (node by node), the energy W = rho0 v_c sum_g f from
   the fix's own densities, the force as the interpolated central-difference gradient of
   V, sum F = 0 at update steps, the frozen field between updates, -dW/dx by finite
   differences of the energy on a system whose field is an exact discrete sine (so the
   CIC discretisation error is known), the virial as -dW/d strain, a restart that
   continues the run, the independence from atom order, the profile array, dump grid,
   types/group restrictions, type labels, the citation and the error messages of bad
   commands. */

#include "lmp_session.h"

#include "atom.h"
#include "domain.h"
#include "fix.h"
#include "grid3d.h"
#include "info.h"
#include "modify.h"
#include "update.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace {

const double PI = 3.14159265358979323846;

std::string tmp_name(const std::string &stem)
{
  return "lmp_mdscf_" + std::to_string(getpid()) + "_" + stem;
}

// the field's settings as the test knows them (types 1..3 in the field unless said)
struct Spec {
  int n[3] = {7, 6, 9};
  double temp = 1.3, kappa = 0.2;
  double chi[4][4] = {{0, 0, 0, 0}, {0, 0, 1.5, -0.5}, {0, 1.5, 0, 0.8}, {0, -0.5, 0.8, 0}};
  int every = 5;
  std::vector<int> types = {1, 2, 3};
  std::string extra;
  std::string command(const std::string &group = "all") const
  {
    std::string c = "fix f " + group + " mdscf grid " + std::to_string(n[0]) + " " +
                    std::to_string(n[1]) + " " + std::to_string(n[2]) + " temp " +
                    std::to_string(temp) + " kappa " + std::to_string(kappa) + " every " +
                    std::to_string(every);
    for (int i = 1; i <= 3; ++i)
      for (int j = i; j <= 3; ++j)
        if (chi[i][j] != 0.0) c += fmt::format(" chi {} {} {:.17g}", i, j, chi[i][j]);
    if (types.size() != 3) {
      c += " types";
      for (int t : types) c += " " + std::to_string(t);
    }
    return c + " " + extra;
  }
};

// about 420 atoms of 3 types on a displaced sc lattice in a 6 x 5 x 7 box; every random
// choice depends on coordinates only. Forces come from the fix alone (pair zero).
void blend(LmpSession &s, const std::string &sort = "sort 0 0.0")
{
  s.cmds({"units lj", "atom_style atomic", "atom_modify map array " + sort, "lattice sc 2.0",
          "region box block 0 6.0 0 5.0 0 7.0 units box", "create_box 3 box", "create_atoms 1 box",
          "displace_atoms all random 0.35 0.35 0.35 4321 units box",
          "set type 1 type/fraction 2 0.4 1234", "set type 1 type/fraction 3 0.2 5678",
          "mass * 1.0", "pair_style zero 1.0", "pair_coeff * *", "neighbor 0.3 bin",
          "neigh_modify every 1 delay 0 check yes", "timestep 0.005", "thermo_modify norm no"});
}

// positions, forces and types by atom tag
struct Atoms {
  std::map<long, std::vector<double>> x, f;
  std::map<long, int> type;
};

Atoms atoms_of(LAMMPS_NS::LAMMPS *lmp)
{
  Atoms a;
  auto *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; ++i) {
    a.x[atom->tag[i]] = {atom->x[i][0], atom->x[i][1], atom->x[i][2]};
    a.f[atom->tag[i]] = {atom->f[i][0], atom->f[i][1], atom->f[i][2]};
    a.type[atom->tag[i]] = atom->type[i];
  }
  return a;
}

LAMMPS_NS::Fix *fix_of(LmpSession &s)
{
  return s.lmp->modify->get_fix_by_id("f");
}

// the fix's phi on the whole grid, [node][column], node = (iz ny + iy) nx + ix (one rank)
std::vector<double> fix_phi(LAMMPS_NS::Fix *fix, int &ncol)
{
  int dim = 0;
  const int ig = fix->get_grid_by_name("grid", dim);
  EXPECT_EQ(ig, 0);
  EXPECT_EQ(dim, 3);
  auto *grid = (LAMMPS_NS::Grid3d *) fix->get_grid_by_index(ig);
  const int id = fix->get_griddata_by_name(ig, "phi", ncol);
  auto ****phi = (double ****) fix->get_griddata_by_index(id);
  int nx, ny, nz, b[6];
  grid->get_size(nx, ny, nz);
  grid->get_bounds_owned(b[0], b[1], b[2], b[3], b[4], b[5]);
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[1], nx - 1);
  EXPECT_EQ(b[5], nz - 1);
  std::vector<double> out((size_t) nx * ny * nz * ncol);
  for (int iz = 0; iz < nz; ++iz)
    for (int iy = 0; iy < ny; ++iy)
      for (int ix = 0; ix < nx; ++ix)
        for (int k = 0; k < ncol; ++k)
          out[(((size_t) iz * ny + iy) * nx + ix) * ncol + k] = phi[iz][iy][ix][k];
  return out;
}

// the MD-SCF model written out again: deposit, potential, energy, force
struct Reference {
  Spec spec;
  int n[3];
  double lo[3], h[3], vc, rho0, kT;
  int nc;
  int comp_of_type[4] = {-1, -1, -1, -1};
  std::vector<double> phi, V;

  Reference(const Spec &sp, LAMMPS_NS::LAMMPS *lmp, double rho0_) : spec(sp), rho0(rho0_)
  {
    for (int d = 0; d < 3; ++d) {
      n[d] = sp.n[d];
      lo[d] = lmp->domain->boxlo[d];
      h[d] = lmp->domain->prd[d] / n[d];
    }
    vc = h[0] * h[1] * h[2];
    kT = sp.temp;    // lj units: k_B = 1
    nc = 0;
    for (int t : sp.types) comp_of_type[t] = nc++;
    phi.assign(nnodes() * nc, 0.0);
  }
  size_t nnodes() const { return (size_t) n[0] * n[1] * n[2]; }
  int wrap(int i, int d) const { return ((i % n[d]) + n[d]) % n[d]; }
  size_t node(int ix, int iy, int iz) const
  {
    return ((size_t) wrap(iz, 2) * n[1] + wrap(iy, 1)) * n[0] + wrap(ix, 0);
  }
  // corner nodes and weights of the cell of x
  void corners(const std::vector<double> &x, size_t nodes[8], double w[8]) const
  {
    int c0[3];
    double t[3];
    for (int d = 0; d < 3; ++d) {
      const double s = (x[d] - lo[d]) / h[d];
      c0[d] = static_cast<int>(std::floor(s));
      t[d] = s - c0[d];
    }
    for (int c = 0; c < 8; ++c) {
      const int b[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      w[c] = 1.0;
      for (int d = 0; d < 3; ++d) w[c] *= b[d] ? t[d] : 1.0 - t[d];
      nodes[c] = node(c0[0] + b[0], c0[1] + b[1], c0[2] + b[2]);
    }
  }
  void deposit(const Atoms &a)
  {
    phi.assign(nnodes() * nc, 0.0);
    for (const auto &kv : a.x) {
      const int k = comp_of_type[a.type.at(kv.first)];
      if (k < 0) continue;
      size_t nodes[8];
      double w[8];
      corners(kv.second, nodes, w);
      for (int c = 0; c < 8; ++c) phi[nodes[c] * nc + k] += w[c] / (rho0 * vc);
    }
  }
  double chi_c(int k, int l) const { return spec.chi[spec.types[k]][spec.types[l]]; }
  void potentials()
  {
    V.assign(nnodes() * nc, 0.0);
    for (size_t m = 0; m < nnodes(); ++m) {
      double total = 0.0;
      for (int l = 0; l < nc; ++l) total += phi[m * nc + l];
      for (int k = 0; k < nc; ++k) {
        double s = 0.0;
        for (int l = 0; l < nc; ++l) s += chi_c(k, l) * phi[m * nc + l];
        V[m * nc + k] = kT * s + (total - 1.0) / spec.kappa;
      }
    }
  }
  // W = rho0 v_c sum_g [1/2 kT sum chi phi phi + (sum phi - 1)^2 / (2 kappa)]
  double energy(double &w_chi, double &w_kappa) const
  {
    w_chi = w_kappa = 0.0;
    for (size_t m = 0; m < nnodes(); ++m) {
      double total = 0.0;
      for (int k = 0; k < nc; ++k) {
        total += phi[m * nc + k];
        for (int l = 0; l < nc; ++l)
          w_chi += 0.5 * kT * chi_c(k, l) * phi[m * nc + k] * phi[m * nc + l];
      }
      w_kappa += 0.5 / spec.kappa * (total - 1.0) * (total - 1.0);
    }
    w_chi *= rho0 * vc;
    w_kappa *= rho0 * vc;
    return w_chi + w_kappa;
  }
  // F = - sum_c w_c (V(g_c + e_d) - V(g_c - e_d)) / (2 h_d)
  std::vector<double> force(const std::vector<double> &x, int type) const
  {
    std::vector<double> f = {0.0, 0.0, 0.0};
    const int k = comp_of_type[type];
    if (k < 0) return f;
    size_t nodes[8];
    double w[8];
    corners(x, nodes, w);
    for (int c = 0; c < 8; ++c) {
      const size_t m = nodes[c];
      const int ix = m % n[0], iy = (m / n[0]) % n[1], iz = m / ((size_t) n[0] * n[1]);
      const double g[3] = {
          (V[node(ix + 1, iy, iz) * nc + k] - V[node(ix - 1, iy, iz) * nc + k]) / (2 * h[0]),
          (V[node(ix, iy + 1, iz) * nc + k] - V[node(ix, iy - 1, iz) * nc + k]) / (2 * h[1]),
          (V[node(ix, iy, iz + 1) * nc + k] - V[node(ix, iy, iz - 1) * nc + k]) / (2 * h[2])};
      for (int d = 0; d < 3; ++d) f[d] -= w[c] * g[d];
    }
    return f;
  }
};

double max_abs_force(const Atoms &a)
{
  double m = 0.0;
  for (const auto &kv : a.f)
    for (double v : kv.second) m = std::max(m, std::fabs(v));
  return m;
}

// largest |difference| of positions (minimum image: one may be wrapped into the box, the
// other not yet) and of forces between two snapshots, by tag
void max_differences(const Atoms &a, const Atoms &b, double &dx, double &df,
                     const double prd[3] = nullptr)
{
  dx = df = 0.0;
  for (const auto &kv : a.x)
    for (int d = 0; d < 3; ++d) {
      double delta = kv.second[d] - b.x.at(kv.first)[d];
      if (prd) delta -= prd[d] * std::round(delta / prd[d]);
      dx = std::max(dx, std::fabs(delta));
      df = std::max(df, std::fabs(a.f.at(kv.first)[d] - b.f.at(kv.first)[d]));
    }
}

}    // namespace

TEST(Mdscf, StyleIsRegistered)
{
  LmpSession s;
  LAMMPS_NS::Info info(s.lmp);
  EXPECT_TRUE(info.has_style("fix", "mdscf"));
}

// phi node by node against a deposit written here, sum phi_K v_c rho0 = N_K, rho0 = N/V
TEST(Mdscf, DensitiesAreTheCloudInCellDeposit)
{
  LmpSession s;
  blend(s);
  Spec spec;
  s.cmd(spec.command());
  s.cmd("run 0");
  const Atoms a = atoms_of(s.lmp);
  const double volume = 6.0 * 5.0 * 7.0;
  auto *fix = fix_of(s);
  const double rho0 = fix->compute_vector(2);
  EXPECT_DOUBLE_EQ(rho0, a.x.size() / volume);

  Reference ref(spec, s.lmp, rho0);
  ref.deposit(a);
  int ncol = 0;
  const auto phi = fix_phi(fix, ncol);
  ASSERT_EQ(ncol, 3);
  double maxdiff = 0.0, maxphi = 0.0;
  for (size_t m = 0; m < phi.size(); ++m) {
    maxdiff = std::max(maxdiff, std::fabs(phi[m] - ref.phi[m]));
    maxphi = std::max(maxphi, phi[m]);
  }
  EXPECT_LT(maxdiff, 1e-13 * maxphi);
  EXPECT_GT(maxphi, 0.1);

  int nk[3] = {0, 0, 0};
  for (const auto &kv : a.type) ++nk[kv.second - 1];
  for (int k = 0; k < 3; ++k) {
    double sum = 0.0;
    for (size_t m = 0; m < ref.nnodes(); ++m) sum += phi[m * 3 + k] * ref.vc * rho0;
    EXPECT_GT(nk[k], 50);
    EXPECT_NEAR(sum, nk[k], 1e-11 * nk[k]) << "type " << k + 1;
  }
}

// W from the fix's own densities with the formula written here: scalar, vector, pe
TEST(Mdscf, EnergyEqualsTheGridSum)
{
  LmpSession s;
  blend(s);
  Spec spec;
  s.cmd(spec.command());
  s.cmd("fix_modify f energy yes");
  s.cmd("run 0");
  auto *fix = fix_of(s);
  Reference ref(spec, s.lmp, fix->compute_vector(2));
  int ncol = 0;
  ref.phi = fix_phi(fix, ncol);
  double w_chi, w_kappa;
  const double w = ref.energy(w_chi, w_kappa);
  EXPECT_GT(std::fabs(w_chi), 1.0);
  EXPECT_GT(std::fabs(w_kappa), 1.0);
  EXPECT_NEAR(fix->compute_scalar(), w, 1e-12 * std::fabs(w));
  EXPECT_NEAR(fix->compute_vector(0), w_chi, 1e-12 * std::fabs(w_chi));
  EXPECT_NEAR(fix->compute_vector(1), w_kappa, 1e-12 * std::fabs(w_kappa));
  EXPECT_NEAR(s.thermo("pe"), w, 1e-12 * std::fabs(w));    // pair zero: pe is W alone

  // without fix_modify energy yes, W is not in pe
  s.cmd("fix_modify f energy no");
  s.cmd("run 0");
  EXPECT_EQ(s.thermo("pe"), 0.0);
}

// F_i = - sum_c w_c grad V(g_c), grad by central differences, at every atom
TEST(Mdscf, ForceIsTheInterpolatedCentralDifferenceGradient)
{
  LmpSession s;
  blend(s);
  Spec spec;
  s.cmd(spec.command());
  s.cmd("run 0");
  auto *fix = fix_of(s);
  Reference ref(spec, s.lmp, fix->compute_vector(2));
  const Atoms a = atoms_of(s.lmp);
  ref.deposit(a);    // independent of the fix's phi
  ref.potentials();
  const double fmax = max_abs_force(a);
  EXPECT_GT(fmax, 1.0);
  double maxdiff = 0.0;
  for (const auto &kv : a.x) {
    const auto f = ref.force(kv.second, a.type.at(kv.first));
    for (int d = 0; d < 3; ++d) maxdiff = std::max(maxdiff, std::fabs(f[d] - a.f.at(kv.first)[d]));
  }
  EXPECT_LT(maxdiff, 1e-11 * fmax);
}

// with a symmetric chi the antisymmetric stencil cancels the net force at update steps;
// between updates the frozen field acts as an external field and the sum is not zero
TEST(Mdscf, NetForceIsZeroAtUpdateSteps)
{
  LmpSession s;
  blend(s);
  s.cmd("velocity all create 1.0 4928459 loop geom");
  Spec spec;
  spec.every = 4;
  s.cmd(spec.command());
  s.cmd("fix nve all nve");
  auto net = [&](double &fmax) {
    const Atoms a = atoms_of(s.lmp);
    double sum[3] = {0, 0, 0};
    for (const auto &kv : a.f)
      for (int d = 0; d < 3; ++d) sum[d] += kv.second[d];
    fmax = max_abs_force(a);
    return std::fabs(sum[0]) + std::fabs(sum[1]) + std::fabs(sum[2]);
  };
  double fmax;
  s.cmd("run 0");
  double sum = net(fmax);
  EXPECT_LT(sum, 1e-12 * fmax * 420);
  EXPECT_GT(fmax, 1.0);
  for (int step : {4, 8}) {
    s.cmd("run 2");
    sum = net(fmax);
    EXPECT_GT(sum, 1e-6 * fmax) << "between updates, step " << step - 2;
    s.cmd("run 2");
    sum = net(fmax);
    EXPECT_LT(sum, 1e-12 * fmax * 420) << "update step " << step;
  }
}

// between updates the forces are the stored step-0 gradients at the current positions;
// at the next update the densities are those of the new positions
TEST(Mdscf, FieldIsFrozenBetweenUpdates)
{
  LmpSession s;
  blend(s);
  s.cmd("velocity all create 2.0 4928459 loop geom");
  Spec spec;
  spec.every = 10;
  s.cmd(spec.command());
  s.cmd("fix_modify f energy yes");
  s.cmd("fix nve all nve");
  s.cmd("run 0");
  auto *fix = fix_of(s);
  const double rho0 = fix->compute_vector(2);
  Reference ref0(spec, s.lmp, rho0);
  ref0.deposit(atoms_of(s.lmp));
  ref0.potentials();
  const double w0 = fix->compute_scalar();

  s.cmd("run 7");
  const Atoms a7 = atoms_of(s.lmp);
  Reference ref7(spec, s.lmp, rho0);
  ref7.deposit(a7);
  ref7.potentials();
  double frozen = 0.0, rebuilt = 0.0;
  for (const auto &kv : a7.x) {
    const auto f = ref0.force(kv.second, a7.type.at(kv.first));
    const auto g = ref7.force(kv.second, a7.type.at(kv.first));
    for (int d = 0; d < 3; ++d) {
      frozen = std::max(frozen, std::fabs(f[d] - a7.f.at(kv.first)[d]));
      rebuilt = std::max(rebuilt, std::fabs(g[d] - a7.f.at(kv.first)[d]));
    }
  }
  const double fmax = max_abs_force(a7);
  EXPECT_LT(frozen, 1e-11 * fmax);
  EXPECT_GT(rebuilt, 1e-3 * fmax);         // a field rebuilt at step 7 would differ
  EXPECT_EQ(fix->compute_scalar(), w0);    // W is that of the stored field

  s.cmd("run 3");    // step 10: rebuilt
  int ncol;
  const auto phi = fix_phi(fix, ncol);
  Reference ref10(spec, s.lmp, rho0);
  ref10.deposit(atoms_of(s.lmp));
  double dphi = 0.0;
  for (size_t m = 0; m < phi.size(); ++m) dphi = std::max(dphi, std::fabs(phi[m] - ref10.phi[m]));
  EXPECT_LT(dphi, 1e-13);
  EXPECT_NE(fix->compute_scalar(), w0);
}

// Force against -dW/dx. A and B atoms sit so that their CIC densities are an exact discrete
// sine along x (one atom per cell and node column, fractions solved for), phi_A + phi_B = 1;
// a probe atom C with chi_CC = 0 and kappa -> infinity then feels
//   V_C(g) = kT [chi_CA phi_A(g) + chi_CB phi_B(g)] = c0 + A sin(2 pi g / 16)
// and nothing of its own density. dW/dx of the grid energy is the slope of the linear
// interpolant of V_C, V(g+1) - V(g) (h = 1); the fix's force interpolates central
// differences. They differ by the CIC discretisation error: (t - 1/2) h V'' to first order
// at fraction t in the cell, h^2 V'''/4 at the cell centre. Each side is also checked
// against its analytic value.
TEST(Mdscf, ForceIsMinusEnergyGradientWithinTheCicError)
{
  const int nx = 16;
  const double eps = 0.08, k = 2 * PI / nx, kT = 1.0, chi_ca = 2.0, chi_cb = -1.0;
  const std::string data = tmp_name("probe.data");
  {
    std::ofstream out(data);
    out << "probe\n\n" << 2 * nx * 16 + 1 << " atoms\n3 atom types\n\n";
    out << "0 16 xlo xhi\n0 4 ylo yhi\n0 4 zlo zhi\n\nMasses\n\n1 1\n2 1\n3 1\n\nAtoms\n\n";
    long id = 1;
    char line[200];
    for (int type = 1; type <= 2; ++type) {
      // node g gets 1 - t_g from the atom of cell g and t_(g-1) from that of cell g-1:
      // n_A = 1 + eps sin(k g) for t_g = t_(g-1) - eps sin(k g), n_B = 1 - eps sin(k g)
      const double sign = type == 1 ? -1.0 : 1.0;
      double t = 0.5;    // fraction in cell -1 (= cell 15: the sines sum to 0)
      std::vector<double> frac(nx);
      for (int g = 0; g < nx; ++g) {
        frac[g] = t = t + sign * eps * std::sin(k * g);
        ASSERT_GT(t, 0.0);    // stays in its cell
        ASSERT_LT(t, 1.0);
      }
      for (int j = 0; j < 4; ++j)
        for (int l = 0; l < 4; ++l)
          for (int g = 0; g < nx; ++g) {
            snprintf(line, sizeof(line), "%ld %d %.17g %d %d\n", id++, type, g + frac[g], j, l);
            out << line;
          }
    }
    out << id << " 3 3.5 1.37 2.61\n";
  }
  LmpSession s;
  s.cmds({"units lj", "atom_style atomic", "atom_modify map array sort 0 0.0", "read_data " + data,
          "pair_style zero 1.0", "pair_coeff * *", "neighbor 0.3 bin"});
  std::remove(data.c_str());
  const long probe = 2 * nx * 16 + 1;
  s.cmd(fmt::format("fix f all mdscf grid 16 4 4 temp {} kappa 1e9 rho0 2.0 chi 1 2 0.7 "
                    "chi 1 3 {} chi 2 3 {}",
                    kT, chi_ca, chi_cb));
  auto *fix = fix_of(s);
  auto *atom = s.lmp->atom;
  auto energy_at = [&](double x, double y, double z) {
    s.cmd(fmt::format("set atom {} x {:.17g} y {:.17g} z {:.17g}", probe, x, y, z));
    s.cmd("run 0");    // step 0 is an update step: the field is rebuilt
    return fix->compute_scalar();
  };
  const double amp = 0.5 * kT * (chi_ca - chi_cb) * eps;    // V_C = c0 + amp sin(k g)
  auto V = [&](int g) { return amp * std::sin(k * g); };

  // the construction: phi_A = (1 + eps sin(k g))/2 at every node
  energy_at(3.5, 1.37, 2.61);
  int ncol;
  const auto phi = fix_phi(fix, ncol);
  for (int iz = 0; iz < 4; ++iz)
    for (int iy = 0; iy < 4; ++iy)
      for (int g = 0; g < nx; ++g) {
        const size_t m = ((size_t) iz * 4 + iy) * nx + g;
        ASSERT_NEAR(phi[m * 3], 0.5 * (1 + eps * std::sin(k * g)), 1e-14) << "node " << g;
        ASSERT_NEAR(phi[m * 3] + phi[m * 3 + 1], 1.0, 1e-14) << "node " << g;
      }

  const int g0 = 7;    // steepest part of the sine
  const double delta = 1e-4;
  for (double t : {0.5, 0.1, 0.8, 0.33}) {
    const double x = g0 + t, y = 1.37, z = 2.61;
    energy_at(x, y, z);
    const int i = atom->map(probe);
    const double fx = atom->f[i][0], fy = atom->f[i][1], fz = atom->f[i][2];
    const double dwdx = (energy_at(x + delta, y, z) - energy_at(x - delta, y, z)) / (2 * delta);
    const double dwdy = (energy_at(x, y + delta, z) - energy_at(x, y - delta, z)) / (2 * delta);

    // each side against its analytic value
    const double f_expected = -((1 - t) * (V(g0 + 1) - V(g0 - 1)) + t * (V(g0 + 2) - V(g0))) / 2;
    EXPECT_NEAR(fx, f_expected, 1e-12) << "t = " << t;
    EXPECT_NEAR(dwdx, V(g0 + 1) - V(g0), 1e-8) << "t = " << t;
    EXPECT_NEAR(fy, 0.0, 1e-12);
    EXPECT_NEAR(fz, 0.0, 1e-12);
    EXPECT_NEAR(dwdy, 0.0, 1e-8);

    // the CIC error bound between them: |t - 1/2| h max|V''| + h^2 max|V'''| / 4 (+ 1%)
    const double bound = std::fabs(t - 0.5) * amp * k * k + 0.25 * amp * k * k * k;
    EXPECT_LT(std::fabs(fx + dwdx), 1.01 * bound) << "t = " << t;
    if (t == 0.5) {
      // second order at the cell centre: relative to the force, (kh)^2/4 at most (+20%)
      EXPECT_LT(std::fabs(fx + dwdx), 0.25 * k * k * std::fabs(dwdx) * 1.2);
      EXPECT_GT(std::fabs(dwdx), 0.04);
    }
  }
}

// fix virial = -dW/d(eps_xx) by finite differences of a box scaling in x (rho0 fixed),
// and the pressure LAMMPS reports includes it (fix_modify virial yes is the default)
TEST(Mdscf, VirialIsMinusStrainDerivativeOfTheEnergy)
{
  LmpSession s;
  blend(s);
  Spec spec;
  s.cmd(spec.command());
  s.cmd("fix_modify f energy yes");
  s.cmd("thermo_style custom step pe press pxx pyy pzz pxy");
  s.cmd("run 0");
  auto *fix = fix_of(s);
  const double vir = fix->virial[0];
  EXPECT_EQ(fix->virial[1], vir);
  EXPECT_EQ(fix->virial[2], vir);
  EXPECT_EQ(fix->virial[3], 0.0);
  const double volume = 6.0 * 5.0 * 7.0;
  EXPECT_NEAR(s.thermo("pxx"), vir / volume, 1e-12 * std::fabs(vir));    // no velocities
  EXPECT_NEAR(s.thermo("press"), vir / volume, 1e-12 * std::fabs(vir));

  const double d = 1e-5;
  s.cmd(fmt::format("change_box all x scale {:.17g} remap", 1 + d));
  s.cmd("run 0");
  const double wp = fix->compute_scalar();
  s.cmd(fmt::format("change_box all x scale {:.17g} remap", (1 - d) / (1 + d)));
  s.cmd("run 0");
  const double wm = fix->compute_scalar();
  const double dw = (wp - wm) / (2 * d);
  EXPECT_GT(std::fabs(vir), 1.0);
  EXPECT_NEAR(vir, -dw, 1e-6 * std::fabs(vir));
}

// one type with an atom on every node: phi = 1 everywhere, so V = 0, no force, W = 0 and
// no field pressure: P = rho kT of the ideal gas
TEST(Mdscf, HomogeneousMeltHasNoFieldForceEnergyOrPressure)
{
  LmpSession s;
  s.cmds({"units lj", "atom_style atomic", "atom_modify map array", "lattice sc 1.0",
          "region box block 0 6 0 6 0 6", "create_box 1 box", "create_atoms 1 box", "mass 1 1.0",
          "pair_style zero 1.0", "pair_coeff * *", "velocity all create 1.5 87287 loop geom",
          "fix f all mdscf grid 6 6 6 temp 1.0 kappa 0.05", "fix_modify f energy yes",
          "thermo_style custom step temp pe press"});
  s.cmd("run 0");
  auto *fix = fix_of(s);
  EXPECT_NEAR(fix->compute_scalar(), 0.0, 1e-12);
  EXPECT_NEAR(fix->virial[0], 0.0, 1e-12);
  EXPECT_LT(max_abs_force(atoms_of(s.lmp)), 1e-12);
  // compute pressure: P = N_dof kT / (3V) with N_dof = 3N - 3, rho = 1
  const double T = s.thermo("temp");
  EXPECT_NEAR(s.thermo("press"), T * (3 * 216.0 - 3) / (3 * 216.0), 1e-12);
}

// run 10, write_restart, run 10 against read_restart + run 10: the restart holds the field
// built at step 8 (every 4), so the forces at step 10 are those of that field (bitwise), and
// the run continues (the rebuilds at 12, 16, 20 sum the densities in the atoms' order:
// rounding); at a restart on an update step (12) the field is rebuilt from the same positions
TEST(Mdscf, RestartContinuesTheRun)
{
  const std::string file10 = tmp_name("10.restart"), file12 = tmp_name("12.restart");
  Spec spec;
  spec.every = 4;
  auto define = [&](LmpSession &s) {
    s.cmd(spec.command());
    s.cmd("fix_modify f energy yes");
    s.cmd("fix nve all nve");
  };
  Atoms at10, at12, at20;
  std::vector<double> phi8;
  double w20;
  {
    LmpSession s;
    blend(s);
    s.cmd("velocity all create 2.0 4928459 loop geom");
    define(s);
    s.cmd("run 8");
    int ncol;
    phi8 = fix_phi(fix_of(s), ncol);
    s.cmd("run 2");
    at10 = atoms_of(s.lmp);
    s.cmd("write_restart " + file10);
    s.cmd("run 2");
    at12 = atoms_of(s.lmp);
    s.cmd("write_restart " + file12);
    s.cmd("run 8");
    at20 = atoms_of(s.lmp);
    w20 = fix_of(s)->compute_scalar();
  }
  const double prd[3] = {6.0, 5.0, 7.0};
  double dx, df;
  {
    LmpSession s;
    s.cmd("read_restart " + file10);
    define(s);
    s.cmd("run 0");
    int ncol;
    const auto phi = fix_phi(fix_of(s), ncol);
    double dphi = 0.0;
    for (size_t m = 0; m < phi.size(); ++m) dphi = std::max(dphi, std::fabs(phi[m] - phi8[m]));
    EXPECT_EQ(dphi, 0.0);    // the field of step 8, not one rebuilt at step 10
    // positions are the same up to the wrap into the box (rounding of x +- L)
    max_differences(at10, atoms_of(s.lmp), dx, df, prd);
    EXPECT_LT(dx, 1e-14);
    EXPECT_LT(df, 1e-13 * max_abs_force(at10)) << "forces at step 10 after read_restart";
    s.cmd("run 10");
    max_differences(at20, atoms_of(s.lmp), dx, df, prd);
    EXPECT_LT(dx, 1e-12);
    EXPECT_LT(df, 1e-11 * max_abs_force(at20));
    EXPECT_NEAR(fix_of(s)->compute_scalar(), w20, 1e-12 * std::fabs(w20));
  }
  {
    LmpSession s;
    s.cmd("read_restart " + file12);
    define(s);
    s.cmd("run 0");
    max_differences(at12, atoms_of(s.lmp), dx, df, prd);
    EXPECT_LT(dx, 1e-14);
    EXPECT_LT(df, 1e-12 * max_abs_force(at12)) << "forces at step 12 after read_restart";
    s.cmd("run 8");
    max_differences(at20, atoms_of(s.lmp), dx, df, prd);
    EXPECT_LT(dx, 1e-12);
    EXPECT_LT(df, 1e-11 * max_abs_force(at20));
  }
  std::remove(file10.c_str());
  std::remove(file12.c_str());
}

// the same system stored in another order (spatial sort every step) gives the same field
// energy and forces within rounding
TEST(Mdscf, ResultsDoNotDependOnAtomOrder)
{
  Spec spec;
  auto run = [&](const std::string &sort, std::vector<long> &order, double &w) {
    LmpSession s;
    blend(s, sort);
    s.cmd("velocity all create 2.0 4928459 loop geom");
    s.cmd(spec.command());
    s.cmd("fix nve all nve");
    s.cmd("run 0");
    order.assign(s.lmp->atom->tag, s.lmp->atom->tag + s.lmp->atom->nlocal);
    s.cmd("run 20");
    w = fix_of(s)->compute_scalar();
    return atoms_of(s.lmp);
  };
  std::vector<long> order1, order2;
  double w1, w2;
  const Atoms a = run("sort 0 0.0", order1, w1);
  const Atoms b = run("sort 1 0.7", order2, w2);
  ASSERT_EQ(order1.size(), order2.size());
  int moved = 0;
  for (size_t i = 0; i < order1.size(); ++i) moved += order1[i] != order2[i];
  EXPECT_GT(moved, 100);    // the local order really differs
  EXPECT_NEAR(w1, w2, 1e-12 * std::fabs(w1));
  double dx, df;
  const double prd[3] = {6.0, 5.0, 7.0};
  max_differences(a, b, dx, df, prd);
  EXPECT_LT(dx, 1e-12);
  EXPECT_LT(df, 1e-11 * max_abs_force(a));
}

// global array: row i = node plane i along the axis, column 1 its coordinate, 1+t the
// plane average of phi_t; types outside the field read 0
TEST(Mdscf, ProfileArrayAveragesPhiOverPlanes)
{
  LmpSession s;
  blend(s);
  Spec spec;
  spec.types = {1, 3};
  spec.chi[1][2] = spec.chi[2][1] = spec.chi[2][3] = spec.chi[3][2] = 0.0;
  spec.extra = "profile y";
  s.cmd(spec.command());
  s.cmd("run 0");
  auto *fix = fix_of(s);
  EXPECT_EQ(fix->size_array_rows, 6);
  EXPECT_EQ(fix->size_array_cols, 4);
  int ncol;
  const auto phi = fix_phi(fix, ncol);
  ASSERT_EQ(ncol, 2);
  for (int iy = 0; iy < 6; ++iy) {
    double avg[2] = {0, 0};
    for (int iz = 0; iz < 9; ++iz)
      for (int ix = 0; ix < 7; ++ix)
        for (int k = 0; k < 2; ++k) avg[k] += phi[(((size_t) iz * 6 + iy) * 7 + ix) * 2 + k] / 63;
    EXPECT_NEAR(fix->compute_array(iy, 0), iy * 5.0 / 6, 1e-14);
    EXPECT_NEAR(fix->compute_array(iy, 1), avg[0], 1e-14);
    EXPECT_EQ(fix->compute_array(iy, 2), 0.0);
    EXPECT_NEAR(fix->compute_array(iy, 3), avg[1], 1e-14);
  }
}

// dump grid writes the owned phi values of the fix's grid
TEST(Mdscf, DumpGridWritesPhi)
{
  LmpSession s;
  blend(s);
  Spec spec;
  s.cmd(spec.command());
  const std::string file = tmp_name("grid.dump");
  s.cmd("dump g all grid 1 " + file + " f_f:grid:phi[2]");
  s.cmd("dump_modify g format float %.17g");
  s.cmd("run 0");
  s.cmd("undump g");
  int ncol;
  const auto phi = fix_phi(fix_of(s), ncol);
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("ITEM: GRID CELLS", 0) != 0) {
  }
  std::vector<double> values;
  double v;
  while (in >> v) values.push_back(v);
  std::remove(file.c_str());
  ASSERT_EQ(values.size(), (size_t) 7 * 6 * 9);
  double sum_dump = 0.0, sum_fix = 0.0;
  for (size_t m = 0; m < values.size(); ++m) {
    sum_dump += values[m];
    sum_fix += phi[m * 3 + 1];
  }
  EXPECT_NEAR(sum_dump, sum_fix, 1e-12 * sum_fix);
}

// atoms of other types or outside the group neither feel the field nor count in phi
TEST(Mdscf, TypesAndGroupRestrictTheField)
{
  LmpSession s;
  blend(s);
  s.cmd("group low id <= 100");
  s.cmd("group rest subtract all low");
  Spec spec;
  spec.types = {1, 2};
  spec.chi[1][3] = spec.chi[3][1] = spec.chi[2][3] = spec.chi[3][2] = 0.0;
  s.cmd(spec.command("rest"));
  s.cmd("run 0");
  auto *fix = fix_of(s);
  const Atoms a = atoms_of(s.lmp);
  Atoms in_field = a;
  long n_in = 0, n_out = 0;
  for (const auto &kv : a.type) {
    if (kv.first > 100 && kv.second != 3) {
      ++n_in;
      continue;
    }
    ++n_out;
    in_field.type[kv.first] = 3;    // type 3 is not in the field
    for (int d = 0; d < 3; ++d) EXPECT_EQ(a.f.at(kv.first)[d], 0.0) << "atom " << kv.first;
  }
  EXPECT_GT(n_out, 150);
  const double rho0 = fix->compute_vector(2);
  EXPECT_DOUBLE_EQ(rho0, n_in / (6.0 * 5.0 * 7.0));
  Reference ref(spec, s.lmp, rho0);
  ref.deposit(in_field);
  ref.potentials();
  int ncol;
  const auto phi = fix_phi(fix, ncol);
  ASSERT_EQ(ncol, 2);
  double dphi = 0.0;
  for (size_t m = 0; m < phi.size(); ++m) dphi = std::max(dphi, std::fabs(phi[m] - ref.phi[m]));
  EXPECT_LT(dphi, 1e-13);
  double df = 0.0;
  for (const auto &kv : in_field.x) {
    const auto f = ref.force(kv.second, in_field.type.at(kv.first));
    for (int d = 0; d < 3; ++d) df = std::max(df, std::fabs(f[d] - a.f.at(kv.first)[d]));
  }
  EXPECT_LT(df, 1e-11 * max_abs_force(a));
}

TEST(Mdscf, BadInputGivesClearErrors)
{
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fix f all mdscf temp 1 kappa 0.1", "the grid is required: 'grid Nx Ny Nz' or 'spacing h'"},
      {"fix f all mdscf grid 4 4 kappa 0.1 temp 1", "grid: 'kappa' is not an integer"},
      {"fix f all mdscf grid 4 2 4 temp 1 kappa 0.1",
       "grid needs at least 3 nodes per direction for central differences (got 2)"},
      {"fix f all mdscf grid 4 4 4 kappa 0.1", "'temp T' is required"},
      {"fix f all mdscf grid 4 4 4 temp 1", "'kappa value' is required"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 0", "kappa must be > 0 (got 0)"},
      {"fix f all mdscf grid 4 4 4 temp -1 kappa 1", "temp must be > 0 (got -1)"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi 1 4 2.0",
       "chi: '4' is not an atom type or range within 1-3"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi 1 2", "chi expects 'I J value'"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi 1 2 x", "chi: 'x' is not a number"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 every 0", "every must be >= 1 (got 0)"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 types 1 2 chi 1 3 1.0",
       "chi 1 3 is given but type 3 is not in the field's types"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 types", "types expects one or more atom types"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 rho0 -2", "rho0 must be > 0 (got -2)"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 profile w",
       "profile expects x, y or z (got 'w')"},
      {"fix f all mdscf spacing -1 temp 1 kappa 1", "spacing must be > 0 (got -1)"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1e-320",
       "kappa 1e-320 is too small: 1/kappa overflows"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa", "kappa expects a value, none given"},
      {"fix f all mdscf temp 1 kappa 1 grid 4 4", "grid expects 3 node counts Nx Ny Nz"},
      {"fix f all mdscf grid 4 4 4.5 temp 1 kappa 1", "grid: '4.5' is not an integer"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 every 2.5", "every: '2.5' is not an integer"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 types 0", "types: '0' is not an atom type"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi 3*1 2 1.0",
       "chi: '3*1' is not an atom type or range within 1-3"},
      {"fix f all mdscf grid 4 4 4 temp nan kappa 1", "temp: 'nan' is not a number"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 bogus 3",
       "unknown keyword 'bogus' (allowed: grid, spacing, temp, kappa, chi, every, types, rho0, "
       "profile, deposit)"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 deposit scatter",
       "deposit expects atomic or gather (got 'scatter')"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 deposit", "deposit expects atomic or gather"},
  };
  for (const auto &c : cases) {
    LmpSession s;
    blend(s);
    const std::string msg = s.error_of(c.first);
    EXPECT_NE(msg.find(c.second), std::string::npos) << c.first << "\n  got: " << msg;
  }
  {
    LmpSession s;
    blend(s);
    s.cmd("change_box all boundary p p f");
    const std::string msg = s.error_of("fix f all mdscf grid 4 4 4 temp 1 kappa 1");
    EXPECT_NE(msg.find("requires periodic boundaries in x, y and z"), std::string::npos) << msg;
  }
  {
    LmpSession s;
    blend(s);
    s.cmd("group none type 3");
    s.cmd("fix f none mdscf grid 4 4 4 temp 1 kappa 1 types 1 2");
    const std::string msg = s.error_of("run 0");
    EXPECT_NE(msg.find("no atom of group none has a type of the field"), std::string::npos) << msg;
  }
  {
    LmpSession s;
    blend(s);
    s.cmd("fix f all mdscf grid 4 4 4 temp 1 kappa 1");
    s.cmd("run_style respa 2 2");
    const std::string msg = s.error_of("run 0");
    EXPECT_NE(msg.find("does not support run_style respa"), std::string::npos) << msg;
  }
  {
    // a restart must be continued on the same grid
    const std::string file = tmp_name("grid.restart");
    {
      LmpSession s;
      blend(s);
      s.cmd("fix f all mdscf grid 4 4 4 temp 1 kappa 1");
      s.cmd("run 0");
      s.cmd("write_restart " + file);
    }
    LmpSession s;
    s.cmd("read_restart " + file);
    const std::string msg = s.error_of("fix f all mdscf grid 5 4 4 temp 1 kappa 1");
    EXPECT_NE(msg.find("the restart file has a 4x4x4 grid, this fix 5x4x4"), std::string::npos)
        << msg;
    std::remove(file.c_str());
  }
}

// everything a file holds, "" if it cannot be read
std::string file_text(const std::string &name)
{
  std::ifstream in(name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// a LAMMPS instance that writes its log (warnings included) to a file
struct LoggedSession {
  LAMMPS_NS::LAMMPS *lmp;
  explicit LoggedSession(const std::string &log)
  {
    LAMMPS_NS::LAMMPS::argv args = {"test", "-log",    log.c_str(), "-echo",
                                    "none", "-screen", "none",      "-nocite"};
    lmp = new LAMMPS_NS::LAMMPS(args, MPI_COMM_WORLD);
  }
  ~LoggedSession() { delete lmp; }
};

TEST(Mdscf, MinimizeIsRefused)
{
  LmpSession s;
  blend(s);
  s.cmd(Spec().command());
  s.cmd("fix_modify f energy yes");
  const std::string msg = s.error_of("minimize 1.0e-6 1.0e-8 20 200");
  EXPECT_NE(msg.find("Fix mdscf does not support energy minimization"), std::string::npos) << msg;
  // without the fix the same minimization runs
  LmpSession t;
  blend(t);
  EXPECT_EQ(t.error_of("minimize 1.0e-6 1.0e-8 20 200"), "");
}

// the node count and the values per field are checked in 64 bits before anything is
// allocated: a grid beyond the int index range stops with a message naming it
TEST(Mdscf, OversizedGridsGiveErrorsNotCrashes)
{
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"fix f all mdscf grid 2000000000 4 4 temp 1 kappa 1",
       {"the 2000000000x4x4 grid (3.2e+10 nodes, 3 field type(s)",
        "about 3.58e+03 GiB in total, 3.58e+03 GiB per rank on 1 rank(s)",
        "more than the 2147483647 this fix can index"}},
      // nx ny nz overflows 64-bit integers
      {"fix f all mdscf grid 2000000000 2000000000 2000000000 temp 1 kappa 1 types 1",
       {"2000000000x2000000000x2000000000 grid (8e+27 nodes", "this fix can index"}},
      // within the node limit, beyond it once multiplied by the 3 field types
      {"fix f all mdscf grid 1000 1000 1000 temp 1 kappa 1",
       {"the 1000x1000x1000 grid (1e+09 nodes, 3 field type(s)", "3e+09 values"}},
      {"fix f all mdscf grid 3000000000 4 4 temp 1 kappa 1",
       {"grid: 3000000000 nodes along x exceed the limit 2147483647"}},
      {"fix f all mdscf spacing 1e-9 temp 1 kappa 1",
       {"spacing 1e-9 gives 6e+09 nodes along x (box length 6), more than the limit"}},
      {"fix f all mdscf spacing 1e-300 temp 1 kappa 1", {"spacing 1e-300 gives 6e+300 nodes"}},
  };
  for (const auto &c : cases) {
    LmpSession s;
    blend(s);
    const std::string msg = s.error_of(c.first);
    for (const auto &want : c.second)
      EXPECT_NE(msg.find(want), std::string::npos)
          << c.first << "\n  want: " << want << "\n  got: " << msg;
  }
}

// a grid within the index range whose arrays cannot be allocated: the address space is
// limited to what the process uses plus 3 GiB, the grid needs 18.6 GiB on this rank
TEST(Mdscf, UnallocatableGridGivesAnError)
{
  LmpSession s;
  blend(s);
  s.cmd("fix f all mdscf grid 1000 1000 500 temp 1 kappa 1 types 1");
  long vm_kb = 0;
  {
    std::ifstream st("/proc/self/status");
    std::string line;
    while (std::getline(st, line))
      if (line.rfind("VmSize:", 0) == 0) vm_kb = std::stol(line.substr(7));
  }
  ASSERT_GT(vm_kb, 0);
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
  struct rlimit lim = old;
  lim.rlim_cur = (rlim_t) vm_kb * 1024 + (rlim_t) 3 * 1024 * 1024 * 1024;
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) lim.rlim_cur = old.rlim_cur;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &lim), 0);
  const std::string msg = s.error_of("run 0");
  setrlimit(RLIMIT_AS, &old);
  EXPECT_NE(msg.find("Fix mdscf: cannot allocate the 1000x1000x500 grid (5e+08 nodes, 1 field "
                     "type(s); its field arrays need about 18.6 GiB in total"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("rank 0 needs"), std::string::npos) << msg;
}

TEST(Mdscf, GridAndSpacingTogetherAreRefused)
{
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 spacing 1.0",
       "'spacing' after 'grid': give the grid once, either 'grid Nx Ny Nz' or 'spacing h'"},
      {"fix f all mdscf spacing 1.0 temp 1 kappa 1 grid 4 4 4", "'grid' after 'spacing'"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 grid 5 5 5", "'grid' after 'grid'"},
  };
  for (const auto &c : cases) {
    LmpSession s;
    blend(s);
    const std::string msg = s.error_of(c.first);
    EXPECT_NE(msg.find(c.second), std::string::npos) << c.first << "\n  got: " << msg;
  }
}

// the boundaries are checked at every run, not only when the fix is defined
TEST(Mdscf, NonPeriodicBoxIsRefusedAtRun)
{
  LmpSession s;
  blend(s);
  s.cmd(Spec().command());
  s.cmd("run 0");
  s.cmd("change_box all boundary p p f");
  std::string msg = s.error_of("run 0");
  EXPECT_NE(msg.find("requires periodic boundaries in x, y and z (the density grid is periodic); "
                     "the box is not periodic in z"),
            std::string::npos)
      << msg;
  s.cmd("change_box all boundary f p m");
  msg = s.error_of("run 0");
  EXPECT_NE(msg.find("the box is not periodic in x, z"), std::string::npos) << msg;
}

// types given by label equal the same types given by number
TEST(Mdscf, TypeLabelsAreAccepted)
{
  auto run = [](const std::string &fix, std::vector<std::vector<double>> &chi) {
    LmpSession s;
    blend(s);
    s.cmd("labelmap atom 1 A 2 B");
    s.cmd(fix);
    s.cmd("run 0");
    int dim = -1;
    auto **c = (double **) fix_of(s)->extract("chi", dim);
    EXPECT_EQ(dim, 2);
    chi.assign(4, std::vector<double>(4, 0.0));
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) chi[i][j] = c[i][j];
    return atoms_of(s.lmp);
  };
  std::vector<std::vector<double>> chi_num, chi_lab;
  const Atoms a = run("fix f all mdscf grid 7 6 9 temp 1.3 kappa 0.2 chi 1 2 1.5 chi 1 1 0.25 "
                      "types 1 2",
                      chi_num);
  const Atoms b = run("fix f all mdscf grid 7 6 9 temp 1.3 kappa 0.2 chi A B 1.5 chi A A 0.25 "
                      "types A B",
                      chi_lab);
  EXPECT_EQ(chi_lab[1][2], 1.5);
  EXPECT_EQ(chi_lab[2][1], 1.5);
  EXPECT_EQ(chi_lab[1][1], 0.25);
  EXPECT_EQ(chi_lab[1][3], 0.0);
  EXPECT_EQ(chi_lab, chi_num);
  double fmax = 0.0, f3 = 0.0;
  for (const auto &kv : b.f) {
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(kv.second[d], a.f.at(kv.first)[d]);
      fmax = std::max(fmax, std::fabs(kv.second[d]));
      if (b.type.at(kv.first) == 3) f3 = std::max(f3, std::fabs(kv.second[d]));
    }
  }
  EXPECT_GT(fmax, 0.1);
  EXPECT_EQ(f3, 0.0);    // type 3 (no label, not listed) is outside the field

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi A D 1.0",
       "Atom type string D not found in labelmap"},
      {"fix f all mdscf grid 4 4 4 temp 1 kappa 1 types A Q", "Atom type string Q not found"},
  };
  for (const auto &c : cases) {
    LmpSession s;
    blend(s);
    s.cmd("labelmap atom 1 A 2 B");
    const std::string msg = s.error_of(c.first);
    EXPECT_NE(msg.find(c.second), std::string::npos) << c.first << "\n  got: " << msg;
  }
  LmpSession s;    // no labelmap: a label is not a type
  blend(s);
  const std::string msg = s.error_of("fix f all mdscf grid 4 4 4 temp 1 kappa 1 chi A 2 1.0");
  EXPECT_NE(msg.find("chi: 'A' is not an atom type or range within 1-3"), std::string::npos) << msg;
}

// the fix adds the MD-SCF papers to LAMMPS's citation list (-cite FILE writes them there)
TEST(Mdscf, CitesTheMethodPapers)
{
  const std::string cite = tmp_name("cite.bib");
  {
    LAMMPS_NS::LAMMPS::argv args = {"test",    "-log", "none",  "-echo",     "none",
                                    "-screen", "none", "-cite", cite.c_str()};
    auto *lmp = new LAMMPS_NS::LAMMPS(args, MPI_COMM_WORLD);
    lmp->input->one("units lj");
    lmp->input->one("region box block 0 6 0 5 0 7 units box");
    lmp->input->one("create_box 2 box");
    EXPECT_EQ(file_text(cite).find("10.1063/1.3142103"), std::string::npos);
    lmp->input->one("fix f all mdscf grid 4 4 4 temp 1 kappa 1");
    delete lmp;
  }
  const std::string text = file_text(cite);
  EXPECT_NE(text.find("fix mdscf command"), std::string::npos) << text;
  EXPECT_NE(text.find("Milano, Giuseppe and Kawakatsu, Toshihiro"), std::string::npos) << text;
  EXPECT_NE(text.find("doi = {10.1063/1.3142103}"), std::string::npos) << text;
  EXPECT_NE(text.find("pages = 214106"), std::string::npos) << text;
  EXPECT_NE(text.find("doi = {10.1002/jcc.23365}"), std::string::npos) << text;
  EXPECT_NE(text.find("pages = {2197--2211}"), std::string::npos) << text;
  std::remove(cite.c_str());
}

// legal but surprising input: one warning in the log
TEST(Mdscf, SurprisingInputWarns)
{
  const std::string log = tmp_name("warn.log");
  {
    LoggedSession s(log);
    auto *in = s.lmp->input;
    for (const char *c : {"units lj", "region box block 0 6 0 5 0 7 units box", "create_box 2 box",
                          "fix f all mdscf spacing 4.0 temp 1 kappa 1 deposit gather"})
      in->one(c);
  }
  const std::string text = file_text(log);
  // 5/4 rounds to 1 node along y: raised to 3; 6/4 and 7/4 round to 2
  EXPECT_NE(text.find("WARNING: Fix mdscf: spacing 4.0 gives 1 node(s) along y (box length 5); "
                      "using the minimum of 3"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gives 2 node(s) along x"), std::string::npos) << text;
  EXPECT_NE(text.find("WARNING: Fix mdscf: 'deposit' only affects fix mdscf/cuda; ignored here"),
            std::string::npos)
      << text;
  std::remove(log.c_str());
}

// an atom the grid does not cover stops the run naming it, also when its position is not
// a number (no cast of NaN to a node index goes on)
TEST(Mdscf, AtomOutsideTheGridStopsTheRun)
{
  for (const double shift : {8.0, (double) NAN}) {
    LmpSession s;
    blend(s);
    s.cmds({"neigh_modify every 100 delay 100 check no", "thermo_modify lost ignore"});
    s.cmd(Spec().command());
    s.cmd("run 0");
    // moved out of the box between reneighborings (run ... pre no), beyond the ghost nodes;
    // the fix meets it at step 1
    s.lmp->atom->x[0][0] = std::isnan(shift) ? shift : s.lmp->atom->x[0][0] + shift;
    const long tag = s.lmp->atom->tag[0];
    const std::string msg = s.error_of("run 1 pre no");
    const std::string want =
        std::isnan(shift) ? fmt::format("Fix mdscf: atom {} has a non-finite position (nan", tag)
                          : fmt::format("Fix mdscf: atom {} at (", tag);
    EXPECT_NE(msg.find(want), std::string::npos) << msg;
    if (!std::isnan(shift))
      EXPECT_NE(msg.find("is outside this rank's part of the grid"), std::string::npos) << msg;
  }
}
