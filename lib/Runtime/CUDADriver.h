//===- CUDADriver.h - the CUDA driver as the runtime sees it ---*- C++ -*-===//
//
// Private to the runtime's CUDA files: the driver API's types and constants
// (written out: nothing here needs CUDA's headers), the driver's functions
// (looked up by name in libcuda.so.1, or the file TIR_CUDA_DRIVER names),
// and the per-thread state the compiled host code's calls share: the
// current device, its stream, and the first failure of a call.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_RUNTIME_CUDADRIVER_H
#define TENSORIR_LIB_RUNTIME_CUDADRIVER_H

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <dlfcn.h>

namespace mlir::tir::runtime::cudadriver {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

enum : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMaxBlockDimX = 2,
  kAttrMaxGridDimX = 5,
  kAttrMaxSharedPerBlock = 8,
  kAttrWarpSize = 10,
  kAttrMultiprocessors = 16,
  kAttrComputeMajor = 75,
  kAttrComputeMinor = 76,
  kAttrMaxSharedPerBlockOptin = 97,
};
enum : int {
  kFuncMaxThreadsPerBlock = 0,
  kFuncSharedSizeBytes = 1,
  kFuncMaxDynamicSharedSizeBytes = 8,
};
enum : int {
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSize = 6,
  kJitOptimizationLevel = 7,
};

