//===- TIRTransformOps.td - transform.tir extension --------*- tablegen -*-===//
//
// Schedule primitives as transform-dialect ops. Each op is a thin wrapper over
// a function of the schedule library (include/TensorIR/Dialect/TIR/Schedule).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "TensorIR/Dialect/TIR/IR/TIRAttrs.td"
include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.td"

def TIR_ScheduleOpTrait : NativeOpTrait<"ScheduleOpTrait"> {
  let cppNamespace = "::mlir::tir";
}
def TIR_ScheduleEachOpTrait : NativeOpTrait<"ScheduleEachOpTrait"> {
  let cppNamespace = "::mlir::tir";
}

// A step of a schedule. The handle contract is the same for every op:
// operands are only read (never consumed), results are new handles, and
// the payload is modified unless the op is a query (`query = 1`). A loop
// that a primitive replaces is erased, which empties every handle to it;
// blocks are never replaced, so handles to blocks, and to loops that a
// primitive keeps, stay valid, as TVM's BlockRV and LoopRV do.
//
// ScheduleOpTrait gives the op its transform-interpreter `apply` and its
// effects; the op defines only `applyToPayload` (usually a few lines that
// unpack the handles and attributes and call the schedule library), or,
// with `each = 1`, `applyToOne` and `getTargets` for a step applied to each
// op of one handle. They are C++, in the .cpp of the op's family in
// lib/Dialect/TIR/TransformOps: TIRTransformOps.cpp for the ops of this
// file, BufferTransformOps.cpp for those of TIRBufferTransformOps.td, and
// so on. Operands and attributes are named as TVM's Python parameters: the
// Python form of a trace and the Python Schedule's generic entry point use
// these names.
//
// The C++ classes live in mlir::tir: upstream's transform ops already use
// names such as transform::SplitOp, FuseOp, VectorizeOp and AnnotateOp.
class TIR_ScheduleOp<string mnemonic, list<Trait> traits = [],
                     bit query = 0, bit each = 0>
    : Op<Transform_Dialect, "tir." # mnemonic, !listconcat(traits, [
        TIR_ScheduleOpTrait, TIR_ScheduleOpInterface,
        TransformOpInterface, MemoryEffectsOpInterface],
        !if(each, [TIR_ScheduleEachOpTrait], []))> {
  let cppNamespace = "::mlir::tir";

  // Declarations the op adds to the generated ones.
  code extraScheduleDeclaration = "";

  list<int> argIndices = !range(!size(arguments));
  list<string> operandNameList = !foldl([]<string>, argIndices, acc, i,
      !if(!isa<Attr>(!getdagarg<Constraint>(arguments, i)), acc,
          !listconcat(acc, [!getdagname(arguments, i)])));
  list<string> attributeNameList = !foldl([]<string>, argIndices, acc, i,
      !if(!isa<Attr>(!getdagarg<Constraint>(arguments, i)),
          !listconcat(acc, [!getdagname(arguments, i)]), acc));
  bit variadicOperand = !foldl(0, argIndices, acc, i,
      !or(acc, !isa<Variadic>(!getdagarg<Constraint>(arguments, i))));
  bit variadicResult = !and(!gt(!size(results), 0),
      !isa<Variadic>(!getdagarg<Constraint>(results, 0)));

  let extraClassDeclaration = [{
    static ::llvm::ArrayRef<::llvm::StringLiteral> getPythonOperandNames() {
      }] # !if(!empty(operandNameList), "return {};",
               "static constexpr ::llvm::StringLiteral names[] = {\"" #
               !interleave(operandNameList, "\", \"") #
               "\"}; return names;") # [{
    }
    static ::llvm::ArrayRef<::llvm::StringLiteral> getPythonAttributeNames() {
      }] # !if(!empty(attributeNameList), "return {};",
               "static constexpr ::llvm::StringLiteral names[] = {\"" #
               !interleave(attributeNameList, "\", \"") #
               "\"}; return names;") # [{
    }
    static bool hasVariadicOperand() { return }] #
        !if(variadicOperand, "true", "false") # [{; }
    static bool returnsList() { return }] #
        !if(variadicResult, "true", "false") # [{; }
    static unsigned getPythonResultCount() { return }] # !size(results) # [{; }
    static bool isQuery() { return }] # !if(query, "true", "false") # [{; }
  }] # !if(each, [{
    ::llvm::LogicalResult applyToOne(::mlir::RewriterBase &rewriter,
                                     ::mlir::Operation *target,
                                     ::mlir::tir::ScheduleError &error);
    ::mlir::FailureOr<::llvm::SmallVector<::mlir::Operation *>>
    getTargets(const ::mlir::tir::SchedulePayload &payload,
               ::mlir::tir::ScheduleError &error);
  }], [{
    ::llvm::LogicalResult applyToPayload(::mlir::RewriterBase &rewriter,
                                         ::mlir::tir::SchedulePayload &payload,
                                         ::mlir::tir::ScheduleError &error);
  }]) # extraScheduleDeclaration;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

