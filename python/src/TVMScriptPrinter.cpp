//===- TVMScriptPrinter.cpp - tir functions printed as TVMScript ----------===//
//
// The inverse of python/tensorir/script/parser.py: a tir function in the
// TVMScript the parser reads. Pure values are printed inline where they are
// used once and nothing with side effects comes between; every other value
// gets a name (`v3 = A[vi] * 2.0`), which the parser treats as an alias.
//
//===----------------------------------------------------------------------===//

#include "TVMScriptPrinter.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <sstream>

using namespace mlir;
using namespace mlir::tir;

namespace {

class Printer {
public:
  explicit Printer(std::string &error) : error(error) {}

  bool function(func::FuncOp func, std::ostringstream &os);

private:
  bool fail(Operation *op, const std::string &why) {
    if (error.empty()) {
      llvm::raw_string_ostream s(error);
      s << "cannot print '" << op->getName() << "' as TVMScript: " << why;
    }
    return false;
  }

  std::string dtype(Type t) {
    if (t.isF16()) return "float16";
    if (t.isF32()) return "float32";
    if (t.isF64()) return "float64";
    if (t.isBF16()) return "bfloat16";
    if (t.isInteger(1)) return "bool";
    if (auto i = dyn_cast<IntegerType>(t))
      return "int" + std::to_string(i.getWidth());
    if (t.isIndex()) return "int32";
    return "";
  }

  /// A name not visible in the enclosing scopes (sibling loops and blocks
  /// reuse names, as TVMScript does).
  std::string fresh(StringRef hint) {
    std::string base = hint.empty() ? "v" : hint.str();
    std::string name = base;
    auto taken = [&](const std::string &n) {
      return llvm::any_of(used, [&](const llvm::StringSet<> &s) {
        return s.contains(n);
      });
    };
    for (int n = 1; taken(name); ++n)
      name = base + "_" + std::to_string(n);
    used.back().insert(name);
    return name;
  }
  void push() { used.emplace_back(); }
  void pop() { used.pop_back(); }

