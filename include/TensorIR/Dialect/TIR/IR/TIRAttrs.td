//===- TIRAttrs.td - TensorIR attributes and enums ---------*- tablegen -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRATTRS_TD
#define TENSORIR_DIALECT_TIR_IR_TIRATTRS_TD

include "TensorIR/Dialect/TIR/IR/TIRDialect.td"
include "mlir/IR/EnumAttr.td"

def TIR_ForKind : I32EnumAttr<"ForKind", "how the iterations of a tir.for run", [
    I32EnumAttrCase<"Serial", 0, "serial">,
    I32EnumAttrCase<"Parallel", 1, "parallel">,
    I32EnumAttrCase<"Vectorized", 2, "vectorized">,
    I32EnumAttrCase<"Unrolled", 3, "unrolled">,
    I32EnumAttrCase<"ThreadBinding", 4, "thread_binding">
  ]> {
  let cppNamespace = "::mlir::tir";
  let genSpecializedAttr = 0;
}
def TIR_ForKindAttr : EnumAttr<TIR_Dialect, TIR_ForKind, "for_kind">;

def TIR_IterType : I32EnumAttr<"IterType",
    "the kind of a block iteration variable (TVM's IterVarType)", [
    I32EnumAttrCase<"Spatial", 0, "spatial">,
    I32EnumAttrCase<"Reduce", 1, "reduce">,
    I32EnumAttrCase<"Scan", 2, "scan">,
    I32EnumAttrCase<"Opaque", 3, "opaque">
  ]> {
  let cppNamespace = "::mlir::tir";
  let genSpecializedAttr = 0;
}
def TIR_IterTypeAttr : EnumAttr<TIR_Dialect, TIR_IterType, "iter_type">;

def TIR_SplitFactorKind : I32EnumAttr<"SplitFactorKind",
    "what a factor of transform.tir.split is", [
    I32EnumAttrCase<"Inferred", 0, "inferred">,
    I32EnumAttrCase<"Constant", 1, "constant">,
    I32EnumAttrCase<"Scalable", 2, "scalable">,
    I32EnumAttrCase<"Param", 3, "param">
  ]> {
  let cppNamespace = "::mlir::tir";
  let genSpecializedAttr = 0;
}

def TIR_SplitFactorAttr : AttrDef<TIR_Dialect, "SplitFactor"> {
  let mnemonic = "split_factor";
  let summary = "one factor of transform.tir.split";
  let description = [{
    A factor of a split, by kind: inferred from the extent and the other
    factors (TVM's `None`), a positive constant, a scalable expression (an
    affine map `()[s0] -> (expr)` whose symbol is `vector.vscale`: TVM's
    `T.vscale() * 4`), or the parameter operand `value` of the split (a
    `!transform.param<i64>`, such as a factor `sample_perfect_tile` drew).

    ```mlir
    #tir.split_factor<?>
    #tir.split_factor<4>
    #tir.split_factor<affine_map<()[s0] -> (s0 * 4)>>
    #tir.split_factor<param 0>
    ```
  }];
  let parameters = (ins "SplitFactorKind":$kind,
                        DefaultValuedParameter<"int64_t", "0">:$value,
                        DefaultValuedParameter<"AffineMap", "AffineMap()">:$expr);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static SplitFactorAttr getInferred(::mlir::MLIRContext *context);
    static SplitFactorAttr getConstant(::mlir::MLIRContext *context,
                                       int64_t value);
    static SplitFactorAttr getScalable(::mlir::AffineMap expr);
    static SplitFactorAttr getParam(::mlir::MLIRContext *context,
                                    int64_t index);
    /// Prints the factor as the split's list writes it: `?`, `4`, the
    /// affine map, or `param <index>`.
    void printFactor(::mlir::AsmPrinter &printer) const;
    /// Parses what printFactor prints, except a parameter (the split's
    /// list names its operand instead).
    static ::mlir::FailureOr<SplitFactorAttr>
    parseFactor(::mlir::AsmParser &parser);
  }];
}

def TIR_SplitFactorArrayAttr
    : TypedArrayAttrBase<TIR_SplitFactorAttr, "factors of a split or a partition">;

def TIR_IterTypeArrayAttr
    : TypedArrayAttrBase<TIR_IterTypeAttr, "array of iteration variable kinds">;

def TIR_AffineMapArrayAttr
    : TypedArrayAttrBase<AffineMapAttr, "array of buffer regions">;

def TIR_IntegerSetArrayAttr
    : TypedArrayAttrBase<IntegerSetAttr,
                         "disjunction of integer sets (a block predicate)">;

#endif // TENSORIR_DIALECT_TIR_IR_TIRATTRS_TD
