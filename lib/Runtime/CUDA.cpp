//===- CUDA.cpp - NVIDIA GPUs through the CUDA driver API -----------------===//
//
// The driver is opened with dlopen (libcuda.so.1, or the file TIR_CUDA_DRIVER
// names) and its functions looked up by name, so nothing here needs CUDA's
// headers or libraries to build. The types and constants below are the
// driver API's, written out.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/CUDA.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <dlfcn.h>

using namespace mlir::tir::runtime;

std::string Device::str() const {
  return std::string(type == CUDA ? "cuda" : "cpu") + "(" + std::to_string(id) +
         ")";
}

namespace {

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

Driver &driver() {
  static Driver *instance = new Driver; // Never destroyed: kernels may
                                        // unload at exit after it.
  return *instance;
}

thread_local int currentDeviceId = 0;
/// The stream launches and timings go to, per device (null: the device's
/// default stream), as the user set it in this thread.
thread_local std::map<int, void *> currentStreams;

CUstream streamOf(int id) {
  auto it = currentStreams.find(id);
  return it == currentStreams.end() ? nullptr
                                    : static_cast<CUstream>(it->second);
}
thread_local std::string pendingLaunchError;

void recordLaunchError(std::string message) {
  if (pendingLaunchError.empty())
    pendingLaunchError = std::move(message);
}

/// Makes device `id` current for a call of the compiled host code; false,
/// the failure kept as a launch's is, where it cannot.
bool activateForHostCode(int id) {
  std::string error;
  if (driver().activate(id, error))
    return true;
  recordLaunchError(error);
  return false;
}

/// A kernel module compiled into host code: its image (PTX text or a
/// cubin/fatbin, owned by the host code), loaded onto each device at the
/// first launch there.
struct KernelModule;
/// A kernel's function on one device, with the limits its code sets.
struct Loaded {
  CUfunction function = nullptr;
  int maxThreads = 0;
  int staticShared = 0;
  int dynamicSharedAllowed = 0;
};
struct Kernel {
  KernelModule *module;
  std::string name;
  std::map<int, Loaded> perDevice;
};
struct KernelModule {
  const void *image;
  bool isPTX;
  int optLevel;
  std::mutex mutex;
  std::map<int, CUmodule> loaded;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;

