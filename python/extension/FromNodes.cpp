//===- FromNodes.cpp - tvm.tir nodes built into tir
//------------------------===//
//
// function_from_nodes(name, params, buffer_map, body, private): a module
// holding one tir function built with MLIR's builders from TVM's IR nodes
// (what PrimFunc(params, body, ...) and with_body take), checked by the
// verifier. It is the inverse of Nodes.cpp and follows the TVMScript
// parser's rules (python/tensorir/script), so nodes and the script they
// print build the same IR:
//
// - an integer expression over loop, block and scalar variables (and
//   constants) is an index expression, written into the op that uses it
//   (a load's indices, a binding, a region, a T.where); elsewhere it is
//   computed in `index` with arith ops (floor modulo as a - a // b * b);
// - a value of a buffer (a load, a cast) met with an index variable turns
//   the variable into the buffer's integer type; a float met with an
//   integer turns the integer into the float;
// - a store converts its value to the buffer's element type.
//
// Variables and buffers are matched by identity, as nodes share them.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringSet.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::tir;
using namespace tirpy;

namespace {

/// Nodes that build no valid tir; Python's ValueError.
struct BadNodes : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The name of a node's class, and whether it is a Var (SizeVar and te's
/// axes are), found once per class: nodes are many, classes few.
struct NodeClass {
  std::string name;
  bool isVar = false;
};

const NodeClass &nodeClass(py::handle node) {
  static llvm::DenseMap<PyObject *, NodeClass> classes;
  PyObject *type = reinterpret_cast<PyObject *>(Py_TYPE(node.ptr()));
  auto it = classes.find(type);
  if (it != classes.end())
    return it->second;
  // The class stays alive while it is cached (one reference, never
  // dropped), so that its address is not reused by another class.
  Py_INCREF(type);
  NodeClass info;
  py::handle cls(type);
  info.name = py::str(cls.attr("__name__")).cast<std::string>();
  for (py::handle base : cls.attr("__mro__"))
    info.isVar |= py::str(base.attr("__name__")).cast<std::string>() == "Var";
  return classes.try_emplace(type, std::move(info)).first->second;
}

const std::string &typeName(py::handle node) { return nodeClass(node).name; }

bool isa_(py::handle node, const char *name) {
  assert(StringRef(name) == "Var" && "only Var has subclasses");
  return nodeClass(node).isVar;
}

/// The integer of an IntImm (or a Python int) as 64 bits: a value past
/// int64's range (uint64's largest) keeps its bits, which the constant of
/// its width then holds.
int64_t intOf(py::handle value) {
  if (py::hasattr(value, "value") && !py::isinstance<py::int_>(value))
    value = value.attr("value");
  unsigned long long bits = PyLong_AsUnsignedLongLongMask(value.ptr());
  if (bits == static_cast<unsigned long long>(-1) && PyErr_Occurred())
    throw py::error_already_set();
  return static_cast<int64_t>(bits);
}

std::string dtypeOf(py::handle node) {
  return py::str(node.attr("dtype")).cast<std::string>();
}

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

private:
  MLIRContext *ctx() { return b.getContext(); }
  [[noreturn]] void fail(const std::string &why) { throw BadNodes(why); }

  //===--- Types ----------------------------------------------------------===//

  Type scalarType(const std::string &dtype);
  bool isUnsignedDtype(const std::string &dtype) {
    return StringRef(dtype).starts_with("uint");
  }

  //===--- Expressions ----------------------------------------------------===//

  /// Whether `e` is an index expression: integer variables bound to index
  /// values and integer constants, joined by + - * // % and T.ceildiv.
  bool isIndexExpr(py::handle e);
  /// `e` as an index expression over `inputs` (appended to, each value
  /// once, in order of first use); other integer expressions are computed
  /// and converted to index.
  AffineExpr indexExpr(py::handle e, SmallVectorImpl<Value> &inputs);
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
  /// `toUnsigned`), as the parser's cast.
  Value convert(Value v, Type type, bool fromUnsigned, bool toUnsigned);
  /// Two operands of one type, by the parser's rules.
  std::pair<Value, Value> unify(py::handle a, py::handle b, bool &isUnsigned);
  Value binary(const std::string &op, py::handle a, py::handle b,
               bool &isUnsigned);
  Value compareValues(const std::string &op, py::handle a, py::handle b);
  Value call(py::handle e);
  Value vscale();
  /// The buffer and field (-1: elem_offset, k: strides[k]) that `var` is,
  /// if it is one of a view's.
  std::optional<std::pair<Value, int>> bufferField(py::handle var);
  /// The value of `var`: what binds it, or its buffer field, read here
  /// (memref.extract_strided_metadata, as the parser reads `A.elem_offset`).
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
  Value declareBuffer(py::handle buffer);
  MemRefType memrefType(py::handle buffer, SmallVectorImpl<Value> *dynSizes);
  DictionaryAttr annotations(py::handle dict);
  Attribute annotation(py::handle value);
  /// Whether a block's read and write regions still describe it (nodes
  /// read from tir and unchanged, or regions set by hand).
  bool regionsHold(py::handle block);

  OpBuilder b;
  Location loc;
  DenseMap<PyObject *, Value> vars;
  DenseMap<PyObject *, Value> buffers;
  DenseMap<PyObject *, py::object> bufferNodes;
  DenseMap<PyObject *, std::string> dimVarNames;
  llvm::StringSet<> usedDimVarNames;
  /// vector.vscale, created once at the function's entry.
  Value vscaleValue;
  Block *entry = nullptr;
};

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

Type FunctionBuilder::scalarType(const std::string &dtype) {
  static const std::pair<StringRef, int> ints[] = {
      {"int8", 8},  {"int16", 16},  {"int32", 32},  {"int64", 64},
      {"uint8", 8}, {"uint16", 16}, {"uint32", 32}, {"uint64", 64}};
  for (auto [name, width] : ints)
    if (dtype == name)
      return b.getIntegerType(width);
  if (dtype == "bool")
    return b.getI1Type();
  if (dtype == "float16")
    return b.getF16Type();
  if (dtype == "bfloat16")
    return b.getBF16Type();
  if (dtype == "float32")
    return b.getF32Type();
  if (dtype == "float64")
    return b.getF64Type();
  fail("dtype '" + dtype + "' has no tir type");
}

Value FunctionBuilder::intConstant(Type type, int64_t v) {
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, v);
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

Value FunctionBuilder::constant(const std::string &dtype, py::handle number) {
  Type type = scalarType(dtype);
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, type, b.getFloatAttr(type, number.cast<double>()));
  if (type.isInteger(1))
    return arith::ConstantOp::create(b, loc, type,
                                     b.getBoolAttr(intOf(number) != 0));
  return intConstant(type, intOf(number));
}

