/* mesogpu - command "ptmc": parallel-tempering Monte Carlo of bead-spring polymers, CPU
   reference. Setup (model read from the LAMMPS pair/bond objects), the sweep loop, replica
   swaps, restart and write-back; the outputs are in ptmc_analysis.cpp. Replica r runs on
   rank r mod nprocs (its arithmetic does not depend on the rank: identical results on any
   rank count); energies and accepted counts reach all ranks after each sweep, positions at
   dumps and at the end; swaps, statistics and tuning are done by every rank alike; rank 0
   writes the files. */

#include "ptmc_command.h"

#include "MOLECULE/bond_fene.h"
#include "MOLECULE/bond_fene_expand.h"
#include "pair_lj_cut.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "irregular.h"
#include "memory.h"
#include "platform.h"
#include "update.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

using namespace LAMMPS_NS;
using namespace mesogpu::physics;

namespace {
const char cite_ptmc[] =
    "ptmc command (mesogpu): J. Gross, W. Janke, M. Bachmann, Physics Procedia 15, 29 (2011)\n\n"
    "@Article{Gross2011,\n"
    " author = {J. Gross and W. Janke and M. Bachmann},\n"
    " title = {A {GPU} approach to parallel replica-exchange polymer simulations},\n"
    " journal = {Physics Procedia},\n"
    " year = 2011,\n"
    " volume = 15,\n"
    " pages = {29--32}\n"
    "}\n\n";

// read access to the coefficient arrays LAMMPS keeps protected (pointers to members named
// through a derived class: no object of these classes is ever made)
struct LJPeek : PairLJCut {
  static double **PairLJCut::*lj3p() { return &LJPeek::lj3; }
  static double **PairLJCut::*lj4p() { return &LJPeek::lj4; }
  static double **PairLJCut::*offsetp() { return &LJPeek::offset; }
};
struct FENEPeek : BondFENE {
  static double *BondFENE::*kp() { return &FENEPeek::k; }
  static double *BondFENE::*r0p() { return &FENEPeek::r0; }
  static double *BondFENE::*epsp() { return &FENEPeek::epsilon; }
  static double *BondFENE::*sigp() { return &FENEPeek::sigma; }
};
struct FENEExpandPeek : BondFENEExpand {
  static double *BondFENEExpand::*kp() { return &FENEExpandPeek::k; }
  static double *BondFENEExpand::*r0p() { return &FENEExpandPeek::r0; }
  static double *BondFENEExpand::*epsp() { return &FENEExpandPeek::epsilon; }
  static double *BondFENEExpand::*sigp() { return &FENEExpandPeek::sigma; }
  static double *BondFENEExpand::*shiftp() { return &FENEExpandPeek::shift; }
};

const std::set<std::string> keywords = {"temp",  "seed",   "swap",   "delta", "tune",
                                        "equil", "sample", "output", "bins",  "cv",
                                        "dump",  "keep",   "read",   "write", "gpu"};
}    // namespace