  /// The kernel's function on the current device, loading the module there
  /// first; null with the launch error recorded on failure.
  Loaded *functionOn(Kernel &kernel, int id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = kernel.perDevice.find(id);
    if (found != kernel.perDevice.end())
      return &found->second;
    Driver &d = driver();
    std::string error;
    if (!d.activate(id, error)) {
      recordLaunchError("cannot launch kernel '" + kernel.name + "': " + error);
      return nullptr;
    }
    auto it = loaded.find(id);
    if (it == loaded.end()) {
      CUmodule module;
      std::vector<char> log(8192, 0);
      int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                       kJitOptimizationLevel};
      void *values[] = {
          log.data(), reinterpret_cast<void *>(log.size()),
          reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
      CUresult rc =
          d.cuModuleLoadDataEx(&module, image, isPTX ? 3 : 0, options, values);
      if (rc) {
        std::string message = "cannot load the kernels of '" + kernel.name +
                              "' on cuda(" + std::to_string(id) +
                              "): " + d.describe("cuModuleLoadDataEx", rc);
        if (log[0])
          message += "\n" + std::string(log.data());
        recordLaunchError(message);
        return nullptr;
      }
      it = loaded.emplace(id, module).first;
    }
    CUfunction function;
    if (CUresult rc =
            d.cuModuleGetFunction(&function, it->second, kernel.name.c_str())) {
      recordLaunchError("kernel '" + kernel.name +
                        "': " + d.describe("cuModuleGetFunction", rc));
      return nullptr;
    }
    Loaded entry;
    entry.function = function;
    d.cuFuncGetAttribute(&entry.maxThreads, kFuncMaxThreadsPerBlock, function);
    d.cuFuncGetAttribute(&entry.staticShared, kFuncSharedSizeBytes, function);
    return &kernel.perDevice.emplace(id, entry).first->second;
  }
};

/// Checks a launch against the device's and the kernel's limits, so that
/// an oversized launch is reported as such rather than as the driver's
/// "invalid argument".
bool checkLaunch(const Kernel &kernel, Loaded &loaded, int id,
                 const intptr_t grid[3], const intptr_t block[3],
                 int32_t dynamicShared) {
  Driver &d = driver();
  // The device's limits, read once per device.
  static std::mutex mutex;
  static std::map<int, cuda::DeviceInfo> infos;
  cuda::DeviceInfo info;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = infos.find(id);
    if (it == infos.end()) {
      std::string error;
      if (!cuda::deviceInfo(id, info, error)) {
        recordLaunchError(error);
        return false;
      }
      it = infos.emplace(id, info).first;
    }
    info = it->second;
  }
  auto fail = [&](const std::string &why) {
    recordLaunchError("cannot launch kernel '" + kernel.name + "' on cuda(" +
                      std::to_string(id) + ") (" + info.name + "): " + why);
    return false;
  };
  static const char *axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (block[i] < 1 || block[i] > info.maxBlock[i])
      return fail("a block of " + std::to_string(block[i]) + " threads in " +
                  axes[i] + "; the device allows 1 to " +
                  std::to_string(info.maxBlock[i]));
    if (grid[i] < 1 || grid[i] > info.maxGrid[i])
      return fail("a grid of " + std::to_string(grid[i]) + " blocks in " +
                  axes[i] + "; the device allows 1 to " +
                  std::to_string(info.maxGrid[i]));
  }
  int64_t threads = int64_t(block[0]) * block[1] * block[2];
  int kernelMax = loaded.maxThreads, staticShared = loaded.staticShared;
  if (threads > info.maxThreadsPerBlock)
    return fail(std::to_string(threads) +
                " threads per block; the device allows " +
                std::to_string(info.maxThreadsPerBlock));
  if (kernelMax > 0 && threads > kernelMax)
    return fail(std::to_string(threads) +
                " threads per block; this kernel's registers allow at most " +
                std::to_string(kernelMax));
  int64_t shared = int64_t(staticShared) + dynamicShared;
  if (shared > info.sharedPerBlockOptin)
    return fail(std::to_string(shared) +
                " bytes of shared memory per block; the device allows " +
                std::to_string(info.sharedPerBlockOptin));
  std::lock_guard<std::mutex> lock(kernel.module->mutex);
  if (dynamicShared > loaded.dynamicSharedAllowed &&
      shared > info.sharedPerBlock) {
    if (CUresult rc = d.cuFuncSetAttribute(
            loaded.function, kFuncMaxDynamicSharedSizeBytes, dynamicShared))
      return fail(d.describe("cuFuncSetAttribute", rc));
    loaded.dynamicSharedAllowed = dynamicShared;
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// The runtime's API
//===----------------------------------------------------------------------===//

int cuda::deviceCount(std::string &error) {
  Driver &d = driver();
  if (!d.loadError.empty()) {
    error = d.loadError;
    return -1;
  }
  int count = 0;
  if (!d.check("cuDeviceGetCount", d.cuDeviceGetCount(&count), error))
    return -1;
  return count;
}

bool cuda::deviceExists(int id, std::string &error) {
  return driver().activate(id, error);
}

bool cuda::deviceInfo(int id, DeviceInfo &info, std::string &error) {
  Driver &d = driver();
  if (!d.activate(id, error))
    return false;
  CUdevice device;
  if (!d.check("cuDeviceGet", d.cuDeviceGet(&device, id), error))
    return false;
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof(name) - 1, device);
  info.name = name;
  auto attr = [&](int which) {
    int value = 0;
    d.cuDeviceGetAttribute(&value, which, device);
    return value;
  };
  info.computeMajor = attr(kAttrComputeMajor);
  info.computeMinor = attr(kAttrComputeMinor);
  info.multiprocessors = attr(kAttrMultiprocessors);
  info.maxThreadsPerBlock = attr(kAttrMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    info.maxBlock[i] = attr(kAttrMaxBlockDimX + i);
    info.maxGrid[i] = attr(kAttrMaxGridDimX + i);
  }
  info.sharedPerBlock = attr(kAttrMaxSharedPerBlock);
  info.sharedPerBlockOptin =
      std::max(attr(kAttrMaxSharedPerBlockOptin), info.sharedPerBlock);
  info.warpSize = attr(kAttrWarpSize);
  d.cuDeviceTotalMem(&info.totalMemory, device);
  return true;
}

