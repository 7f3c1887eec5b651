//===- Nodes.h - tir functions as tvm.tir nodes (internal) ------*- C++ -*-===//
//
// The builder Nodes.cpp binds (function_nodes, function_signature,
// simplify_index): its buffers, statements, functions and signatures are
// in Nodes.cpp, its expressions (values, constants, calls, index
// expressions, annotations) and Analyzer.simplify in NodesValues.cpp. See
// Nodes.cpp for what the nodes are.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_NODES_H
#define TENSORIR_PYTHON_EXTENSION_NODES_H

#include "Extension.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tirpy::nodes {
namespace py = pybind11;
using namespace mlir;
using namespace mlir::tir;

/// An op the nodes have no form for; Python's ValueError.
struct NoNodeForm : std::runtime_error {
  NoNodeForm(Operation *op, const std::string &why)
      : std::runtime_error(describe(op, why)) {}
  static std::string describe(Operation *op, const std::string &why) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "'" << op->getName() << "' at "
       << DiagnosticCollector::location(op->getLoc())
       << " has no node form: " << why;
    return text;
  }
};

class NodeBuilder {
public:
  explicit NodeBuilder(py::object classes) : c(std::move(classes)) {}

  /// (params, [(param var, Buffer)], body) of `func`.
  py::tuple function(func::FuncOp func);

  /// [(Var, Buffer or None)] of `func`'s parameters, from their types
  /// alone (any layout; a dynamic dimension is None): what a function
  /// with no node form still says of its signature.
  py::list signature(func::FuncOp func);

  /// An integer expression simplified by tir's index arithmetic
  /// (simplifyIndexExpr): the parts index expressions hold (+ - * // %
  /// T.ceildiv over variables, T.vscale() and constants) as one, T.min /
  /// T.max over simplified operands (folded when both are constants);
  /// anything else as it is.
  py::object simplify(py::handle e);

  /// `e` (nodes) as an index expression over `leaves` (dimension i:
  /// leaves[i], matched by identity; variables not there are appended), or
  /// null when index expressions cannot hold it.
  AffineExpr indexExprOf(py::handle e, SmallVectorImpl<py::object> &leaves) {
    return toIndexExpr(e, leaves);
  }

  /// The index expression `e` over `inputs` (dimension i: inputs[i]) as
  /// nodes.
  py::object indexExpr(AffineExpr e, ArrayRef<py::object> inputs) {
    return index(e, inputs);
  }

private:
  /// `e` as an index expression over `leaves` (each Var once, by identity;
  /// T.vscale() once), or null when index expressions cannot hold it.
  AffineExpr toIndexExpr(py::handle e, SmallVectorImpl<py::object> &leaves);

  py::object cls(const char *name) { return c.attr(name); }
  py::object i32(int64_t v) { return cls("IntImm")("int32", v); }
  py::object boolean(bool v) { return cls("IntImm")("bool", v ? 1 : 0); }

  //===--- Expressions ----------------------------------------------------===//

  /// The expression of `v`: a variable or buffer field it is bound to, or
  /// the expression of the op defining it.
  py::object expr(Value v);
  py::object opExpr(Operation *def, Value v);
  py::object constant(arith::ConstantOp cst);
  py::object call(CallOp call);
  /// An index expression over `inputs` (input space).
  py::object index(AffineExpr e, ArrayRef<py::object> inputs);
  py::object bound(OpFoldResult b);
  py::list indices(AffineMap map, ValueRange operands);
  /// An annotation as a Python value (bool, int, float, str, lists and
  /// dicts); another attribute is refused, naming `owner`.
  py::object annotation(Attribute a, Operation *owner);
  py::dict annotations(DictionaryAttr dict, Operation *owner);

  //===--- Buffers and regions --------------------------------------------===//

  py::object buffer(Value memref, StringRef name, ArrayRef<py::object> shape,
                    StringAttr unsignedDtype);
  py::object region(Value buffer, AffineMap map, ArrayRef<py::object> inputs);
  py::list regions(OperandRange buffers, std::optional<ArrayAttr> maps,
                   ArrayRef<py::object> inputs);

  //===--- Statements -----------------------------------------------------===//

  /// The statements of `block` from `begin` as one Stmt; a value bound to
  /// a name makes a LetStmt over the rest. Buffers allocated or matched
  /// there go to `allocs` / `matches` (a block's or the function's).
  py::object body(Block &block, Block::iterator begin, py::list *allocs,
                  py::list *matches);
  /// One statement, or None for an op that is part of another (an init, a
  /// buffer's metadata) or a value written inline.
  py::object statement(Operation &op, py::list *allocs, py::list *matches);
  py::object forLoop(ForOp loop);
  py::object tirBlock(BlockOp block);
  /// `loc` as a tvm.ir.Span (its first file, line and column), or None
  /// when it names no place in a source (line 0: built from nodes that
  /// had none).
  py::object span(Location loc);

  py::object c;
  llvm::DenseMap<Value, py::object> bound_;
  llvm::DenseMap<Value, py::object> buffers;
  /// Blocks read with: (body, init, reads, writes, match_buffers), which
  /// the package keeps to tell whether regions are stale.
};

} // namespace tirpy::nodes

#endif // TENSORIR_PYTHON_EXTENSION_NODES_H
