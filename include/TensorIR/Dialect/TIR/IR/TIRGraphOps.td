//===- TIRGraphOps.td - graph-level TensorIR operations ----*- tablegen -*-===//
//
// The ops a graph function (TVM's Relax `main`, a func.func on tensors) uses
// to call prim_funcs.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRGRAPHOPS_TD
#define TENSORIR_DIALECT_TIR_IR_TIRGRAPHOPS_TD

include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// tir.call_tir
//===----------------------------------------------------------------------===//

def TIR_CallTirOp : TIR_Op<"call_tir", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>]> {
  let summary = "calls a prim_func on tensors (Relax's R.call_tir)";
  let description = [{
    One step of a graph function: calls the prim_func `callee` in
    destination-passing style. The callee takes the inputs' buffers, then
    one buffer per result, which it fills; the op gives those buffers back
    as new tensors. The callee writes only its output buffers (the verifier
    checks the callee's body), so the call has no other effect: it is pure,
    as Relax's `call_tir` is. A call of a declaration (a packed function
    the runtime runs by name: Relax's `R.call_dps_packed`,
    `R.call_pure_packed`) may do anything: it reads and writes memory, is
    neither removed when unused nor moved.

    ```mlir
    %lv = tir.call_tir @te_matmul(%A, %B)
        : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    ```

    A result's dynamic dimensions (a symbolic batch size, say) take their
    sizes from `dims`, one index per `?` of the results in order:

    ```mlir
    %n = tensor.dim %x, %c0 : tensor<?x784xf32>
    %y = tir.call_tir @relu(%x) dims(%n) : (tensor<?x784xf32>) -> tensor<?x784xf32>
    ```

    With `inplace_indices` (Relax's `R.call_tir_inplace`), result k whose
    index is j >= 0 is input j written in place: the callee takes no buffer
    of its own for it (its parameters are the inputs, then the results
    whose index is -1) and may write input j, which has the result's type.

    ```mlir
    %y = tir.call_tir @add_into(%x, %b) {inplace_indices = array<i64: 0>}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```

    Bufferization allocates one buffer per result of those sizes and calls
    the callee on them (`--tir-bufferize-graph`); an in-place result is its
    input's buffer (copied first when the input is read after the call). An input is passed as it
    is when the callee's parameter takes its buffer, or through a cast to
    the parameter's layout.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyRankedTensor>:$inputs,
                       Variadic<Index>:$dims,
                       OptionalAttr<DenseI64ArrayAttr>:$inplace_indices);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let builders = [
    // A call giving each result a buffer of its own.
    OpBuilder<(ins "TypeRange":$outputs, "StringRef":$callee,
                   "ValueRange":$inputs, "ValueRange":$dims), [{
      build($_builder, $_state, outputs,
            FlatSymbolRefAttr::get($_builder.getContext(), callee), inputs,
            dims, DenseI64ArrayAttr());
    }]>
  ];
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`dims` `(` $dims^ `)`)? attr-dict `:`
    functional-type($inputs, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The sizes of result `index`'s dynamic dimensions, in order.
    ValueRange getResultDims(unsigned index);
    /// The input result `index` is written into (inplace_indices), or
    /// nullopt for a result of its own buffer.
    std::optional<unsigned> getInplaceInput(unsigned index);
    /// The results the callee takes a buffer of their own for, in order.
    SmallVector<unsigned> getOwnOutputs();
  }];
}

//===----------------------------------------------------------------------===//
// tir.null_value
//===----------------------------------------------------------------------===//

def TIR_NullValueOp : TIR_Op<"null_value", [Pure]> {
  let summary = "an object holding nothing (Relax's R.null_value())";
  let description = [{
    An opaque value (`!tir.object`) that holds nothing: what a
    `relax.frontend.nn` module's `_initialize_effect` function gives as the
    effect handle (`_io`) its other functions take and hand back.

    ```mlir
    %io = tir.null_value : !tir.object
    ```
  }];
  let results = (outs TIR_ObjectType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// tir.composite, tir.yield
//===----------------------------------------------------------------------===//

def TIR_CompositeOp : TIR_Op<"composite", [RecursiveMemoryEffects,
    RecursivelySpeculatable, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a high-level operator kept whole, its parts in its region";
  let description = [{
    One step of a graph function: the Relax operator `name` (without
    "relax."; `nn.attention`, say) with its attributes `op_attrs`, applied
    to `inputs`. Its region computes it from ops the graph already has
    (linalg ops, reshapes, constants), the block's arguments standing for
    the inputs; `tir.yield` gives the results. The graph keeps the operator
    as one step (printed as `R.nn.attention(...)`, matched by a rewrite as
    one op) until `--tir-simplify-layouts` or `--tir-legalize-ops` puts its
    parts in its place (the latter legalizes them).

    ```mlir
    %o = tir.composite "nn.attention"(%q, %k, %v) {op_attrs = {scale = 0.125 : f64}}
        : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>)
        -> tensor<1x8x2x16xf32> {
    ^bb0(%a: tensor<1x8x2x16xf32>, %b: tensor<1x8x2x16xf32>, %c: tensor<1x8x2x16xf32>):
      ...
      tir.yield %r : tensor<1x8x2x16xf32>
    }
    ```

    The region may use values defined above it (the sizes of dynamic
    dimensions); it has no effect of its own beyond its parts'.
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyRankedTensor>:$inputs,
                       OptionalAttr<DictionaryAttr>:$op_attrs);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // The op and its block, whose arguments take the inputs' types; the
    // caller fills the block and ends it with tir.yield.
    OpBuilder<(ins "TypeRange":$outputs, "StringRef":$name,
                   "ValueRange":$inputs, "DictionaryAttr":$opAttrs)>
  ];
  let extraClassDeclaration = [{
    /// The yield ending the body.
    YieldOp getYield();
    /// Replaces the op by its parts, put in its place (the block's
    /// arguments by the inputs, the results by the values yielded).
    void replaceByParts(RewriterBase &rewriter);
  }];
}

def TIR_YieldOp : TIR_Op<"yield", [Pure, Terminator,
    HasParent<"CompositeOp">, ReturnLike]> {
  let summary = "the results of a tir.composite";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing yielded */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TENSORIR_DIALECT_TIR_IR_TIRGRAPHOPS_TD
