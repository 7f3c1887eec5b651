//===- Nodes.cpp - tir functions as tvm.tir nodes
//--------------------------===//
//
// Module.nodes(name, classes): a tir function as TVM's IR nodes (its
// parameters, buffer_map and body), built straight from the ops: loops are
// For, blocks BlockRealize + Block (iteration variables, T.where, regions,
// init, alloc_buffers, match_buffers, annotations), stores BufferStore,
// values expressions. The mapping of values onto TVM's expressions (which
// values are written inline, dtypes, intrinsic names, operators) is the
// TVMScript printer's (TensorIR/Target/TVMScript.h), so nodes and the
// printed script agree; a value that is not written inline is a LetStmt
// over the statements after it, as the printer names it.
//
// `classes` holds the node classes (Var, Add, For, Block, Buffer, Range,
// ...) by TVM's names: the package passes its own, so this file depends on
// no Python module path.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::tir;
using namespace tirpy;
using tvmscript::dtypeName;

namespace {

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

  py::object c;
  llvm::DenseMap<Value, py::object> bound_;
  llvm::DenseMap<Value, py::object> buffers;
  /// Blocks read with: (body, init, reads, writes, match_buffers), which
  /// the package keeps to tell whether regions are stale.
};

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
// Buffers and regions
//===----------------------------------------------------------------------===//

py::object NodeBuilder::buffer(Value memref, StringRef name,
                               ArrayRef<py::object> shape,
                               StringAttr unsignedDtype) {
  auto type = cast<MemRefType>(memref.getType());
  std::string dtype =
      unsignedDtype ? unsignedDtype.str() : dtypeName(type.getElementType());
  auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace());
  py::list dims;
  for (const py::object &d : shape)
    dims.append(d);
  py::object buf = cls("Buffer")(name.str(), dims, dtype,
                                 scope ? scope.str() : std::string("global"));
  buffers[memref] = buf;
  return buf;
}

py::object NodeBuilder::region(Value buffer, AffineMap map,
                               ArrayRef<py::object> inputs) {
  RegionExprs region = splitRegionMap(map);
  py::list ranges;
  for (auto [start, extent] : llvm::zip(region.starts, region.extents))
    ranges.append(cls("Range").attr("from_min_extent")(index(start, inputs),
                                                       index(extent, inputs)));
  auto it = buffers.find(buffer);
  if (it == buffers.end())
    throw NoNodeForm(buffer.getParentBlock()->getParentOp(),
                     "a region of a buffer with no buffer node");
  return cls("BufferRegion")(it->second, ranges);
}