void *cuda::allocate(int id, size_t bytes, std::string &error) {
  Driver &d = driver();
  if (!d.activate(id, error))
    return nullptr;
  CUdeviceptr pointer = 0;
  // A zero-sized array still gets an address of its own.
  CUresult rc = d.cuMemAlloc(&pointer, bytes ? bytes : 1);
  constexpr CUresult kOutOfMemory = 2; // CUDA_ERROR_OUT_OF_MEMORY
  if (rc == kOutOfMemory && d.trimPool(id))
    rc = d.cuMemAlloc(&pointer, bytes ? bytes : 1);
  if (!d.check("cuMemAlloc", rc, error)) {
    error += " (asking for " + std::to_string(bytes) + " bytes on cuda(" +
             std::to_string(id) + "))";
    return nullptr;
  }
  return reinterpret_cast<void *>(pointer);
}

bool cuda::release(int id, void *pointer, std::string &error) {
  Driver &d = driver();
  if (!d.activate(id, error))
    return false;
  return d.check("cuMemFree",
                 d.cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)), error);
}

bool cuda::copy(void *dst, Device dstDevice, const void *src, Device srcDevice,
                size_t bytes, std::string &error) {
  if (bytes == 0)
    return true;
  if (dstDevice.type == Device::CPU && srcDevice.type == Device::CPU) {
    std::memcpy(dst, src, bytes);
    return true;
  }
  Driver &d = driver();
  if (dstDevice.type == Device::CUDA && srcDevice.type == Device::CUDA) {
    if (dstDevice.id != srcDevice.id) {
      error = "copies between two GPUs (" + srcDevice.str() + " to " +
              dstDevice.str() + ") are not supported";
      return false;
    }
    return d.activate(dstDevice.id, error) &&
           d.check("cuMemcpyDtoD",
                   d.cuMemcpyDtoD(reinterpret_cast<CUdeviceptr>(dst),
                                  reinterpret_cast<CUdeviceptr>(src), bytes),
                   error);
  }
  if (dstDevice.type == Device::CUDA)
    return d.activate(dstDevice.id, error) &&
           d.check(
               "cuMemcpyHtoD",
               d.cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), src, bytes),
               error);
  return d.activate(srcDevice.id, error) &&
         d.check("cuMemcpyDtoH",
                 d.cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src), bytes),
                 error);
}

bool cuda::synchronize(int id, std::string &error) {
  Driver &d = driver();
  return d.activate(id, error) &&
         d.check("cuCtxSynchronize", d.cuCtxSynchronize(), error);
}

double cuda::timeOnDevice(int id, int number, bool (*run)(void *),
                          void *context, std::string &error) {
  Driver &d = driver();
  if (!d.activate(id, error))
    return -1;
  CUevent start = nullptr, stop = nullptr;
  auto cleanup = [&] {
    if (start)
      d.cuEventDestroy(start);
    if (stop)
      d.cuEventDestroy(stop);
  };
  if (!d.check("cuEventCreate", d.cuEventCreate(&start, 0), error) ||
      !d.check("cuEventCreate", d.cuEventCreate(&stop, 0), error)) {
    cleanup();
    return -1;
  }
  CUstream stream = streamOf(id);
  bool ok = d.check("cuEventRecord", d.cuEventRecord(start, stream), error);
  for (int i = 0; ok && i < number; ++i)
    ok = run(context);
  float ms = 0;
  ok = ok && d.check("cuEventRecord", d.cuEventRecord(stop, stream), error) &&
       d.check("cuEventSynchronize", d.cuEventSynchronize(stop), error) &&
       d.check("cuEventElapsedTime", d.cuEventElapsedTime(&ms, start, stop),
               error);
  cleanup();
  if (!ok) {
    if (error.empty())
      error = takeLaunchError();
    return -1;
  }
  return ms / 1e3 / (number > 0 ? number : 1);
}