  /// Python text for an affine expression; parentheses only where Python's
  /// precedence needs them.
  std::string affine(AffineExpr e, ArrayRef<std::string> dims,
                     ArrayRef<std::string> syms) {
    int precedence;
    return affine(e, dims, syms, precedence);
  }
  std::string affine(AffineExpr e, ArrayRef<std::string> dims,
                     ArrayRef<std::string> syms, int &precedence) {
    precedence = 3;
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() < 0)
        precedence = 1;
      return std::to_string(c.getValue());
    }
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return dims[d.getPosition()];
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return syms[s.getPosition()];
    auto bin = cast<AffineBinaryOpExpr>(e);
    int lp, rp;
    std::string l = affine(bin.getLHS(), dims, syms, lp);
    std::string r = affine(bin.getRHS(), dims, syms, rp);
    auto wrap = [](const std::string &t, bool need) {
      return need ? "(" + t + ")" : t;
    };
    switch (e.getKind()) {
    case AffineExprKind::Add: {
      precedence = 1;
      // a + (-k) * b and a + (-k) print as subtractions.
      if (auto mul = dyn_cast<AffineBinaryOpExpr>(bin.getRHS());
          mul && mul.getKind() == AffineExprKind::Mul)
        if (auto k = dyn_cast<AffineConstantExpr>(mul.getRHS());
            k && k.getValue() < 0) {
          int mp;
          std::string rest = affine(mul.getLHS(), dims, syms, mp);
          if (k.getValue() == -1)
            return l + " - " + wrap(rest, mp <= 1);
          return l + " - " + wrap(rest, mp < 2) + " * " +
                 std::to_string(-k.getValue());
        }
      if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS());
          k && k.getValue() < 0)
        return l + " - " + std::to_string(-k.getValue());
      return l + " + " + wrap(r, rp <= 1);
    }
    case AffineExprKind::Mul:
      precedence = 2;
      return wrap(l, lp < 2) + " * " + wrap(r, rp <= 2);
    case AffineExprKind::FloorDiv:
      precedence = 2;
      return wrap(l, lp < 2) + " // " + wrap(r, rp <= 2);
    case AffineExprKind::Mod:
      precedence = 2;
      return wrap(l, lp < 2) + " % " + wrap(r, rp <= 2);
    default:
      return "T.ceildiv(" + l + ", " + r + ")";
    }
  }

  /// A loop bound: a number, or the value's name or expression (a function
  /// argument, `T.vscale() * 4`, `(n + 15) // 16`, ...).
  std::string bound(OpFoldResult b) {
    if (auto attr = dyn_cast<Attribute>(b))
      return std::to_string(cast<IntegerAttr>(attr).getInt());
    return name(cast<Value>(b));
  }

  /// A value's name, or the expression of an unnamed index value (a
  /// region's `affine.apply` input, say).
  std::string name(Value v) {
    auto it = names.find(v);
    if (it != names.end())
      return it->second;
    std::string text;
    if (v.getType().isIndex() && expr(v, text))
      return text;
    return "<unnamed>";
  }

  bool inlineable(Value v) {
    Operation *def = v.getDefiningOp();
    if (def && isa<arith::ConstantOp>(def) && v.hasOneUse())
      return true;
    if (!def || !v.hasOneUse() || def->getNumRegions() != 0 ||
        isa<StoreOp>(def))
      return false;
    if (!isa<LoadOp>(def))
      return true; // Pure ops can move to their single use.
    // A load moves to its use only if nothing between them may write.
    Operation *user = *v.getUsers().begin();
    if (user->getBlock() != def->getBlock())
      return false;
    // Nor past a value that gets a name: named values are printed where they
    // are defined, and the load would then be read after them.
    for (Operation *op = def->getNextNode(); op && op != user;
         op = op->getNextNode()) {
      if (isa<StoreOp, ForOp, BlockOp>(op) || op->getNumRegions() != 0)
        return false;
      if (llvm::any_of(op->getResults(),
                       [](Value r) { return !r.hasOneUse(); }))
        return false;
      if (isa<LoadOp>(op) && !inlineable(op->getResult(0)))
        return false;
    }
    return true;
  }

  bool expr(Value v, std::string &out);
  bool callExpr(CallOp call, std::string &out);
  bool statement(Operation &op, int indent, std::ostringstream &os);
  bool blockBody(Block &block, int indent, std::ostringstream &os);
  bool forLoop(ForOp loop, int indent, std::ostringstream &os);
  bool tirBlock(BlockOp block, int indent, std::ostringstream &os);
  std::string dict(DictionaryAttr dict);

  std::string &error;
  llvm::DenseMap<Value, std::string> names;
  SmallVector<llvm::StringSet<>> used{llvm::StringSet<>()};
  /// Expressions of inlined values.
  llvm::DenseMap<Value, std::string> inlined;
};

std::string pad(int indent) { return std::string(4 * indent, ' '); }

/// "(8,)" or "(128, 128)".
std::string tuple(ArrayRef<std::string> items) {
  std::string s = "(";
  for (auto [i, item] : llvm::enumerate(items))
    s += (i ? ", " : "") + item;
  return s + (items.size() == 1 ? ",)" : ")");
}

std::string Printer::dict(DictionaryAttr d) {
  std::string s = "{";
  bool first = true;
  for (NamedAttribute a : d) {
    if (!first)
      s += ", ";
    first = false;
    s += "\"" + a.getName().str() + "\": ";
    Attribute v = a.getValue();
    if (auto b = dyn_cast<BoolAttr>(v))
      s += b.getValue() ? "True" : "False";
    else if (auto i = dyn_cast<IntegerAttr>(v))
      s += std::to_string(i.getInt());
    else if (auto f = dyn_cast<FloatAttr>(v))
      s += std::to_string(f.getValueAsDouble());
    else if (auto str = dyn_cast<StringAttr>(v))
      s += "\"" + str.str() + "\"";
    else
      s += "None";
  }
  return s + "}";
}

