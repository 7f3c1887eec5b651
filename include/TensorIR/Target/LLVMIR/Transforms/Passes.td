//===- Passes.td - passes around tir LLVM code generation -*- tablegen -*-===//
//
// Passes that prepare a lowered tir module for LLVM code generation and fix
// up the llvm-dialect module afterwards: C entry points for the runtime,
// parallel loop bodies as functions (so that OpenMP's outlining does not
// hide that distinct buffers do not alias), noalias parameters and the
// target CPU. None of them converts between dialects; they belong to the
// LLVM target, as upstream's lib/Target/LLVMIR/Transforms passes do.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_TD
#define TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TIRRequestCInterfacePass
    : Pass<"tir-request-c-interface", "::mlir::ModuleOp"> {
  let summary = "Mark the runtime's entry points: C wrappers, distinct buffers";
  let description = [{
    Sets `llvm.emit_c_interface` on every public `func.func` with a body, so
    that function-to-LLVM conversion emits `_mlir_ciface_<name>`, taking each
    memref as a pointer to its descriptor: the entry point the runtime calls.
    Declarations of external functions (an OpenMP or libm call, say) are
    left alone and keep the plain C calling convention.

    As in TVM, the buffers a tir function takes do not overlap (the runtime
    refuses calls where a written buffer overlaps another argument): the
    pass records that on each such function (`tir.noalias_params`, the
    positions of the pointers each memref parameter is accessed through once
    memrefs are expanded), which `--tir-llvm-noalias` turns into `noalias`
    after conversion to the llvm dialect.
  }];
}

def TIROutlineParallelLoopsPass
    : Pass<"tir-outline-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Move the bodies of parallel loops into functions of their own";
  let description = [{
    Replaces the body of every outermost `scf.parallel` with a call to a new
    private function that takes the induction variables and the values the
    body uses from outside (constants are cloned in instead). The OpenMP
    lowering later outlines the loop again and passes its captures through
    a struct, which hides from LLVM that distinct buffers do not alias;
    through this function's parameters it stays visible: memref parameters
    that are distinct buffers (function parameters or allocations, not views
    of another captured buffer) are recorded in `tir.noalias_params`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TIRApproximateMathPass
    : Pass<"tir-approximate-math", "::mlir::ModuleOp"> {
  let summary = "Math functions as inline polynomials, vectorizable";
  let description = [{
    Rewrites the `math` functions named by `functions` into polynomial
    approximations built of arithmetic (upstream MLIR's
    populateMathPolynomialApproximationPatterns), on scalars and vectors
    alike; f16 and bf16 operands are computed in f32. LLVM otherwise turns a
    vector `exp` into one libm call per lane: a softmax's exponentials cost
    about 1.5 ns an element that way, 0.1 ns as a 16-lane polynomial.

    The default list, exp, log, log2, tanh and erf, holds the functions
    whose approximations stay within 6 units in the last place of the
    correctly rounded result over all of f32, libm's special values
    included (infinities, NaN, overflow to infinity, subnormal results and
    arguments: exp computes arguments below log(FLT_MIN) as exp(x / 2)^2,
    log and log2 subnormal arguments scaled by 2^24, both exactly);
    `python/tests/test_approximate_math.py` measures them. Others (sin and
    cos lose accuracy for large arguments) keep libm unless named.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The math ops to approximate, by mnemonic ('exp', 'tanh', ...)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def TIRLLVMNoAliasPass : Pass<"tir-llvm-noalias", "::mlir::ModuleOp"> {
  let summary = "Turn tir.noalias_params into llvm.noalias argument attributes";
  let description = [{
    After conversion to the llvm dialect, sets `llvm.noalias` on the
    parameters an `llvm.func`'s `tir.noalias_params` lists (the aligned
    pointers of distinct buffers) and drops the attribute.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TIRCacheWorkspacePass : Pass<"tir-cache-workspace", "::mlir::ModuleOp"> {
  let summary = "Define the heap allocator of the lowered code: freed buffers reused";
  let description = [{
    The CPU lowering allocates heap buffers through
    `_mlir_memref_to_llvm_aligned_alloc` / `_mlir_memref_to_llvm_free`
    (`finalize-memref-to-llvm{use-generic-functions use-aligned-alloc}`).
    This pass defines them, and `_mlir_memref_to_llvm_alloc` (64-byte
    alignment), in the module (internal linkage, nothing exported): a block
    is aligned to at least 64 bytes, with its capacity and its offset from
    what `aligned_alloc` returned in the bytes before it; a freed block
    goes to one of 8 slots (atomic exchange: threads may allocate and free
    at once), and an allocation takes a cached block that holds it with at
    most half to spare and is aligned as it asks, else calls
    `aligned_alloc`. Blocks over 1 GiB are freed at once. As TVM's
    workspace pool, it spares every call of a function the page faults of
    fresh buffers (glibc maps large blocks anew, or trims them off the
    heap, at every free): 6% of a 2048^3 GEMM's time on one thread, up to
    15% on two. What the slots hold stays allocated until the process
    ends. The allocation functions are not inlined and their result is
    `noalias`, as malloc's: LLVM then knows that a buffer allocated inside
    a loop is none of the function's other buffers. A module that defines
    any of the three functions itself is left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TIRSetLLVMTargetPass : Pass<"tir-set-llvm-target", "::mlir::ModuleOp"> {
  let summary = "Record the target CPU and its features on every llvm.func";
  let description = [{
    Sets the `target_cpu` and `target_features` attributes of every
    `llvm.func` in the module, which LLVM IR export turns into the
    `"target-cpu"` / `"target-features"` function attributes that `llc` and
    the runtime's code generator honour. `cpu=native` stands for the CPU of
    the machine the compiler runs on (its features too, unless `features`
    is given). An empty `cpu` leaves the functions as they are.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"\"",
           "Target CPU name as LLVM spells it (e.g. 'skylake-avx512'), or "
           "'native'">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Target features, e.g. '+avx2,+fma'">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_TD