void cuda::setCurrentDevice(int id) { currentDeviceId = id; }

void *cuda::createStream(int id, std::string &error) {
  Driver &d = driver();
  CUstream stream = nullptr;
  if (!d.activate(id, error) ||
      !d.check("cuStreamCreate", d.cuStreamCreate(&stream, 0), error))
    return nullptr;
  return stream;
}

bool cuda::destroyStream(int id, void *stream, std::string &error) {
  Driver &d = driver();
  if (!stream) {
    error = "the device's default stream cannot be destroyed";
    return false;
  }
  if (streamOf(id) == stream)
    currentStreams.erase(id);
  return d.activate(id, error) &&
         d.check("cuStreamDestroy",
                 d.cuStreamDestroy(static_cast<CUstream>(stream)), error);
}

void cuda::setStream(int id, void *stream) {
  if (stream)
    currentStreams[id] = stream;
  else
    currentStreams.erase(id);
}

void *cuda::currentStream(int id) { return streamOf(id); }

bool cuda::synchronizeStream(int id, void *stream, std::string &error) {
  Driver &d = driver();
  return d.activate(id, error) &&
         d.check("cuStreamSynchronize",
                 d.cuStreamSynchronize(static_cast<CUstream>(stream)), error);
}
int cuda::currentDevice() { return currentDeviceId; }

std::string cuda::takeLaunchError() {
  std::string message = std::move(pendingLaunchError);
  pendingLaunchError.clear();
  return message;
}

//===----------------------------------------------------------------------===//
// MLIR's host-side ABI
//===----------------------------------------------------------------------===//

extern "C" {

// Modules live as long as the host code holding their images; nothing is
// loaded on a device until a launch needs it.
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return new KernelModule{data, /*isPTX=*/false, 0, {}, {}, {}};
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return new KernelModule{data, /*isPTX=*/true, optLevel, {}, {}, {}};
}

void mgpuModuleUnload(void *module) {
  // At library unload (or the JIT's end): the module leaves each device it
  // was loaded on. At exit the driver may be shut down already: its errors
  // are of no use then.
  auto *m = static_cast<KernelModule *>(module);
  Driver &d = driver();
  for (auto &[id, loaded] : m->loaded) {
    std::string ignored;
    if (d.activate(id, ignored))
      d.cuModuleUnload(loaded);
  }
  delete m;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  auto *m = static_cast<KernelModule *>(module);
  std::lock_guard<std::mutex> lock(m->mutex);
  std::unique_ptr<Kernel> &kernel = m->kernels[name];
  if (!kernel)
    kernel.reset(new Kernel{m, name, {}});
  return kernel.get();
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void * /*stream*/,
                      void **params, void **extra, size_t /*paramsCount*/) {
  // After a failure, the rest of the call's launches are skipped: they
  // would read what the failed one did not write.
  if (!pendingLaunchError.empty())
    return;
  auto *kernel = static_cast<Kernel *>(function);
  int id = currentDeviceId;
  Loaded *loaded = kernel->module->functionOn(*kernel, id);
  if (!loaded)
    return;
  intptr_t grid[3] = {gridX, gridY, gridZ};
  intptr_t block[3] = {blockX, blockY, blockZ};
  if (!checkLaunch(*kernel, *loaded, id, grid, block, smem))
    return;
  Driver &d = driver();
  std::string error;
  if (!d.activate(id, error)) {
    recordLaunchError(error);
    return;
  }
  if (CUresult rc =
          d.cuLaunchKernel(loaded->function, gridX, gridY, gridZ, blockX,
                           blockY, blockZ, smem, streamOf(id), params, extra))
    recordLaunchError("kernel '" + kernel->name +
                      "': " + d.describe("cuLaunchKernel", rc));
}

// Launches go in order to the stream set for the device (its default
// stream unless setStream chose another); the host waits at copies, at
// synchronize() and at the end of timings.
void *mgpuStreamCreate() { return nullptr; }
void mgpuStreamDestroy(void *) {}
void mgpuStreamSynchronize(void *) {}

