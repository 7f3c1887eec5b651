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

def TIRCheckBoundsPass : Pass<"tir-check-bounds"> {
  let summary = "Warn about buffer accesses that can fall outside the buffer";
  let description = [{
    TensorIR accepts accesses whose indices can leave the buffer (TVM does:
    a padded tile reads past the edge only where its guard is false), so
    the verifier does not reject them. This pass reports them: for every
    `tir.load` / `tir.store`, each index's range is computed from the
    ranges of its operands (loop bounds, iteration domains, constants); an
    index that can leave the static size of its dimension gets a warning
    saying whether it is always or partly outside.

    Guards are understood: an access inside a block with a `where`
    predicate, inside an `scf.if`, or a load used only as a value of
    `arith.select` (TVM's `if_then_else`) is not reported, unless
    `warn-guarded` is set. Indices whose range is unknown (runtime extents,
    loaded indices) are not reported.

    ```
    warning: tir.load index 0 ranges over [0, 16], partly outside the buffer's [0, 15]
    ```
  }];
  let options = [
    Option<"warnGuarded", "warn-guarded", "bool", /*default=*/"false",
           "Also report guarded accesses">
  ];
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

def TIRRestoreDeclaredLayoutsPass : Pass<"tir-restore-declared-layouts"> {
  let summary = "Give functions whose parameters a schedule re-laid out their declared signature";
  let description = [{
    transform_layout on a parameter changes its type (TVM's buffer_map),
    and records the type the user declared in `tir.declared_layout`
    (with the index map and pad value). A build keeps the signature the
    user declared: for each such parameter this pass gives it back its
    declared type, allocates a buffer of the scheduled layout at the start
    of the function, which the body now uses, fills its padding with the
    pad value (when there is one), copies the caller's elements in through
    the index map, and copies them back out before the function returns
    when it writes the parameter (all of them: those the function leaves
    alone go back as they came):

    ```mlir
    %A_layout = tir.alloc_buffer : memref<4x4xi32>
    tir.for %i = 0 to 14 {
      tir.block "A_layout_in"(%v = spatial(14, %i)) {
        %x = tir.load %A[%v] : memref<14xi32>
        tir.store %x, %A_layout[%v floordiv 4, %v mod 4] : memref<4x4xi32>
      }
    }
    ```

    The attribute is removed; the parameter's axis separators, which
    belong to the scheduled layout, move to the new buffer. The CPU
    pipeline runs this pass first (and the compiler before it reads the
    signatures).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TIRSimplifyPass : Pass<"tir-simplify"> {
  let summary = "Simplify index expressions with what the variables' ranges say";
  let description = [{
    TVM's Simplify, for the index expressions of TensorIR: each block's
    bindings are simplified with the ranges of the loop variables they use
    (a loop of one iteration is its lower bound: `spatial(1, %ax0)` becomes
    `spatial(1, 0)`); an iteration variable of a single value is that value
    wherever the block uses it (its loads, stores, nested blocks' bindings)
    and in its read and write regions. Loops, blocks and their annotations
    stay; predicates are left as they are.

    ```mlir
    tir.block "B"(%v0 = spatial(1, %ax0), %v1 = spatial(8, %ax1)) {
      %x = tir.load %A[%v0, %v1] : memref<1x8xf32>
    ```
    becomes `spatial(1, 0)` and `tir.load %A[0, %v1]`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TIRRemoveAssumePass : Pass<"tir-remove-assume"> {
  let summary = "Drop the assumptions (tir.call \"assume\") before code generation";
  let description = [{
    TVM's RemoveAssume. `tir.call "assume"(%cond)` states a fact about the
    program (transform_layout assumes what an input's padding holds) for
    the analyses that run on tir; it computes nothing. This pass erases
    each such call, then the ops that only fed its condition (loads
    included: an assumption reads the buffer it speaks of, and the read
    must not survive into the code), and any block left empty.
  }];
  let dependentDialects = [];
}

def TIRReassociateReductionsPass : Pass<"tir-reassociate-reductions"> {
  let summary = "Let LLVM reorder the terms of float reductions (TVM's -fast-math-reassoc)";
  let description = [{
    Marks the combiner of every reduction update, `C[i] = C[i] + x` in a
    block with a reduce iteration variable (a float add, multiply, max or
    min of the value the block loads from the element it stores to),
    `fastmath<reassoc>`. LLVM may then keep partial sums in vector lanes
    where the reduction is an inner loop: a row sum of 768 floats runs ten
    times as fast on AVX-512. The result is rounded differently from the
    program's order (as a schedule that splits the reduction rounds it).

    The lowering runs it when the target asks for reassociation (`llvm
    -fast-math` or `-fast-math-reassoc`, TVM's attributes;
    `reassociate-reductions` of --tir-lower-to-llvm). TVM marks every float
    op of such a target; this marks only reductions' combiners: other
    arithmetic keeps its order.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TIRLowerInstructionsPass : Pass<"tir-lower-instructions"> {
  let summary = "Lower the instructions tensor intrinsics call to vector code";
  let description = [{
    A tensorized block calls its intrinsic's instruction as
    `tir.call "call_extern"("<instruction>", %C, %c_off, %A, %a_off, %B,
    %b_off)`, each buffer a view (`tir.match_buffer`, a memref subview
    once tir is lowered) of the region it works on. This pass replaces the
    calls of the instructions it knows with vector code on those views
    (offsets are in the views; the offset operands are ignored):

    - `llvm.x86.avx512.vpdpbusd.512` (AVX-512 VNNI): C[16] (i32) +=
      A[4] (u8) . B[16, 4] (i8) row by row, as the instruction
      (`llvm.call_intrinsic`; the CPU needs avx512_vnni);
    - `tir.avx512_dot_16x4`: the same dot product, written with portable
      vector ops (widen, multiply, reduce);
    - `llvm.fma.v16f32`: C[16] (f32) = A[0] * B[16] + C[16] (`vector.fma`,
      one AVX-512 FMA on a CPU that has it).

    Each buffer must be a contiguous region of the expected size and
    element type. A call of any other external function is an error
    naming it: tir has no way to call it on the CPU.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TIRNarrowPredicatedLoopsPass : Pass<"tir-narrow-predicated-loops"> {
  let summary = "Give loops above a predicated block the range its predicate allows";
  let description = [{
    A split whose factors overshoot the loop (extent 3 split by
    `[6, 6, 7, 6]`) leaves 1,512 iterations of which the block's `where`
    keeps 3. For a chain of `tir.for` loops, each holding only the next
    loop, that ends in one `tir.block` with a predicate, the predicate is
    projected onto each loop variable (Presburger arithmetic, with the
    ranges of the values it reads; the hull over its disjuncts), and each
    serial, parallel or unrolled loop with constant bounds is narrowed to
    that range. Iterations outside it would run no block. The predicate
    stays; bindings and iteration domains do not change. Vectorized and
    thread-bound loops keep their extents; non-affine predicates are left
    alone.

    ```mlir
    tir.for %o = 0 to 6 {          // becomes: tir.for %o = 0 to 1
      tir.for %i = 0 to 6 {        // stays 0 to 6
        tir.block "B"(%v = spatial(3, %o * 6 + %i)) where(%o * 6 + %i < 3) {
    ```

    Run by `--tir-lower-to-llvm` before `--convert-tir-to-scf`: without it,
    LLVM's full unrolling of such nests (it predicts the predicate folds
    away) can take minutes.
  }];
  let dependentDialects = [];
}

def TIRPartitionLoopsPass : Pass<"tir-partition-loops"> {
  let summary = "Cut tiled loops so that their main parts need no predicate";
  let description = [{
    TVM's LoopPartition. A split that does not divide its loop leaves a
    `where` on the block it tiles, evaluated at every iteration; in an
    unrolled or vectorized nest it keeps LLVM from holding an accumulator
    in registers and from using full vectors. Each serial, parallel,
    unrolled or vectorized loop with constant bounds (outermost first) is
    cut where a conjunct of a predicate of a block under it changes from
    holding for every value of the block's other inputs to possibly
    failing, or from possibly holding to never holding; both parts are cut
    again, so the loops inside a tail see its narrow range. Then conjuncts that hold
    over the ranges of their inputs are dropped, blocks whose predicate
    can never hold are erased, and so are the loops left empty.

    The condition under which a block's `tir.init` runs (every reduce
    variable at the start of its domain) guides cuts the same way: a
    reduction loop is cut after its first iteration, so the copies that
    can never start the reduction lose the init (no test of the reduction
    variables in the hot loop) and, in the first iteration's copy, the
    init runs before the update unconditionally once its single-iteration
    loops fold. A tiled GEMM whose init stays in its block thus starts each
    tile of C from zeroed registers.

    ```mlir
    tir.for %o = 0 to 4 {
      tir.for %i = 0 to 32 {
        tir.block "B"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i < 100) {
    // becomes
    tir.for %o = 0 to 3 {
      tir.for %i = 0 to 32 {
        tir.block "B"(%v = spatial(100, %o * 32 + %i)) {
    tir.for %o = 3 to 4 {
      tir.for %i = 0 to 4 {
        tir.block "B"(%v = spatial(100, %o * 32 + %i)) {
    ```

    A vectorized loop whose last lanes never run becomes a narrower one
    (no masked accesses); thread-bound loops keep their extents; nothing
    in a loop annotated for software pipelining is cut; only predicates
    of one conjunction of affine constraints (no `condition`) guide cuts. A function gets at most 128 cuts (each
    copies a loop nest). Run by `--tir-lower-to-llvm` before
    `--tir-narrow-predicated-loops`.
  }];
  let dependentDialects = [];
}

def TIRInjectSoftwarePipelinePass : Pass<"tir-inject-software-pipeline"> {
  let summary = "Overlap the iterations of loops annotated for software pipelining";
  let description = [{
    TVM's InjectSoftwarePipeline. A `tir.for` whose annotations hold
    `software_pipeline_stage` and `software_pipeline_order` (one integer
    per statement of its body, as `sch.annotate` writes them) runs
    statement S of iteration j at step `j + stage(S)`, the statements of a
    step in the annotated order: with stages `[0, 0, 1]` the copies of
    the next tile run while the current one is computed.

    ```mlir
    tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1],
                                    software_pipeline_stage = [0, 1]} {
      tir.for ... { tir.block "load" ... }     // stage 0
      tir.for ... { tir.block "compute" ... }  // stage 1
    }
    // becomes: load(0); for k in [1, 4): {load(k); compute(k - 1)}; compute(3)
    ```

    The loop's statements are the ops of its body other than allocations
    and side-effect-free ops (index arithmetic, views), which are computed
    again where a statement needs them. The first and last `max stage`
    steps (prologue and epilogue) are written out with constant
    iterations; the others form the steady loop, of the loop's kind,
    keeping its other annotations.

    Buffers allocated in the loop's body (`memref.alloca`: where
    convert-tir-to-gpu's compaction puts a kernel's shared and local
    caches) are one iteration's: each gets as
    many copies as the iterations in flight need (two for a tile that the
    next iteration fills while this one reads it), iteration j using copy
    `j mod copies`. Where a buffer has several copies the steady loop is
    unrolled by their number U (the least common multiple over buffers, at
    most 16), so each access names its copy directly: it then runs over
    rounds of U steps (named like a split's outer loop, `k_0`), and the
    steps left over are written out after it. A block annotated
    `double_buffer_scope` = i (TVM's) gives its i-th written buffer two
    copies even where one would do. convert-tir-to-gpu runs the same
    rewrite on the loops of its kernels after compacting their shared and
    local buffers into the loops that use them; this pass then handles the
    loops outside kernels.

    Refused, with an error naming the loop
    (`tir-inject-software-pipeline-invalid.mlir`): one annotation without
    the other, lists of the wrong length, stages below 0 or over 64,
    orders that are not 0..n-1, a parallel, vectorized or thread-bound
    loop, runtime bounds, buffers needing copies whose numbers would unroll
    the steady loop more than 16 times; and, on buffers of the whole shape,
    any reordering of two accesses of one element, one of them a write:
    within an iteration a statement may not take an earlier stage than
    one it follows, nor in the same stage an earlier order (TVM's rule,
    for reads after writes and every other pair as well); across
    iterations two statements whose parts of a buffer may overlap between
    iterations (not one tile per iteration), or cannot be bounded (an
    access through a view, a buffer given to a call), may not swap the
    iterations' order, a case TVM does not check. Accesses through views
    count as accesses of the buffer; a call given no buffer (unknown
    effects) counts as accessing all of them. `software_pipeline_async_stages`
    is accepted and runs synchronously (no asynchronous copies yet).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TIRMergeParallelPartsPass : Pass<"tir-merge-parallel-parts"> {
  let summary = "Make the parts of a partitioned parallel loop one loop again";
  let description = [{
    Runs after `--convert-tir-to-scf`. `--tir-partition-loops` cuts a
    parallel loop like any other, and marks its parts with the annotation
    `partition_group` = N. Each run of `scf.parallel` siblings of
    one group, with constant contiguous bounds and step 1, becomes one
    `scf.parallel` over their union whose body chooses the part's code with
    `scf.if` on the induction variable: one fork and join instead of one
    per part, and the tail's iterations shared with the others' (8 row
    blocks of a GEMM cut 7 + 1 took 4 + 1 block times on two threads).
    The annotation is removed everywhere.

    ```mlir
    scf.parallel (%i) = (%c0) to (%c7) step (%c1) { A(%i) } {tir.annotations = {partition_group = 0}}
    scf.parallel (%i) = (%c7) to (%c8) step (%c1) { B(%i) } {tir.annotations = {partition_group = 0}}
    // becomes
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      scf.if (%i < 7) { A(%i) } else { B(%i) }
    }
    ```
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def TIRAutoUnrollPass : Pass<"tir-auto-unroll"> {
  let summary = "Mark for unrolling the loops under TVM's "
                "pragma_auto_unroll_max_step";
  let description = [{
    TVM's UnrollLoop for the annotation MetaSchedule's
    RewriteParallelVectorizeUnroll leaves on the outermost loop of a nest,
    `pragma_auto_unroll_max_step` = N: inside that loop, from the innermost
    out, a serial loop of constant extent is marked `unrolled` when its
    extent times the statements (stores and calls made for their effect)
    its body repeats is at most N, it holds no loop left a loop, and at
    most eight unrolled levels are under it. `--tir-unroll-loops` then expands them. The pragma annotations
    (with `pragma_unroll_explicit`) are removed; loops without them are
    left alone.
  }];
}

def TIRUnrollLoopsPass : Pass<"tir-unroll-loops"> {
  let summary = "Unroll the loops that tir marked `unrolled`";
  let description = [{
    Runs after `--convert-tir-to-scf`, on the `scf.for` loops that carry
    `tir.loop_kind = #tir<for_kind unrolled>` (TVM's `T.unroll`). A loop
    with a constant trip count is unrolled completely: no loop is left, its
    body appears once per iteration with the loop variable folded to a
    constant. A loop whose trip count is known only at run time is unrolled
    by `dynamic-factor` with a remainder loop, and a remark says so.

    Inner loops are unrolled before the loops around them.

    A full unroll that would produce more than `max-unrolled-ops`
    operations (trip count times the body's operations, inner unrolled
    loops already expanded) is refused with an error naming the loop and
    both counts, instead of running for minutes or exhausting memory. A
    loop asks for more, or for no limit, with its annotation
    `unroll_limit` = N (0: no limit). A loop annotated `register_tile`
    (`convert-tir-to-gpu` marks so the loops over a thread's register tiles
    it unrolls) is left a loop instead, without a diagnostic.
  }];
  let options = [
    Option<"dynamicFactor", "dynamic-factor", "unsigned", /*default=*/"4",
           "Unroll factor for loops whose trip count is not a constant">,
    Option<"maxUnrolledOps", "max-unrolled-ops", "uint64_t",
           /*default=*/"16384",
           "The most operations a full unroll may produce, unless the loop's "
           "`unroll_limit` annotation says otherwise (0: no limit)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TIRVectorizeLoopsPass : Pass<"tir-vectorize-loops"> {
  let summary = "Turn the loops that tir marked `vectorized` into vector code";
  let description = [{
    Runs after `--convert-tir-to-scf`, on the `scf.for` loops that carry
    `tir.loop_kind = #tir<for_kind vectorized>` (TVM's `T.vectorized`). As in
    TVM, every iteration of such a loop is independent; the pass executes
    `lanes` iterations at once with `vector` ops:

    - a loop with a constant trip count of at most `max-lanes` becomes one
      vector step of that many lanes; a longer or dynamic loop steps by
      `max-lanes`, and a trip count that the step does not divide gets a
      lane mask for the last step;
    - values that do not depend on the loop variable stay scalar and are
      broadcast where a vector needs them; element-wise `arith` and `math`
      ops get vector operands;
    - a load or store whose innermost index moves by one element per
      iteration (and whose other indices do not move) becomes
      `vector.load` / `vector.store` (masked forms under a mask); any other
      moving index becomes `vector.gather` / `vector.scatter` over the
      linearized offsets (the buffer needs static strides);
    - `scf.if` on a loop-invariant condition stays an `scf.if`; on a
      per-lane condition (a block predicate, say) its body runs under a lane
      mask; inner `scf.for` loops with invariant bounds stay loops with a
      vector body.

    A loop the pass cannot vectorize (a store to the same element from every
    iteration, a buffer allocated per iteration, an op without a vector form,
    an op that may trap, such as an integer division, under a lane mask) is
    left as a scalar loop, with a warning that names the reason.
  }];
  let options = [
    Option<"maxLanes", "max-lanes", "unsigned", /*default=*/"16",
           "Most lanes one vector step handles">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TIRAnnotateOpPatternPass
    : Pass<"tir-annotate-op-pattern", "::mlir::ModuleOp"> {
  let summary = "Annotate each prim_func with its operator pattern";
  let description = [{
    Relax's AnnotateTIROpPattern: every prim_func with a body gets
    `tir.op_pattern`, TVM's OpPatternKind number of how its outputs depend
    on its inputs (0 element-wise, 1 broadcast, 2 injective, 3 commutative
    reduction, 4 output-element-wise-fusable such as a matmul, 8 opaque;
    `TensorIR/Dialect/TIR/Analysis/OpPattern.h`). --tir-fuse-ops decides
    by it (and analyzes a function without it).
  }];
}

def TIRFuseOpsPass : Pass<"tir-fuse-ops", "::mlir::ModuleOp"> {
  let summary = "Group the steps of graph functions into fused functions";
  let description = [{
    Relax's FuseOps: in each graph function, the steps that TVM's fusion
    rules group move into a private graph function `fused_<callees>` with
    `Primitive` in its `tir.func_attrs`, called where the group's last step
    was. The groups come from the post-dominator tree of the function's
    values and the operator patterns of the called prim_funcs
    (`tir.op_pattern`, or analyzed; `TensorIR/Dialect/TIR/Analysis/
    FusionGroups.h`): element-wise and broadcast steps join the injective,
    reduction or matmul-like step that post-dominates them; a matmul-like
    step takes the element-wise work after it; injective steps join one
    another once matmul-like groups are complete; other operators, function
    calls, parameters, constants and returned values are never an
    intermediate. A group function takes what the group reads (constants
    included) and returns what is read after it (a tuple for several); equal
    group functions are one. `--tir-fuse-tir` then makes each a prim_func.
  }];
}

def TIRFuseTIRPass : Pass<"tir-fuse-tir", "::mlir::ModuleOp"> {
  let summary = "Make each fused group function one prim_func";
  let description = [{
    Relax's FuseTIR: each call of a `Primitive` graph function whose body is
    prim_func calls (`--tir-fuse-ops`'s groups) becomes a tir.call_tir of a
    new private prim_func of the same name, whose body is the callees'
    bodies in order: the group function's parameters (those read) and
    results are its buffers, the values between the calls its
    `tir.alloc_buffer`s (of the shape variables' sizes where dynamic),
    block names made unique ("T_add", "T_add_1"). The group functions and
    the prim_funcs no longer called go.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TIRLiftTransformParamsPass
    : Pass<"tir-lift-transform-params", "::mlir::ModuleOp"> {
  let summary = "Move the computations on a graph function's weights into a function of their own";
  let description = [{
    Relax's LiftTransformParams: in each public graph function with a
    `num_input` attribute (`tir.func_attrs`, as `relax.frontend.nn` and the
    importers write it), the parameters after the first `num_input` are
    weights. The steps computed from weights and constants alone (a
    transpose of a weight, a reshape of a bias: call_tir ops and operators
    on tensors of static shapes) move into a new public function
    `<name>_transform_params`, which takes those weights and returns the
    values the function reads (a tuple); the function takes them instead, as
    parameters `lifted`, `lifted1`, ... after its own, and loses the
    weights only those steps read. A caller runs the transform once and
    passes its results on every call.
  }];
}

def TIRRewriteWeightLayoutsPass
    : Pass<"tir-rewrite-weight-layouts", "::mlir::ModuleOp"> {
  let summary = "Lay out constant weights in contiguous tiles of the output axis they are read along";
  let description = [{
    A constant that graph functions pass to a reduction, read along one
    output axis (a convolution's `W[f, c, ry, rx]`, a dense layer's
    `W[k, n]`), is laid out in tiles of that axis, each contiguous:
    `W[f floordiv 32, c, ry, rx, f mod 32]`, `W[n floordiv 32, k, n mod 32]`
    (`tile`; an axis whose extent is not a multiple of it, or is it, is only
    moved last). A vector along the outputs is then one load, and the
    weights a kernel's tile reads at every reduction step one run of memory.
    The prim_func's parameter gets the new layout (transform_layout) and
    every call passes the constant in it, computed by the pass; the graph's
    interface and results do not change. A parameter qualifies when the
    prim_func is private, called only by graph functions' `tir.call_tir`
    (not in place), unscheduled (every loop serial, without annotations),
    every call passes an `arith.constant` for it, and the function loads it
    once, in a block with a `tir.init`, each index a different iteration
    variable of the block and exactly one of them spatial. tvm.compile runs
    it on a model's untuned kernels for CPU targets.
  }];
  let options = [
    Option<"tileSize", "tile", "int64_t", /*default=*/"32",
           "Elements of the output axis per contiguous tile (0: no tiles)">
  ];
}

def TIRBufferizeGraphPass : Pass<"tir-bufferize-graph", "::mlir::ModuleOp"> {
  let summary = "Turn graph functions on tensors into allocations, calls and frees";
  let description = [{
    A graph function (TVM's Relax `main`) is a `func.func` on tensors whose
    steps are `tir.call_tir` ops, constants and upstream ops on tensors. This
    pass bufferizes the module with MLIR's one-shot bufferization across
    function boundaries (identity layouts at the boundaries): each
    `tir.call_tir` becomes an allocation per result and a `func.call` of the
    prim_func, a constant becomes a `memref.global`.

    Then a public graph function's results become out-parameters, each
    marked `tir.result` (and named `output`, `output1`, ...), the last step
    writing straight into them where it can; the runtime allocates them and
    returns them as the call's results. Finally MLIR's ownership-based
    deallocation pipeline frees the intermediates, in the graph functions
    only (prim_funcs keep their own allocations).

    A module without tensors is left as it is.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TIRLowerPackedCallsPass
    : Pass<"tir-lower-packed-calls", "::mlir::ModuleOp"> {
  let summary = "Call packed functions through the runtime's dispatcher";
  let description = [{
    After `--tir-bufferize-graph`, a call of a packed function (a
    declaration marked `tir.packed`: Relax's `R.call_dps_packed`,
    `R.call_pure_packed`) is a `func.call` of the declaration on buffers.
    This pass replaces each by a call through the pointer
    `__tir_packed_call`, which the module defines (null) and the runtime
    points at its dispatcher when it loads the module. The call passes the
    function's name, whether it returns its result (`tir.packed_returns`),
    the numbers of inputs and outputs, and an array describing each buffer
    as (DLPack type code, bits, rank, data address, sizes..., strides...).
    The declarations go.

    ```mlir
    func.call @"test.vm.identity"(%x, %y) : (memref<3x4xf32>, memref<3x4xf32>) -> ()
    ```
    becomes a `llvm.call` of the loaded pointer on
    (name, 0, 2, 0, slots).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_TD
