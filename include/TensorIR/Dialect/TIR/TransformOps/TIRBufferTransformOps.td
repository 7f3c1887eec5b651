//===- TIRBufferTransformOps.td - buffer primitives --------*- tablegen -*-===//
//
// The schedule primitives that change buffers rather than loops: their
// layout (storage_align), storage scope (set_scope), and the stages that
// copy them (cache_read, cache_write, reindex). Included by
// TIRTransformOps.td, whose TIR_ScheduleOp they build on.
// The ops' C++ (applyToPayload, ...) is in
// lib/Dialect/TIR/TransformOps/BufferTransformOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBUFFERTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBUFFERTRANSFORMOPS_TD

def TIR_StorageAlignOp : TIR_ScheduleOp<"storage_align"> {
  let summary = "pad a dimension of a buffer's layout (TVM's storage_align)";
  let description = [{
    Records that dimension `axis` (negative: counted from the end) of the
    block's `buffer_index`-th write buffer is to be laid out with a stride
    s such that `s mod factor == offset` (to avoid bank conflicts, for
    instance), as TVM does: an entry `[buffer_index, axis, factor, offset]`
    of the block's `buffer_dim_align` annotation, replacing an earlier entry
    for the same dimension. convert-tir-to-scf allocates the buffer with
    those strides (a flat allocation seen through a
    `memref.reinterpret_cast` to the strided layout), computed as TVM's
    CompactBufferAllocation does, on the compacted shape where the buffer
    is compacted.

    ```mlir
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 128, offset = 127} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a buffer index past the
    block's writes, an axis out of range, a factor below 1, a buffer the
    function does not allocate (a parameter or a matched buffer), and a
    `buffer_dim_align` annotation that is not a list of four-integer lists.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       I64Attr:$axis, I64Attr:$factor, I64Attr:$offset);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def TIR_SetScopeOp : TIR_ScheduleOp<"set_scope"> {
  let summary = "move a buffer to another storage scope (TVM's set_scope)";
  let description = [{
    The block's `buffer_index`-th write buffer, which the function
    allocates, moves to storage scope `storage_scope` (`global`, `shared`,
    `shared.dyn`, `local`, `warp`, `wmma.*`, ...): its type becomes
    `memref<..., "shared">` (`global`: no memory space), and the buffers
    matched on a region of it (`tir.match_buffer`) follow. Setting the scope
    the buffer has is no change. On the CPU every scope lowers to ordinary
    memory.

    ```mlir
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "shared"} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a buffer index past the
    block's writes, a string that is not a storage scope, and a buffer the
    function does not allocate (a parameter: its storage is the caller's).
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       StrAttr:$storage_scope);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def TIR_AnnotateBufferAccessOp : TIR_ScheduleOp<"annotate_buffer_access"> {
  let summary = "declare the region a block accesses of a buffer (TVM's annotate_buffer_access)";
  let description = [{
    The region of the block's `buffer_index`-th `buf_type` ("read" or
    "write") buffer becomes the one `gen_new_ranges` gives: a map of the
    block's iteration variables to `(begin_0, end_0, begin_1, end_1, ...)`,
    one half-open range per dimension of the buffer. The block lists its
    regions from then on (inferred where it did not), and its annotation
    `explicit_read_region` / `explicit_write_region` lists the indices of
    the buffers whose regions were given (TVM's), once each. compute_at and
    the other primitives that relax regions use the given region, where
    inference would give another (a gather with computed indices, a window
    the index arithmetic cannot bound).

    ```mlir
    transform.tir.annotate_buffer_access %b {buffer_index = 0, buf_type = "read", gen_new_ranges = affine_map<(d0, d1) -> (d0 - 1, d0 + 1, d1 - 1, d1 + 1)>} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a buffer index past
    the block's reads or writes, ranges over another number of variables or
    for another number of dimensions, an empty range, a write region that
    does not hold what the block stores, and a block whose regions cannot be
    listed.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       StrAttr:$buf_type, AffineMapAttr:$gen_new_ranges);
  let assemblyFormat = "$block attr-dict `:` type($block)";
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

class TIR_ReadWriteAtOpBase<string mnemonic, string summaryText,
                            string descriptionText, string indexName>
    : TIR_ScheduleOp<mnemonic> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = !con((ins TransformHandleTypeInterface:$loop,
                            TransformHandleTypeInterface:$block),
                       !dag(ins, [I64Attr], [indexName]),
                       (ins StrAttr:$storage_scope));
  let results = (outs TransformHandleTypeInterface:$copy);
  let assemblyFormat = [{
    $block `at` $loop attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_ReadAtOp : TIR_ReadWriteAtOpBase<"read_at",
    "read a buffer through a copy made in a loop (TVM's read_at)", [{
    The statements of `loop`'s body from the first that reads the block's
    `read_buffer_index`-th read buffer on read a copy of it in storage scope
    `storage_scope`: a buffer of its shape named `<buffer>_<scope>`,
    allocated in the scope, filled just before them by a block of that name
    (annotated `auto_copy`) over the region they read, relaxed over the
    loops below `loop` and over the thread-bound loops from `loop` out whose
    threads share the scope's memory. The copy block's iteration variables
    are the loops the region depends on (`loop` and those around it); loops
    `ax0`, ... over the region's extents are inside it. Returns the copy
    block.

    ```mlir
    %s = transform.tir.read_at %b at %k0 {read_buffer_index = 1, storage_scope = "shared"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): an index past the
    block's reads, a string that is not a storage scope, a block not under
    the loop, a scope that is not a stage pipeline, a statement of the loop
    that writes the buffer where or after it is read, and a region that
    depends on values other than loops from `loop` out to the scope.
  }], "read_buffer_index">;

def TIR_WriteAtOp : TIR_ReadWriteAtOpBase<"write_at",
    "write a buffer through a copy written back in a loop (TVM's write_at)", [{
    The statements of `loop`'s body up to the last that writes the block's
    `write_buffer_index`-th write buffer write a copy of it in storage scope
    `storage_scope` (named `<buffer>_<scope>`, the buffer's shape), and a
    block of that name (annotated `auto_copy`) after them writes the region
    they write back, relaxed as read_at relaxes. Returns the copy block.

    ```mlir
    %s = transform.tir.write_at %b at %tx {write_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused as read_at is, and where a statement reads the buffer after the
    last that writes it.
  }], "write_buffer_index">;

def TIR_UnsafeSetDTypeOp : TIR_ScheduleOp<"unsafe_set_dtype"> {
  let summary = "change a buffer's element type (TVM's unsafe_set_dtype)";
  let description = [{
    The block's `buffer_index`-th write buffer, which the function
    allocates, gets element type `dtype` (TVM's name: `float16`, `int8`,
    `uint8`, ...), and the buffers matched on a region of it
    (`tir.match_buffer`) follow. Every store converts its value to the new
    type, every load converts what it reads back to the old one (TVM's
    casts), so the program computes as before but for the precision the
    buffer keeps: "unsafe" because a narrower type rounds or wraps. Setting
    the dtype the buffer has is no change.

    ```mlir
    transform.tir.unsafe_set_dtype %b {buffer_index = 0, dtype = "float16"} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a buffer index past the
    block's writes, a name that is no scalar dtype, a buffer the function
    does not allocate (a parameter or a matched buffer: its type is the
    caller's or the matched buffer's), and a buffer some op uses other than
    by element loads and stores (an intrinsic given the buffer itself).
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       StrAttr:$dtype);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

// The cache primitives: a block, the consumer blocks (TVM's
// consumer_blocks, possibly none), the buffer's position (attribute
// `indexName`) and the scope.
class TIR_CacheOpBase<string mnemonic, string summaryText,
                      string descriptionText, string indexName>
    : TIR_ScheduleOp<mnemonic> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = !con((ins TransformHandleTypeInterface:$block,
                            Variadic<TransformHandleTypeInterface>:$consumer_blocks),
                       !dag(ins, [I64Attr], [indexName]),
                       (ins StrAttr:$storage_scope));
  let results = (outs TransformHandleTypeInterface:$stage);
  let assemblyFormat = [{
    $block (`consumers` $consumer_blocks^)? attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_CacheReadOp : TIR_CacheOpBase<"cache_read",
    "copy a buffer a block reads into a cache of another scope (TVM's cache_read)", [{
    The block's `read_buffer_index`-th read buffer gets a cache in storage
    scope `storage_scope`, named `<buffer>_<scope>`, and a copy stage of the
    same name: loops `ax0`, `ax1`, ... around a block with spatial
    variables `v0`, `v1`, ... The consumers read the cache: all blocks of
    the scope that read the buffer (not its writer), or those given after
    `consumers` and the blocks directly under them.

    Where the copy goes (TVM's rules): for a buffer no block of the scope
    writes, at the start of the scope, covering the whole buffer (or the
    region the scope block lists for it); otherwise just before the first
    consumer of the writer (the first given consumer, when given), in the
    innermost statement list that holds both, covering what the writer
    writes there (relaxed over the loops between); at the start of the
    scope when that consumer comes before the writer, at its end when there
    is none. A copy directly in the scope gets a compact cache (the
    region's extents, accesses shifted by its start); one inside a loop
    keeps the buffer's shape.

    ```mlir
    %c = transform.tir.cache_read %b {read_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.cache_read %b consumers %d {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a string that is not a
    storage scope, an index past the block's reads, a buffer written by
    more than one block of the scope, a region that cannot be bounded, and
    (not yet supported) buffers with runtime dimensions where the cache
    keeps their shape or no block writes them, compact regions of runtime
    extent or starting at a loop variable outside the scope.
  }], "read_buffer_index">;

def TIR_CacheWriteOp : TIR_CacheOpBase<"cache_write",
    "let a block write a cache of another scope, copied back (TVM's cache_write)", [{
    The block's `write_buffer_index`-th write buffer is replaced, in the
    block and the blocks inside it, by a cache in storage scope
    `storage_scope` named `<buffer>_<scope>`; a copy stage of the same name
    writes it back just before the first consumer of the buffer that is not
    given after `consumers` (those read the cache), in the innermost
    statement list holding both, or at the end of the scope when there is
    none. The region copied is what the block writes there; compact or
    full as for `cache_read`.

    ```mlir
    %c = transform.tir.cache_write %b {write_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a string that is not a
    storage scope, an index past the block's writes, another block of the
    scope writing the buffer, a region that cannot be bounded, and the
    shapes `cache_read` does not support yet.
  }], "write_buffer_index">;


def TIR_CacheInplaceOp : TIR_ScheduleOp<"cache_inplace"> {
  let summary = "work on a cache of a buffer a block updates in place "
                "(TVM's cache_inplace)";
  let description = [{
    The block reads and writes its `read_buffer_index`-th read buffer (an
    in-place update, an external call on its data, say). It works on a
    cache `<buffer>_<scope>` in `storage_scope` instead: a copy block of
    that name right before it in the statement list that holds it fills
    the cache from the buffer, another right after it copies the cache
    back (over the region the block accesses there; inside a loop the
    cache keeps the buffer's shape, as cache_read's). Returns both copies.

    ```mlir
    %in, %out = transform.tir.cache_inplace %b {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Refused (silenceably, leaving the IR unchanged): an unknown storage
    scope, an index past the block's reads, a block that does not also
    write the buffer, reads and writes of different regions, writes that
    leave holes in the copied box.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       I64Attr:$read_buffer_index, StrAttr:$storage_scope);
  let results = (outs TransformHandleTypeInterface:$copy_in,
                      TransformHandleTypeInterface:$copy_out);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
}

def TIR_CacheIndexOp : TIR_ScheduleOp<"cache_index"> {
  let summary = "precompute a block's index arithmetic into buffers "
                "(TVM's cache_index)";
  let description = [{
    The pure computations of the block's iteration variables in what it
    stores (index arithmetic such as `vi floordiv 4 + vj floordiv 4`, the
    coordinates and weights of an interpolation) each get a buffer
    `index_var_k` in `storage_scope`, indexed by the variables they use
    (over their domains) and filled by a stage `index_k` (loops `ax0..`,
    spatial variables `v0..`) just before the block's loop nest; the block
    loads them instead and lists them among its reads. A computation is
    cached when it has at least two nodes, uses a variable of the block
    and loads nothing. With `cse_thresh` 0 or 1, every largest such
    computation is; with more, a computation occurring fewer times gives
    its occurrences to the largest computations inside it (from the most
    complex down), and those occurring `cse_thresh` times or more are.
    Buffers are numbered most complex first, then by first occurrence. The
    stages are returned in that order; a block with nothing to cache is
    left as it is (none returned). Names taken in the function get a
    suffix (`index_0_1`).

    ```mlir
    %i0, %i1 = transform.tir.cache_index %b {storage_scope = "global", cse_thresh = 0} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Refused (silenceably, leaving the IR unchanged): a string that is not a
    storage scope, a negative `cse_thresh`, an empty loop nest, a variable
    of non-constant domain in a computation to cache, and, with more than
    one result, a number of results other than the number of computations.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       StrAttr:$storage_scope,
                       DefaultValuedAttr<I64Attr, "0">:$cse_thresh);
  let results = (outs Variadic<TransformHandleTypeInterface>:$stages);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
}

def TIR_ReIndexOp : TIR_ScheduleOp<"reindex"> {
  let summary = "copy a buffer into one indexed by the block's variables (TVM's reindex)";
  let description = [{
    The block's `buffer_index`-th read (`buffer_index_type = "read"`) or
    write (`"write"`) buffer, which the block accesses at one index list,
    gets a copy `<buffer>_reindex` whose dimensions are the block's
    iteration variables that the indices use, in block order: the block
    accesses the copy at those variables (`A[vj, vi]` becomes
    `A_reindex[vi, vj]`), and a stage named `<buffer>_reindex` copies the
    buffer in just before the block's loop nest (read) or out just after it
    (write), in loops `ax0`, ... over the variables' domains with spatial
    variables `v0`, ... Indices are first simplified with the domains
    (`co floordiv 64 * 3 + rc` is `rc` for `co` in [0, 64)). The stage is
    returned.

    ```mlir
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): an index past the
    block's reads or writes, a block with blocks inside it, a buffer
    accessed at two index lists or other than by loads and stores, a gather
    index, a block that shares a loop with other statements, a scope that
    is not a stage pipeline, and, beyond TVM (whose result would be wrong):
    a read copy of a buffer the block also writes, a write copy of a buffer
    the block reads without a tir.init. Not yet supported: variables of
    runtime domain.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       StrAttr:$buffer_index_type);
  let results = (outs TransformHandleTypeInterface:$stage);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

def TIR_TransformBlockLayoutOp : TIR_ScheduleOp<"transform_block_layout"> {
  let summary = "remap a block's iteration space (TVM's transform_block_layout)";
  let description = [{
    The block's iteration space is remapped by `index_map`, an affine map
    over its variables (TVM's IndexMap): its loops are replaced by loops
    `ax0`, ... of the map's result extents, its variables by spatial or
    reduce variables `v0`, ... bound to them, and its body reads the old
    variables through the map's inverse (`lambda i, j: (i * 128 + j,)` makes
    `vi` read as `v0 floordiv 128`). The block op is kept, so handles to it
    stay valid.

    ```mlir
    transform.tir.transform_block_layout %b {index_map = affine_map<(d0, d1) -> (d0 * 128 + d1)>} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): a map that is not a
    bijection of the iteration space (it must be a mixed-radix sum of
    pieces `d`, `d floordiv c`, `d mod c` of the variables, as TVM's
    iterator maps), a new variable made of variables of different kinds, a
    block whose variables are not each bound to their own loop of a chain
    (TVM's trivial binding), a map of the wrong arity; and, not supported:
    a predicate, blocks inside the block, domains not constant from 0.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, AffineMapAttr:$index_map);
  let assemblyFormat = "$block attr-dict `:` type($block)";
  let hasVerifier = 1;
}

def TIR_TransformLayoutOp : TIR_ScheduleOp<"transform_layout"> {
  let summary = "change a buffer's layout by an index map (TVM's transform_layout)";
  let description = [{
    The block's `buffer_index`-th read (`buffer_index_type = "read"`) or
    write (`"write"`) buffer, an allocation or a function parameter, takes
    the layout `index_map` gives, an affine map over its indices (TVM's
    IndexMap): its shape becomes the extents of the map's results, and
    every access to it in the function goes through the map, simplified
    with the iteration domains. Blocks listing the buffer's region get the
    region of their new accesses. A parameter's type in the function's
    signature changes with it.

    ```mlir
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>} : !transform.any_op
    ```

    `pad_value` is what a map that pads (leaves points of the new shape
    without an old element) puts there: a constant of the buffer's element
    type, or an affine map from the new indices to one integer (TVM's pad
    value given as a function of the indices). As TVM plans it:
    - an unwritten buffer (an input): a nest `axis0`, ... over the new
      shape at the start of its scope, whose block
      `buffer_<name>_assumptions` calls `tir.call "assume"` on `not padding
      or the element is the pad value`;
    - a writer that visits the old indices in row-major order (loops from
      0 over each dimension, in order, serial, holding only stores of that
      element): its loops become loops over the new shape, its block gets
      variables over it, and it stores `if_then_else(padding, pad_value,
      value)` (an `scf.if`);
    - otherwise, after the last writer's loops, a nest whose block
      `buffer_<name>_padding` stores the pad value where the padding is.
    The padding is `outer == n floordiv c and n mod c <= inner` for an index
    split by `c` over `n` values, else where the inverse map reaches past
    the old extent.
    `assume_injective_transform` takes the map as injective without
    analysing it.

    A map may use sampled values (parameters, TVM's ExprRVs in an index
    map): the first symbols of the map are the `index_map_params` operands,
    each the integer its parameter holds when the step applies (`(d0)[s0]
    -> (d0 floordiv 16 floordiv s0, ...)`), so a replay with other
    decisions lays the buffer out by the new values.

    A map may use runtime values of the function as symbols, named by
    `index_map_symbols` (one name per symbol: a scalar parameter or a shape
    variable of the function, TVMScript's `n`): `(d0, d1)[s0] -> (d0 * s0 +
    d1)` with `index_map_symbols = ["n"]`. Such a map, and a buffer of
    runtime shape, need `assume_injective_transform` (their analysis is
    not supported yet); a parameter re-laid out this way keeps its new
    type in the function's signature, as in TVM (the declared layout is
    not restored for a build).

    Refused (silenceably, leaving the IR unchanged): an index past the
    block's buffers, a map of the wrong arity or that is not an injective
    mixed-radix map of the indices (TVM's iterator maps), a map that pads
    without a pad value, a pad value of another type, a matched buffer
    (tir.match_buffer), a symbol name the function does not define; not
    yet supported: padding where a result's terms leave gaps, runtime
    shapes or symbols without `assume_injective_transform`, an allocated
    buffer whose new shape is a runtime one, a buffer used other than by
    loads, stores and block regions.
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       Variadic<TransformParamTypeInterface>:$index_map_params,
                       I64Attr:$buffer_index,
                       StrAttr:$buffer_index_type, AffineMapAttr:$index_map,
                       OptionalAttr<AnyAttr>:$pad_value,
                       DefaultValuedAttr<BoolAttr, "false">:$assume_injective_transform,
                       OptionalAttr<StrArrayAttr>:$index_map_symbols);
  let assemblyFormat = [{
    $block (`params` `(` $index_map_params^ `:` type($index_map_params) `)`)?
    attr-dict `:` type($block)
  }];
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    // The lambda names the parameters: they are not listed on their own.
    static bool pythonFoldsVariadicOperand() { return true; }
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

def TIR_SetAxisSeparatorOp : TIR_ScheduleOp<"set_axis_separator"> {
  let summary = "group a buffer's dimensions for flattening (TVM's set_axis_separator)";
  let description = [{
    The block's `buffer_index`-th read or write buffer (an allocation or a
    function parameter) gets TVM's `axis_separators`: the dimensions
    before which its flattened form starts a new physical axis (an
    allocation's `axis_separators`, a parameter's `tir.axis_separators`).
    Its shape and accesses are unchanged.

    ```mlir
    transform.tir.set_axis_separator %b {buffer_index = 0, buffer_index_type = "write", axis_separators = array<i64: 1>} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): an index past the
    block's buffers, separators that are not ascending inside the rank, a
    matched buffer (tir.match_buffer).
  }];
  let arguments = (ins TransformHandleTypeInterface:$block, I64Attr:$buffer_index,
                       StrAttr:$buffer_index_type, DenseI64ArrayAttr:$axis_separators);
  let assemblyFormat = "$block attr-dict `:` type($block)";
  let hasVerifier = 1;
  let extraScheduleDeclaration = [{
    void printPythonArgument(::llvm::StringRef name, ::mlir::Attribute value,
                             ::llvm::ArrayRef<std::string> operands,
                             ::llvm::raw_ostream &os);
  }];
}

// The reindex caches: a block, the buffer's position (attribute
// `indexName`), the scope and the index map over the block's variables.
class TIR_ReindexCacheOpBase<string mnemonic, string summaryText,
                             string descriptionText, string indexName>
    : TIR_ScheduleOp<mnemonic> {
  let summary = summaryText;
  let description = descriptionText;
  let arguments = !con((ins TransformHandleTypeInterface:$block),
                       !dag(ins, [I64Attr], [indexName]),
                       (ins StrAttr:$storage_scope, AffineMapAttr:$index_map));
  let results = (outs TransformHandleTypeInterface:$stage);
  let assemblyFormat = "$block attr-dict `:` functional-type(operands, results)";
}

def TIR_ReindexCacheReadOp : TIR_ReindexCacheOpBase<"reindex_cache_read",
    "cache_read into a cache laid out by the block's variables (TVM's reindex_cache_read)", [{
    As `cache_read` (the cache `<buffer>_<scope>`, the copy's place, the
    block as the only consumer), for a buffer the block reads one element
    of per iteration: the cache holds the element the block reads at
    `index_map(block variables)` (an affine map over all of the block's
    variables, using the same ones as the buffer's indices), and the copy
    stage repeats the block's iteration over those variables (their
    bindings, and the loops between the copy and the block that feed
    them).

    ```mlir
    %s = transform.tir.reindex_cache_read %b {read_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d1, d0 floordiv 2, d0 mod 2)>} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): cache_read's refusals,
    a region that is not a single point, an index map that uses other
    variables than the buffer's indices or is not injective (a mixed-radix
    map of them), a scope that is not a stage pipeline.
  }], "read_buffer_index">;

def TIR_ReindexCacheWriteOp : TIR_ReindexCacheOpBase<"reindex_cache_write",
    "cache_write into a cache laid out by the block's variables (TVM's reindex_cache_write)", [{
    The write side of `reindex_cache_read`: the block writes the cache at
    `index_map(block variables)`, and a copy stage placed as
    `cache_write`'s writes it back, repeating the block's iteration over
    the variables the buffer's indices use.

    ```mlir
    %s = transform.tir.reindex_cache_write %b {write_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d1, d0)>} : (!transform.any_op) -> !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): as
    `reindex_cache_read`, plus another block writing the buffer, a block
    reading it without a tir.init, and a predicate skipping points of the
    iteration domain (the copy back would store what was never written).
  }], "write_buffer_index">;

def TIR_RollingBufferOp : TIR_ScheduleOp<"rolling_buffer"> {
  let summary = "keep one overlapping window of a buffer (TVM's rolling_buffer)";
  let description = [{
    The block's `write_buffer_index`-th write buffer, computed at a tile of
    its consumers (compute_at) in windows that overlap from one iteration
    of a loop to the next, becomes a ring of one window: the first
    dimension (in the order of the block's loops) whose window under the
    lowest loop enclosing the block and its consumers starts at
    `loop * stride` and is wider than the stride shrinks to the window's
    extent, and every access on it goes modulo that extent. The block gets
    the predicate `loop < 1 or offset >= overlap` per overlapping dimension
    (it skips what the previous window computed), and in the blocks that
    access the buffer the spatial iteration variables the rolling loop feeds
    become `opaque` (its iterations now depend on each other; a reduce
    variable stays one, as its kind places the block's init). Loops are unchanged.

    ```mlir
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    ```

    Refused (silenceably, leaving the IR unchanged): an index past the
    block's writes, a block that writes a buffer its scope does not
    allocate (an output block), a dependence other than read-after-write
    on the block, a block not under a loop it shares with its consumers,
    windows that do not start at `loop * stride` (`loop * s floordiv q`,
    `loop`, a constant) with constant extents, windows that do not
    overlap, and a buffer rolled already (written at an index modulo a
    size).
  }];
  let arguments = (ins TransformHandleTypeInterface:$block,
                       I64Attr:$write_buffer_index);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRBUFFERTRANSFORMOPS_TD
