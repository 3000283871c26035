/* mesogpu - command "ptmc": outputs (statistics, energy histograms, C_V(T) by multiple-
   histogram reweighting, dumps, result variables) and the restart file. Formats: doc/ptmc.md. */

#include "ptmc_command.h"

#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "input.h"
#include "variable.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace mesogpu::physics;

namespace {
double logsumexp(const std::vector<double> &v)
{
  double m = -INFINITY;
  for (double a : v) m = std::max(m, a);
  if (!std::isfinite(m)) return m;
  double s = 0.0;
  for (double a : v) s += exp(a - m);
  return m + log(s);
}

void set_internal(LAMMPS *lmp, const std::string &name, double value)
{
  int iv = lmp->input->variable->find(name.c_str());
  if (iv < 0) {
    lmp->input->variable->set(name + " internal 0");
    iv = lmp->input->variable->find(name.c_str());
  }
  lmp->input->variable->internal_set(iv, value);
}
}    // namespace

/* Ferrenberg-Swendsen multiple-histogram reweighting on the samples themselves (no bins):
   with N_l samples at beta_l and free energies f_l (Z_l = exp(-f_l)),
     f_m = -ln sum_{samples s} exp(-beta_m E_s) / sum_l N_l exp(f_l - beta_l E_s),
   iterated to a fixed point (f_0 = 0). */
void PTMC::wham(std::vector<double> &f) const
{
  const size_t ns = samples_e.size();
  const double nl = double(ns / M);
  // start from thermodynamic integration between neighbouring temperatures,
  // f_{k+1} - f_k = (beta_{k+1} - beta_k) (<E>_k + <E>_{k+1}) / 2 (df/dbeta = <E>): the
  // plain fixed-point iteration corrects the short-range differences quickly but the
  // spread of f over the ladder only slowly, which this guess already holds
  f.assign(M, 0.0);
  if (ns >= (size_t) M && M > 1) {
    std::vector<double> mean(M, 0.0);
    for (size_t s = 0; s < ns; ++s) mean[s % M] += samples_e[s];
    for (int k = 0; k < M; ++k) mean[k] /= nl;
    for (int k = 0; k + 1 < M; ++k)
      f[k + 1] = f[k] + (beta[k + 1] - beta[k]) * 0.5 * (mean[k] + mean[k + 1]);
  }
  std::vector<double> den(ns), t(ns), tl(M);
  for (int it = 0; it < 20000; ++it) {
    for (size_t s = 0; s < ns; ++s) {
      for (int l = 0; l < M; ++l) tl[l] = log(nl) + f[l] - beta[l] * samples_e[s];
      den[s] = logsumexp(tl);
    }
    std::vector<double> fn(M);
    for (int m = 0; m < M; ++m) {
      for (size_t s = 0; s < ns; ++s) t[s] = -beta[m] * samples_e[s] - den[s];
      fn[m] = -logsumexp(t);
    }
    double change = 0.0;
    for (int m = M - 1; m >= 0; --m) {
      fn[m] -= fn[0];
      change = std::max(change, fabs(fn[m] - f[m]));
    }
    f = fn;
    if (change < 1e-10) break;
  }
}