py::list NodeBuilder::regions(OperandRange buffers,
                              std::optional<ArrayAttr> maps,
                              ArrayRef<py::object> inputs) {
  py::list out;
  if (maps)
    for (auto [buffer, attr] : llvm::zip(buffers, *maps))
      out.append(region(buffer, cast<AffineMapAttr>(attr).getValue(), inputs));
  return out;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

py::object NodeBuilder::body(Block &block, Block::iterator begin,
                             py::list *allocs, py::list *matches) {
  py::list stmts;
  for (auto it = begin; it != block.end(); ++it) {
    Operation &op = *it;
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    // A pure value that is not written inline gets a name: a LetStmt over
    // the statements after it.
    if (op.getNumResults() == 1 &&
        (op.getNumRegions() == 0 || isa<scf::IfOp>(op)) &&
        !bound_.count(op.getResult(0)) &&
        !isa<AllocBufferOp, MatchBufferOp, memref::ExtractStridedMetadataOp>(
            op)) {
      Value v = op.getResult(0);
      if (tvmscript::isWrittenInline(v))
        continue;
      py::object value = opExpr(&op, v);
      py::object var = cls("Var")("v", value.attr("dtype"));
      bound_[v] = var;
      py::object rest = body(block, std::next(it), allocs, matches);
      stmts.append(cls("LetStmt")(var, value, rest));
      break;
    }
    py::object s = statement(op, allocs, matches);
    if (!s.is_none())
      stmts.append(s);
  }
  if (stmts.empty())
    return cls("Evaluate")(i32(0));
  return cls("stmt_seq")(*stmts);
}

py::object NodeBuilder::statement(Operation &op, py::list *allocs,
                                  py::list *matches) {
  if (auto loop = dyn_cast<ForOp>(op))
    return forLoop(loop);
  if (auto block = dyn_cast<BlockOp>(op))
    return tirBlock(block);
  if (auto store = dyn_cast<StoreOp>(op)) {
    auto it = buffers.find(store.getBuffer());
    if (it == buffers.end())
      throw NoNodeForm(&op, "a store to a buffer with no buffer node");
    return cls("BufferStore")(it->second, expr(store.getValue()),
                              indices(store.getMap(), store.getIndices()));
  }
  if (auto alloc = dyn_cast<AllocBufferOp>(op)) {
    if (!allocs)
      throw NoNodeForm(&op, "a buffer allocated outside a block");
    MemRefType type = alloc.getBuffer().getType();
    SmallVector<py::object> shape;
    unsigned dyn = 0;
    for (int64_t d : type.getShape())
      shape.push_back(ShapedType::isDynamic(d)
                          ? expr(alloc.getDynamicSizes()[dyn++])
                          : i32(d));
    py::object buf =
        buffer(alloc.getBuffer(), alloc.getBufferName().value_or("buffer"),
               shape, getUnsignedDtype(alloc.getBuffer()));
    if (auto seps = alloc.getAxisSeparators()) {
      py::list list;
      for (int64_t x : *seps)
        list.append(x);
      buf.attr("axis_separators") = list;
    }
    allocs->append(buf);
    return py::none();
  }
  if (auto match = dyn_cast<MatchBufferOp>(op)) {
    if (!matches)
      throw NoNodeForm(&op, "a buffer matched outside a block");
    SmallVector<py::object> inputs;
    for (Value v : match.getIndices())
      inputs.push_back(expr(v));
    py::object source =
        region(match.getSource(), match.getSourceRegion(), inputs);
    auto type = cast<MemRefType>(match.getResult().getType());
    SmallVector<py::object> shape;
    for (int64_t d : type.getShape()) {
      if (ShapedType::isDynamic(d))
        throw NoNodeForm(&op, "a matched region of a size known only at run "
                              "time");
      shape.push_back(i32(d));
    }
    std::string name = source.attr("buffer").attr("name").cast<std::string>();
    py::object buf = buffer(match.getResult(), name, shape, StringAttr());
    buf.attr("offset_factor") = 1;
    // TVM's view fields; a use reads them from the layout (FromNodes.cpp).
    buf.attr("elem_offset") = cls("Var")(name + "_elem_offset", "int32");
    py::list strides;
    for (size_t k = 0; k < shape.size(); ++k)
      strides.append(cls("Var")(name + "_s" + std::to_string(k), "int32"));
    buf.attr("strides") = strides;
    matches->append(cls("MatchBufferRegion")(buf, source));
    return py::none();
  }
  if (isa<memref::ExtractStridedMetadataOp, InitOp>(op))
    return py::none(); // Read as buffer fields; printed with its block.
  if (op.getNumResults() == 1 && bound_.count(op.getResult(0)))
    return py::none(); // A shape variable's read.
  if (auto c = dyn_cast<CallOp>(op); c && c->getNumResults() == 0)
    return cls("Evaluate")(call(c));
  if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && ifOp->getNumResults() == 0) {
    py::object cond = expr(ifOp.getCondition());
    py::object then =
        body(ifOp.getThenRegion().front(), ifOp.getThenRegion().front().begin(),
             nullptr, nullptr);
    py::object other = py::none();
    if (!ifOp.getElseRegion().empty() &&
        !llvm::hasSingleElement(ifOp.getElseRegion().front()))
      other = body(ifOp.getElseRegion().front(),
                   ifOp.getElseRegion().front().begin(), nullptr, nullptr);
    return cls("IfThenElse")(cond, then, other);
  }
  throw NoNodeForm(&op, "no TVM statement does this");
}

py::object NodeBuilder::forLoop(ForOp loop) {
  py::object lo = bound(loop.getMixedLowerBound());
  py::object hi = bound(loop.getMixedUpperBound());
  py::object var = cls("Var")(loop.getVarName().value_or("i").str(), "int32");
  bound_[loop.getInductionVar()] = var;
  py::object inner =
      body(*loop.getBody(), loop.getBody()->begin(), nullptr, nullptr);
  std::optional<int64_t> start = loop.getConstantLowerBound();
  py::object extent = start && *start == 0 ? hi : cls("simplify_sub")(hi, lo);
  // tvm.tir.ForKind's member for each loop kind.
  static const std::pair<ForKind, const char *> kinds[] = {
      {ForKind::Serial, "SERIAL"},
      {ForKind::Parallel, "PARALLEL"},
      {ForKind::Vectorized, "VECTORIZED"},
      {ForKind::Unrolled, "UNROLLED"},
      {ForKind::ThreadBinding, "THREAD_BINDING"}};
  py::object kind;
  for (auto [k, member] : kinds)
    if (loop.getKind() == k)
      kind = cls("ForKind").attr(member);
  py::object thread = loop.getThread()
                          ? py::object(py::str(loop.getThread()->str()))
                          : py::object(py::none());
  return cls("For")(var, lo, extent, kind, inner, thread,
                    annotations(loop.getAnnotationsAttr(), loop));
}

