//===- Runtime.h - call compiled tir functions with buffers -----*- C++ -*-===//
//
// The runtime half of tir's `build`: a Module is a set of compiled functions
// (JIT-compiled in this process, or a shared library exported earlier) with
// their signatures; calling one checks every argument against the signature
// (buffer element type, rank, shape, strides; scalar kind) and reports a
// mismatch as an error that names the argument, before any code runs.
//
// This library is plain C++ with no LLVM or MLIR dependency, so a deployed
// program needs only it (or the C API over it) and the exported library.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_RUNTIME_RUNTIME_H
#define TENSORIR_RUNTIME_RUNTIME_H

#include "TensorIR/Runtime/CUDA.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tir::runtime {

/// An element type, named as numpy and TVM name it ("float32", "int8",
/// "bool", "float8_e4m3fn", ...). `code` follows DLPack: 0 int, 1 uint,
/// 2 float, 4 bfloat, 6 bool, 10 float8_e4m3fn, 12 float8_e5m2.
struct DataType {
  enum Code : uint8_t {
    Int = 0,
    UInt = 1,
    Float = 2,
    BFloat = 4,
    Bool = 6,
    Float8E4M3FN = 10,
    Float8E5M2 = 12
  };
  Code code = Float;
  uint8_t bits = 32;

  std::string str() const;
  static std::optional<DataType> parse(const std::string &name);
  /// Bytes one element takes in memory.
  size_t bytes() const { return bits == 1 ? 1 : bits / 8; }
  /// Whether its values are floating-point numbers.
  bool isFloat() const {
    return code == Float || code == BFloat || code == Float8E4M3FN ||
           code == Float8E5M2;
  }
  bool operator==(const DataType &o) const {
    return code == o.code && bits == o.bits;
  }
  bool operator!=(const DataType &o) const { return !(*this == o); }
};

/// One term of a size a function needs: `coeff` times the value of a scalar
/// argument (`dim` < 0) or the size of dimension `dim` of a buffer argument.
struct SizeTerm {
  int64_t coeff = 1;
  uint32_t arg = 0;
  int32_t dim = -1;
  bool operator==(const SizeTerm &o) const {
    return coeff == o.coeff && arg == o.arg && dim == o.dim;
  }
};

/// A condition on the sizes known at a call, which the function needs to
/// stay inside its arrays, the linear form `constant + sum(terms)` being
/// computed by the compiler from an unguarded access (`where` names it,
/// e.g. "tir.load in block 'B'") or a loop:
/// - AtLeast (on a buffer): dimension `dim` holds at least form elements
///   (the access reaches index form - 1);
/// - NonNegative (on a buffer): the access's lowest index in dimension `dim`,
///   form, is not negative (it does not reach before the array's start);
/// - NonNegative (on a scalar): form is not negative (the scalar is the
///   extent of a loop or iteration domain; `dim` is unused);
/// - Equal (on a buffer): dimension `dim` holds exactly form elements (it
///   is sized by the variable named `where`, as another argument's
///   dimension or a scalar parameter is: tir.dim_vars);
/// - Equal (on a scalar; version 7): the scalar is form (a dimension of a
///   shape parameter, R.Shape(["n * 2"]), named by a size, by a variable
///   defined before, or by an expression of variables; `dim` is unused).
/// Checked at every call, so that a scalar that sizes buffers cannot make
/// the code write outside an array, nor run on arrays of different sizes
/// that the function declares the same.
struct SizeBound {
  enum Kind : uint8_t { AtLeast = 0, NonNegative = 1, Equal = 2 };
  Kind kind = AtLeast;
  uint32_t dim = 0;
  int64_t constant = 0;
  std::vector<SizeTerm> terms;
  std::string where;
  bool operator==(const SizeBound &o) const {
    return kind == o.kind && dim == o.dim && constant == o.constant &&
           terms == o.terms;
  }
};

