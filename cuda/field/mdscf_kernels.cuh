/* mesogpu: the device kernels of fix mdscf/cuda (MD-SCF; physics in src/physics/mdscf.h).
 * Included by field/mdscf.cu inside its anonymous namespace (uses acc/real, BLOCK,
 * block_sum_to; the grid types are in field/field_types.cuh). The arrays hold the whole periodic
 * grid of one GPU, or (several ranks) the rank's brick with its ghost layers (FieldGridD::brick):
 * node g = (ix, iy, iz) in array indices, index (iz nb_y + iy) nb_x + ix; per-node component
 * data at [node ncomp + k]. On a brick the indices do not wrap: the ghost layers hold the
 * periodic images, filled by the host's Grid3d exchanges (field/mdscf.cu), and an atom
 * whose cell leaves the brick is an ERR_FIELD_RANGE record.
 *
 * Step of a field update:
 *   deposit   CIC weights of the field atoms into rho (counts per node), in double where
 *             the precision has it: atomics (one thread per atom, 8 atomicAdd), or a
 *             gather (one thread per node over the atoms of its 8 adjacent cells, from a
 *             cell list on the field grid: no floating-point atomics)
 *   derive    phi = rho/(rho0 v_c), V_K, energy and virial sums (one thread per node)
 *   gradient  central differences of V_K, packed (gx, gy, gz) per component and node
 * Every step: force F_i = -sum_c w_c grad V_K(g_c) (one thread per atom). */

#ifndef MESOGPU_CUDA_FIELD_MDSCF_KERNELS_CUH
#define MESOGPU_CUDA_FIELD_MDSCF_KERNELS_CUH

// physics/mdscf.h and field/field_types.cuh are included at file scope

// a grid coordinate's lower node and fraction, in array indices: wrapped on the whole
// grid; on a brick shifted to its first node (possibly outside it: the callers check).
// Positions may lie outside the box by up to half the skin between neighbour-list builds
__device__ __forceinline__ int field_cell(acc x, const FieldGridD &g, int d, acc &t)
{
  const acc s = (x - g.lo[d]) * g.inv_h[d];
  int c = physics::mdscf::cell_index(s, t);
  if (g.brick) return c - g.off[d];
  c %= g.n[d];
  return c < 0 ? c + g.n[d] : c;
}

__device__ __forceinline__ int wrap_index(int i, int n)
{
  return i >= n ? i - n : (i < 0 ? i + n : i);
}

// on a brick: whether a cell's corners lie `margin` nodes inside the arrays (1 for the
// deposit and the forces, where the gradients are: the CPU fix's range check)
__device__ __forceinline__ bool field_cell_inside(const FieldGridD &g, const int c[3], int margin)
{
  if (!g.brick) return true;
  for (int d = 0; d < 3; ++d)
    if (c[d] < margin || c[d] + 1 > g.nb[d] - 1 - margin) return false;
  return true;
}

// atom i left its rank's brick (it moved more than half the skin since the last rebuild)
__device__ __forceinline__ void record_field_range(ErrorRecord *err, int i)
{
  if (atomicOr(&err->bits, ERR_FIELD_RANGE) == 0) err->i = i;
}

// the 8 corner nodes (c = cx + 2 cy + 4 cz, as physics::mdscf::cic_weights) of atom i's
// cell and their CIC weights; false (and nothing set) when the cell is not `margin` nodes
// inside a brick
__device__ __forceinline__ bool field_corners(const acc *x0, const acc *x1, const acc *x2, int i,
                                              const FieldGridD &g, int margin, int node[8],
                                              acc w[8])
{
  acc t[3];
  int c0[3];
  c0[0] = field_cell(x0[i], g, 0, t[0]);
  c0[1] = field_cell(x1[i], g, 1, t[1]);
  c0[2] = field_cell(x2[i], g, 2, t[2]);
  if (!field_cell_inside(g, c0, margin)) return false;
  physics::mdscf::cic_weights(t[0], t[1], t[2], w);
  for (int c = 0; c < 8; ++c) {
    int ix = c0[0] + (c & 1), iy = c0[1] + ((c >> 1) & 1), iz = c0[2] + ((c >> 2) & 1);
    if (!g.brick) {
      ix = wrap_index(ix, g.n[0]);
      iy = wrap_index(iy, g.n[1]);
      iz = wrap_index(iz, g.n[2]);
    }
    node[c] = (iz * g.nb[1] + iy) * g.nb[0] + ix;
  }
  return true;
}

