//===- TIRTransformOps.td - transform.tir extension --------*- tablegen -*-===//
//
// Schedule primitives as transform-dialect ops. Each op is a thin wrapper over
// a function of the schedule library (include/TensorIR/Schedule).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// The C++ classes live in mlir::tir: upstream's transform ops already use
// names such as transform::SplitOp, FuseOp, VectorizeOp and AnnotateOp.
class TIR_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "tir." # mnemonic, traits> {
  let cppNamespace = "::mlir::tir";
}

def TIR_GetBlockOp : TIR_TransformOp<"get_block", [
    NavigationTransformOpTrait, MemoryEffectsOpInterface,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "find a tir.block by name (TVM's Schedule.get_block)";
  let description = [{
    Returns a handle to the `tir.block` named `name` inside the payload ops of
    `target` (functions or a module). Block names are unique within a
    function; when the target holds several functions that each have such a
    block, the op fails (silenceably) and asks for a function handle, as
    TVM's `get_block(name, func_name)` does.

    ```mlir
    %b = transform.tir.get_block "C" in %func : (!transform.any_op) -> !transform.any_op
    ```

    Fails silenceably when no block has that name.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $name `in` $target attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_GetLoopsOp : TIR_TransformOp<"get_loops", [
    NavigationTransformOpTrait, MemoryEffectsOpInterface,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "the loops above a block, outermost first (TVM's get_loops)";
  let description = [{
    Returns the `tir.for` loops that enclose the block, from the outermost
    to the innermost, stopping at the enclosing block or function (the
    block's scope), as TVM's `Schedule.get_loops` does. With one result, the
    handle holds all loops in that order; with several results, there must be
    exactly one per loop, as in `i, j, k = sch.get_loops(block)`.

    ```mlir
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %all = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    ```

    The target handle must hold exactly one `tir.block`.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// More queries
//===----------------------------------------------------------------------===//

class TIR_QueryOp<string mnemonic, string summaryText, string descriptionText>
    : TIR_TransformOp<mnemonic, [
        NavigationTransformOpTrait, MemoryEffectsOpInterface,
        DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_GetChildBlocksOp : TIR_QueryOp<"get_child_blocks",
    "the blocks directly under a block or loop (TVM's get_child_blocks)", [{
    Returns the `tir.block`s nested in the target (a `tir.block`, a
    `tir.for` or a function) that are not inside another block, in program
    order. The result may be empty.

    ```mlir
    %blocks = transform.tir.get_child_blocks %loop : (!transform.any_op) -> !transform.any_op
    ```
  }]>;

def TIR_GetProducersOp : TIR_QueryOp<"get_producers",
    "the blocks that write what a block reads (TVM's get_producers)", [{
    Returns the blocks of the target block's scope (its enclosing block or
    function) that come before it and write a buffer it reads, in program
    order. A block's buffers are its `reads` / `writes` lists when it has
    them, else the buffers its body loads and stores. The target handle
    must hold exactly one `tir.block`.
  }]>;

def TIR_GetConsumersOp : TIR_QueryOp<"get_consumers",
    "the blocks that read what a block writes (TVM's get_consumers)", [{
    Returns the blocks of the target block's scope that come after it and
    read a buffer it writes, in program order. The target handle must hold
    exactly one `tir.block`.
  }]>;

//===----------------------------------------------------------------------===//
// Loop transformations
//===----------------------------------------------------------------------===//

def TIR_SplitOp : TIR_TransformOp<"split", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "split a loop into nested loops (TVM's split)";
  let description = [{
    Splits the loop into one loop per factor, outermost first; `-1` (TVM's
    `None`) marks at most one factor to infer as the ceiling of the extent
    over the others. The loop's extent may be a runtime value (the inferred
    factor is then computed before the loops). Unless the factors are known
    to multiply to exactly the extent, every block directly under the loop
    gets the predicate `fused < extent` (`where(...)`), as in TVM;
    `disable_predication = true` leaves it out (the caller asserts the
    factors divide the extent). With `preserve_unit_iters = false`, a loop
    of extent 1 does not appear in the bindings. Uses of the loop variable
    outside block bindings (opaque blocks' regions and bodies) get the fused
    expression through an `affine.apply`.

    ```mlir
    %i0, %i1 = transform.tir.split %i [-1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Refused (silenceably, leaving the IR unchanged): a loop that does not
    start at 0, annotated or thread-bound loops, fewer than two factors,
    more than one inferred factor, a factor below 1, factors whose product
    is below the extent or (for a runtime extent without an inferred
    factor) cannot be proven to cover it. The target
    handle (one `tir.for`) is consumed; one handle per new loop is returned.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$factors,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters,
                       DefaultValuedAttr<BoolAttr, "false">:$disable_predication);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $target $factors attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TIR_FuseOp : TIR_TransformOp<"fuse", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "fuse perfectly nested loops into one (TVM's fuse)";
  let description = [{
    Fuses the loops (outermost first; each must be the only statement of the
    one before, apart from pure index computations) into one loop over the
    product of their extents, constant or runtime; each old variable
    becomes `(fused mod (extent * inner)) floordiv inner` in the bindings,
    and in other uses through an `affine.apply`.

    ```mlir
    %ij = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused: loops that are not perfectly nested, a loop that does not start
    at 0, annotated or thread-bound loops, a loop given twice, an extent
    that depends on an outer loop being fused.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops);
  let results = (outs TransformHandleTypeInterface:$fused);
  let assemblyFormat = [{
    $loops attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TIR_ReorderOp : TIR_TransformOp<"reorder", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "reorder loops of one nest (TVM's reorder)";
  let description = [{
    Puts the given loops, which must lie on one single-branch nest (every
    loop from the outermost to the innermost given one holds only the next
    loop), into the given order, outermost first; loops of the nest that
    are not given keep their places.

    ```mlir
    %k2, %i2 = transform.tir.reorder %k, %i : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Refused: a loop given twice, loops not on one nest, a nest that
    branches or crosses a block, a loop whose bounds depend on another loop
    of the nest. The loop handles are consumed; the results are the same
    loops in the given order.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops);
  let results = (outs Variadic<TransformHandleTypeInterface>:$reordered);
  let assemblyFormat = [{
    $loops attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TIR_AddUnitLoopOp : TIR_TransformOp<"add_unit_loop", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "wrap a block or loop in a loop of extent 1 (TVM's add_unit_loop)";
  let description = [{
    Creates `tir.for %u = 0 to 1` where the target (one `tir.block` or
    `tir.for`) is and moves the target into it. The target handle stays
    valid; the new loop is returned.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Block placement
//===----------------------------------------------------------------------===//

class TIR_ComputeAtOpBase<string mnemonic, string summaryText,
                          string descriptionText>
    : TIR_TransformOp<mnemonic, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = (ins TransformHandleTypeInterface:$block,
                       TransformHandleTypeInterface:$loop,
                       DefaultValuedAttr<BoolAttr, "false">:$preserve_unit_loops,
                       DefaultValuedAttr<I64Attr, "-1">:$index);
  let assemblyFormat = [{
    $block `at` $loop attr-dict `:` type($block) `,` type($loop)
  }];
}

def TIR_ComputeAtOp : TIR_ComputeAtOpBase<"compute_at",
    "move a producer block under a loop of its consumers (TVM's compute_at)", [{
    Moves the block under the loop and regenerates its loops (`ax0`, `ax1`,
    ..., one per iteration variable, outermost first; none of extent 1
    unless `preserve_unit_loops = true`) so that one iteration of the loop
    computes the region of the block's output that its consumers under the
    loop read there (relaxed over the loops inside the loop). The bindings
    become `lower + ax`, simplified; a dimension whose region covers the
    block's whole domain iterates it fully; where the region may leave the
    block's bounds the block gets a predicate. `index` is TVM's: -1 puts
    the block before the first consumer under the loop, -2 after the last
    producer, n before the n-th statement of the loop body. Loops the block
    leaves empty are erased.

    ```mlir
    transform.tir.compute_at %b at %ho : !transform.any_op, !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a block that is
    neither complete nor a reduction block, an output block (it writes a
    buffer not allocated in its scope), a loop in another scope or that
    contains the block, a consumer outside the loop, a producer under it,
    no place between producers and consumers, an invalid index, a predicate
    that says more than the iteration domains, operands defined in the
    loops the block leaves, and regions it cannot invert or bound (an
    output index that is not an iteration variable or a constant, a runtime
    extent). The block handle stays valid; handles to the loops it leaves
    empty are invalidated.
  }]>;

def TIR_ReverseComputeAtOp : TIR_ComputeAtOpBase<"reverse_compute_at",
    "move a consumer block under a loop of its producers (TVM's reverse_compute_at)", [{
    The mirror of `compute_at`: the block moves under a loop that holds all
    of its producers, and its loops cover, in one iteration, the region its
    reads need of what the producers write there. Besides `compute_at`'s
    rules (except the output-block one) it refuses a consumer of the block
    under the loop, and producers whose writes in one iteration are not a
    dense box (a predicate, strides other than 1), since the block could
    then read elements not yet written.

    ```mlir
    transform.tir.reverse_compute_at %c at %i0 : !transform.any_op, !transform.any_op
    ```
  }]>;

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

class TIR_LoopKindOp<string mnemonic, string summaryText,
                     string descriptionText>
    : TIR_TransformOp<mnemonic, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def TIR_ParallelOp : TIR_LoopKindOp<"parallel",
    "run a loop's iterations on threads (TVM's parallel)", [{
    Marks every loop of the handle `parallel`. Refused when a block under the
    loop binds a non-spatial (reduce, scan, opaque) iteration variable to
    it. The handle stays valid.

    ```mlir
    transform.tir.parallel %i : !transform.any_op
    ```
  }]>;

def TIR_VectorizeOp : TIR_LoopKindOp<"vectorize",
    "run a loop's iterations as SIMD lanes (TVM's vectorize)", [{
    Marks every loop of the handle `vectorized`, under the same rule as
    `transform.tir.parallel`.
  }]>;

def TIR_UnrollOp : TIR_LoopKindOp<"unroll",
    "unroll a loop (TVM's unroll)", [{
    Marks every loop of the handle `unrolled`.
  }]>;

def TIR_BindOp : TIR_TransformOp<"bind", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "bind a loop to a GPU thread axis (TVM's bind)";
  let description = [{
    Binds every loop of the handle to `thread` (`blockIdx.x`, `threadIdx.y`,
    `vthread.x`, ...), under the same rule as `transform.tir.parallel`;
    refused for an unknown thread axis.

    ```mlir
    transform.tir.bind %i "threadIdx.x" : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$thread);
  let assemblyFormat = "$target $thread attr-dict `:` type($target)";
}

def TIR_AnnotateOp : TIR_TransformOp<"annotate", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "set an annotation of loops or blocks (TVM's annotate)";
  let description = [{
    Sets annotation `key` to `value` on every `tir.for` or `tir.block` of
    the handle.

    ```mlir
    transform.tir.annotate "pragma_unroll_explicit" = 16 : i64 to %b : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$key,
                       AnyAttr:$value);
  let assemblyFormat =
      "$key `=` $value `to` $target attr-dict `:` type($target)";
}

def TIR_UnannotateOp : TIR_TransformOp<"unannotate", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "remove an annotation of loops or blocks (TVM's unannotate)";
  let description = [{
    Removes annotation `key` from every `tir.for` or `tir.block` of the
    handle; refused when one of them has no such annotation.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$key);
  let assemblyFormat = "$target $key attr-dict `:` type($target)";
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
