//===- Reducer.cpp - a reduction block's commutative reducer --------------===//
//
// The registry of reducers is a list of templates: for each buffer of the
// reduction, a pattern of op classes over the current values (X) and the
// new values (Y), and the identity the init must store. A block matches a
// template when each stored value is the pattern (commutative classes in
// either order, a comparison also mirrored: `y <= x` is `x >= y`), each Y
// stands for one value wherever it occurs (equal up to recomputation: the
// parser loads `val[i, k]` once per use), and each init stores the
// identity.
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"

#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

enum class OpClass {
  Add,
  Mul,
  Min,
  Max,
  UMin,
  UMax,
  And,
  Or,
  Xor,
  Select,
  CmpGE,
  CmpGT,
  CmpLE,
  CmpLT,
  CmpEQ,
};

enum class Identity { Zero, One, AllOnes, Highest, Lowest };

struct Pat {
  CombinerNode::Kind kind;
  unsigned index = 0;
  OpClass cls = OpClass::Add;
  std::vector<Pat> children;
};

Pat X(unsigned i) { return {CombinerNode::X, i, OpClass::Add, {}}; }
Pat Y(unsigned i) { return {CombinerNode::Y, i, OpClass::Add, {}}; }
Pat P(OpClass cls, std::vector<Pat> children) {
  return {CombinerNode::Op, 0, cls, std::move(children)};
}
Pat Sel(Pat c, Pat t, Pat f) { return P(OpClass::Select, {c, t, f}); }

struct Template {
  const char *name;
  SmallVector<Pat> results;
  SmallVector<Identity> identities;
};

const SmallVector<Template> &getRegistry() {
  static const SmallVector<Template> registry = [] {
    SmallVector<Template> r;
    auto binary = [&](const char *name, OpClass cls, Identity id) {
      r.push_back({name, {P(cls, {X(0), Y(0)})}, {id}});
    };
    binary("sum", OpClass::Add, Identity::Zero);
    binary("product", OpClass::Mul, Identity::One);
    binary("min", OpClass::Min, Identity::Highest);
    binary("max", OpClass::Max, Identity::Lowest);
    binary("unsigned min", OpClass::UMin, Identity::AllOnes);
    binary("unsigned max", OpClass::UMax, Identity::Zero);
    binary("and", OpClass::And, Identity::AllOnes);
    binary("or", OpClass::Or, Identity::Zero);
    binary("xor", OpClass::Xor, Identity::Zero);
    r.push_back({"pair sum",
                 {P(OpClass::Add, {X(0), Y(0)}), P(OpClass::Add, {X(1), Y(1)})},
                 {Identity::Zero, Identity::Zero}});
    // (index, value) pairs: x1 and y1 are the values, x0 and y0 their
    // indices. The first forms keep the current pair on ties; topi's break
    // ties by the smaller index.
    auto pair = [&](const char *name, OpClass keep, Identity id) {
      r.push_back({name,
                   {Sel(P(keep, {X(1), Y(1)}), X(0), Y(0)),
                    Sel(P(keep, {X(1), Y(1)}), X(1), Y(1))},
                   {Identity::AllOnes, id}});
    };
    pair("argmax", OpClass::CmpGE, Identity::Lowest);
    pair("argmin", OpClass::CmpLE, Identity::Highest);
    auto topiPair = [&](const char *name, OpClass better, Identity id) {
      Pat tie = P(OpClass::And, {P(OpClass::CmpEQ, {X(1), Y(1)}),
                                 P(OpClass::CmpLT, {X(0), Y(0)})});
      r.push_back(
          {name,
           {Sel(P(OpClass::Or, {P(better, {X(1), Y(1)}), tie}), X(0), Y(0)),
            Sel(P(better, {X(1), Y(1)}), X(1), Y(1))},
           {Identity::AllOnes, id}});
    };
    topiPair("argmax", OpClass::CmpGT, Identity::Lowest);
    topiPair("argmin", OpClass::CmpLT, Identity::Highest);
    return r;
  }();
  return registry;
}

bool isCommutative(OpClass cls) {
  switch (cls) {
  case OpClass::Select:
  case OpClass::CmpGE:
  case OpClass::CmpGT:
  case OpClass::CmpLE:
  case OpClass::CmpLT:
    return false;
  default:
    return true;
  }
}

