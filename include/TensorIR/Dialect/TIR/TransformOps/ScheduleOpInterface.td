//===- ScheduleOpInterface.td - ops that are schedule steps -*- tablegen -*-===//
//
// The interface every transform.tir op implements: one step of a schedule,
// applied to payload ops without the transform interpreter, so that the
// transform interpreter (tir-opt) and ScheduleState (the Python Schedule)
// run the same code.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def TIR_ScheduleOpInterface : OpInterface<"ScheduleOpInterface"> {
  let cppNamespace = "::mlir::tir";
  let description = [{
    A step of a schedule. `applyToPayload` gets, for each operand, the
    payload ops (or parameters) the operand's handle holds, and fills one
    list per result. It checks every rule before it changes anything: when
    it refuses, it returns failure with the error set, and the payload is
    as it was. It never reads the transform state, so a ScheduleState can
    run it one step at a time, recording the op as the trace.

    The static methods describe the op as a TVM Python call, for printing a
    trace as Python and for the Python Schedule's generic entry point; they
    are generated from the op's ODS arguments by TIR_ScheduleOp.
  }];
  let methods = [
    InterfaceMethod<
      "Applies the step to the payload of the operands, filling the results.",
      "::llvm::LogicalResult", "applyToPayload",
      (ins "::mlir::RewriterBase &":$rewriter,
           "::mlir::tir::SchedulePayload &":$payload,
           "::mlir::tir::ScheduleError &":$error)>,
    StaticInterfaceMethod<
      "The names of the operands, as TVM's Python parameters, in order.",
      "::llvm::ArrayRef<::llvm::StringLiteral>", "getPythonOperandNames", (ins)>,
    StaticInterfaceMethod<
      "The names of the attributes, as TVM's Python parameters, in order.",
      "::llvm::ArrayRef<::llvm::StringLiteral>", "getPythonAttributeNames", (ins)>,
    StaticInterfaceMethod<
      "Whether the (one) operand is variadic: Python takes it as *args.",
      "bool", "hasVariadicOperand", (ins)>,
    StaticInterfaceMethod<
      "Whether the result is variadic: Python returns a list.",
      "bool", "returnsList", (ins)>,
    StaticInterfaceMethod<
      "How many results the op declares (a variadic one counts once).",
      "unsigned", "getPythonResultCount", (ins)>,
    StaticInterfaceMethod<
      "Whether the step only reads the payload (a query).",
      "bool", "isQuery", (ins)>,
    StaticInterfaceMethod<
      "The type of the results a ScheduleState creates the op with.",
      "::mlir::Type", "getScheduleResultType",
      (ins "::mlir::MLIRContext *":$context), [{}], [{
        return ::mlir::transform::AnyOpType::get(context);
      }]>,
    StaticInterfaceMethod<
      "Whether the variadic operand appears in the Python form through an "
      "attribute's argument (split's parameter factors in `factors`) "
      "rather than as a keyword list of its own.",
      "bool", "pythonFoldsVariadicOperand", (ins), [{}], [{
        return false;
      }]>,
    InterfaceMethod<
      "Prints attribute `name` as TVM's Python keyword argument "
      "(`name=value`), or nothing for an attribute Python does not take. "
      "`operands` are the Python names of the op's operands, in order.",
      "void", "printPythonArgument",
      (ins "::llvm::StringRef":$name, "::mlir::Attribute":$value,
           "::llvm::ArrayRef<std::string>":$operands,
           "::llvm::raw_ostream &":$os), [{}], [{
        os << name << "=";
        ::mlir::tir::printPythonValue(value, os);
      }]>,
  ];
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_TD