void PTMC::command(int narg, char **arg)
{
  if (lmp->citeme) lmp->citeme->add(cite_ptmc);
  parse(narg, arg);
  check_system();
  lmp->init();    // pair/bond coefficients mixed, cutoffs set
  build_model();

  std::vector<double> x0;
  gather_atoms(x0);
  build_model();    // type[] known now: finish the model struct
  x.resize((size_t) M * 3 * n);
  energy.assign(M, 0.0);
  temp_of.resize(M);
  rep_at.resize(M);
  win_acc.assign(M, 0);
  win_try.assign(M, 0);
  if (restart_in.empty()) {
    for (int r = 0; r < M; ++r) {
      std::copy(x0.begin(), x0.end(), x.begin() + (size_t) r * 3 * n);
      temp_of[r] = rep_at[r] = r;
      if (!ptmc_total_energy(model, x0.data(), energy[r]))
        error->all(FLERR, "ptmc: a FENE bond of the initial configuration is at or beyond its "
                          "maximum extension");
    }
  } else
    read_restart();

  acc.assign(M, 0);
  tries.assign(M, 0);
  swap_acc.assign(M, 0);
  swap_try.assign(M, 0);
  swap_expect.assign(M, 0.0);
  samples_e.clear();
  samples_rg2.clear();
  if (comm->me == 0 && !prefix.empty()) {
    const std::string name = prefix + ".energy";
    efile = fopen(name.c_str(), sweep > 0 && !restart_in.empty() ? "a" : "w");
    if (!efile) error->one(FLERR, "ptmc: cannot open {}", name);
    if (ftell(efile) == 0) {
      fprintf(efile, "# ptmc energies: sweep, then the energy at each temperature (before "
                     "that sweep's swap)\n# sweep");
      for (int k = 0; k < M; ++k) fprintf(efile, " E(T=%.10g)", temps[k]);
      fprintf(efile, "\n");
    }
  }
  if (comm->me == 0 && restart_in.empty())    // a fresh run starts its dump files anew
    for (int k : dump_temps) {
      FILE *fp = fopen((dump_file + "." + std::to_string(k + 1)).c_str(), "w");
      if (fp) fclose(fp);
    }
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "ptmc: {} monomers in {} chain(s), {} replicas T = {:.6g} .. {:.6g}, "
                   "sweeps {} .. {}\n",
                   n, chains.size(), M, temps.front(), temps.back(), sweep, sweep + nsweeps);

  const double t0 = platform::walltime();
  if (use_gpu)
    run_gpu();
  else
    for (bigint s = 0; s < nsweeps; ++s) {
      one_sweep();
      after_sweep(nullptr);
    }
  sweep_seconds = platform::walltime() - t0;
  sync_positions();
  if (efile) fclose(efile);
  efile = nullptr;

  outputs();
  if (!restart_out.empty()) write_restart();
  if (keep >= 0) write_back(keep);
}

