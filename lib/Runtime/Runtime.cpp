//===- Runtime.cpp - call compiled tir functions with buffers -------------===//

#include "TensorIR/Runtime/Runtime.h"
#include "Format.h"
#include "Packed.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>

using namespace mlir::tir::runtime;
using detail::shapeStr;

//===----------------------------------------------------------------------===//
// Modules and calls
//===----------------------------------------------------------------------===//

Module::Module(std::vector<FunctionInfo> functions, Lookup lookup,
               std::shared_ptr<void> owner, Device::Type target)
    : signatures(std::move(functions)), lookupSymbol(std::move(lookup)),
      owner(std::move(owner)), targetType(target) {
  // Each entry point is looked up once: a JIT lookup takes the execution
  // session's locks, a few microseconds that every call paid before.
  for (const FunctionInfo &f : signatures)
    entryPoints.push_back(lookupSymbol(packedSymbol(f.name)));
  // Calls of packed functions go through the runtime's dispatcher.
  if (auto *hook = static_cast<void **>(lookupSymbol(kPackedHookSymbol)))
    *hook = reinterpret_cast<void *>(&detail::dispatchPacked);
}

std::unique_ptr<Module> Module::load(const std::string &path,
                                     std::string &error) {
  // A bare file name is a file here, not one for the loader to search.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  removeStaleOpenMPRegistration();
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = "cannot load '" + path + "': " + dlerror();
    return nullptr;
  }
  std::shared_ptr<void> owner(handle, [](void *h) { dlclose(h); });
  auto *metadata = static_cast<const char *>(dlsym(handle, kMetadataSymbol));
  if (!metadata) {
    error = "'" + path + "' is not a library exported by tir (it has no " +
            kMetadataSymbol + " symbol)";
    return nullptr;
  }
  std::vector<FunctionInfo> functions;
  if (!parseSignatures(metadata, functions, error)) {
    error = "'" + path + "': " + error;
    return nullptr;
  }
  auto *target = static_cast<const char *>(dlsym(handle, kTargetSymbol));
  Device::Type type = Device::CPU;
  if (target && std::string(target) == "cuda")
    type = Device::CUDA;
  else if (target && std::string(target) != "cpu") {
    error = "'" + path + "' runs on '" + target +
            "', which this runtime does not know";
    return nullptr;
  }
  return std::make_unique<Module>(
      std::move(functions),
      [handle](const std::string &symbol) {
        return dlsym(handle, symbol.c_str());
      },
      std::move(owner), type);
}

const FunctionInfo *Module::find(const std::string &name) const {
  for (const FunctionInfo &f : signatures)
    if (f.name == name)
      return &f;
  return nullptr;
}

