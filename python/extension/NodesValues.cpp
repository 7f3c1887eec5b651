//===- NodesValues.cpp - tir values as tvm.tir expressions ----------------===//
//
// NodeBuilder's expressions (see Nodes.h): values, constants, calls, index
// expressions, annotations; and Analyzer.simplify's integer expressions
// through tir's index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Nodes.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <pybind11/stl.h>

// Nodes.h brings pybind11 (py), mlir and mlir::tir into tirpy::nodes.
using namespace tirpy;
using namespace tirpy::nodes;
using tvmscript::dtypeName;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

py::object NodeBuilder::expr(Value v) {
  if (auto it = bound_.find(v); it != bound_.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def)
    throw NoNodeForm(v.getParentBlock()->getParentOp(),
                     "a block argument with no variable");
  return opExpr(def, v);
}

py::object NodeBuilder::constant(arith::ConstantOp cst) {
  std::string dtype = dtypeName(cst.getType());
  if (auto f = dyn_cast<FloatAttr>(cst.getValue()))
    return cls("FloatImm")(dtype, f.getValueAsDouble());
  if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
    if (dtype == "bool")
      return boolean(i.getValue().getBoolValue());
    return cls("IntImm")(dtype, i.getInt());
  }
  throw NoNodeForm(cst, "a constant that is not a number");
}

py::object NodeBuilder::index(AffineExpr e, ArrayRef<py::object> inputs) {
  if (auto k = dyn_cast<AffineConstantExpr>(e))
    return i32(k.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return inputs[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return inputs[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  py::object l = index(bin.getLHS(), inputs);
  switch (e.getKind()) {
  case AffineExprKind::Add: {
    // a + b * (-k) and a + (-k) are subtractions, as the printer writes.
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(bin.getRHS());
        mul && mul.getKind() == AffineExprKind::Mul)
      if (auto k = dyn_cast<AffineConstantExpr>(mul.getRHS());
          k && k.getValue() < 0) {
        py::object rest = index(mul.getLHS(), inputs);
        if (k.getValue() == -1)
          return cls("Sub")(l, rest);
        return cls("Sub")(l, cls("Mul")(rest, i32(-k.getValue())));
      }
    if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS());
        k && k.getValue() < 0)
      return cls("Sub")(l, i32(-k.getValue()));
    return cls("Add")(l, index(bin.getRHS(), inputs));
  }
  case AffineExprKind::Mul:
    return cls("Mul")(l, index(bin.getRHS(), inputs));
  case AffineExprKind::FloorDiv:
    return cls("FloorDiv")(l, index(bin.getRHS(), inputs));
  case AffineExprKind::Mod:
    return cls("FloorMod")(l, index(bin.getRHS(), inputs));
  default: {
    py::list args;
    args.append(l);
    args.append(index(bin.getRHS(), inputs));
    return cls("Call")("int32", "tir.ceildiv", args);
  }
  }
}

py::object NodeBuilder::bound(OpFoldResult b) {
  if (auto attr = dyn_cast<Attribute>(b))
    return i32(cast<IntegerAttr>(attr).getInt());
  return expr(cast<Value>(b));
}

py::list NodeBuilder::indices(AffineMap map, ValueRange operands) {
  SmallVector<py::object> inputs;
  for (Value operand : operands)
    inputs.push_back(expr(operand));
  py::list out;
  for (AffineExpr e : getExprsOverInputs(map))
    out.append(index(e, inputs));
  return out;
}

py::object NodeBuilder::call(CallOp call) {
  py::list args;
  unsigned next = 0;
  StringRef callee = call.getCallee();
  std::string dtype = call->getNumResults()
                          ? dtypeName(call->getResult(0).getType())
                          : std::string("handle");
  for (Attribute attr : call.getArgs()) {
    if (isa<UnitAttr>(attr)) {
      Value v = call->getOperand(next++);
      if (isa<MemRefType>(v.getType())) {
        auto it = buffers.find(v);
        if (it == buffers.end())
          throw NoNodeForm(call, "a buffer argument with no buffer");
        args.append(it->second.attr("data"));
        continue;
      }
      args.append(expr(v));
    } else if (auto str = dyn_cast<StringAttr>(attr)) {
      args.append(cls("StringImm")(str.str()));
    } else if (auto b = dyn_cast<BoolAttr>(attr)) {
      args.append(boolean(b.getValue()));
    } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
      args.append(i32(i.getInt()));
    } else if (auto f = dyn_cast<FloatAttr>(attr)) {
      args.append(
          cls("FloatImm")(dtypeName(f.getType()), f.getValueAsDouble()));
    } else {
      throw NoNodeForm(call,
                       "an argument that is not a value, string or number");
    }
  }
  if (dtype.empty())
    throw NoNodeForm(call, "a result of a type TVM has no dtype for");
  return cls("Call")(dtype, ("tir." + callee).str(), args);
}