// A graph function's intermediates: allocated and freed in order with its
// launches on the device's stream (the stream-ordered allocator, its pool
// keeping what is freed for the next call), or synchronously where the
// driver has no such allocator. A failure is kept as a launch failure is,
// and what follows it in the call is skipped.
void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/,
                   bool /*isHostShared*/) {
  if (!pendingLaunchError.empty())
    return nullptr;
  Driver &d = driver();
  int id = currentDeviceId;
  if (!activateForHostCode(id))
    return nullptr;
  size_t bytes = sizeBytes ? sizeBytes : 1;
  CUdeviceptr pointer = 0;
  bool pool = d.poolFor(id);
  auto allocate = [&] {
    return pool ? d.cuMemAllocAsync(&pointer, bytes, streamOf(id))
                : d.cuMemAlloc(&pointer, bytes);
  };
  CUresult rc = allocate();
  constexpr CUresult kOutOfMemory = 2; // CUDA_ERROR_OUT_OF_MEMORY
  if (rc == kOutOfMemory && d.trimPool(id))
    rc = allocate();
  if (rc) {
    recordLaunchError(
        "cannot allocate an intermediate of " + std::to_string(sizeBytes) +
        " bytes on cuda(" + std::to_string(id) +
        "): " + d.describe(pool ? "cuMemAllocAsync" : "cuMemAlloc", rc));
    return nullptr;
  }
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (!ptr)
    return;
  Driver &d = driver();
  int id = currentDeviceId;
  if (!activateForHostCode(id))
    return;
  auto pointer = reinterpret_cast<CUdeviceptr>(ptr);
  bool pool = d.poolFor(id);
  CUresult rc =
      pool ? d.cuMemFreeAsync(pointer, streamOf(id)) : d.cuMemFree(pointer);
  if (rc)
    recordLaunchError(d.describe(pool ? "cuMemFreeAsync" : "cuMemFree", rc));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void * /*stream*/) {
  if (!pendingLaunchError.empty() || sizeBytes == 0)
    return;
  Driver &d = driver();
  int id = currentDeviceId;
  if (!activateForHostCode(id))
    return;
  if (CUresult rc = d.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                    reinterpret_cast<CUdeviceptr>(src),
                                    sizeBytes, streamOf(id)))
    recordLaunchError(d.describe("cuMemcpyAsync", rc));
}

// A graph function's constants: one copy per device, made at the first
// call there (the host waits for the device once then: a copy from
// pageable memory may return before it lands, and the kernels may run on
// a stream that does not wait for it), under a slot of the library's that
// its static destructor releases.
namespace {
struct DeviceConstant {
  std::map<int, CUdeviceptr> copies;
};
std::mutex constantsMutex;
} // namespace

void *tirCudaConstant(void **slot, const void *host, int64_t bytes) {
  if (!pendingLaunchError.empty())
    return nullptr;
  int id = currentDeviceId;
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto *constant = static_cast<DeviceConstant *>(*slot);
  if (!constant)
    *slot = constant = new DeviceConstant;
  auto found = constant->copies.find(id);
  if (found != constant->copies.end())
    return reinterpret_cast<void *>(found->second);
  std::string error;
  void *copy = cuda::allocate(id, bytes, error);
  if (copy && (!cuda::copy(copy, {Device::CUDA, id}, host, {Device::CPU, 0},
                           bytes, error) ||
               !cuda::synchronize(id, error))) {
    std::string ignored;
    cuda::release(id, copy, ignored);
    copy = nullptr;
  }
  if (!copy) {
    recordLaunchError("cannot place a constant of " + std::to_string(bytes) +
                      " bytes on cuda(" + std::to_string(id) + "): " + error);
    return nullptr;
  }
  constant->copies[id] = reinterpret_cast<CUdeviceptr>(copy);
  return copy;
}

void tirCudaReleaseConstant(void **slot) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto *constant = static_cast<DeviceConstant *>(*slot);
  if (!constant)
    return;
  // At exit the driver may be shut down already: its errors are of no use.
  for (auto [id, pointer] : constant->copies) {
    std::string ignored;
    cuda::release(id, reinterpret_cast<void *>(pointer), ignored);
  }
  delete constant;
  *slot = nullptr;
}

} // extern "C"