bool Module::check(const FunctionInfo &info, const std::vector<Arg> &args,
                   std::string &error) const {
  if (args.size() != info.args.size()) {
    error = "'" + info.name + "' takes " + std::to_string(info.args.size()) +
            " arguments, got " + std::to_string(args.size()) + "; it is " +
            info.str();
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &expected = info.args[i];
    const Arg &given = args[i];
    // The message's start, built only for an error (every call checks).
    auto where = [&] {
      return "argument " + std::to_string(i) + " ('" + expected.name +
             "') of '" + info.name + "': ";
    };
    if (!expected.isBuffer) {
      if (given.kind == Arg::Buffer) {
        error = where() + "expected a scalar " + expected.dtype.str() +
                ", got a buffer";
        return false;
      }
      bool floatParam = expected.dtype.isFloat();
      if (given.kind == Arg::Float && !floatParam) {
        error = where() + "expected an integer (" + expected.dtype.str() +
                "), got a float";
        return false;
      }
      continue;
    }
    if (given.kind != Arg::Buffer) {
      error = where() + "expected a " + expected.typeStr() +
              " buffer, got a scalar";
      return false;
    }
    if (given.dtype != expected.dtype) {
      error = where() + "expected element type " + expected.dtype.str() +
              ", got " + given.dtype.str();
      return false;
    }
    if (given.shape.size() != expected.shape.size()) {
      error = where() + "expected rank " +
              std::to_string(expected.shape.size()) + " " +
              shapeStr(expected.shape) + ", got rank " +
              std::to_string(given.shape.size()) + " " + shapeStr(given.shape);
      return false;
    }
    int64_t elements = 1;
    for (size_t d = 0; d < given.shape.size(); ++d) {
      if (given.shape[d] < 0 ||
          (expected.shape[d] >= 0 && expected.shape[d] != given.shape[d])) {
        error = where() + "expected shape " + shapeStr(expected.shape) +
                ", got " + shapeStr(given.shape);
        return false;
      }
      if (__builtin_mul_overflow(elements, given.shape[d], &elements)) {
        error = where() + "has more elements than a 64-bit size can count, " +
                shapeStr(given.shape);
        return false;
      }
    }
    if (!given.strides.empty() && given.strides.size() != given.shape.size()) {
      error = where() + "has " + std::to_string(given.strides.size()) +
              " strides for " + std::to_string(given.shape.size()) +
              " dimensions";
      return false;
    }
    // The strides given (contiguous when none are) against those the
    // function takes (contiguous unless it fixes its own), innermost first,
    // without building either.
    int64_t givenRunning = 1, wantedRunning = 1;
    for (size_t d = given.shape.size(); d-- > 0 && elements != 0;) {
      int64_t givenStride =
          given.strides.empty() ? givenRunning : given.strides[d];
      int64_t wantedStride =
          expected.strides.empty() ? wantedRunning : expected.strides[d];
      givenRunning *= given.shape[d];
      wantedRunning *= given.shape[d];
      // A dimension of size 1 is never stepped along, and an empty array
      // not at all: any stride will do.
      if (given.shape[d] == 1 || wantedStride < 0 ||
          wantedStride == givenStride)
        continue;
      std::vector<int64_t> wanted = expected.strides.empty()
                                        ? contiguousStrides(given.shape)
                                        : expected.strides;
      std::vector<int64_t> givenStrides = given.strides.empty()
                                              ? contiguousStrides(given.shape)
                                              : given.strides;
      error = where() + "expected strides " + shapeStr(wanted) +
              " (in elements), got " + shapeStr(givenStrides) +
              (expected.strides.empty() ? "; the function takes row-major "
                                          "contiguous buffers"
                                        : "");
      return false;
    }
    if (!given.data && elements != 0) {
      error = where() + "has no data";
      return false;
    }
    // GPU kernels assume their buffers 16-byte aligned (loads of four
    // floats at once); cuMemAlloc gives 256.
    if (targetType == Device::CUDA && given.device.type == Device::CUDA &&
        reinterpret_cast<uintptr_t>(given.data) % 16 != 0) {
      error = where() + "is not aligned to 16 bytes; GPU functions take arrays "
                        "that start 16-byte aligned (as device allocations do)";
      return false;
    }
    if (given.device.type != targetType) {
      error = where() + "is on " + given.device.str() + "; the function runs " +
              (targetType == Device::CUDA
                   ? "on a CUDA GPU: copy it there first (nd.array(x, "
                     "tvm.cuda(0)))"
                   : "on the CPU: copy it there first (.numpy())");
      return false;
    }
  }
  // A CUDA module's kernels run on one GPU, which holds all its buffers.
  const Arg *first = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != Arg::Buffer || targetType != Device::CUDA)
      continue;
    if (!first) {
      first = &args[i];
    } else if (args[i].device != first->device) {
      error = "argument " + std::to_string(i) + " ('" + info.args[i].name +
              "') of '" + info.name + "': is on " + args[i].device.str() +
              ", another argument on " + first->device.str() +
              "; a call runs on one GPU";
      return false;
    }
  }
  return checkScalars(info, args, error) && checkSizes(info, args, error) &&
         checkNoOverlap(info, args, error);
}

static std::string argWhere(const FunctionInfo &info, size_t i) {
  return "argument " + std::to_string(i) + " ('" + info.args[i].name +
         "') of '" + info.name + "': ";
}

bool Module::checkScalars(const FunctionInfo &info,
                          const std::vector<Arg> &args,
                          std::string &error) const {
  // An integer that does not fit the parameter's type would be truncated
  // silently when stored: refuse it.
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &expected = info.args[i];
    if (expected.isBuffer || args[i].kind != Arg::Int)
      continue;
    DataType t = expected.dtype;
    if (t.isFloat())
      continue;
    int64_t v = args[i].intValue;
    int64_t lo, hi;
    if (t.code == DataType::Bool) {
      lo = 0;
      hi = 1;
    } else if (t.code == DataType::Int) {
      lo = t.bits >= 64 ? INT64_MIN : -(int64_t(1) << (t.bits - 1));
      hi = t.bits >= 64 ? INT64_MAX : (int64_t(1) << (t.bits - 1)) - 1;
    } else {
      lo = 0;
      hi = t.bits >= 63 ? INT64_MAX : (int64_t(1) << t.bits) - 1;
    }
    if (v < lo || v > hi) {
      error = argWhere(info, i) + std::to_string(v) + " does not fit " +
              t.str() + " [" + std::to_string(lo) + ", " + std::to_string(hi) +
              "]";
      return false;
    }
  }
  return true;
}

