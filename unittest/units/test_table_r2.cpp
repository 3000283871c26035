/* Units for pair_style table/r2: the evaluator (src/physics/table_r2.h) and the
   table reader/fitter (src/table_r2_io.h). References are analytic functions,
   finite differences, and an independent Python fit (potentials/). */

#include "physics/table_r2.h"
#include "table_r2_io.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

using mesogpu::TableR2Error;
using mesogpu::TableR2Section;
using mesogpu::TableR2Spline;
using mesogpu::physics::EvaluatorTableR2;
using mesogpu::physics::InnerMode;
using mesogpu::physics::TableR2View;

namespace {

// ---- helpers ----------------------------------------------------------------

std::string temp_file(const std::string &text)
{
  static int count = 0;
  std::string name =
      "table_r2_test_" + std::to_string(getpid()) + "_" + std::to_string(count++) + ".table";
  std::ofstream out(name);
  out << text;
  return name;
}

template <typename Real> struct Table {
  std::vector<Real> coeff;
  TableR2View<Real> view;
  explicit Table(const TableR2Spline &s, InnerMode inner = InnerMode::error) :
      coeff(s.coeff.begin(), s.coeff.end())
  {
    view.coeff = coeff.data();
    view.z_lo = static_cast<Real>(s.z_lo);
    view.dz = static_cast<Real>(s.dz);
    view.inv_dz = static_cast<Real>(1.0 / s.dz);
    view.n = s.n;
    view.inner = inner;
  }
  bool eval(double r, double &e, double &f) const    // f = radial force F = (F/r) r
  {
    Real fdivr, en;
    bool ok = EvaluatorTableR2<Real>(static_cast<Real>(r * r), view).evaluate(fdivr, en);
    e = en;
    f = fdivr * r;
    return ok;
  }
};

double lj_e(double r)
{
  return 4.0 * (std::pow(r, -12) - std::pow(r, -6));
}
double lj_f(double r)
{
  return 4.0 * (12.0 * std::pow(r, -13) - 6.0 * std::pow(r, -7));
}

// LAMMPS-format table of an analytic function, N samples uniform in r
template <class E, class F>
std::string write_table(const char *kw, int n, double lo, double hi, E e, F f)
{
  std::string s = "# analytic test table\n\n" + std::string(kw) + "\nN " + std::to_string(n) +
                  " R " + std::to_string(lo) + " " + std::to_string(hi) + "\n\n";
  char line[256];
  for (int i = 0; i < n; ++i) {
    double r = lo + (hi - lo) * i / (n - 1);
    snprintf(line, sizeof line, "%d %.17g %.17g %.17g\n", i + 1, r, e(r), f(r));
    s += line;
  }
  return temp_file(s);
}

TableR2Spline lj_spline(int nint)
{
  static std::string file = write_table("LJ", 2000, 0.9, 2.5, lj_e, lj_f);
  return mesogpu::make_table_r2_spline(mesogpu::read_table_r2_section(file, "LJ"), 0.0, nint);
}

// value and derivatives of interval k at local offset d
void cubic(const std::vector<double> &c, int k, double d, double &v, double &d1, double &d2)
{
  const double *a = &c[4 * k];
  v = a[0] + d * (a[1] + d * (a[2] + d * a[3]));
  d1 = a[1] + d * (2 * a[2] + 3 * d * a[3]);
  d2 = 2 * a[2] + 6 * d * a[3];
}

void expect_c2_at_knots(const TableR2Spline &t)
{
  double scale = 0.0;
  for (int k = 0; k < t.n; ++k) scale = std::max(scale, std::fabs(t.coeff[4 * k]));
  for (int k = 0; k + 1 < t.n; ++k) {
    double vl, d1l, d2l, vr, d1r, d2r;
    cubic(t.coeff, k, t.dz, vl, d1l, d2l);
    cubic(t.coeff, k + 1, 0.0, vr, d1r, d2r);
    ASSERT_NEAR(vl, vr, 1e-11 * scale) << "C0 break at knot " << k + 1;
    ASSERT_NEAR(d1l, d1r, 1e-8 * std::max(1.0, std::fabs(d1r))) << "C1 break at knot " << k + 1;
    ASSERT_NEAR(d2l, d2r, 1e-6 * std::max(1.0, std::fabs(d2r))) << "C2 break at knot " << k + 1;
  }
}

}    // namespace

