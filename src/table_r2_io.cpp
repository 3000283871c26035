/* mesogpu: host-side construction of r^2-grid spline tables; see table_r2_io.h. */

#include "table_r2_io.h"

#include "physics/table_r2.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace mesogpu {

TableR2Error::TableR2Error(const std::string &file_, int line_, const std::string &what) :
    std::runtime_error(line_ > 0 ? "file " + file_ + " line " + std::to_string(line_) + ": " + what
                                 : "file " + file_ + ": " + what),
    file(file_), line(line_)
{
}

namespace {

  std::vector<std::string> split_words(const std::string &line)
  {
    std::vector<std::string> words;
    std::istringstream in(line.substr(0, line.find('#')));
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
  }

  struct Reader {
    const std::string &file;
    std::ifstream in;
    int lineno = 0;

    explicit Reader(const std::string &f) : file(f), in(f) {}

    // next non-blank, non-comment line split into words; false at end of file
    bool next(std::vector<std::string> &words)
    {
      std::string line;
      while (std::getline(in, line)) {
        ++lineno;
        words = split_words(line);
        if (!words.empty()) return true;
      }
      return false;
    }

    [[noreturn]] void fail(const std::string &what) const
    {
      throw TableR2Error(file, lineno, what);
    }

    double number(const std::string &word, const char *what) const
    {
      const char *s = word.c_str();
      char *end = nullptr;
      errno = 0;
      double v = std::strtod(s, &end);
      if (end == s || *end != '\0')
        fail(std::string("expected a number for ") + what + ", got '" + word + "'");
      if (!std::isfinite(v) || errno == ERANGE)
        fail(std::string(what) + " is not a finite number: '" + word + "'");
      return v;
    }

    long integer(const std::string &word, const char *what) const
    {
      const char *s = word.c_str();
      char *end = nullptr;
      errno = 0;
      long v = std::strtol(s, &end, 10);
      if (end == s || *end != '\0' || errno == ERANGE)
        fail(std::string("expected an integer for ") + what + ", got '" + word + "'");
      return v;
    }
  };

  // cubic Hermite interpolation of E in r with slopes dE/dr = -F; also d2E/dr2
  void hermite(const TableR2Section &s, double r, double &e, double &dedr, double *d2edr2 = nullptr)
  {
    const std::vector<double> &x = s.r;
    size_t k = std::upper_bound(x.begin(), x.end(), r) - x.begin();
    k = std::min(std::max<size_t>(k, 1), x.size() - 1) - 1;    // interval [x_k, x_k+1]
    const double h = x[k + 1] - x[k];
    const double t = (r - x[k]) / h;
    const double e0 = s.e[k], e1 = s.e[k + 1];
    const double m0 = -s.f[k] * h, m1 = -s.f[k + 1] * h;
    const double t2 = t * t, t3 = t2 * t;
    e = (2 * t3 - 3 * t2 + 1) * e0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * e1 +
        (t3 - t2) * m1;
    dedr = ((6 * t2 - 6 * t) * e0 + (3 * t2 - 4 * t + 1) * m0 + (-6 * t2 + 6 * t) * e1 +
            (3 * t2 - 2 * t) * m1) /
           h;
    if (d2edr2)
      *d2edr2 =
          ((12 * t - 6) * e0 + (6 * t - 4) * m0 + (-12 * t + 6) * e1 + (6 * t - 2) * m1) / (h * h);
  }

}    // namespace

