//===- TIRBlockizeTransformOps.td - subtrees as blocks -----*- tablegen -*-===//
//
// blockize: the subtree under a loop becomes a block. Included by
// TIRTransformOps.td, whose TIR_ScheduleOp it builds on.
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
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::applyToPayload(
        ::mlir::RewriterBase &rewriter, ::mlir::tir::SchedulePayload &payload,
        ::mlir::tir::ScheduleError &error) {
      // One loop, or blocks (one per operand).
      ::mlir::FailureOr<::mlir::Operation *> first =
          payload.singleOp(0, "tir.for or tir.block", error);
      if (::mlir::failed(first))
        return ::mlir::failure();
      ::mlir::FailureOr<BlockOp> block = ::mlir::failure();
      if (auto loop = ::llvm::dyn_cast<ForOp>(*first)) {
        if (getTarget().size() != 1) {
          error = {"blockize takes one loop, or blocks", loop};
          return ::mlir::failure();
        }
        block = blockize(rewriter, loop, getPreserveUnitIters(), error);
      } else {
        ::mlir::FailureOr<::llvm::SmallVector<BlockOp>> blocks =
            payload.singles<BlockOp>("tir.block", error);
        if (::mlir::failed(blocks))
          return ::mlir::failure();
        block = blockize(rewriter, *blocks, getPreserveUnitIters(), error);
      }
      if (::mlir::failed(block))
        return ::mlir::failure();
      payload.setResult(0, ::llvm::ArrayRef<::mlir::Operation *>(*block));
      return ::mlir::success();
    }
  }];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBLOCKIZETRANSFORMOPS_TD
