/* Helpers of the ptmc tests (unittest/lammps/test_lammps_ptmc.cpp, the CPU path, and
   unittest/gpu/test_gpu_ptmc.cpp, the GPU path against it): a temporary folder, a file's
   text, and data files of random-walk chains. */
#ifndef MESOGPU_UNITTEST_PTMC_TEST_H
#define MESOGPU_UNITTEST_PTMC_TEST_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace ptmc_test {

inline std::string tmpdir()
{
  static std::string d;
  if (d.empty()) {
    char t[] = "/tmp/ptmc_test_XXXXXX";
    d = mkdtemp(t);
  }
  return d;
}

inline std::string slurp(const std::string &f)
{
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// nchains chains of len monomers (random walks, bond lengths b0 .. b0 + bw, no two monomers
// closer than 0.8), alternating types 1 and 2, periodic box of side L with the first chain
// starting next to the boundary; atoms are written wrapped with image flags
inline std::string write_data(int nchains, int len, double L, unsigned rseed, int ntypes = 2,
                              double b0 = 0.85, double bw = 0.25)
{
  std::mt19937 gen(rseed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> x;
  for (int c = 0; c < nchains; ++c) {
    for (int m = 0; m < len; ++m) {
      for (int tries = 0;; ++tries) {
        double p[3];
        if (m == 0) {
          for (int d = 0; d < 3; ++d) p[d] = (c == 0 ? 0.45 * L : 0.0) + (u(gen) - 0.5) * 0.6 * L;
        } else {
          const double ct = 2 * u(gen) - 1, ph = 2 * M_PI * u(gen), st = sqrt(1 - ct * ct);
          const double b = b0 + bw * u(gen);
          const double *q = &x[x.size() - 3];
          p[0] = q[0] + b * st * cos(ph);
          p[1] = q[1] + b * st * sin(ph);
          p[2] = q[2] + b * ct;
        }
        bool ok = true;
        for (size_t j = 0; j + 3 <= x.size() && ok; j += 3) {
          double r2 = 0;
          for (int d = 0; d < 3; ++d) {
            double dd = p[d] - x[j + d];
            dd -= L * std::round(dd / L);
            r2 += dd * dd;
          }
          ok = r2 > 0.64;
        }
        if (ok || tries > 1000) {
          x.insert(x.end(), p, p + 3);
          break;
        }
      }
    }
  }
  const int n = nchains * len;
  const std::string f = tmpdir() + "/data." + std::to_string(rseed) + "." + std::to_string(n);
  FILE *fp = fopen(f.c_str(), "w");
  fprintf(fp, "ptmc test\n\n%d atoms\n%d bonds\n%d atom types\n1 bond types\n\n", n,
          nchains * (len - 1), ntypes);
  for (const char *a : {"x", "y", "z"}) fprintf(fp, "%.17g %.17g %slo %shi\n", -L / 2, L / 2, a, a);
  fprintf(fp, "\nMasses\n\n");
  for (int t = 1; t <= ntypes; ++t) fprintf(fp, "%d 1.0\n", t);
  fprintf(fp, "\nAtoms # bond\n\n");
  for (int i = 0; i < n; ++i) {
    int im[3];
    double w[3];
    for (int d = 0; d < 3; ++d) {
      im[d] = (int) std::floor((x[3 * i + d] + L / 2) / L);
      w[d] = x[3 * i + d] - im[d] * L;
    }
    fprintf(fp, "%d %d %d %.17g %.17g %.17g %d %d %d\n", i + 1, i / len + 1, 1 + i % ntypes, w[0],
            w[1], w[2], im[0], im[1], im[2]);
  }
  fprintf(fp, "\nBonds\n\n");
  int b = 0;
  for (int c = 0; c < nchains; ++c)
    for (int m = 0; m + 1 < len; ++m)
      fprintf(fp, "%d 1 %d %d\n", ++b, c * len + m + 1, c * len + m + 2);
  fclose(fp);
  return f;
}

}    // namespace ptmc_test

#endif
