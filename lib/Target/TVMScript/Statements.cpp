//===- Statements.cpp - loops, blocks and stores printed as TVMScript -----===//
//
// `for ... in T.grid(...)` / `range` / `T.parallel` / ..., `with
// T.block(...)` with its axes, T.where, reads/writes, annotations and
// init, buffer stores, T.alloc_buffer, named values and T.evaluate.
//
//===----------------------------------------------------------------------===//

#include "Printer.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::tvmscript;

/// Drops the parentheses around a whole expression (a statement's
/// right-hand side needs none).
static std::string unwrap(std::string text) {
  if (text.size() > 2 && text.front() == '(' && text.back() == ')')
    return text.substr(1, text.size() - 2);
  return text;
}

bool Printer::fragment(func::FuncOp func, llvm::raw_ostream &os) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto a = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    names[func.getArgument(i)] = fresh(a ? a.getValue() : "v");
  }
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!statement(op, 0, os))
      return false;
  Operation *ret = body.getTerminator();
  if (ret->getNumOperands() == 0)
    return true;
  std::string value;
  if (!expr(ret->getOperand(0), value))
    return false;
  os << unwrap(value);
  return true;
}

bool Printer::statement(Operation &op, int indent, llvm::raw_ostream &os) {
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
    os << pad(indent) << target << (map.getNumResults() ? "] = " : "()] = ")
       << unwrap(value) << "\n";
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
    StringAttr unsignedType = getUnsignedDtype(alloc.getBuffer());
    os << pad(indent) << n << " = T.alloc_buffer(" << shape << ", \""
       << (unsignedType ? unsignedType.str() : dtype(type.getElementType()))
       << "\"";
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
  if (auto match = dyn_cast<MatchBufferOp>(op))
    return matchBuffer(match, indent, os);
  if (isa<memref::ExtractStridedMetadataOp>(op))
    return true; // Its results print as `X.elem_offset` / `X.strides[k]`.
  if (op.getNumResults() == 1 &&
      (op.getNumRegions() == 0 || isa<scf::IfOp>(op))) {
    Value v = op.getResult(0);
    if (isWrittenInline(v)) {
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
    os << pad(indent) << n << " = " << unwrap(text) << "\n";
    return true;
  }
  if (auto call = dyn_cast<CallOp>(op); call && call->getNumResults() == 0) {
    std::string text;
    if (!callExpr(call, text))
      return false;
    os << pad(indent) << "T.evaluate(" << text << ")\n";
    return true;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && ifOp->getNumResults() == 0) {
    // A conditional statement (TVM's IfThenElse; --tir-lower-init makes
    // them): `if cond:` with its branches.
    std::string cond;
    if (!expr(ifOp.getCondition(), cond))
      return false;
    os << pad(indent) << "if " << unwrap(cond) << ":\n";
    push();
    bool ok = blockBody(ifOp.getThenRegion().front(), indent + 1, os);
    pop();
    if (!ok)
      return false;
    if (!ifOp.getElseRegion().empty() &&
        !llvm::hasSingleElement(ifOp.getElseRegion().front())) {
      os << pad(indent) << "else:\n";
      push();
      ok = blockBody(ifOp.getElseRegion().front(), indent + 1, os);
      pop();
    }
    return ok;
  }
  if (isa<InitOp>(op))
    return true; // Printed with its block.
  return fail(&op, "no TVMScript form");
}

bool Printer::blockBody(Block &block, int indent, llvm::raw_ostream &os) {
  bool empty = true;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    std::string text;
    llvm::raw_string_ostream inner(text);
    if (!statement(op, indent, inner))
      return false;
    os << text;
    empty = empty && text.empty();
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

/// Whether a bound of `loop` is the variable of one of the `outer` loops.
static bool boundedByAnyOf(ForOp loop, ArrayRef<ForOp> outer) {
  return llvm::any_of(loop.getDynamicBounds(), [&](Value bound) {
    return llvm::any_of(outer,
                        [&](ForOp o) { return bound == o.getInductionVar(); });
  });
}

bool Printer::forLoop(ForOp loop, int indent, llvm::raw_ostream &os) {
  // A perfect nest of plain loops prints as one `for ... in T.grid(...)`,
  // as long as no extent is a variable of the grid itself (a triangular
  // nest is nested loops).
  SmallVector<ForOp> grid;
  for (ForOp l = loop; l && isGridLoop(l) && !boundedByAnyOf(l, grid);) {
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
    os << pad(indent) << "for " << vars << " in T.grid(" << extents << "):\n";
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
  // As TVM prints them: the start only when it is not 0.
  std::string bounds = lo == "0" ? hi : lo + ", " + hi;
  switch (loop.getKind()) {
  case ForKind::Serial:
    range = annotations.empty() ? "range(" + bounds + ")"
                                : "T.serial(" + bounds + annotations + ")";
    break;
  case ForKind::Parallel:
    range = "T.parallel(" + bounds + annotations + ")";
    break;
  case ForKind::Vectorized:
    range = "T.vectorized(" + bounds + annotations + ")";
    break;
  case ForKind::Unrolled:
    range = "T.unroll(" + bounds + annotations + ")";
    break;
  case ForKind::ThreadBinding:
    range = "T.thread_binding(" + bounds + ", thread=\"" +
            loop.getThread()->str() + "\"" + annotations + ")";
    break;
  }
  os << pad(indent) << "for " << var << " in " << range << ":\n";
  bool ok = blockBody(*loop.getBody(), indent + 1, os);
  pop();
  return ok;
}

std::string Printer::region(Value buffer, AffineMap map,
                            ArrayRef<std::string> inputs) {
  RegionExprs region = splitRegionMap(map);
  std::string out = name(buffer) + "[";
  for (unsigned d = 0; d < region.starts.size(); ++d) {
    std::string start = affine(region.starts[d], inputs, {});
    AffineExpr extentExpr = region.extents[d];
    auto extent = dyn_cast<AffineConstantExpr>(extentExpr);
    out += d ? ", " : "";
    if (extent && extent.getValue() == 1)
      out += start;
    else
      out += start + ":" +
             affine(simplifyIndexExpr(region.starts[d] + extentExpr,
                                      inputs.size(), 0),
                    inputs, {});
  }
  return out + (region.starts.empty() ? "()]" : "]");
}

void Printer::regions(BlockOp block, const char *keyword, OperandRange buffers,
                      std::optional<ArrayAttr> maps, int indent,
                      llvm::raw_ostream &os) {
  if (!maps)
    return;
  SmallVector<std::string> iters;
  for (Value v : block.getRegionInputs())
    iters.push_back(name(v));
  os << pad(indent) << "T." << keyword << "(";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(buffers, *maps))) {
    auto [buffer, attr] = pair;
    os << (i ? ", " : "")
       << region(buffer, cast<AffineMapAttr>(attr).getValue(), iters);
  }
  os << ")\n";
}

bool Printer::matchBuffer(MatchBufferOp match, int indent,
                          llvm::raw_ostream &os) {
  SmallVector<std::string> inputs;
  for (Value v : match.getIndices()) {
    std::string s;
    if (!expr(v, s))
      return false;
    inputs.push_back(s);
  }
  auto type = cast<MemRefType>(match.getResult().getType());
  SmallVector<std::string> dims;
  for (int64_t d : type.getShape()) {
    if (ShapedType::isDynamic(d))
      return fail(match, "a matched region of a size known only at run time");
    dims.push_back(std::to_string(d));
  }
  std::string n = fresh(name(match.getSource()));
  std::string text = region(match.getSource(), match.getSourceRegion(), inputs);
  names[match.getResult()] = n;
  os << pad(indent) << n << " = T.match_buffer(" << text << ", " << tuple(dims)
     << ", \"" << dtype(type.getElementType()) << "\"";
  if (auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace()))
    os << ", scope=\"" << scope.str() << "\"";
  os << ", offset_factor=1";
  if (std::optional<ArrayRef<int64_t>> seps = match.getAxisSeparators()) {
    os << ", axis_separators=[";
    llvm::interleaveComma(*seps, os);
    os << "]";
  }
  os << ")\n";
  return true;
}

bool Printer::tirBlock(BlockOp block, int indent, llvm::raw_ostream &os) {
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
    StringRef hint =
        block.getVarNames()
            ? cast<StringAttr>((*block.getVarNames())[i]).getValue()
            : StringRef("v");
    std::string var = fresh(hint);
    std::string lo = bound(block.getMixedDomainLower(i));
    std::string hi = bound(block.getMixedDomainUpper(i));
    std::string domain = lo == "0" ? hi : "(" + lo + ", " + hi + ")";
    os << pad(in) << var << " = T.axis."
       << kinds[static_cast<int>(block.getIterType(i))] << "(" << domain << ", "
       << affine(bindings[i], inputs, {}) << ")\n";
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
  regions(block, "reads", block.getReadBuffers(), block.getReadRegions(), in,
          os);
  regions(block, "writes", block.getWriteBuffers(), block.getWriteRegions(), in,
          os);
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