/// One parameter of a compiled function, as its signature says.
struct ArgInfo {
  std::string name;
  bool isBuffer = true;
  DataType dtype;
  /// Buffers: the size of every dimension, -1 where it is dynamic.
  std::vector<int64_t> shape;
  /// Buffers: the strides (in elements) the function was compiled for, -1
  /// where dynamic; empty means row-major contiguous.
  std::vector<int64_t> strides;
  /// Buffers the function writes (its outputs).
  bool written = false;
  /// A graph function's result (an out-parameter marked tir.result): the
  /// caller allocates it and takes it as the call's result. Also written.
  bool result = false;
  /// The conditions on this argument's sizes (see SizeBound).
  std::vector<SizeBound> bounds;

  /// "float32[128, 128]", "float32[?]", "int32".
  std::string typeStr() const;
};

struct FunctionInfo {
  std::string name;
  std::vector<ArgInfo> args;
  /// The results form a tuple (a graph function returning R.Tuple), even
  /// of one: callers give them back as one.
  bool tupleResult = false;
  /// How the results nest when the tuple holds tuples: "[0,[1,2]]" (the
  /// results' indices, an array per tuple); empty when they do not.
  std::string resultNesting;
  /// How a graph function's arguments and results are Relax values, as
  /// JSON, where one is no tensor: {"params": [...], "results": [...]},
  /// the tir.param_nesting of a function taking shapes (a shape's
  /// dimensions are scalars: {"name": "s", "shape": [1, 2]}) and the
  /// tir.result_kinds of one returning shapes or integers ("shape",
  /// "prim"). Empty otherwise; callers that convert values read it.
  std::string interface;

  /// "main(A: float32[8], B: float32[8] (written))".
  std::string str() const;
};

/// Signatures as text, the form a module carries them in (the
/// `__tir_metadata` symbol of an exported library). Version 2 adds the size
/// bounds, version 3 the Equal bounds, version 4 the results of graph
/// functions, version 5 whether they form a tuple, version 6 how tuples of
/// tuples nest, version 7 the interface and Equal bounds on scalars; tables
/// of earlier versions (libraries exported before) are still read.
std::string serializeSignatures(const std::vector<FunctionInfo> &functions);
bool parseSignatures(const std::string &text,
                     std::vector<FunctionInfo> &functions, std::string &error);

/// An argument at a call: a buffer (data, shape and strides in elements;
/// empty strides mean row-major contiguous; the device its data is on) or
/// a scalar.
struct Arg {
  enum Kind { Buffer, Int, Float } kind = Buffer;
  void *data = nullptr;
  Device device;
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t intValue = 0;
  double floatValue = 0;

  static Arg buffer(void *data, DataType dtype, std::vector<int64_t> shape,
                    std::vector<int64_t> strides = {}, Device device = {}) {
    Arg a;
    a.kind = Buffer;
    a.data = data;
    a.device = device;
    a.dtype = dtype;
    a.shape = std::move(shape);
    a.strides = std::move(strides);
    return a;
  }
  static Arg scalar(int64_t v) {
    Arg a;
    a.kind = Int;
    a.intValue = v;
    return a;
  }
  static Arg scalar(double v) {
    Arg a;
    a.kind = Float;
    a.floatValue = v;
    return a;
  }
};

/// Row-major strides (in elements) of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// Compiled functions and their signatures. Created by the compiler (JIT) or
/// by Module::load (a shared library exported by the compiler).
class Module {
public:
  using Lookup = std::function<void *(const std::string &symbol)>;

  /// `target`: where the functions run (their buffers must be there): the
  /// CPU, or a CUDA GPU (host code that launches kernels).
  Module(std::vector<FunctionInfo> functions, Lookup lookup,
         std::shared_ptr<void> owner, Device::Type target = Device::CPU);

  /// Loads a shared library exported by tir's compiler; null and `error` set
  /// when the file is not such a library.
  static std::unique_ptr<Module> load(const std::string &path,
                                      std::string &error);

  const std::vector<FunctionInfo> &functions() const { return signatures; }
  Device::Type target() const { return targetType; }
  const FunctionInfo *find(const std::string &name) const;

  /// Checks `args` against the signature of `name` and calls it. Returns
  /// false with `error` set (naming the function and the argument) when the
  /// function does not exist, an argument does not match (a buffer on
  /// another device than the module's target included; a CUDA module's
  /// buffers all on one GPU, where its kernels run), a scalar out of
  /// its type's range included), a buffer is smaller than the sizes the
  /// function needs from it (its SizeBounds, given the scalars), or a
  /// buffer the function writes overlaps another argument; nothing runs
  /// then.
  bool call(const std::string &name, const std::vector<Arg> &args,
            std::string &error) const;

