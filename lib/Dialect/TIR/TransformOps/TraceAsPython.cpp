//===- TraceAsPython.cpp - a trace printed as TVM's Python ----------------===//
//
// Each transform.tir op of a trace prints as the Python call TVM's trace
// shows, from the op's Python parameter names (ScheduleOpInterface):
//
//   b0 = sch.get_block(name="C", func_name="main")
//   l1, l2 = sch.get_loops(block=b0)
//   l3, l4 = sch.split(loop=l1, factors=[None, 4], preserve_unit_iters=True)
//   sch.reorder(l3, l2, l4)
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"

using namespace mlir;
using namespace mlir::tir;

/// b for blocks, l for loops, v for parameters (TVM's ExprRV), as TVM
/// names random variables: by the kind the step's result is.
static char prefixOf(Operation &op, Value result) {
  switch (getResultKind(op, result)) {
  case RandomVariable::Kind::Loop:
    return 'l';
  case RandomVariable::Kind::Block:
    return 'b';
  case RandomVariable::Kind::Expr:
    return 'v';
  }
  llvm_unreachable("unknown random variable kind");
}

FailureOr<std::string> mlir::tir::printTraceAsPython(ModuleOp trace,
                                                     std::string &error,
                                                     bool anonymous) {
  FailureOr<transform::NamedSequenceOp> sequence =
      getTraceSequence(trace, error);
  if (failed(sequence))
    return failure();
  Value root = sequence->getBody().front().getArgument(0);
  DenseMap<Value, std::string> names;
  // Arguments after the root stand for random variables no step of the
  // trace defines (an instruction printed on its own): TVM prints `_`.
  for (BlockArgument arg :
       sequence->getBody().front().getArguments().drop_front())
    names[arg] = "_";
  unsigned counter = 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (Operation &op : sequence->getBody().front().without_terminator()) {
    auto step = dyn_cast<ScheduleOpInterface>(&op);
    if (!step) {
      error = "'" + op.getName().getStringRef().str() +
              "' has no Python form: it is not a schedule step";
      return failure();
    }
    SmallVector<std::string> args;
    // Every operand's Python name, by position ("" for the root, which
    // Python does not pass), for attributes that print operands.
    SmallVector<std::string> operandArgs;
    for (Value operand : op.getOperands()) {
      if (operand == root) {
        operandArgs.emplace_back();
        continue;
      }
      auto it = names.find(operand);
      if (it == names.end()) {
        error = "an operand of '" + op.getName().getStringRef().str() +
                "' is not a handle of the trace";
        return failure();
      }
      args.push_back(it->second);
      operandArgs.push_back(it->second);
    }
    // Keyword arguments, by the operands' positions (the root left out),
    // unless the only operand is variadic (TVM's *loops: positional). A
    // variadic operand after others (cache_read's consumer_blocks) is a
    // keyword list, last, shown when not empty; one an attribute prints
    // (split's parameter factors) is not shown on its own.
    ArrayRef<StringLiteral> operandNames = step.getPythonOperandNames();
    auto keywords = [&](unsigned count) {
      SmallVector<std::string> out;
      for (unsigned k = 0; k < count; ++k)
        if (!operandArgs[k].empty())
          out.push_back((operandNames[k] + "=" + operandArgs[k]).str());
      return out;
    };
    std::string trailingList;
    if (!step.hasVariadicOperand()) {
      args = keywords(operandArgs.size());
    } else if (operandNames.size() > 1) {
      unsigned fixed = operandNames.size() - 1;
      SmallVector<std::string> listed;
      for (unsigned k = fixed; k < operandArgs.size(); ++k)
        if (!operandArgs[k].empty())
          listed.push_back(operandArgs[k]);
      args = keywords(fixed);
      if (!listed.empty() && !step.pythonFoldsVariadicOperand())
        trailingList =
            (operandNames.back() + "=[" + llvm::join(listed, ", ") + "]").str();
    }
    for (StringLiteral name : step.getPythonAttributeNames()) {
      // An absent attribute may stand for a variadic operand (annotate's
      // parameter value): ops that fold one print it in its place.
      Attribute value = op.getAttr(name);
      if (!value && !step.pythonFoldsVariadicOperand())
        continue;
      std::string arg;
      llvm::raw_string_ostream argOs(arg);
      step.printPythonArgument(name, value, operandArgs, argOs);
      if (!arg.empty())
        args.push_back(arg);
    }
    if (!trailingList.empty())
      args.push_back(trailingList);

    SmallVector<std::string> results;
    for (Value result : op.getResults()) {
      std::string name = prefixOf(op, result) + std::to_string(counter++);
      names[result] = anonymous ? "_" : name;
      results.push_back(names[result]);
    }
    if (step.returnsList())
      os << (results.empty() ? "_" : llvm::join(results, ", "))
         << (results.size() == 1 ? "," : "") << " = ";
    else if (!results.empty())
      os << llvm::join(results, ", ") << " = ";
    os << "sch." << op.getName().stripDialect().drop_front(strlen("tir."))
       << "(" << llvm::join(args, ", ") << ")\n";
  }
  return text;
}