// deposit by atomics: rho[node ncomp + k] += w_c (counts; scaled to phi later)
__global__ void mdscf_deposit_atomic_kernel(int natoms, const acc *x0, const acc *x1, const acc *x2,
                                            const int *type, const int *mask, int groupbit,
                                            const int *type2comp, FieldGridD g, acc *rho,
                                            ErrorRecord *err)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit)) return;
  const int k = type2comp[type[i]];
  if (k < 0) return;
  int node[8];
  acc w[8];
  if (!field_corners(x0, x1, x2, i, g, 1, node, w)) {
    record_field_range(err, i);
    return;
  }
  for (int c = 0; c < 8; ++c) atomicAdd(&rho[(size_t) node[c] * g.ncomp + k], w[c]);
}

// cell list on the field grid for the gather: slot claims, count beyond the capacity
// reported in status[0] (the caller grows the capacity and bins again)
__global__ void mdscf_bin_kernel(int natoms, const acc *x0, const acc *x1, const acc *x2,
                                 const int *type, const int *mask, int groupbit,
                                 const int *type2comp, FieldGridD g, int *cell_count,
                                 int *cell_atoms, int cap, int *status, ErrorRecord *err)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit) || type2comp[type[i]] < 0) return;
  acc t;
  int c[3];
  c[0] = field_cell(x0[i], g, 0, t);
  c[1] = field_cell(x1[i], g, 1, t);
  c[2] = field_cell(x2[i], g, 2, t);
  if (!field_cell_inside(g, c, 1)) {
    record_field_range(err, i);
    return;
  }
  const int cell = (c[2] * g.nb[1] + c[1]) * g.nb[0] + c[0];
  const int slot = atomicAdd(&cell_count[cell], 1);
  if (slot < cap)
    cell_atoms[(size_t) cell * cap + slot] = i;
  else
    atomicMax(&status[0], slot + 1);
}

// deposit by gather: node g sums the weights of the atoms in the 8 cells of which it is a
// corner (cell g - c for corner c); each node is written once, no floating-point atomics
__global__ void mdscf_deposit_gather_kernel(const acc *x0, const acc *x1, const acc *x2,
                                            const int *type, const int *type2comp, FieldGridD g,
                                            const int *cell_count, const int *cell_atoms, int cap,
                                            acc *rho)
{
  const int nnodes = g.nb[0] * g.nb[1] * g.nb[2];
  const int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= nnodes) return;
  const int ix = node % g.nb[0], iy = (node / g.nb[0]) % g.nb[1], iz = node / (g.nb[0] * g.nb[1]);
  acc sum[MDSCF_MAX_COMP];
  for (int k = 0; k < g.ncomp; ++k) sum[k] = acc(0);
  for (int c = 0; c < 8; ++c) {
    const int dx = c & 1, dy = (c >> 1) & 1, dz = (c >> 2) & 1;
    int cx = ix - dx, cy = iy - dy, cz = iz - dz;
    if (g.brick) {
      if (cx < 0 || cy < 0 || cz < 0) continue;    // no cell below the brick's first node
    } else {
      cx = wrap_index(cx, g.n[0]);
      cy = wrap_index(cy, g.n[1]);
      cz = wrap_index(cz, g.n[2]);
    }
    const int cell = (cz * g.nb[1] + cy) * g.nb[0] + cx;
    const int cnt = min(cell_count[cell], cap);
    for (int s = 0; s < cnt; ++s) {
      const int i = cell_atoms[(size_t) cell * cap + s];
      acc t0, t1, t2;
      field_cell(x0[i], g, 0, t0);
      field_cell(x1[i], g, 1, t1);
      field_cell(x2[i], g, 2, t2);
      const acc w = (dx ? t0 : acc(1) - t0) * (dy ? t1 : acc(1) - t1) * (dz ? t2 : acc(1) - t2);
      sum[type2comp[type[i]]] += w;
    }
  }
  for (int k = 0; k < g.ncomp; ++k) rho[(size_t) node * g.ncomp + k] = sum[k];
}