void PTMC::outputs()
{
  const int ns = (int) (samples_e.size() / std::max(M, 1));
  std::vector<double> me(M, 0.0), ve(M, 0.0), mr(M, 0.0);
  for (int k = 0; k < M && ns > 0; ++k) {
    for (int s = 0; s < ns; ++s) {
      me[k] += samples_e[(size_t) s * M + k];
      mr[k] += samples_rg2[(size_t) s * M + k];
    }
    me[k] /= ns;
    mr[k] /= ns;
    for (int s = 0; s < ns; ++s) ve[k] += pow(samples_e[(size_t) s * M + k] - me[k], 2);
    ve[k] /= ns;
  }
  const double kb = force->boltz;
  double drift = 0.0;
  for (int r = 0; r < M; ++r) {
    double e;
    ptmc_total_energy(model, x.data() + (size_t) r * 3 * n, e);
    drift = std::max(drift, fabs(e - energy[r]));
  }

  // result variables (internal style): per temperature index k = 1..M
  for (int k = 0; k < M; ++k) {
    const std::string s = std::to_string(k + 1);
    set_internal(lmp, "ptmc_e_" + s, energy[rep_at[k]]);
    set_internal(lmp, "ptmc_acc_" + s, tries[k] ? double(acc[k]) / tries[k] : 0.0);
    set_internal(lmp, "ptmc_delta_" + s, delta[k]);
    set_internal(lmp, "ptmc_mean_e_" + s, me[k]);
    set_internal(lmp, "ptmc_rg2_" + s, mr[k]);
    if (k + 1 < M) {
      set_internal(lmp, "ptmc_swap_" + s, swap_try[k] ? double(swap_acc[k]) / swap_try[k] : 0.0);
      set_internal(lmp, "ptmc_swap_expect_" + s, swap_try[k] ? swap_expect[k] / swap_try[k] : 0.0);
    }
  }
  set_internal(lmp, "ptmc_drift", drift);
  set_internal(lmp, "ptmc_sweep", double(sweep));
  const double rate = sweep_seconds > 0.0 ? nsweeps / sweep_seconds : 0.0;
  set_internal(lmp, "ptmc_sweeps_per_s", rate);

  if (comm->me == 0)
    utils::logmesg(lmp, "ptmc: {} sweeps of {} replicas in {:.6g} s on the {}: {:.6g} sweeps/s\n",
                   nsweeps, M, sweep_seconds, use_gpu ? "GPU" : "CPU", rate);

  if (comm->me != 0) return;
  utils::logmesg(lmp,
                 "ptmc: sweep {}, {} samples per temperature, energy bookkeeping drift {:.3g}\n"
                 "  k  T  delta  acceptance  <E>  C_V  <Rg^2>  swap(k,k+1)\n",
                 sweep, ns, drift);
  for (int k = 0; k < M; ++k)
    utils::logmesg(lmp, "  {} {:.6g} {:.6g} {:.4f} {:.8g} {:.6g} {:.6g} {}\n", k + 1, temps[k],
                   delta[k], tries[k] ? double(acc[k]) / tries[k] : 0.0, me[k],
                   ve[k] / (kb * temps[k] * temps[k]), mr[k],
                   k + 1 < M && swap_try[k]
                       ? fmt::format("{:.4f}", double(swap_acc[k]) / swap_try[k])
                       : std::string("-"));
  if (prefix.empty()) return;

  FILE *fp = fopen((prefix + ".stats").c_str(), "w");
  if (!fp) error->one(FLERR, "ptmc: cannot open {}.stats", prefix);
  fprintf(fp, "# ptmc statistics at sweep " BIGINT_FORMAT ", %d samples per temperature\n", sweep,
          ns);
  fprintf(fp, "# k T delta acceptance <E> var(E) C_V <Rg^2> swap_tries swap_rate swap_expected\n");
  for (int k = 0; k < M; ++k) {
    const bool p = k + 1 < M;
    fprintf(fp, "%d %.10g %.10g %.10g %.17g %.17g %.10g %.10g " BIGINT_FORMAT " %.10g %.10g\n",
            k + 1, temps[k], delta[k], tries[k] ? double(acc[k]) / tries[k] : 0.0, me[k], ve[k],
            ve[k] / (kb * temps[k] * temps[k]), mr[k], p ? swap_try[k] : (bigint) 0,
            p && swap_try[k] ? double(swap_acc[k]) / swap_try[k] : 0.0,
            p && swap_try[k] ? swap_expect[k] / swap_try[k] : 0.0);
  }
  fclose(fp);
  if (ns == 0) return;

  // energy histograms, normalised densities per temperature
  const double emin = *std::min_element(samples_e.begin(), samples_e.end());
  const double emax = *std::max_element(samples_e.begin(), samples_e.end());
  const double de = emax > emin ? (emax - emin) / nbins : 1.0;
  std::vector<double> h((size_t) nbins * M, 0.0);
  for (size_t s = 0; s < samples_e.size(); ++s) {
    const double fb = (samples_e[s] - emin) / de;
    if (!(fb >= 0.0)) continue;    // NaN
    const int b = std::min(nbins - 1, (int) fb);
    h[(size_t) b * M + s % M] += 1.0 / (ns * de);
  }
  fp = fopen((prefix + ".hist").c_str(), "w");
  if (!fp) error->one(FLERR, "ptmc: cannot open {}.hist", prefix);
  fprintf(fp, "# ptmc energy histograms: bin centre E, then p(E) at each temperature\n# E");
  for (int k = 0; k < M; ++k) fprintf(fp, " p(E|T=%.10g)", temps[k]);
  fprintf(fp, "\n");
  for (int b = 0; b < nbins; ++b) {
    fprintf(fp, "%.10g", emin + (b + 0.5) * de);
    for (int k = 0; k < M; ++k) fprintf(fp, " %.10g", h[(size_t) b * M + k]);
    fprintf(fp, "\n");
  }
  fclose(fp);

  // C_V(T), <E>(T), <Rg^2>(T) by multiple-histogram reweighting
  std::vector<double> f;
  wham(f);
  const double nl = ns;
  std::vector<double> den(samples_e.size()), tl(M), lw(samples_e.size());
  for (size_t s = 0; s < samples_e.size(); ++s) {
    for (int l = 0; l < M; ++l) tl[l] = log(nl) + f[l] - beta[l] * samples_e[s];
    den[s] = logsumexp(tl);
  }
  fp = fopen((prefix + ".cv").c_str(), "w");
  if (!fp) error->one(FLERR, "ptmc: cannot open {}.cv", prefix);
  fprintf(fp, "# ptmc multiple-histogram reweighting (Ferrenberg-Swendsen), free energies f_k:");
  for (int k = 0; k < M; ++k) fprintf(fp, " %.10g", f[k]);
  fprintf(fp, "\n# T <E> C_V C_V/N <Rg^2>\n");
  for (int i = 0; i < ncv; ++i) {
    const double T = ncv == 1 ? temps[0] : temps[0] + (temps.back() - temps[0]) * i / (ncv - 1);
    const double b = 1.0 / (kb * T);
    for (size_t s = 0; s < samples_e.size(); ++s) lw[s] = -b * samples_e[s] - den[s];
    const double lz = logsumexp(lw);
    double e1 = 0.0, e2 = 0.0, r2 = 0.0;
    for (size_t s = 0; s < samples_e.size(); ++s) {
      const double w = exp(lw[s] - lz);
      e1 += w * samples_e[s];
      r2 += w * samples_rg2[s];
    }
    for (size_t s = 0; s < samples_e.size(); ++s)
      e2 += exp(lw[s] - lz) * (samples_e[s] - e1) * (samples_e[s] - e1);
    const double cv = e2 / (kb * T * T);
    fprintf(fp, "%.10g %.12g %.10g %.10g %.10g\n", T, e1, cv, cv / n, r2);
  }
  fclose(fp);
}

