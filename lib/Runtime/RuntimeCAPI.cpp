//===- RuntimeCAPI.cpp - C API: load and call tir code, GPUs --------------===//
//
// The runtime half of the C API (TensorIR-c/Runtime.h): loading exported
// libraries, calling their functions, GPU memory and timing. Part of the
// runtime library, so a deployed program (or Python through ctypes) needs
// no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#include "TensorIR-c/Runtime.h"
#include "TensorIR/Runtime/CAPISupport.h"
#include "TensorIR/Runtime/CUDA.h"
#include "TensorIR/Runtime/Runtime.h"

#include <string>
#include <vector>

namespace rt = mlir::tir::runtime;
using rt::capi::setError;
using rt::capi::wrap;

struct tirModule {
  std::unique_ptr<rt::Module> module;
  std::vector<std::string> signatures;
};

static thread_local std::string lastError;

void rt::capi::setError(std::string message) { lastError = std::move(message); }

tirModule *rt::capi::wrap(std::unique_ptr<Module> module) {
  auto *m = new tirModule;
  for (const FunctionInfo &f : module->functions())
    m->signatures.push_back(f.str());
  m->module = std::move(module);
  return m;
}

/// The C arguments as the runtime's; false (and the message set) when one
/// is malformed.
static bool convertArgs(const tirArg *args, int32_t numArgs,
                        std::vector<rt::Arg> &converted) {
  for (int32_t i = 0; i < numArgs; ++i) {
    const tirArg &a = args[i];
    switch (a.kind) {
    case TIR_ARG_INT:
      converted.push_back(rt::Arg::scalar(static_cast<int64_t>(a.intValue)));
      break;
    case TIR_ARG_FLOAT:
      converted.push_back(rt::Arg::scalar(a.floatValue));
      break;
    case TIR_ARG_BUFFER: {
      if (a.buffer.ndim < 0 || (a.buffer.ndim > 0 && !a.buffer.shape)) {
        setError("argument " + std::to_string(i) +
                 ": a buffer needs a shape for each of its dimensions");
        return false;
      }
      std::vector<int64_t> shape(a.buffer.shape,
                                 a.buffer.shape + a.buffer.ndim);
      std::vector<int64_t> strides;
      if (a.buffer.strides)
        strides.assign(a.buffer.strides, a.buffer.strides + a.buffer.ndim);
      rt::DataType dtype{static_cast<rt::DataType::Code>(a.buffer.code),
                         a.buffer.bits};
      if (!rt::DataType::parse(dtype.str()) ||
          (dtype.code == rt::DataType::Bool && dtype.bits != 1 &&
           dtype.bits != 8)) {
        setError("argument " + std::to_string(i) + ": element type code " +
                 std::to_string(a.buffer.code) + " with " +
                 std::to_string(a.buffer.bits) +
                 " bits is not one the runtime knows (TIR_INT, TIR_UINT, "
                 "TIR_FLOAT, TIR_BFLOAT, TIR_BOOL with 8, 16, 32 or 64 "
                 "bits)");
        return false;
      }
      if (dtype.code == rt::DataType::Bool)
        dtype.bits = 1;
      rt::Device device;
      if (a.buffer.deviceType == TIR_DEVICE_CUDA)
        device.type = rt::Device::CUDA;
      else if (a.buffer.deviceType != 0 &&
               a.buffer.deviceType != TIR_DEVICE_CPU) {
        setError("argument " + std::to_string(i) + ": device type " +
                 std::to_string(a.buffer.deviceType) +
                 " is not one the runtime knows (TIR_DEVICE_CPU, "
                 "TIR_DEVICE_CUDA)");
        return false;
      }
      device.id = a.buffer.deviceId;
      converted.push_back(rt::Arg::buffer(
          a.buffer.data, dtype, std::move(shape), std::move(strides), device));
      break;
    }
    default:
      setError("argument " + std::to_string(i) + ": unknown kind " +
               std::to_string(a.kind));
      return false;
    }
  }
  return true;
}

