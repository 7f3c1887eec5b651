/* A stand-in for the CUDA driver (libcuda.so.1) with no GPU behind it, for
 * testing tir's CUDA runtime where no GPU is: one device (an "H100-like"
 * set of limits) whose memory is host memory, modules that load any
 * image, and launches that check their arguments and record them but run
 * nothing. tir's runtime loads it through TIR_CUDA_DRIVER.
 *
 * Environment: FAKE_CUDA_DEVICES, the number of devices (default 1);
 * FAKE_CUDA_MAX_THREADS, the threads a block may have (1024);
 * FAKE_CUDA_MAX_SHARED, the shared memory a block may have (227 KiB);
 * FAKE_CUDA_KERNEL_SHARED, the static shared memory every kernel says it
 * uses (0); FAKE_CUDA_MEMORY_POOLS, whether the device supports the
 * stream-ordered allocator (1). The last launch's grid, block and dynamic
 * shared memory are kept for fakeLastLaunch(), with the stream it went to;
 * fakeCounters() counts what the runtime asked for (see `counters`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static int envInt(const char *name, int fallback) {
  const char *env = getenv(name);
  return env ? atoi(env) : fallback;
}
static int deviceCount(void) { return envInt("FAKE_CUDA_DEVICES", 1); }

CUresult cuInit(unsigned flags) { return 0; }
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
CUresult cuDeviceGetCount(int *n) {
  *n = deviceCount();
  return 0;
}
CUresult cuDeviceGet(int *d, int i) {
  if (i < 0 || i >= deviceCount())
    return 101; /* invalid device */
  *d = i;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int d) {
  snprintf(name, len, "Fake GPU %d", d);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  switch (attr) {
  case 1:
    *v = envInt("FAKE_CUDA_MAX_THREADS", 1024);
    break;
  case 2:
  case 3:
    *v = 1024;
    break; /* block x, y */
  case 4:
    *v = 64;
    break; /* block z */
  case 5:
    *v = 2147483647;
    break; /* grid x */
  case 6:
  case 7:
    *v = 65535;
    break; /* grid y, z */
  case 8:
    *v = envInt("FAKE_CUDA_MAX_SHARED", 49152) < 49152
             ? envInt("FAKE_CUDA_MAX_SHARED", 0)
             : 49152;
    break;
  case 10:
    *v = 32;
    break; /* warp */
  case 16:
    *v = 132;
    break; /* multiprocessors */
  case 75:
    *v = 9;
    break;
  case 76:
    *v = 0;
    break;
  case 97:
    *v = envInt("FAKE_CUDA_MAX_SHARED", 232448);
    break;
  case 115:
    *v = envInt("FAKE_CUDA_MEMORY_POOLS", 1);
    break; /* memory pools supported */
  default:
    *v = 0;
  }
  return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int d) {
  *bytes = 1ull << 34;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = (void *)(intptr_t)(d + 1);
  return 0;
}
CUresult cuCtxSetCurrent(void *ctx) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
/* What the runtime asked for: allocations not freed yet, stream-ordered
 * allocations (cuMemAllocAsync) in all, copies to the device, launches,
 * and the release threshold last set on a memory pool. */
static long long counters[5];
enum { LIVE, ASYNC_ALLOCS, HOST_TO_DEVICE, LAUNCHES, POOL_THRESHOLD };
const long long *fakeCounters(void) { return counters; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
  void *m = malloc(n);
  if (!m)
    return 2; /* out of memory */
  *p = (CUdeviceptr)(uintptr_t)m;
  ++counters[LIVE];
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  free((void *)(uintptr_t)p);
  --counters[LIVE];
  return 0;
}
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, void *stream) {
  ++counters[ASYNC_ALLOCS];
  return cuMemAlloc_v2(p, n);
}
CUresult cuMemFreeAsync(CUdeviceptr p, void *stream) { return cuMemFree_v2(p); }
CUresult cuDeviceGetDefaultMemPool(void **pool, int d) {
  *pool = (void *)(uintptr_t)(d + 1);
  return 0;
}
CUresult cuMemPoolTrimTo(void *pool, size_t keep) { return 0; }
CUresult cuMemPoolSetAttribute(void *pool, int attr, void *value) {
  if (attr == 4) /* CU_MEMPOOL_ATTR_RELEASE_THRESHOLD */
    counters[POOL_THRESHOLD] = (long long)*(uint64_t *)value;
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) {
  memcpy((void *)(uintptr_t)d, s, n);
  ++counters[HOST_TO_DEVICE];
  return 0;
}
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, void *stream) {
  memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) {
  memcpy(d, (void *)(uintptr_t)s, n);
  return 0;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) {
  memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
  return 0;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts,
                            void **vals) {
  if (!image)
    return 200; /* invalid image */
  *m = (void *)(uintptr_t)image;
  return 0;
}
CUresult cuModuleUnload(void *m) { return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  /* The function is its name: the image holds it (PTX or cubin). */
  *f = strdup(name);
  return 0;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f) {
  *v = attr == 0 ? 1024 : attr == 1 ? envInt("FAKE_CUDA_KERNEL_SHARED", 0) : 0;
  return 0;
}
CUresult cuFuncSetAttribute(void *f, int attr, int v) { return 0; }

static long long lastLaunch[8];
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  if (!params)
    return 1;
  /* FAKE_CUDA_FAIL_LAUNCH=n: the n-th launch faults, and the context is
   * lost: it and every later launch fail (CUDA_ERROR_ILLEGAL_ADDRESS). */
  static long long launches = 0;
  int failAt = envInt("FAKE_CUDA_FAIL_LAUNCH", 0);
  if (failAt > 0 && ++launches >= failAt)
    return 700;
  long long sizes[8] = {gx, gy, gz,   bx,
                        by, bz, smem, (long long)(intptr_t)stream};
  memcpy(lastLaunch, sizes, sizeof(sizes));
  ++counters[LAUNCHES];
  return 0;
}
const long long *fakeLastLaunch(void) { return lastLaunch; }
CUresult cuStreamCreate(void **s, unsigned flags) {
  *s = malloc(1);
  return 0;
}
CUresult cuStreamDestroy_v2(void *s) {
  free(s);
  return 0;
}
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuEventCreate(void **e, unsigned flags) {
  *e = malloc(1);
  return 0;
}
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) {
  *ms = 1.0f;
  return 0;
}
CUresult cuEventDestroy_v2(void *e) {
  free(e);
  return 0;
}
CUresult cuGetErrorName(CUresult rc, const char **s) {
  *s = rc == 2     ? "CUDA_ERROR_OUT_OF_MEMORY"
       : rc == 101 ? "CUDA_ERROR_INVALID_DEVICE"
       : rc == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                   : "CUDA_ERROR_UNKNOWN";
  return 0;
}
CUresult cuGetErrorString(CUresult rc, const char **s) {
  *s = rc == 2     ? "out of memory"
       : rc == 101 ? "invalid device ordinal"
       : rc == 700 ? "an illegal memory access was encountered"
                   : "unknown error";
  return 0;
}
