//===- StructuralEqual.cpp - structural equality for Python ---------------===//
//
// tvm.ir.structural_equal / structural_hash over the extension's modules:
// which functions to compare is chosen here, the comparison is
// TensorIR/Dialect/TIR/Analysis/StructuralEqual.h.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Dialect/TIR/Analysis/StructuralEqual.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <pybind11/stl.h>

#include <optional>
#include <string>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

/// Function `name` of `module`; ValueError when there is none.
Operation *lookupFunction(ModuleOp module, const std::string &name,
                          const char *which) {
  Operation *op = SymbolTable::lookupSymbolIn(module, name);
  if (!op || !isa<FunctionOpInterface>(op))
    throw py::value_error(std::string("no function @") + name + " in " + which);
  return op;
}

tir::StructuralEqualOptions makeOptions(bool mapFreeVars,
                                        bool compareSymbolNames) {
  tir::StructuralEqualOptions options;
  options.mapFreeVars = mapFreeVars;
  options.compareSymbolNames = compareSymbolNames;
  return options;
}

} // namespace

void tirpy::bindStructuralEqual(py::module_ &m) {
  m.def(
      "structural_equal",
      [](py::handle a, py::handle b, std::optional<std::string> funcA,
         std::optional<std::string> funcB, bool mapFreeVars,
         bool compareSymbolNames) {
        ModuleOp lhsModule = moduleOf(a), rhsModule = moduleOf(b);
        Operation *lhs = lhsModule, *rhs = rhsModule;
        if (funcA || funcB) {
          lhs = lookupFunction(lhsModule, funcA ? *funcA : *funcB, "lhs");
          rhs = lookupFunction(rhsModule, funcB ? *funcB : *funcA, "rhs");
        }
        std::optional<tir::StructuralDifference> diff =
            tir::findStructuralDifference(
                lhs, rhs, makeOptions(mapFreeVars, compareSymbolNames));
        return py::make_tuple(!diff, diff ? diff->message : std::string());
      },
      py::arg("a"), py::arg("b"), py::arg("func_a") = py::none(),
      py::arg("func_b") = py::none(), py::arg("map_free_vars") = false,
      py::arg("compare_symbol_names") = false,
      "Compares two modules as tvm.ir.structural_equal does: names are "
      "free, variables match by definition, pure values compare as "
      "expression trees and index expressions in a linear normal form. "
      "Compares function func_a of a with func_b of b (either defaults to "
      "the other; their names may differ) when given, else the modules "
      "(the same function names, as TVM matches GlobalVars, and each pair "
      "equal). Returns (equal, message); the message shows the first "
      "difference. Function arguments are always matched by position, so "
      "map_free_vars changes nothing for functions.");
  m.def(
      "structural_hash",
      [](py::handle module, std::optional<std::string> func, bool mapFreeVars,
         bool compareSymbolNames) {
        ModuleOp m = moduleOf(module);
        Operation *op = m;
        if (func)
          op = lookupFunction(m, *func, "the module");
        return tir::structuralHash(
            op, makeOptions(mapFreeVars, compareSymbolNames));
      },
      py::arg("module"), py::arg("func") = py::none(),
      py::arg("map_free_vars") = false, py::arg("compare_symbol_names") = false,
      "A hash consistent with structural_equal: of function func (name "
      "left out) when given, else of the module (function names "
      "included). Equal programs hash alike; the value is stable across "
      "runs.");
}
