/* Helpers of the LAMMPS-level tests of fix nve/rigid/single, nvt/rigid/single and
   npt/rigid/single: per-atom state by tag and its difference, the Gay-Berne test systems
   (atom_style ellipsoid, two types, one biaxial), their uniform-ellipsoid inertia, kinetic
   energies, and block means. */
#ifndef MESOGPU_UNITTEST_RIGID_SINGLE_TEST_H
#define MESOGPU_UNITTEST_RIGID_SINGLE_TEST_H

#include "atom.h"
#include "atom_vec_ellipsoid.h"
#include "domain.h"
#include "info.h"
#include "lammps.h"
#include "math_extra.h"

#include "lmp_session.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using LAMMPS_NS::tagint;

namespace rigid_single_test {

// per atom, by tag: unwrapped x, v, quaternion (sign fixed: q0 >= 0), angmom
struct AtomState {
  std::array<double, 3> x, v, l;
  std::array<double, 4> q;
};
using State = std::map<tagint, AtomState>;

inline State state_of(LAMMPS_NS::LAMMPS *lmp)
{
  auto *atom = lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  State s;
  for (int i = 0; i < atom->nlocal; ++i) {
    AtomState a{};
    double xu[3];
    lmp->domain->unmap(atom->x[i], atom->image[i], xu);
    for (int d = 0; d < 3; ++d) {
      a.x[d] = xu[d];
      a.v[d] = atom->v[i][d];
      a.l[d] = atom->angmom[i][d];
    }
    const int j = atom->ellipsoid[i];
    if (j >= 0)
      for (int k = 0; k < 4; ++k) a.q[k] = avec->bonus[j].quat[k];
    s[atom->tag[i]] = a;
  }
  return s;
}

// largest |difference| of x, v, q, L over all atoms
struct Diff {
  double x = 0, v = 0, q = 0, l = 0;
  double max() const { return std::max({x, v, q, l}); }
};
inline Diff diff(const State &a, const State &b)
{
  Diff d;
  EXPECT_EQ(a.size(), b.size());
  for (const auto &[tag, sa] : a) {
    auto it = b.find(tag);
    if (it == b.end()) {
      ADD_FAILURE() << "atom " << tag << " missing";
      continue;
    }
    const AtomState &sb = it->second;
    for (int k = 0; k < 3; ++k) {
      d.x = std::max(d.x, std::fabs(sa.x[k] - sb.x[k]));
      d.v = std::max(d.v, std::fabs(sa.v[k] - sb.v[k]));
      d.l = std::max(d.l, std::fabs(sa.l[k] - sb.l[k]));
    }
    for (int k = 0; k < 4; ++k) d.q = std::max(d.q, std::fabs(sa.q[k] - sb.q[k]));
  }
  return d;
}

// shape diameters and mass per type of the Gay-Berne system; type 2 is biaxial (asymmetric top)
inline const double shape[3][3] = {{0, 0, 0}, {1.8, 1.0, 1.0}, {1.5, 1.2, 0.9}};
inline const double mass[3] = {0, 1.0, 1.3};

// the inertia LAMMPS's fix nve/asphere gives a uniform ellipsoid of type t: 0.2 m (b^2 + c^2)
// with the radii (half the shape diameters), as fix_nve_asphere.cpp computes it
inline void ellipsoid_inertia(int t, double *in)
{
  const double a = shape[t][0] / 2, b = shape[t][1] / 2, c = shape[t][2] / 2;
  in[0] = 0.2 * mass[t] * (b * b + c * c);
  in[1] = 0.2 * mass[t] * (a * a + c * c);
  in[2] = 0.2 * mass[t] * (a * a + b * b);
}

// the fix's inertia keywords for that inertia
inline std::string inertia_args()
{
  std::string s;
  for (int t = 1; t <= 2; ++t) {
    double in[3];
    ellipsoid_inertia(t, in);
    char buf[160];
    std::snprintf(buf, sizeof buf, " inertia %d %.17g %.17g %.17g", t, in[0], in[1], in[2]);
    s += buf;
  }
  return s;
}

// sum m v^2 and sum L_k^2 / I_k over all atoms (one rank) of the Gay-Berne system
struct Twice {
  double trans = 0, rot = 0;
};
inline Twice twice_ke(LAMMPS_NS::LAMMPS *lmp)
{
  auto *atom = lmp->atom;
  auto *avec = dynamic_cast<LAMMPS_NS::AtomVecEllipsoid *>(atom->style_match("ellipsoid"));
  Twice k;
  for (int i = 0; i < atom->nlocal; ++i) {
    const double *v = atom->v[i];
    k.trans += atom->rmass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double m[3][3], lb[3], in[3];
    MathExtra::quat_to_mat(avec->bonus[atom->ellipsoid[i]].quat, m);
    MathExtra::transpose_matvec(m, atom->angmom[i], lb);
    ellipsoid_inertia(atom->type[i], in);
    for (int d = 0; d < 3; ++d) k.rot += lb[d] * lb[d] / in[d];
  }
  return k;
}

// mean and its standard error from block averages
struct Mean {
  double mean = 0, err = 0;
};
inline Mean block_mean(const std::vector<double> &x, int nblocks)
{
  const int per = (int) x.size() / nblocks;
  std::vector<double> b(nblocks, 0.0);
  for (int k = 0; k < nblocks; ++k) {
    for (int j = 0; j < per; ++j) b[k] += x[k * per + j];
    b[k] /= per;
  }
  Mean m;
  for (double v : b) m.mean += v / nblocks;
  double var = 0;
  for (double v : b) var += (v - m.mean) * (v - m.mean) / (nblocks - 1);
  m.err = std::sqrt(var / nblocks);
  return m;
}

// 64 Gay-Berne particles of two types, random orientations, velocities and angmom
// (cells^3 of them with cells != 4)
inline void gb_system(LmpSession &s, double dt, int cells = 4)
{
  const std::string n = std::to_string(cells);
  s.cmds({"units lj", "atom_style ellipsoid", "atom_modify map array sort 0 0.0",
          "lattice sc 0.125", "region box block 0 " + n + " 0 " + n + " 0 " + n, "create_box 2 box",
          "create_atoms 1 box", "set type 1 type/fraction 2 0.5 4321"});
  for (int t = 1; t <= 2; ++t) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "set type %d shape %g %g %g", t, shape[t][0], shape[t][1],
                  shape[t][2]);
    s.cmd(buf);
    std::snprintf(buf, sizeof buf, "set type %d mass %g", t, mass[t]);
    s.cmd(buf);
  }
  s.cmds({"set type * quat/random 2718", "velocity all create 1.0 87287 loop geom",
          "variable ax atom 0.6*sin(1.7*id)", "variable ay atom 0.5*cos(2.3*id)",
          "variable az atom 0.4*sin(0.9*id+1)", "set type * angmom v_ax v_ay v_az",
          "pair_style gayberne 1.0 3.0 1.0 4.0", "pair_coeff 1 1 1.0 1.0 1 1 0.2 1 1 0.2",
          "pair_coeff 1 2 1.0 1.0 1 1 0.2 1 0.8 0.5", "pair_coeff 2 2 1.0 1.0 1 0.8 0.5 1 0.8 0.5",
          "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check yes", "thermo 0",
          "timestep " + std::to_string(dt)});
}