void PTMC::parse(int narg, char **arg)
{
  if (narg < 1) utils::missing_cmd_args(FLERR, "ptmc", error);
  nsweeps = utils::bnumeric(FLERR, arg[0], false, lmp);
  if (nsweeps < 0) error->all(FLERR, "ptmc: number of sweeps {} < 0", nsweeps);
  std::vector<double> dlist;
  int iarg = 1;
  auto need = [&](int k) {
    if (iarg + k >= narg) utils::missing_cmd_args(FLERR, std::string("ptmc ") + arg[iarg], error);
  };
  while (iarg < narg) {
    const std::string kw = arg[iarg];
    if (kw == "temp") {
      need(1);
      temps.clear();
      if (strcmp(arg[iarg + 1], "geom") == 0) {
        need(4);
        const double t0 = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
        const double t1 = utils::numeric(FLERR, arg[iarg + 3], false, lmp);
        const int m = utils::inumeric(FLERR, arg[iarg + 4], false, lmp);
        if (m < 2) error->all(FLERR, "ptmc temp geom: need at least 2 temperatures, got {}", m);
        if (t0 <= 0.0 || t1 <= 0.0)
          error->all(FLERR, "ptmc temp geom: temperatures must be positive");
        for (int k = 0; k < m; ++k) temps.push_back(t0 * pow(t1 / t0, double(k) / (m - 1)));
        temps.back() = t1;
        iarg += 5;
      } else if (strcmp(arg[iarg + 1], "list") == 0) {
        iarg += 2;
        while (iarg < narg && !keywords.count(arg[iarg]))
          temps.push_back(utils::numeric(FLERR, arg[iarg++], false, lmp));
      } else
        error->all(FLERR, "ptmc temp: expected 'list' or 'geom', got '{}'", arg[iarg + 1]);
    } else if (kw == "seed") {
      need(1);
      const bigint s = utils::bnumeric(FLERR, arg[iarg + 1], false, lmp);
      if (s <= 0 || s > 0xFFFFFFFFLL) error->all(FLERR, "ptmc seed must be in 1 .. 2^32-1");
      seed = (unsigned) s;
      iarg += 2;
    } else if (kw == "swap") {
      need(1);
      swap_every = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (swap_every < 1) error->all(FLERR, "ptmc swap interval must be >= 1");
      iarg += 2;
    } else if (kw == "delta") {
      need(1);
      dlist.clear();
      ++iarg;
      while (iarg < narg && !keywords.count(arg[iarg]))
        dlist.push_back(utils::numeric(FLERR, arg[iarg++], false, lmp));
      for (double d : dlist)
        if (d <= 0.0) error->all(FLERR, "ptmc delta must be positive, got {}", d);
    } else if (kw == "tune") {
      need(2);
      tune_target = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      tune_window = utils::inumeric(FLERR, arg[iarg + 2], false, lmp);
      if (tune_target <= 0.0 || tune_target >= 1.0)
        error->all(FLERR, "ptmc tune: target acceptance must be in (0, 1)");
      if (tune_window < 1) error->all(FLERR, "ptmc tune: window must be >= 1 sweep");
      iarg += 3;
    } else if (kw == "equil") {
      need(1);
      nequil = utils::bnumeric(FLERR, arg[iarg + 1], false, lmp);
      if (nequil < 0) error->all(FLERR, "ptmc equil must be >= 0");
      iarg += 2;
    } else if (kw == "sample") {
      need(1);
      sample_every = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (sample_every < 1) error->all(FLERR, "ptmc sample interval must be >= 1");
      iarg += 2;
    } else if (kw == "output") {
      need(1);
      prefix = arg[iarg + 1];
      iarg += 2;
    } else if (kw == "bins" || kw == "cv") {
      need(1);
      const int v = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (v < 1) error->all(FLERR, "ptmc {} must be >= 1", kw);
      (kw == "bins" ? nbins : ncv) = v;
      iarg += 2;
    } else if (kw == "dump") {
      need(2);
      dump_every = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (dump_every < 1) error->all(FLERR, "ptmc dump interval must be >= 1");
      dump_file = arg[iarg + 2];
      iarg += 3;
      dump_temps.clear();
      while (iarg < narg && !keywords.count(arg[iarg]))
        dump_temps.push_back(utils::inumeric(FLERR, arg[iarg++], false, lmp) - 1);
      if (dump_temps.empty()) error->all(FLERR, "ptmc dump: name at least one temperature index");
    } else if (kw == "keep") {
      need(1);
      keep = utils::inumeric(FLERR, arg[iarg + 1], false, lmp) - 1;
      iarg += 2;
    } else if (kw == "read" || kw == "write") {
      need(1);
      (kw == "read" ? restart_in : restart_out) = arg[iarg + 1];
      iarg += 2;
    } else if (kw == "gpu") {
      need(1);
      use_gpu = utils::logical(FLERR, arg[iarg + 1], false, lmp);
      iarg += 2;
    } else
      error->all(FLERR, "ptmc: unknown keyword '{}'", kw);
  }
  if (temps.empty()) error->all(FLERR, "ptmc: no temperature ladder (keyword temp)");
  if (seed == 0) error->all(FLERR, "ptmc: keyword seed is required");
  M = (int) temps.size();
  for (int k = 0; k < M; ++k) {
    if (!(temps[k] > 0.0))
      error->all(FLERR, "ptmc: temperature {} = {} is not positive", k + 1, temps[k]);
    if (k > 0 && !(temps[k] > temps[k - 1]))
      error->all(FLERR, "ptmc: temperature ladder not increasing at T{} = {} <= T{} = {}", k + 1,
                 temps[k], k, temps[k - 1]);
  }
  if (dlist.empty()) dlist.push_back(0.1);
  if (dlist.size() != 1 && (int) dlist.size() != M)
    error->all(FLERR, "ptmc delta: give 1 or {} values (one per temperature), got {}", M,
               dlist.size());
  delta.assign(M, dlist[0]);
  if (dlist.size() > 1) delta = dlist;
  beta.resize(M);
  for (int k = 0; k < M; ++k) beta[k] = 1.0 / (force->boltz * temps[k]);
  for (int k : dump_temps)
    if (k < 0 || k >= M)
      error->all(FLERR, "ptmc dump: temperature index {} not in 1 .. {}", k + 1, M);
  if (keep != -1 && (keep < 0 || keep >= M))
    error->all(FLERR, "ptmc keep: temperature index {} not in 1 .. {}", keep + 1, M);
  if (use_gpu) check_gpu();
}

