/* ----------------------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   pair_style table/r2; see pair_table_r2.h and doc/pair_table_r2.md.
------------------------------------------------------------------------- */

#include "pair_table_r2.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "neigh_list.h"
#include "table_r2_io.h"
#include "update.h"

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace LAMMPS_NS;
using mesogpu::physics::EvaluatorTableR2;
using mesogpu::physics::InnerMode;
using mesogpu::physics::TableR2View;

static const char cite_pair_table_r2[] =
    "pair table/r2 command: doi:10.1002/jcc.23365\n\n"
    "@Article{Zhu13,\n"
    " author = {Y.-L. Zhu and H. Liu and Z.-W. Li and H.-J. Qian and G. Milano and Z.-Y. Lu},\n"
    " title = {{GALAMOST}: {GPU}-Accelerated Large-Scale Molecular Simulation Toolkit},\n"
    " journal = {J.~Comput.\\ Chem.},\n"
    " year = 2013,\n"
    " volume = 34,\n"
    " pages = {2197--2211},\n"
    " doi = {10.1002/jcc.23365}\n"
    "}\n\n";

// a resampled spline whose energy or force differs from the table by more than this
// (relative to the table's largest |E| resp. |F|) draws a warning
static constexpr double SPLINE_TOLERANCE = 1e-4;

/* ---------------------------------------------------------------------- */

PairTableR2::PairTableR2(LAMMPS *lmp) :
    Pair(lmp), n_intervals(0), inner(InnerMode::error), tabindex(nullptr), cut(nullptr),
    offset(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(cite_pair_table_r2);
  restartinfo = 1;    // the fitted coefficients travel in the restart file
  writedata = 1;      // data files record file, keyword and cutoff of each pair
  single_enable = 1;
}

/* ---------------------------------------------------------------------- */

PairTableR2::~PairTableR2()
{
  if (copymode) return;
  deallocate();
}

void PairTableR2::deallocate()
{
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  memory->destroy(tabindex);
  memory->destroy(cut);
  memory->destroy(offset);
  allocated = 0;
}

/* ---------------------------------------------------------------------- */

TableR2View<double> PairTableR2::view(int itable) const
{
  const Table &t = tables[itable];
  TableR2View<double> v;
  v.coeff = t.coeff.data();
  v.z_lo = t.z_lo;
  v.dz = t.dz;
  v.inv_dz = 1.0 / t.dz;
  v.n = t.n;
  v.inner = inner;
  return v;
}

/* ---------------------------------------------------------------------- */

void PairTableR2::below_table(int itable, double rsq, tagint itag, tagint jtag)
{
  const Table &t = tables[itable];
  error->one(
      FLERR,
      "Pair table/r2: atoms {} and {} are {:.8g} apart, below the start {:.8g} of table '{}' "
      "in file {}; use a table that starts closer or 'pair_style table/r2 {} inner clamp'",
      itag, jtag, sqrt(rsq), sqrt(t.z_lo), t.keyword, t.file, n_intervals);
}

/* ---------------------------------------------------------------------- */