def TIR_GetBlockOp : TIR_ScheduleOp<"get_block", [], /*query=*/1> {
  let summary = "find a tir.block by name (TVM's Schedule.get_block)";
  let description = [{
    Returns a handle to the `tir.block` named `name` inside the payload op
    of `target` (a function or a module); with `func_name`, inside the
    function of that name in it. Block names are unique within a function;
    when several functions have such a block, the op fails (silenceably)
    naming each, and `func_name` picks one, as in TVM's
    `get_block(name, func_name)`.

    ```mlir
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.tir.get_block "C" in %root {func_name = "main"} : (!transform.any_op) -> !transform.any_op
    ```

    Fails silenceably when no block has that name.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name,
                       OptionalAttr<StrAttr>:$func_name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $name `in` $target attr-dict `:` functional-type(operands, results)
  }];
}

// Queries that return blocks or loops (`what`). With one result, the
// handle holds them all; with several (or none), there must be exactly one
// result per op found.
class TIR_ListQueryOp<string mnemonic, string operandName, string what,
                      string summaryText, string descriptionText>
    : TIR_ScheduleOp<mnemonic, [], /*query=*/1> {
  let summary = summaryText;
  let description = descriptionText # [{

    With one result, the handle holds them all, in order; with several (or
    none), there must be exactly one result per }] # what # [{, as in
    `a, b = sch.}] # mnemonic # [{(...)`.
  }];
  let arguments = !dag(ins, [TransformHandleTypeInterface], [operandName]);
  let results = (outs Variadic<TransformHandleTypeInterface>:$found);
  let assemblyFormat = [{
    $}] # operandName # [{ attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_GetLoopsOp : TIR_ListQueryOp<"get_loops", "block", "loop",
    "the loops above a block, outermost first (TVM's get_loops)", [{
    Returns the `tir.for` loops that enclose the block, from the outermost
    to the innermost, stopping at the enclosing block or function (the
    block's scope), as TVM's `Schedule.get_loops` does.

    ```mlir
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %all = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    ```

    The handle must hold exactly one `tir.block`.
  }]>;

def TIR_GetChildBlocksOp : TIR_ListQueryOp<"get_child_blocks",
    "block_or_loop", "block",
    "the blocks directly under a block or loop (TVM's get_child_blocks)", [{
    Returns the `tir.block`s nested in the target (`tir.block`s, `tir.for`s
    or functions) that are not inside another block, in program order.

    ```mlir
    %blocks = transform.tir.get_child_blocks %loop : (!transform.any_op) -> !transform.any_op
    ```
  }]>;

def TIR_GetProducersOp : TIR_ListQueryOp<"get_producers", "block", "block",
    "the blocks that write what a block reads (TVM's get_producers)", [{
    Returns the blocks of the target block's scope (its enclosing block or
    function) that come before it and write a buffer it reads, in program
    order. A block's buffers are its `reads` / `writes` lists when it has
    them, else the buffers its body loads and stores. The handle must hold
    exactly one `tir.block`.
  }]>;

def TIR_GetConsumersOp : TIR_ListQueryOp<"get_consumers", "block", "block",
    "the blocks that read what a block writes (TVM's get_consumers)", [{
    Returns the blocks of the target block's scope that come after it and
    read a buffer it writes, in program order. The handle must hold exactly
    one `tir.block`.
  }]>;