// the system must be what ptmc models: checked before LAMMPS's init, which would stop
// on a style without coefficients first
void PTMC::check_system()
{
  if (domain->triclinic) error->all(FLERR, "ptmc supports orthogonal boxes only");
  if (!atom->molecular) error->all(FLERR, "ptmc needs atom_style bond or molecular");
  if (atom->nbonds == 0) error->all(FLERR, "ptmc needs bonds (bead-spring chains): none defined");
  if (atom->natoms > 1000000) error->all(FLERR, "ptmc: {} atoms is too many", atom->natoms);
  if (!force->pair || strcmp(force->pair_style, "lj/cut") != 0)
    error->all(FLERR, "ptmc supports pair_style lj/cut only, not '{}'",
               force->pair ? force->pair_style : "none");
  if (!force->bond ||
      (strcmp(force->bond_style, "fene") != 0 && strcmp(force->bond_style, "fene/expand") != 0))
    error->all(FLERR, "ptmc supports bond_style fene or fene/expand only, not '{}'",
               force->bond ? force->bond_style : "none");
  if (atom->nangles || atom->ndihedrals || atom->nimpropers)
    error->all(FLERR, "ptmc handles pair and bond energies only: the system has angles, "
                      "dihedrals or impropers");
  if (force->kspace) error->all(FLERR, "ptmc does not support kspace styles");
  if (force->pair->tail_flag) error->all(FLERR, "ptmc does not support pair_modify tail yes");
  if (force->special_angle || force->special_dihedral)
    error->all(FLERR, "ptmc does not support special_bonds angle/dihedral yes");
}

void PTMC::build_model()
{
  if (type.empty()) {    // first call: check the system and read the coefficients
    const int nt = atom->ntypes;
    auto *p = static_cast<PairLJCut *>(force->pair);
    double **lj3 = p->*LJPeek::lj3p(), **lj4 = p->*LJPeek::lj4p(), **off = p->*LJPeek::offsetp();
    lj.assign((size_t) (nt + 1) * (nt + 1), PtmcLJ{0, 0, 0, 0});
    for (int i = 1; i <= nt; ++i)
      for (int j = 1; j <= nt; ++j)
        lj[i * (nt + 1) + j] = {lj3[i][j], lj4[i][j], off[i][j], p->cutsq[i][j]};
    const int nb = atom->nbondtypes;
    fene.assign(nb + 1, PtmcFENE{0, 1, 0, 0, 0});
    for (int t = 1; t <= nb; ++t) {
      if (strcmp(force->bond_style, "fene") == 0) {
        auto *b = static_cast<BondFENE *>(force->bond);
        fene[t] = {(b->*FENEPeek::kp())[t], (b->*FENEPeek::r0p())[t], (b->*FENEPeek::epsp())[t],
                   (b->*FENEPeek::sigp())[t], 0.0};
      } else {
        auto *b = static_cast<BondFENEExpand *>(force->bond);
        fene[t] = {(b->*FENEExpandPeek::kp())[t], (b->*FENEExpandPeek::r0p())[t],
                   (b->*FENEExpandPeek::epsp())[t], (b->*FENEExpandPeek::sigp())[t],
                   (b->*FENEExpandPeek::shiftp())[t]};
      }
    }
    double maxcut = 0.0;
    for (auto &q : lj) maxcut = std::max(maxcut, q.cutsq);
    maxcut = sqrt(maxcut);
    for (int d = 0; d < 3; ++d)
      if (domain->periodicity[d] && domain->prd[d] < 2.0 * maxcut)
        error->all(FLERR, "ptmc: periodic box length {} < twice the pair cutoff {}", domain->prd[d],
                   maxcut);
    return;
  }
  model.n = n;
  model.ntypes = atom->ntypes;
  model.type = type.data();
  model.lj = lj.data();
  model.fene = fene.data();
  model.bond_start = bond_start.data();
  model.bond_partner = bond_partner.data();
  model.bond_type = bond_type.data();
  model.special_start = special_start.data();
  model.special_partner = special_partner.data();
  model.special_weight = special_weight.data();
  for (int d = 0; d < 3; ++d) {
    model.prd[d] = domain->prd[d];
    model.periodic[d] = domain->periodicity[d];
  }
}