/// The value a size term stands for at this call.
static int64_t termValue(const SizeTerm &t, const std::vector<Arg> &args) {
  return t.dim < 0 ? args[t.arg].intValue : args[t.arg].shape[t.dim];
}

/// "n = 100 (argument 0), 'A' dimension 0 = 8".
static std::string describeTerms(const FunctionInfo &info,
                                 const SizeBound &bound,
                                 const std::vector<Arg> &args) {
  std::string s;
  for (const SizeTerm &t : bound.terms) {
    if (!s.empty())
      s += ", ";
    if (t.dim < 0)
      s += info.args[t.arg].name + " = " + std::to_string(termValue(t, args)) +
           " (argument " + std::to_string(t.arg) + ")";
    else
      s += "'" + info.args[t.arg].name + "' dimension " +
           std::to_string(t.dim) + " = " + std::to_string(termValue(t, args));
  }
  return s;
}

/// The value of `bound`'s linear form at this call; nullopt on overflow.
static std::optional<int64_t> evaluate(const SizeBound &bound,
                                       const std::vector<Arg> &args) {
  int64_t value = bound.constant;
  for (const SizeTerm &t : bound.terms) {
    int64_t product;
    if (__builtin_mul_overflow(t.coeff, termValue(t, args), &product) ||
        __builtin_add_overflow(value, product, &value))
      return std::nullopt;
  }
  return value;
}

bool Module::checkSizes(const FunctionInfo &info, const std::vector<Arg> &args,
                        std::string &error) const {
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &param = info.args[i];
    for (const SizeBound &bound : param.bounds) {
      if (bound.kind == SizeBound::Equal)
        continue; // Below, once every access is known to fit.
      std::string terms = describeTerms(info, bound, args);
      std::optional<int64_t> value = evaluate(bound, args);
      if (!value) {
        error = argWhere(info, i) + "the size " + bound.where + " needs" +
                (param.isBuffer ? " from dimension " + std::to_string(bound.dim)
                                : std::string()) +
                " overflows 64-bit integers (" + terms + ")";
        return false;
      }
      if (!param.isBuffer) {
        // The extent of a loop or an iteration domain.
        if (*value >= 0)
          continue;
        bool itself = bound.constant == 0 && bound.terms.size() == 1 &&
                      bound.terms[0].coeff == 1 && bound.terms[0].arg == i &&
                      bound.terms[0].dim < 0;
        error = itself ? "argument " + std::to_string(i) + " ('" + param.name +
                             "') of '" + info.name + "' is " +
                             std::to_string(*value) +
                             ", but it is the extent of " + bound.where +
                             "; an extent is not negative"
                       : argWhere(info, i) + "the extent of " + bound.where +
                             " is " + std::to_string(*value) + " (" + terms +
                             "); an extent is not negative";
        return false;
      }
      std::string dim = std::to_string(bound.dim);
      if (bound.kind == SizeBound::NonNegative) {
        if (*value >= 0)
          continue;
        error = argWhere(info, i) + bound.where + " reaches index " +
                std::to_string(*value) + " of dimension " + dim +
                (terms.empty() ? "" : " (" + terms + ")") +
                ", before the array's start";
        return false;
      }
      int64_t size = args[i].shape[bound.dim];
      if (size < *value) {
        error = argWhere(info, i) + "dimension " + dim + " has " +
                std::to_string(size) + " elements, but " + bound.where +
                " reaches index " + std::to_string(*value - 1) +
                (terms.empty() ? "" : " (" + terms + ")") +
                "; the array is too small for the sizes given";
        return false;
      }
    }
  }
  return checkEqualSizes(info, args, error);
}