bool Printer::expr(Value v, std::string &out) {
  if (auto it = inlined.find(v); it != inlined.end()) {
    out = it->second;
    return true;
  }
  if (auto it = names.find(v); it != names.end()) {
    out = it->second;
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return fail(v.getParentBlock()->getParentOp(), "a value without a name");
  auto operand = [&](unsigned i, std::string &s) {
    return expr(def->getOperand(i), s);
  };
  std::string a, b, c;
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    std::string t = dtype(cst.getType());
    if (auto f = dyn_cast<FloatAttr>(cst.getValue())) {
      std::ostringstream num;
      num.precision(17);
      num << f.getValueAsDouble();
      std::string text = num.str();
      if (text.find_first_of(".eEni") == std::string::npos)
        text += ".0";
      if (text == "inf" || text == "-inf" || text == "nan") {
        out = "T." + t + "(\"" + text + "\")";
        return true;
      }
      out = "T." + t + "(" + text + ")";
      return true;
    }
    if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
      out = cst.getType().isIndex()
                ? std::to_string(i.getInt())
                : (t == "bool" ? (i.getInt() ? "True" : "False")
                               : "T." + t + "(" + std::to_string(i.getInt()) +
                                     ")");
      return true;
    }
    return fail(def, "a constant that is not a number");
  }
  if (auto load = dyn_cast<LoadOp>(def)) {
    SmallVector<std::string> ops;
    for (Value i : load.getIndices()) {
      if (!expr(i, a))
        return false;
      ops.push_back(a);
    }
    std::string s = name(load.getBuffer()) + "[";
    AffineMap map = load.getMap();
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      s += (r ? ", " : "") +
           affine(map.getResult(r),
                  ArrayRef<std::string>(ops).take_front(map.getNumDims()),
                  ArrayRef<std::string>(ops).drop_front(map.getNumDims()));
    out = s + "]";
    return true;
  }
  static const std::pair<StringRef, StringRef> infix[] = {
      {"arith.addf", "+"}, {"arith.addi", "+"},  {"arith.subf", "-"},
      {"arith.subi", "-"}, {"arith.mulf", "*"},  {"arith.muli", "*"},
      {"arith.divf", "/"}, {"arith.floordivsi", "//"}};
  for (auto [opName, symbol] : infix)
    if (def->getName().getStringRef() == opName) {
      if (!operand(0, a) || !operand(1, b))
        return false;
      out = "(" + a + " " + symbol.str() + " " + b + ")";
      return true;
    }
  static const std::pair<StringRef, StringRef> calls[] = {
      {"arith.maximumf", "max"}, {"arith.maxsi", "max"},
      {"arith.minimumf", "min"}, {"arith.minsi", "min"},
      {"math.exp", "exp"},       {"math.sqrt", "sqrt"},
      {"math.log", "log"},       {"math.tanh", "tanh"}};
  for (auto [opName, fn] : calls)
    if (def->getName().getStringRef() == opName) {
      std::string args;
      for (unsigned i = 0; i < def->getNumOperands(); ++i) {
        if (!operand(i, a))
          return false;
        args += (i ? ", " : "") + a;
      }
      out = "T." + fn.str() + "(" + args + ")";
      return true;
    }
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(def)) {
    // Boolean `and` / `or` / `not` (xor with true), bitwise otherwise.
    bool boolean = def->getResult(0).getType().isInteger(1);
    if (!operand(0, a) || !operand(1, b))
      return false;
    if (isa<arith::XOrIOp>(def) && boolean) {
      auto one = getConstantIntValue(def->getOperand(1));
      if (one && *one != 0) {
        out = "(not " + a + ")";
        return true;
      }
    }
    StringRef symbol = isa<arith::AndIOp>(def)   ? (boolean ? "and" : "&")
                       : isa<arith::OrIOp>(def) ? (boolean ? "or" : "|")
                                                 : "^";
    out = "(" + a + " " + symbol.str() + " " + b + ")";
    return true;
  }
  if (auto call = dyn_cast<CallOp>(def))
    return callExpr(call, out);
  if (isa<vector::VectorScaleOp>(def)) {
    out = "T.vscale()";
    return true;
  }
  if (isa<arith::CeilDivSIOp>(def)) {
    if (!operand(0, a) || !operand(1, b))
      return false;
    out = "T.ceildiv(" + a + ", " + b + ")";
    return true;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    // An index expression (what split and fuse leave for uses of a loop
    // variable outside bindings), over its operands in input space.
    SmallVector<std::string> ops;
    for (Value i : apply.getMapOperands()) {
      if (!expr(i, a))
        return false;
      ops.push_back(a);
    }
    out = "(" + affine(getExprsOverInputs(apply.getAffineMap())[0], ops, {}) +
          ")";
    return true;
  }
  if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    if (!operand(0, a) || !operand(1, b) || !operand(2, c))
      return false;
    out = "T.if_then_else(" + a + ", " + b + ", " + c + ")";
    return true;
  }
  if (isa<arith::CmpFOp, arith::CmpIOp>(def)) {
    std::string pred;
    if (auto f = dyn_cast<arith::CmpFOp>(def))
      pred = arith::stringifyCmpFPredicate(f.getPredicate()).str();
    else
      pred = arith::stringifyCmpIPredicate(
                 cast<arith::CmpIOp>(def).getPredicate())
                 .str();
    static const std::pair<StringRef, StringRef> preds[] = {
        {"olt", "<"}, {"slt", "<"}, {"ole", "<="}, {"sle", "<="},
        {"ogt", ">"}, {"sgt", ">"}, {"oge", ">="}, {"sge", ">="},
        {"oeq", "=="}, {"eq", "=="}, {"one", "!="}, {"ne", "!="}};
    for (auto [p, symbol] : preds)
      if (pred == p) {
        if (!operand(0, a) || !operand(1, b))
          return false;
        out = "(" + a + " " + symbol.str() + " " + b + ")";
        return true;
      }
    return fail(def, "comparison '" + pred + "'");
  }
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(def)) {
    if (!operand(0, a))
      return false;
    std::string t = dtype(def->getResult(0).getType());
    out = "T.Cast(\"" + t + "\", " + a + ")";
    return true;
  }
  return fail(def, "no TVMScript form");
}