  /// The mean seconds of one call of `name` on GPU `device`, from device
  /// events around `number` calls (each checked as call() checks it).
  /// Negative, with `error` set, when the module does not run on CUDA, a
  /// buffer is not on that GPU, or a call or the timing fails.
  double timeOnGPU(const std::string &name, const std::vector<Arg> &args,
                   int device, int number, std::string &error) const;

  /// Checks only; the message is the one call() would give.
  bool check(const FunctionInfo &info, const std::vector<Arg> &args,
             std::string &error) const;

private:
  bool checkScalars(const FunctionInfo &info, const std::vector<Arg> &args,
                    std::string &error) const;
  bool checkSizes(const FunctionInfo &info, const std::vector<Arg> &args,
                  std::string &error) const;
  bool checkEqualSizes(const FunctionInfo &info, const std::vector<Arg> &args,
                       std::string &error) const;
  bool checkNoOverlap(const FunctionInfo &info, const std::vector<Arg> &args,
                      std::string &error) const;

  std::vector<FunctionInfo> signatures;
  Lookup lookupSymbol;
  /// Each signature's entry point (packedSymbol), looked up once; null
  /// where the module has none.
  std::vector<void *> entryPoints;
  std::shared_ptr<void> owner;
  Device::Type targetType;
};

/// The symbol a compiled function is called through: `void(void **args)`
/// with one pointer per parameter (to a memref descriptor or to a scalar).
std::string packedSymbol(const std::string &function);
/// The symbol holding a module's signatures (a NUL-terminated string).
constexpr const char *kMetadataSymbol = "__tir_metadata";
/// The symbol naming where a module's functions run ("cpu" or "cuda"; a
/// library without it runs on the CPU).
constexpr const char *kTargetSymbol = "__tir_target";

/// The symbol of the pointer through which compiled code calls packed
/// functions (relax's R.call_dps_packed / R.call_pure_packed): a module
/// that makes such calls defines it, null, and a Module sets it to the
/// runtime's dispatcher when it is loaded.
constexpr const char *kPackedHookSymbol = "__tir_packed_call";

/// How compiled code calls the packed function `name`: `slots` describes
/// `numInputs` then `numOutputs` buffers, each as (DLPack type code, bits,
/// rank, data address, sizes..., strides in elements...). With `returns`
/// the function returns its result (R.call_pure_packed), which goes into
/// the output buffer when there is one; otherwise it fills the outputs
/// (destination-passing style). Returns 0, or nonzero after
/// setPackedError.
using PackedDispatcher = int32_t (*)(const char *name, int32_t returns,
                                     int32_t numInputs, int32_t numOutputs,
                                     const int64_t *slots);

/// Installs the function that runs packed functions by name for this
/// process (the Python package installs one that calls functions
/// registered with tvm.register_global_func); null removes it.
void setPackedDispatcher(PackedDispatcher dispatcher);

/// Records why a packed call failed (the first reason since the call of a
/// module's function began); Module::call reports it when the function
/// returns.
void setPackedError(const std::string &message);

/// Sets the number of threads parallel loops use (OpenMP), when the OpenMP
/// runtime is loaded in this process. Returns false when it is not.
bool setNumThreads(int threads);

/// Starts the OpenMP runtime and its thread team, when a loaded library
/// uses it: the first parallel loop otherwise pays for both (about a
/// millisecond: the runtime reads the machine's topology and creates its
/// threads). A measurement that times a library's first call starts them
/// first. Returns false when no library using OpenMP is loaded.
bool startThreads();

/// Removes what a process killed while LLVM's OpenMP runtime registered it
/// left under this process's id (an empty or zeroed registration file in
/// /dev/shm or /tmp): the runtime would map it at its start and die, with
/// SIGBUS past the end of an empty file or aborting on an "unknown library
/// already initialized". Called, once per process, before a library that
/// uses OpenMP is loaded; a live registration is left alone.
void removeStaleOpenMPRegistration();

} // namespace mlir::tir::runtime

#endif // TENSORIR_RUNTIME_RUNTIME_H