void PairTableR2::compute(int eflag, int vflag)
{
  int i, j, ii, jj, inum, jnum, itype, jtype;
  double xtmp, ytmp, ztmp, delx, dely, delz, evdwl, fpair, rsq, factor_lj;
  int *ilist, *jlist, *numneigh, **firstneigh;

  evdwl = 0.0;
  ev_init(eflag, vflag);

  double **x = atom->x;
  double **f = atom->f;
  int *type = atom->type;
  tagint *tag = atom->tag;
  int nlocal = atom->nlocal;
  double *special_lj = force->special_lj;
  int newton_pair = force->newton_pair;

  inum = list->inum;
  ilist = list->ilist;
  numneigh = list->numneigh;
  firstneigh = list->firstneigh;

  for (ii = 0; ii < inum; ii++) {
    i = ilist[ii];
    xtmp = x[i][0];
    ytmp = x[i][1];
    ztmp = x[i][2];
    itype = type[i];
    jlist = firstneigh[i];
    jnum = numneigh[i];

    for (jj = 0; jj < jnum; jj++) {
      j = jlist[jj];
      factor_lj = special_lj[sbmask(j)];
      j &= NEIGHMASK;

      delx = xtmp - x[j][0];
      dely = ytmp - x[j][1];
      delz = ztmp - x[j][2];
      rsq = delx * delx + dely * dely + delz * delz;
      jtype = type[j];

      if (rsq < cutsq[itype][jtype]) {
        const int itable = tabindex[itype][jtype];
        const TableR2View<double> t = view(itable);
        double energy;
        if (!EvaluatorTableR2<double>(rsq, t).evaluate(fpair, energy))
          below_table(itable, rsq, tag[i], tag[j]);
        fpair *= factor_lj;

        f[i][0] += delx * fpair;
        f[i][1] += dely * fpair;
        f[i][2] += delz * fpair;
        if (newton_pair || j < nlocal) {
          f[j][0] -= delx * fpair;
          f[j][1] -= dely * fpair;
          f[j][2] -= delz * fpair;
        }

        if (eflag) evdwl = factor_lj * (energy - offset[itype][jtype]);
        if (evflag) ev_tally(i, j, nlocal, newton_pair, evdwl, 0.0, fpair, delx, dely, delz);
      }
    }
  }

  if (vflag_fdotr) virial_fdotr_compute();
}

/* ---------------------------------------------------------------------- */

void PairTableR2::allocate()
{
  allocated = 1;
  const int np1 = atom->ntypes + 1;

  memory->create(setflag, np1, np1, "pair:setflag");
  memory->create(cutsq, np1, np1, "pair:cutsq");
  memory->create(tabindex, np1, np1, "pair:tabindex");
  memory->create(cut, np1, np1, "pair:cut");
  memory->create(offset, np1, np1, "pair:offset");
  for (int i = 0; i < np1; i++)
    for (int j = 0; j < np1; j++) {
      setflag[i][j] = 0;
      tabindex[i][j] = -1;
      cut[i][j] = 0.0;
      offset[i][j] = 0.0;
    }
}

/* ----------------------------------------------------------------------
   pair_style table/r2 N [inner error|clamp]
------------------------------------------------------------------------- */

void PairTableR2::settings(int narg, char **arg)
{
  if (narg < 1) utils::missing_cmd_args(FLERR, "pair_style table/r2", error);

  n_intervals = utils::inumeric(FLERR, arg[0], false, lmp);
  if (n_intervals < 2 || n_intervals > 100000000)
    error->all(FLERR,
               "Pair style table/r2: N = {} spline intervals is out of range (2 <= N <= 1e8)",
               n_intervals);

  inner = InnerMode::error;
  int iarg = 1;
  while (iarg < narg) {
    if (strcmp(arg[iarg], "inner") == 0) {
      if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, "pair_style table/r2 inner", error);
      if (strcmp(arg[iarg + 1], "error") == 0)
        inner = InnerMode::error;
      else if (strcmp(arg[iarg + 1], "clamp") == 0)
        inner = InnerMode::clamp;
      else
        error->all(FLERR, "Pair style table/r2: unknown inner mode '{}' (allowed: error, clamp)",
                   arg[iarg + 1]);
      iarg += 2;
    } else
      error->all(FLERR, "Pair style table/r2: unknown keyword '{}' (allowed: inner)", arg[iarg]);
  }

  // a new pair_style command discards all tables, as pair_style table does
  deallocate();
  tables.clear();
}

/* ---------------------------------------------------------------------- */

void PairTableR2::bcast_table(Table &t)
{
  MPI_Bcast(&t.n, 1, MPI_INT, 0, world);
  MPI_Bcast(&t.z_lo, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&t.dz, 1, MPI_DOUBLE, 0, world);
  MPI_Bcast(&t.cut, 1, MPI_DOUBLE, 0, world);
  t.coeff.resize(4 * (size_t) t.n);
  MPI_Bcast(t.coeff.data(), 4 * t.n, MPI_DOUBLE, 0, world);
}

/* ----------------------------------------------------------------------
   rank 0: find the file the LAMMPS way (as given, else in the folders of
   LAMMPS_POTENTIALS), check its UNITS: line against the units in use (metal and
   real are converted, as pair_style table does), read and fit the section.
   Problems that must stop the run go to message or throw TableR2Error.
------------------------------------------------------------------------- */

