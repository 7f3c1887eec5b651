//===- TIRLoopMergeTransformOps.td - merging loop nests ----*- tablegen -*-===//
//
// merge: loops of several nests become one nest. Included by
// TIRTransformOps.td, whose TIR_ScheduleOp it builds on.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRLOOPMERGETRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRLOOPMERGETRANSFORMOPS_TD

def TIR_MergeOp : TIR_ScheduleOp<"merge"> {
  let summary = "merge loops of several nests into one nest (TVM's merge)";
  let description = [{
    The given loops, one per nest, lie at the same depth below the nests'
    lowest common ancestor, with the same extents level by level; the
    loops of each nest from that ancestor down to the given loop start at
    0, carry no annotation or thread binding, and each holds only the next.
    They become one nest of loops named `<first nest's name>_m`, placed
    where the last nest was, whose innermost body holds the given loops'
    bodies in the given order (their loop variables replaced by the merged
    ones). The result is the innermost merged loop; the given loops are
    replaced.

    ```mlir
    %m = transform.tir.merge %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), as TVM: fewer than two
    loops, loops under different block scopes, at different depths, with
    different extents, a loop that does not start at 0, an annotated or
    thread-bound loop, a loop that is not the only statement of the one
    above. Also refused, which TVM does not check: nests (or statements
    between them) that share a buffer one of them writes, whose iterations
    the merge would interleave.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops);
  let results = (outs TransformHandleTypeInterface:$merged);
  let assemblyFormat = [{
    $loops attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::applyToPayload(
        ::mlir::RewriterBase &rewriter, ::mlir::tir::SchedulePayload &payload,
        ::mlir::tir::ScheduleError &error) {
      ::mlir::FailureOr<::llvm::SmallVector<ForOp>> loops =
          payload.singles<ForOp>("tir.for", error);
      if (::mlir::failed(loops))
        return ::mlir::failure();
      ::mlir::FailureOr<ForOp> merged = merge(rewriter, *loops, error);
      if (::mlir::failed(merged))
        return ::mlir::failure();
      payload.setResult(0, ::llvm::ArrayRef<::mlir::Operation *>(*merged));
      return ::mlir::success();
    }
  }];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRLOOPMERGETRANSFORMOPS_TD