/// `T.callee(args...)`: operands where `args` has a unit attribute, the
/// literal attributes otherwise.
bool Printer::callExpr(CallOp call, std::string &out) {
  std::string args, a;
  unsigned next = 0;
  for (auto [i, attr] : llvm::enumerate(call.getArgs())) {
    args += i ? ", " : "";
    if (isa<UnitAttr>(attr)) {
      Value v = call->getOperand(next++);
      if (isa<MemRefType>(v.getType())) {
        args += name(v) + ".data";
        continue;
      }
      if (!expr(v, a))
        return false;
      args += a;
    } else if (auto str = dyn_cast<StringAttr>(attr)) {
      args += "\"" + str.str() + "\"";
    } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
      args += std::to_string(i.getInt());
    } else if (auto f = dyn_cast<FloatAttr>(attr)) {
      std::ostringstream num;
      num.precision(17);
      num << f.getValueAsDouble();
      args += "T." + dtype(f.getType()) + "(" + num.str() + ")";
    } else {
      return fail(call, "an argument that is not a value, string or number");
    }
  }
  out = "T." + call.getCallee().str() + "(" + args + ")";
  return true;
}

bool Printer::statement(Operation &op, int indent, std::ostringstream &os) {
  if (auto loop = dyn_cast<ForOp>(op))
    return forLoop(loop, indent, os);
  if (auto block = dyn_cast<BlockOp>(op))
    return tirBlock(block, indent, os);
  if (auto store = dyn_cast<StoreOp>(op)) {
    std::string value, index;
    if (!expr(store.getValue(), value))
      return false;
    SmallVector<std::string> ops;
    for (Value i : store.getIndices()) {
      if (!expr(i, index))
        return false;
      ops.push_back(index);
    }
    AffineMap map = store.getMap();
    std::string target = name(store.getBuffer()) + "[";
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      target += (r ? ", " : "") +
                affine(map.getResult(r),
                       ArrayRef<std::string>(ops).take_front(map.getNumDims()),
                       ArrayRef<std::string>(ops).drop_front(map.getNumDims()));
    if (value.size() > 2 && value.front() == '(' && value.back() == ')')
      value = value.substr(1, value.size() - 2);
    os << pad(indent) << target << "] = " << value << "\n";
    return true;
  }
  if (auto alloc = dyn_cast<AllocBufferOp>(op)) {
    MemRefType type = alloc.getBuffer().getType();
    SmallVector<std::string> dims;
    unsigned dyn = 0;
    for (int64_t d : type.getShape())
      dims.push_back(ShapedType::isDynamic(d)
                         ? name(alloc.getDynamicSizes()[dyn++])
                         : std::to_string(d));
    std::string shape = tuple(dims);
    std::string n = fresh(alloc.getBufferName().value_or("buffer"));
    names[alloc.getBuffer()] = n;
    os << pad(indent) << n << " = T.alloc_buffer(" << shape << ", \""
       << dtype(type.getElementType()) << "\"";
    if (auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace()))
      os << ", scope=\"" << scope.str() << "\"";
    if (auto seps = alloc.getAxisSeparators()) {
      os << ", axis_separators=[";
      for (auto [k, x] : llvm::enumerate(*seps))
        os << (k ? ", " : "") << x;
      os << "]";
    }
    os << ")\n";
    return true;
  }
  if (op.getNumResults() == 1 && op.getNumRegions() == 0) {
    Value v = op.getResult(0);
    if (inlineable(v)) {
      std::string text;
      if (!expr(v, text))
        return false;
      inlined[v] = text;
      return true;
    }
    std::string text;
    if (!expr(v, text))
      return false;
    std::string n = fresh("v");
    names[v] = n;
    if (text.size() > 2 && text.front() == '(' && text.back() == ')')
      text = text.substr(1, text.size() - 2);
    os << pad(indent) << n << " = " << text << "\n";
    return true;
  }
  if (auto call = dyn_cast<CallOp>(op); call && call->getNumResults() == 0) {
    std::string text;
    if (!callExpr(call, text))
      return false;
    os << pad(indent) << "T.evaluate(" << text << ")\n";
    return true;
  }
  if (isa<InitOp>(op))
    return true; // Printed with its block.
  return fail(&op, "no TVMScript form");
}

