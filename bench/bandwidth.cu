// Device-to-device copy bandwidth (bytes read + bytes written per second), the
// memory ceiling against which bench/RESULTS.md states the fraction reached.
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
  const size_t bytes = size_t(2) << 30;    // 2 GiB per buffer: far beyond L2
  void *a, *b;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    printf("bandwidth: allocation failed\n");
    return 1;
  }
  cudaMemset(a, 1, bytes);
  cudaMemset(b, 0, bytes);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  for (int i = 0; i < 3; ++i) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);    // warm up
  const int reps = 20;
  cudaEventRecord(t0);
  for (int i = 0; i < reps; ++i) cudaMemcpy(i % 2 ? a : b, i % 2 ? b : a, bytes, cudaMemcpyDeviceToDevice);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  const double gbs = 2.0 * bytes * reps / (ms * 1e-3) / 1e9;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("bandwidth: %s device-to-device copy %.0f GB/s (read + write)\n", p.name, gbs);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