/// The driver's functions this runtime calls.
struct Driver {
  std::string loadError;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  // The stream-ordered allocator (CUDA 11.2 on; null before).
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream) = nullptr;
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice) = nullptr;
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *) = nullptr;
  CUresult (*cuMemPoolTrimTo)(CUmemoryPool, size_t) = nullptr;

  std::mutex mutex;
  std::map<int, CUcontext> contexts;
  /// Per device: whether its stream-ordered allocator is used (the driver
  /// has it and the device supports memory pools), once asked.
  std::map<int, bool> usesPool;

  Driver() { load(); }

  template <typename Fn>
  bool bind(void *lib, Fn &fn, const char *name, const char *fallback) {
    void *symbol = dlsym(lib, name);
    if (!symbol && fallback)
      symbol = dlsym(lib, fallback);
    fn = reinterpret_cast<Fn>(symbol);
    if (!symbol)
      loadError = std::string("the CUDA driver has no function '") + name + "'";
    return symbol != nullptr;
  }

  void load() {
    const char *path = std::getenv("TIR_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      loadError = std::string("no CUDA driver: cannot load '") + path + "' (" +
                  (why ? why : "unknown reason") +
                  "); an NVIDIA driver is needed to run on the GPU";
      return;
    }
#define TIR_BIND(fn, name, fallback)                                           \
  if (!bind(lib, fn, name, fallback))                                          \
    return;
    TIR_BIND(cuInit, "cuInit", nullptr)
    TIR_BIND(cuDriverGetVersion, "cuDriverGetVersion", nullptr)
    TIR_BIND(cuDeviceGetCount, "cuDeviceGetCount", nullptr)
    TIR_BIND(cuDeviceGet, "cuDeviceGet", nullptr)
    TIR_BIND(cuDeviceGetName, "cuDeviceGetName", nullptr)
    TIR_BIND(cuDeviceGetAttribute, "cuDeviceGetAttribute", nullptr)
    TIR_BIND(cuDeviceTotalMem, "cuDeviceTotalMem_v2", nullptr)
    TIR_BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr)
    TIR_BIND(cuCtxSetCurrent, "cuCtxSetCurrent", nullptr)
    TIR_BIND(cuCtxSynchronize, "cuCtxSynchronize", nullptr)
    TIR_BIND(cuMemAlloc, "cuMemAlloc_v2", nullptr)
    TIR_BIND(cuMemFree, "cuMemFree_v2", nullptr)
    TIR_BIND(cuMemcpyHtoD, "cuMemcpyHtoD_v2", nullptr)
    TIR_BIND(cuMemcpyDtoH, "cuMemcpyDtoH_v2", nullptr)
    TIR_BIND(cuMemcpyDtoD, "cuMemcpyDtoD_v2", nullptr)
    TIR_BIND(cuModuleLoadDataEx, "cuModuleLoadDataEx", nullptr)
    TIR_BIND(cuModuleUnload, "cuModuleUnload", nullptr)
    TIR_BIND(cuModuleGetFunction, "cuModuleGetFunction", nullptr)
    TIR_BIND(cuFuncGetAttribute, "cuFuncGetAttribute", nullptr)
    TIR_BIND(cuFuncSetAttribute, "cuFuncSetAttribute", nullptr)
    TIR_BIND(cuLaunchKernel, "cuLaunchKernel", nullptr)
    TIR_BIND(cuStreamCreate, "cuStreamCreate", nullptr)
    TIR_BIND(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy")
    TIR_BIND(cuStreamSynchronize, "cuStreamSynchronize", nullptr)
    TIR_BIND(cuEventCreate, "cuEventCreate", nullptr)
    TIR_BIND(cuEventRecord, "cuEventRecord", nullptr)
    TIR_BIND(cuEventSynchronize, "cuEventSynchronize", nullptr)
    TIR_BIND(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")
    TIR_BIND(cuEventDestroy, "cuEventDestroy_v2", nullptr)
    TIR_BIND(cuGetErrorName, "cuGetErrorName", nullptr)
    TIR_BIND(cuGetErrorString, "cuGetErrorString", nullptr)
    TIR_BIND(cuMemcpyAsync, "cuMemcpyAsync", nullptr)
#undef TIR_BIND
    // All five or none.
    if (!bind(lib, cuMemAllocAsync, "cuMemAllocAsync", nullptr) ||
        !bind(lib, cuMemFreeAsync, "cuMemFreeAsync", nullptr) ||
        !bind(lib, cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool",
              nullptr) ||
        !bind(lib, cuMemPoolSetAttribute, "cuMemPoolSetAttribute", nullptr) ||
        !bind(lib, cuMemPoolTrimTo, "cuMemPoolTrimTo", nullptr)) {
      cuMemAllocAsync = nullptr;
      cuMemFreeAsync = nullptr;
      loadError.clear();
    }
    if (CUresult rc = cuInit(0))
      loadError = "the CUDA driver did not start: " + describe("cuInit", rc);
  }

  /// "cuMemAlloc: out of memory (CUDA_ERROR_OUT_OF_MEMORY)".
  std::string describe(const char *call, CUresult rc) const {
    const char *name = nullptr, *text = nullptr;
    if (cuGetErrorName)
      cuGetErrorName(rc, &name);
    if (cuGetErrorString)
      cuGetErrorString(rc, &text);
    std::string message = std::string(call) + ": ";
    message += text ? text : "error " + std::to_string(rc);
    if (name)
      message += std::string(" (") + name + ")";
    return message;
  }

  /// Makes device `id`'s primary context current in this thread.
  bool activate(int id, std::string &error) {
    if (!loadError.empty()) {
      error = loadError;
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto it = contexts.find(id);
    if (it == contexts.end()) {
      int count = 0;
      if (CUresult rc = cuDeviceGetCount(&count)) {
        error = describe("cuDeviceGetCount", rc);
        return false;
      }
      if (id < 0 || id >= count) {
        error = "there is no CUDA device " + std::to_string(id) + " (" +
                (count == 0 ? std::string("no GPU was found")
                            : std::to_string(count) + " device" +
                                  (count == 1 ? "" : "s") + " found") +
                ")";
        return false;
      }
      CUdevice device;
      CUcontext context;
      if (CUresult rc = cuDeviceGet(&device, id)) {
        error = describe("cuDeviceGet", rc);
        return false;
      }
      if (CUresult rc = cuDevicePrimaryCtxRetain(&context, device)) {
        error = describe("cuDevicePrimaryCtxRetain", rc);
        return false;
      }
      it = contexts.emplace(id, context).first;
    }
    if (CUresult rc = cuCtxSetCurrent(it->second)) {
      error = describe("cuCtxSetCurrent", rc);
      return false;
    }
    return true;
  }

  /// Whether device `id`'s intermediates come from its stream-ordered
  /// allocator: the driver has one and the device supports memory pools.
  /// Its default pool is then set, once, to keep what is freed rather than
  /// give it back to the system at each synchronization, so that a graph
  /// function's intermediates are reused from one call to the next
  /// (trimPool gives it back when memory runs out).
  bool poolFor(int id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, first] = usesPool.emplace(id, false);
    if (!first)
      return it->second;
    constexpr int kPoolsSupported =
        115; // CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED
    constexpr int kReleaseThreshold = 4; // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
    CUmemoryPool pool;
    CUdevice device;
    int supported = 0;
    uint64_t all = ~uint64_t(0);
    it->second = cuMemAllocAsync && !cuDeviceGet(&device, id) &&
                 !cuDeviceGetAttribute(&supported, kPoolsSupported, device) &&
                 supported && !cuDeviceGetDefaultMemPool(&pool, device) &&
                 !cuMemPoolSetAttribute(pool, kReleaseThreshold, &all);
    return it->second;
  }

  /// Gives what device `id`'s default pool keeps back to the system (after
  /// an allocation ran out of memory, before it is tried again); false
  /// where there is nothing to give back.
  bool trimPool(int id) {
    if (!poolFor(id))
      return false;
    CUmemoryPool pool;
    CUdevice device;
    return !cuDeviceGet(&device, id) &&
           !cuDeviceGetDefaultMemPool(&pool, device) &&
           !cuMemPoolTrimTo(pool, 0);
  }

  bool check(const char *call, CUresult rc, std::string &error) const {
    if (rc == 0)
      return true;
    error = describe(call, rc);
    return false;
  }
};

/// The process's driver (loaded at the first use).
Driver &driver();

/// The device the compiled host code's calls run on (Module::call sets it).
extern thread_local int currentDeviceId;
/// The stream launches and timings go to, per device (null: the device's
/// default stream), as the user set it in this thread.
extern thread_local std::map<int, void *> currentStreams;
/// The first failure of the host code's calls since the runtime last
/// took it (cuda::takeLaunchError).
extern thread_local std::string pendingLaunchError;

CUstream streamOf(int id);
void recordLaunchError(std::string message);
/// Makes device `id` current for a call of the compiled host code; false,
/// the failure kept as a launch's is, where it cannot.
bool activateForHostCode(int id);

} // namespace mlir::tir::runtime::cudadriver

#endif // TENSORIR_LIB_RUNTIME_CUDADRIVER_H