// every rank gets all monomers (index = atom ID - 1), their types and the bonds
void PTMC::gather_atoms(std::vector<double> &x0)
{
  n = (int) atom->natoms;
  tagint tmax = 0;
  for (int i = 0; i < atom->nlocal; ++i) tmax = std::max(tmax, atom->tag[i]);
  tagint tall;
  MPI_Allreduce(&tmax, &tall, 1, MPI_LMP_TAGINT, MPI_MAX, world);
  if (tall != n) error->all(FLERR, "ptmc needs atom IDs 1 .. {} (largest is {})", n, tall);
  std::vector<double> xl(3 * n, 0.0);
  std::vector<int> tl(n, 0);
  std::vector<int> mine;    // bonds of local atoms: (tag_i, tag_j, type)
  for (int i = 0; i < atom->nlocal; ++i) {
    const int a = (int) atom->tag[i] - 1;
    domain->unmap(atom->x[i], atom->image[i], &xl[3 * a]);
    tl[a] = atom->type[i];
    for (int m = 0; m < atom->num_bond[i]; ++m)
      if (atom->bond_type[i][m] > 0) {
        mine.push_back(a);
        mine.push_back((int) atom->bond_atom[i][m] - 1);
        mine.push_back(atom->bond_type[i][m]);
      }
  }
  x0.resize(3 * n);
  type.resize(n);
  MPI_Allreduce(xl.data(), x0.data(), 3 * n, MPI_DOUBLE, MPI_SUM, world);
  MPI_Allreduce(tl.data(), type.data(), n, MPI_INT, MPI_MAX, world);
  int nmine = (int) mine.size(), nprocs = comm->nprocs;
  std::vector<int> counts(nprocs), displs(nprocs, 0);
  MPI_Allgather(&nmine, 1, MPI_INT, counts.data(), 1, MPI_INT, world);
  for (int p = 1; p < nprocs; ++p) displs[p] = displs[p - 1] + counts[p - 1];
  std::vector<int> all(displs[nprocs - 1] + counts[nprocs - 1]);
  MPI_Allgatherv(mine.data(), nmine, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT,
                 world);

  // bonds once per pair (newton_bond off stores them at both atoms), CSR at both ends
  std::map<std::pair<int, int>, int> bonds;
  for (size_t b = 0; b < all.size(); b += 3)
    bonds[{std::min(all[b], all[b + 1]), std::max(all[b], all[b + 1])}] = all[b + 2];
  std::vector<std::vector<std::pair<int, int>>> adj(n);
  for (auto &b : bonds) {
    adj[b.first.first].push_back({b.first.second, b.second});
    adj[b.first.second].push_back({b.first.first, b.second});
  }
  bond_start.assign(1, 0);
  bond_partner.clear();
  bond_type.clear();
  for (int i = 0; i < n; ++i) {
    for (auto &p : adj[i]) {
      bond_partner.push_back(p.first);
      bond_type.push_back(p.second);
    }
    bond_start.push_back((int) bond_partner.size());
  }
  // special partners: graph distance 1, 2, 3 along bonds, weight special_lj[distance]
  special_start.assign(1, 0);
  special_partner.clear();
  special_weight.clear();
  for (int i = 0; i < n; ++i) {
    std::map<int, int> dist{{i, 0}};
    std::vector<int> front{i};
    for (int d = 1; d <= 3; ++d) {
      std::vector<int> next;
      for (int a : front)
        for (auto &p : adj[a])
          if (!dist.count(p.first)) {
            dist[p.first] = d;
            next.push_back(p.first);
          }
      front = next;
    }
    for (auto &q : dist)
      if (q.second > 0 && force->special_lj[q.second] != 1.0) {
        special_partner.push_back(q.first);
        special_weight.push_back(force->special_lj[q.second]);
      }
    special_start.push_back((int) special_partner.size());
  }
  // chains: connected components, for the radius of gyration
  std::vector<int> seen(n, 0);
  chains.clear();
  for (int i = 0; i < n; ++i) {
    if (seen[i]) continue;
    std::vector<int> c{i}, stack{i};
    seen[i] = 1;
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      for (auto &p : adj[a])
        if (!seen[p.first]) {
          seen[p.first] = 1;
          c.push_back(p.first);
          stack.push_back(p.first);
        }
    }
    chains.push_back(c);
  }
}

