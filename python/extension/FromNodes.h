//===- FromNodes.h - tvm.tir nodes built into tir (internal) ----*- C++ -*-===//
//
// The builder FromNodes.cpp binds as function_from_nodes: its statements,
// buffers and functions are in FromNodes.cpp, its values (types,
// constants, conversions, index expressions, operators, calls, conditions)
// in FromNodesValues.cpp. See FromNodes.cpp for the rules it follows.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_FROMNODES_H
#define TENSORIR_PYTHON_EXTENSION_FROMNODES_H

#include "Extension.h"

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

namespace tirpy::fromnodes {
namespace py = pybind11;
using namespace mlir;
using namespace mlir::tir;

/// Nodes that build no valid tir; Python's ValueError.
struct BadNodes : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The name of a node's class (found once per class: nodes are many,
/// classes few).
const std::string &typeName(py::handle node);
/// Whether a node is of class `name` or a subclass (only "Var" has
/// subclasses: SizeVar, te's axes).
bool isa_(py::handle node, const char *name);
/// The integer of an IntImm (or a Python int) as 64 bits: a value past
/// int64's range (uint64's largest) keeps its bits.
int64_t intOf(py::handle value);
std::string dtypeOf(py::handle node);

/// A value being built: an index expression (over `inputs`, input space)
/// while it is one, else an SSA value.
struct Term {
  AffineExpr index;
  SmallVector<Value> inputs;
  Value value;
  bool isUnsigned = false;
  /// An IntImm or FloatImm on its own: a constant of the type it meets (a
  /// store's buffer, the other operand), else of its dtype.
  py::object literal;
  bool isIndex() const { return static_cast<bool>(index); }
};

class FunctionBuilder {
public:
  explicit FunctionBuilder(Location loc) : b(&context()), loc(loc) {}

  OwningOpRef<ModuleOp> build(const std::string &name, py::handle params,
                              py::handle bufferMap, py::handle body,
                              bool isPrivate);
  /// A statement or expression on its own, as function @fragment whose
  /// arguments are its free variables and buffers (in order) and whose
  /// result, for an expression, is its value: what printing a node and
  /// comparing two nodes work on. Not verified (a tir function returns
  /// nothing).
  OwningOpRef<ModuleOp> buildFragment(py::handle node, bool isExpr,
                                      py::handle freeVars,
                                      py::handle freeBuffers);

private:
  MLIRContext *ctx() { return b.getContext(); }
  /// Refuses the nodes, at the location of the statement being built when
  /// its span gives one.
  [[noreturn]] void fail(const std::string &why);

  //===--- Types ----------------------------------------------------------===//

  Type scalarType(const std::string &dtype);
  bool isUnsignedDtype(const std::string &dtype) {
    return StringRef(dtype).starts_with("uint");
  }

  //===--- Expressions ----------------------------------------------------===//

  /// Whether `e` is an index expression: integer variables bound to index
  /// values and integer constants, joined by + - * // % and T.ceildiv.
  bool isIndexExpr(py::handle e);
  /// Whether `e` is a Cast of an index expression that keeps its value
  /// (to int32 or a widening to int64).
  bool isIndexCast(py::handle e);
  /// `e` as an index expression over `inputs` (appended to, each value
  /// once, in order of first use); other integer expressions are computed
  /// and converted to index.
  AffineExpr indexExpr(py::handle e, SmallVectorImpl<Value> &inputs);
  /// indexExpr of an `e` known to be an index expression (checked once at
  /// its root, not again at each operand).
  AffineExpr knownIndexExpr(py::handle e, SmallVectorImpl<Value> &inputs);
  Term term(py::handle e);
  /// The SSA value of a term: an index expression computed with arith
  /// ops.
  Value materialize(py::handle e, const Term &t);
  Value indexValue(py::handle e);
  Value value(py::handle e) { return materialize(e, term(e)); }
  /// An index expression computed in `index` with arith ops.
  Value materializeIndex(py::handle e);
  Value constant(const std::string &dtype, py::handle number);
  /// The constant `literal` (an IntImm or FloatImm) as a `type` value.
  Value literalOf(py::handle literal, Type type);
  /// `e`'s value as a `type` value (`toUnsigned`: of a uint dtype).
  Value valueOf(py::handle e, Type type, bool toUnsigned);
  Value intConstant(Type type, int64_t v);
  /// `v` converted to `type` (signedness from `fromUnsigned` /
  /// `toUnsigned`), as a Cast node converts.
  Value convert(Value v, Type type, bool fromUnsigned, bool toUnsigned);
  /// Two operands of one type (the rules above).
  std::pair<Value, Value> unify(py::handle a, py::handle b, bool &isUnsigned);
  Value binary(const std::string &op, py::handle a, py::handle b,
               bool &isUnsigned);
  Value compareValues(const std::string &op, py::handle a, py::handle b);
  /// A call's value; `asStatement`: evaluated for its effect, so a
  /// "handle" result is dropped (TVM prints such a call without it).
  Value call(py::handle e, bool asStatement = false);
  Value vscale();
  /// The buffer and field (-1: elem_offset, k: strides[k]) that `var` is,
  /// if it is one of a view's.
  std::optional<std::pair<Value, int>> bufferField(py::handle var);
  /// The value of `var`: what binds it, or its buffer field, read here
  /// (memref.extract_strided_metadata, as `A.elem_offset` reads it).
  Value varValue(py::handle var);