bool Module::checkEqualSizes(const FunctionInfo &info,
                             const std::vector<Arg> &args,
                             std::string &error) const {
  // Dimensions the function declares sized by one variable (a scalar
  // parameter, a shape variable shared by buffers): an array larger than
  // the others would be used in part only, silently.
  for (size_t i = 0; i < args.size(); ++i) {
    for (const SizeBound &bound : info.args[i].bounds) {
      if (bound.kind != SizeBound::Equal)
        continue;
      std::optional<int64_t> value = evaluate(bound, args);
      std::string terms = describeTerms(info, bound, args);
      if (!info.args[i].isBuffer) {
        // A dimension of a shape parameter: the size it is named by.
        if (value && *value == args[i].intValue)
          continue;
        error = argWhere(info, i) + "is " + std::to_string(args[i].intValue) +
                ", but it is '" + bound.where + "', which is " +
                (value ? std::to_string(*value) : std::string("out of range")) +
                (terms.empty() ? "" : " (" + terms + ")");
        return false;
      }
      int64_t size = args[i].shape[bound.dim];
      if (value && *value == size)
        continue;
      error = argWhere(info, i) + "dimension " + std::to_string(bound.dim) +
              " has " + std::to_string(size) + " elements, but it is '" +
              bound.where + "', which is " +
              (value ? std::to_string(*value) : std::string("out of range")) +
              " (" + terms + "); every size named '" + bound.where +
              "' must be the same";
      return false;
    }
  }
  return true;
}

/// The bytes a buffer argument spans, [first, last).
static std::pair<uintptr_t, uintptr_t> byteSpan(const Arg &arg) {
  std::vector<int64_t> strides =
      arg.strides.empty() ? contiguousStrides(arg.shape) : arg.strides;
  intptr_t low = 0, high = 0;
  for (size_t d = 0; d < arg.shape.size(); ++d) {
    if (arg.shape[d] == 0)
      return {0, 0};
    int64_t reach = strides[d] * (arg.shape[d] - 1);
    (reach < 0 ? low : high) += reach;
  }
  auto base = reinterpret_cast<uintptr_t>(arg.data);
  size_t bytes = arg.dtype.bytes();
  return {base + low * static_cast<intptr_t>(bytes),
          base + high * static_cast<intptr_t>(bytes) + bytes};
}

bool Module::checkNoOverlap(const FunctionInfo &info,
                            const std::vector<Arg> &args,
                            std::string &error) const {
  // Compiled code assumes that a buffer it writes shares no memory with any
  // other buffer argument (as TVM does); read-only buffers may overlap.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != Arg::Buffer)
      continue;
    auto [lo1, hi1] = byteSpan(args[i]);
    for (size_t j = i + 1; j < args.size(); ++j) {
      if (args[j].kind != Arg::Buffer ||
          (!info.args[i].written && !info.args[j].written))
        continue;
      auto [lo2, hi2] = byteSpan(args[j]);
      if (lo1 < hi2 && lo2 < hi1) {
        error = "arguments " + std::to_string(i) + " ('" + info.args[i].name +
                "') and " + std::to_string(j) + " ('" + info.args[j].name +
                "') of '" + info.name +
                "' overlap in memory; a buffer the function writes must not "
                "share memory with another argument";
        return false;
      }
    }
  }
  return true;
}

/// Storage for one scalar argument, typed as the function's parameter.
static void storeScalar(const ArgInfo &info, const Arg &arg, void *slot) {
  double f = arg.kind == Arg::Float ? arg.floatValue
                                    : static_cast<double>(arg.intValue);
  int64_t i = arg.intValue;
  switch (info.dtype.code) {
  case DataType::Float:
    if (info.dtype.bits == 64)
      *static_cast<double *>(slot) = f;
    else if (info.dtype.bits == 32)
      *static_cast<float *>(slot) = static_cast<float>(f);
    else
      *static_cast<uint16_t *>(slot) = 0; // Rejected by the compiler.
    return;
  case DataType::BFloat:
    *static_cast<uint16_t *>(slot) = 0; // Rejected by the compiler.
    return;
  case DataType::Float8E4M3FN:
  case DataType::Float8E5M2:
    *static_cast<uint8_t *>(slot) = 0; // Rejected by the compiler.
    return;
  default:
    switch (info.dtype.bits) {
    case 1:
    case 8:
      *static_cast<int8_t *>(slot) = static_cast<int8_t>(i);
      return;
    case 16:
      *static_cast<int16_t *>(slot) = static_cast<int16_t>(i);
      return;
    case 32:
      *static_cast<int32_t *>(slot) = static_cast<int32_t>(i);
      return;
    default:
      *static_cast<int64_t *>(slot) = i;
      return;
    }
  }
}