void PairTableR2::read_table(Table &t, std::string &message)
{
  const std::string path = utils::get_potential_file_path(t.file);
  if (path.empty()) {
    const char *env = getenv("LAMMPS_POTENTIALS");
    message = fmt::format("file {}: cannot open file (looked in the working directory and in "
                          "LAMMPS_POTENTIALS = {})",
                          t.file, env ? env : "(not set)");
    return;
  }

  const std::string date = utils::get_potential_date(path, "pair table/r2");
  if (!date.empty())
    utils::logmesg(lmp, "Reading pair table/r2 file {} with DATE: {}\n", path, date);
  const std::string units = utils::get_potential_units(path, "pair table/r2");
  const std::string unit_style = update->unit_style;
  double energy_factor = 1.0;
  if (!units.empty() && units != unit_style) {
    if (units == "metal" && unit_style == "real")
      energy_factor = utils::get_conversion_factor(utils::ENERGY, utils::METAL2REAL);
    else if (units == "real" && unit_style == "metal")
      energy_factor = utils::get_conversion_factor(utils::ENERGY, utils::REAL2METAL);
    else {
      message = fmt::format("file {} requires {} units (its UNITS: line) but {} units are in use",
                            path, units, unit_style);
      return;
    }
    error->warning(FLERR, "Pair table/r2: converting table '{}' of file {} from {} to {} units",
                   t.keyword, path, units, unit_style);
  }

  mesogpu::TableR2Section section = mesogpu::read_table_r2_section(path, t.keyword);
  if (energy_factor != 1.0) mesogpu::scale_table_r2_energy(section, energy_factor);
  if (section.r_mismatch > 0)
    error->warning(FLERR,
                   "Pair table/r2: {} of {} r values of table '{}' in file {} differ by more than "
                   "1e-6 relative from the grid its R/RSQ parameters define; the grid is used",
                   section.r_mismatch, section.n, t.keyword, path);

  if (section.f_mismatch > 0)
    error->warning(FLERR,
                   "Pair table/r2: {} of {} forces of table '{}' in file {} differ from -dE/dr of "
                   "its energies (central differences) by more than 0.01 x max |F|, up to {:.3g} x "
                   "max |F| at r = {:.6g}; the resampling uses F as the slope of E",
                   section.f_mismatch, section.n, t.keyword, path, section.f_mismatch_max,
                   section.f_mismatch_r);

  mesogpu::TableR2Spline spline = mesogpu::make_table_r2_spline(section, t.cut, n_intervals);
  if (section.kind == mesogpu::TableR2Section::Kind::coefficients) {
    const double jump = mesogpu::table_r2_max_c0_jump(spline);
    if (jump > 1e-6)
      error->warning(FLERR,
                     "Pair table/r2: coefficients of '{}' in {} are not continuous (largest "
                     "energy jump between intervals {:.3g} relative)",
                     t.keyword, path, jump);
  } else {
    // the resampled spline against the samples it came from; if that is poor, the same
    // for twice as many intervals tells the user whether a larger N helps
    const auto acc = mesogpu::table_r2_spline_accuracy(section, spline);
    if (acc.err_e > SPLINE_TOLERANCE || acc.err_f > SPLINE_TOLERANCE) {
      std::string finer;
      if (n_intervals <= 50000000) {
        const auto acc2 = mesogpu::table_r2_spline_accuracy(
            section, mesogpu::make_table_r2_spline(section, t.cut, 2 * n_intervals));
        finer = fmt::format("; with N = {} they would be {:.3g} and {:.3g}", 2 * n_intervals,
                            acc2.err_e, acc2.err_f);
      }
      error->warning(FLERR,
                     "Pair table/r2: the spline of N = {} intervals misses table '{}' of file {}: "
                     "energy error up to {:.3g} x max |E| ({:.4g}) at r = {:.6g}, force error up "
                     "to {:.3g} x max |F| ({:.4g}) at r = {:.6g} (tolerance {:g}){}. Increase N",
                     n_intervals, t.keyword, path, acc.err_e, acc.scale_e, acc.r_e, acc.err_f,
                     acc.scale_f, acc.r_f, SPLINE_TOLERANCE, finer);
    }
  }
  if (t.cut == 0.0) t.cut = std::sqrt(spline.z_hi());
  t.n = spline.n;
  t.z_lo = spline.z_lo;
  t.dz = spline.dz;
  t.coeff = std::move(spline.coeff);
}