def TIR_GetOutputBlocksOp : TIR_ListQueryOp<"get_output_blocks", "scope_block",
    "block", "the output blocks under a block (TVM's get_output_blocks)", [{
    Returns the blocks under the block (or function: TVM's root block,
    `get_block "root"`), nested ones too, in program order, that write a
    buffer their own scope does not allocate.
  }]>;

def TIR_SamplePerfectTileOp : TIR_ScheduleOp<"sample_perfect_tile", [],
                                             /*query=*/1> {
  let summary = "factors of a loop's extent (TVM's sample_perfect_tile)";
  let description = [{
    Returns `n` parameters whose product is the loop's constant extent, the
    innermost at most `max_innermost_factor` (when positive): the
    `decision` when the op has one, else factors drawn as TVM draws them
    (each prime's exponent split uniformly among the factors) from the
    schedule's random state. A decision that no longer divides the loop (a
    trace replayed on a changed program) is repaired as TVM repairs it:
    from the innermost factor out, a factor that does not divide what is
    left becomes all of it, the outermost takes the rest. A loop with a
    runtime extent gets TVM's trivial tiling: -1 (TVM's None, inferred by
    split) then 1s. The Python schedule records the decision taken as the
    op's attribute. One result per factor.

    ```mlir
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2, max_innermost_factor = 16, decision = array<i64: 32, 4>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    ```

    Fails (silenceably) for a loop that does not start at 0, a decision
    that does not have `n` factors, and, in the transform interpreter
    (which has no random state), an op without a decision.
  }];
  let arguments = (ins TransformHandleTypeInterface:$loop, I64Attr:$n,
                       DefaultValuedAttr<I64Attr, "16">:$max_innermost_factor,
                       OptionalAttr<DenseI64ArrayAttr>:$decision);
  let results = (outs Variadic<TransformParamTypeInterface>:$factors);
  let assemblyFormat = [{
    $loop attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    static ::mlir::Type getScheduleResultType(::mlir::MLIRContext *context);
  }];
}

def TIR_SampleCategoricalOp : TIR_ScheduleOp<"sample_categorical", [],
                                             /*query=*/1> {
  let summary = "one of several integers (TVM's sample_categorical)";
  let description = [{
    Returns a parameter holding one of `candidates`, the one at index
    `decision` when the op has one, else drawn from the schedule's random
    state with probability proportional to its weight in `probs`, as TVM
    draws it. The Python schedule records the index taken as the op's
    `decision`.

    ```mlir
    %v = transform.tir.sample_categorical {candidates = array<i64: 1, 2, 4>, probs = array<f64: 0.5, 0.25, 0.25>, decision = 2} : () -> !transform.param<i64>
    ```

    Fails (silenceably) for no candidates, as many weights as candidates
    missing, a negative weight or weights that are all 0, a decision out
    of range, and, in the transform interpreter, an op without a decision.
  }];
  let arguments = (ins DenseI64ArrayAttr:$candidates,
                       DenseF64ArrayAttr:$probs,
                       OptionalAttr<I64Attr>:$decision);
  let results = (outs TransformParamTypeInterface:$result);
  let assemblyFormat = [{
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    static ::mlir::Type getScheduleResultType(::mlir::MLIRContext *context);
  }];
}