py::object NodeBuilder::opExpr(Operation *def, Value v) {
  auto operand = [&](unsigned i) { return expr(def->getOperand(i)); };
  std::string dtype = dtypeName(v.getType());
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return constant(cst);
  if (auto load = dyn_cast<LoadOp>(def)) {
    auto it = buffers.find(load.getBuffer());
    if (it == buffers.end())
      throw NoNodeForm(def, "a load of a buffer with no buffer node");
    return cls("BufferLoad")(it->second,
                             indices(load.getMap(), load.getIndices()));
  }
  if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
    auto it = buffers.find(meta.getSource());
    if (it != buffers.end()) {
      if (v == meta.getOffset())
        return it->second.attr("elem_offset");
      for (auto [k, stride] : llvm::enumerate(meta.getStrides()))
        if (v == stride)
          return it->second.attr("strides")[py::int_(k)];
    }
    throw NoNodeForm(def, "a buffer's base or sizes have no node form");
  }
  if (StringRef symbol = tvmscript::infixOperator(def); !symbol.empty()) {
    static const std::pair<StringRef, const char *> classes[] = {
        {"+", "Add"}, {"-", "Sub"},       {"*", "Mul"},
        {"/", "Div"}, {"//", "FloorDiv"}, {"%", "FloorMod"}};
    for (auto [sym, name] : classes)
      if (sym == symbol)
        return cls(name)(operand(0), operand(1));
  }
  if (StringRef fn = tvmscript::intrinsicName(def); !fn.empty()) {
    // TVM's node classes where it has them, calls of the intrinsic else.
    static const std::pair<StringRef, const char *> classes[] = {
        {"max", "Max"},
        {"min", "Min"},
        {"truncdiv", "Div"},
        {"truncmod", "Mod"}};
    for (auto [name, cl] : classes)
      if (fn == name)
        return cls(cl)(operand(0), operand(1));
    py::list args;
    for (unsigned i = 0; i < def->getNumOperands(); ++i)
      args.append(operand(i));
    return cls("Call")(dtype, ("tir." + fn).str(), args);
  }
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(def)) {
    // Boolean `and` / `or` / `not` (xor with true), bitwise otherwise.
    bool boolean = v.getType().isInteger(1);
    if (isa<arith::XOrIOp>(def) && boolean) {
      auto one = getConstantIntValue(def->getOperand(1));
      if (one && *one != 0)
        return cls("Not")(operand(0));
    }
    if (boolean && !isa<arith::XOrIOp>(def))
      return cls(isa<arith::AndIOp>(def) ? "And" : "Or")(operand(0),
                                                         operand(1));
    const char *fn = isa<arith::AndIOp>(def)  ? "tir.bitwise_and"
                     : isa<arith::OrIOp>(def) ? "tir.bitwise_or"
                                              : "tir.bitwise_xor";
    py::list args;
    args.append(operand(0));
    args.append(operand(1));
    return cls("Call")(dtype, fn, args);
  }
  if (auto c = dyn_cast<CallOp>(def))
    return call(c);
  if (isa<vector::VectorScaleOp>(def))
    return cls("Call")("int32", "tir.vscale", py::list());
  if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def)) {
    py::list args;
    args.append(operand(0));
    args.append(operand(1));
    return cls("Call")(dtype, "tir.ceildiv", args);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    SmallVector<py::object> inputs;
    for (Value i : apply.getMapOperands())
      inputs.push_back(expr(i));
    return index(getExprsOverInputs(apply.getAffineMap())[0], inputs);
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
    // T.if_then_else: each side a value its region computes.
    if (ifOp.getNumResults() != 1 || !ifOp.elseBlock())
      throw NoNodeForm(def, "only a one-value scf.if with an else side is "
                            "T.if_then_else");
    py::list args;
    args.append(operand(0));
    for (Block *side : {ifOp.thenBlock(), ifOp.elseBlock()}) {
      for (Operation &op : side->without_terminator())
        if (!isa<LoadOp>(op) && !isMemoryEffectFree(&op))
          throw NoNodeForm(&op, "an op with effects inside T.if_then_else");
      args.append(expr(side->getTerminator()->getOperand(0)));
    }
    return cls("Call")(dtype, "tir.if_then_else", args);
  }
  if (isa<arith::SelectOp>(def))
    return cls("Select")(operand(0), operand(1), operand(2));
  if (isa<arith::CmpFOp, arith::CmpIOp>(def)) {
    static const std::pair<StringRef, const char *> classes[] = {
        {"<", "LT"},  {"<=", "LE"}, {">", "GT"},
        {">=", "GE"}, {"==", "EQ"}, {"!=", "NE"}};
    StringRef symbol = tvmscript::comparisonOperator(def);
    for (auto [sym, name] : classes)
      if (sym == symbol)
        return cls(name)(operand(0), operand(1));
    throw NoNodeForm(def, "a comparison TVM has no form for");
  }
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp, arith::ExtUIOp,
          arith::UIToFPOp, arith::FPToUIOp, arith::IndexCastUIOp>(def)) {
    // An integer made an index is the integer (TVM has no index type).
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def) &&
        v.getType().isIndex())
      return operand(0);
    return cls("Cast")(isa<arith::FPToUIOp>(def) ? "u" + dtype : dtype,
                       operand(0));
  }
  throw NoNodeForm(def, "no TVM expression computes it");
}