/* ----------------------------------------------------------------------
   pair_coeff I J file keyword [cutoff]
------------------------------------------------------------------------- */

void PairTableR2::coeff(int narg, char **arg)
{
  if (narg != 4 && narg != 5)
    error->all(FLERR, "Pair coeff for table/r2: expected 'I J file keyword [cutoff]'");
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  double cut_one = 0.0;
  if (narg == 5) {
    cut_one = utils::numeric(FLERR, arg[4], false, lmp);
    if (cut_one <= 0.0)
      error->all(FLERR, "Pair coeff for table/r2: cutoff must be > 0, got {}", arg[4]);
  }

  Table t;
  t.file = arg[2];
  t.keyword = arg[3];
  t.cut = cut_one;

  // rank 0 reads and fits; an error message (if any) goes to every rank so all stop
  std::string message;
  if (comm->me == 0) {
    try {
      read_table(t, message);
    } catch (mesogpu::TableR2Error &e) {
      message = e.what();
    } catch (std::exception &e) {
      message = std::string("file ") + t.file + ": " + e.what();
    }
  }
  int len = static_cast<int>(message.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, world);
  if (len > 0) {
    message.resize(len);
    MPI_Bcast(&message[0], len, MPI_CHAR, 0, world);
    error->all(FLERR, "Pair table/r2: {}", message);
  }
  bcast_table(t);

  tables.push_back(std::move(t));
  const int itable = static_cast<int>(tables.size()) - 1;

  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      tabindex[i][j] = itable;
      cut[i][j] = tables[itable].cut;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0)
    error->all(FLERR, "Incorrect args for pair coefficients (no type pair I <= J in {} {})", arg[0],
               arg[1]);
}

/* ---------------------------------------------------------------------- */

double PairTableR2::init_one(int i, int j)
{
  // a tail correction needs the potential beyond the cutoff, which a table does not have
  if (tail_flag)
    error->all(FLERR, "Pair style table/r2 does not support 'pair_modify tail yes' (a table "
                      "ends at its cutoff; there is no analytic tail to integrate)");
  if (setflag[i][j] == 0)
    error->all(FLERR,
               "Pair table/r2: no table for atom types {} {} (tables are never mixed; give a "
               "pair_coeff for every type pair)",
               i, j);

  tabindex[j][i] = tabindex[i][j];
  cut[j][i] = cut[i][j];

  offset[i][j] = 0.0;
  if (offset_flag) {
    double fdummy;
    EvaluatorTableR2<double>(cut[i][j] * cut[i][j], view(tabindex[i][j]))
        .evaluate(fdummy, offset[i][j]);
  }
  offset[j][i] = offset[i][j];
  return cut[i][j];
}

/* ----------------------------------------------------------------------
   restart: settings, then per type pair the table itself, so a restarted run
   needs neither the original file nor a new pair_coeff
------------------------------------------------------------------------- */

void PairTableR2::write_restart_settings(FILE *fp)
{
  int inner_int = static_cast<int>(inner);
  fwrite(&n_intervals, sizeof(int), 1, fp);
  fwrite(&inner_int, sizeof(int), 1, fp);
  fwrite(&offset_flag, sizeof(int), 1, fp);
  fwrite(&mix_flag, sizeof(int), 1, fp);
}

void PairTableR2::read_restart_settings(FILE *fp)
{
  int inner_int = 0;
  if (comm->me == 0) {
    utils::sfread(FLERR, &n_intervals, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &inner_int, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &offset_flag, sizeof(int), 1, fp, nullptr, error);
    utils::sfread(FLERR, &mix_flag, sizeof(int), 1, fp, nullptr, error);
  }
  MPI_Bcast(&n_intervals, 1, MPI_INT, 0, world);
  MPI_Bcast(&inner_int, 1, MPI_INT, 0, world);
  MPI_Bcast(&offset_flag, 1, MPI_INT, 0, world);
  MPI_Bcast(&mix_flag, 1, MPI_INT, 0, world);
  inner = static_cast<InnerMode>(inner_int);
}