Value FunctionBuilder::literalOf(py::handle literal, Type type) {
  py::object number = literal.attr("value");
  bool isFloat = typeName(literal) == "FloatImm";
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, type, b.getFloatAttr(type, number.cast<double>()));
  if (type.isInteger(1))
    return arith::ConstantOp::create(
        b, loc, type,
        b.getBoolAttr(isFloat ? number.cast<double>() != 0
                              : intOf(number) != 0));
  if (type.isIntOrIndex())
    // A float constant meeting an integer is truncated, as a cast would.
    return intConstant(type, isFloat
                                 ? static_cast<int64_t>(number.cast<double>())
                                 : intOf(number));
  fail("a constant cannot be a value of this type");
}

Value FunctionBuilder::valueOf(py::handle e, Type type, bool toUnsigned) {
  Term t = term(e);
  if (t.literal)
    return literalOf(t.literal, type);
  return convert(materialize(e, t), type, t.isUnsigned, toUnsigned);
}

Value FunctionBuilder::vscale() {
  if (!vscaleValue) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    vscaleValue = vector::VectorScaleOp::create(b, loc);
  }
  return vscaleValue;
}

Value FunctionBuilder::convert(Value v, Type type, bool fromUnsigned,
                               bool toUnsigned) {
  Type src = v.getType();
  if (src == type)
    return v;
  fromUnsigned |= src.isInteger(1);
  auto width = [](Type t) {
    return t.isIndex() ? 64u : t.getIntOrFloatBitWidth();
  };
  bool srcFloat = isa<FloatType>(src), dstFloat = isa<FloatType>(type);
  if (src.isIndex() && !dstFloat)
    return arith::IndexCastOp::create(b, loc, type, v);
  if (src.isIndex()) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    return arith::SIToFPOp::create(b, loc, type, i64);
  }
  if (type.isIndex()) {
    if (srcFloat) {
      Value i64 = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
      return arith::IndexCastOp::create(b, loc, type, i64);
    }
    if (fromUnsigned)
      return arith::IndexCastUIOp::create(b, loc, type, v);
    return arith::IndexCastOp::create(b, loc, type, v);
  }
  if (srcFloat && dstFloat)
    return width(type) > width(src)
               ? Value(arith::ExtFOp::create(b, loc, type, v))
               : Value(arith::TruncFOp::create(b, loc, type, v));
  if (srcFloat)
    return toUnsigned ? Value(arith::FPToUIOp::create(b, loc, type, v))
                      : Value(arith::FPToSIOp::create(b, loc, type, v));
  if (dstFloat)
    return fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, type, v))
                        : Value(arith::SIToFPOp::create(b, loc, type, v));
  if (width(type) > width(src))
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, type, v))
                        : Value(arith::ExtSIOp::create(b, loc, type, v));
  return arith::TruncIOp::create(b, loc, type, v);
}

std::optional<std::pair<Value, int>>
FunctionBuilder::bufferField(py::handle var) {
  for (auto &[node, buf] : bufferNodes) {
    if (buf.attr("elem_offset").ptr() == var.ptr())
      return std::make_pair(buffers.lookup(node), -1);
    py::list strides = buf.attr("strides");
    for (size_t k = 0; k < strides.size(); ++k)
      if (strides[k].ptr() == var.ptr())
        return std::make_pair(buffers.lookup(node), static_cast<int>(k));
  }
  return std::nullopt;
}

Value FunctionBuilder::varValue(py::handle var) {
  if (auto it = vars.find(var.ptr()); it != vars.end())
    return it->second;
  if (auto field = bufferField(var)) {
    // A constant of the layout is the constant, as the parser reads it.
    auto [strides, offset] =
        cast<MemRefType>(field->first.getType()).getStridesAndOffset();
    int64_t known = field->second < 0 ? offset : strides[field->second];
    if (!ShapedType::isDynamic(known))
      return intConstant(b.getIndexType(), known);
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, field->first);
    if (field->second < 0)
      return meta.getOffset();
    return meta.getStrides()[field->second];
  }
  fail("variable " + py::str(var.attr("name")).cast<std::string>() +
       " is used where no statement defines it (a loop, block or LetStmt "
       "around the use, or the function's parameters)");
}

//===----------------------------------------------------------------------===//
// Index expressions
//===----------------------------------------------------------------------===//

static const char *kIndexOps[] = {"Add", "Sub", "Mul", "FloorDiv", "FloorMod"};

bool FunctionBuilder::isIndexExpr(py::handle e) {
  std::string kind = typeName(e);
  if (isa_(e, "Var")) {
    auto it = vars.find(e.ptr());
    if (it != vars.end())
      return it->second.getType().isIndex();
    return bufferField(e).has_value();
  }
  if (kind == "IntImm")
    return dtypeOf(e) == "int32" || dtypeOf(e) == "int64";
  for (const char *op : kIndexOps)
    if (kind == op)
      return isIndexExpr(e.attr("a")) && isIndexExpr(e.attr("b"));
  if (kind == "Call" &&
      py::str(e.attr("op").attr("name")).cast<std::string>() == "tir.ceildiv") {
    py::list args = e.attr("args");
    return args.size() == 2 && isIndexExpr(args[0]) && isIndexExpr(args[1]);
  }
  if (kind == "Call" &&
      py::str(e.attr("op").attr("name")).cast<std::string>() == "tir.vscale")
    return true;
  return false;
}

AffineExpr FunctionBuilder::indexExpr(py::handle e,
                                      SmallVectorImpl<Value> &inputs) {
  auto input = [&](Value v) {
    auto it = llvm::find(inputs, v);
    unsigned pos = it - inputs.begin();
    if (it == inputs.end())
      inputs.push_back(v);
    return getAffineDimExpr(pos, ctx());
  };
  if (!isIndexExpr(e))
    return input(indexValue(e));
  std::string kind = typeName(e);
  if (isa_(e, "Var"))
    return input(varValue(e));
  if (kind == "IntImm")
    return getAffineConstantExpr(intOf(e.attr("value")), ctx());
  if (kind == "Call") {
    py::list args = e.attr("args");
    if (args.empty())
      return input(vscale());
    AffineExpr l = indexExpr(args[0], inputs);
    return l.ceilDiv(indexExpr(args[1], inputs));
  }
  AffineExpr l = indexExpr(e.attr("a"), inputs);
  AffineExpr r = indexExpr(e.attr("b"), inputs);
  if (kind == "Add")
    return l + r;
  if (kind == "Sub")
    return l - r;
  if (kind == "Mul")
    return l * r;
  if (kind == "FloorDiv")
    return l.floorDiv(r);
  return l % r;
}

Value FunctionBuilder::indexValue(py::handle e) {
  if (isIndexExpr(e))
    return materializeIndex(e);
  Term t = term(e);
  Value v = materialize(e, t);
  if (v.getType().isIndex())
    return v;
  if (!isa<IntegerType>(v.getType()) || v.getType().isInteger(1))
    fail("an index is an integer expression, got a " + dtypeOf(e));
  return convert(v, b.getIndexType(), t.isUnsigned, false);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Term FunctionBuilder::term(py::handle e) {
  Term t;
  std::string kind0 = typeName(e);
  if (kind0 == "IntImm" || kind0 == "FloatImm") {
    t.literal = py::reinterpret_borrow<py::object>(e);
    t.isUnsigned = isUnsignedDtype(dtypeOf(e));
    return t;
  }
  if (isIndexExpr(e)) {
    t.index = indexExpr(e, t.inputs);
    return t;
  }
  std::string kind = typeName(e);
  if (isa_(e, "Var")) {
    t.value = varValue(e);
    t.isUnsigned = isUnsignedDtype(dtypeOf(e));
    return t;
  }
  if (kind == "BufferLoad") {
    py::object buf = e.attr("buffer");
    Value memref = bufferOf(buf);
    SmallVector<Value> inputs;
    SmallVector<AffineExpr> exprs;
    for (py::handle i : e.attr("indices"))
      exprs.push_back(indexExpr(i, inputs));
    t.value = LoadOp::create(b, loc, memref,
                             makeInputMap(inputs.size(), exprs, ctx()), inputs);
    t.isUnsigned = isUnsignedDtype(py::str(buf.attr("dtype")));
    return t;
  }
  if (kind == "Cast") {
    py::object source = e.attr("value");
    Term s = term(source);
    std::string dtype = dtypeOf(e);
    t.value = convert(materialize(source, s), scalarType(dtype), s.isUnsigned,
                      isUnsignedDtype(dtype));
    t.isUnsigned = isUnsignedDtype(dtype);
    return t;
  }
  static const char *arith[] = {"Add",      "Sub",      "Mul", "Div", "Mod",
                                "FloorDiv", "FloorMod", "Min", "Max"};
  for (const char *op : arith)
    if (kind == op) {
      t.value = binary(op, e.attr("a"), e.attr("b"), t.isUnsigned);
      return t;
    }
  static const char *compares[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  for (const char *op : compares)
    if (kind == op) {
      t.value = compareValues(op, e.attr("a"), e.attr("b"));
      return t;
    }
  if (kind == "And" || kind == "Or") {
    Value l = value(e.attr("a")), r = value(e.attr("b"));
    t.value = kind == "And" ? Value(arith::AndIOp::create(b, loc, l, r))
                            : Value(arith::OrIOp::create(b, loc, l, r));
    return t;
  }
  if (kind == "Not") {
    Value v = value(e.attr("a"));
    Value one =
        arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    t.value = arith::XOrIOp::create(b, loc, v, one);
    return t;
  }
  if (kind == "Select") {
    Value c = value(e.attr("condition"));
    bool isUnsigned = false;
    auto [x, y] =
        unify(e.attr("true_value"), e.attr("false_value"), isUnsigned);
    t.value = arith::SelectOp::create(b, loc, c, x, y);
    t.isUnsigned = isUnsigned;
    return t;
  }
  if (kind == "Call") {
    t.value = call(e);
    t.isUnsigned = isUnsignedDtype(dtypeOf(e));
    return t;
  }
  if (kind == "Ramp" || kind == "Broadcast")
    fail("tir." + kind +
         " has no form in a tir function: tir makes vectors when it lowers a "
         "T.vectorized loop (--tir-vectorize-loops); vectorize the loop "
         "instead");
  if (kind == "Let")
    fail("tir.Let has no form in a tir function: bind the value with a "
         "tir.LetStmt around the statements that use it");
  fail("tir." + kind + " has no form in a tir function");
}

Value FunctionBuilder::materialize(py::handle e, const Term &t) {
  if (t.literal)
    return constant(dtypeOf(t.literal), t.literal.attr("value"));
  if (!t.isIndex())
    return t.value;
  return materializeIndex(e);
}

Value FunctionBuilder::materializeIndex(py::handle e) {
  // Computed in index with arith ops, from the expression's tree, as the
  // parser computes an index expression it needs as a value.
  std::string kind = typeName(e);
  if (isa_(e, "Var"))
    return varValue(e);
  if (kind == "IntImm")
    return intConstant(b.getIndexType(), intOf(e.attr("value")));
  if (kind == "Call") {
    py::list args = e.attr("args");
    if (args.empty())
      return vscale();
    Value l = materializeIndex(args[0]);
    Value r = materializeIndex(args[1]);
    return arith::CeilDivSIOp::create(b, loc, l, r);
  }
  // Operands computed first, constants at the op that uses them (the
  // parser's order).
  py::object a = e.attr("a"), bb = e.attr("b");
  auto isConst = [](py::handle x) { return typeName(x) == "IntImm"; };
  Value l = isConst(a) ? Value() : materializeIndex(a);
  Value r = isConst(bb) ? Value() : materializeIndex(bb);
  if (!l)
    l = intConstant(b.getIndexType(), intOf(a.attr("value")));
  if (!r)
    r = intConstant(b.getIndexType(), intOf(bb.attr("value")));
  if (kind == "Add")
    return arith::AddIOp::create(b, loc, l, r);
  if (kind == "Sub")
    return arith::SubIOp::create(b, loc, l, r);
  if (kind == "Mul")
    return arith::MulIOp::create(b, loc, l, r);
  Value q = arith::FloorDivSIOp::create(b, loc, l, r);
  if (kind == "FloorDiv")
    return q;
  // Floor modulo: a - (a // b) * b (a constant b written again).
  Value again = typeName(bb) == "IntImm"
                    ? intConstant(b.getIndexType(), intOf(bb.attr("value")))
                    : r;
  return arith::SubIOp::create(b, loc, l,
                               arith::MulIOp::create(b, loc, q, again));
}

std::pair<Value, Value> FunctionBuilder::unify(py::handle a, py::handle b_,
                                               bool &isUnsigned) {
  Term ta = term(a), tb = term(b_);
  // A constant takes the other side's type (both constants: their own).
  Value x, y;
  if (ta.literal && !tb.literal) {
    x = literalOf(ta.literal,
                  tb.isIndex() ? Type(b.getIndexType()) : tb.value.getType());
    y = materialize(b_, tb);
    ta.isUnsigned = tb.isUnsigned;
  } else if (tb.literal && !ta.literal) {
    x = materialize(a, ta);
    y = literalOf(tb.literal, x.getType());
    tb.isUnsigned = ta.isUnsigned;
  } else {
    x = materialize(a, ta);
    y = materialize(b_, tb);
  }
  auto isInt = [](Type t) { return isa<IntegerType>(t); };
  bool ua = ta.isUnsigned, ub = tb.isUnsigned;
  // Loop and block variables (index) meet integers of buffers: they take
  // the integer type; an integer meeting a float becomes the float.
  if (x.getType().isIndex() && isInt(y.getType())) {
    x = convert(x, y.getType(), false, ub);
    ua = ub;
  } else if (y.getType().isIndex() && isInt(x.getType())) {
    y = convert(y, x.getType(), false, ua);
    ub = ua;
  } else if (isa<FloatType>(x.getType()) && !isa<FloatType>(y.getType())) {
    y = convert(y, x.getType(), ub, false);
  } else if (isa<FloatType>(y.getType()) && !isa<FloatType>(x.getType())) {
    x = convert(x, y.getType(), ua, false);
  }
  if (x.getType() != y.getType())
    fail("operands of different types: " + dtypeOf(a) + " and " + dtypeOf(b_));
  isUnsigned = ua || ub;
  return {x, y};
}

Value FunctionBuilder::binary(const std::string &op, py::handle a,
                              py::handle bb, bool &isUnsigned) {
  auto [x, y] = unify(a, bb, isUnsigned);
  Type t = x.getType();
  if (isa<FloatType>(t)) {
    if (op == "Add")
      return arith::AddFOp::create(b, loc, x, y);
    if (op == "Sub")
      return arith::SubFOp::create(b, loc, x, y);
    if (op == "Mul")
      return arith::MulFOp::create(b, loc, x, y);
    if (op == "Div")
      return arith::DivFOp::create(b, loc, x, y);
    if (op == "Min")
      return arith::MinimumFOp::create(b, loc, x, y);
    if (op == "Max")
      return arith::MaximumFOp::create(b, loc, x, y);
    fail(op + " of floats is not supported");
  }
  if (op == "Add")
    return arith::AddIOp::create(b, loc, x, y);
  if (op == "Sub")
    return arith::SubIOp::create(b, loc, x, y);
  if (op == "Mul")
    return arith::MulIOp::create(b, loc, x, y);
  if (op == "Div")
    return isUnsigned ? Value(arith::DivUIOp::create(b, loc, x, y))
                      : Value(arith::DivSIOp::create(b, loc, x, y));
  if (op == "Mod")
    return isUnsigned ? Value(arith::RemUIOp::create(b, loc, x, y))
                      : Value(arith::RemSIOp::create(b, loc, x, y));
  if (isUnsigned) {
    if (op == "FloorDiv")
      return arith::DivUIOp::create(b, loc, x, y);
    if (op == "FloorMod")
      return arith::RemUIOp::create(b, loc, x, y);
    if (op == "Min")
      return arith::MinUIOp::create(b, loc, x, y);
    return arith::MaxUIOp::create(b, loc, x, y);
  }
  if (op == "FloorDiv")
    return arith::FloorDivSIOp::create(b, loc, x, y);
  if (op == "Min")
    return arith::MinSIOp::create(b, loc, x, y);
  if (op == "Max")
    return arith::MaxSIOp::create(b, loc, x, y);
  // Signed floor modulo: a - (a // b) * b.
  Value q = arith::FloorDivSIOp::create(b, loc, x, y);
  Value again =
      typeName(bb) == "IntImm" ? intConstant(t, intOf(bb.attr("value"))) : y;
  return arith::SubIOp::create(b, loc, x,
                               arith::MulIOp::create(b, loc, q, again));
}

Value FunctionBuilder::compareValues(const std::string &op, py::handle a,
                                     py::handle bb) {
  bool isUnsigned = false;
  auto [x, y] = unify(a, bb, isUnsigned);
  if (isa<FloatType>(x.getType())) {
    arith::CmpFPredicate p = op == "EQ"   ? arith::CmpFPredicate::OEQ
                             : op == "NE" ? arith::CmpFPredicate::ONE
                             : op == "LT" ? arith::CmpFPredicate::OLT
                             : op == "LE" ? arith::CmpFPredicate::OLE
                             : op == "GT" ? arith::CmpFPredicate::OGT
                                          : arith::CmpFPredicate::OGE;
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  using P = arith::CmpIPredicate;
  P p = op == "EQ"   ? P::eq
        : op == "NE" ? P::ne
        : op == "LT" ? (isUnsigned ? P::ult : P::slt)
        : op == "LE" ? (isUnsigned ? P::ule : P::sle)
        : op == "GT" ? (isUnsigned ? P::ugt : P::sgt)
                     : (isUnsigned ? P::uge : P::sge);
  return arith::CmpIOp::create(b, loc, p, x, y);
}

Value FunctionBuilder::call(py::handle e) {
  std::string name = py::str(e.attr("op").attr("name")).cast<std::string>();
  if (StringRef(name).starts_with("tir."))
    name = name.substr(4);
  py::list args = e.attr("args");
  std::string dtype = dtypeOf(e);
  static const std::pair<StringRef, StringRef> math[] = {
      {"exp", "math.exp"},         {"sqrt", "math.sqrt"},
      {"log", "math.log"},         {"tanh", "math.tanh"},
      {"floor", "math.floor"},     {"ceil", "math.ceil"},
      {"round", "math.roundeven"}, {"abs", "math.absf"},
      {"sin", "math.sin"},         {"cos", "math.cos"},
      {"exp2", "math.exp2"},       {"log2", "math.log2"},
      {"erf", "math.erf"},         {"rsqrt", "math.rsqrt"}};
  for (auto [fn, opName] : math)
    if (name == fn && args.size() == 1) {
      Value v = value(args[0]);
      if (!isa<FloatType>(v.getType()))
        v = convert(v, scalarType(dtype), false, false);
      OperationState state(loc, opName);
      state.addOperands(v);
      state.addTypes(v.getType());
      return b.create(state)->getResult(0);
    }
  auto arity = [&](size_t n) {
    if (args.size() != n)
      fail("T." + name + " takes " + std::to_string(n) + " arguments, got " +
           std::to_string(args.size()));
  };
  if (name == "ceildiv") {
    arity(2);
    bool isUnsigned = false;
    auto [x, y] = unify(args[0], args[1], isUnsigned);
    return isUnsigned ? Value(arith::CeilDivUIOp::create(b, loc, x, y))
                      : Value(arith::CeilDivSIOp::create(b, loc, x, y));
  }
  if (name == "vscale")
    return vscale();
  if (name == "if_then_else") {
    arity(3);
    // Only the side the condition picks is evaluated: an scf.if.
    Value c = value(args[0]);
    Type type = scalarType(dtype);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, c, true);
    for (int side = 0; side < 2; ++side) {
      OpBuilder::InsertionGuard guard(b);
      Block *block = side ? ifOp.elseBlock() : ifOp.thenBlock();
      b.setInsertionPointToStart(block);
      scf::YieldOp::create(
          b, loc, valueOf(args[side + 1], type, isUnsignedDtype(dtype)));
    }
    return ifOp.getResult(0);
  }
  static const std::pair<StringRef, StringRef> bitwise[] = {
      {"shift_left", "arith.shli"},
      {"bitwise_and", "arith.andi"},
      {"bitwise_or", "arith.ori"},
      {"bitwise_xor", "arith.xori"}};
  for (auto [fn, opName] : bitwise)
    if (name == fn && args.size() == 2) {
      bool isUnsigned = false;
      auto [x, y] = unify(args[0], args[1], isUnsigned);
      OperationState state(loc, opName);
      state.addOperands({x, y});
      state.addTypes(x.getType());
      return b.create(state)->getResult(0);
    }
  if (name == "shift_right" && args.size() == 2) {
    bool isUnsigned = false;
    auto [x, y] = unify(args[0], args[1], isUnsigned);
    return isUnsigned ? Value(arith::ShRUIOp::create(b, loc, x, y))
                      : Value(arith::ShRSIOp::create(b, loc, x, y));
  }
  // Any other intrinsic: tir.call "<name>"(args) (TVM's extern calls take
  // their result's dtype first, which is the node's).
  SmallVector<Value> operands;
  SmallVector<Attribute> attrs;
  for (py::handle arg : args) {
    std::string kind = typeName(arg);
    if (kind == "StringImm") {
      attrs.push_back(
          b.getStringAttr(py::str(arg.attr("value")).cast<std::string>()));
    } else if (kind == "IntImm" && dtypeOf(arg) == "bool") {
      attrs.push_back(b.getBoolAttr(intOf(arg.attr("value")) != 0));
    } else if (kind == "IntImm" && dtypeOf(arg) == "int32") {
      attrs.push_back(b.getI32IntegerAttr(intOf(arg.attr("value"))));
    } else if (kind == "FloatImm") {
      Type t = scalarType(dtypeOf(arg));
      attrs.push_back(b.getFloatAttr(t, arg.attr("value").cast<double>()));
    } else if (isa_(arg, "Var") && dtypeOf(arg) == "handle") {
      // A buffer's data.
      Value memref;
      for (auto &[node, buf] : bufferNodes)
        if (buf.attr("data").ptr() == arg.ptr())
          memref = buffers.lookup(node);
      if (!memref)
        fail("a handle that is no buffer's data in a call of " + name);
      operands.push_back(memref);
      attrs.push_back(b.getUnitAttr());
    } else {
      operands.push_back(value(arg));
      attrs.push_back(b.getUnitAttr());
    }
  }
  SmallVector<Type> results;
  if (dtype != "handle" && dtype != "void")
    results.push_back(scalarType(dtype));
  OperationState state(loc, CallOp::getOperationName());
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttribute("callee", b.getStringAttr(name));
  state.addAttribute("args", b.getArrayAttr(attrs));
  Operation *op = b.create(state);
  return op->getNumResults() ? op->getResult(0) : Value();
}

//===----------------------------------------------------------------------===//
// Conditions and regions
//===----------------------------------------------------------------------===//

bool FunctionBuilder::condition(py::handle e, SmallVectorImpl<Value> &inputs,
                                SmallVector<Conjunction> &out) {
  std::string kind = typeName(e);
  if (kind == "IntImm") {
    // True: 0 == 0; False: 0 == 1.
    Conjunction c;
    c.constraints.push_back(
        getAffineConstantExpr(intOf(e.attr("value")) ? 0 : -1, ctx()));
    c.eqFlags.push_back(true);
    out.push_back(c);
    return true;
  }
  if (kind == "And" || kind == "Or") {
    SmallVector<Conjunction> l, r;
    if (!condition(e.attr("a"), inputs, l) ||
        !condition(e.attr("b"), inputs, r))
      return false;
    if (kind == "Or") {
      out.append(l);
      out.append(r);
    } else {
      out.append(conjoinConditions(l, r));
    }
    return true;
  }
  if (kind == "Not") {
    SmallVector<Conjunction> inner;
    if (!condition(e.attr("a"), inputs, inner))
      return false;
    out.append(negateCondition(inner));
    return true;
  }
  static const std::pair<const char *, IndexComparison> cmps[] = {
      {"LT", IndexComparison::LT},
      {"LE", IndexComparison::LE},
      {"GT", IndexComparison::GT},
      {"GE", IndexComparison::GE},
      {"EQ", IndexComparison::EQ}};
  py::object a = e.attr("a"), bb = e.attr("b");
  auto indexLike = [&](py::handle x) {
    // Index expressions, and integers computed from index values only.
    return isIndexExpr(x);
  };
  if (kind == "NE") {
    if (!indexLike(a) || !indexLike(bb))
      return false;
    AffineExpr l = indexExpr(a, inputs), r = indexExpr(bb, inputs);
    out.append(negateCondition({compareIndexExprs(IndexComparison::EQ, l, r)}));
    return true;
  }
  for (auto [name, cmp] : cmps)
    if (kind == name) {
      if (!indexLike(a) || !indexLike(bb))
        return false;
      AffineExpr l = indexExpr(a, inputs), r = indexExpr(bb, inputs);
      out.push_back(compareIndexExprs(cmp, l, r));
      return true;
    }
  return false;
}

RegionExprs
FunctionBuilder::region(py::handle bufferRegion, unsigned numIterVars,
                        SmallVectorImpl<Value> &regionValues,
                        DenseMap<Value, unsigned> &iterVarPositions) {
  // Inputs: the block's iteration variables first, then region values.
  SmallVector<Value> inputs;
  RegionExprs out;
  SmallVector<std::pair<AffineExpr, AffineExpr>> dims;
  for (py::handle range : bufferRegion.attr("region")) {
    AffineExpr start = indexExpr(range.attr("min"), inputs);
    AffineExpr extent = indexExpr(range.attr("extent"), inputs);
    dims.push_back({start, extent});
  }
  SmallVector<AffineExpr> repl;
  for (Value v : inputs) {
    auto it = iterVarPositions.find(v);
    if (it != iterVarPositions.end()) {
      repl.push_back(getAffineDimExpr(it->second, ctx()));
      continue;
    }
    auto known = llvm::find(regionValues, v);
    unsigned pos = known - regionValues.begin();
    if (known == regionValues.end())
      regionValues.push_back(v);
    repl.push_back(getAffineDimExpr(numIterVars + pos, ctx()));
  }
  for (auto [start, extent] : dims) {
    out.starts.push_back(start.replaceDims(repl));
    out.extents.push_back(extent.replaceDims(repl));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

MemRefType FunctionBuilder::memrefType(py::handle buffer,
                                       SmallVectorImpl<Value> *dynSizes) {
  SmallVector<int64_t> shape;
  for (py::handle d : buffer.attr("shape")) {
    if (typeName(d) == "IntImm") {
      shape.push_back(intOf(d.attr("value")));
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    if (dynSizes)
      dynSizes->push_back(indexValue(d));
  }
  std::string scope = py::str(buffer.attr("scope")()).cast<std::string>();
  Attribute space =
      scope.empty() || scope == "global" ? Attribute() : b.getStringAttr(scope);
  return MemRefType::get(shape, scalarType(py::str(buffer.attr("dtype"))),
                         MemRefLayoutAttrInterface(), space);
}

Value FunctionBuilder::bufferOf(py::handle buffer) {
  auto it = buffers.find(buffer.ptr());
  if (it == buffers.end())
    fail("buffer " + py::str(buffer.attr("name")).cast<std::string>() +
         " is used where nothing declares it (a parameter's buffer_map, "
         "alloc_buffers or match_buffers)");
  return it->second;
}

DictionaryAttr FunctionBuilder::annotations(py::handle dict) {
  SmallVector<NamedAttribute> attrs;
  for (auto item : py::reinterpret_borrow<py::dict>(dict))
    attrs.push_back(b.getNamedAttr(py::str(item.first).cast<std::string>(),
                                   annotation(item.second)));
  return attrs.empty() ? DictionaryAttr() : b.getDictionaryAttr(attrs);
}

Attribute FunctionBuilder::annotation(py::handle v) {
  if (py::isinstance<py::bool_>(v))
    return b.getBoolAttr(v.cast<bool>());
  if (py::isinstance<py::int_>(v))
    return b.getI64IntegerAttr(intOf(v));
  if (py::isinstance<py::float_>(v))
    return b.getF64FloatAttr(v.cast<double>());
  if (py::isinstance<py::str>(v))
    return b.getStringAttr(v.cast<std::string>());
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    SmallVector<Attribute> items;
    for (py::handle x : v)
      items.push_back(annotation(x));
    return b.getArrayAttr(items);
  }
  if (py::isinstance<py::dict>(v))
    return annotations(v);
  std::string kind = typeName(v);
  if (kind == "IntImm" && dtypeOf(v) == "bool")
    return b.getBoolAttr(intOf(v.attr("value")) != 0);
  if (kind == "IntImm")
    return b.getI64IntegerAttr(intOf(v.attr("value")));
  if (kind == "FloatImm")
    return b.getF64FloatAttr(v.attr("value").cast<double>());
  if (kind == "StringImm")
    return b.getStringAttr(py::str(v.attr("value")).cast<std::string>());
  fail("an annotation value of type " + kind +
       " (annotations are bool, int, float, str, lists and dicts)");
}

bool FunctionBuilder::regionsHold(py::handle block) {
  py::list reads = block.attr("reads"), writes = block.attr("writes");
  if (!py::hasattr(block, "_read_with"))
    return reads.size() || writes.size();
  py::tuple source = block.attr("_read_with");
  auto same = [](py::handle a, py::handle b) {
    py::list x = py::reinterpret_borrow<py::list>(a);
    py::list y = py::list(py::reinterpret_borrow<py::object>(b));
    if (x.size() != y.size())
      return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].ptr() != y[i].ptr())
        return false;
    return true;
  };
  if (!same(reads, source[2]) || !same(writes, source[3]))
    return true; // set by hand
  return block.attr("body").ptr() == source[0].ptr() &&
         block.attr("init").ptr() == source[1].ptr() &&
         same(block.attr("match_buffers"), source[4]);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void FunctionBuilder::stmt(py::handle s) {
  std::string kind = typeName(s);
  if (kind == "SeqStmt") {
    for (py::handle x : s.attr("seq"))
      stmt(x);
    return;
  }
  if (kind == "For")
    return forLoop(s);
  if (kind == "BlockRealize")
    return blockRealize(s);
  if (kind == "BufferStore")
    return store(s);
  if (kind == "LetStmt") {
    // The name of a value (TVMScript's alias), in scope in the body.
    // An index expression names an index value, as the parser's alias of
    // one does.
    py::object var = s.attr("var"), v = s.attr("value");
    vars[var.ptr()] = isIndexExpr(v) ? materializeIndex(v) : value(v);
    stmt(s.attr("body"));
    vars.erase(var.ptr());
    return;
  }
  if (kind == "Evaluate") {
    py::object v = s.attr("value");
    if (typeName(v) == "IntImm")
      return; // T.evaluate(0)
    if (typeName(v) != "Call")
      fail("T.evaluate of a " + typeName(v) + " (only calls have effects)");
    call(v);
    return;
  }
  if (kind == "IfThenElse") {
    Value c = value(s.attr("condition"));
    if (!c.getType().isInteger(1))
      fail("an if statement needs a boolean condition");
    bool hasElse = !s.attr("else_case").is_none();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, c, hasElse);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      stmt(s.attr("then_case"));
      if (hasElse) {
        b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
        stmt(s.attr("else_case"));
      }
    }
    return;
  }
  fail("tir." + kind + " has no form as a tir statement");
}

std::pair<OpFoldResult, OpFoldResult>
FunctionBuilder::bounds(py::handle min, py::handle extent) {
  OpFoldResult lo;
  if (typeName(min) == "IntImm")
    lo = b.getIndexAttr(intOf(min.attr("value")));
  else
    lo = indexValue(min);
  if (typeName(min) == "IntImm" && intOf(min.attr("value")) == 0 &&
      !isIndexExpr(extent))
    return {lo, indexValue(extent)};
  if (!isIndexExpr(min) || !isIndexExpr(extent)) {
    Value l = isa<Value>(lo) ? cast<Value>(lo) : indexValue(min);
    return {lo, Value(arith::AddIOp::create(b, loc, l, indexValue(extent)))};
  }
  SmallVector<Value> inputs;
  AffineExpr end = simplifyIndexExpr(
      indexExpr(min, inputs) + indexExpr(extent, inputs), inputs.size(), 0);
  if (auto k = dyn_cast<AffineConstantExpr>(end))
    return {lo, b.getIndexAttr(k.getValue())};
  if (auto d = dyn_cast<AffineDimExpr>(end))
    return {lo, inputs[d.getPosition()]};
  if (typeName(min) == "IntImm" && intOf(min.attr("value")) == 0)
    return {lo, indexValue(extent)};
  Value l = isa<Value>(lo) ? cast<Value>(lo) : indexValue(min);
  return {lo, Value(arith::AddIOp::create(b, loc, l, indexValue(extent)))};
}

void FunctionBuilder::forLoop(py::handle s) {
  auto [lo, hi] = bounds(s.attr("min"), s.attr("extent"));
  int kindValue = s.attr("kind").cast<int>();
  static const ForKind kinds[] = {ForKind::Serial, ForKind::Parallel,
                                  ForKind::Vectorized, ForKind::Unrolled,
                                  ForKind::ThreadBinding};
  if (kindValue < 0 || kindValue > 4)
    fail("a For of kind " + std::to_string(kindValue) + " has no tir loop");
  StringAttr thread;
  if (kinds[kindValue] == ForKind::ThreadBinding) {
    py::object binding = s.attr("thread_binding");
    std::string tag =
        py::hasattr(binding, "thread_tag")
            ? py::str(binding.attr("thread_tag")).cast<std::string>()
            : py::str(binding).cast<std::string>();
    thread = b.getStringAttr(tag);
  }
  auto loop = ForOp::create(b, loc, lo, hi, kinds[kindValue], thread);
  py::object var = s.attr("loop_var");
  loop.setVarNameAttr(
      b.getStringAttr(py::str(var.attr("name")).cast<std::string>()));
  if (DictionaryAttr ann = annotations(s.attr("annotations")))
    loop.setAnnotationsAttr(ann);
  vars[var.ptr()] = loop.getInductionVar();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  if (!loop.getBody()->empty())
    b.setInsertionPoint(&loop.getBody()->back());
  stmt(s.attr("body"));
  vars.erase(var.ptr());
}

Value FunctionBuilder::declareBuffer(py::handle buffer) {
  SmallVector<Value> dyn;
  MemRefType type = memrefType(buffer, &dyn);
  std::string name = py::str(buffer.attr("name")).cast<std::string>();
  auto alloc = AllocBufferOp::create(b, loc, type, dyn, b.getStringAttr(name),
                                     DenseI64ArrayAttr());
  if (py::hasattr(buffer, "axis_separators")) {
    SmallVector<int64_t> seps;
    for (py::handle x : buffer.attr("axis_separators"))
      seps.push_back(intOf(x));
    if (!seps.empty())
      alloc.setAxisSeparatorsAttr(b.getDenseI64ArrayAttr(seps));
  }
  std::string dtype = py::str(buffer.attr("dtype")).cast<std::string>();
  if (isUnsignedDtype(dtype))
    alloc->setAttr(TIRDialect::kDtypeAttrName, b.getStringAttr(dtype));
  buffers[buffer.ptr()] = alloc.getBuffer();
  bufferNodes[buffer.ptr()] = py::reinterpret_borrow<py::object>(buffer);
  return alloc.getBuffer();
}

void FunctionBuilder::blockRealize(py::handle s) {
  py::object block = s.attr("block");
  py::list iterVars = block.attr("iter_vars");
  py::list values = s.attr("iter_values");
  // Domains and bindings, then the predicate, over the binding inputs.
  SmallVector<Value> inputs;
  SmallVector<IterVarSpec> specs;
  SmallVector<std::string> names;
  for (auto [iv, v] : llvm::zip(iterVars, values)) {
    py::object dom = iv.attr("dom");
    py::object min = dom.attr("min"), extent = dom.attr("extent");
    IterVarSpec spec;
    int type = iv.attr("iter_type").cast<int>();
    spec.type = type == 0   ? IterType::Spatial
                : type == 2 ? IterType::Reduce
                : type == 3 ? IterType::Scan
                : type == 4 ? IterType::Opaque
                            : (fail("iteration variable of iter_type " +
                                    std::to_string(type) + " has no tir kind"),
                               IterType::Spatial);
    std::tie(spec.lower, spec.upper) = bounds(min, extent);
    spec.binding = indexExpr(v, inputs);
    names.push_back(py::str(iv.attr("var").attr("name")).cast<std::string>());
    specs.push_back(spec);
  }
  for (auto [spec, name] : llvm::zip(specs, names))
    spec.name = name;
  SmallVector<Conjunction> predicate;
  Value conditionValue;
  py::object pred = s.attr("predicate");
  bool always = typeName(pred) == "IntImm" && intOf(pred.attr("value"));
  if (!always) {
    SmallVector<Value> trial(inputs);
    if (condition(pred, trial, predicate)) {
      inputs = trial;
      for (Conjunction &c : predicate)
        for (AffineExpr &e : c.constraints)
          e = simplifyIndexExpr(e, inputs.size(), 0);
    } else {
      predicate.clear();
      conditionValue = value(pred);
    }
  }
  // Regions: over the iteration variables, then other values.
  BlockRegionsSpec regions;
  bool hold = regionsHold(block);
  auto op = BlockOp::create(
      b, loc, py::str(block.attr("name_hint")).cast<std::string>(), specs,
      inputs, nullptr, predicate, nullptr);
  if (conditionValue) {
    op.getConditionMutable().assign(conditionValue);
  }
  Block *body = op.getBody();
  DenseMap<Value, unsigned> positions;
  for (auto [k, iv] : llvm::enumerate(iterVars)) {
    vars[iv.attr("var").ptr()] = body->getArgument(k);
    positions[body->getArgument(k)] = k;
  }
  OpBuilder::InsertionGuard guard(b);
  if (hold) {
    // Values the regions compute come before the block.
    b.setInsertionPoint(op);
    py::list reads = block.attr("reads"), writes = block.attr("writes");
    for (py::handle r : reads)
      regions.reads.push_back(
          {bufferOf(r.attr("buffer")),
           region(r, iterVars.size(), regions.regionValues, positions)});
    for (py::handle w : writes)
      regions.writes.push_back(
          {bufferOf(w.attr("buffer")),
           region(w, iterVars.size(), regions.regionValues, positions)});
  }
  b.setInsertionPointToStart(body);
  for (py::handle buf : block.attr("alloc_buffers"))
    declareBuffer(buf);
  for (py::handle match : block.attr("match_buffers")) {
    py::object view = match.attr("buffer"), source = match.attr("source");
    Value src = bufferOf(source.attr("buffer"));
    SmallVector<Value> matchInputs;
    RegionExprs r;
    for (py::handle range : source.attr("region")) {
      r.starts.push_back(indexExpr(range.attr("min"), matchInputs));
      r.extents.push_back(indexExpr(range.attr("extent"), matchInputs));
    }
    auto srcType = cast<MemRefType>(src.getType());
    auto [strides, offset] = srcType.getStridesAndOffset();
    SmallVector<int64_t> shape;
    for (py::handle d : view.attr("shape")) {
      if (typeName(d) != "IntImm")
        fail("the shape of a matched region is integer constants");
      shape.push_back(intOf(d.attr("value")));
    }
    if (shape.size() > strides.size())
      fail("the matched shape has more dimensions than the buffer");
    auto layout = StridedLayoutAttr::get(
        ctx(), ShapedType::kDynamic,
        ArrayRef<int64_t>(strides).take_back(shape.size()));
    auto type = MemRefType::get(shape, srcType.getElementType(), layout,
                                srcType.getMemorySpace());
    OperationState state(loc, MatchBufferOp::getOperationName());
    state.addOperands(src);
    state.addOperands(matchInputs);
    state.addAttribute("source_region", AffineMapAttr::get(buildRegionMap(
                                            matchInputs.size(), r, ctx())));
    state.addTypes(type);
    Value result = b.create(state)->getResult(0);
    buffers[view.ptr()] = result;
    bufferNodes[view.ptr()] = view;
  }
  py::object init = block.attr("init");
  if (!init.is_none()) {
    auto initOp = InitOp::create(b, loc);
    if (initOp->getRegion(0).empty())
      initOp->getRegion(0).emplaceBlock();
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&initOp->getRegion(0).front());
    stmt(init);
  }
  stmt(block.attr("body"));
  if (DictionaryAttr ann = annotations(block.attr("annotations")))
    op.setAnnotationsAttr(ann);
  if (hold) {
    // The regions are over values defined before the block.
    unsigned n = iterVars.size() + regions.regionValues.size();
    auto maps = [&](ArrayRef<std::pair<Value, RegionExprs>> list) {
      SmallVector<Attribute> out;
      for (const auto &[buf, r] : list)
        out.push_back(AffineMapAttr::get(buildRegionMap(n, r, ctx())));
      return b.getArrayAttr(out);
    };
    SmallVector<Value> readBuffers, writeBuffers;
    for (auto &[buf, r] : regions.reads)
      readBuffers.push_back(buf);
    for (auto &[buf, r] : regions.writes)
      writeBuffers.push_back(buf);
    op.getRegionValuesMutable().assign(regions.regionValues);
    op.getReadBuffersMutable().assign(readBuffers);
    op.getWriteBuffersMutable().assign(writeBuffers);
    op.setReadRegionsAttr(maps(regions.reads));
    op.setWriteRegionsAttr(maps(regions.writes));
  }
  for (py::handle iv : iterVars)
    vars.erase(iv.attr("var").ptr());
}

