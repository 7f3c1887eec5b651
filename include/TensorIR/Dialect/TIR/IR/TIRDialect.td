//===- TIRDialect.td - TensorIR dialect definition ---------*- tablegen -*-===//
//
// The `tir` dialect: Apache TVM's TensorIR (loops, blocks, buffer accesses)
// as an MLIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRDIALECT_TD
#define TENSORIR_DIALECT_TIR_IR_TIRDIALECT_TD

include "mlir/IR/OpBase.td"

def TIR_Dialect : Dialect {
  let name = "tir";
  let cppNamespace = "::mlir::tir";
  let summary = "TensorIR: loops, blocks and buffer accesses for tensor programs";
  let description = [{
    The `tir` dialect holds Apache TVM's TensorIR. A tensor program is a
    `func.func` over buffers (memrefs) whose body nests `tir.for` loops around
    `tir.block`s. A block is the unit of computation and of scheduling: it
    names its iteration variables (each with a kind and a domain), binds them
    to the surrounding loop variables with quasi-affine expressions, lists the
    buffer regions it reads and writes, and may carry a reduction `tir.init`.

    Buffers are memrefs. The memref memory space, when present, is a string
    that carries TVM's storage scope: a rank (`"global"`, `"shared"`,
    `"local"`, `"warp"`), optionally followed by a tag (`"shared.dyn"`,
    `"global.vtcm"`, `"warpgroup"`: a warp buffer over a warpgroup's 128
    threads), or a tensor-core fragment (`"wmma.matrix_a"`, ...).
    The CPU lowering treats every scope as plain memory; the GPU lowering
    places `"shared"`, `"shared.dyn"` and `"local"`, divides `"warp"`,
    `"warpgroup"` and the fragments among their threads, and refuses other
    tags.

    Values used to index buffers are written as affine expressions of SSA
    values (`tir.load %A[%vi + 10]`), as TVMScript writes them.

    MLIR does not keep the names of function arguments, so a parameter can
    carry its TVMScript name in a `tir.name` argument attribute
    (`%arg0: memref<8xf32> {tir.name = "A"}`); the runtime names arguments
    by it in signatures and error messages.

    A buffer parameter's dynamic dimensions can carry the variable that
    sizes them in a `tir.dim_vars` argument attribute, one string per
    dimension ("" where none): the `tir.name` of an integer or index scalar
    parameter, a shape variable that several buffers share
    (`%A: memref<?xf32> {tir.dim_vars = ["n"]}`), or an affine form of such
    variables (`"32 * n"`, `"n + m - 1"`: TVMScript's `n * 32`). The runtime
    checks before a call that every dimension with the same name has the
    same size, equal to the scalar of that name when there is one, and that
    a dimension named by a form holds that many elements.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the dialect's attributes (TIRAttrs.cpp).
    void registerAttributes();
    void registerTypes();

    // The dialect's discardable attributes, named here once.

    /// The argument attribute naming a function parameter.
    static constexpr ::llvm::StringLiteral kNameAttrName = "tir.name";
    /// The argument attribute of a parameter's axis separators (TVM's
    /// Buffer.axis_separators), verified with the region arguments.
    static constexpr ::llvm::StringLiteral kAxisSeparatorsAttrName =
        "tir.axis_separators";
    /// A prim_func's operator pattern (TVM's OpPatternKind number, relax's
    /// AnnotateTIROpPattern): how fusible its computation is
    /// (TensorIR/Dialect/TIR/Analysis/OpPattern.h).
    static constexpr ::llvm::StringLiteral kOpPatternAttrName =
        "tir.op_pattern";
    /// The argument attribute naming, per dimension of a buffer parameter,
    /// the variable that sizes it (a scalar parameter's tir.name or a shape
    /// variable; "" for none), verified with the region arguments.
    static constexpr ::llvm::StringLiteral kDimVarsAttrName = "tir.dim_vars";
    /// TVM's dtype of a buffer whose elements are unsigned ("uint8", ...):
    /// memrefs hold signless integers, so a parameter (argument attribute)
    /// or tir.alloc_buffer (attribute) records it, for the printer and the
    /// runtime's signature.
    static constexpr ::llvm::StringLiteral kDtypeAttrName = "tir.dtype";
    /// The argument attribute of a buffer parameter whose layout a schedule
    /// changed (transform_layout): the type the user declared, the index
    /// map from the declared indices to the current ones, and the pad
    /// value, if any. `--tir-restore-declared-layouts` gives the function
    /// its declared signature back for building.
    static constexpr ::llvm::StringLiteral kDeclaredLayoutAttrName =
        "tir.declared_layout";
    /// A tir.for's kind, carried by the scf loop it lowers to until the
    /// passes that act on it (vectorize, unroll) remove it.
    static constexpr ::llvm::StringLiteral kLoopKindAttrName = "tir.loop_kind";
    /// A tir.for's annotations, carried by the scf loop it lowers to.
    static constexpr ::llvm::StringLiteral kAnnotationsAttrName =
        "tir.annotations";
    /// The loop annotation that --tir-partition-loops puts on the parts of
    /// a parallel loop it cuts (one number per loop), for
    /// --tir-merge-parallel-parts to make them one loop again.
    static constexpr ::llvm::StringLiteral kPartitionGroupKey =
        "partition_group";
    /// The positions of a function's noalias pointer parameters, from the
    /// buffers the outlining of parallel loops proved distinct.
    static constexpr ::llvm::StringLiteral kNoAliasParamsAttrName =
        "tir.noalias_params";
    /// The (unit) argument attribute of a graph function's output buffer:
    /// one per tensor the function returned before `--tir-bufferize-graph`
    /// made its results out-parameters. The runtime allocates these and
    /// gives them back as the call's results.
    static constexpr ::llvm::StringLiteral kResultAttrName = "tir.result";
    /// The (unit) attribute `--tir-bufferize-graph` gives each graph
    /// function (whose signature no longer tells it from a prim_func's):
    /// what a GPU build places in GPU memory (`--tir-graph-buffers-to-device`).
    static constexpr ::llvm::StringLiteral kGraphAttrName = "tir.graph";
    /// The (unit) attribute of a graph function whose results form a tuple
    /// (Relax's R.Tuple), even of one tensor: printed as one, and the
    /// runtime gives a call's results back as a tuple.
    static constexpr ::llvm::StringLiteral kTupleResultAttrName =
        "tir.tuple_result";
    /// The nesting of a graph function's results when its tuple holds
    /// tuples (Relax's R.Tuple(R.Tensor, R.Tuple(R.Object))): an array per
    /// tuple, of the results' indices and inner arrays, in order. After
    /// --tir-bufferize-graph an index -1 - j is parameter j (a result that
    /// is the function's argument, which has no out-parameter); the
    /// attribute is then set for a function of one result too.
    static constexpr ::llvm::StringLiteral kResultNestingAttrName =
        "tir.result_nesting";
    /// The kinds of a graph function's results, one per result, when one
    /// is no tensor: "tensor", "shape" (Relax's R.Shape, a tensor<N x i64>
    /// of its dimensions) or "prim" (R.Prim, a tensor<i64>). The runtime
    /// gives those back as a shape and an integer.
    static constexpr ::llvm::StringLiteral kResultKindsAttrName =
        "tir.result_kinds";
    /// What a graph function's arguments' checks come from, where the
    /// source says more than the argument's name (Relax's R.match_cast of
    /// a parameter of no shape): a dictionary from the argument's index to
    /// the text the runtime's callers add to an error on that argument.
    static constexpr ::llvm::StringLiteral kParamNotesAttrName =
        "tir.param_notes";
    /// A graph function returning what a packed function returned, of no
    /// shape known when compiled (Relax's R.call_pure_packed with
    /// sinfo_args=R.Tensor(ndim=2)): {key = "f@main.0", sinfo = "..."},
    /// the call site (the name of the call's own declaration, which the
    /// runtime keeps the value under) and the struct info it prints with.
    /// The function itself has no result for it.
    static constexpr ::llvm::StringLiteral kPackedResultAttrName =
        "tir.packed_result";
    /// The (unit) attribute of the tensor.from_elements that makes a shape
    /// or an integer of shape variables (Relax's R.shape, R.prim_value).
    static constexpr ::llvm::StringLiteral kShapeValueAttrName =
        "tir.shape_value";
    /// The parameters of a graph function some of which are tuples
    /// (Relax's x: R.Tuple(R.Tensor, R.Tensor)), whose tensors the function
    /// takes one by one: an array with an entry per parameter as written,
    /// the index of the argument it is, or for a tuple a dictionary
    /// {name = "x", fields = [...]} of the arguments' indices and inner
    /// arrays, in order; or for a shape (Relax's R.Shape(["m", "n"]),
    /// whose dimensions the function takes as scalars, one by one)
    /// {name = "s", shape = [...]} of the scalars' indices.
    static constexpr ::llvm::StringLiteral kParamNestingAttrName =
        "tir.param_nesting";
    /// The attributes a graph operator built as a linalg.generic was
    /// built with, which the TVMScript printer rebuilds it from.
    static constexpr ::llvm::StringLiteral kOperatorAttrsAttrName =
        "tir.attrs";
    /// The attribute of a declaration that names a packed function (one
    /// the module does not define, which tir.call_tir calls: Relax's
    /// R.call_dps_packed, R.call_pure_packed): the number of its
    /// parameters that are inputs (the others are its outputs). Compiled
    /// code calls it through the runtime (`--tir-lower-packed-calls`).
    static constexpr ::llvm::StringLiteral kPackedAttrName = "tir.packed";
    /// The (unit) attribute of a packed function's declaration when the
    /// function returns its result (R.call_pure_packed) instead of filling
    /// an output buffer; the runtime copies the result into the output.
    static constexpr ::llvm::StringLiteral kPackedReturnsAttrName =
        "tir.packed_returns";
    /// A graph function's attributes (Relax's R.func_attr, as
    /// {"num_input": 1}): a dictionary the printer prints back.
    static constexpr ::llvm::StringLiteral kFuncAttrsAttrName =
        "tir.func_attrs";
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

// Every tir op: the divisors (floordiv, ceildiv, mod) in its affine maps and
// integer sets are positive, however the op was built or parsed (the custom
// parsers check them too, but the generic form and C++ builders do not go
// through them, and the lowering relies on it).
def TIR_PositiveDivisors : NativeOpTrait<"PositiveDivisors"> {
  let cppNamespace = "::mlir::tir";
}

class TIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<TIR_Dialect, mnemonic, !listconcat(traits, [TIR_PositiveDivisors])>;

#endif // TENSORIR_DIALECT_TIR_IR_TIRDIALECT_TD