static void write_string(FILE *fp, const std::string &s)
{
  int len = static_cast<int>(s.size());
  fwrite(&len, sizeof(int), 1, fp);
  if (len) fwrite(s.data(), sizeof(char), len, fp);
}

void PairTableR2::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (setflag[i][j]) {
        const Table &t = tables[tabindex[i][j]];
        fwrite(&t.n, sizeof(int), 1, fp);
        fwrite(&t.z_lo, sizeof(double), 1, fp);
        fwrite(&t.dz, sizeof(double), 1, fp);
        fwrite(&t.cut, sizeof(double), 1, fp);
        fwrite(t.coeff.data(), sizeof(double), t.coeff.size(), fp);
        write_string(fp, t.file);
        write_string(fp, t.keyword);
      }
    }
}

void PairTableR2::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  tables.clear();

  auto read_string = [&](std::string &s) {
    int len = 0;
    if (comm->me == 0) utils::sfread(FLERR, &len, sizeof(int), 1, fp, nullptr, error);
    MPI_Bcast(&len, 1, MPI_INT, 0, world);
    s.resize(len);
    if (len) {
      if (comm->me == 0) utils::sfread(FLERR, &s[0], sizeof(char), len, fp, nullptr, error);
      MPI_Bcast(&s[0], len, MPI_CHAR, 0, world);
    }
  };

  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (comm->me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      Table t;
      if (comm->me == 0) {
        utils::sfread(FLERR, &t.n, sizeof(int), 1, fp, nullptr, error);
        utils::sfread(FLERR, &t.z_lo, sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &t.dz, sizeof(double), 1, fp, nullptr, error);
        utils::sfread(FLERR, &t.cut, sizeof(double), 1, fp, nullptr, error);
        if (t.n < 1 || t.n > 100000000)
          error->one(FLERR, "Pair table/r2: corrupt restart file (table of {} intervals)", t.n);
        t.coeff.resize(4 * (size_t) t.n);
        utils::sfread(FLERR, t.coeff.data(), sizeof(double), t.coeff.size(), fp, nullptr, error);
      }
      bcast_table(t);
      read_string(t.file);
      read_string(t.keyword);
      tables.push_back(std::move(t));
      tabindex[i][j] = static_cast<int>(tables.size()) - 1;
      cut[i][j] = tables.back().cut;
    }
}

/* ----------------------------------------------------------------------
   data files cannot hold a table: they record where each table came from,
   so read_data re-reads the same file and keyword with the same cutoff
------------------------------------------------------------------------- */

static std::string quoted(const std::string &s)
{
  if (s.find_first_of(" \t#") == std::string::npos) return s;
  return "\"" + s + "\"";
}

void PairTableR2::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++) {
    const Table &t = tables[tabindex[i][i]];
    utils::print(fp, "{} {} {} {:.17g}\n", i, quoted(t.file), quoted(t.keyword), cut[i][i]);
  }
}

void PairTableR2::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      const Table &t = tables[tabindex[i][j]];
      utils::print(fp, "{} {} {} {} {:.17g}\n", i, j, quoted(t.file), quoted(t.keyword), cut[i][j]);
    }
}

/* ---------------------------------------------------------------------- */

double PairTableR2::single(int i, int j, int itype, int jtype, double rsq, double /*factor_coul*/,
                           double factor_lj, double &fforce)
{
  const int itable = tabindex[itype][jtype];
  double energy;
  if (!EvaluatorTableR2<double>(rsq, view(itable)).evaluate(fforce, energy))
    below_table(itable, rsq, atom->tag[i], atom->tag[j]);
  fforce *= factor_lj;
  return factor_lj * (energy - offset[itype][jtype]);
}

/* ---------------------------------------------------------------------- */

void *PairTableR2::extract(const char *str, int &dim)
{
  dim = 2;
  if (strcmp(str, "cut") == 0) return (void *) cut;
  return nullptr;
}