TableR2Section read_table_r2_section(const std::string &file, const std::string &keyword)
{
  Reader rd(file);
  if (!rd.in) throw TableR2Error(file, 0, "cannot open file");

  std::vector<std::string> w;
  bool found = false;
  while (rd.next(w)) {
    if (w[0] == keyword) {
      found = true;
      break;
    }
  }
  if (!found) throw TableR2Error(file, 0, "keyword '" + keyword + "' not found");
  if (w.size() != 1) rd.fail("keyword line must hold only the keyword '" + keyword + "'");

  TableR2Section s;
  s.file = file;
  s.keyword = keyword;
  s.keyword_line = rd.lineno;

  // parameter line
  if (!rd.next(w)) rd.fail("end of file after keyword '" + keyword + "', expected 'N n ...'");
  if (w[0] != "N" || w.size() < 2) rd.fail("expected 'N n ...' after keyword '" + keyword + "'");
  long n = rd.integer(w[1], "N");
  int spacing = 0;    // 0: r listed, 1: R, 2: RSQ
  double lo = 0.0, hi = 0.0;
  bool coeff = false;
  for (size_t i = 2; i < w.size();) {
    const std::string &opt = w[i];
    if (opt == "R" || opt == "RSQ" || opt == "COEFF") {
      if (i + 2 >= w.size()) rd.fail("'" + opt + "' needs two values: lo hi");
      lo = rd.number(w[i + 1], "lo");
      hi = rd.number(w[i + 2], "hi");
      if (lo < 0.0 || hi <= lo)
        rd.fail("'" + opt + " lo hi' needs 0 <= lo < hi, got " + w[i + 1] + " " + w[i + 2]);
      if (opt == "COEFF")
        coeff = true;
      else
        spacing = (opt == "R") ? 1 : 2;
      i += 3;
    } else if (opt == "FP") {
      if (i + 2 >= w.size()) rd.fail("'FP' needs two values: fplo fphi");
      rd.number(w[i + 1], "fplo");    // checked, not needed: end slopes come from F
      rd.number(w[i + 2], "fphi");
      i += 3;
    } else if (opt == "BITMAP") {
      rd.fail("BITMAP tables are not supported by table/r2; write the table with R or RSQ spacing");
    } else {
      rd.fail("unknown parameter '" + opt + "' (allowed: R, RSQ, FP, COEFF)");
    }
  }
  if (coeff && spacing) rd.fail("COEFF cannot be combined with R or RSQ");
  if (!coeff && n < 2) rd.fail("N must be at least 2, got " + std::to_string(n));
  if (coeff && n < 1) rd.fail("N must be at least 1, got " + std::to_string(n));
  if (n > 100000000) rd.fail("N = " + std::to_string(n) + " is too large");
  s.n = static_cast<int>(n);
  s.kind = coeff ? TableR2Section::Kind::coefficients : TableR2Section::Kind::samples;

  const size_t nfield = coeff ? 5 : 4;
  const char *layout = coeff ? "'k c0 c1 c2 c3'" : "'i r E F'";
  for (int k = 1; k <= s.n; ++k) {
    if (!rd.next(w))
      rd.fail("end of file after " + std::to_string(k - 1) + " of N = " + std::to_string(n) +
              " data lines of keyword '" + keyword + "'");
    if (k == 1) s.first_data_line = rd.lineno;
    if (w.size() != nfield)
      rd.fail("expected " + std::to_string(nfield) + " values " + layout + ", got " +
              std::to_string(w.size()) + " (line " + std::to_string(k) +
              " of N = " + std::to_string(n) + " in keyword '" + keyword + "')");
    long idx = rd.integer(w[0], "the line index");
    if (idx != k)
      rd.fail("line index " + w[0] + " where " + std::to_string(k) +
              " was expected (N = " + std::to_string(n) + ")");
    if (coeff) {
      for (int c = 0; c < 4; ++c) s.coeff.push_back(rd.number(w[1 + c], "a coefficient"));
    } else {
      double r = rd.number(w[1], "r");
      if (r < 0.0) rd.fail("r must not be negative, got " + w[1]);
      if (!s.r.empty() && r <= s.r.back())
        rd.fail("r values must increase (got " + w[1] + " after " + std::to_string(s.r.back()) +
                ")");
      s.r.push_back(r);
      s.e.push_back(rd.number(w[2], "E"));
      s.f.push_back(rd.number(w[3], "F"));
    }
  }

  // the rest of the file: a longer section than announced means N is wrong, and a
  // second section of the same name would be silently shadowed: both are errors
  bool first_after = true;
  while (rd.next(w)) {
    if (first_after && w.size() == nfield) {
      const char *s0 = w[0].c_str();
      char *end = nullptr;
      long idx = std::strtol(s0, &end, 10);
      if (end != s0 && *end == '\0' && idx == n + 1)
        rd.fail("keyword '" + keyword + "' has more data lines than N = " + std::to_string(n));
    }
    first_after = false;
    if (w[0] == keyword)
      rd.fail("keyword '" + keyword + "' appears twice, at lines " +
              std::to_string(s.keyword_line) + " and " + std::to_string(rd.lineno) +
              " (section names must be unique)");
  }

  if (coeff) {
    s.r_lo = lo;
    s.r_hi = hi;
  } else if (spacing) {
    // as LAMMPS does: with R or RSQ the grid is defined by lo/hi, listed r are ignored
    // (and, as LAMMPS does, counted when they disagree with it, for a warning)
    for (int i = 0; i < s.n; ++i) {
      double t = static_cast<double>(i) / (s.n - 1);
      double r = (spacing == 1) ? lo + (hi - lo) * t : std::sqrt(lo * lo + (hi * hi - lo * lo) * t);
      if (std::fabs(r - s.r[i]) > 1e-6 * std::max(std::fabs(r), std::fabs(s.r[i]))) ++s.r_mismatch;
      s.r[i] = r;
    }
  }
  if (!coeff) {
    // the resampling takes F as the slope of E: a force column that does not belong to
    // the energies (wrong sign, other units, another potential) shapes E between samples
    std::vector<double> fc(s.n, 0.0);
    double fmax = 0.0;
    for (int i = 1; i + 1 < s.n; ++i) {
      fc[i] = -(s.e[i + 1] - s.e[i - 1]) / (s.r[i + 1] - s.r[i - 1]);
      fmax = std::max(fmax, std::fabs(fc[i]));
    }
    for (double f : s.f) fmax = std::max(fmax, std::fabs(f));
    for (int i = 1; i + 1 < s.n; ++i) {
      const double d = std::fabs(s.f[i] - fc[i]);
      if (d > 0.01 * fmax) {
        ++s.f_mismatch;
        if (d > s.f_mismatch_max) {
          s.f_mismatch_max = d;
          s.f_mismatch_r = s.r[i];
        }
      }
    }
    if (fmax > 0.0) s.f_mismatch_max /= fmax;
  }
  if (!coeff && s.r.front() == 0.0 && !std::isfinite(s.e.front()))
    throw TableR2Error(file, s.first_data_line, "E(r = 0) is not finite");
  return s;
}

