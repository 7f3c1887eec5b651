//===- GraphPrinter.h - the printer of graph functions ---------*- C++ -*-===//
//
// Internal to lib/Target/TVMScript: GraphPrinter prints one graph function
// as an @R.function; Graph.cpp prints the function (parameters, bindings,
// calls, the output), GraphOperators.cpp the high-level operators it holds
// (linalg ops and tensor reshapes as R.* calls).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_TARGET_TVMSCRIPT_GRAPHPRINTER_H
#define TENSORIR_LIB_TARGET_TVMSCRIPT_GRAPHPRINTER_H

#include "Printer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir::tir::tvmscript::detail {

/// An operator or function attribute as a Python literal ("" for one
/// TVMScript has no form for).
std::string attrText(Attribute attr);

/// Prints one graph function; names its values as Relax's BlockBuilder
/// does (lv, lv1, ... and gv for the output).
class GraphPrinter {
public:
  GraphPrinter(GraphConstants &constants, bool inModule, std::string &error)
      : constants(constants), inModule(inModule), error(error) {}

  bool print(func::FuncOp func, llvm::raw_ostream &os);

private:
  /// As Printer's: the first reason printing fails, naming the op.
  bool fail(Operation *op, const Twine &why) {
    if (error.empty()) {
      llvm::raw_string_ostream s(error);
      s << "cannot print '" << op->getName() << "' as TVMScript: " << why;
    }
    return false;
  }
  /// R.Tensor((n, 128), dtype="float32") for the tensor `v` (a dynamic
  /// dimension by its shape variable, quoted as a signature writes it
  /// when `quoted`), "" if it has no form.
  std::string structInfo(Value v, bool quoted = false);
  std::string fresh(StringRef hint) {
    std::string name = hint.str();
    for (unsigned k = 1; !used.insert(name).second; ++k)
      name = hint.str() + std::to_string(k);
    return name;
  }
  /// The expression of a value: a name, `lv[1]`, a constant.
  bool value(Value v, std::string &out);
  /// The R.* expression of a high-level op (linalg on tensors, a tensor
  /// reshape); false, with the error set, for an op it has none for.
  bool operatorCall(Operation &op, std::string &out);
  /// The value an operator op gives (null when it has none TVMScript can
  /// name).
  Value operatorResult(Operation &op);
  /// `name: info = cls.callee(args)`, a call of a graph function.
  bool printFunctionCall(func::CallOp call, llvm::raw_ostream &os);
  /// "name: struct info" of parameter `index` (named by its tir.name).
  std::string plainParam(func::FuncOp func, unsigned index, StringRef info);
  /// The parameters of a function with tuple parameters (`nesting`, the
  /// tir.param_nesting attribute), each "name: struct info"; the tuples'
  /// arguments are named by their place in them (x[0]).
  bool printTupleParams(func::FuncOp func, ArrayAttr nesting,
                        ArrayRef<std::string> argInfos,
                        SmallVectorImpl<std::string> &params);
  /// Whether `op` only feeds the ops operatorCall prints (an empty tensor,
  /// a fill, a scalar constant).
  static bool isOperand(Operation &op);

  GraphConstants &constants;
  bool inModule;
  std::string &error;
  llvm::DenseMap<Value, std::string> names;
  llvm::StringSet<> used;
  /// The function's tir.packed_result (what a packed call returned, which
  /// it returns), and the binding that names it once printed.
  DictionaryAttr packedResult;
  std::string returnedName;
  unsigned counter = 0;
  /// The next binding's name, as BlockBuilder numbers them: lv, lv1, ...
  std::string nextBinding() {
    // (Past the names parameters took: lv, then lv1, not lv11.)
    while (true) {
      unsigned k = counter++;
      std::string name = k == 0 ? "lv" : "lv" + std::to_string(k);
      if (!used.contains(name))
        return fresh(name);
    }
  }
};

} // namespace mlir::tir::tvmscript::detail

#endif // TENSORIR_LIB_TARGET_TVMSCRIPT_GRAPHPRINTER_H
