/* mesogpu: the device kernels of fix mdscf/cuda (MD-SCF; physics in src/physics/mdscf.h).
 * Included by field/mdscf.cu inside its anonymous namespace (uses acc/real, BLOCK,
 * block_sum_to; the grid types are in field/field_types.cuh). The grid is the whole periodic grid
 * of one GPU: node g = (ix, iy, iz), index (iz ny + iy) nx + ix; per-node component data at [node
 * ncomp + k].
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

// a grid coordinate's lower node (wrapped periodically) and fraction; positions may lie
// outside the box by up to half the skin between neighbour-list builds
__device__ __forceinline__ int field_cell(acc x, acc lo, acc inv_h, int n, acc &t)
{
  const acc s = (x - lo) * inv_h;
  int c = physics::mdscf::cell_index(s, t);
  c %= n;
  return c < 0 ? c + n : c;
}

__device__ __forceinline__ int wrap_index(int i, int n)
{
  return i >= n ? i - n : (i < 0 ? i + n : i);
}

// the 8 corner nodes (c = cx + 2 cy + 4 cz, as physics::mdscf::cic_weights) of atom i's
// cell and their CIC weights
__device__ __forceinline__ void field_corners(const acc *x0, const acc *x1, const acc *x2, int i,
                                              const FieldGridD &g, int node[8], acc w[8])
{
  acc t[3];
  const int cx = field_cell(x0[i], g.lo[0], g.inv_h[0], g.n[0], t[0]);
  const int cy = field_cell(x1[i], g.lo[1], g.inv_h[1], g.n[1], t[1]);
  const int cz = field_cell(x2[i], g.lo[2], g.inv_h[2], g.n[2], t[2]);
  physics::mdscf::cic_weights(t[0], t[1], t[2], w);
  for (int c = 0; c < 8; ++c) {
    const int ix = wrap_index(cx + (c & 1), g.n[0]);
    const int iy = wrap_index(cy + ((c >> 1) & 1), g.n[1]);
    const int iz = wrap_index(cz + ((c >> 2) & 1), g.n[2]);
    node[c] = (iz * g.n[1] + iy) * g.n[0] + ix;
  }
}

// deposit by atomics: rho[node ncomp + k] += w_c (counts; scaled to phi later)
__global__ void mdscf_deposit_atomic_kernel(int natoms, const acc *x0, const acc *x1, const acc *x2,
                                            const int *type, const int *mask, int groupbit,
                                            const int *type2comp, FieldGridD g, acc *rho)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit)) return;
  const int k = type2comp[type[i]];
  if (k < 0) return;
  int node[8];
  acc w[8];
  field_corners(x0, x1, x2, i, g, node, w);
  for (int c = 0; c < 8; ++c) atomicAdd(&rho[(size_t) node[c] * g.ncomp + k], w[c]);
}

// cell list on the field grid for the gather: slot claims, count beyond the capacity
// reported in status[0] (the caller grows the capacity and bins again)
__global__ void mdscf_bin_kernel(int natoms, const acc *x0, const acc *x1, const acc *x2,
                                 const int *type, const int *mask, int groupbit,
                                 const int *type2comp, FieldGridD g, int *cell_count,
                                 int *cell_atoms, int cap, int *status)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit) || type2comp[type[i]] < 0) return;
  acc t;
  const int cx = field_cell(x0[i], g.lo[0], g.inv_h[0], g.n[0], t);
  const int cy = field_cell(x1[i], g.lo[1], g.inv_h[1], g.n[1], t);
  const int cz = field_cell(x2[i], g.lo[2], g.inv_h[2], g.n[2], t);
  const int cell = (cz * g.n[1] + cy) * g.n[0] + cx;
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
  const int nnodes = g.n[0] * g.n[1] * g.n[2];
  const int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= nnodes) return;
  const int ix = node % g.n[0], iy = (node / g.n[0]) % g.n[1], iz = node / (g.n[0] * g.n[1]);
  acc sum[MDSCF_MAX_COMP];
  for (int k = 0; k < g.ncomp; ++k) sum[k] = acc(0);
  for (int c = 0; c < 8; ++c) {
    const int dx = c & 1, dy = (c >> 1) & 1, dz = (c >> 2) & 1;
    const int cell = (wrap_index(iz - dz, g.n[2]) * g.n[1] + wrap_index(iy - dy, g.n[1])) * g.n[0] +
                     wrap_index(ix - dx, g.n[0]);
    const int cnt = min(cell_count[cell], cap);
    for (int s = 0; s < cnt; ++s) {
      const int i = cell_atoms[(size_t) cell * cap + s];
      acc t0, t1, t2;
      field_cell(x0[i], g.lo[0], g.inv_h[0], g.n[0], t0);
      field_cell(x1[i], g.lo[1], g.inv_h[1], g.n[1], t1);
      field_cell(x2[i], g.lo[2], g.inv_h[2], g.n[2], t2);
      const acc w = (dx ? t0 : acc(1) - t0) * (dy ? t1 : acc(1) - t1) * (dz ? t2 : acc(1) - t2);
      sum[type2comp[type[i]]] += w;
    }
  }
  for (int k = 0; k < g.ncomp; ++k) rho[(size_t) node * g.ncomp + k] = sum[k];
}

// phi = rho scale (scale = 1/(rho0 v_c); 1 when rho already holds phi), V_K per node;
// sums over nodes of f_chi, f_kappa and the virial density into out[0..2]
__global__ void mdscf_derive_kernel(int nnodes, int ncomp, acc scale, FieldParamsD p, acc *phi,
                                    acc *pot, double *out)
{
  double a[3] = {0.0, 0.0, 0.0};
  for (int node = blockIdx.x * blockDim.x + threadIdx.x; node < nnodes;
       node += blockDim.x * gridDim.x) {
    acc ph[MDSCF_MAX_COMP], V[MDSCF_MAX_COMP];
    for (int k = 0; k < ncomp; ++k) {
      ph[k] = phi[(size_t) node * ncomp + k] * scale;
      phi[(size_t) node * ncomp + k] = ph[k];
    }
    physics::mdscf::field_potentials(ncomp, ph, p.chi, p.kT, p.inv_kappa, V);
    acc f_chi, f_kappa;
    physics::mdscf::energy_density(ncomp, ph, p.chi, p.kT, p.inv_kappa, f_chi, f_kappa);
    a[0] += f_chi;
    a[1] += f_kappa;
    a[2] += physics::mdscf::virial_density(ncomp, ph, V, f_chi + f_kappa);
    for (int k = 0; k < ncomp; ++k) pot[(size_t) node * ncomp + k] = V[k];
  }
  block_sum_to(a, out);
}

// gradient of V_K by central differences on the periodic grid, stored per component as
// packed (gx, gy, gz, 0) at grad[k nnodes + node] (one 16/32-byte read per corner later)
__global__ void mdscf_gradient_kernel(FieldGridD g, const acc *pot, real4 *grad)
{
  const int nnodes = g.n[0] * g.n[1] * g.n[2];
  const int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= nnodes) return;
  const int ix = node % g.n[0], iy = (node / g.n[0]) % g.n[1], iz = node / (g.n[0] * g.n[1]);
  const int xm = (iz * g.n[1] + iy) * g.n[0] + wrap_index(ix - 1, g.n[0]);
  const int xp = (iz * g.n[1] + iy) * g.n[0] + wrap_index(ix + 1, g.n[0]);
  const int ym = (iz * g.n[1] + wrap_index(iy - 1, g.n[1])) * g.n[0] + ix;
  const int yp = (iz * g.n[1] + wrap_index(iy + 1, g.n[1])) * g.n[0] + ix;
  const int zm = (wrap_index(iz - 1, g.n[2]) * g.n[1] + iy) * g.n[0] + ix;
  const int zp = (wrap_index(iz + 1, g.n[2]) * g.n[1] + iy) * g.n[0] + ix;
  const acc half[3] = {acc(0.5) * g.inv_h[0], acc(0.5) * g.inv_h[1], acc(0.5) * g.inv_h[2]};
  const int nc = g.ncomp;
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
                                   acc *f1, acc *f2)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= natoms || !(mask[i] & groupbit)) return;
  const int k = type2comp[type[i]];
  if (k < 0) return;
  int node[8];
  acc w[8], gr[8][3];
  field_corners(x0, x1, x2, i, g, node, w);
  const size_t base = (size_t) k * g.n[0] * g.n[1] * g.n[2];
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

#endif
