//===- Compiler.h - build tir modules into callable code --------*- C++ -*-===//
//
// TVM's `build` for CPUs: a module holding tir (or anything the
// tir-lower-to-llvm pipeline takes) becomes native code, either JIT-compiled
// into this process (LLVM's ORC LLJIT) or written as
// a shared library (LLVM's target machine, linked by lld) that
// runtime::Module::load brings back without LLVM or MLIR.
//
// Every public function gets a packed entry point (runtime::packedSymbol)
// and its signature, read off the func.func before lowering, travels with
// the code (runtime::kMetadataSymbol).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_COMPILER_COMPILER_H
#define TENSORIR_COMPILER_COMPILER_H

#include "TensorIR/Runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tir {

struct CompileOptions {
  /// LLVM's name for the CPU to generate code for, or "native".
  std::string targetCPU = "native";
  /// Extra target features ("+avx2,..."); with "native", the host's.
  std::string targetFeatures;
  /// LLVM optimization level (0-3).
  unsigned optLevel = 3;
  /// Parallel loops on OpenMP threads (otherwise serial).
  bool openmp = true;
  /// Most lanes one step of a vectorized loop handles.
  unsigned maxVectorLanes = 16;
  /// Let code generation fuse a float multiply and an add into one
  /// multiply-add, rounded once (TVM's LLVM backend does).
  bool fuseMultiplyAdd = true;
  /// exp, log, tanh, erf and their kin as inline polynomials within a few
  /// ulp of libm, which vectorize (--tir-approximate-math); otherwise one
  /// libm call per element.
  bool approximateMath = true;
  /// Let LLVM reorder the terms of float reductions, so that it keeps
  /// partial sums in vector lanes (TVM's -fast-math-reassoc).
  bool reassociateReductions = false;
  /// Where the functions run: the CPU, or a CUDA GPU (thread-bound loops
  /// become kernels, launched by host code through the runtime; buffers
  /// are in GPU memory).
  runtime::Device::Type device = runtime::Device::CPU;
  /// CUDA: the GPU to generate code for, and what the kernels are embedded
  /// as ("isa": PTX, which the driver compiles at the first launch; "bin":
  /// a cubin for exactly that GPU, through ptxas).
  std::string cudaChip = "sm_80";
  std::string cudaFormat = "isa";
  std::string cudaPath = "/usr/local/cuda";
  /// Verify the IR after every pass of the lowering (as tir-opt does), not
  /// only once at its end: about 60% of build()'s lowering of a packed
  /// 2048^3 GEMM (40% of tir-opt's), for a diagnostic that names the pass
  /// which broke the IR.
  bool verifyEachPass = false;
};

/// Everything a context needs to parse, lower and translate tir modules.
void registerCompilerDialects(DialectRegistry &registry);

/// The signatures of the public functions of `module`, as the runtime checks
/// calls against them. Emits a diagnostic and fails on a signature the
/// runtime cannot call (results, unsupported element types or layouts).
FailureOr<std::vector<runtime::FunctionInfo>>
collectSignatures(ModuleOp module);

/// Seconds each phase of a compilation took (wall clock).
struct CompileTimes {
  /// Lowering to the llvm dialect (layouts restored, signatures read, the
  /// tir-lower-to-llvm pipeline).
  double lower = 0;
  /// The llvm dialect to an LLVM module, with the runtime's entry points.
  double translate = 0;
  /// LLVM's optimization pipeline.
  double optimize = 0;
  /// Machine code (the JIT's, or the object file and the link).
  double codegen = 0;
};

/// A compiled module's machine code as a relocatable object file, and what
/// linking it into a shared library needs.
struct ObjectCode {
  std::string bytes;
  /// The code calls the OpenMP runtime (parallel loops).
  bool usesOpenMP = false;
};

/// JIT-compiles `module` (lowered in place) into this process; `times`,
/// when given, receives what each phase took. `object`, when given,
/// receives the object file the JIT loaded, which linkLibrary makes the
/// library exportLibrary would write without compiling again; it stays
/// empty for a module with static constructors (a GPU module's kernel
/// registration, which the JIT runs itself), which is exported from source.
FailureOr<std::unique_ptr<runtime::Module>>
compileModule(ModuleOp module, const CompileOptions &options,
              CompileTimes *times = nullptr, ObjectCode *object = nullptr);

/// Links `object` (from compileModule, for the CPU) into a shared library
/// at `path`. Needs ld.lld (Debian's lld-22); on failure, `error` says why.
LogicalResult linkLibrary(const ObjectCode &object, StringRef path,
                          std::string &error);

/// What emitSource gives.
enum class SourceKind {
  /// The LLVM module as optimized, before code generation.
  LLVMIR,
  /// The target's assembly.
  Assembly,
};

/// The code compileModule would generate for `module` (lowered in place),
/// as text: what TVM's Module.get_source shows.
FailureOr<std::string>
emitSource(ModuleOp module, const CompileOptions &options, SourceKind kind);

/// Compiles `module` (lowered in place) into a shared library at `path`.
/// Needs ld.lld (Debian's lld-22).
LogicalResult exportLibrary(ModuleOp module, const CompileOptions &options,
                            StringRef path);

} // namespace mlir::tir

#endif // TENSORIR_COMPILER_COMPILER_H