void PTMC::dump_frames()
{
  if (comm->me != 0) return;
  for (int k : dump_temps) {
    const std::string name = dump_file + "." + std::to_string(k + 1);
    FILE *fp = fopen(name.c_str(), "a");
    if (!fp) error->one(FLERR, "ptmc: cannot open dump file {}", name);
    const double *xr = x.data() + (size_t) rep_at[k] * 3 * n;
    fprintf(fp, "ITEM: TIMESTEP\n" BIGINT_FORMAT "\nITEM: NUMBER OF ATOMS\n%d\n", sweep, n);
    fprintf(fp, "ITEM: BOX BOUNDS %s %s %s\n", domain->xperiodic ? "pp" : "ff",
            domain->yperiodic ? "pp" : "ff", domain->zperiodic ? "pp" : "ff");
    for (int d = 0; d < 3; ++d) fprintf(fp, "%.17g %.17g\n", domain->boxlo[d], domain->boxhi[d]);
    fprintf(fp, "ITEM: ATOMS id type xu yu zu\n");
    for (int i = 0; i < n; ++i)
      fprintf(fp, "%d %d %.17g %.17g %.17g\n", i + 1, type[i], xr[3 * i], xr[3 * i + 1],
              xr[3 * i + 2]);
    fclose(fp);
  }
}

/* restart file (text, doubles as %.17g, which read back bit for bit):
     # mesogpu ptmc restart 1
     monomers N replicas M seed S sweep C
     temperatures T_1 .. T_M
     delta d_1 .. d_M
     window a_1 t_1 .. a_M t_M
   then per replica r = 1..M:
     replica r temperature_index k energy E
     N lines: x y z (unwrapped) of atom IDs 1..N */
