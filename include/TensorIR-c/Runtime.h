/*===- TensorIR-c/Runtime.h - C API: build, load and call tir code -*- C
-*-===*\
|*                                                                            *|
|* TVM's build + runtime.Module for C callers:                                *|
|*                                                                            *|
|*   tirModule *m = tirModuleCompile(source, length, "native");               *|
|*   tirArg args[2] = {tirBufferArg(a, 1, shape, TIR_FLOAT, 32), ...};        *|
|*   if (tirModuleCall(m, "main", args, 2) != 0)                              *|
|*     fprintf(stderr, "%s\n", tirGetLastError());                           *|
|*   tirModuleDestroy(m);                                                     *|
|*                                                                            *|
|* Every function returns NULL or a non-zero status on failure and leaves a   *|
|* message for tirGetLastError() (per thread). A call whose arguments do not  *|
|* match the function's signature fails with a message that names the        *|
|* argument, and nothing runs.                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORIR_C_RUNTIME_H
#define TENSORIR_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type codes (DLPack's). */
enum { TIR_INT = 0, TIR_UINT = 1, TIR_FLOAT = 2, TIR_BFLOAT = 4, TIR_BOOL = 6 };
/* Argument kinds. */
enum { TIR_ARG_BUFFER = 0, TIR_ARG_INT = 1, TIR_ARG_FLOAT = 2 };
/* Device types (DLPack's); 0 in a tirBuffer also means the CPU. */
enum { TIR_DEVICE_CPU = 1, TIR_DEVICE_CUDA = 2 };

typedef struct tirModule tirModule;

typedef struct {
  void *data;
  int32_t ndim;
  const int64_t *shape;
  /* In elements; NULL means row-major contiguous. */
  const int64_t *strides;
  uint8_t code;
  uint8_t bits;
  /* Where `data` is: TIR_DEVICE_CPU (or 0) or TIR_DEVICE_CUDA, and which
   * GPU. A module built for CUDA takes buffers on one GPU only. */
  int32_t deviceType;
  int32_t deviceId;
} tirBuffer;

/* A parameter of a function, as its signature has it. The name and the
 * shape stay valid until the module is destroyed. */
typedef struct {
  const char *name;
  /* TIR_ARG_BUFFER, or a scalar: TIR_ARG_INT (integers and bool) or
   * TIR_ARG_FLOAT. */
  int32_t kind;
  /* The element type of a buffer, the type of a scalar. */
  uint8_t code;
  uint8_t bits;
  /* A buffer's rank and the size of each dimension, -1 where it is given
   * at run time; 0 and NULL for a scalar. */
  int32_t ndim;
  const int64_t *shape;
  /* A buffer the function writes; a graph function's result (an output
   * the caller allocates and takes as the call's result; also written). */
  int32_t written;
  int32_t result;
} tirParam;

typedef struct {
  int32_t kind;
  tirBuffer buffer;
  int64_t intValue;
  double floatValue;
} tirArg;

/* Compiles MLIR text holding tir functions for `targetCPU` ("native", or an
 * LLVM CPU name; NULL means native) into this process; NULL (and a message)
 * when `source` is NULL, does not parse or verify, names an unknown CPU, or
 * fails to compile. */
tirModule *tirModuleCompile(const char *source, size_t length,
                            const char *targetCPU);
/* Compiles MLIR text into a shared library at `path` (needs ld.lld); 0 on
 * success, non-zero (and a message) when `source` is NULL, `path` is NULL or
 * empty, or compiling or linking fails. */
int tirModuleExport(const char *source, size_t length, const char *targetCPU,
                    const char *path);
/* Loads a shared library written by tirModuleExport; NULL (and a message)
 * when `path` is NULL or the file is not such a library. */
tirModule *tirModuleLoad(const char *path);
/* Frees the module; NULL is accepted and does nothing. */
void tirModuleDestroy(tirModule *module);

/* The number of functions the module holds; -1 (and a message) when
 * `module` is NULL. */
int32_t tirModuleNumFunctions(const tirModule *module);
/* "name(A: float32[8], B: float32[8] (written))"; valid until the module is
 * destroyed. NULL (and a message) when `module` is NULL or `index` is not in
 * [0, tirModuleNumFunctions(module)). */
const char *tirModuleFunctionSignature(const tirModule *module, int32_t index);
/* The name of function `index`; valid until the module is destroyed. NULL
 * (and a message) as for tirModuleFunctionSignature. */
const char *tirModuleFunctionName(const tirModule *module, int32_t index);
/* The number of parameters of function `index`; -1 (and a message) as for
 * tirModuleFunctionSignature. */
int32_t tirModuleFunctionNumParams(const tirModule *module, int32_t index);
/* 1 when function `index` gives its results back as a tuple (a graph
 * function returning R.Tuple, even of one tensor), 0 when not; -1 (and a
 * message) as for tirModuleFunctionSignature. */