// ---- spline ---------------------------------------------------------------------

TEST(TableR2Spline, ContinuityRandomKnots)
{
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(65);
  for (auto &x : v) x = u(gen);
  TableR2Spline t;
  t.n = 64;
  t.dz = 0.37;
  t.coeff = mesogpu::fit_cubic_spline(v, t.dz, 0.3, -0.2);
  expect_c2_at_knots(t);
  // interpolates the knots and honours the clamped slopes
  double val, d1, d2;
  for (int k = 0; k < t.n; ++k) EXPECT_DOUBLE_EQ(t.coeff[4 * k], v[k]);
  cubic(t.coeff, t.n - 1, t.dz, val, d1, d2);
  EXPECT_NEAR(val, v.back(), 1e-12);
  EXPECT_NEAR(d1, -0.2, 1e-12);
  cubic(t.coeff, 0, 0.0, val, d1, d2);
  EXPECT_NEAR(d1, 0.3, 1e-12);
}

TEST(TableR2Spline, NaturalEnds)
{
  std::vector<double> v = {0.0, 1.0, 0.5, 2.0, -1.0};
  auto c = mesogpu::fit_cubic_spline(v, 0.5, NAN, NAN);
  double val, d1, d2;
  cubic(c, 0, 0.0, val, d1, d2);
  EXPECT_NEAR(d2, 0.0, 1e-13);
  cubic(c, 3, 0.5, val, d1, d2);
  EXPECT_NEAR(d2, 0.0, 1e-12);
}

TEST(TableR2Spline, ContinuityLJTable)
{
  expect_c2_at_knots(lj_spline(3000));
}

TEST(TableR2Spline, CubicIsReproducedExactly)
{
  // a clamped cubic spline reproduces a cubic polynomial exactly
  auto p = [](double z) { return 1.0 - 2.0 * z + 0.5 * z * z - 0.1 * z * z * z; };
  auto dp = [](double z) { return -2.0 + z - 0.3 * z * z; };
  const int n = 20;
  const double h = 0.25;
  std::vector<double> v(n + 1);
  for (int k = 0; k <= n; ++k) v[k] = p(k * h);
  auto c = mesogpu::fit_cubic_spline(v, h, dp(0.0), dp(n * h));
  for (int k = 0; k < n; ++k) {
    double val, d1, d2;
    cubic(c, k, 0.3 * h, val, d1, d2);
    EXPECT_NEAR(val, p((k + 0.3) * h), 1e-12);
    EXPECT_NEAR(d1, dp((k + 0.3) * h), 1e-11);
  }
}

// ---- evaluator --------------------------------------------------------------------

TEST(TableR2Evaluator, ForceIsMinusEnergyDerivative)
{
  Table<double> t(lj_spline(2000));
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(0.92, 2.48);
  for (int s = 0; s < 500; ++s) {
    const double r = u(gen), h = 1e-6;
    double e, f, ep, em, dummy;
    ASSERT_TRUE(t.eval(r, e, f));
    t.eval(r + h, ep, dummy);
    t.eval(r - h, em, dummy);
    const double fd = -(ep - em) / (2 * h);
    EXPECT_NEAR(f, fd, 1e-6 * std::max(1.0, std::fabs(f))) << "r = " << r;
  }
}

