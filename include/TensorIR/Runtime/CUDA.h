//===- CUDA.h - NVIDIA GPUs through the CUDA driver API ---------*- C++ -*-===//
//
// The GPU half of tir's runtime. The CUDA driver (libcuda.so.1) is loaded
// with dlopen the first time a GPU is asked for, so that neither building
// nor running CPU code needs CUDA; every failure (no driver, no GPU, a
// driver call that fails) comes back as a message that names the call and
// the driver's own words.
//
// Compiled host code reaches the GPU through the `mgpu*` functions MLIR's
// gpu-to-llvm lowering calls (declared at the end); this runtime defines
// them. A kernel module is loaded onto a device lazily, at the first
// launch from it on that device, so that a library holding kernels loads
// on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_RUNTIME_CUDA_H
#define TENSORIR_RUNTIME_CUDA_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir::tir::runtime {

/// Where memory lives: DLPack's device types (1 CPU, 2 CUDA).
struct Device {
  enum Type : int32_t { CPU = 1, CUDA = 2 };
  Type type = CPU;
  int32_t id = 0;

  /// "cpu(0)", "cuda(1)".
  std::string str() const;
  bool operator==(const Device &o) const {
    return type == o.type && id == o.id;
  }
  bool operator!=(const Device &o) const { return !(*this == o); }
};

namespace cuda {

/// What the driver says of a device.
struct DeviceInfo {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  int maxThreadsPerBlock = 0;
  int maxBlock[3] = {0, 0, 0};
  int maxGrid[3] = {0, 0, 0};
  /// Shared memory a block gets without asking, and at most (opt-in).
  int sharedPerBlock = 0, sharedPerBlockOptin = 0;
  int warpSize = 32;
  size_t totalMemory = 0;
};

/// The number of CUDA devices, or -1 with `error` saying why there is no
/// usable driver (not installed, or cuInit failed).
int deviceCount(std::string &error);

/// Whether device `id` exists (`error` says why not).
bool deviceExists(int id, std::string &error);

/// The device's attributes; false with `error` set when it does not exist.
bool deviceInfo(int id, DeviceInfo &info, std::string &error);

/// Device memory; null with `error` set on failure.
void *allocate(int id, size_t bytes, std::string &error);
bool release(int id, void *pointer, std::string &error);

/// Copies `bytes` between host and device memory or within a device
/// (synchronous, after the work launched before it).
bool copy(void *dst, Device dstDevice, const void *src, Device srcDevice,
          size_t bytes, std::string &error);

/// Waits for the work launched on the device; reports a kernel's failure.
bool synchronize(int id, std::string &error);

/// Device events around `run`, called `number` times; the mean time of one
/// run in seconds, or a negative value with `error` set.
double timeOnDevice(int id, int number, bool (*run)(void *), void *context,
                    std::string &error);

/// Streams (TVM's create_raw_stream / set_raw_stream / free_raw_stream):
/// launches and timings on device `id` go to the stream set for it in the
/// calling thread (null: the device's default stream). Streams made here
/// synchronize with the default stream, so copies (on the default stream)
/// still follow the work launched before them.
void *createStream(int id, std::string &error);
bool destroyStream(int id, void *stream, std::string &error);
void setStream(int id, void *stream);
void *currentStream(int id);
bool synchronizeStream(int id, void *stream, std::string &error);

/// The device launches go to until the next call (each thread keeps its
/// own; 0 by default).
void setCurrentDevice(int id);
int currentDevice();

/// The first failure of a launch (or module load) since the last call, and
/// clears it: compiled host code cannot return errors from its mgpu* calls,
/// so they are kept here and reported by the runtime after the call.
std::string takeLaunchError();

} // namespace cuda
} // namespace mlir::tir::runtime

// The functions MLIR's gpu-to-llvm host code calls (the ABI of MLIR's own
// CUDA runtime wrappers), defined over the driver above.
extern "C" {
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
// tir's own: a graph function's constant in GPU memory (a copy made at the
// first call on the current device, kept under `slot`), and its release
// (--tir-graph-buffers-to-device).
void *tirCudaConstant(void **slot, const void *host, int64_t bytes);
void tirCudaReleaseConstant(void **slot);
}

#endif // TENSORIR_RUNTIME_CUDA_H