// the replicas r = me, me + nprocs, ... of this rank; the accepted counts and energies of
// all replicas then reach every rank (one sum over ranks, exact: one owner each)
void PTMC::one_sweep()
{
  const bool production = sweep >= nequil;
  const int np = comm->nprocs;
  std::vector<double> buf(2 * (size_t) M, 0.0);
  for (int r = comm->me; r < M; r += np) {
    const int k = temp_of[r];
    double *xr = x.data() + (size_t) r * 3 * n;
    bigint a = 0;
    for (int t = 0; t < n; ++t)
      a += ptmc_trial(model, xr, seed, r, sweep, t, delta[k], beta[k], energy[r]);
    buf[r] = (double) a;
    buf[M + r] = energy[r];
  }
  if (np > 1) MPI_Allreduce(MPI_IN_PLACE, buf.data(), 2 * M, MPI_DOUBLE, MPI_SUM, world);
  for (int r = 0; r < M; ++r) record_sweep(r, (bigint) buf[r], buf[M + r], production);
  ++sweep;
}

// replica r's accepted trials and energy after one sweep, counted at its temperature
// (both paths)
void PTMC::record_sweep(int r, bigint accepted, double e, bool production)
{
  const int k = temp_of[r];
  energy[r] = e;
  win_acc[k] += accepted;
  win_try[k] += n;
  if (production) {
    acc[k] += accepted;
    tries[k] += n;
  }
}

// every rank gets the positions of every replica from its owner (CPU path on several ranks)
void PTMC::sync_positions()
{
  if (comm->nprocs == 1 || use_gpu) return;
  for (int r = 0; r < M; ++r)
    MPI_Bcast(x.data() + (size_t) r * 3 * n, 3 * n, MPI_DOUBLE, r % comm->nprocs, world);
}