// 27 of the same particles as a free cluster in a large periodic box, cutoff 14: no pair
// crosses the cutoff in the run (gayberne's energy jumps there), so E is smooth
inline void gb_cluster(LmpSession &s, double dt)
{
  s.cmds({"units lj", "atom_style ellipsoid", "atom_modify map array sort 0 0.0",
          "lattice sc 0.125", "region box block -12 15 -12 15 -12 15", "create_box 2 box",
          "region cl block 0 3 0 3 0 3", "create_atoms 1 region cl",
          "set type 1 type/fraction 2 0.5 4321"});
  for (int t = 1; t <= 2; ++t) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "set type %d shape %g %g %g", t, shape[t][0], shape[t][1],
                  shape[t][2]);
    s.cmd(buf);
    std::snprintf(buf, sizeof buf, "set type %d mass %g", t, mass[t]);
    s.cmd(buf);
  }
  s.cmds({"set type * quat/random 2718", "velocity all create 0.5 87287 loop geom",
          "variable ax atom 0.6*sin(1.7*id)", "variable ay atom 0.5*cos(2.3*id)",
          "variable az atom 0.4*sin(0.9*id+1)", "set type * angmom v_ax v_ay v_az",
          "pair_style gayberne 1.0 3.0 1.0 14.0", "pair_coeff 1 1 1.0 1.0 1 1 0.2 1 1 0.2",
          "pair_coeff 1 2 1.0 1.0 1 1 0.2 1 0.8 0.5", "pair_coeff 2 2 1.0 1.0 1 0.8 0.5 1 0.8 0.5",
          "neighbor 1.0 bin", "neigh_modify every 1 delay 0 check yes", "thermo 0",
          "timestep " + std::to_string(dt)});
}

inline bool have_gayberne(LmpSession &s)
{
  LAMMPS_NS::Info info(s.lmp);
  return info.has_style("pair", "gayberne");
}

}    // namespace rigid_single_test

#endif