TEST(TableR2Evaluator, ReproducesAnalyticLJ)
{
  Table<double> t(lj_spline(5000));
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(0.9, 2.5);
  double max_de = 0.0, max_df = 0.0;
  for (int s = 0; s < 2000; ++s) {
    const double r = u(gen);
    double e, f;
    ASSERT_TRUE(t.eval(r, e, f));
    max_de = std::max(max_de, std::fabs(e - lj_e(r)) / std::max(1.0, std::fabs(lj_e(r))));
    max_df = std::max(max_df, std::fabs(f - lj_f(r)) / std::max(1.0, std::fabs(lj_f(r))));
  }
  // spline error O(dz^4) in E and O(dz^3) in F, dz = 1.1e-3 in r^2 here
  EXPECT_LT(max_de, 1e-7);
  EXPECT_LT(max_df, 1e-5);
  // and the error falls with resolution as a cubic spline's should (4th order in E)
  Table<double> coarse(lj_spline(500));
  double max_de_coarse = 0.0;
  for (int s = 0; s < 2000; ++s) {
    const double r = 0.9 + 1.6 * (s + 0.5) / 2000;
    double e, f;
    coarse.eval(r, e, f);
    max_de_coarse =
        std::max(max_de_coarse, std::fabs(e - lj_e(r)) / std::max(1.0, std::fabs(lj_e(r))));
  }
  EXPECT_GT(max_de_coarse, 100.0 * max_de);
}

TEST(TableR2Evaluator, SinglePrecisionFollowsDouble)
{
  TableR2Spline s = lj_spline(2000);
  Table<double> td(s);
  Table<float> tf(s);
  for (int i = 0; i < 200; ++i) {
    const double r = 0.95 + 1.5 * i / 200.0;
    double ed, fd, ef, ff;
    td.eval(r, ed, fd);
    tf.eval(r, ef, ff);
    EXPECT_NEAR(ef, ed, 2e-5 * std::max(1.0, std::fabs(ed)));
    EXPECT_NEAR(ff, fd, 5e-4 * std::max(1.0, std::fabs(fd)));
  }
}

TEST(TableR2Evaluator, InnerModes)
{
  TableR2Spline s = lj_spline(2000);
  Table<double> err(s, InnerMode::error);
  double e, f;
  EXPECT_FALSE(err.eval(0.8, e, f));
  EXPECT_TRUE(err.eval(0.9, e, f));

  Table<double> clamp(s, InnerMode::clamp);
  double e0, f0;
  clamp.eval(0.9, e0, f0);
  const double fdivr0 = f0 / 0.9;
  for (double r : {0.0, 0.3, 0.6, 0.89}) {
    ASSERT_TRUE(clamp.eval(r, e, f));
    EXPECT_NEAR(f, fdivr0 * r, 1e-9 * std::fabs(fdivr0));    // F/r held at the start value
    EXPECT_NEAR(e, e0 - 0.5 * fdivr0 * (r * r - 0.81),
                1e-9 * std::fabs(e0) + 1e-9);    // linear in r^2
  }
}

// ---- the two file forms of one potential (potentials/gauss_soft.*) -------------------

namespace {
const double GA = 8.0, GS = 0.5, GRC = 2.0;
double gauss_e(double r)
{
  auto g = [](double z) { return std::exp(-z / (2 * GS * GS)); };
  const double zc = GRC * GRC;
  return GA * (g(r * r) - g(zc) + g(zc) / (2 * GS * GS) * (r * r - zc));
}
double gauss_f(double r)
{
  const double zc = GRC * GRC;
  return -2.0 * r * GA * (-std::exp(-r * r / (2 * GS * GS)) + std::exp(-zc / (2 * GS * GS))) /
         (2 * GS * GS);
}
}    // namespace

TEST(TableR2Files, CoefficientFileMatchesAnalytic)
{
  auto sec =
      mesogpu::read_table_r2_section(MESOGPU_POTENTIALS_DIR "/gauss_soft.coeff", "GAUSS_SOFT");
  ASSERT_EQ(sec.kind, TableR2Section::Kind::coefficients);
  TableR2Spline s = mesogpu::make_table_r2_spline(sec, 0.0, 0);
  EXPECT_EQ(s.n, 400);
  EXPECT_LT(mesogpu::table_r2_max_c0_jump(s), 1e-12);
  Table<double> t(s);
  for (int i = 0; i < 1000; ++i) {
    const double r = 1.999 * (i + 0.5) / 1000;
    double e, f;
    ASSERT_TRUE(t.eval(r, e, f));
    EXPECT_NEAR(e, gauss_e(r), 1e-7 * GA);
    EXPECT_NEAR(f, gauss_f(r), 1e-5 * GA);
  }
}