// phi = rho scale (scale = 1/(rho0 v_c); 1 when rho already holds phi), V_K per node;
// sums over the nodes this rank owns (the whole grid on one GPU) of f_chi, f_kappa and the
// virial density into out[0..2]
__global__ void mdscf_derive_kernel(FieldGridD g, acc scale, FieldParamsD p, acc *phi, acc *pot,
                                    double *out)
{
  const int nnodes = g.nb[0] * g.nb[1] * g.nb[2], ncomp = g.ncomp;
  double a[3] = {0.0, 0.0, 0.0};
  for (int node = blockIdx.x * blockDim.x + threadIdx.x; node < nnodes;
       node += blockDim.x * gridDim.x) {
    acc ph[MDSCF_MAX_COMP], V[MDSCF_MAX_COMP];
    for (int k = 0; k < ncomp; ++k) {
      ph[k] = phi[(size_t) node * ncomp + k] * scale;
      phi[(size_t) node * ncomp + k] = ph[k];
    }
    physics::mdscf::field_potentials(ncomp, ph, p.chi, p.kT, p.inv_kappa, V);
    for (int k = 0; k < ncomp; ++k) pot[(size_t) node * ncomp + k] = V[k];
    const int ix = node % g.nb[0], iy = (node / g.nb[0]) % g.nb[1], iz = node / (g.nb[0] * g.nb[1]);
    if (ix < g.own_lo[0] || ix > g.own_hi[0] || iy < g.own_lo[1] || iy > g.own_hi[1] ||
        iz < g.own_lo[2] || iz > g.own_hi[2])
      continue;    // a ghost node (a brick): its owner counts it
    acc f_chi, f_kappa;
    physics::mdscf::energy_density(ncomp, ph, p.chi, p.kT, p.inv_kappa, f_chi, f_kappa);
    a[0] += f_chi;
    a[1] += f_kappa;
    a[2] += physics::mdscf::virial_density(ncomp, ph, V, f_chi + f_kappa);
  }
  block_sum_to(a, out);
}

// gradient of V_K by central differences, stored per component as packed (gx, gy, gz, 0)
// at grad[k nnodes + node] (one 16/32-byte read per corner later): on the periodic whole
// grid every node; on a brick the nodes inside its outermost layer (the others get zero)
__global__ void mdscf_gradient_kernel(FieldGridD g, const acc *pot, real4 *grad)
{
  const int nnodes = g.nb[0] * g.nb[1] * g.nb[2];
  const int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= nnodes) return;
  const int ix = node % g.nb[0], iy = (node / g.nb[0]) % g.nb[1], iz = node / (g.nb[0] * g.nb[1]);
  const int nc = g.ncomp;
  if (g.brick &&
      (ix < 1 || ix > g.nb[0] - 2 || iy < 1 || iy > g.nb[1] - 2 || iz < 1 || iz > g.nb[2] - 2)) {
    for (int k = 0; k < nc; ++k) grad[(size_t) k * nnodes + node] = make_real4(0, 0, 0, 0);
    return;
  }
  // (a brick: the neighbours are inside, and wrap_index leaves them as they are)
  const int xm = (iz * g.nb[1] + iy) * g.nb[0] + wrap_index(ix - 1, g.nb[0]);
  const int xp = (iz * g.nb[1] + iy) * g.nb[0] + wrap_index(ix + 1, g.nb[0]);
  const int ym = (iz * g.nb[1] + wrap_index(iy - 1, g.nb[1])) * g.nb[0] + ix;
  const int yp = (iz * g.nb[1] + wrap_index(iy + 1, g.nb[1])) * g.nb[0] + ix;
  const int zm = (wrap_index(iz - 1, g.nb[2]) * g.nb[1] + iy) * g.nb[0] + ix;
  const int zp = (wrap_index(iz + 1, g.nb[2]) * g.nb[1] + iy) * g.nb[0] + ix;
  const acc half[3] = {acc(0.5) * g.inv_h[0], acc(0.5) * g.inv_h[1], acc(0.5) * g.inv_h[2]};
  for (int k = 0; k < nc; ++k) {
    const acc gx = physics::mdscf::central_difference(pot[(size_t) xm * nc + k],
                                                      pot[(size_t) xp * nc + k], half[0]);
    const acc gy = physics::mdscf::central_difference(pot[(size_t) ym * nc + k],
                                                      pot[(size_t) yp * nc + k], half[1]);
    const acc gz = physics::mdscf::central_difference(pot[(size_t) zm * nc + k],
                                                      pot[(size_t) zp * nc + k], half[2]);
    grad[(size_t) k * nnodes + node] = make_real4(gx, gy, gz, acc(0));
  }
}