bool Printer::blockBody(Block &block, int indent, std::ostringstream &os) {
  bool empty = true;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    std::ostringstream inner;
    if (!statement(op, indent, inner))
      return false;
    os << inner.str();
    empty = empty && inner.str().empty();
  }
  if (empty)
    os << pad(indent) << "T.evaluate(0)\n";
  return true;
}

/// A plain loop (serial, from 0, no annotations) that T.grid can print.
static bool isGridLoop(ForOp loop) {
  return loop.getKind() == ForKind::Serial &&
         loop.getConstantLowerBound() == 0 && !loop.getAnnotationsAttr();
}

bool Printer::forLoop(ForOp loop, int indent, std::ostringstream &os) {
  // A perfect nest of plain loops prints as one `for ... in T.grid(...)`.
  SmallVector<ForOp> grid;
  for (ForOp l = loop; l && isGridLoop(l);) {
    grid.push_back(l);
    Block *body = l.getBody();
    l = llvm::hasSingleElement(*body) ? dyn_cast<ForOp>(body->front())
                                      : ForOp();
  }
  if (grid.size() > 1) {
    std::string vars, extents;
    for (auto [i, l] : llvm::enumerate(grid))
      extents += (i ? ", " : "") + bound(l.getMixedUpperBound());
    push();
    for (auto [i, l] : llvm::enumerate(grid)) {
      std::string var = fresh(l.getVarName().value_or("i"));
      names[l.getInductionVar()] = var;
      vars += (i ? ", " : "") + var;
    }
    os << pad(indent) << "for " << vars << " in T.grid(" << extents
       << "):\n";
    bool ok = blockBody(*grid.back().getBody(), indent + 1, os);
    pop();
    return ok;
  }
  std::string lo = bound(loop.getMixedLowerBound());
  std::string hi = bound(loop.getMixedUpperBound());
  push();
  std::string var = fresh(loop.getVarName().value_or("i"));
  names[loop.getInductionVar()] = var;
  std::string range;
  std::string annotations;
  if (auto ann = loop.getAnnotationsAttr())
    annotations = ", annotations=" + dict(ann);
  switch (loop.getKind()) {
  case ForKind::Serial:
    range = annotations.empty()
                ? (lo == "0" ? "range(" + hi + ")"
                             : "range(" + lo + ", " + hi + ")")
                : "T.serial(" + lo + ", " + hi + annotations + ")";
    break;
  case ForKind::Parallel:
    range = "T.parallel(" + lo + ", " + hi + annotations + ")";
    break;
  case ForKind::Vectorized:
    range = "T.vectorized(" + lo + ", " + hi + annotations + ")";
    break;
  case ForKind::Unrolled:
    range = "T.unroll(" + lo + ", " + hi + annotations + ")";
    break;
  case ForKind::ThreadBinding:
    range = "T.thread_binding(" + lo + ", " + hi + ", thread=\"" +
            loop.getThread()->str() + "\"" + annotations + ")";
    break;
  }
  os << pad(indent) << "for " << var << " in " << range << ":\n";
  bool ok = blockBody(*loop.getBody(), indent + 1, os);
  pop();
  return ok;
}