TEST(TableR2Files, ResampledTableMatchesPythonFit)
{
  // the C++ resampling of the sample table and the independent Python fit of the
  // same potential on the same grid agree to the resampling accuracy
  auto tab =
      mesogpu::read_table_r2_section(MESOGPU_POTENTIALS_DIR "/gauss_soft.table", "GAUSS_SOFT");
  auto cof =
      mesogpu::read_table_r2_section(MESOGPU_POTENTIALS_DIR "/gauss_soft.coeff", "GAUSS_SOFT");
  TableR2Spline a = mesogpu::make_table_r2_spline(tab, 0.0, 400);
  TableR2Spline b = mesogpu::make_table_r2_spline(cof, 0.0, 0);
  ASSERT_EQ(a.n, b.n);
  EXPECT_NEAR(a.z_lo, b.z_lo, 1e-15);
  EXPECT_NEAR(a.dz, b.dz, 1e-15);
  Table<double> ta(a), tb(b);
  for (int i = 0; i < 1000; ++i) {
    const double r = 1.999 * (i + 0.5) / 1000;
    double ea, fa, eb, fb;
    ta.eval(r, ea, fa);
    tb.eval(r, eb, fb);
    EXPECT_NEAR(ea, eb, 1e-6 * GA) << "r = " << r;
    EXPECT_NEAR(fa, fb, 1e-4 * GA) << "r = " << r;
  }
}

TEST(TableR2Files, CutoffShortensGrid)
{
  auto tab =
      mesogpu::read_table_r2_section(MESOGPU_POTENTIALS_DIR "/gauss_soft.table", "GAUSS_SOFT");
  TableR2Spline s = mesogpu::make_table_r2_spline(tab, 1.5, 300);
  EXPECT_NEAR(s.z_hi(), 2.25, 1e-12);
  Table<double> t(s);
  double e, f;
  t.eval(1.2, e, f);
  EXPECT_NEAR(e, gauss_e(1.2), 1e-6);
}

// ---- reader: every malformed input stops with file, line and problem -----------------

namespace {
// expects a TableR2Error whose message holds `what` and, if line > 0, "line <line>"
void expect_error(const std::string &text, const std::string &keyword, int line,
                  const std::string &what, double cutoff = 0.0)
{
  std::string file = temp_file(text);
  try {
    auto sec = mesogpu::read_table_r2_section(file, keyword);
    mesogpu::make_table_r2_spline(sec, cutoff, 10);
    ADD_FAILURE() << "no error for: " << what;
  } catch (TableR2Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(what), std::string::npos) << "message: " << msg;
    EXPECT_NE(msg.find(file), std::string::npos) << "message lacks the file name: " << msg;
    EXPECT_EQ(e.line, line) << "message: " << msg;
    if (line > 0) {
      EXPECT_NE(msg.find("line " + std::to_string(line)), std::string::npos) << msg;
    }
  }
  std::remove(file.c_str());
}
const std::string good =
    "# ok\nPOT\nN 3 R 1.0 2.0\n\n1 1.0 3.0 2.0\n2 1.5 1.0 1.0\n3 2.0 0.0 0.0\n";
}    // namespace

TEST(TableR2Reader, GoodFileReads)
{
  std::string file = temp_file(good + "\nOTHER\nN 2\n1 0.5 1 1\n2 0.7 0 0\n");
  auto s = mesogpu::read_table_r2_section(file, "POT");
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.r[1], 1.5);
  auto o = mesogpu::read_table_r2_section(file, "OTHER");
  EXPECT_EQ(o.n, 2);
  EXPECT_DOUBLE_EQ(o.r[1], 0.7);
  std::remove(file.c_str());
}