void PTMC::write_restart()
{
  if (comm->me != 0) return;
  FILE *fp = fopen(restart_out.c_str(), "w");
  if (!fp) error->one(FLERR, "ptmc: cannot open restart file {}", restart_out);
  fprintf(fp, "# mesogpu ptmc restart 1\nmonomers %d replicas %d seed %u sweep " BIGINT_FORMAT "\n",
          n, M, seed, sweep);
  fprintf(fp, "temperatures");
  for (double t : temps) fprintf(fp, " %.17g", t);
  fprintf(fp, "\ndelta");
  for (double d : delta) fprintf(fp, " %.17g", d);
  fprintf(fp, "\nwindow");
  for (int k = 0; k < M; ++k)
    fprintf(fp, " " BIGINT_FORMAT " " BIGINT_FORMAT, win_acc[k], win_try[k]);
  fprintf(fp, "\n");
  for (int r = 0; r < M; ++r) {
    fprintf(fp, "replica %d temperature_index %d energy %.17g\n", r + 1, temp_of[r] + 1, energy[r]);
    const double *xr = x.data() + (size_t) r * 3 * n;
    for (int i = 0; i < n; ++i)
      fprintf(fp, "%.17g %.17g %.17g\n", xr[3 * i], xr[3 * i + 1], xr[3 * i + 2]);
  }
  fclose(fp);
}

void PTMC::read_restart()
{
  std::string text;
  if (comm->me == 0) {
    FILE *fp = fopen(restart_in.c_str(), "r");
    if (fp) {
      char buf[4096];
      size_t got;
      while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) text.append(buf, got);
      fclose(fp);
    }
  }
  int len = (int) text.size();
  MPI_Bcast(&len, 1, MPI_INT, 0, world);
  if (len == 0) error->all(FLERR, "ptmc: cannot read restart file {}", restart_in);
  text.resize(len);
  MPI_Bcast(&text[0], len, MPI_CHAR, 0, world);

  std::vector<std::string> w = utils::split_words(text);
  size_t p = 0;
  auto word = [&](const char *expect) {
    if (p >= w.size() || (expect && w[p] != expect))
      error->all(FLERR, "ptmc restart file {}: expected '{}' at word {}", restart_in,
                 expect ? expect : "a value", p + 1);
    return w[p++];
  };
  auto num = [&]() { return utils::numeric(FLERR, word(nullptr), false, lmp); };
  auto big = [&]() { return utils::bnumeric(FLERR, word(nullptr), false, lmp); };
  for (const char *h : {"#", "mesogpu", "ptmc", "restart", "1", "monomers"}) word(h);
  if (big() != n)
    error->all(FLERR, "ptmc restart file {}: monomer count differs from the system ({})",
               restart_in, n);
  word("replicas");
  if (big() != M)
    error->all(FLERR, "ptmc restart file {}: replica count differs from the ladder ({})",
               restart_in, M);
  word("seed");
  if (big() != seed)
    error->all(FLERR, "ptmc restart file {}: seed differs from the command's", restart_in);
  word("sweep");
  sweep = big();
  word("temperatures");
  for (int k = 0; k < M; ++k)
    if (fabs(num() - temps[k]) > 1e-12 * temps[k])
      error->all(FLERR, "ptmc restart file {}: temperature {} differs from the ladder", restart_in,
                 k + 1);
  word("delta");
  for (int k = 0; k < M; ++k) delta[k] = num();
  word("window");
  for (int k = 0; k < M; ++k) {
    win_acc[k] = big();
    win_try[k] = big();
  }
  std::vector<int> seen(M, 0);
  for (int r = 0; r < M; ++r) {
    word("replica");
    if (big() != r + 1)
      error->all(FLERR, "ptmc restart file {}: replicas out of order", restart_in);
    word("temperature_index");
    const int k = (int) big() - 1;
    if (k < 0 || k >= M || seen[k]++)
      error->all(FLERR, "ptmc restart file {}: bad temperature index of replica {}", restart_in,
                 r + 1);
    temp_of[r] = k;
    rep_at[k] = r;
    word("energy");
    energy[r] = num();
    for (int i = 0; i < 3 * n; ++i) x[(size_t) r * 3 * n + i] = num();
  }
}
