//===- Expressions.cpp - values printed as TVMScript expressions ----------===//
//
// Constants, loads, arithmetic, comparisons, casts, intrinsics and tir.call
// as Python expressions; affine index expressions with Python's operators
// (`//`, `%`, T.ceildiv); names for the values that need one.
//
//===----------------------------------------------------------------------===//

#include "Printer.h"

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::tvmscript;

std::string tvmscript::pad(int indent) { return std::string(4 * indent, ' '); }

std::string tvmscript::tuple(ArrayRef<std::string> items) {
  std::string s = "(";
  for (auto [i, item] : llvm::enumerate(items))
    s += (i ? ", " : "") + item;
  return s + (items.size() == 1 ? ",)" : ")");
}

std::string tvmscript::formatDouble(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
  return text;
}

bool Printer::fail(Operation *op, const std::string &why) {
  if (error.empty()) {
    llvm::raw_string_ostream s(error);
    s << "cannot print '" << op->getName() << "' as TVMScript: " << why;
  }
  return false;
}

std::string tvmscript::dtypeName(Type t) {
  if (t.isF16())
    return "float16";
  if (t.isF32())
    return "float32";
  if (t.isF64())
    return "float64";
  if (t.isBF16())
    return "bfloat16";
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3fn";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t))
    return "int" + std::to_string(i.getWidth());
  if (t.isIndex())
    return "int32";
  return "";
}

std::string Printer::dtype(Type t) { return dtypeName(t); }

/// `hint` as a Python identifier the script can bind: other characters
/// become `_`, and a name that starts with a digit, is a Python keyword or
/// is one a function body itself uses (T, range) gets a `v_` prefix.
static std::string identifier(StringRef hint) {
  std::string name;
  for (char c : hint)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (name.empty())
    return "v";
  static const char *reserved[] = {
      "T",      "range", "False",  "None",   "True",    "and",      "as",
      "assert", "async", "await",  "break",  "class",   "continue", "def",
      "del",    "elif",  "else",   "except", "finally", "for",      "from",
      "global", "if",    "import", "in",     "is",      "lambda",   "nonlocal",
      "not",    "or",    "pass",   "raise",  "return",  "try",      "while",
      "with",   "yield"};
  if (llvm::isDigit(name[0]) || llvm::is_contained(reserved, StringRef(name)))
    name = "v_" + name;
  return name;
}

std::string Printer::fresh(StringRef hint) {
  std::string base = identifier(hint);
  std::string name = base;
  auto taken = [&](const std::string &n) {
    return llvm::any_of(
        used, [&](const llvm::StringSet<> &s) { return s.contains(n); });
  };
  for (int n = 1; taken(name); ++n)
    name = base + "_" + std::to_string(n);
  used.back().insert(name);
  return name;
}

std::string Printer::affine(AffineExpr e, ArrayRef<std::string> dims,
                            ArrayRef<std::string> syms) {
  int precedence;
  return affine(e, dims, syms, precedence);
}

/// `precedence` is that of the printed text's outermost operator: 3 for an
/// atom, 2 for `*`, `//`, `%`, 1 for `+`, `-` (and a negative number).
std::string Printer::affine(AffineExpr e, ArrayRef<std::string> dims,
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

std::string Printer::bound(OpFoldResult b) {
  if (auto attr = dyn_cast<Attribute>(b))
    return std::to_string(cast<IntegerAttr>(attr).getInt());
  return name(cast<Value>(b));
}

std::string Printer::name(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  std::string text;
  if (v.getType().isIndex() && expr(v, text))
    return text;
  return "<unnamed>";
}

/// Whether `op`, printed inline, reads a load written inline in it.
static bool readsInlinedLoad(Operation *op) {
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || !isWrittenInline(operand))
      continue;
    if (isa<LoadOp>(def) || readsInlinedLoad(def))
      return true;
  }
  return false;
}

/// Whether `op` computes an index from block arguments, constants, sizes
/// (memref.dim) and such computations only: the same value wherever it is
/// written, as TVMScript writes `n * 32` at each use.
static bool isIndexArithmetic(Operation *op, unsigned depth = 0) {
  if (depth > 8 || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isIndex() || op->getNumRegions() != 0 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::FloorDivSIOp,
           arith::CeilDivSIOp, arith::RemSIOp, affine::AffineApplyOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    Operation *def = operand.getDefiningOp();
    return !def || isa<arith::ConstantOp, memref::DimOp>(def) ||
           isIndexArithmetic(def, depth + 1);
  });
}

