//===- TIRBlockizeTransformOps.td - subtrees as blocks -----*- tablegen -*-===//
//
// blockize: the subtree under a loop becomes a block. Included by
// TIRTransformOps.td, whose TIR_ScheduleOp it builds on.
// The ops' C++ (applyToPayload, ...) is in
// lib/Dialect/TIR/TransformOps/BlockizeTransformOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBLOCKIZETRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBLOCKIZETRANSFORMOPS_TD

def TIR_BlockizeOp : TIR_ScheduleOp<"blockize"> {
  let summary = "make the subtree under a loop a block (TVM's blockize)";
  let description = [{
    The loop `target` (whose only block is B), or the blocks `target`
    (below), moves into a new outer block
    `<B>_o` placed where it was. B's bindings are divided as TVM's subspace
    division does: each into a part over the loops above `target` (the
    outer block's variable `<var>_o`, same kind, bound to it) and a part
    over `target` and the loops below (B's variable `<var>_i`, where that
    part is not a single point); B's body then reads `var` as
    `var_o * extent + var_i`. With `preserve_unit_iters` false, loops that
    run once count as their start (a unit outer variable is bound to 0).
    The outer block lists the regions B accesses relaxed over the loops it
    holds. Returns the outer block; B's handle holds the inner block.

    ```mlir
    %o = transform.tir.blockize %i1 {preserve_unit_iters = true} : (!transform.any_op) -> !transform.any_op
    %o2 = transform.tir.blockize %b, %c {preserve_unit_iters = false} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Given blocks, the consecutive statements of their lowest common
    ancestor that hold them (one block each) move into an outer block
    `outer_<B>_<C>_`; each block is divided at that ancestor, and the outer
    parts of their variables must agree (the outer block's variables).

    Refused (silenceably, leaving the IR unchanged): a loop holding no block
    or several; a binding that does not divide (a term using loops on both
    sides, an inner part that is not loops from 0 in a mixed radix, a
    domain or an outer part that is not a multiple of the inner part's
    extent); loops under `target` whose bounds use the loops above; blocks
    that are not in consecutive statements of their own under their common
    ancestor, or whose outer parts differ; blocks with a tir.init in the
    list form (TVM drops their init: a wrong program). Not yet supported,
    refused: a block with a predicate or its own buffers.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$target,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters);
  let results = (outs TransformHandleTypeInterface:$block);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_TensorizeOp : TIR_ScheduleOp<"tensorize"> {
  let summary = "replace a block by a tensor intrinsic (TVM's tensorize)";
  let description = [{
    `target` is a block, or a loop, which is blockized first (as
    `transform.tir.blockize`, with `preserve_unit_iters`). The block must
    compute what the description of tensor intrinsic `tensor_intrin`
    computes (TVM's rules: its written then read regions, in order, on
    buffers of the description's element types and scopes, extent 1 in the
    dimensions the description does not have; then the same statements and
    values, every access less the buffer's region start equal to the
    description's). Its body then becomes the intrinsic's implementation,
    each implementation parameter a `tir.match_buffer` of the region that
    stands for it. Returns the tensorized block.

    The intrinsic is found by name: a `func.func` pair of a module around
    this op, marked `tir.tensor_intrin_desc = "name"` and
    `tir.tensor_intrin_impl = "name"`, else the process-wide registry
    (Python's `tir.TensorIntrin.register`), whose functions are then added,
    so marked, to this op's module.

    ```mlir
    %b = transform.tir.tensorize %i1 {tensor_intrin = "dot_4"} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): an unknown intrinsic;
    a description and implementation over different buffers; what blockize
    refuses; a block that does not match the description (the message says
    where: a buffer's element type or scope, a region's extent, a statement,
    an index); a block with a predicate or a tir.init (decompose_reduction
    first), or a description whose regions do not start at 0.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$tensor_intrin,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters);
  let results = (outs TransformHandleTypeInterface:$block);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBLOCKIZETRANSFORMOPS_TD
