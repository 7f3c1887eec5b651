//===- Passes.td - TensorIR passes -------------------------*- tablegen -*-===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TIRInferAccessRegionsPass : Pass<"tir-infer-access-regions"> {
  let summary = "Fill in the read and write regions of tir.block ops";
  let description = [{
    TVMScript lets a block leave out `T.reads` / `T.writes`; the parser then
    computes them. This pass does the same for every `tir.block` under the
    operation it runs on that lacks `reads` or `writes` (a block that lists
    both keeps them; the verifier checks given regions).

    For every access in the block body (outside nested blocks) the indices
    are expressed in the block's iteration variables: loop variables of
    loops nested in the block are relaxed over their ranges, and a nested
    block contributes its own regions with its bindings substituted and
    relaxed the same way. Accesses to one buffer are joined into the smallest
    box that holds them when their starts differ by constants; otherwise the
    dimension widens to the whole buffer. Buffers allocated or matched inside
    the block are local to it and not listed.

    As TVMScript prints them, a reduction block (one with `tir.init`) does
    not list the read of its own output: `C[vi, vj] += A[vi, vk] * B[vk, vj]`
    gets `reads(A[vi, vk], B[vk, vj]) writes(C[vi, vj])`.
  }];
  let dependentDialects = [];
}

def TIRLowerInitPass : Pass<"tir-lower-init"> {
  let summary = "Turn tir.init into code guarded by the start of the reduction";
  let description = [{
    TVM's LowerInitBlock. The body of a block's `tir.init` runs exactly when
    every `reduce` iteration variable of the block is at the lower bound of
    its domain; this pass moves it into an `scf.if` on that condition at the
    top of the block and removes the `tir.init`:

    ```mlir
    tir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                  %vk = reduce(128, %k)) {
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %vk, %c0 : index
      scf.if %first {
        tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
      }
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_TD