// what follows sweep c = sweep (both paths): tuning, window, sample, swap, dump.
// rg2_by_replica: Rg^2 of each replica now (the device's), or null (computed here)
void PTMC::after_sweep(const double *rg2_by_replica)
{
  const bigint c = sweep;
  if (tune_target > 0.0 && c <= nequil && c % tune_window == 0) tune();
  if (c % tune_window == 0) {
    std::fill(win_acc.begin(), win_acc.end(), 0);
    std::fill(win_try.begin(), win_try.end(), 0);
  }
  if (c > nequil && (c - nequil) % sample_every == 0) {
    std::vector<double> rg;    // several ranks: Rg^2 from each replica's owner
    if (!rg2_by_replica && comm->nprocs > 1) {
      rg.assign(M, 0.0);
      for (int r = comm->me; r < M; r += comm->nprocs) rg[r] = rg2(x.data() + (size_t) r * 3 * n);
      MPI_Allreduce(MPI_IN_PLACE, rg.data(), M, MPI_DOUBLE, MPI_SUM, world);
      rg2_by_replica = rg.data();
    }
    sample(rg2_by_replica);
  }
  if (M > 1 && c % swap_every == 0) swap_step();
  if (dump_every > 0 && c % dump_every == 0) {
    sync_positions();
    dump_frames();
  }
}

void PTMC::swap_step()
{
  const bigint q = sweep / swap_every;
  const bool production = sweep > nequil;
  for (int k = (int) (q % 2); k + 1 < M; k += 2) {
    const int ra = rep_at[k], rb = rep_at[k + 1];
    const double u = ptmc_swap_uniform(seed, k, q);
    const bool a = ptmc_swap_accept(energy[ra], energy[rb], beta[k], beta[k + 1], u);
    if (production) {
      ++swap_try[k];
      swap_acc[k] += a;
      swap_expect[k] += std::min(1.0, exp((energy[ra] - energy[rb]) * (beta[k] - beta[k + 1])));
    }
    if (a) {
      std::swap(rep_at[k], rep_at[k + 1]);
      temp_of[ra] = k + 1;
      temp_of[rb] = k;
    }
  }
}

void PTMC::tune()
{
  double dmax = 1e30;
  for (int d = 0; d < 3; ++d)
    if (domain->periodicity[d]) dmax = std::min(dmax, 0.25 * domain->prd[d]);
  for (int k = 0; k < M; ++k) {
    if (win_try[k] == 0) continue;
    const double rate = double(win_acc[k]) / win_try[k];
    const double f = std::min(1.5, std::max(0.5, rate / tune_target));
    delta[k] = std::min(dmax, std::max(1e-6, delta[k] * f));
  }
}

double PTMC::rg2(const double *xr) const
{
  double s = 0.0;
  for (auto &c : chains) s += ptmc_rg2(xr, c.data(), (int) c.size());
  return s / chains.size();
}

void PTMC::sample(const double *rg2_by_replica)
{
  if (efile) fprintf(efile, BIGINT_FORMAT, sweep);
  for (int k = 0; k < M; ++k) {
    const int r = rep_at[k];
    samples_e.push_back(energy[r]);
    samples_rg2.push_back(rg2_by_replica ? rg2_by_replica[r] : rg2(x.data() + (size_t) r * 3 * n));
    if (efile) fprintf(efile, " %.17g", energy[r]);
  }
  if (efile) fprintf(efile, "\n");
}

// the replica at temperature index k becomes the LAMMPS configuration (as displace_atoms)
void PTMC::write_back(int k)
{
  const double *xr = x.data() + (size_t) rep_at[k] * 3 * n;
  const imageint zero = ((imageint) IMGMAX << IMG2BITS) | ((imageint) IMGMAX << IMGBITS) | IMGMAX;
  for (int i = 0; i < atom->nlocal; ++i) {
    const int a = (int) atom->tag[i] - 1;
    for (int d = 0; d < 3; ++d) atom->x[i][d] = xr[3 * a + d];
    atom->image[i] = zero;
    domain->remap(atom->x[i], atom->image[i]);
  }
  domain->reset_box();
  Irregular irregular(lmp);
  irregular.migrate_atoms(1);
  bigint nall, nl = atom->nlocal;
  MPI_Allreduce(&nl, &nall, 1, MPI_LMP_BIGINT, MPI_SUM, world);
  if (nall != atom->natoms) error->all(FLERR, "ptmc keep: atoms lost (outside a fixed boundary)");
}