bool Printer::tirBlock(BlockOp block, int indent, std::ostringstream &os) {
  os << pad(indent) << "with T.block(\"" << block.getBlockName().str()
     << "\"):\n";
  int in = indent + 1;
  SmallVector<std::string> inputs;
  for (Value v : block.getBindingValues())
    inputs.push_back(name(v));
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  static const char *kinds[] = {"spatial", "reduce", "scan", "opaque"};
  push();
  for (unsigned i = 0; i < block.getNumIterVars(); ++i) {
    StringRef hint = block.getVarNames()
                         ? cast<StringAttr>((*block.getVarNames())[i]).getValue()
                         : StringRef("v");
    std::string var = fresh(hint);
    std::string lo = bound(block.getMixedDomainLower(i));
    std::string hi = bound(block.getMixedDomainUpper(i));
    std::string domain = lo == "0" ? hi : "(" + lo + ", " + hi + ")";
    os << pad(in) << var << " = T.axis."
       << kinds[static_cast<int>(block.getIterType(i))] << "(" << domain
       << ", " << affine(bindings[i], inputs, {}) << ")\n";
    names[block.getIterVar(i)] = var;
  }
  if (block.getPredicate()) {
    // A disjunction of conjunctions of `e >= 0` (or `== 0`).
    SmallVector<IntegerSet> sets = block.getPredicateSets();
    std::string cond;
    for (auto [k, set] : llvm::enumerate(sets)) {
      std::string conj;
      SmallVector<AffineExpr> cs = getConstraintsOverInputs(set);
      for (auto [c, e] : llvm::enumerate(cs)) {
        std::string t = affine(e, inputs, {});
        conj += (c ? " and " : "") + (set.isEq(c) ? t + " == 0" : t + " >= 0");
      }
      if (cs.empty())
        conj = "True";
      bool paren = sets.size() > 1 && cs.size() > 1;
      cond += (k ? " or " : "") + (paren ? "(" + conj + ")" : conj);
    }
    os << pad(in) << "T.where(" << cond << ")\n";
  }
  if (Value condition = block.getCondition()) {
    // A T.where over loaded values: its expression, written over the loop
    // variables it was computed from before the block.
    std::string cond;
    if (!expr(condition, cond))
      return false;
    os << pad(in) << "T.where(" << cond << ")\n";
  }
  auto regions = [&](const char *kw, OperandRange buffers,
                     std::optional<ArrayAttr> maps) {
    if (!maps)
      return;
    SmallVector<std::string> iters;
    for (Value v : block.getRegionInputs())
      iters.push_back(name(v));
    os << pad(in) << "T." << kw << "(";
    for (auto [i, pair] : llvm::enumerate(llvm::zip(buffers, *maps))) {
      auto [buffer, attr] = pair;
      RegionExprs region =
          splitRegionMap(cast<AffineMapAttr>(attr).getValue());
      unsigned rank = region.starts.size();
      os << (i ? ", " : "") << name(buffer) << "[";
      for (unsigned d = 0; d < rank; ++d) {
        std::string start = affine(region.starts[d], iters, {});
        AffineExpr extentExpr = region.extents[d];
        auto extent = dyn_cast<AffineConstantExpr>(extentExpr);
        os << (d ? ", " : "");
        if (extent && extent.getValue() == 1)
          os << start;
        else
          os << start << ":"
             << affine(simplifyAffineExpr(region.starts[d] + extentExpr,
                                          iters.size(), 0),
                       iters, {});
      }
      os << "]";
    }
    os << ")\n";
  };
  regions("reads", block.getReadBuffers(), block.getReadRegions());
  regions("writes", block.getWriteBuffers(), block.getWriteRegions());
  if (auto ann = block.getAnnotationsAttr())
    os << pad(in) << "T.block_attr(" << dict(ann) << ")\n";
  if (InitOp init = block.getInitOp()) {
    os << pad(in) << "with T.init():\n";
    if (!blockBody(*init.getBody(), in + 1, os))
      return false;
  }
  bool ok = blockBody(*block.getBody(), in, os);
  pop();
  return ok;
}

