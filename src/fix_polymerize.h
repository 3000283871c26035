/* -*- c++ -*- ----------------------------------------------------------
   mesogpu - GPU coarse-grained polymer methods for LAMMPS
   fix polymerize: GALAMOST's stochastic chain-growth polymerization (Zhu et al., J. Comput.
   Chem. 34, 2197 (2013), Algorithm 4). Every Nevery steps each active chain end bonds to
   one free monomer within the capture radius with probability P_r(type_i, type_j); the
   active end moves to the monomer. Decisions are counter-based random numbers of (seed,
   step, tag_i, tag_j) and an order-independent tie-break (src/physics/chain_growth.h), so
   any number of ranks forms the same bonds. Docs: doc/fix_polymerize.md.
------------------------------------------------------------------------- */

#ifndef MESOGPU_FIX_POLYMERIZE_H
#define MESOGPU_FIX_POLYMERIZE_H

#include "fix.h"

#include <vector>

namespace LAMMPS_NS {

class FixPolymerize : public Fix {
 public:
  FixPolymerize(class LAMMPS *, int, char **);
  ~FixPolymerize() override;

  int setmask() override;
  void init() override;
  void init_list(int, class NeighList *) override;
  void setup(int) override;
  void post_integrate() override;

  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;
  void write_restart(FILE *) override;
  void restart(char *) override;

  double compute_vector(int) override;
  double memory_usage() override;

  // per-atom state, columns: 0 init (1 = active end), 1 cris (reaction-made bonds),
  // 2 position in the grown chain (monomers from the initiator; the end's is the chain's DP)
  double **state = nullptr;

 protected:
  int seed;
  double rc, rcsq;
  int btype, atype = 0;
  std::vector<double> prob;    // (ntypes+1)^2, P_r(itype, jtype)
  std::vector<int> newtype;    // captured monomer of type t becomes newtype[t]
  int init_groupbit = 0;
  class NeighList *list = nullptr;

  // levels of the special list LAMMPS's Special::build keeps for these special_bonds
  int special_levels = 3;

  bigint n_monomers0 = -1;    // free monomers in the group when the fix started
  bigint n_made_total = 0, n_made_last = 0;

  // scratch per atom (owned + ghost), reaction steps only
  int nmax_scratch = 0;
  tagint *best = nullptr;            // end: monomer it chose
  double *ubest = nullptr;           // its random number
  tagint *winner = nullptr;          // monomer: end it goes to
  tagint *finalpartner = nullptr;    // atom's new bond partner in this step
  int commflag = 0;

  std::vector<tagint> created;    // pairs (tag, tag) of this step's bonds
  std::vector<tagint> copy;       // rebuilt special list of one atom
  int nangles_new = 0, angle_overflow = 0;

  bigint stats_step = -1;
  double stats[8] = {0, 0, 0, 0, 0, 0, 0, 0};

  // the occasional full neighbour list of react() (fix polymerize/cuda's resident runs
  // on one rank find the monomers in the device list and need none)
  virtual bool wants_host_list() { return true; }

  void react();
  void add_bond(int i, tagint partner);
  void add_special12(int i, tagint partner);
  void update_topology();
  void rebuild_special_one(int m);
  void create_angles(int m);
  int dedup(int nstart, int nstop);
  void compute_stats();
  int map_or_die(tagint t);
};

}    // namespace LAMMPS_NS

#endif