extern "C" {

tirModule *tirModuleLoad(const char *path) {
  if (!path) {
    setError("tirModuleLoad: path is NULL");
    return nullptr;
  }
  std::string error;
  std::unique_ptr<rt::Module> module = rt::Module::load(path, error);
  if (!module) {
    setError(error);
    return nullptr;
  }
  return wrap(std::move(module));
}

void tirModuleDestroy(tirModule *module) { delete module; }

int32_t tirModuleNumFunctions(const tirModule *module) {
  if (!module) {
    setError("tirModuleNumFunctions: module is NULL");
    return -1;
  }
  return static_cast<int32_t>(module->signatures.size());
}

/// Function `index` of `module`; nullptr (and the message, naming `api`)
/// when there is none.
static const rt::FunctionInfo *functionAt(const tirModule *module,
                                          int32_t index, const char *api) {
  if (!module || index < 0 || index >= tirModuleNumFunctions(module)) {
    setError(std::string(api) + ": " +
             (module ? "no function " + std::to_string(index)
                     : std::string("module is NULL")));
    return nullptr;
  }
  return &module->module->functions()[index];
}

const char *tirModuleFunctionSignature(const tirModule *module, int32_t index) {
  if (!functionAt(module, index, "tirModuleFunctionSignature"))
    return nullptr;
  return module->signatures[index].c_str();
}

const char *tirModuleFunctionName(const tirModule *module, int32_t index) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionName");
  return function ? function->name.c_str() : nullptr;
}

int32_t tirModuleFunctionNumParams(const tirModule *module, int32_t index) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionNumParams");
  return function ? static_cast<int32_t>(function->args.size()) : -1;
}

int32_t tirModuleFunctionReturnsTuple(const tirModule *module, int32_t index) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionReturnsTuple");
  return function ? (function->tupleResult ? 1 : 0) : -1;
}

const char *tirModuleFunctionResultNesting(const tirModule *module,
                                           int32_t index) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionResultNesting");
  return function ? function->resultNesting.c_str() : nullptr;
}

const char *tirModuleFunctionInterface(const tirModule *module, int32_t index) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionInterface");
  return function ? function->interface.c_str() : nullptr;
}

int tirModuleFunctionParam(const tirModule *module, int32_t index,
                           int32_t param, tirParam *out) {
  const rt::FunctionInfo *function =
      functionAt(module, index, "tirModuleFunctionParam");
  if (!function)
    return 1;
  if (!out || param < 0 ||
      param >= static_cast<int32_t>(function->args.size())) {
    setError("tirModuleFunctionParam: " +
             (out ? "function '" + function->name + "' has no parameter " +
                        std::to_string(param)
                  : std::string("out is NULL")));
    return 1;
  }
  const rt::ArgInfo &arg = function->args[param];
  out->name = arg.name.c_str();
  out->kind = arg.isBuffer          ? TIR_ARG_BUFFER
              : arg.dtype.isFloat() ? TIR_ARG_FLOAT
                                    : TIR_ARG_INT;
  out->code = static_cast<uint8_t>(arg.dtype.code);
  out->bits = arg.dtype.bits;
  out->ndim = arg.isBuffer ? static_cast<int32_t>(arg.shape.size()) : 0;
  out->shape = arg.isBuffer && !arg.shape.empty() ? arg.shape.data() : nullptr;
  out->written = arg.written || arg.result;
  out->result = arg.result;
  return 0;
}

int tirModuleCall(tirModule *module, const char *function, const tirArg *args,
                  int32_t numArgs) {
  if (!module || !function || numArgs < 0 || (numArgs > 0 && !args)) {
    setError(
        std::string("tirModuleCall: ") +
        (!module     ? "module is NULL"
         : !function ? "function name is NULL"
         : numArgs < 0
             ? "negative argument count " + std::to_string(numArgs)
             : "args is NULL for " + std::to_string(numArgs) + " arguments"));
    return 1;
  }
  std::vector<rt::Arg> converted;
  if (!convertArgs(args, numArgs, converted))
    return 1;
  std::string error;
  if (!module->module->call(function, converted, error)) {
    setError(error);
    return 1;
  }
  return 0;
}