std::vector<double> fit_cubic_spline(const std::vector<double> &v, double h, double slope_lo,
                                     double slope_hi)
{
  const int n = static_cast<int>(v.size()) - 1;    // intervals
  // second derivatives M solve a tridiagonal system (Thomas algorithm)
  std::vector<double> a(n + 1), b(n + 1), c(n + 1), d(n + 1), m(n + 1);
  for (int i = 1; i < n; ++i) {
    a[i] = 1.0;
    b[i] = 4.0;
    c[i] = 1.0;
    d[i] = 6.0 * (v[i + 1] - 2.0 * v[i] + v[i - 1]) / (h * h);
  }
  if (std::isfinite(slope_lo)) {
    b[0] = 2.0;
    c[0] = 1.0;
    d[0] = 6.0 / h * ((v[1] - v[0]) / h - slope_lo);
  } else {
    b[0] = 1.0;
    c[0] = 0.0;
    d[0] = 0.0;
  }
  if (std::isfinite(slope_hi)) {
    a[n] = 1.0;
    b[n] = 2.0;
    d[n] = 6.0 / h * (slope_hi - (v[n] - v[n - 1]) / h);
  } else {
    a[n] = 0.0;
    b[n] = 1.0;
    d[n] = 0.0;
  }
  for (int i = 1; i <= n; ++i) {
    double w = a[i] / b[i - 1];
    b[i] -= w * c[i - 1];
    d[i] -= w * d[i - 1];
  }
  m[n] = d[n] / b[n];
  for (int i = n - 1; i >= 0; --i) m[i] = (d[i] - c[i] * m[i + 1]) / b[i];

  std::vector<double> coeff(4 * n);
  for (int k = 0; k < n; ++k) {
    coeff[4 * k + 0] = v[k];
    coeff[4 * k + 1] = (v[k + 1] - v[k]) / h - h * (2.0 * m[k] + m[k + 1]) / 6.0;
    coeff[4 * k + 2] = 0.5 * m[k];
    coeff[4 * k + 3] = (m[k + 1] - m[k]) / (6.0 * h);
  }
  return coeff;
}

TableR2Spline make_table_r2_spline(const TableR2Section &s, double cutoff, int n_intervals)
{
  TableR2Spline t;
  const bool coeff = (s.kind == TableR2Section::Kind::coefficients);
  const double r_lo = coeff ? s.r_lo : s.r.front();
  const double r_hi = coeff ? s.r_hi : s.r.back();
  if (cutoff <= 0.0) cutoff = r_hi;
  if (cutoff <= r_lo || cutoff > r_hi * (1.0 + 1e-12)) {
    std::ostringstream msg;
    msg << "cutoff " << cutoff << " lies outside table '" << s.keyword << "' (" << r_lo
        << " < cutoff <= " << r_hi << ")";
    throw TableR2Error(s.file, 0, msg.str());
  }

  if (coeff) {
    t.n = s.n;
    t.z_lo = r_lo * r_lo;
    t.dz = (r_hi * r_hi - t.z_lo) / s.n;
    t.coeff = s.coeff;
    return t;
  }

  if (n_intervals < 2) throw TableR2Error(s.file, 0, "need at least 2 spline intervals");
  t.n = n_intervals;
  t.z_lo = r_lo * r_lo;
  t.dz = (std::min(cutoff, r_hi) * std::min(cutoff, r_hi) - t.z_lo) / n_intervals;
  std::vector<double> v(n_intervals + 1);
  double dedr_lo = 0.0, dedr_hi = 0.0, d2edr2_lo = 0.0;
  for (int k = 0; k <= n_intervals; ++k) {
    double r = std::sqrt(t.z_lo + k * t.dz);
    if (k == 0) r = r_lo;    // exact ends: no rounding outside the samples
    if (k == n_intervals) r = std::min(cutoff, r_hi);
    double dedr;
    hermite(s, r, v[k], dedr, k == 0 ? &d2edr2_lo : nullptr);
    if (k == 0) dedr_lo = dedr;
    if (k == n_intervals) dedr_hi = dedr;
  }
  // clamped ends, dV/dz = (dE/dr) / (2 r). A table that starts at r = 0 with F(0) = 0
  // (a soft core) has dV/dz(0) = E''(0) / 2; with F(0) != 0 the slope in z is infinite
  // there and the end is left natural.
  double slope_lo = NAN;
  if (r_lo > 0.0)
    slope_lo = dedr_lo / (2.0 * r_lo);
  else {
    double fmax = 0.0;
    for (double f : s.f) fmax = std::max(fmax, std::fabs(f));
    if (std::fabs(s.f.front()) <= 1e-12 * fmax) slope_lo = 0.5 * d2edr2_lo;
  }
  const double r_end = std::min(cutoff, r_hi);
  const double slope_hi = dedr_hi / (2.0 * r_end);
  t.coeff = fit_cubic_spline(v, t.dz, slope_lo, slope_hi);
  // finite samples can still overflow the fit (|E| near DBL_MAX, huge slopes)
  for (double c : t.coeff)
    if (!std::isfinite(c))
      throw TableR2Error(s.file, s.first_data_line,
                         "the spline fitted to table '" + s.keyword +
                             "' is not finite (energies or forces too large)");
  return t;
}