TEST(TableR2Reader, RsqSpacingOverridesListedR)
{
  std::string file = temp_file("POT\nN 3 RSQ 1.0 3.0\n1 0 1 1\n2 1 0.5 0.5\n3 2 0 0\n");
  auto s = mesogpu::read_table_r2_section(file, "POT");
  EXPECT_DOUBLE_EQ(s.r[0], 1.0);
  EXPECT_NEAR(s.r[1], std::sqrt(5.0), 1e-15);
  EXPECT_DOUBLE_EQ(s.r[2], 3.0);
  std::remove(file.c_str());
}

TEST(TableR2Reader, MissingFile)
{
  try {
    mesogpu::read_table_r2_section("/nonexistent/dir/x.table", "POT");
    ADD_FAILURE();
  } catch (TableR2Error &e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}
TEST(TableR2Reader, MissingKeyword)
{
  expect_error(good, "NOPE", 0, "keyword 'NOPE' not found");
}
TEST(TableR2Reader, MissingNLine)
{
  expect_error("POT\n1 1.0 3.0 2.0\n", "POT", 2, "expected 'N n ...'");
}
TEST(TableR2Reader, EndAfterKeyword)
{
  expect_error("POT\n", "POT", 1, "end of file after keyword");
}
TEST(TableR2Reader, NotInteger)
{
  expect_error("POT\nN 3.5\n", "POT", 2, "expected an integer for N");
}
TEST(TableR2Reader, NTooSmall)
{
  expect_error("POT\nN 1\n1 1 1 1\n", "POT", 2, "N must be at least 2");
}
TEST(TableR2Reader, UnknownParameter)
{
  expect_error("POT\nN 3 RR 1 2\n", "POT", 2, "unknown parameter 'RR'");
}
TEST(TableR2Reader, Bitmap)
{
  expect_error("POT\nN 3 BITMAP 1 2\n", "POT", 2, "BITMAP tables are not supported");
}
TEST(TableR2Reader, BadRange)
{
  expect_error("POT\nN 3 R 2.0 1.0\n", "POT", 2, "needs 0 <= lo < hi");
}
TEST(TableR2Reader, RangeMissingValue)
{
  expect_error("POT\nN 3 R 2.0\n", "POT", 2, "needs two values");
}
TEST(TableR2Reader, TooFewLines)
{
  expect_error("POT\nN 4\n1 1.0 3.0 2.0\n2 1.5 1.0 1.0\n", "POT", 4,
               "end of file after 2 of N = 4");
}
TEST(TableR2Reader, NextSectionTooEarly)
{
  expect_error("POT\nN 3\n1 1.0 3.0 2.0\n2 1.5 1.0 1.0\nB\nN 2\n", "POT", 5, "expected 4 values");
}
TEST(TableR2Reader, TooManyLines)
{
  expect_error(good + "4 2.5 0.0 0.0\n", "POT", 8, "more data lines than N = 3");
}
TEST(TableR2Reader, WrongFieldCount)
{
  expect_error("POT\nN 3\n\n1 1.0 3.0 2.0\n2 1.5 1.0\n3 2.0 0 0\n", "POT", 5,
               "expected 4 values 'i r E F', got 3");
}
TEST(TableR2Reader, WrongIndex)
{
  expect_error("POT\nN 3\n1 1.0 3.0 2.0\n3 1.5 1.0 1.0\n3 2.0 0 0\n", "POT", 4,
               "line index 3 where 2 was expected");
}
TEST(TableR2Reader, NonIncreasingR)
{
  expect_error("POT\nN 3\n1 1.0 3.0 2.0\n2 1.0 1.0 1.0\n3 2.0 0 0\n", "POT", 4,
               "r values must increase");
}
TEST(TableR2Reader, NegativeR)
{
  expect_error("POT\nN 2\n1 -1.0 3.0 2.0\n2 1 1 1\n", "POT", 3, "r must not be negative");
}
TEST(TableR2Reader, NaN)
{
  expect_error("POT\nN 2\n1 1.0 nan 2.0\n2 2 1 1\n", "POT", 3, "E is not a finite number");
}
TEST(TableR2Reader, Inf)
{
  expect_error("POT\nN 2\n1 1.0 1.0 -inf\n2 2 1 1\n", "POT", 3, "F is not a finite number");
}
TEST(TableR2Reader, Garbage)
{
  expect_error("POT\nN 2\n1 1.0 abc 2.0\n2 2 1 1\n", "POT", 3, "expected a number for E");
}
TEST(TableR2Reader, CutoffAboveTable)
{
  expect_error(good, "POT", 0, "cutoff 2.5 lies outside table 'POT'", 2.5);
}
TEST(TableR2Reader, CutoffBelowTable)
{
  expect_error(good, "POT", 0, "cutoff 0.5 lies outside table 'POT'", 0.5);
}

TEST(TableR2Reader, CoefficientFormBadLine)
{
  expect_error("POT\nN 2 COEFF 0.0 1.0\n1 1 2 3 4\n2 1 2 3\n", "POT", 4,
               "expected 5 values 'k c0 c1 c2 c3', got 4");
}
TEST(TableR2Reader, CoefficientFormBadNumber)
{
  expect_error("POT\nN 2 COEFF 0.0 1.0\n1 1 2 3 4\n2 1 2 x 4\n", "POT", 4,
               "expected a number for a coefficient");
}
TEST(TableR2Reader, CoefficientFormWithR)
{
  expect_error("POT\nN 2 COEFF 0.0 1.0 R 0 1\n", "POT", 2,
               "COEFF cannot be combined with R or RSQ");
}
TEST(TableR2Reader, CoefficientCutoffOutside)
{
  expect_error("POT\nN 2 COEFF 0.5 1.0\n1 1 2 3 4\n2 1 2 3 4\n", "POT", 0, "lies outside table",
               1.2);
}

TEST(TableR2Reader, DuplicateKeyword)
{
  // the second section of the same name would be silently shadowed
  expect_error(good + "\nOTHER\nN 2\n1 0.5 1 1\n2 0.7 0 0\n\nPOT\nN 2\n1 0.5 1 1\n2 0.7 0 0\n",
               "POT", 14, "keyword 'POT' appears twice, at lines 2 and 14");
}

TEST(TableR2Reader, DuplicateKeywordRightAfterSection)
{
  expect_error(good + "POT\nN 2\n1 0.5 1 1\n2 0.7 0 0\n", "POT", 8,
               "keyword 'POT' appears twice, at lines 2 and 8");
}

TEST(TableR2Reader, CoefficientNotFinite)
{
  expect_error("POT\nN 1 COEFF 0.0 1.0\n1 1 inf 0 0\n", "POT", 3,
               "a coefficient is not a finite number");
}

TEST(TableR2Reader, RangeNotFinite)
{
  expect_error("POT\nN 2 R 1 nan\n", "POT", 2, "hi is not a finite number");
}

TEST(TableR2Reader, SplineOverflowIsAnError)
{
  // finite samples whose spline is not: E of +-1e308 between neighbours
  expect_error("POT\nN 3 R 1.0 2.0\n1 1.0 1e308 1e308\n2 1.5 -1e308 -1e308\n3 2.0 1e308 0\n", "POT",
               3, "is not finite (energies or forces too large)");
}

TEST(TableR2Reader, ListedRBesideTheGridIsCounted)
{
  std::string file =
      temp_file("POT\nN 4 RSQ 1.0 2.0\n1 1.0 3 2\n2 1.3 2 1\n3 1.6 1 1\n4 2.0 0 0\n");
  auto s = mesogpu::read_table_r2_section(file, "POT");
  std::remove(file.c_str());
  // RSQ: r_i = sqrt(1 + 3 i/3) = 1, 1.414, 1.732, 2: the middle two are listed wrong
  EXPECT_EQ(s.r_mismatch, 2);
  EXPECT_NEAR(s.r[1], std::sqrt(2.0), 1e-15);
}

TEST(TableR2Reader, ForcesNotMatchingEnergiesAreCounted)
{
  // E = 1/r with F = +1/r^2 (should be -dE/dr = 1/r^2 ... i.e. right) and one sign flip
  std::string text = "POT\nN 50 R 1.0 2.0\n";
  char line[128];
  for (int i = 0; i < 50; ++i) {
    const double r = 1.0 + i / 49.0;
    const double f = (i == 20) ? -1.0 / (r * r) : 1.0 / (r * r);
    snprintf(line, sizeof line, "%d %.17g %.17g %.17g\n", i + 1, r, 1.0 / r, f);
    text += line;
  }
  std::string file = temp_file(text);
  auto s = mesogpu::read_table_r2_section(file, "POT");
  std::remove(file.c_str());
  EXPECT_EQ(s.f_mismatch, 1);
  EXPECT_NEAR(s.f_mismatch_r, 1.0 + 20 / 49.0, 1e-12);
  EXPECT_NEAR(s.f_mismatch_max, 2.0 / std::pow(1.0 + 20 / 49.0, 2), 1e-3);
}

// ---- accuracy estimate of a resampled spline ------------------------------------------

TEST(TableR2Accuracy, CoarseLJIsFlaggedFineLJIsNot)
{
  static std::string file = write_table("LJ", 2000, 0.9, 2.5, lj_e, lj_f);
  auto sec = mesogpu::read_table_r2_section(file, "LJ");
  // N = 2: the spline through three knots cannot follow LJ: errors of order the table
  auto a2 = mesogpu::table_r2_spline_accuracy(sec, mesogpu::make_table_r2_spline(sec, 0.0, 2));
  EXPECT_GT(a2.err_e, 0.1);
  EXPECT_GT(a2.err_f, 0.1);
  EXPECT_NEAR(a2.scale_e, lj_e(0.9), 1e-9);
  EXPECT_NEAR(a2.scale_f, lj_f(0.9), 1e-7);
  // the estimate agrees with the true error against analytic LJ at the point it names
  Table<double> t2(mesogpu::make_table_r2_spline(sec, 0.0, 2));
  double e, f;
  t2.eval(a2.r_e, e, f);
  EXPECT_NEAR(std::fabs(e - lj_e(a2.r_e)) / a2.scale_e, a2.err_e, 1e-6);
  // N = 4000: far below the warning tolerance of pair_coeff (1e-4)
  auto a4 = mesogpu::table_r2_spline_accuracy(sec, mesogpu::make_table_r2_spline(sec, 0.0, 4000));
  EXPECT_LT(a4.err_e, 1e-8);
  EXPECT_LT(a4.err_f, 1e-6);
  // the error falls as dz^4 (energy) when N doubles: a real error estimate, not noise
  auto a100 = mesogpu::table_r2_spline_accuracy(sec, mesogpu::make_table_r2_spline(sec, 0.0, 100));
  auto a200 = mesogpu::table_r2_spline_accuracy(sec, mesogpu::make_table_r2_spline(sec, 0.0, 200));
  EXPECT_GT(a100.err_e / a200.err_e, 8.0);
}

TEST(TableR2Accuracy, ShippedTableAtExampleSettingIsAccurate)
{
  auto sec =
      mesogpu::read_table_r2_section(MESOGPU_POTENTIALS_DIR "/gauss_soft.table", "GAUSS_SOFT");
  auto a = mesogpu::table_r2_spline_accuracy(sec, mesogpu::make_table_r2_spline(sec, 0.0, 1000));
  EXPECT_LT(a.err_e, 1e-6);
  EXPECT_LT(a.err_f, 1e-5);
  EXPECT_EQ(sec.f_mismatch, 0);
  EXPECT_EQ(sec.r_mismatch, 0);
}

TEST(TableR2Accuracy, ScaleEnergyScalesEverything)
{
  static std::string file = write_table("LJ", 200, 0.9, 2.5, lj_e, lj_f);
  auto sec = mesogpu::read_table_r2_section(file, "LJ");
  mesogpu::scale_table_r2_energy(sec, 3.0);
  EXPECT_DOUBLE_EQ(sec.e[10], 3.0 * lj_e(sec.r[10]));
  EXPECT_DOUBLE_EQ(sec.f[10], 3.0 * lj_f(sec.r[10]));
}
