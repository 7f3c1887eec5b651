//===- TIRReductionTransformOps.td - reduction primitives -*- tablegen -*-===//
//
// The reduction primitives: decompose_reduction (a reduction block split
// into its init and its update) and rfactor (a reduction factored by one
// of its loops). Included by TIRTransformOps.td, whose TIR_ScheduleOp they
// build on.
// The ops' C++ (applyToPayload, ...) is in
// lib/Dialect/TIR/TransformOps/ReductionTransformOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRREDUCTIONTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRREDUCTIONTRANSFORMOPS_TD

def TIR_DecomposeReductionOp : TIR_ScheduleOp<"decompose_reduction"> {
  let summary = "split a reduction block into init and update blocks "
                "(TVM's decompose_reduction)";
  let description = [{
    Moves the `tir.init` of the reduction block out into a new block,
    `<name>_init`, over the block's spatial iteration variables (same
    domains and bindings), placed right before `loop` under copies of the
    loops between `loop` and the block that feed a spatial variable (named
    `<var>_init`, with their kind, thread binding and annotations). The
    init block keeps the block's annotations and the predicate's
    constraints that do not involve the loops it leaves out. The block
    itself becomes the update block: renamed `<name>_update`, without its
    init, its written regions added to its reads. Returns the init block.

    ```mlir
    %init = transform.tir.decompose_reduction %c at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), with TVM: a loop that
    is not above the block in its scope, a block that is not a reduction
    block, a loop below one that feeds a reduce variable. Also refused, as
    the rewrite would be wrong: an init that uses a reduce variable, a
    buffer the block allocates or values computed inside the loop; loops
    between `loop` and the block whose iterations repeat a point of the
    block (each repetition restarts the reduction) or reach a point before
    the reduce variables start their domains (where the init runs); a
    predicate constraint relating the
    loops left out to those kept, or a disjunction involving them; another
    block under the loop that accesses what the init writes, unless it
    comes after the reduction and reads only what the reduction writes in
    the same iteration of their common loop. The block handle stays valid
    and holds the update block.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop);
  let results = (outs TransformHandleTypeInterface:$init);
  let assemblyFormat = [{
    $block `at` $loop attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_RFactorOp : TIR_ScheduleOp<"rfactor"> {
  let summary = "factor a reduction by one of its loops (TVM's rfactor)";
  let description = [{
    The reduction block under `loop` (the loop's only block) is split in
    two. The rfactor block `<name>_rf`, under copies of the block's loops
    placed before them, reduces into new buffers `<buffer>_rf` (one per
    reduction buffer, the loop's extent inserted as dimension
    `factor_axis`; negative counts from the end, as TVM) indexed by a new
    spatial variable bound to `loop`: one partial result per iteration of
    `loop`. A reduce variable fed by `loop` is replaced there by new reduce
    variables, one per other loop its binding uses. The block itself
    becomes the write-back block, which reduces the partial results into
    its buffers, under its loops less those that fed only reduce variables
    (`loop` kept). The reducer is recognized from the block's init and
    update: sum, product, min, max, and, or, xor of one buffer; pair sum,
    argmax and argmin (both of TVM's forms) of two. Returns the rfactor
    block; the block's handle holds the write-back block.

    ```mlir
    %rf = transform.tir.rfactor %ki {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), as TVM: a loop holding
    no block or several, a scope that is not a stage pipeline, a block that
    is not a reduction block, a loop that is not serial, a loop that feeds
    a spatial variable, a loop above the block feeding both kinds, a block
    that is not the first under its outermost loop, an outermost reduction
    loop holding other blocks, a loop of extent above 1 feeding nothing
    under a reduction loop, no reducer matching (the init's identities, the
    combination, one store per buffer of values computed before any is
    stored, the same indices), `factor_axis` out of range. Also refused, as
    the rewrite would be wrong or cannot be built: a predicate that skips
    iterations of the block's domain (the write-back block would read
    partial results never initialized), new values that read a reduction
    buffer, a value condition, a loop that does not start at 0 or has no
    constant extent, buffers of dynamic shape.
  }];
  let arguments = (ins TransformHandleTypeInterface:$loop,
                       I64Attr:$factor_axis);
  let results = (outs TransformHandleTypeInterface:$rf_block);
  let assemblyFormat = [{
    $loop attr-dict `:` functional-type(operands, results)
  }];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRREDUCTIONTRANSFORMOPS_TD
