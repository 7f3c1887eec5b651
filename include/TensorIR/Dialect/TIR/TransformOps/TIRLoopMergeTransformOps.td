//===- TIRLoopMergeTransformOps.td - merging loop nests ----*- tablegen -*-===//
//
// merge: loops of several nests become one nest; loop_partition: a loop
// cut into consecutive partitions. Included by
// TIRTransformOps.td, whose TIR_ScheduleOp it builds on.
// The ops' C++ (applyToPayload, ...) is in
// lib/Dialect/TIR/TransformOps/LoopMergeTransformOps.cpp.
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
}

def TIR_LoopPartitionOp : TIR_ScheduleOp<"loop_partition"> {
  let summary = "cut a loop into consecutive partitions (TVM's loop_partition)";
  let description = [{
    The loop (constant bounds, no annotation or thread binding) is cut into
    consecutive ranges of sizes `factors`, one of which may be `?` (Python's
    `None`: the extent less the others); without one, the rest of the loop
    is one more partition. A factor is a positive constant, `?`, or a
    parameter operand holding one integer (TVM's ExprRV, as split takes
    them); a scalable factor is refused, the bounds being constants. Each
    partition is a copy of the loop over its range, `<i><k>`, in an opaque
    block `<B>_<i><k>_partition`, all in an opaque block `<B>_<i>_common`
    placed where the loop was (B: the first block down the loop's nest). In
    partition k, every block is renamed `<name>_<i><k>`, the first iteration
    variable bound to the loop variable gets the partition's range as its
    domain, and, as TVM does, the region of each buffer a block accesses at
    plain variables lists those variables' domains. Returns the partition
    loops.

    ```mlir
    %parts:3 = transform.tir.loop_partition %i [2, ?, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %more:2 = transform.tir.loop_partition %j [%f] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    ```

    Refused (silenceably, leaving the IR unchanged), in TVM's order: a
    loop whose bounds are not constants; more than one inferred factor; a
    factor below 1 (a parameter's); factors summing to the extent or more
    (an empty last partition); a loop with annotations or a thread binding;
    a nest that branches before its first block. `preserve_unit_iters` is
    accepted and recorded, as in TVM, and changes nothing.
  }];
  let arguments = (ins TransformHandleTypeInterface:$loop,
                       Variadic<TransformParamTypeInterface>:$factor_params,
                       TIR_SplitFactorArrayAttr:$factors,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $loop custom<FactorList>($factors, $factor_params) attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRLOOPMERGETRANSFORMOPS_TD