bool Module::call(const std::string &name, const std::vector<Arg> &args,
                  std::string &error) const {
  const FunctionInfo *info = find(name);
  if (!info) {
    error = "no function named '" + name + "' in the module";
    if (!signatures.empty()) {
      error += "; it has";
      for (const FunctionInfo &f : signatures)
        error += " '" + f.name + "'";
    }
    return false;
  }
  if (!check(*info, args, error))
    return false;
  auto *fn = reinterpret_cast<void (*)(void **)>(
      entryPoints[info - signatures.data()]);
  if (!fn) {
    error = "the module has no entry point for '" + name + "'";
    return false;
  }
  // One memref descriptor ({allocated, aligned, offset, sizes, strides}) or
  // scalar slot per argument, all in one array (sized first: the pointers
  // into it must not move).
  size_t words = 0;
  for (const Arg &arg : args)
    words += arg.kind == Arg::Buffer ? 3 + 2 * arg.shape.size() : 1;
  // The common case (a few buffers of small rank) needs no allocation.
  int64_t inlineWords[64];
  void *inlinePointers[16];
  std::vector<int64_t> heapWords;
  std::vector<void *> heapPointers;
  int64_t *slot = inlineWords;
  if (words > std::size(inlineWords)) {
    heapWords.resize(words);
    slot = heapWords.data();
  }
  void **pointers = inlinePointers;
  if (args.size() > std::size(inlinePointers)) {
    heapPointers.resize(args.size());
    pointers = heapPointers.data();
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg &arg = args[i];
    pointers[i] = slot;
    if (arg.kind != Arg::Buffer) {
      storeScalar(info->args[i], arg, slot);
      ++slot;
      continue;
    }
    size_t rank = arg.shape.size();
    slot[0] = reinterpret_cast<int64_t>(arg.data);
    slot[1] = reinterpret_cast<int64_t>(arg.data);
    slot[2] = 0;
    std::vector<int64_t> contiguous;
    const std::vector<int64_t> &strides =
        arg.strides.empty() ? contiguous = contiguousStrides(arg.shape)
                            : arg.strides;
    for (size_t d = 0; d < rank; ++d) {
      slot[3 + d] = arg.shape[d];
      slot[3 + rank + d] = strides[d];
    }
    slot += 3 + 2 * rank;
  }
  if (targetType != Device::CUDA) {
    detail::beginPackedCalls();
    fn(pointers);
    return !detail::takePackedError(error);
  }
  // Kernels launch on the GPU of the buffers (the first GPU when none is
  // passed); a failed launch is reported here, as the compiled host code
  // cannot return it.
  int gpu = 0;
  for (const Arg &arg : args)
    if (arg.kind == Arg::Buffer) {
      gpu = arg.device.id;
      break;
    }
  std::string unavailable;
  if (!cuda::deviceExists(gpu, unavailable)) {
    error = "cannot call '" + name + "': " + unavailable;
    return false;
  }
  int previous = cuda::currentDevice();
  cuda::setCurrentDevice(gpu);
  cuda::takeLaunchError();
  fn(pointers);
  cuda::setCurrentDevice(previous);
  std::string failed = cuda::takeLaunchError();
  if (!failed.empty()) {
    error = "'" + name + "': " + failed;
    return false;
  }
  return true;
}

double Module::timeOnGPU(const std::string &name, const std::vector<Arg> &args,
                         int device, int number, std::string &error) const {
  if (targetType != Device::CUDA) {
    error = "'" + name + "' runs on the CPU; GPU timing is for CUDA modules";
    return -1;
  }
  for (const Arg &arg : args)
    if (arg.kind == Arg::Buffer &&
        (arg.device.type != Device::CUDA || arg.device.id != device)) {
      error = "an argument is on " + arg.device.str() +
              ", the timing on cuda(" + std::to_string(device) + ")";
      return -1;
    }
  struct Context {
    const Module *module;
    const std::string *name;
    const std::vector<Arg> *args;
    std::string error;
  } context{this, &name, &args, {}};
  double seconds = cuda::timeOnDevice(
      device, number,
      [](void *p) {
        auto *c = static_cast<Context *>(p);
        return c->module->call(*c->name, *c->args, c->error);
      },
      &context, error);
  if (seconds < 0 && !context.error.empty())
    error = context.error;
  return seconds;
}