bool tvmscript::isWrittenInline(Value v) {
  Operation *def = v.getDefiningOp();
  if (def && isa<arith::ConstantOp>(def) && v.hasOneUse())
    return true;
  if (def && !v.hasOneUse() && isIndexArithmetic(def))
    return true;
  if (!def || !v.hasOneUse() || def->getNumRegions() != 0 || isa<StoreOp>(def))
    return false;
  if (!isa<LoadOp>(def)) {
    // Pure ops can move to their single use, unless that would carry a load
    // they inline past a write (a reduction of two buffers stores both
    // combined values after loading both current ones).
    Operation *user = *v.getUsers().begin();
    if (user->getBlock() != def->getBlock())
      return !readsInlinedLoad(def);
    for (Operation *op = def->getNextNode(); op && op != user;
         op = op->getNextNode())
      if (isa<StoreOp, ForOp, BlockOp>(op) || op->getNumRegions() != 0)
        return !readsInlinedLoad(def);
    return true;
  }
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
    if (llvm::any_of(op->getResults(), [](Value r) { return !r.hasOneUse(); }))
      return false;
    if (isa<LoadOp>(op) && !isWrittenInline(op->getResult(0)))
      return false;
  }
  return true;
}

/// An annotation value as Python: bools, integers, floats, strings, and
/// lists and dicts of them; None for anything else.
static std::string annotationValue(Attribute v) {
  if (auto b = dyn_cast<BoolAttr>(v))
    return b.getValue() ? "True" : "False";
  if (auto i = dyn_cast<IntegerAttr>(v))
    return std::to_string(i.getInt());
  if (auto f = dyn_cast<FloatAttr>(v)) {
    std::string text = formatDouble(f.getValueAsDouble());
    if (text.find_first_of(".eEni") == std::string::npos)
      text += ".0";
    return text;
  }
  if (auto str = dyn_cast<StringAttr>(v))
    return "\"" + str.str() + "\"";
  if (auto array = dyn_cast<ArrayAttr>(v)) {
    std::string s = "[";
    for (auto [k, item] : llvm::enumerate(array))
      s += (k ? ", " : "") + annotationValue(item);
    return s + "]";
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(v)) {
    std::string s = "[";
    for (auto [k, item] : llvm::enumerate(array.asArrayRef()))
      s += (k ? ", " : "") + std::to_string(item);
    return s + "]";
  }
  if (auto dict = dyn_cast<DictionaryAttr>(v)) {
    std::string s = "{";
    for (auto [k, a] : llvm::enumerate(dict))
      s += (k ? ", \"" : "\"") + a.getName().str() +
           "\": " + annotationValue(a.getValue());
    return s + "}";
  }
  return "None";
}

std::string Printer::dict(DictionaryAttr d) { return annotationValue(d); }

/// `T.float32(1.5)`, `T.int8(3)`, `True`, or a bare number for an index.
static bool constantExpr(arith::ConstantOp cst, const std::string &t,
                         std::string &out) {
  if (auto f = dyn_cast<FloatAttr>(cst.getValue())) {
    std::string text = formatDouble(f.getValueAsDouble());
    if (text.find_first_of(".eEni") == std::string::npos)
      text += ".0";
    if (text == "-nan")
      text = "nan"; // (the sign of a NaN is not kept)
    if (text == "inf" || text == "-inf" || text == "nan") {
      out = "T." + t + "(\"" + text + "\")";
      return true;
    }
    out = "T." + t + "(" + text + ")";
    return true;
  }
  if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
    out =
        cst.getType().isIndex()
            ? std::to_string(i.getInt())
            : (t == "bool" ? (i.getInt() ? "True" : "False")
                           : "T." + t + "(" + std::to_string(i.getInt()) + ")");
    return true;
  }
  return false;
}

StringRef tvmscript::infixOperator(Operation *op) {
  static const std::pair<StringRef, StringRef> infix[] = {
      {"arith.addf", "+"}, {"arith.addi", "+"},        {"arith.subf", "-"},
      {"arith.subi", "-"}, {"arith.mulf", "*"},        {"arith.muli", "*"},
      {"arith.divf", "/"}, {"arith.floordivsi", "//"}, {"arith.divui", "//"},
      {"arith.remui", "%"}};
  for (auto [opName, symbol] : infix)
    if (op->getName().getStringRef() == opName)
      return symbol;
  return "";
}