// field force of every field atom from the stored gradients at its current position
__global__ void mdscf_force_kernel(int natoms, const acc *x0, const acc *x1, const acc *x2,
                                   const int *type, const int *mask, int groupbit,
                                   const int *type2comp, FieldGridD g, const real4 *grad, acc *f0,
                                   acc *f1, acc *f2, ErrorRecord *err)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit)) return;
  const int k = type2comp[type[i]];
  if (k < 0) return;
  int node[8];
  acc w[8], gr[8][3];
  if (!field_corners(x0, x1, x2, i, g, 1, node, w)) {
    record_field_range(err, i);
    return;
  }
  const size_t base = (size_t) k * g.nb[0] * g.nb[1] * g.nb[2];
  for (int c = 0; c < 8; ++c) {
    const real4 v = grad[base + node[c]];
    gr[c][0] = v.x;
    gr[c][1] = v.y;
    gr[c][2] = v.z;
  }
  acc fi[3];
  physics::mdscf::field_force(w, gr, fi);
  f0[i] += fi[0];
  f1[i] += fi[1];
  f2[i] += fi[2];
}

// a brick: counts to phi on the owned nodes (the ghosts' sums went to their owners)
__global__ void mdscf_scale_owned_kernel(FieldGridD g, acc scale, acc *phi)
{
  const int ex = g.own_hi[0] - g.own_lo[0] + 1, ey = g.own_hi[1] - g.own_lo[1] + 1;
  const int owned = ex * ey * (g.own_hi[2] - g.own_lo[2] + 1);
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= owned) return;
  const int ix = g.own_lo[0] + m % ex, iy = g.own_lo[1] + (m / ex) % ey,
            iz = g.own_lo[2] + m / (ex * ey);
  const size_t node = ((size_t) iz * g.nb[1] + iy) * g.nb[0] + ix;
  for (int k = 0; k < g.ncomp; ++k) phi[node * g.ncomp + k] *= scale;
}

// Grid3d's exchange buffers: the values of the nodes list[0..count) (ncomp each)
__global__ void mdscf_pack_nodes_kernel(int count, const int *list, int ncomp, const acc *phi,
                                        double *buf)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= count * ncomp) return;
  const int i = m / ncomp, k = m - i * ncomp;
  buf[m] = static_cast<double>(phi[(size_t) list[i] * ncomp + k]);
}

// ... and back: added (the reverse exchange: ghost sums to owners; atomics in case a
// swap's list names a node twice, a plain add otherwise) or set (the forward exchange:
// owners' values to ghosts)
__global__ void mdscf_unpack_nodes_kernel(int count, const int *list, int ncomp, const double *buf,
                                          acc *phi, bool add)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= count * ncomp) return;
  const int i = m / ncomp, k = m - i * ncomp;
  acc *v = &phi[(size_t) list[i] * ncomp + k];
  if (add)
    atomicAdd(v, static_cast<acc>(buf[m]));
  else
    *v = static_cast<acc>(buf[m]);
}

#endif