py::object NodeBuilder::tirBlock(BlockOp block) {
  SmallVector<py::object> inputs;
  for (Value v : block.getBindingValues())
    inputs.push_back(expr(v));
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  static const char *kinds[] = {"DataPar", "CommReduce", "Ordered", "Opaque"};
  py::list iterVars, values;
  for (unsigned i = 0; i < block.getNumIterVars(); ++i) {
    StringRef name =
        block.getVarNames()
            ? cast<StringAttr>((*block.getVarNames())[i]).getValue()
            : StringRef("v");
    py::object var = cls("Var")(name.str(), "int32");
    py::object lo = bound(block.getMixedDomainLower(i));
    py::object hi = bound(block.getMixedDomainUpper(i));
    py::object dom = cls("Range")(lo, hi);
    int kind = static_cast<int>(block.getIterType(i));
    iterVars.append(cls("IterVar")(dom, var, cls("IterVar").attr(kinds[kind])));
    values.append(index(bindings[i], inputs));
    bound_[block.getIterVar(i)] = var;
  }
  py::object predicate = boolean(true);
  if (block.getPredicate()) {
    // A disjunction of conjunctions of `e >= 0` (or `e == 0`).
    py::object disjunction;
    for (IntegerSet set : block.getPredicateSets()) {
      py::object conjunction;
      for (auto [c, e] : llvm::enumerate(getConstraintsOverInputs(set))) {
        py::object term =
            cls(set.isEq(c) ? "EQ" : "GE")(index(e, inputs), i32(0));
        conjunction = conjunction ? cls("And")(conjunction, term) : term;
      }
      if (!conjunction)
        conjunction = boolean(true);
      disjunction =
          disjunction ? cls("Or")(disjunction, conjunction) : conjunction;
    }
    predicate = disjunction;
  }
  if (Value condition = block.getCondition())
    predicate = expr(condition);
  SmallVector<py::object> regionInputs;
  for (Value v : block.getRegionInputs())
    regionInputs.push_back(expr(v));
  py::list allocs, matches;
  // Buffers the body allocates and matches are known before the regions
  // and the init name them: they are read from the body first.
  py::object inner =
      body(*block.getBody(), block.getBody()->begin(), &allocs, &matches);
  py::list reads =
      regions(block.getReadBuffers(), block.getReadRegions(), regionInputs);
  py::list writes =
      regions(block.getWriteBuffers(), block.getWriteRegions(), regionInputs);
  py::object init = py::none();
  if (InitOp initOp = block.getInitOp())
    init = body(*initOp.getBody(), initOp.getBody()->begin(), nullptr, nullptr);
  py::object node = cls("Block")(
      iterVars, reads, writes, block.getBlockName().str(), inner, init, allocs,
      matches, annotations(block.getAnnotationsAttr(), block));
  // What the block was read with, for the package to tell stale regions.
  node.attr("_read_with") = py::make_tuple(
      node.attr("body"), node.attr("init"), py::list(node.attr("reads")),
      py::list(node.attr("writes")), py::list(node.attr("match_buffers")));
  return cls("BlockRealize")(values, predicate, node);
}