StringRef tvmscript::intrinsicName(Operation *op) {
  static const std::pair<StringRef, StringRef> calls[] = {
      {"arith.maximumf", "max"},
      {"arith.maxnumf", "max"},
      {"arith.minnumf", "min"},
      {"arith.maxsi", "max"},
      {"arith.minimumf", "min"},
      {"arith.minsi", "min"},
      {"arith.maxui", "max"},
      {"arith.minui", "min"},
      {"arith.shli", "shift_left"},
      {"arith.shrsi", "shift_right"},
      {"arith.shrui", "shift_right"},
      {"math.exp", "exp"},
      {"math.sqrt", "sqrt"},
      {"math.log", "log"},
      {"math.tanh", "tanh"},
      {"arith.divsi", "truncdiv"},
      {"arith.remsi", "truncmod"},
      {"math.floor", "floor"},
      {"math.ceil", "ceil"},
      {"math.roundeven", "round"},
      {"math.absf", "abs"},
      {"math.sin", "sin"},
      {"math.cos", "cos"},
      {"math.exp2", "exp2"},
      {"math.log2", "log2"},
      {"math.erf", "erf"},
      {"math.rsqrt", "rsqrt"}};
  for (auto [opName, fn] : calls)
    if (op->getName().getStringRef() == opName)
      return fn;
  return "";
}

StringRef tvmscript::comparisonOperator(Operation *op) {
  std::string pred;
  if (auto f = dyn_cast<arith::CmpFOp>(op))
    pred = arith::stringifyCmpFPredicate(f.getPredicate()).str();
  else if (auto i = dyn_cast<arith::CmpIOp>(op))
    pred = arith::stringifyCmpIPredicate(i.getPredicate()).str();
  else
    return "";
  static const std::pair<StringRef, StringRef> preds[] = {
      {"olt", "<"},  {"slt", "<"},  {"ole", "<="}, {"sle", "<="},
      {"ogt", ">"},  {"sgt", ">"},  {"oge", ">="}, {"sge", ">="},
      {"ult", "<"},  {"ule", "<="}, {"ugt", ">"},  {"uge", ">="},
      {"oeq", "=="}, {"eq", "=="},  {"one", "!="}, {"ne", "!="}};
  for (auto [p, symbol] : preds)
    if (pred == p)
      return symbol;
  return "";
}