  //===--- Conditions, regions --------------------------------------------===//

  /// A T.where as a disjunction of conjunctions over `inputs`; false when
  /// it compares other values than index expressions.
  bool condition(py::handle e, SmallVectorImpl<Value> &inputs,
                 SmallVector<Conjunction> &out);
  RegionExprs region(py::handle bufferRegion, unsigned numIterVars,
                     SmallVectorImpl<Value> &regionValues,
                     DenseMap<Value, unsigned> &iterVarPositions);

  //===--- Statements -----------------------------------------------------===//

  /// The bounds [min, min + extent) of a loop or an iteration variable:
  /// constants where they fold, else index values (an upper bound that
  /// simplifies to one value is that value).
  std::pair<OpFoldResult, OpFoldResult> bounds(py::handle min,
                                               py::handle extent);
  void stmt(py::handle s);
  void forLoop(py::handle s);
  void blockRealize(py::handle s);
  void store(py::handle s);
  Value bufferOf(py::handle buffer);
  /// T.allocate_const: the constant data behind a handle, in scope for the
  /// statement's body.
  void allocateConst(py::handle s);
  /// DeclBuffer: a buffer over the data of an AllocateConst around it.
  void declBuffer(py::handle s);
  Value declareBuffer(py::handle buffer);
  /// The memref of a parameter's or an allocation's Buffer; an
  /// allocation's dynamic sizes go to `dynSizes`.
  MemRefType memrefType(py::handle buffer, bool isParam,
                        SmallVectorImpl<Value> *dynSizes);
  DictionaryAttr annotations(py::handle dict);
  Attribute annotation(py::handle value);
  /// Whether a block's read and write regions still describe it (nodes
  /// read from tir and unchanged, or regions set by hand).
  bool regionsHold(py::handle block);

  /// While it lives, the ops built are located where `node` comes from
  /// (its tvm.ir.Span), when it says; else where they were.
  class LocatedAt {
  public:
    LocatedAt(FunctionBuilder &builder, py::handle node);
    ~LocatedAt() { builder.loc = saved; }

  private:
    FunctionBuilder &builder;
    Location saved;
  };

  OpBuilder b;
  Location loc;
  DenseMap<PyObject *, Value> vars;
  DenseMap<PyObject *, Value> buffers;
  DenseMap<PyObject *, py::object> bufferNodes;
  DenseMap<PyObject *, std::string> dimVarNames;
  /// The memrefs of T.allocate_const, by their handle Var.
  DenseMap<PyObject *, Value> constData;
  /// Building a fragment: a buffer's layout may be any strided one.
  bool anyLayout = false;
  llvm::StringSet<> usedDimVarNames;
  /// vector.vscale, created once at the function's entry.
  Value vscaleValue;
  Block *entry = nullptr;
};

} // namespace tirpy::fromnodes

#endif // TENSORIR_PYTHON_EXTENSION_FROMNODES_H
