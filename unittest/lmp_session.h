/* One LAMMPS instance for a test, quiet, optionally with the cuda suffix and on a
   communicator of choice, and the
   small helpers the LAMMPS-level and GPU tests share. The plugin comes from
   LAMMPS_PLUGIN_PATH in the test environment. */
#ifndef MESOGPU_UNITTEST_LMP_SESSION_H
#define MESOGPU_UNITTEST_LMP_SESSION_H

#include "input.h"
#include "lammps.h"
#include "library.h"

#include <cmath>
#include <exception>
#include <mpi.h>
#include <string>
#include <vector>

struct LmpSession {
  LAMMPS_NS::LAMMPS *lmp;

  // comm: the ranks of this instance (a test on several ranks may also run references
  // on MPI_COMM_SELF)
  explicit LmpSession(bool suffix_cuda = false, MPI_Comm comm = MPI_COMM_WORLD)
  {
    LAMMPS_NS::LAMMPS::argv args = {"test", "-log",    "none", "-echo",
                                    "none", "-screen", "none", "-nocite"};
    if (suffix_cuda) {
      args.push_back("-sf");
      args.push_back("cuda");
    }
    lmp = new LAMMPS_NS::LAMMPS(args, comm);
  }
  ~LmpSession() { delete lmp; }
  LmpSession(const LmpSession &) = delete;
  LmpSession &operator=(const LmpSession &) = delete;

  void cmd(const std::string &s) { lmp->input->one(s); }
  void cmds(const std::vector<std::string> &v)
  {
    for (auto &s : v) cmd(s);
  }
  // runs the command and returns the LAMMPS error text ("" if none)
  std::string error_of(const std::string &s)
  {
    try {
      cmd(s);
    } catch (std::exception &e) {
      return e.what();
    }
    return "";
  }
  double thermo(const char *what) { return lammps_get_thermo(lmp, what); }
  // an equal-style variable evaluated now on the host data
  double variable(const char *name)
  {
    auto *p = (double *) lammps_extract_variable(lmp, name, nullptr);
    if (!p) return NAN;
    const double v = *p;
    lammps_free(p);
    return v;
  }
};

#endif
