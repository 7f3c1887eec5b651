//===- TIROps.td - TensorIR operations ---------------------*- tablegen -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIROPS_TD
#define TENSORIR_DIALECT_TIR_IR_TIROPS_TD

include "TensorIR/Dialect/TIR/IR/TIRDialect.td"
include "TensorIR/Dialect/TIR/IR/TIRAttrs.td"
include "TensorIR/Dialect/TIR/IR/TIRTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// tir.for
//===----------------------------------------------------------------------===//

def TIR_ForOp : TIR_Op<"for", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a loop over a range of indices (TVM's For)";
  let description = [{
    `tir.for` runs its body once for every index in `[lower, upper)`; the
    induction variable is the body's only argument. Bounds are integer
    literals or `index` values defined above (a function's scalar parameters
    make dynamic shapes).

    The kind says how iterations run, as in TVMScript: `serial` (default,
    not printed), `parallel`, `vectorized`, `unrolled`, or
    `thread_binding<"tag">` where the tag is one of `blockIdx.{x,y,z}`,
    `threadIdx.{x,y,z}`, `vthread`, `vthread.{x,y,z}`. The iterations of a
    parallel, vectorized or thread-bound loop run at once (virtual threads
    interleave in one thread), so such a loop feeds no `reduce` iteration
    variable of the blocks under it (a race; virtual threads too, as TVM
    rules), except a `threadIdx` loop (a cross-thread reduction). Optional
    `annotations` carry TVM's loop annotations (pragmas, software
    pipelining, ...). `var_name` keeps the induction variable's name, as TVM
    does (the custom form shows it as the SSA name; schedule primitives
    derive new names from it, e.g. `i_0`, `i_1` after a split).

    ```mlir
    tir.for %i = 0 to 128 {
      tir.for %j = 0 to %n parallel {
        ...
      }
    }
    tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> annotations {pragma_unroll = 4 : i64} {
      ...
    }
    ```

    Verified rules: exactly one `index` body argument; a `thread_binding`
    loop has a known thread tag and other kinds have none; the number of
    dynamic bounds matches the `?` entries of `static_bounds`; constant bounds
    do not describe a negative extent.
  }];

  let arguments = (ins
    Variadic<Index>:$dynamic_bounds,
    DenseI64ArrayAttr:$static_bounds,
    DefaultValuedAttr<TIR_ForKindAttr, "::mlir::tir::ForKind::Serial">:$kind,
    OptionalAttr<StrAttr>:$thread,
    OptionalAttr<DictionaryAttr>:$annotations,
    OptionalAttr<StrAttr>:$var_name
  );
  let regions = (region SizedRegion<1>:$region);

  let builders = [
    // A loop of the given kind, with an empty body.
    OpBuilder<(ins "OpFoldResult":$lowerBound, "OpFoldResult":$upperBound,
                   CArg<"ForKind", "ForKind::Serial">:$kind,
                   CArg<"StringAttr", "{}">:$thread)>,
    // A serial loop whose variable is named `varName` ("": no name); the
    // body builder, if given, fills the body (the builder's insertion point
    // at its start, the induction variable as the value).
    OpBuilder<(ins "OpFoldResult":$lowerBound, "OpFoldResult":$upperBound,
                   "StringRef":$varName,
                   CArg<"function_ref<void(OpBuilder &, Location, Value)>",
                        "nullptr">:$bodyBuilder)>,
    // The same with constant bounds.
    OpBuilder<(ins "int64_t":$lowerBound, "int64_t":$upperBound,
                   CArg<"StringRef", "{}">:$varName,
                   CArg<"function_ref<void(OpBuilder &, Location, Value)>",
                        "nullptr">:$bodyBuilder)>
  ];

  let extraClassDeclaration = [{
    /// The loop's induction variable.
    BlockArgument getInductionVar() { return getBody()->getArgument(0); }
    /// Lower and upper bound as attribute (constant) or value (dynamic).
    OpFoldResult getMixedLowerBound();
    OpFoldResult getMixedUpperBound();
    std::optional<int64_t> getConstantLowerBound();
    std::optional<int64_t> getConstantUpperBound();
    /// upper - lower when both are constants, or when the lower bound is 0
    /// and the upper bound is a constant.
    std::optional<int64_t> getConstantExtent();
    /// Whether `tag` names a thread axis that `thread_binding` accepts.
    static bool isValidThreadTag(StringRef tag);
    /// Whether the iterations run at once: parallel, vectorized or bound to
    /// a thread axis other than a virtual thread (interleaved in one).
    bool runsIterationsAtOnce();
    /// Whether a reduction may run across the iterations: serial and
    /// unrolled loops, and threadIdx loops (lowered as a cross-thread
    /// reduction); not other thread axes (TVM's rule for bound loops).
    bool mayReduceAcrossIterations();
    /// The lowering's rule for parallel, vectorized and thread-bound loops:
    /// they feed no reduce variable (threadIdx loops excepted). The IR may
    /// hold such a loop (TVM's does; rfactor and the loop-kind primitives
    /// refuse it with their own diagnostics), but it does not compile:
    /// the reduction would race.
    LogicalResult checkIndependentIterations();
  }];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.block
