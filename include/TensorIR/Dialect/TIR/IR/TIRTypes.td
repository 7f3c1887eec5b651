//===- TIRTypes.td - TensorIR types ------------------------*- tablegen -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRTYPES_TD
#define TENSORIR_DIALECT_TIR_IR_TIRTYPES_TD

include "TensorIR/Dialect/TIR/IR/TIRDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TIR_ObjectType : TypeDef<TIR_Dialect, "Object"> {
  let mnemonic = "object";
  let summary = "an opaque value a graph function passes along (Relax's R.Object)";
  let description = [{
    A value of no shape or element type that a graph function takes and
    gives back unchanged: Relax's `R.Object`, as the effect handle (`_io`)
    of a `relax.frontend.nn` module exported with `debug=True`. Graph
    operators do not read it; the compiler refuses functions that take one.
  }];
}

#endif // TENSORIR_DIALECT_TIR_IR_TIRTYPES_TD
