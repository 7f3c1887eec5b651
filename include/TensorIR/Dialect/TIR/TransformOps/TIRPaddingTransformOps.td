//===- TIRPaddingTransformOps.td - padding primitives ------*- tablegen -*-===//
//
// The schedule primitives about padding: decompose_padding, which splits a
// padding block into a constant fill and the in-bound copy, and pad_einsum.
// Included by TIRTransformOps.td, whose TIR_ScheduleOp they build on.
// The ops' C++ (applyToPayload, ...) is in
// lib/Dialect/TIR/TransformOps/PaddingTransformOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRPADDINGTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRPADDINGTRANSFORMOPS_TD

def TIR_DecomposePaddingOp : TIR_ScheduleOp<"decompose_padding"> {
  let summary = "split a padding block into a constant fill and the in-bound "
                "copy (TVM's decompose_padding)";
  let description = [{
    The block stores `if_then_else(in bounds, value, constant)` (an
    `scf.if` or `arith.select` whose else side is a constant; the
    condition comparisons of index expressions joined by `and`). A new
    block `<name>_pad_const` stores the constant at every point of the
    block's domain, under copies of the loops from `loop` inwards (same
    names and bounds, serial) placed right before `loop`; it is returned.
    The block itself then stores the value on the in-bound region only:
    per iteration variable, the range of its binding cut by the
    comparisons that bound it (`3 <= vh < 228`) becomes its domain
    `[0, extent)`, and the body reads `v + start`. A variable bound directly
    to a loop of the nest from the innermost loop up to `loop` (or to the
    first loop holding other statements) has that loop shrunk to the
    extent; any other keeps its loops, with the comparisons as the block's
    predicate (after the block's own predicate's constraints).

    ```mlir
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a block that is not
    complete, a loop that is not above the block in its scope, a body that
    is not one store of such a picked value, a condition that holds
    everywhere (nothing to decompose), a comparison that bounds no single
    binding, a predicate that is not one conjunction; and where the
    rewrite would be wrong: a shrunk loop used other than by bindings, an
    innermost loop holding other statements.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop);
  let results = (outs TransformHandleTypeInterface:$pad_const);
  let assemblyFormat = [{
    $block `at` $loop attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_PadEinsumOp : TIR_ScheduleOp<"pad_einsum"> {
  let summary = "pad an einsum block's extents to multiples (TVM's pad_einsum)";
  let description = [{
    The block is an einsum: each buffer it accesses once, at indices that
    are its iteration variables or constants. Each iteration variable's
    extent is rounded up to a multiple of its entry of `padding` (a runtime
    extent `n` to `(n + p - 1) floordiv p * p`). Every buffer indexed by a
    padded variable is replaced, in the statement of the scope that holds
    the block, by `<name>_pad`, allocated in the scope after its
    allocations: a read buffer is copied in before the statement by a
    block `<name>_pad` (zero past the buffer's end), a written one copied
    back after it over what the block covered. Loops bound directly to a
    padded variable take the padded extent. Extents that are multiples
    already change nothing.

    ```mlir
    transform.tir.pad_einsum %b {padding = array<i64: 32, 32, 32>} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), with TVM: a scope that
    is not a stage pipeline, a padding that is not one positive size per
    iteration variable, a block that is not an einsum. Also refused, where
    the rewrite would be wrong: a padded loop that holds other blocks or
    does not run over its variable's domain, a variable whose domain does
    not start at 0, a runtime extent computed inside the loop nest.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       DenseI64ArrayAttr:$padding);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRPADDINGTRANSFORMOPS_TD
