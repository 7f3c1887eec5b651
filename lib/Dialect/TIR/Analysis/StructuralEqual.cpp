//===- StructuralEqual.cpp - TVM-style structural equality ---------------===//
//
// Each side of a comparison is flattened, independently, into a list of
// items: (what, index, canonical node) for every statement, attribute,
// variable definition and expression, in walk order. Variables are numbered
// in order of definition, and the canonical nodes of both sides live in one
// hash-consed table, so
//
//   - two ops are equal exactly when their item lists are equal item by
//     item (pointer equality of nodes): a definition at the same place gets
//     the same number on both sides, which is the alpha-equivalence map;
//   - the first unequal item is the first difference in walk order;
//   - the structural hash is a hash of the item list, so equal ops hash
//     alike by construction.
//
//===----------------------------------------------------------------------===//

#include "Flattener.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::detail;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Flattener::walkRegion(Operation *owner, Region &region) {
  emit(owner, owner, "blocks", -1, table.getInt(region.getBlocks().size()));
  for (Block &block : region) {
    SmallVector<const Node *> types;
    for (BlockArgument arg : block.getArguments())
      types.push_back(table.getType(arg.getType()));
    emit(owner, owner, "block arguments", -1, table.getList(types));
    for (BlockArgument arg : block.getArguments())
      if (!values.count(arg))
        define(arg);
    int64_t position = 0;
    for (Operation &op : block)
      if (isStatement(&op))
        walkStatement(&op, owner, position++);
    emit(owner, nullptr, "statement", position, table.getStr("<end of block>"));
  }
}

void Flattener::walkStatement(Operation *op, Operation *parent,
                              int64_t position) {
  emit(parent ? parent : op, op, "statement", position,
       table.getStr(op->getName().getStringRef()));
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return walkFunction(func);
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](ForOp op) { walkFor(op); })
      .Case([&](BlockOp op) { walkBlock(op); })
      .Case([&](StoreOp op) { walkStore(op); })
      .Case([&](AllocBufferOp op) { walkAllocBuffer(op); })
      .Case([&](MatchBufferOp op) { walkMatchBuffer(op); })
      .Default([&](Operation *op) { walkGeneric(op); });
}

void Flattener::walkFunction(FunctionOpInterface func) {
  Operation *op = func;
  emit(op, op, "function type", -1, table.getType(func.getFunctionType()));
  if (options.compareSymbolNames)
    emit(op, op, "symbol name", -1, table.getStr(func.getName()));
  emit(op, op, "attributes", -1,
       table.getAttr(
           attributes(op, {"sym_name", "function_type", "arg_attrs",
                           "res_attrs", TIRDialect::kParamNestingAttrName})));
  // A graph function's tuple parameters: how they nest, their names free.
  if (auto nesting =
          op->getAttrOfType<ArrayAttr>(TIRDialect::kParamNestingAttrName)) {
    SmallVector<Attribute> unnamed;
    for (Attribute entry : nesting) {
      auto tuple = dyn_cast<DictionaryAttr>(entry);
      unnamed.push_back(tuple ? tuple.get("fields") : entry);
      if (!unnamed.back())
        unnamed.back() = entry;
    }
    emit(op, op, "parameter nesting", -1,
         table.getAttr(ArrayAttr::get(op->getContext(), unnamed)));
  }
  // tir.dim_vars names variables: compared up to renaming, a name being
  // the scalar parameter of that name or else the shape variable numbered
  // in order of first use.
  llvm::StringMap<std::string> dimVars;
  unsigned shapeVars = 0;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (auto name = func.getArgAttrOfType<StringAttr>(i, kArgNameAttr))
      if (isa<IndexType, IntegerType>(func.getArgument(i).getType()))
        dimVars.try_emplace(name.getValue(), "argument " + std::to_string(i));
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    NamedAttrList attrs(func.getArgAttrDict(i));
    attrs.erase(kArgNameAttr);
    // How a build calls the function (the layout the user declared before
    // transform_layout), which TVM's programs do not carry.
    attrs.erase(TIRDialect::kDeclaredLayoutAttrName);
    auto vars =
        dyn_cast_or_null<ArrayAttr>(attrs.erase(TIRDialect::kDimVarsAttrName));
    emit(op, op, "argument attributes", i,
         table.getAttr(attrs.getDictionary(op->getContext())));
    if (!vars || llvm::all_of(vars, [](Attribute var) {
          auto s = dyn_cast<StringAttr>(var);
          return s && s.getValue().empty();
        }))
      continue;
    SmallVector<const Node *> canonical;
    for (Attribute var : vars) {
      auto name = dyn_cast<StringAttr>(var);
      if (!name || name.getValue().empty()) {
        canonical.push_back(table.getStr(""));
        continue;
      }
      auto [it, added] = dimVars.try_emplace(
          name.getValue(), "variable " + std::to_string(shapeVars));
      shapeVars += added;
      canonical.push_back(table.getStr(it->second));
    }
    emit(op, op, "dimension variables", i, table.getList(canonical));
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    NamedAttrList attrs(func.getResultAttrDict(i));
    emit(op, op, "result attributes", i,
         table.getAttr(attrs.getDictionary(op->getContext())));
  }
  for (Region &region : op->getRegions())
    walkRegion(op, region);
}

void Flattener::walkFor(ForOp op) {
  emit(op, op, "loop kind", -1, table.getStr(stringifyForKind(op.getKind())));
  emit(op, op, "thread", -1, table.getAttr(op.getThreadAttr()));
  emit(op, op, "annotations", -1, annotations(op.getAnnotationsAttr()));
  emit(op, op, "lower bound", -1, indexExpr(op.getMixedLowerBound()));
  emit(op, op, "upper bound", -1, indexExpr(op.getMixedUpperBound()));
  emit(op, op, "attributes", -1,
       table.getAttr(attributes(op, {"kind", "thread", "annotations",
                                     "static_bounds", "operandSegmentSizes"})));
  define(op.getInductionVar(),
         rangeOf(op.getMixedLowerBound(), op.getMixedUpperBound()));
  walkRegion(op, op.getRegion());
}

void Flattener::walkBlock(BlockOp op) {
  // As TVM, a block's name is a hint, like a variable's: not compared (the
  // path of a difference still names the block).
  unsigned numIterVars = op.getNumIterVars();
  emit(op, op, "iteration variables", -1, table.getInt(numIterVars));
  for (unsigned i = 0; i < numIterVars; ++i) {
    emit(op, op, "iteration variable kind", i,
         table.getStr(stringifyIterType(op.getIterType(i))));
    emit(op, op, "domain", i,
         table.apply("range", {indexExpr(op.getMixedDomainLower(i)),
                               indexExpr(op.getMixedDomainUpper(i))}));
  }

  // Bindings and predicate are written over binding_values.
  SmallVector<const Node *> bindingInputs = exprs(op.getBindingValues());
  AffineMap bindings = op.getBindings();
  emit(op, op, "bindings", -1, table.getInt(bindings.getNumResults()));
  for (auto [i, e] : llvm::enumerate(bindings.getResults()))
    emit(op, op, "binding", i,
         table.fromAffine(e, bindings.getNumDims(), bindingInputs));
  // A disjunction of conjunctions; none is `true`.
  SmallVector<const Node *> disjuncts;
  for (IntegerSet set : op.getPredicateSets())
    disjuncts.push_back(table.conjunction(set, bindingInputs));
  emit(op, op, "predicate", -1,
       op.getPredicate() ? table.disjunction(disjuncts) : table.getStr("true"));
  // A value condition (T.where over loaded values) is compared as the
  // expression that computes it.
  emit(op, op, "condition", -1,
       op.getCondition() ? expr(op.getCondition()) : table.getStr("true"));

  for (unsigned i = 0; i < numIterVars; ++i)
    define(op.getIterVar(i),
           rangeOf(op.getMixedDomainLower(i), op.getMixedDomainUpper(i)));
  walkAccessRegions(op);
  emit(op, op, "annotations", -1, annotations(op.getAnnotationsAttr()));
  emit(op, op, "attributes", -1,
       table.getAttr(attributes(op, {"block_name", "iter_types",
                                     "static_domains", "bindings", "predicate",
                                     "read_regions", "write_regions",
                                     "annotations", "operandSegmentSizes"})));
  walkRegion(op, op.getRegion());
}

namespace {
/// The buffers read under a block, in the order that a walk of statements
/// and, within each, of expression trees (operands left to right, a load
/// before its indices) first reaches them. This is the order of TVM's
/// inferred reads, and it does not depend on where pure ops are placed.
struct ReadOrder {
  SmallVector<Value> buffers;
  DenseSet<Value> visited;

  void add(Value buffer) {
    if (!llvm::is_contained(buffers, buffer))
      buffers.push_back(buffer);
  }
  void visitValue(Value v) {
    if (!visited.insert(v).second)
      return;
    Operation *def = v.getDefiningOp();
    if (!def || isStatement(def))
      return;
    if (auto load = dyn_cast<LoadOp>(def))
      add(load.getBuffer());
    for (Value operand : def->getOperands())
      visitValue(operand);
  }
  void visitBlock(Block &block) {
    for (Operation &op : block) {
      if (!isStatement(&op))
        continue;
      for (Value operand : op.getOperands())
        visitValue(operand);
      // A nested block reads what its regions say, when given.
      if (auto nested = dyn_cast<BlockOp>(op);
          nested && nested.getReadRegions()) {
        for (Value buffer : nested.getReadBuffers())
          add(buffer);
        continue;
      }
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          visitBlock(inner);
    }
  }
};
} // namespace

void Flattener::walkAccessRegions(BlockOp op) {
  // Regions left out are inferred, as TVMScript's parser does (on a copy of
  // the block, so that the IR is left as it is); they stay "not given" when
  // inference fails.
  BlockOp source = op;
  OwningOpRef<BlockOp> inferred;
  if (!op.hasAccessRegions()) {
    inferred = cast<BlockOp>(op->clone());
    ThreadDiagnosticHandler silence(op.getContext(),
                                    [](Diagnostic &) { return success(); });
    if (succeeded(inferAccessRegions(*inferred)))
      source = *inferred;
  }
  // Region maps range over the iteration variables (those of `op`, also
  // for the copy), then region_values.
  SmallVector<const Node *> inputs;
  for (auto [i, v] : llvm::enumerate(source.getRegionInputs()))
    inputs.push_back(i < op.getNumIterVars() ? values.lookup(op.getIterVar(i))
                                             : expr(v));
  auto entries = [](OperandRange buffers, std::optional<ArrayAttr> maps) {
    std::optional<SmallVector<std::pair<Value, AffineMap>>> list;
    if (!maps)
      return list;
    list.emplace();
    for (auto [buffer, map] : llvm::zip(buffers, *maps))
      list->push_back({buffer, cast<AffineMapAttr>(map).getValue()});
    return list;
  };
  auto reads = entries(source.getReadBuffers(), source.getReadRegions());
  auto writes = entries(source.getWriteBuffers(), source.getWriteRegions());
  // Inferred reads follow the order in which the body's ops are printed;
  // put them in expression-tree order instead. (Writes are made by
  // statements, whose order is compared anyway.)
  if (reads && source != op && !op.getReadRegions()) {
    ReadOrder order;
    order.visitBlock(*op.getBody());
    auto rank = [&](Value buffer) {
      return llvm::find(order.buffers, buffer) - order.buffers.begin();
    };
    llvm::stable_sort(*reads, [&](const auto &a, const auto &b) {
      return rank(a.first) < rank(b.first);
    });
  }
  walkAccesses(op, "reads", "read", reads, inputs);
  walkAccesses(op, "writes", "write", writes, inputs);
}

void Flattener::walkAccesses(
    BlockOp op, StringRef what, StringRef itemWhat,
    const std::optional<SmallVector<std::pair<Value, AffineMap>>> &entries,
    ArrayRef<const Node *> inputs) {
  if (!entries) {
    emit(op, op, what, -1, table.getStr("<not given>"));
    return;
  }
  emit(op, op, what, -1, table.getInt(entries->size()));
  for (auto [i, entry] : llvm::enumerate(*entries))
    emit(op, op, itemWhat, i, region(expr(entry.first), entry.second, inputs));
}

void Flattener::walkStore(StoreOp op) {
  emit(op, op, "stored value", -1, expr(op.getValue()));
  emit(op, op, "store target", -1,
       access(expr(op.getBuffer()), op.getMap(), op.getIndices()));
  emit(op, op, "attributes", -1,
       table.getAttr(attributes(op, {"map", "operandSegmentSizes"})));
}

void Flattener::walkAllocBuffer(AllocBufferOp op) {
  emit(op, op, "buffer type", -1, table.getType(op.getType()));
  SmallVector<const Node *> sizes;
  for (Value size : op.getDynamicSizes())
    sizes.push_back(table.asSum(expr(size)));
  emit(op, op, "dynamic sizes", -1, table.getList(sizes));
  emit(op, op, "attributes", -1, table.getAttr(attributes(op, {})));
  define(op.getResult());
}

void Flattener::walkMatchBuffer(MatchBufferOp op) {
  emit(op, op, "matched region", -1,
       region(expr(op.getSource()), op.getSourceRegion(),
              exprs(op.getIndices())));
  emit(op, op, "buffer type", -1, table.getType(op.getType()));
  emit(op, op, "attributes", -1,
       table.getAttr(attributes(op, {"source_region"})));
  define(op.getResult());
}

void Flattener::walkGeneric(Operation *op) {
  emit(op, op, "attributes", -1, table.getAttr(attributes(op, {})));
  emit(op, op, "operands", -1, table.getInt(op->getNumOperands()));
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    emit(op, op, "operand", i, expr(operand));
  SmallVector<const Node *> types;
  for (Type type : op->getResultTypes())
    types.push_back(table.getType(type));
  emit(op, op, "result types", -1, table.getList(types));
  if (op->getNumSuccessors()) {
    SmallVector<const Node *> successors;
    for (Block *succ : op->getSuccessors()) {
      Region *region = succ->getParent();
      successors.push_back(
          table.getInt(std::distance(region->begin(), Region::iterator(succ))));
    }
    emit(op, op, "successors", -1, table.getList(successors));
  }
  emit(op, op, "regions", -1, table.getInt(op->getNumRegions()));
  for (Region &region : op->getRegions())
    walkRegion(op, region);
  for (Value result : op->getResults())
    define(result);
}

//===----------------------------------------------------------------------===//
// Hashing and messages
//===----------------------------------------------------------------------===//

uint64_t Flattener::hash() const {
  uint64_t h = hashString("tir.structural_hash");
  for (const Item &item : items) {
    h = hashCombine(h, hashString(item.what));
    h = hashCombine(h, item.index);
    h = hashCombine(h, item.node->hash);
  }
  return h;
}

std::string Flattener::label(Operation *op) const {
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return ("func @" + func.getName()).str();
  if (auto block = dyn_cast<BlockOp>(op))
    return ("tir.block \"" + block.getBlockName() + "\"").str();
  std::string name = op->getName().getStringRef().str();
  if (op == root || !op->getBlock())
    return name;
  unsigned position = 0;
  for (Operation &sibling : *op->getBlock()) {
    if (&sibling == op)
      break;
    if (sibling.getName() == op->getName() && isStatement(&sibling))
      ++position;
  }
  return name + " #" + std::to_string(position);
}

std::string Flattener::pathOf(Operation *op) const {
  SmallVector<Operation *> chain;
  for (Operation *o = op; o; o = o->getParentOp()) {
    chain.push_back(o);
    if (o == root)
      break;
  }
  std::string path;
  for (Operation *o : llvm::reverse(chain)) {
    if (!path.empty())
      path += " > ";
    path += label(o);
  }
  return path;
}

std::string Flattener::nameOf(Value v) const {
  auto nonEmpty = [](Attribute attr) -> std::optional<std::string> {
    if (auto str = dyn_cast_or_null<StringAttr>(attr); str && !str.empty())
      return str.str();
    return std::nullopt;
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto forOp = dyn_cast_or_null<ForOp>(owner)) {
      if (auto name = nonEmpty(forOp.getVarNameAttr()))
        return *name;
    } else if (auto block = dyn_cast_or_null<BlockOp>(owner)) {
      if (auto names = block.getVarNamesAttr(); names && n < names.size())
        if (auto name = nonEmpty(names[n]))
          return *name;
    } else if (auto func = dyn_cast_or_null<FunctionOpInterface>(owner);
               func && arg.getOwner()->isEntryBlock()) {
      if (auto name = nonEmpty(func.getArgAttr(n, kArgNameAttr)))
        return *name;
      return "arg" + std::to_string(n);
    }
  } else if (auto alloc = v.getDefiningOp<AllocBufferOp>()) {
    if (auto name = nonEmpty(alloc.getBufferNameAttr()))
      return *name;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  v.printAsOperand(os, OpPrintingFlags());
  return text;
}

std::string Flattener::print(const Node *n, bool withTypes, bool withIds) {
  std::string text;
  llvm::raw_string_ostream os(text);
  table.print(
      os, n,
      [&](raw_ostream &os, const Node *var) {
        if (var->kind == NodeKind::Var) {
          os << nameOf(vars[var->value]);
          if (withIds)
            os << '#' << var->value;
        } else {
          os << nameOf(Value::getFromOpaquePointer(var->ptr)) << "#free";
        }
      },
      withTypes);
  return text;
}

static std::string printOp(Operation *op) {
  if (!op)
    return "<end of block>";
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().skipRegions().elideLargeElementsAttrs(16));
  return text;
}

static StructuralDifference describe(Flattener &lhs, const Item *a,
                                     Flattener &rhs, const Item *b) {
  StructuralDifference diff;
  const Item &any = a ? *a : *b;
  diff.path = lhs.pathOf(a ? a->context : lhs.getItems().back().context);
  if (a && b && (a->what != b->what || a->index != b->index)) {
    // Cannot happen while the lists agree so far; kept for robustness.
    diff.what = "structure";
    diff.lhs = a->what.str();
    diff.rhs = b->what.str();
  } else {
    diff.what = any.what.str();
    if (any.index >= 0)
      diff.what += " " + std::to_string(any.index);
    // Print plainly; where both sides print alike, add types and
    // attributes, then variable numbers (two different variables may have
    // the same name).
    for (int detail = 0; detail < 3; ++detail) {
      diff.lhs = a ? lhs.print(a->node, detail >= 1, detail >= 2) : "<nothing>";
      diff.rhs = b ? rhs.print(b->node, detail >= 1, detail >= 2) : "<nothing>";
      if (diff.lhs != diff.rhs)
        break;
    }
  }
  diff.lhsOp = a ? a->subject : nullptr;
  diff.rhsOp = b ? b->subject : nullptr;
  diff.message = diff.path + ": " + diff.what + " differs: " + diff.lhs +
                 " vs " + diff.rhs + "\n  lhs: " + printOp(diff.lhsOp) +
                 "\n  rhs: " + printOp(diff.rhsOp);
  return diff;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

static std::optional<StructuralDifference>
compareOps(Operation *lhs, Operation *rhs,
           const StructuralEqualOptions &options) {
  NodeTable table;
  Flattener left(table, options, lhs);
  Flattener right(table, options, rhs);
  ArrayRef<Item> a = left.getItems(), b = right.getItems();
  for (size_t i = 0, e = std::max(a.size(), b.size()); i < e; ++i) {
    const Item *x = i < a.size() ? &a[i] : nullptr;
    const Item *y = i < b.size() ? &b[i] : nullptr;
    if (x && y && x->what == y->what && x->index == y->index &&
        x->node == y->node)
      continue;
    return describe(left, x, right, y);
  }
  return std::nullopt;
}

static SmallVector<FunctionOpInterface> functionsOf(ModuleOp module) {
  return llvm::to_vector(module.getOps<FunctionOpInterface>());
}

static std::optional<StructuralDifference>
compareModules(ModuleOp lhs, ModuleOp rhs,
               const StructuralEqualOptions &options) {
  llvm::StringMap<FunctionOpInterface> lhsByName, rhsByName;
  for (FunctionOpInterface f : functionsOf(lhs))
    lhsByName[f.getName()] = f;
  for (FunctionOpInterface f : functionsOf(rhs))
    rhsByName[f.getName()] = f;
  auto missing = [](FunctionOpInterface f, bool onLeft) {
    StructuralDifference diff;
    diff.path = "module";
    diff.what = ("function @" + f.getName()).str();
    diff.lhs = onLeft ? "defined" : "missing";
    diff.rhs = onLeft ? "missing" : "defined";
    (onLeft ? diff.lhsOp : diff.rhsOp) = f;
    diff.message = diff.path + ": " + diff.what + " is defined on the " +
                   (onLeft ? "lhs" : "rhs") + " only\n  " +
                   (onLeft ? "lhs: " : "rhs: ") + printOp(f);
    return diff;
  };
  for (FunctionOpInterface f : functionsOf(lhs))
    if (!rhsByName.count(f.getName()))
      return missing(f, /*onLeft=*/true);
  for (FunctionOpInterface f : functionsOf(rhs))
    if (!lhsByName.count(f.getName()))
      return missing(f, /*onLeft=*/false);
  for (FunctionOpInterface f : functionsOf(lhs))
    if (auto diff = compareOps(f, rhsByName[f.getName()], options))
      return diff;
  return std::nullopt;
}

std::optional<StructuralDifference>
mlir::tir::findStructuralDifference(Operation *lhs, Operation *rhs,
                                    const StructuralEqualOptions &options) {
  auto lhsModule = dyn_cast<ModuleOp>(lhs);
  auto rhsModule = dyn_cast<ModuleOp>(rhs);
  if (lhsModule && rhsModule)
    return compareModules(lhsModule, rhsModule, options);
  return compareOps(lhs, rhs, options);
}

bool mlir::tir::structuralEqual(Operation *lhs, Operation *rhs,
                                const StructuralEqualOptions &options) {
  return !findStructuralDifference(lhs, rhs, options);
}

uint64_t mlir::tir::structuralHash(Operation *op,
                                   const StructuralEqualOptions &options) {
  NodeTable table;
  if (auto module = dyn_cast<ModuleOp>(op)) {
    // Functions by name, in any order.
    uint64_t functions = 0;
    for (FunctionOpInterface f : functionsOf(module))
      functions += hashCombine(hashString(f.getName()),
                               Flattener(table, options, f).hash());
    return hashCombine(hashString("builtin.module"), functions);
  }
  return Flattener(table, options, op).hash();
}
