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

def TIR_IterTypeArrayAttr
    : TypedArrayAttrBase<TIR_IterTypeAttr, "array of iteration variable kinds">;

def TIR_AffineMapArrayAttr
    : TypedArrayAttrBase<AffineMapAttr, "array of buffer regions">;

def TIR_IntegerSetArrayAttr
    : TypedArrayAttrBase<IntegerSetAttr,
                         "disjunction of integer sets (a block predicate)">;

#endif // TENSORIR_DIALECT_TIR_IR_TIRATTRS_TD