bool Printer::function(func::FuncOp func, std::ostringstream &os) {
  if (func.isExternal())
    return fail(func, "a declaration has no body");
  SmallVector<std::string> params, matches;
  SmallVector<std::string> scalars;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    std::string n = "arg" + std::to_string(i);
    if (auto a = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName))
      n = a.str();
    n = fresh(n);
    names[arg] = n;
    if (arg.getType().isIndex())
      scalars.push_back(n);
  }
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    std::string n = names[arg];
    if (arg.getType().isIndex()) {
      params.push_back(n + ": T.int32");
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.getLayout().isIdentity())
      return fail(func, "parameter " + n + " is not a buffer with the "
                                           "identity layout or an index");
    SmallVector<std::string> dims;
    bool dynamic = false;
    for (int64_t d : type.getShape()) {
      if (ShapedType::isDynamic(d)) {
        // MLIR does not record which parameter a dimension is; with one
        // scalar parameter there is only one choice.
        if (scalars.size() != 1)
          return fail(func, "buffer " + n + " has a dynamic dimension and "
                                            "the function has no single "
                                            "scalar parameter to name it");
        dims.push_back(scalars.front());
        dynamic = true;
      } else {
        dims.push_back(std::to_string(d));
      }
    }
    std::string shape = tuple(dims);
    std::string dt = dtype(type.getElementType());
    // TVM's axis_separators, kept on the parameter.
    std::string options;
    if (auto seps = func.getArgAttrOfType<DenseI64ArrayAttr>(
            i, "tir.axis_separators")) {
      options = ", axis_separators=[";
      for (auto [k, x] : llvm::enumerate(seps.asArrayRef()))
        options += (k ? ", " : "") + std::to_string(x);
      options += "]";
    }
    if (dynamic) {
      std::string handle = fresh(StringRef(n).lower());
      params.push_back(handle + ": T.handle");
      matches.push_back(n + " = T.match_buffer(" + handle + ", " + shape +
                        ", \"" + dt + "\"" + options + ")");
    } else {
      params.push_back(n + ": T.Buffer(" + shape + ", \"" + dt + "\"" +
                       options + ")");
    }
  }
  os << "@T.prim_func\ndef " << func.getName().str() << "(";
  for (auto [i, p] : llvm::enumerate(params))
    os << (i ? ", " : "") << p;
  os << "):\n";
  for (const std::string &m : matches)
    os << pad(1) << m << "\n";
  return blockBody(func.getBody().front(), 1, os);
}

} // namespace

std::string mlir::tir::printTVMScript(ModuleOp module, std::string &error) {
  std::ostringstream os;
  os << "# from tensorir.script import tir as T\n";
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  bool many = funcs.size() > 1;
  if (many)
    os << "# from tensorir.script import ir as I\n\n@I.ir_module\nclass "
          "Module:\n";
  for (func::FuncOp func : funcs) {
    Printer printer(error);
    std::ostringstream f;
    if (!printer.function(func, f))
      return "";
    std::string text = f.str();
    if (many) {
      std::string indented;
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);)
        indented += (line.empty() ? "" : "    ") + line + "\n";
      text = indented;
    }
    os << "\n" << text;
  }
  return os.str();
}