void FunctionBuilder::store(py::handle s) {
  py::object buf = s.attr("buffer");
  Value memref = bufferOf(buf);
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Value stored = valueOf(s.attr("value"), element,
                         isUnsignedDtype(py::str(buf.attr("dtype"))));
  SmallVector<Value> inputs;
  SmallVector<AffineExpr> exprs;
  for (py::handle i : s.attr("indices"))
    exprs.push_back(indexExpr(i, inputs));
  StoreOp::create(b, loc, stored, memref,
                  makeInputMap(inputs.size(), exprs, ctx()), inputs);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> FunctionBuilder::build(const std::string &name,
                                             py::handle params,
                                             py::handle bufferMap,
                                             py::handle body, bool isPrivate) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  py::dict map = py::reinterpret_borrow<py::dict>(bufferMap);
  SmallVector<Type> argTypes;
  SmallVector<py::object> paramList;
  for (py::handle p : params) {
    if (!isa_(p, "Var"))
      fail("params are tir.Vars (a buffer parameter is a handle Var mapped "
           "to its Buffer in buffer_map), got a " +
           typeName(p));
    paramList.push_back(py::reinterpret_borrow<py::object>(p));
    if (map.contains(p)) {
      argTypes.push_back(memrefType(map[p], nullptr));
      continue;
    }
    std::string dtype = dtypeOf(p);
    if (!StringRef(dtype).starts_with("int"))
      fail("a parameter that is not a buffer is an integer (an index), but " +
           py::str(p.attr("name")).cast<std::string>() + " is a " + dtype +
           (dtype == "handle" ? " with no Buffer in buffer_map" : ""));
    argTypes.push_back(b.getIndexType());
  }
  auto func =
      func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  if (isPrivate)
    func.setPrivate();
  entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // Scalars, then the buffers; a dimension that is a variable names it
  // (tir.dim_vars); a shape variable no scalar parameter defines is read
  // from the first dimension it sizes.
  for (auto [i, p] : llvm::enumerate(paramList)) {
    std::string pname = py::str(p.attr("name")).cast<std::string>();
    if (!map.contains(p)) {
      vars[p.ptr()] = func.getArgument(i);
      dimVarNames[p.ptr()] = pname;
      usedDimVarNames.insert(pname);
      func.setArgAttr(i, TIRDialect::kNameAttrName, b.getStringAttr(pname));
    }
  }
  for (auto [i, p] : llvm::enumerate(paramList)) {
    if (!map.contains(p))
      continue;
    py::object buf = map[p];
    Value arg = func.getArgument(i);
    std::string bname = py::str(buf.attr("name")).cast<std::string>();
    func.setArgAttr(i, TIRDialect::kNameAttrName, b.getStringAttr(bname));
    buffers[buf.ptr()] = arg;
    bufferNodes[buf.ptr()] = buf;
    std::string dtype = py::str(buf.attr("dtype")).cast<std::string>();
    if (isUnsignedDtype(dtype))
      func.setArgAttr(i, TIRDialect::kDtypeAttrName, b.getStringAttr(dtype));
    if (py::hasattr(buf, "axis_separators")) {
      SmallVector<int64_t> seps;
      for (py::handle x : buf.attr("axis_separators"))
        seps.push_back(intOf(x));
      if (!seps.empty())
        func.setArgAttr(i, TIRDialect::kAxisSeparatorsAttrName,
                        b.getDenseI64ArrayAttr(seps));
    }
    SmallVector<Attribute> dimVars;
    bool anyDynamic = false;
    for (auto [k, d] : llvm::enumerate(py::list(buf.attr("shape")))) {
      if (typeName(d) == "IntImm") {
        dimVars.push_back(b.getStringAttr(""));
        continue;
      }
      anyDynamic = true;
      if (!isa_(d, "Var")) {
        dimVars.push_back(b.getStringAttr(""));
        continue;
      }
      // One name per variable: distinct variables of one name are told
      // apart (v, v_1, ...).
      auto named = dimVarNames.find(d.ptr());
      if (named == dimVarNames.end()) {
        std::string base = py::str(d.attr("name")).cast<std::string>();
        std::string unique = base;
        for (int n = 1; usedDimVarNames.count(unique); ++n)
          unique = base + "_" + std::to_string(n);
        usedDimVarNames.insert(unique);
        named = dimVarNames.try_emplace(d.ptr(), unique).first;
      }
      dimVars.push_back(b.getStringAttr(named->second));
      if (!vars.count(d.ptr()))
        vars[d.ptr()] = memref::DimOp::create(b, loc, arg, k);
    }
    if (anyDynamic)
      func.setArgAttr(i, TIRDialect::kDimVarsAttrName, b.getArrayAttr(dimVars));
  }
  // The root block's buffers are the function's, its body the function's
  // (TVM's implicit root), unless it says more than a root block does.
  py::object stmts = py::reinterpret_borrow<py::object>(body);
  if (typeName(body) == "BlockRealize") {
    py::object root = body.attr("block");
    if (py::len(body.attr("iter_values")) == 0 &&
        py::str(root.attr("name_hint")).cast<std::string>() == "root" &&
        py::len(root.attr("reads")) == 0 && py::len(root.attr("writes")) == 0 &&
        root.attr("init").is_none() &&
        py::len(root.attr("match_buffers")) == 0 &&
        py::len(root.attr("annotations")) == 0) {
      for (py::handle buf : root.attr("alloc_buffers"))
        declareBuffer(buf);
      stmts = root.attr("body");
    }
  }
  stmt(stmts);
  func::ReturnOp::create(b, loc);
  return module;
}

} // namespace

void tirpy::bindFromNodes(py::module_ &m) {
  m.def(
      "function_from_nodes",
      [](const std::string &name, py::object params, py::object bufferMap,
         py::object body, bool isPrivate) {
        Location loc =
            FileLineColLoc::get(&context(), "<PrimFunc " + name + ">", 0, 0);
        OwningOpRef<ModuleOp> module;
        try {
          module = FunctionBuilder(loc).build(name, params, bufferMap, body,
                                              isPrivate);
        } catch (const BadNodes &e) {
          throw py::value_error(e.what());
        }
        DiagnosticCollector diags;
        if (failed(verify(*module)))
          throw py::value_error(diags.take());
        return PyModule::own(std::move(module));
      },
      py::arg("name"), py::arg("params"), py::arg("buffer_map"),
      py::arg("body"), py::arg("private") = false,
      "A module of one tir function built from tvm.tir nodes (its params, "
      "{param: Buffer} and body), checked by the verifier.");
}