void scale_table_r2_energy(TableR2Section &s, double factor)
{
  for (double &x : s.e) x *= factor;
  for (double &x : s.f) x *= factor;
  for (double &x : s.coeff) x *= factor;
}

TableR2Accuracy table_r2_spline_accuracy(const TableR2Section &s, const TableR2Spline &t)
{
  TableR2Accuracy acc;
  if (s.kind != TableR2Section::Kind::samples || t.n < 1) return acc;
  physics::TableR2View<double> view;
  view.coeff = t.coeff.data();
  view.z_lo = t.z_lo;
  view.dz = t.dz;
  view.inv_dz = 1.0 / t.dz;
  view.n = t.n;
  view.inner = physics::InnerMode::clamp;    // rounding at r_lo must not count as "below"
  const double r_lo = s.r.front();
  const double r_end = std::sqrt(t.z_hi()) * (1.0 + 1e-12);

  // reference points: the samples themselves and the midpoints between them
  std::vector<double> rr, ee, ff;
  for (size_t i = 0; i < s.r.size() && s.r[i] <= r_end; ++i) {
    rr.push_back(s.r[i]);
    ee.push_back(s.e[i]);
    ff.push_back(s.f[i]);
    if (i + 1 < s.r.size()) {
      const double rm = 0.5 * (s.r[i] + s.r[i + 1]);
      if (rm > r_end) break;
      double e, dedr;
      hermite(s, rm, e, dedr);
      rr.push_back(rm);
      ee.push_back(e);
      ff.push_back(-dedr);
    }
  }
  double de = 0.0, df = 0.0;
  for (size_t i = 0; i < rr.size(); ++i) {
    double fdivr, e;
    physics::EvaluatorTableR2<double>(std::max(rr[i] * rr[i], r_lo * r_lo), view)
        .evaluate(fdivr, e);
    acc.scale_e = std::max(acc.scale_e, std::fabs(ee[i]));
    acc.scale_f = std::max(acc.scale_f, std::fabs(ff[i]));
    if (std::fabs(e - ee[i]) > de) {
      de = std::fabs(e - ee[i]);
      acc.r_e = rr[i];
    }
    if (std::fabs(fdivr * rr[i] - ff[i]) > df) {
      df = std::fabs(fdivr * rr[i] - ff[i]);
      acc.r_f = rr[i];
    }
  }
  acc.err_e = acc.scale_e > 0.0 ? de / acc.scale_e : de;
  acc.err_f = acc.scale_f > 0.0 ? df / acc.scale_f : df;
  return acc;
}

double table_r2_max_c0_jump(const TableR2Spline &t)
{
  double vmax = 0.0, jump = 0.0;
  for (int k = 0; k < t.n; ++k) vmax = std::max(vmax, std::fabs(t.coeff[4 * k]));
  for (int k = 0; k + 1 < t.n; ++k) {
    const double *c = &t.coeff[4 * k];
    double end = c[0] + t.dz * (c[1] + t.dz * (c[2] + t.dz * c[3]));
    jump = std::max(jump, std::fabs(end - t.coeff[4 * (k + 1)]));
  }
  return vmax > 0.0 ? jump / vmax : jump;
}

}    // namespace mesogpu