bool Printer::isUnsigned(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto load = dyn_cast<LoadOp>(def))
    return bool(getUnsignedDtype(load.getBuffer()));
  if (isa<arith::FPToUIOp>(def))
    return true;
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
          arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, arith::MinUIOp,
          arith::MaxUIOp, arith::SelectOp>(def))
    return llvm::any_of(def->getOperands(),
                        [&](Value o) { return isUnsigned(o); });
  return false;
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
    if (constantExpr(cst, dtype(cst.getType()), out))
      return true;
    return fail(def, "a constant that is not a number");
  }
  if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
    std::string buffer = name(meta.getSource());
    if (v == meta.getOffset()) {
      out = buffer + ".elem_offset";
      return true;
    }
    for (auto [k, stride] : llvm::enumerate(meta.getStrides()))
      if (v == stride) {
        out = buffer + ".strides[" + std::to_string(k) + "]";
        return true;
      }
    return fail(def, "a buffer's base or sizes have no TVMScript form");
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
    // A zero-dimensional buffer's one element is `C[()]`, as in TVM.
    out = s + (map.getNumResults() ? "]" : "()]");
    return true;
  }
  // An unsigned operation prints as the signed one's Python form: only
  // where an operand reads as unsigned does it parse back the same (a bool
  // widens with zeros either way).
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, arith::MinUIOp,
          arith::MaxUIOp, arith::ShRUIOp, arith::ExtUIOp, arith::UIToFPOp,
          arith::IndexCastUIOp>(def) ||
      (isa<arith::CmpIOp>(def) &&
       llvm::is_contained({arith::CmpIPredicate::ult, arith::CmpIPredicate::ule,
                           arith::CmpIPredicate::ugt,
                           arith::CmpIPredicate::uge},
                          cast<arith::CmpIOp>(def).getPredicate()))) {
    bool boolSource =
        isa<arith::ExtUIOp>(def) && def->getOperand(0).getType().isInteger(1);
    if (!boolSource && !llvm::any_of(def->getOperands(),
                                     [&](Value o) { return isUnsigned(o); }))
      return fail(def, "an unsigned operation on values of no uint buffer");
  }
  if (StringRef symbol = infixOperator(def); !symbol.empty()) {
    if (!operand(0, a) || !operand(1, b))
      return false;
    out = "(" + a + " " + symbol.str() + " " + b + ")";
    return true;
  }
  if (StringRef fn = intrinsicName(def); !fn.empty()) {
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
    if (!boolean) {
      // On integers, TVM's bitwise calls (which the parser reads).
      StringRef fn = isa<arith::AndIOp>(def)  ? "bitwise_and"
                     : isa<arith::OrIOp>(def) ? "bitwise_or"
                                              : "bitwise_xor";
      out = "T." + fn.str() + "(" + a + ", " + b + ")";
      return true;
    }
    StringRef symbol = isa<arith::AndIOp>(def)  ? "and"
                       : isa<arith::OrIOp>(def) ? "or"
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
  if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def)) {
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
  if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
    // T.if_then_else: each side is a value its region computes (loads and
    // pure ops only), evaluated only when the condition picks it.
    if (ifOp.getNumResults() != 1 || !ifOp.elseBlock())
      return fail(def, "no TVMScript form (only a one-value scf.if with an "
                       "else side is T.if_then_else)");
    std::string sides[2];
    Block *blocks[2] = {ifOp.thenBlock(), ifOp.elseBlock()};
    for (int k = 0; k < 2; ++k) {
      for (Operation &op : blocks[k]->without_terminator())
        if (!isa<LoadOp>(op) && !isMemoryEffectFree(&op))
          return fail(&op, "no TVMScript form inside T.if_then_else");
      if (!expr(blocks[k]->getTerminator()->getOperand(0), sides[k]))
        return false;
    }
    if (!operand(0, a))
      return false;
    out = "T.if_then_else(" + a + ", " + sides[0] + ", " + sides[1] + ")";
    return true;
  }
  if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    // Eager, as the parser reads T.Select (T.if_then_else is an scf.if).
    if (!operand(0, a) || !operand(1, b) || !operand(2, c))
      return false;
    out = "T.Select(" + a + ", " + b + ", " + c + ")";
    return true;
  }
  if (isa<arith::CmpFOp, arith::CmpIOp>(def)) {
    StringRef symbol = comparisonOperator(def);
    if (symbol.empty())
      return fail(def, "a comparison TVM has no form for");
    if (!operand(0, a) || !operand(1, b))
      return false;
    out = "(" + a + " " + symbol.str() + " " + b + ")";
    return true;
  }
  // Conversions; an unsigned source reads as unsigned through its buffer's
  // dtype (tir.dtype), a conversion to unsigned says so.
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp, arith::ExtUIOp,
          arith::UIToFPOp, arith::FPToUIOp, arith::IndexCastUIOp>(def)) {
    if (!operand(0, a))
      return false;
    // An integer made an index is written as the integer (the parser
    // converts indices itself, by the value's signedness).
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def) &&
        def->getResult(0).getType().isIndex()) {
      out = a;
      return true;
    }
    std::string t = dtype(def->getResult(0).getType());
    if (isa<arith::FPToUIOp>(def))
      t = "u" + t;
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
    } else if (auto b = dyn_cast<BoolAttr>(attr)) {
      // As TVM prints a bool IntImm (as an integer, true would read -1).
      args += b.getValue() ? "T.bool(True)" : "T.bool(False)";
    } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
      args += std::to_string(i.getInt());
    } else if (auto f = dyn_cast<FloatAttr>(attr)) {
      args += "T." + dtype(f.getType()) + "(" +
              formatDouble(f.getValueAsDouble()) + ")";
    } else {
      return fail(call, "an argument that is not a value, string or number");
    }
  }
  // TVM's extern calls take their result's dtype first ("handle" for none).
  StringRef callee = call.getCallee();
  if (llvm::is_contained({"call_extern", "call_pure_extern", "call_llvm_intrin",
                          "call_llvm_pure_intrin"},
                         callee)) {
    std::string result = call->getNumResults()
                             ? dtype(call->getResult(0).getType())
                             : std::string("handle");
    if (result.empty())
      return fail(call, "a result of a type TVMScript has no dtype for");
    args = "\"" + result + "\"" + (args.empty() ? "" : ", ") + args;
  }
  out = "T." + callee.str() + "(" + args + ")";
  return true;
}