py::tuple NodeBuilder::function(func::FuncOp func) {
  if (func.isExternal())
    throw NoNodeForm(func, "a declaration has no body");
  Block &entry = func.getBody().front();
  // Shape variables: the names tir.dim_vars gives dynamic dimensions; a
  // scalar parameter of that name is the variable itself.
  llvm::StringMap<py::object> dimVars;
  py::list params, bufferMap;
  SmallVector<Value> scalars;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    if (!arg.getType().isIndex())
      continue;
    auto name = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    py::object var =
        cls("Var")(name ? name.str() : "arg" + std::to_string(i), "int32");
    bound_[arg] = var;
    scalars.push_back(arg);
    if (name)
      dimVars[name.getValue()] = var;
  }
  auto shapeVar = [&](StringRef name) {
    auto it = dimVars.find(name);
    if (it != dimVars.end())
      return it->second;
    py::object var = cls("SizeVar")(name.str(), "int32");
    dimVars[name] = var;
    return var;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    auto nameAttr =
        func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    std::string name = nameAttr ? nameAttr.str() : "arg" + std::to_string(i);
    if (arg.getType().isIndex()) {
      params.append(bound_[arg]);
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.getLayout().isIdentity())
      throw NoNodeForm(func, "parameter " + name +
                                 " is not a buffer with the identity layout "
                                 "or an index");
    SmallVector<py::object> shape;
    bool dynamic = false;
    SmallVector<StringRef> vars = getDimVarNames(func, i);
    for (auto [k, d] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(d)) {
        shape.push_back(i32(d));
        continue;
      }
      dynamic = true;
      if (k < vars.size() && !vars[k].empty())
        shape.push_back(shapeVar(vars[k]));
      else if (k < vars.size())
        shape.push_back(cls("SizeVar")("v", "int32"));
      else if (scalars.size() == 1)
        shape.push_back(bound_[scalars.front()]);
      else
        throw NoNodeForm(func, "buffer " + name +
                                   " has a dynamic dimension and the "
                                   "function has no single scalar parameter "
                                   "to name it");
    }
    py::object buf = buffer(arg, name, shape, getUnsignedDtype(arg));
    if (auto seps = func.getArgAttrOfType<DenseI64ArrayAttr>(
            i, TIRDialect::kAxisSeparatorsAttrName)) {
      py::list list;
      for (int64_t x : seps.asArrayRef())
        list.append(x);
      buf.attr("axis_separators") = list;
    }
    // A buffer with a dynamic dimension is a handle matched to it
    // (T.match_buffer), named in lower case as the printer names it.
    py::object handle =
        cls("Var")(dynamic ? StringRef(name).lower() : name, "handle");
    params.append(handle);
    bufferMap.append(py::make_tuple(handle, buf));
  }
  // The body reads a shape variable as memref.dim of a dimension it names.
  for (auto dim : entry.getOps<memref::DimOp>())
    if (StringRef var = getShapeVarRead(dim); !var.empty())
      bound_[dim.getResult()] = shapeVar(var);
  py::list allocs, matches;
  py::object inner = body(entry, entry.begin(), &allocs, &matches);
  if (!matches.empty())
    throw NoNodeForm(func, "a buffer matched outside a block");
  py::object root = cls("Block")(py::list(), py::list(), py::list(), "root",
                                 inner, py::none(), allocs);
  return py::make_tuple(params, bufferMap,
                        cls("BlockRealize")(py::list(), boolean(true), root));
}

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

py::list NodeBuilder::signature(func::FuncOp func) {
  py::list out;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    auto nameAttr =
        func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    std::string name = nameAttr ? nameAttr.str() : "arg" + std::to_string(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type) {
      std::string dtype = dtypeName(arg.getType());
      out.append(py::make_tuple(
          cls("Var")(name, dtype.empty() ? "handle" : dtype), py::none()));
      continue;
    }
    py::list shape;
    for (int64_t d : type.getShape())
      shape.append(ShapedType::isDynamic(d) ? py::object(py::none())
                                            : py::object(py::int_(d)));
    StringAttr unsignedDtype = getUnsignedDtype(arg);
    auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace());
    out.append(py::make_tuple(
        cls("Var")(name, "handle"),
        cls("Buffer")(name, shape,
                      unsignedDtype ? unsignedDtype.str()
                                    : dtypeName(type.getElementType()),
                      scope ? scope.str() : std::string("global"))));
  }
  return out;
}

} // namespace

void tirpy::bindNodes(py::module_ &m) {
  m.def(
      "function_signature",
      [](py::object module, const std::string &name, py::object classes) {
        auto func = moduleOf(module).lookupSymbol<func::FuncOp>(name);
        if (!func)
          throw py::value_error("no function '" + name + "' in the module");
        return NodeBuilder(std::move(classes)).signature(func);
      },
      py::arg("module"), py::arg("name"), py::arg("classes"),
      "[(Var, Buffer or None)] of function `name`'s parameters, from their "
      "types.");
  m.def(
      "simplify_index",
      [](py::object expr, py::object classes) {
        return NodeBuilder(std::move(classes)).simplify(expr);
      },
      py::arg("expr"), py::arg("classes"),
      "An integer expression of tvm.tir nodes simplified by tir's index "
      "arithmetic (the classes `classes` holds build the result).");
  m.def(
      "function_nodes",
      [](py::object module, const std::string &name, py::object classes) {
        ModuleOp mod = moduleOf(module);
        auto func = mod.lookupSymbol<func::FuncOp>(name);
        if (!func)
          throw py::value_error("no function '" + name + "' in the module");
        try {
          return NodeBuilder(std::move(classes)).function(func);
        } catch (const NoNodeForm &e) {
          throw py::value_error(e.what());
        }
      },
      py::arg("module"), py::arg("name"), py::arg("classes"),
      "(params, [(param, Buffer)], body) of function `name` as tvm.tir "
      "nodes, made of the classes `classes` holds by TVM's names.");
}
