//===- CUDA.cpp - NVIDIA GPUs through the CUDA driver API -----------------===//
//
// The driver (CUDADriver.h) is opened with dlopen and its functions looked
// up by name, so nothing here needs CUDA's headers or libraries to build.
// Here: the runtime's device API (memory, copies, streams, timing) and
// MLIR's host ABI for kernels (modules, launches); a graph function's
// memory is CUDAGraphMemory.cpp's.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/CUDA.h"

#include "CUDADriver.h"

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

namespace mlir::tir::runtime::cudadriver {

Driver &driver() {
  static Driver *instance = new Driver; // Never destroyed: kernels may
                                        // unload at exit after it.
  return *instance;
}

thread_local int currentDeviceId = 0;
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

bool activateForHostCode(int id) {
  std::string error;
  if (driver().activate(id, error))
    return true;
  recordLaunchError(error);
  return false;
}

} // namespace mlir::tir::runtime::cudadriver

using namespace mlir::tir::runtime::cudadriver;

namespace {

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

} // extern "C"