int32_t tirModuleTarget(const tirModule *module) {
  if (!module) {
    setError("tirModuleTarget: module is NULL");
    return -1;
  }
  return module->module->target() == rt::Device::CUDA ? TIR_DEVICE_CUDA
                                                      : TIR_DEVICE_CPU;
}

/// 0 when `ok`, else 1 with `error` as the last error (the C API's int
/// status).
static int status(bool ok, const std::string &error) {
  if (ok)
    return 0;
  setError(error);
  return 1;
}

int32_t tirCudaDeviceCount(void) {
  std::string error;
  int count = rt::cuda::deviceCount(error);
  if (count < 0)
    setError(error);
  return count;
}

void *tirCudaAlloc(int32_t deviceId, size_t bytes) {
  std::string error;
  void *data = rt::cuda::allocate(deviceId, bytes, error);
  if (!data)
    setError(error);
  return data;
}

int tirCudaFree(int32_t deviceId, void *data) {
  std::string error;
  bool ok = rt::cuda::release(deviceId, data, error);
  return status(ok, error);
}

static bool deviceOf(int32_t type, int32_t id, rt::Device &device,
                     const char *which) {
  if (type != TIR_DEVICE_CPU && type != TIR_DEVICE_CUDA) {
    setError(std::string("tirCopy: ") + which + " device type " +
             std::to_string(type) + " is not TIR_DEVICE_CPU or " +
             "TIR_DEVICE_CUDA");
    return false;
  }
  device.type = type == TIR_DEVICE_CUDA ? rt::Device::CUDA : rt::Device::CPU;
  device.id = id;
  return true;
}

int tirCopy(void *dst, int32_t dstType, int32_t dstId, const void *src,
            int32_t srcType, int32_t srcId, size_t bytes) {
  rt::Device to, from;
  if (!deviceOf(dstType, dstId, to, "destination") ||
      !deviceOf(srcType, srcId, from, "source"))
    return 1;
  if (bytes && (!dst || !src)) {
    setError("tirCopy: NULL pointer");
    return 1;
  }
  std::string error;
  bool ok = rt::cuda::copy(dst, to, src, from, bytes, error);
  return status(ok, error);
}

void *tirCudaStreamCreate(int32_t deviceId) {
  std::string error;
  void *stream = rt::cuda::createStream(deviceId, error);
  if (!stream)
    setError(error);
  return stream;
}

int tirCudaStreamDestroy(int32_t deviceId, void *stream) {
  std::string error;
  bool ok = rt::cuda::destroyStream(deviceId, stream, error);
  return status(ok, error);
}

void tirCudaSetStream(int32_t deviceId, void *stream) {
  rt::cuda::setStream(deviceId, stream);
}

int tirCudaStreamSynchronize(int32_t deviceId, void *stream) {
  std::string error;
  bool ok = rt::cuda::synchronizeStream(deviceId, stream, error);
  return status(ok, error);
}

int tirCudaSynchronize(int32_t deviceId) {
  std::string error;
  bool ok = rt::cuda::synchronize(deviceId, error);
  return status(ok, error);
}

int tirModuleTimeCall(tirModule *module, const char *function,
                      const tirArg *args, int32_t numArgs, int32_t deviceId,
                      int32_t number, double *seconds) {
  if (!module || !function || !seconds || number < 1 ||
      (numArgs > 0 && !args)) {
    setError("tirModuleTimeCall: " +
             std::string(!module      ? "module is NULL"
                         : !function  ? "function name is NULL"
                         : !seconds   ? "seconds is NULL"
                         : number < 1 ? "number must be at least 1"
                                      : "args is NULL"));
    return 1;
  }
  std::vector<rt::Arg> converted;
  if (!convertArgs(args, numArgs, converted))
    return 1;
  std::string error;
  double mean =
      module->module->timeOnGPU(function, converted, deviceId, number, error);
  if (mean < 0) {
    setError("tirModuleTimeCall: " + error);
    return 1;
  }
  *seconds = mean;
  return 0;
}

int tirSetNumThreads(int32_t threads) {
  if (rt::setNumThreads(threads))
    return 0;
  setError("no OpenMP runtime is loaded");
  return 1;
}

const char *tirGetLastError(void) { return lastError.c_str(); }

} // extern "C"