py::object NodeBuilder::annotation(Attribute a, Operation *owner) {
  if (auto b = dyn_cast<BoolAttr>(a))
    return py::bool_(b.getValue());
  if (auto i = dyn_cast<IntegerAttr>(a))
    return py::int_(i.getInt());
  if (auto f = dyn_cast<FloatAttr>(a))
    return py::float_(f.getValueAsDouble());
  if (auto s = dyn_cast<StringAttr>(a))
    return py::str(s.str());
  if (auto array = dyn_cast<ArrayAttr>(a)) {
    py::list out;
    for (Attribute item : array)
      out.append(annotation(item, owner));
    return out;
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(a)) {
    py::list out;
    for (int64_t item : array.asArrayRef())
      out.append(py::int_(item));
    return out;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(a))
    return annotations(dict, owner);
  std::string text;
  llvm::raw_string_ostream(text) << a;
  throw NoNodeForm(owner, "an annotation " + text +
                              " that is no bool, int, float, str, list or "
                              "dict");
}

py::dict NodeBuilder::annotations(DictionaryAttr dict, Operation *owner) {
  py::dict out;
  if (dict)
    for (NamedAttribute a : dict)
      out[py::str(a.getName().str())] = annotation(a.getValue(), owner);
  return out;
}

//===----------------------------------------------------------------------===//
// Analyzer.simplify
//===----------------------------------------------------------------------===//

AffineExpr NodeBuilder::toIndexExpr(py::handle e,
                                    SmallVectorImpl<py::object> &leaves) {
  MLIRContext *ctx = &context();
  std::string kind = py::str(py::type::of(e).attr("__name__"));
  auto leaf = [&](py::handle x, bool isVscale) {
    for (auto [k, l] : llvm::enumerate(leaves))
      if (l.ptr() == x.ptr() ||
          (isVscale &&
           py::str(py::type::of(l).attr("__name__")).cast<std::string>() ==
               "Call"))
        return getAffineDimExpr(k, ctx);
    leaves.push_back(py::reinterpret_borrow<py::object>(x));
    return getAffineDimExpr(leaves.size() - 1, ctx);
  };
  if (kind == "IntImm") {
    std::string dtype = py::str(e.attr("dtype"));
    if (dtype == "bool")
      return {};
    return getAffineConstantExpr(e.attr("value").cast<int64_t>(), ctx);
  }
  if (py::isinstance(e, cls("Var")))
    return leaf(e, false);
  if (kind == "Call") {
    std::string op = py::str(e.attr("op").attr("name"));
    py::list args = e.attr("args");
    if (op == "tir.vscale" && args.empty())
      return leaf(e, true);
    if (op != "tir.ceildiv" || args.size() != 2)
      return {};
    AffineExpr a = toIndexExpr(args[0], leaves);
    AffineExpr b = a ? toIndexExpr(args[1], leaves) : AffineExpr();
    return b ? a.ceilDiv(b) : AffineExpr();
  }
  static const char *binary[] = {"Add", "Sub", "Mul", "FloorDiv", "FloorMod"};
  if (!llvm::is_contained(binary, StringRef(kind)))
    return {};
  AffineExpr a = toIndexExpr(e.attr("a"), leaves);
  AffineExpr b = a ? toIndexExpr(e.attr("b"), leaves) : AffineExpr();
  if (!b)
    return {};
  if (kind == "Add")
    return a + b;
  if (kind == "Sub")
    return a - b;
  if (kind == "Mul")
    return a * b;
  // Only a positive constant or a variable divides in an index
  // expression (the verifier's rule); anything else is left as written.
  if (auto k = dyn_cast<AffineConstantExpr>(b); k && k.getValue() <= 0)
    return {};
  return kind == "FloorDiv" ? a.floorDiv(b) : a % b;
}

py::object NodeBuilder::simplify(py::handle e) {
  SmallVector<py::object> leaves;
  if (AffineExpr expr = toIndexExpr(e, leaves)) {
    AffineExpr simple = simplifyIndexExpr(expr, leaves.size(), 0);
    return index(simple, leaves);
  }
  std::string kind = py::str(py::type::of(e).attr("__name__"));
  if (kind == "Min" || kind == "Max") {
    py::object a = simplify(e.attr("a")), b = simplify(e.attr("b"));
    auto constant = [](py::handle x) {
      return py::str(py::type::of(x).attr("__name__")).cast<std::string>() ==
             "IntImm";
    };
    if (constant(a) && constant(b)) {
      int64_t x = a.attr("value").cast<int64_t>();
      int64_t y = b.attr("value").cast<int64_t>();
      return i32(kind == "Min" ? std::min(x, y) : std::max(x, y));
    }
    // T.min(x, x) is x.
    SmallVector<py::object> shared;
    AffineExpr x = toIndexExpr(a, shared);
    AffineExpr y = x ? toIndexExpr(b, shared) : AffineExpr();
    if (a.ptr() == b.ptr() || (y && x == y))
      return a;
    return cls(kind.c_str())(a, b);
  }
  return py::reinterpret_borrow<py::object>(e);
}
