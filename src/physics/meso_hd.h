/* mesogpu: portability macros shared by the CPU styles and the CUDA kernels.
 *
 * MESO_HD marks a function that must compile for both the host and the device:
 * __host__ __device__ under nvcc, plain inline otherwise. Evaluators in
 * src/physics/ use nothing else from CUDA, so the same header is included by the
 * LAMMPS style (g++) and by the kernels (nvcc). */
#ifndef MESOGPU_PHYSICS_MESO_HD_H
#define MESOGPU_PHYSICS_MESO_HD_H

#if defined(__CUDACC__)
#define MESO_HD __host__ __device__ __forceinline__
#else
#define MESO_HD inline
#endif

#endif