/// The class of `op`, if it has one; `mirrored` when it is a comparison
/// whose operands are swapped relative to the class (`a <= b` read as
/// CmpGE of b and a is not mirrored; as CmpLE it is the class itself).
std::optional<OpClass> classOf(Operation *op) {
  return TypeSwitch<Operation *, std::optional<OpClass>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return OpClass::Add; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return OpClass::Mul; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return OpClass::Min; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return OpClass::Max; })
      .Case<arith::MinUIOp>([](auto) { return OpClass::UMin; })
      .Case<arith::MaxUIOp>([](auto) { return OpClass::UMax; })
      .Case<arith::AndIOp>([](auto) { return OpClass::And; })
      .Case<arith::OrIOp>([](auto) { return OpClass::Or; })
      .Case<arith::XOrIOp>([](auto) { return OpClass::Xor; })
      .Case<arith::SelectOp>([](auto) { return OpClass::Select; })
      .Case<arith::CmpFOp>([](arith::CmpFOp cmp) -> std::optional<OpClass> {
        using P = arith::CmpFPredicate;
        switch (cmp.getPredicate()) {
        case P::OGE:
        case P::UGE:
          return OpClass::CmpGE;
        case P::OGT:
        case P::UGT:
          return OpClass::CmpGT;
        case P::OLE:
        case P::ULE:
          return OpClass::CmpLE;
        case P::OLT:
        case P::ULT:
          return OpClass::CmpLT;
        case P::OEQ:
        case P::UEQ:
          return OpClass::CmpEQ;
        default:
          return std::nullopt;
        }
      })
      .Case<arith::CmpIOp>([](arith::CmpIOp cmp) -> std::optional<OpClass> {
        using P = arith::CmpIPredicate;
        switch (cmp.getPredicate()) {
        case P::sge:
        case P::uge:
          return OpClass::CmpGE;
        case P::sgt:
        case P::ugt:
          return OpClass::CmpGT;
        case P::sle:
        case P::ule:
          return OpClass::CmpLE;
        case P::slt:
        case P::ult:
          return OpClass::CmpLT;
        case P::eq:
          return OpClass::CmpEQ;
        default:
          return std::nullopt;
        }
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The comparison class with its operands swapped (`a >= b` is `b <= a`).
std::optional<OpClass> mirrored(OpClass cls) {
  switch (cls) {
  case OpClass::CmpGE:
    return OpClass::CmpLE;
  case OpClass::CmpLE:
    return OpClass::CmpGE;
  case OpClass::CmpGT:
    return OpClass::CmpLT;
  case OpClass::CmpLT:
    return OpClass::CmpGT;
  default:
    return std::nullopt;
  }
}

bool isIdentity(Attribute value, Identity id) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    const llvm::fltSemantics &sem = f.getValue().getSemantics();
    APFloat v = f.getValue();
    switch (id) {
    case Identity::Zero:
      return v.isZero();
    case Identity::One:
      return v.compare(APFloat::getOne(sem)) == APFloat::cmpEqual;
    case Identity::AllOnes:
      return v.compare(APFloat::getOne(sem, /*Negative=*/true)) ==
             APFloat::cmpEqual;
    case Identity::Highest:
      return (v.isInfinity() && !v.isNegative()) ||
             v.compare(APFloat::getLargest(sem)) == APFloat::cmpEqual;
    case Identity::Lowest:
      return (v.isInfinity() && v.isNegative()) ||
             v.compare(APFloat::getLargest(sem, /*Negative=*/true)) ==
                 APFloat::cmpEqual;
    }
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    APInt v = i.getValue();
    switch (id) {
    case Identity::Zero:
      return v.isZero();
    case Identity::One:
      return v.isOne();
    case Identity::AllOnes:
      return v.isAllOnes();
    case Identity::Highest:
      return v.isMaxSignedValue();
    case Identity::Lowest:
      return v.isMinSignedValue();
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// Whether `a` and `b` compute the same value: the same value, or the same
/// pure op (or load: the update's loads all precede its stores) of
/// equivalent operands.
bool equivalent(Value a, Value b) {
  if (a == b)
    return true;
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (!da || !db || da->getName() != db->getName() ||
      da->getAttrDictionary() != db->getAttrDictionary() ||
      da->getNumRegions() || da->getNumResults() != 1 ||
      db->getNumResults() != 1 || a.getType() != b.getType() ||
      da->getNumOperands() != db->getNumOperands())
    return false;
  if (!isa<LoadOp>(da) && !isMemoryEffectFree(da))
    return false;
  for (auto [x, y] : llvm::zip(da->getOperands(), db->getOperands()))
    if (!equivalent(x, y))
      return false;
  return true;
}

struct Matcher {
  /// The reduction buffer of each role, and the update's indices.
  SmallVector<Value> buffers;
  AffineMap map;
  SmallVector<Value> indices;
  /// The new values bound so far.
  SmallVector<Value> y;

  bool isCurrentValue(Value v, unsigned role) {
    auto load = v.getDefiningOp<LoadOp>();
    return load && load.getBuffer() == buffers[role] && load.getMap() == map &&
           llvm::equal(load.getIndices(), indices);
  }

  std::unique_ptr<CombinerNode> match(const Pat &p, Value v) {
    auto node = std::make_unique<CombinerNode>();
    node->kind = p.kind;
    node->index = p.index;
    if (p.kind == CombinerNode::X)
      return isCurrentValue(v, p.index) ? std::move(node) : nullptr;
    if (p.kind == CombinerNode::Y) {
      if (!y[p.index])
        y[p.index] = v;
      else if (!equivalent(y[p.index], v))
        return nullptr;
      return node;
    }
    Operation *op = v.getDefiningOp();
    if (!op || op->getNumResults() != 1)
      return nullptr;
    std::optional<OpClass> cls = classOf(op);
    if (!cls)
      return nullptr;
    node->op = op;
    unsigned n = op->getNumOperands();
    if (n != p.children.size())
      return nullptr;
    // The operand orders to try: as written, and swapped where the class
    // allows it.
    SmallVector<SmallVector<unsigned>> orders;
    SmallVector<unsigned> straight = llvm::to_vector(llvm::seq(0u, n));
    SmallVector<unsigned> swapped = {1, 0};
    if (*cls == p.cls) {
      orders.push_back(straight);
      if (n == 2 && isCommutative(p.cls))
        orders.push_back(swapped);
    } else if (n == 2 && mirrored(*cls) == p.cls) {
      orders.push_back(swapped);
    }
    for (ArrayRef<unsigned> order : orders) {
      SmallVector<Value> saved = y;
      node->children.clear();
      node->children.resize(n);
      bool ok = true;
      for (unsigned k = 0; k < n && ok; ++k) {
        std::unique_ptr<CombinerNode> child =
            match(p.children[k], op->getOperand(order[k]));
        ok = child != nullptr;
        if (ok)
          node->children[order[k]] = std::move(child);
      }
      if (ok)
        return node;
      y = std::move(saved);
    }
    return nullptr;
  }
};

/// Whether `value`, computed in `body`, reads one of `buffers`.
bool readsAny(Value value, Block *body, ArrayRef<Value> buffers) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      continue;
    if (auto load = dyn_cast<LoadOp>(def))
      if (llvm::is_contained(buffers, load.getBuffer()))
        return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

} // namespace

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

SmallVector<Value> Reduction::getBuffers() const {
  return llvm::map_to_vector(updates,
                             [](StoreOp s) -> Value { return s.getBuffer(); });
}

/// The value of `node` with its leaves replaced; an op the combiners share
/// (argmax's comparison) is built once, `built` remembering it.
static Value rebuild(OpBuilder &builder, const CombinerNode &node, ValueRange x,
                     ValueRange y, DenseMap<Operation *, Value> &built) {
  if (node.kind == CombinerNode::X)
    return x[node.index];
  if (node.kind == CombinerNode::Y)
    return y[node.index];
  if (Value done = built.lookup(node.op))
    return done;
  SmallVector<Value> operands;
  for (const auto &child : node.children)
    operands.push_back(rebuild(builder, *child, x, y, built));
  Operation *clone = builder.clone(*node.op);
  clone->setOperands(operands);
  return built[node.op] = clone->getResult(0);
}

SmallVector<Value> Reduction::combine(OpBuilder &builder, ValueRange x,
                                      ValueRange y) const {
  DenseMap<Operation *, Value> built;
  return llvm::map_to_vector(combiners, [&](const auto &node) {
    return rebuild(builder, *node, x, y, built);
  });
}

SmallVector<Value> Reduction::buildIdentities(OpBuilder &builder,
                                              Location loc) const {
  return llvm::map_to_vector(identities, [&](TypedAttr id) -> Value {
    return arith::ConstantOp::create(builder, loc, id);
  });
}

FailureOr<Reduction> mlir::tir::sched::matchReduction(BlockOp block,
                                                      StringRef primitive,
                                                      ScheduleError &error) {
  std::string name = ("'" + block.getBlockName() + "'").str();
  auto fail = [&](Operation *culprit, const Twine &why) {
    return refuse(error, culprit,
                  primitive + " needs block " + name +
                      " to be a reduction by a commutative reducer, but " +
                      why);
  };

  // The init: stores of constants, into distinct buffers.
  InitOp init = block.getInitOp();
  if (!init)
    return fail(block, "it has no tir.init");
  SmallVector<StoreOp> inits;
  for (Operation &op : *init.getBody()) {
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (llvm::any_of(inits, [&](StoreOp s) {
            return s.getBuffer() == store.getBuffer();
          }))
        return fail(store, "its init stores into buffer '" +
                               getBufferName(store.getBuffer()) +
                               "' twice (TVM: condition #2)");
      inits.push_back(store);
      continue;
    }
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return fail(&op, "its init holds more than stores of constants "
                       "(TVM: condition #1)");
  }
  if (inits.empty())
    return fail(init, "its init stores nothing (TVM: condition #1)");

  // The update: one store per buffer, of values computed before the first.
  SmallVector<StoreOp> updates;
  Block *body = block.getBody();
  for (Operation &op : *body) {
    if (isa<InitOp>(op))
      continue;
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (llvm::any_of(updates, [&](StoreOp s) {
            return s.getBuffer() == store.getBuffer();
          }))
        return fail(store, "its body stores into buffer '" +
                               getBufferName(store.getBuffer()) +
                               "' twice (TVM: condition #9)");
      updates.push_back(store);
      continue;
    }
    if (op.getNumRegions() || isa<AllocBufferOp, MatchBufferOp>(op) ||
        (!isa<LoadOp>(op) && !isMemoryEffectFree(&op)))
      return fail(&op, "its body holds more than stores of computed values");
    if (isa<LoadOp>(op) && !updates.empty())
      return fail(&op, "it loads a value after its first store: the values it "
                       "stores are not all computed from the values before the "
                       "update (TVM: condition #3, its LetStmts)");
  }
  if (updates.size() != inits.size())
    return fail(block, "its body stores into " + Twine(updates.size()) +
                           " buffer(s) and its init into " +
                           Twine(inits.size()) + " (TVM: condition #6)");
  SmallVector<StoreOp> initOf;
  for (StoreOp u : updates) {
    auto *it = llvm::find_if(
        inits, [&](StoreOp s) { return s.getBuffer() == u.getBuffer(); });
    if (it == inits.end())
      return fail(u, "its body stores into buffer '" +
                         getBufferName(u.getBuffer()) +
                         "', which its init does not (TVM: condition #10)");
    initOf.push_back(*it);
  }
  StoreOp first = updates.front();
  for (auto [u, i] : llvm::zip(updates, initOf)) {
    if (u.getBufferType().getShape() != first.getBufferType().getShape())
      return fail(u, "its buffers '" + getBufferName(first.getBuffer()) +
                         "' and '" + getBufferName(u.getBuffer()) +
                         "' have different shapes (TVM: condition #11)");
    for (StoreOp s : {u, i})
      if (s.getMap() != first.getMap() ||
          !llvm::equal(s.getIndices(), first.getIndices()))
        return fail(s, "its stores do not all write the same indices "
                       "(TVM: condition #12)");
  }
  SmallVector<TypedAttr> initValues;
  for (StoreOp i : initOf) {
    TypedAttr value;
    if (!matchPattern(i.getValue(), m_Constant(&value)))
      return fail(i, "its init stores into '" + getBufferName(i.getBuffer()) +
                         "' a value that is not a constant");
    initValues.push_back(value);
  }

  // The registry, each template under each assignment of buffers to its
  // roles.
  unsigned n = updates.size();
  SmallVector<unsigned> roles = llvm::to_vector(llvm::seq(0u, n));
  for (const Template &t : getRegistry()) {
    if (t.results.size() != n)
      continue;
    SmallVector<unsigned> perm = roles;
    do {
      Matcher m;
      m.map = first.getMap();
      m.indices = llvm::to_vector(first.getIndices());
      m.y.assign(n, Value());
      for (unsigned r = 0; r < n; ++r)
        m.buffers.push_back(updates[perm[r]].getBuffer());
      Reduction red;
      bool ok = true;
      for (unsigned r = 0; r < n && ok; ++r) {
        std::unique_ptr<CombinerNode> node =
            m.match(t.results[r], updates[perm[r]].getValue());
        ok = node && isIdentity(initValues[perm[r]], t.identities[r]);
        if (ok)
          red.combiners.push_back(std::move(node));
      }
      if (!ok || llvm::is_contained(m.y, Value()))
        continue;
      red.name = t.name;
      for (unsigned r = 0; r < n; ++r) {
        red.updates.push_back(updates[perm[r]]);
        red.inits.push_back(initOf[perm[r]]);
        red.identities.push_back(initValues[perm[r]]);
      }
      red.rhs = m.y;
      SmallVector<Value> buffers = red.getBuffers();
      for (Value y : red.rhs)
        if (readsAny(y, body, buffers))
          return fail(block, "the new values it combines with the " +
                                 Twine(red.name) +
                                 " reducer read the buffers it reduces into");
      return red;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  return fail(block, "no reducer matches its identities and combination (the "
                     "reducers: sum, product, min, max, and, or, xor of one "
                     "buffer; pair sum, argmax and argmin of two, each with "
                     "its identity as the init)");
}
