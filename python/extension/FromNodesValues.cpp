//===- FromNodesValues.cpp - values of nodes built into tir ---------------===//
//
// The values FromNodes' builder makes (FromNodes.h): scalar types and
// constants, conversions, index expressions, the operators and intrinsics,
// and T.where conditions and regions over index expressions.
//
//===----------------------------------------------------------------------===//

#include "FromNodes.h"

#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace tirpy::fromnodes;

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

Type FunctionBuilder::scalarType(const std::string &dtype) {
  if (Type type = dtypeType(*b.getContext(), dtype))
    return type;
  // A call's result may be a pointer ("handle") or a vector ("int8x4").
  if (dtype == "handle") {
    ctx()->getOrLoadDialect<LLVM::LLVMDialect>();
    return LLVM::LLVMPointerType::get(ctx());
  }
  StringRef base, lanes;
  std::tie(base, lanes) = StringRef(dtype).split('x');
  unsigned n = 0;
  if (!lanes.empty() && !lanes.getAsInteger(10, n) && n > 1)
    if (Type elem = dtypeType(*b.getContext(), base))
      return VectorType::get({n}, elem);
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
  if (isa<VectorType>(src) || isa<VectorType>(type)) {
    auto dtype = [](Type t) {
      std::string s;
      llvm::raw_string_ostream os(s);
      if (auto vec = dyn_cast<VectorType>(t))
        os << tvmscript::dtypeName(vec.getElementType()) << "x"
           << vec.getNumElements();
      else
        os << tvmscript::dtypeName(t);
      return s;
    };
    auto withArticle = [](const std::string &d) {
      return (StringRef("aeiou").contains(d[0]) ? "an " : "a ") + d;
    };
    fail(withArticle(dtype(src)) + " value where " + withArticle(dtype(type)) +
         " is needed (a vector converts to nothing else)");
  }
  return createConversion(b, loc, v, type, fromUnsigned, toUnsigned);
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
    // A constant of the layout is the constant.
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
  if (kind == "Cast")
    return isIndexCast(e);
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

bool FunctionBuilder::isIndexCast(py::handle e) {
  // An index expression widened to int64 (or kept at int32), as TVM's
  // operators widen an int32 operand meeting an int64 one, is the index
  // expression: index values have no width.
  std::string to = dtypeOf(e);
  if (to != "int64" && to != "int32")
    return false;
  py::object source = e.attr("value");
  std::string from = dtypeOf(source);
  return (from == "int32" || from == to) && isIndexExpr(source);
}

/// The position of `v` in `inputs` as a dimension (appended once).
static AffineExpr inputDim(Value v, SmallVectorImpl<Value> &inputs) {
  auto it = llvm::find(inputs, v);
  unsigned pos = it - inputs.begin();
  if (it == inputs.end())
    inputs.push_back(v);
  return getAffineDimExpr(pos, v.getContext());
}

AffineExpr FunctionBuilder::indexExpr(py::handle e,
                                      SmallVectorImpl<Value> &inputs) {
  if (!isIndexExpr(e))
    return inputDim(indexValue(e), inputs);
  return knownIndexExpr(e, inputs);
}

AffineExpr FunctionBuilder::knownIndexExpr(py::handle e,
                                           SmallVectorImpl<Value> &inputs) {
  auto input = [&](Value v) { return inputDim(v, inputs); };
  std::string kind = typeName(e);
  if (isa_(e, "Var"))
    return input(varValue(e));
  if (kind == "IntImm")
    return getAffineConstantExpr(intOf(e.attr("value")), ctx());
  if (kind == "Cast")
    return knownIndexExpr(e.attr("value"), inputs);
  // The operands of an index expression are index expressions too.
  if (kind == "Call") {
    py::list args = e.attr("args");
    if (args.empty())
      return input(vscale());
    AffineExpr l = knownIndexExpr(args[0], inputs);
    return l.ceilDiv(knownIndexExpr(args[1], inputs));
  }
  AffineExpr l = knownIndexExpr(e.attr("a"), inputs);
  AffineExpr r = knownIndexExpr(e.attr("b"), inputs);
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
    t.index = knownIndexExpr(e, t.inputs);
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
    if (!t.value)
      fail("T." +
           py::str(e.attr("op").attr("name")).cast<std::string>().substr(4) +
           " returns nothing here (give it a dtype)");
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
  // Computed in index with arith ops, from the expression's tree (an
  // index expression needed as a value).
  std::string kind = typeName(e);
  if (isa_(e, "Var"))
    return varValue(e);
  if (kind == "IntImm")
    return intConstant(b.getIndexType(), intOf(e.attr("value")));
  if (kind == "Cast") // an index cast (isIndexCast): the same value
    return materializeIndex(e.attr("value"));
  if (kind == "Call") {
    py::list args = e.attr("args");
    if (args.empty())
      return vscale();
    Value l = materializeIndex(args[0]);
    Value r = materializeIndex(args[1]);
    return arith::CeilDivSIOp::create(b, loc, l, r);
  }
  // Operands computed first, constants at the op that uses them.
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

Value FunctionBuilder::call(py::handle e, bool asStatement) {
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
  for (auto [pos, arg] : llvm::enumerate(args)) {
    std::string kind = typeName(arg);
    if (name == "tvm_access_ptr" && (pos == 2 || pos == 3)) {
      // The offset and extent: index values.
      operands.push_back(indexValue(arg));
      attrs.push_back(b.getUnitAttr());
    } else if (kind == "Call" &&
               py::str(arg.attr("op").attr("name")).cast<std::string>() ==
                   "tir.type_annotation") {
      attrs.push_back(TypeAttr::get(scalarType(dtypeOf(arg))));
    } else if (kind == "StringImm") {
      attrs.push_back(
          b.getStringAttr(py::str(arg.attr("value")).cast<std::string>()));
    } else if (kind == "IntImm" && dtypeOf(arg) == "bool") {
      attrs.push_back(b.getBoolAttr(intOf(arg.attr("value")) != 0));
    } else if (kind == "IntImm" && dtypeOf(arg) == "int32") {
      // A number written in the call (an int64 one is a value: an index
      // the call reads, such as a buffer's stride).
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
  if (!dtype.empty() && dtype != "void" && !(asStatement && dtype == "handle"))
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

/// Whether expression `e` loads from a buffer (a data-dependent index).
static bool loadsValues(py::handle e) {
  if (typeName(e) == "BufferLoad")
    return true;
  for (const char *field :
       {"a", "b", "value", "condition", "true_value", "false_value"})
    if (py::hasattr(e, field) && loadsValues(e.attr(field)))
      return true;
  if (py::hasattr(e, "args"))
    for (py::handle arg : e.attr("args"))
      if (loadsValues(arg))
        return true;
  return false;
}

/// Whether `e` names one of `iterVars` (a block's iteration variables,
/// which the values computed before the block cannot use).
static bool usesValues(py::handle e, const DenseMap<PyObject *, Value> &vars,
                       const DenseMap<Value, unsigned> &iterVars) {
  if (auto it = vars.find(e.ptr()); it != vars.end())
    return iterVars.count(it->second);
  for (const char *field :
       {"a", "b", "value", "condition", "true_value", "false_value"})
    if (py::hasattr(e, field) && usesValues(e.attr(field), vars, iterVars))
      return true;
  if (py::hasattr(e, "args"))
    for (py::handle arg : e.attr("args"))
      if (usesValues(arg, vars, iterVars))
        return true;
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
  py::list shape = bufferRegion.attr("buffer").attr("shape");
  for (auto [d, range] : llvm::enumerate(bufferRegion.attr("region"))) {
    // A range that depends on loaded values (a gather's `A[idx[i]]`) is
    // the whole dimension: the values it loads are the block's own, which
    // the regions, written before its body, cannot use.
    // So is one that is no index expression of the iteration variables
    // (`A[T.min(i, j) : T.max(i, j) + 1]`): it would be computed before
    // the block, where they are not defined.
    auto opaque = [&](py::handle e) {
      return !isIndexExpr(e) && usesValues(e, vars, iterVarPositions);
    };
    if (loadsValues(range.attr("min")) || loadsValues(range.attr("extent")) ||
        opaque(range.attr("min")) || opaque(range.attr("extent"))) {
      dims.push_back(
          {getAffineConstantExpr(0, ctx()), indexExpr(shape[d], inputs)});
      continue;
    }
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
