//===- CUDAGraphMemory.cpp - a graph function's memory on the GPU --------===//
//
// The compiled host code of a graph function built for a GPU
// (--tir-graph-buffers-to-device) allocates, frees and copies its tensors
// through MLIR's host ABI (mgpuMemAlloc, mgpuMemFree, mgpuMemcpy) and reads
// its constants from device copies (tirCudaConstant, released by
// tirCudaReleaseConstant when its library unloads).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/CUDA.h"

#include "CUDADriver.h"

using namespace mlir::tir::runtime;
using namespace mlir::tir::runtime::cudadriver;

extern "C" {

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