def TIR_SampleComputeLocationOp
    : TIR_ScheduleOp<"sample_compute_location", [], /*query=*/1> {
  let summary = "where to compute a block (TVM's sample_compute_location)";
  let description = [{
    Returns a handle to one of the places the block may be computed, as
    TVM's CollectComputeLocation lists them: its `decision` when the op has
    one, else one drawn uniformly from the schedule's random state. The
    places are -2 (inlined; when compute_inline would apply), -1 (at the
    root, where it is) and k, the k-th loop above its first consumer (no
    deeper than the lowest loop holding every consumer, no unit loops, no
    spatial loop after one that is not, no trailing loops that are not
    spatial, and only where compute_at would apply). A decision that is no
    longer a place is repaired as TVM repairs it: the nearest place before
    it. For the root and the inline place the handle is empty:
    compute_at / reverse_compute_at given it (straight from this op) leave
    the block where it is or inline it, as TVM's. The Python schedule
    records the place taken as the op's `decision`.

    ```mlir
    %l = transform.tir.sample_compute_location %b {decision = 2} : (!transform.any_op) -> !transform.any_op
    ```

    Fails (silenceably) for a handle that is not one block and, in the
    transform interpreter (which has no random state), without a decision.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       OptionalAttr<I64Attr>:$decision);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $block attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_EnterPostprocOp : TIR_ScheduleOp<"enter_postproc", [], /*query=*/1> {
  let summary = "mark where postprocessing starts (TVM's enter_postproc)";
  let description = [{
    Changes nothing: the steps after it are postprocessing, which a trace
    drops when asked to (`remove_postproc`), as TVM's.

    ```mlir
    transform.tir.enter_postproc : () -> ()
    ```
  }];
  let arguments = (ins);
  let results = (outs);
  let assemblyFormat = [{
    attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Loop transformations
//===----------------------------------------------------------------------===//

def TIR_SplitOp : TIR_ScheduleOp<"split"> {
  let summary = "split a loop into nested loops (TVM's split)";
  let description = [{
    Splits the loop into one loop per factor, outermost first. A factor is
    a positive constant, `?` (TVM's `None`: at most one factor, inferred as
    the ceiling of the extent over the others), a scalable expression (an
    affine map `()[s0] -> (...)` of `vector.vscale`, TVM's
    `T.vscale() * 4`) or a parameter operand holding one integer (a factor
    `sample_perfect_tile` drew); each is a `#tir.split_factor` in the
    `factors` attribute. A product with scalable factors must be proven
    to cover the extent for each value of vscale in `vscale_values` (those
    the target allows). The loop's extent may be a runtime value (the
    inferred factor is then computed before the loops). Unless the factors
    are known to multiply to exactly the extent, every block directly under
    the loop gets the predicate `fused < extent` (`where(...)`), as in TVM;
    `disable_predication = true` leaves it out (the caller asserts the
    factors divide the extent). With `preserve_unit_iters = false`, a loop
    of extent 1 does not appear in the bindings. Uses of the loop variable
    outside block bindings (opaque blocks' regions and bodies) get the fused
    expression through an `affine.apply`.

    ```mlir
    %i0, %i1 = transform.tir.split %i [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [%f0, %f1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %k [?, affine_map<()[s0] -> (s0 * 4)>] {vscale_values = array<i64: 1, 2, 4>} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Refused (silenceably, leaving the IR unchanged): a loop that does not
    start at 0, annotated or thread-bound loops, fewer than two factors,
    more than one inferred factor, a factor below 1 (a parameter too),
    factors whose product is below the extent or (for a runtime extent
    without an inferred factor) cannot be proven to cover it. The loop is
    replaced: its handles are emptied, and one handle per new loop is
    returned.
  }];
  let arguments = (ins TransformHandleTypeInterface:$loop,
                       Variadic<TransformParamTypeInterface>:$factor_params,
                       TIR_SplitFactorArrayAttr:$factors,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters,
                       DefaultValuedAttr<BoolAttr, "false">:$disable_predication,
                       OptionalAttr<DenseI64ArrayAttr>:$vscale_values);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $loop custom<FactorList>($factors, $factor_params) attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    static bool pythonFoldsVariadicOperand() { return true; }
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

def TIR_FuseOp : TIR_ScheduleOp<"fuse"> {
  let summary = "fuse perfectly nested loops into one (TVM's fuse)";
  let description = [{
    Fuses the loops (outermost first; each must be the only statement of the
    one before, apart from pure index computations) into one loop over the
    product of their extents, constant or runtime; each old variable
    becomes `(fused mod (extent * inner)) floordiv inner` in the bindings,
    and in other uses through an `affine.apply`. `preserve_unit_iters` is
    TVM's and changes nothing: as in TVM, a loop of extent 1 becomes 0.

    ```mlir
    %ij = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused: loops that are not perfectly nested, a loop that does not start
    at 0, annotated or thread-bound loops, a loop given twice, an extent
    that depends on an outer loop being fused. The loops are replaced.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$loops,
                       DefaultValuedAttr<BoolAttr, "true">:$preserve_unit_iters);
  let results = (outs TransformHandleTypeInterface:$fused);
  let assemblyFormat = [{
    $loops attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TIR_ReorderOp : TIR_ScheduleOp<"reorder"> {
  let summary = "reorder loops of one nest (TVM's reorder)";
  let description = [{
    Puts the given loops, which must lie on one single-branch nest (every
    loop from the outermost to the innermost given one holds only the next
    loop), into the given order, outermost first; loops of the nest that
    are not given keep their places. The loops are moved, not replaced:
    their handles stay valid.

    ```mlir
    transform.tir.reorder %k, %i : !transform.any_op, !transform.any_op
    ```

    Refused: a loop given twice, loops not on one nest, a nest that
    branches or crosses a block, a loop whose bounds depend on another loop
    of the nest, a block whose bindings are not affine in the nest.
  }];
  let arguments = (ins Variadic<TransformHandleTypeInterface>:$ordered_loops);
  let assemblyFormat = [{
    $ordered_loops attr-dict `:` type($ordered_loops)
  }];
  let hasVerifier = 1;
}

def TIR_ReorderBlockIterVarOp : TIR_ScheduleOp<"reorder_block_iter_var"> {
  let summary = "reorder a block's iteration variables (TVM's reorder_block_iter_var)";
  let description = [{
    Lists the block's iteration variables in the order `new_order` gives:
    the k-th variable is the old variable `new_order[k]`, with its domain,
    kind and binding; the block's body and loops compute the same.

    ```mlir
    transform.tir.reorder_block_iter_var %b {new_order = array<i64: 2, 1, 0>} : !transform.any_op
    ```

    Refused: an order that is not a permutation of all the block's
    variables (too few or too many, a position out of range or given
    twice).
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       DenseI64ArrayAttr:$new_order);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def TIR_AddUnitLoopOp : TIR_ScheduleOp<"add_unit_loop"> {
  let summary = "wrap a block or loop in a loop of extent 1 (TVM's add_unit_loop)";
  let description = [{
    Creates `tir.for %u = 0 to 1` where the target (one `tir.block` or
    `tir.for`) is and moves the target into it. The target handle stays
    valid; the new loop is returned.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block_or_loop);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $block_or_loop attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Block placement
//===----------------------------------------------------------------------===//

class TIR_InlineOpBase<string mnemonic, string summaryText,
                       string descriptionText>
    : TIR_ScheduleOp<mnemonic> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = (ins TransformHandleTypeInterface:$block);
  let assemblyFormat = [{ $block attr-dict `:` type($block) }];
}

def TIR_ComputeInlineOp : TIR_InlineOpBase<"compute_inline",
    "inline a producer block into its consumers (TVM's compute_inline)", [{
    Removes the block, whose body must be one store `B[f(v)] = g(v)` with f
    a bijective affine map of its iteration variables (each index a
    mixed-radix sum of them, `B[vi, vj]`, `B[vj, vi]`, `B[vi * 16 + vj]`, or
    such a sum split by `floordiv` and `mod`, `B[v floordiv 4, v mod 4]`),
    and computes `g` wherever `B` is read in the block's scope: in the
    bodies of its consumers, in value conditions (`T.where` over loads),
    in nested blocks, with v given by the load's indices. The block, the
    loops it leaves empty and the allocation of `B` are erased; a block
    that lists `B` in its reads lists what it now reads in its place.

    ```mlir
    transform.tir.compute_inline %b : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), with TVM: a block with
    a `tir.init`, the only block of its scope, a block writing more than
    one buffer, a scope that is not
    a stage pipeline (a block writes what an earlier one reads), an output
    block (`B` not allocated in the scope), a block that is not complete, a
    body of another form or a store map that is not bijective affine, a use
    of `B` other than loads and stores (a call such as `tvm_access_ptr`, a
    match_buffer); and a computation that uses a value not available where
    `B` is read. The handle to the block is emptied.
  }]>;

def TIR_ReverseComputeInlineOp : TIR_InlineOpBase<"reverse_compute_inline",
    "inline a consumer block into its producer (TVM's reverse_compute_inline)", [{
    Removes the block, whose body must be one store `C[h(u)] = k(B[f(u)],
    u)`, and makes its producer (the one block writing `B`) store `k` to `C`
    directly: u is found from the producer's store indices by inverting f
    (every load of `B` in the block has the same indices; each is a
    mixed-radix sum of iteration variables, or such a sum divided and taken
    modulo by constants, `B[(vi * 2048 + vj * 64 + vk * 8 + vl) floordiv
    128, (...) mod 128]`). A store of `B` in the producer's `tir.init`
    becomes a store of `C` too, and the producer's loads of `B` (a
    reduction's update) read `C`. Where the producer iterates beyond the
    block's domain, the producer gets the domain as a predicate (added to
    the one it has). The block, the loops it leaves empty and `B` are
    erased.

    ```mlir
    transform.tir.reverse_compute_inline %c : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), with TVM: a block with
    a `tir.init`, the only block of its scope, a scope that is not a stage
    pipeline, a block reading no
    buffer or more than one buffer written in the scope, a block that is
    not complete, a producer that is not complete or not the only one, an
    output producer, a block with a predicate, a body of another form,
    loads of `B` at different indices, indices that are not such affine
    maps, a producer that does not cover the block's domain, a use of `B`
    other than loads and stores. Also refused, as the result would be
    wrong (TVM accepts these): another reader of `B`, a read of one
    position of a dimension the producer iterates, a producer index that
    may leave the part of a split index the block reads, and a block
    computation using a value not available at the producer. The handle to
    the block is emptied.
  }]>;

def TIR_FuseReductionEpilogueOp : TIR_ScheduleOp<"fuse_reduction_epilogue"> {
  let summary = "fold a bias epilogue into a reduction (TVM's fuse_reduction_epilogue)";
  let description = [{
    Removes `epilogue`, a complete block `D[h(u)] = B[f(u)] + bias` reading
    the output B of `reduction` once, and makes the reduction accumulate
    into D directly: its `tir.init` stores its value plus the bias (the
    bias alone for a zero init, `D[vi, vj] = C[vi, vj]`), its update reads
    and writes D where it read and wrote B. u is found from the reduction's
    store indices as `reverse_compute_inline` finds it; where the reduction
    iterates beyond the epilogue's domain it gets the domain as a
    predicate. The epilogue and the loops it leaves empty are erased; B's
    allocation stays (unused), as in TVM.

    ```mlir
    transform.tir.fuse_reduction_epilogue %reduction, %epilogue : !transform.any_op, !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged), with TVM: blocks in
    different scopes, a scope that is not a stage pipeline, a reduction
    writing more than one buffer or not a reduction block, an epilogue
    that is not complete, an output reduction (B not allocated in the
    scope), an epilogue with a predicate or of another form. Also refused,
    as the result would be wrong (TVM accepts these): an epilogue that
    clips or rectifies (`T.max(B + C, 0)`, `T.min(T.max(B, lo), hi)`; TVM
    applies them to every partial sum, which computes another function),
    another reader of B (TVM leaves it reading what nothing writes), a
    block between the two that accesses D or writes what the epilogue
    reads, and a D of another element type.
  }];
  let arguments = (ins TransformHandleTypeInterface:$reduction_block,
                       TransformHandleTypeInterface:$epilogue_block);
  let assemblyFormat = [{
    $reduction_block `,` $epilogue_block attr-dict `:` type($reduction_block) `,` type($epilogue_block)
  }];
}

class TIR_ComputeAtOpBase<string mnemonic, string summaryText,
                          string descriptionText>
    : TIR_ScheduleOp<mnemonic> {
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
    leaves empty are erased. Given the root place of
    `sample_compute_location` (its handle, straight from the op) the block
    stays where it is; given its inline place it is inlined
    (compute_inline).

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
    output index that is neither an iteration variable times 1 or -1 plus a
    constant, a tile, a constant, nor a mixed-radix digit
    `(v floordiv s) mod m` of one variable). Runtime loop bounds and
    iteration domains give loops to runtime extents and, where the domain
    is not known to hold, a predicate. The block handle stays valid; handles to the loops it leaves
    empty are emptied.
  }]>;

def TIR_ReverseComputeAtOp : TIR_ComputeAtOpBase<"reverse_compute_at",
    "move a consumer block under a loop of its producers (TVM's reverse_compute_at)", [{
    The mirror of `compute_at`: the block moves under a loop that holds all
    of its producers, and its loops cover, in one iteration, the region its
    reads need of what the producers write there. Besides `compute_at`'s
    rules (except the output-block one) it refuses a consumer of the block
    under the loop, producers whose writes in one iteration are not a
    dense box (strides other than 1, a predicate that cuts elements out
    rather than keeping an iteration variable in its domain or bounding a
    reduction), and a write that covers
    only part of a tile or of the digits of an iteration variable the block
    reads (a column of `temp[v floordiv 16, v mod 16]`), since the block
    could then read elements not yet written.

    ```mlir
    transform.tir.reverse_compute_at %c at %i0 : !transform.any_op, !transform.any_op
    ```
  }]>;

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

// A step applied to each op of the first handle in turn: the op's
// `getTargets` checks what the handle must hold (loops, or loops and
// blocks), its `applyToOne` applies the step to one of them.
class TIR_EachOp<string mnemonic>
    : TIR_ScheduleOp<mnemonic, [], /*query=*/0, /*each=*/1>;

class TIR_LoopKindOp<string mnemonic, string summaryText,
                     string descriptionText>
    : TIR_EachOp<mnemonic> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = (ins TransformHandleTypeInterface:$loop);
  let assemblyFormat = "$loop attr-dict `:` type($loop)";
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

def TIR_BindOp : TIR_EachOp<"bind"> {
  let summary = "bind a loop to a GPU thread axis (TVM's bind)";
  let description = [{
    Binds every loop of the handle to `thread_axis` (`blockIdx.x`,
    `threadIdx.y`, `vthread.x`, ...), under the same rule as
    `transform.tir.parallel`, except that a reduction loop may be bound to
    `threadIdx.*` (a cross-thread reduction); refused for an unknown thread
    axis.

    ```mlir
    transform.tir.bind %i "threadIdx.x" : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$loop, StrAttr:$thread_axis);
  let assemblyFormat = "$loop $thread_axis attr-dict `:` type($loop)";
}

def TIR_AnnotateOp : TIR_ScheduleOp<"annotate"> {
  let summary = "set an annotation of loops or blocks (TVM's annotate)";
  let description = [{
    Sets annotation `ann_key` to `ann_val` on every `tir.for` or
    `tir.block` of the handle; or, given a parameter instead of `ann_val`
    (a value a sampling step drew: TVM's ExprRV), to the integer it holds.
    A function (TVM's root block) is annotated on its root block, which
    the first annotation writes out: the body moves into
    `tir.block "root"()`, as TVMScript spells a root block with
    annotations.

    ```mlir
    transform.tir.annotate "pragma_unroll_explicit" = 16 : i64 to %b : !transform.any_op
    transform.tir.annotate "meta_schedule.unroll_explicit" = %v to %b : !transform.any_op, !transform.param<i64>
    ```

    Refused for a handle that holds something else than loops, blocks and
    tir functions (a function that returns values has no root block);
    the op does not verify with both a value and a parameter, or neither.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block_or_loop,
                       Variadic<TransformParamTypeInterface>:$ann_param,
                       StrAttr:$ann_key, OptionalAttr<AnyAttr>:$ann_val);
  let assemblyFormat = [{
    $ann_key `=` ($ann_val^)? ($ann_param^)? `to` $block_or_loop attr-dict `:`
    type($block_or_loop) (`,` type($ann_param)^)?
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    // TVM's Python takes the parameter as the value: `ann_val=v1`.
    static bool pythonFoldsVariadicOperand() { return true; }
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

def TIR_UnannotateOp : TIR_EachOp<"unannotate"> {
  let summary = "remove an annotation of loops or blocks (TVM's unannotate)";
  let description = [{
    Removes annotation `ann_key` from every `tir.for` or `tir.block` of the
    handle (a function's from its root block); refused when one of them
    has no such annotation.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block_or_loop,
                       StrAttr:$ann_key);
  let assemblyFormat = "$block_or_loop $ann_key attr-dict `:` type($block_or_loop)";
}

include "TensorIR/Dialect/TIR/TransformOps/TIRBufferTransformOps.td"
include "TensorIR/Dialect/TIR/TransformOps/TIRPaddingTransformOps.td"
include "TensorIR/Dialect/TIR/TransformOps/TIRLoopMergeTransformOps.td"
include "TensorIR/Dialect/TIR/TransformOps/TIRReductionTransformOps.td"
include "TensorIR/Dialect/TIR/TransformOps/TIRBlockizeTransformOps.td"

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