int32_t tirModuleFunctionReturnsTuple(const tirModule *module, int32_t index);
/* How the results of function `index` nest when its tuple holds tuples:
 * "[0,[1,2]]" (the results' indices, an array per tuple), "" when they do
 * not; NULL (and a message) as for tirModuleFunctionSignature. The string
 * lives as long as `module`. */
const char *tirModuleFunctionResultNesting(const tirModule *module,
                                           int32_t index);
/* How the arguments and results of function `index` are Relax values, as
 * JSON, when one is no tensor ({"params": [...], "results": ["shape"]}: a
 * shape taken as its dimensions' scalars, results that are shapes or
 * integers); "" otherwise; NULL (and a message) as for
 * tirModuleFunctionSignature. The string lives as long as `module`. */
const char *tirModuleFunctionInterface(const tirModule *module, int32_t index);
/* Parameter `param` of function `index` into `*out`; 0 on success,
 * non-zero (and a message) when `module` or `out` is NULL or either index
 * is out of range. */
int tirModuleFunctionParam(const tirModule *module, int32_t index,
                           int32_t param, tirParam *out);
/* Calls `function` with `numArgs` arguments; 0 on success. Non-zero (and a
 * message) when `module` or `function` is NULL, `numArgs` is negative or
 * `args` NULL with arguments to pass, no function has that name, or the
 * arguments do not match its signature (kind, element type, rank, shape,
 * the sizes its accesses need, sizes that must be equal, overlapping
 * outputs); nothing runs then. */
int tirModuleCall(tirModule *module, const char *function, const tirArg *args,
                  int32_t numArgs);

/* Where the module's functions run: TIR_DEVICE_CPU or TIR_DEVICE_CUDA; -1
 * (and a message) when `module` is NULL. */
int32_t tirModuleTarget(const tirModule *module);

/* GPUs (the CUDA driver is loaded on first use, with dlopen). The number of
 * CUDA devices; -1 (and a message) when there is no usable driver. */
int32_t tirCudaDeviceCount(void);
/* `bytes` of memory on GPU `deviceId`; NULL (and a message) on failure. */
void *tirCudaAlloc(int32_t deviceId, size_t bytes);
/* Frees memory from tirCudaAlloc; 0 on success. */
int tirCudaFree(int32_t deviceId, void *data);
/* Copies `bytes` from `src` on (srcType, srcId) to `dst` on (dstType, dstId)
 * (TIR_DEVICE_CPU or TIR_DEVICE_CUDA), after the work launched before it;
 * 0 on success. */
int tirCopy(void *dst, int32_t dstType, int32_t dstId, const void *src,
            int32_t srcType, int32_t srcId, size_t bytes);
/* Waits for the work launched on GPU `deviceId`; 0 on success, non-zero
 * (and the driver's message) when it failed. */
int tirCudaSynchronize(int32_t deviceId);
/* Streams: a new stream on GPU `deviceId` (NULL and a message on failure);
 * launches and timings on that GPU from this thread go to the stream set
 * (NULL: the GPU's default stream); streams synchronize with the default
 * stream, on which copies run. */
void *tirCudaStreamCreate(int32_t deviceId);
int tirCudaStreamDestroy(int32_t deviceId, void *stream);
void tirCudaSetStream(int32_t deviceId, void *stream);
int tirCudaStreamSynchronize(int32_t deviceId, void *stream);
/* Calls `function` `number` times between two events on GPU `deviceId` and
 * stores the mean seconds of one call in `*seconds`; 0 on success. */
int tirModuleTimeCall(tirModule *module, const char *function,
                      const tirArg *args, int32_t numArgs, int32_t deviceId,
                      int32_t number, double *seconds);

/* Threads for parallel loops (OpenMP); non-zero when no OpenMP runtime is
 * loaded. */
int tirSetNumThreads(int32_t threads);
/* The message of this thread's last failed call ("" before any); valid
 * until another call of this API fails on the thread. */
const char *tirGetLastError(void);

static inline tirArg tirBufferArg(void *data, int32_t ndim,
                                  const int64_t *shape, uint8_t code,
                                  uint8_t bits) {
  tirArg arg = {TIR_ARG_BUFFER,
                {data, ndim, shape, NULL, code, bits, TIR_DEVICE_CPU, 0},
                0,
                0};
  return arg;
}
static inline tirArg tirIntArg(int64_t value) {
  tirArg arg = {TIR_ARG_INT, {NULL, 0, NULL, NULL, 0, 0, 0, 0}, value, 0};
  return arg;
}
static inline tirArg tirFloatArg(double value) {
  tirArg arg = {TIR_ARG_FLOAT, {NULL, 0, NULL, NULL, 0, 0, 0, 0}, 0, value};
  return arg;
}

#ifdef __cplusplus
}
#endif

#endif /* TENSORIR_C_RUNTIME_H */