//===----------------------------------------------------------------------===//

def TIR_BlockOp : TIR_Op<"block", [SingleBlock, NoTerminator,
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a unit of computation with iteration variables (TVM's Block)";
  let description = [{
    A block is TensorIR's unit of computation and of scheduling. Its body
    sees its own iteration variables (the body's arguments), those of
    enclosing blocks, buffers, and values defined above; a block without
    iteration variables (an opaque block) also sees enclosing loop
    variables.

    ```mlir
    tir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                  %vk = reduce(128, %k))
        reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
        writes(%C[%vi, %vj] : memref<128x128xf32>) {
      tir.init {
        tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
      }
      ...
    }
    ```

    Each iteration variable has a kind (`spatial`, `reduce`, `scan`,
    `opaque`), a domain (`128` is `[0, 128)`, `2:10` is `[2, 10)`, `%n` is
    `[0, %n)`), and a binding: an index expression (`+`, `-`, `*`,
    `floordiv`, `ceildiv`, `mod`) of any `index` values in scope, usually
    the enclosing loop variables. As in TensorIR, bindings need not be
    affine (`%k * %k floordiv 2`, `%f floordiv (%n * 128)`); primitives that
    need affine bindings check and refuse. The bindings are stored as one
    `AffineMap` whose inputs are `binding_values` (see TIRIndexExpr.h for
    the storage form).

    `where(...)` is TVM's `T.where`: comparisons of index expressions over
    the same kind of values, joined by `and`, `or` and `not` (stored as a
    disjunction of integer sets over `binding_values`); the body runs only
    where it holds. A `T.where` that depends on values (`B[i, j] < 10.0`)
    is an `i1` computed before the block, `condition(%c)`; the body runs
    where both hold.

    `reads(...)` and `writes(...)` list buffer regions; each dimension is a
    point `e` or a half-open range `lo : hi` of index expressions of the
    block's iteration variables and of any values in scope (those other
    than the iteration variables are the `region_values` operands). Each
    region is stored as an `AffineMap` over (iteration variables,
    region_values) with results `(start_0, .., start_r-1, extent_0, ..,
    extent_r-1)`. Both may be left out; then `--tir-infer-access-regions`
    fills them in.

    `annotations {...}` carries TVM's block annotations; `var_names` keeps
    the iteration variables' names (shown as the SSA names). Block names
    need not be unique; `get_block` refuses an ambiguous name.
  }];

  let arguments = (ins
    StrAttr:$block_name,
    TIR_IterTypeArrayAttr:$iter_types,
    DenseI64ArrayAttr:$static_domains,
    Variadic<Index>:$dynamic_domains,
    AffineMapAttr:$bindings,
    Variadic<Index>:$binding_values,
    OptionalAttr<TIR_IntegerSetArrayAttr>:$predicate,
    Optional<I1>:$condition,
    Variadic<Index>:$region_values,
    Variadic<AnyMemRef>:$read_buffers,
    OptionalAttr<TIR_AffineMapArrayAttr>:$read_regions,
    Variadic<AnyMemRef>:$write_buffers,
    OptionalAttr<TIR_AffineMapArrayAttr>:$write_regions,
    OptionalAttr<DictionaryAttr>:$annotations,
    OptionalAttr<StrArrayAttr>:$var_names
  );
  let regions = (region SizedRegion<1>:$region);

  let builders = [
    // A block named `blockName` with one iteration variable per entry of
    // `iterVars` (kind, domain, binding over `bindingValues`, name), an
    // optional predicate (a disjunction of conjunctions over
    // `bindingValues`) and optional read/write regions. The body builder,
    // if given, fills the body (the iteration variables as the values).
    OpBuilder<(ins "StringRef":$blockName,
                   "ArrayRef<IterVarSpec>":$iterVars,
                   "ValueRange":$bindingValues,
                   CArg<"function_ref<void(OpBuilder &, Location, ValueRange)>",
                        "nullptr">:$bodyBuilder,
                   CArg<"ArrayRef<Conjunction>", "{}">:$predicate,
                   CArg<"const BlockRegionsSpec *", "nullptr">:$regions)>
  ];

  let extraClassDeclaration = [{
    unsigned getNumIterVars() { return getIterTypes().size(); }
    BlockArgument getIterVar(unsigned i) { return getBody()->getArgument(i); }
    IterType getIterType(unsigned i);
    /// Domain of iteration variable `i` as [lower, upper).
    OpFoldResult getMixedDomainLower(unsigned i);
    OpFoldResult getMixedDomainUpper(unsigned i);
    std::optional<int64_t> getConstantDomainLower(unsigned i);
    std::optional<int64_t> getConstantDomainUpper(unsigned i);
    /// The one value iteration variable `i` takes when its domain is a
    /// constant [v, v + 1); nullopt otherwise.
    std::optional<int64_t> getSingleDomainValue(unsigned i);
    /// The bindings in input space: dimension k is binding_values[k].
    SmallVector<AffineExpr> getBindingExprs();
    /// The iteration variables (ascending) whose bindings depend on
    /// `input`, a value such as a loop variable.
    SmallVector<unsigned> getIterVarsFedBy(Value input);
    /// The predicate's disjuncts (storage form over binding_values); empty
    /// when the block has no predicate.
    SmallVector<IntegerSet> getPredicateSets();
    /// What region maps range over: the iteration variables, then
    /// region_values.
    SmallVector<Value> getRegionInputs();
    /// Whether the block has a `reduce` iteration variable.
    bool hasReduction();
    /// The block's `tir.init`, if any.
    InitOp getInitOp();
    /// Whether read / write regions were given (or inferred).
    bool hasAccessRegions() { return getReadRegions() && getWriteRegions(); }
    /// Leaves the regions out (buffers, maps and region values), as a block
    /// may; --tir-infer-access-regions gives them again.
    void dropAccessRegions();

  private:
    // The verifier's rule groups (TIRBlockOp.cpp), run in this order.
    LogicalResult verifyAttributeShapes();
    LogicalResult verifyBindings();
    LogicalResult verifyBodyUses();
    LogicalResult verifyAccessRegions();
  public:
  }];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.init
//===----------------------------------------------------------------------===//

def TIR_InitOp : TIR_Op<"init", [SingleBlock, NoTerminator,
    HasParent<"BlockOp">, RecursiveMemoryEffects]> {
  let summary = "the initialisation of a reduction block (TVM's T.init)";
  let description = [{
    The body runs before the first iteration of the enclosing block's
    reduction, i.e. where every `reduce` iteration variable is at the start
    of its domain. A block has at most one, before its other statements
    (after its buffer allocations and matches). In a block without `reduce`
    iteration variables it runs at every iteration, before the body (as
    TVM's LowerInitBlock).

    ```mlir
    tir.init {
      %zero = arith.constant 0.0 : f32
      tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "attr-dict-with-keyword $region";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.load / tir.store
//===----------------------------------------------------------------------===//

def TIR_LoadOp : TIR_Op<"load"> {
  let summary = "read one element of a buffer (TVM's BufferLoad)";
  let description = [{
    Indices are affine expressions of `index` values, written in place:
    `tir.load %A[%vi + 10, %vj]`. The map's operands may be any `index`
    value (a block iteration variable, a loaded and cast value for a
    gather, ...). The number of indices equals the buffer's rank; where the
    range of an index is known from the iteration domains it must lie inside
    the buffer's static shape.

    ```mlir
    %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "the buffer to read", [MemRead]>:$buffer,
    Variadic<Index>:$indices,
    AffineMapAttr:$map
  );
  let results = (outs AnyType:$result);
  let builders = [
    OpBuilder<(ins "Value":$buffer, "ValueRange":$indices)>,
    OpBuilder<(ins "Value":$buffer, "AffineMap":$map, "ValueRange":$operands)>
  ];
  let extraClassDeclaration = [{
    MemRefType getBufferType() { return getBuffer().getType(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TIR_StoreOp : TIR_Op<"store"> {
  let summary = "write one element of a buffer (TVM's BufferStore)";
  let description = [{
    ```mlir
    tir.store %v, %C[%vi, %vj] : memref<128x128xf32>
    ```
    The stored value has the buffer's element type; indices follow the rules
    of `tir.load`. Inside a block that lists its `writes`, the buffer must be
    one of them and the index must lie inside the written region.
  }];
  let arguments = (ins
    AnyType:$value,
    Arg<AnyMemRef, "the buffer to write", [MemWrite]>:$buffer,
    Variadic<Index>:$indices,
    AffineMapAttr:$map
  );
  let builders = [
    OpBuilder<(ins "Value":$value, "Value":$buffer, "ValueRange":$indices)>,
    OpBuilder<(ins "Value":$value, "Value":$buffer, "AffineMap":$map,
                   "ValueRange":$operands)>
  ];
  let extraClassDeclaration = [{
    MemRefType getBufferType() { return getBuffer().getType(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.alloc_buffer
//===----------------------------------------------------------------------===//

def TIR_AllocBufferOp : TIR_Op<"alloc_buffer", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a buffer local to a block (TVM's T.alloc_buffer)";
  let description = [{
    Allocates a buffer that lives for one execution of the enclosing block
    (or of the function body, TVM's implicit root block). Dynamic sizes are
    given for the `?` dimensions. The memory space, if any, is the storage
    scope: one of `global`, `shared`, `shared.dyn`, `local`, `warp`,
    `wmma.matrix_a`, `wmma.matrix_b`, `wmma.accumulator`.

    ```mlir
    %C = tir.alloc_buffer : memref<128x128xf32>
    %S = tir.alloc_buffer(%n) : memref<?x64xf16, "shared">
    %G = tir.alloc_buffer {axis_separators = array<i64: 2>} : memref<2x128x32xf32>
    ```

    The buffer's name (TVMScript's `C = T.alloc_buffer(...)`) is kept in
    `buffer_name`, taken from the SSA name when the op is parsed and used as
    the SSA name when it is printed.
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes,
                       OptionalAttr<StrAttr>:$buffer_name,
                       OptionalAttr<DenseI64ArrayAttr>:$axis_separators);
  let results = (outs Res<AnyMemRef, "", [MemAlloc]>:$buffer);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.match_buffer
//===----------------------------------------------------------------------===//

def TIR_MatchBufferOp : TIR_Op<"match_buffer", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "view a region of a buffer as a buffer (TVM's match_buffer)";
  let description = [{
    Inside a block, names a region of a buffer as a buffer of its own, as
    tensorized code needs. The region is written like a block's read region;
    the result type's shape equals the region's extents (unit dimensions may
    be dropped), with the source's element type and memory space.

    ```mlir
    %sub = tir.match_buffer %A[%vi * 16 : %vi * 16 + 16, 0 : 16]
        : memref<128x128xf32> -> memref<16x16xf32, strided<[128, 1], offset: ?>>
    ```

    `axis_separators` (TVM's, on a view of a buffer that has them) places
    the view's dimensions in the physical axes of its source: positions in
    ascending order between 0 and the view's rank. set_axis_separator gives
    a view of the source's rank the source's separators, and a view of
    another rank as many, all 0 (its dimensions in the last physical axis),
    as TVM does.
  }];
  let arguments = (ins
    AnyMemRef:$source,
    Variadic<Index>:$indices,
    AffineMapAttr:$source_region,
    OptionalAttr<DenseI64ArrayAttr>:$axis_separators
  );
  let results = (outs AnyMemRef:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.allocate_const
//===----------------------------------------------------------------------===//

def TIR_AllocateConstOp : TIR_Op<"allocate_const", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a buffer holding constant data (TVM's T.allocate_const)";
  let description = [{
    A buffer whose elements are given by a dense attribute, as TVMScript's
    `T.allocate_const([1.0, 2.0], "float32", [2])` (with the buffer
    declared over it). The buffer has a static shape, the identity layout,
    and the attribute's shape and element type. It lives where
    `tir.alloc_buffer` lives: directly in a block or in the function body.

    ```mlir
    %c = tir.allocate_const : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    ```

    The buffer's name is kept in `buffer_name`, as for `tir.alloc_buffer`.
  }];
  let arguments = (ins ElementsAttr:$value,
                       OptionalAttr<StrAttr>:$buffer_name);
  let results = (outs Res<AnyStaticShapeMemRef, "", [MemAlloc, MemWrite]>:$buffer);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tir.call
//===----------------------------------------------------------------------===//

def TIR_CallOp : TIR_Op<"call"> {
  let summary = "an opaque call (TVM's T.evaluate(T.call_extern(...)) and builtins)";
  let description = [{
    Calls a function the IR does not look into: an external function
    (`T.call_extern`) or one of TVM's builtins (`T.tvm_fill_fragment`,
    `T.tvm_access_ptr`, ...), named by `callee`. Arguments are SSA values
    (buffers, as TVMScript's `A.data`, and scalars) or literal attributes
    (strings, numbers), in the order written; `args` records that order, a
    unit attribute standing for the next operand. The call has unknown
    effects on memory. It returns nothing (a statement) or one value
    (`"handle"` results are `!llvm.ptr`).

    ```mlir
    tir.call "call_impl"(%A) : (memref<64xi32>) -> ()
    %p = tir.call "tvm_access_ptr"(%A, %off, 128, 1) : (memref<128x128xf16>, index) -> !llvm.ptr
    tir.call "tvm_fill_fragment"(%C, 16, 16, 16, %i, 0.0 : f32) : (memref<16x16xf32, "wmma.accumulator">, index) -> ()
    ```
  }];
  let arguments = (ins StrAttr:$callee, Variadic<AnyType>:$operands,
                       ArrayAttr:$args);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

include "TensorIR/Dialect/TIR/IR/TIRGraphOps.td"

#endif // TENSORIR_DIALECT_TIR_IR_TIROPS_TD
