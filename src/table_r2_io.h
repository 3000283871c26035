/* mesogpu: host-side construction of r^2-grid spline tables (doc/pair_table_r2.md).
 *
 * Reads one section of a table file, in either of two forms:
 *   - a LAMMPS pair table (as VOTCA writes it):
 *         KEYWORD
 *         N n [R lo hi | RSQ lo hi] [FP fplo fphi]
 *         i r E F          (n lines, i = 1..n, r increasing)
 *     resampled onto a uniform r^2 grid: E is interpolated in r with cubic Hermite
 *     polynomials that use F = -dE/dr as the slope, then one C2 cubic spline in r^2
 *     is fitted through the knot values with clamped ends (slope from the force);
 *   - per-interval spline coefficients (GALAMOST's numerical-potential form):
 *         KEYWORD
 *         N n COEFF rlo rhi
 *         k c0 c1 c2 c3    (n lines, k = 1..n; interval k covers
 *                           [rlo^2 + (k-1) dz, rlo^2 + k dz), dz = (rhi^2-rlo^2)/n)
 *     used as given, without resampling.
 * Nothing here depends on LAMMPS, so the unit tests exercise it directly. Problems
 * are reported by throwing TableR2Error with the file name and line number. */
#ifndef MESOGPU_TABLE_R2_IO_H
#define MESOGPU_TABLE_R2_IO_H

#include <stdexcept>
#include <string>
#include <vector>

namespace mesogpu {

class TableR2Error : public std::runtime_error {
 public:
  // line = 0 when the problem is not tied to a line (missing keyword, bad cutoff)
  TableR2Error(const std::string &file, int line, const std::string &what);
  const std::string file;
  const int line;
};

// One section as read from the file, before any fitting.
struct TableR2Section {
  enum class Kind { samples, coefficients };
  std::string file, keyword;
  Kind kind = Kind::samples;
  int n = 0;                        // data lines in the section
  int first_data_line = 0;          // line number of the first data line (for messages)
  std::vector<double> r, e, f;      // samples: r (after R/RSQ if given), energy, force
  double r_lo = 0.0, r_hi = 0.0;    // coefficients: grid bounds in r
  std::vector<double> coeff;        // coefficients: 4 n values
  int keyword_line = 0;             // line of the keyword (for messages)
  int r_mismatch = 0;               // samples with R/RSQ: listed r off the grid by > 1e-6 relative
  // samples: forces that differ from -dE/dr of the listed energies (central difference)
  // by more than 1% of the largest |F|, the largest such difference and where
  int f_mismatch = 0;
  double f_mismatch_max = 0.0, f_mismatch_r = 0.0;
};

// A ready table: what the evaluator needs (see src/physics/table_r2.h).
struct TableR2Spline {
  int n = 0;    // intervals
  double z_lo = 0.0, dz = 0.0;
  std::vector<double> coeff;    // 4 n values c0 c1 c2 c3 per interval
  double z_hi() const { return z_lo + n * dz; }
};

// Reads the section named keyword from file. Throws TableR2Error.
TableR2Section read_table_r2_section(const std::string &file, const std::string &keyword);

// Fits (samples) or adopts (coefficients) a spline that covers [r_lo, cutoff].
// cutoff <= 0 means the end of the table. n_intervals is used for samples only.
// Throws TableR2Error when the cutoff lies outside the table.
TableR2Spline make_table_r2_spline(const TableR2Section &section, double cutoff, int n_intervals);

// Spline through knot values v[0..n] on a uniform grid with spacing h. An end slope
// that is not finite selects a natural end (zero second derivative) there.
std::vector<double> fit_cubic_spline(const std::vector<double> &v, double h, double slope_lo,
                                     double slope_hi);

// Multiplies every energy (E and F of samples, all coefficients): unit conversion.
void scale_table_r2_energy(TableR2Section &section, double factor);

// How well a spline fitted from samples reproduces them: at every sample inside the
// spline's range (the listed E and F) and at the midpoint between neighbouring
// samples (the Hermite interpolant of the samples), the largest |error| of energy and
// force, each relative to the largest |E| resp. |F| there, and the r where it occurs.
struct TableR2Accuracy {
  double err_e = 0.0, err_f = 0.0;    // relative errors
  double r_e = 0.0, r_f = 0.0;        // where they occur
  double scale_e = 0.0, scale_f = 0.0;
};
TableR2Accuracy table_r2_spline_accuracy(const TableR2Section &section,
                                         const TableR2Spline &spline);

// Largest jump of the energy between neighbouring intervals, relative to the largest
// |c0|; a coefficient table written from one spline has ~1e-15.
double table_r2_max_c0_jump(const TableR2Spline &spline);

}    // namespace mesogpu

#endif
