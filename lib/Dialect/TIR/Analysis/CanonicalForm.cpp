//===- CanonicalForm.cpp - interned canonical forms of expressions -------===//

#include "CanonicalForm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir::detail;

//===----------------------------------------------------------------------===//
// Hashing
//===----------------------------------------------------------------------===//

/// splitmix64's finalizer: a bijective, well-mixing 64-bit function.
static uint64_t mix(uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

uint64_t mlir::tir::detail::hashCombine(uint64_t seed, uint64_t value) {
  return mix(seed ^
             (mix(value) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

uint64_t mlir::tir::detail::hashString(StringRef s) {
  return llvm::xxh3_64bits(s);
}

uint64_t NodeTable::hashAttr(Attribute attr) {
  if (!attr)
    return 0;
  auto [it, inserted] = attrHashes.try_emplace(attr.getAsOpaquePointer(), 0);
  if (inserted) {
    std::string text;
    llvm::raw_string_ostream os(text);
    attr.print(os);
    it->second = hashString(text);
  }
  return it->second;
}

uint64_t NodeTable::hashType(Type type) {
  if (!type)
    return 0;
  auto [it, inserted] = typeHashes.try_emplace(type.getAsOpaquePointer(), 0);
  if (inserted) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    it->second = hashString(text);
  }
  return it->second;
}

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

void Node::Profile(llvm::FoldingSetNodeID &id) const {
  id.AddInteger(static_cast<unsigned>(kind));
  id.AddInteger(value);
  id.AddString(str);
  id.AddPointer(attr.getAsOpaquePointer());
  id.AddPointer(type.getAsOpaquePointer());
  id.AddPointer(ptr);
  id.AddInteger(children.size());
  for (const Node *child : children)
    id.AddPointer(child);
  for (int64_t c : coeffs)
    id.AddInteger(c);
}

const Node *NodeTable::intern(Node &proto) {
  llvm::FoldingSetNodeID id;
  proto.Profile(id);
  void *insertPos = nullptr;
  if (Node *existing = nodes.FindNodeOrInsertPos(id, insertPos))
    return existing;

  auto *node = new (allocator.Allocate<Node>()) Node();
  node->kind = proto.kind;
  node->value = proto.value;
  node->attr = proto.attr;
  node->type = proto.type;
  node->ptr = proto.ptr;
  if (!proto.str.empty()) {
    char *chars = allocator.Allocate<char>(proto.str.size());
    llvm::copy(proto.str, chars);
    node->str = StringRef(chars, proto.str.size());
  }
  if (!proto.children.empty()) {
    auto *children = allocator.Allocate<const Node *>(proto.children.size());
    llvm::copy(proto.children, children);
    node->children = ArrayRef(children, proto.children.size());
  }
  if (!proto.coeffs.empty()) {
    auto *coeffs = allocator.Allocate<int64_t>(proto.coeffs.size());
    llvm::copy(proto.coeffs, coeffs);
    node->coeffs = ArrayRef(coeffs, proto.coeffs.size());
  }

  // The structural hash: ordered parts combine in order, unordered parts
  // (sum terms, set elements, operands of min/max/*) are added up so that
  // their order (by pointer) does not matter.
  uint64_t h =
      hashCombine(0x7469722d6e6f6465ULL, static_cast<uint64_t>(node->kind));
  switch (node->kind) {
  case NodeKind::Int:
    h = hashCombine(h, node->value);
    break;
  case NodeKind::Var:
    h = hashCombine(h, node->value);
    for (int64_t bound : node->coeffs)
      h = hashCombine(h, static_cast<uint64_t>(bound));
    break;
  case NodeKind::Str:
    h = hashCombine(h, hashString(node->str));
    break;
  case NodeKind::Attr:
    h = hashCombine(h, hashAttr(node->attr));
    break;
  case NodeKind::Type:
    h = hashCombine(h, hashType(node->type));
    break;
  case NodeKind::FreeVar:
    h = hashCombine(h, reinterpret_cast<uintptr_t>(node->ptr));
    break;
  case NodeKind::Sum: {
    h = hashCombine(h, node->value);
    uint64_t terms = 0;
    for (auto [child, c] : llvm::zip(node->children, node->coeffs))
      terms += mix(hashCombine(child->hash, c));
    h = hashCombine(h, terms);
    break;
  }
  case NodeKind::Apply:
  case NodeKind::Set: {
    h = hashCombine(h, hashString(node->str));
    bool unordered = node->kind == NodeKind::Set || node->value == 1;
    uint64_t acc = 0;
    for (const Node *child : node->children) {
      if (unordered)
        acc += mix(child->hash);
      else
        h = hashCombine(h, child->hash);
    }
    h = hashCombine(h, acc);
    break;
  }
  case NodeKind::Op:
    h = hashCombine(h, hashString(node->str));
    h = hashCombine(h, hashAttr(node->attr));
    h = hashCombine(h, hashType(node->type));
    h = hashCombine(h, node->value);
    for (const Node *child : node->children)
      h = hashCombine(h, child->hash);
    break;
  case NodeKind::List:
    h = hashCombine(h, node->children.size());
    for (const Node *child : node->children)
      h = hashCombine(h, child->hash);
    break;
  }
  node->hash = h;
  nodes.InsertNode(node, insertPos);
  return node;
}

const Node *NodeTable::getInt(int64_t v) {
  Node n;
  n.kind = NodeKind::Int;
  n.value = v;
  return intern(n);
}

const Node *NodeTable::getStr(StringRef s) {
  Node n;
  n.kind = NodeKind::Str;
  n.str = s;
  return intern(n);
}

const Node *NodeTable::getAttr(Attribute attr) {
  if (!attr)
    return getStr("<none>");
  Node n;
  n.kind = NodeKind::Attr;
  n.attr = attr;
  return intern(n);
}

const Node *NodeTable::getType(Type type) {
  Node n;
  n.kind = NodeKind::Type;
  n.type = type;
  return intern(n);
}

const Node *
NodeTable::getVar(int64_t id,
                  std::optional<std::pair<int64_t, int64_t>> range) {
  Node n;
  n.kind = NodeKind::Var;
  n.value = id;
  int64_t bounds[2] = {0, 0};
  if (range) {
    bounds[0] = range->first;
    bounds[1] = range->second;
    n.coeffs = bounds;
  }
  return intern(n);
}

const Node *NodeTable::getFreeVar(const void *value) {
  Node n;
  n.kind = NodeKind::FreeVar;
  n.ptr = value;
  return intern(n);
}

const Node *NodeTable::getList(ArrayRef<const Node *> elements) {
  Node n;
  n.kind = NodeKind::List;
  n.children = elements;
  return intern(n);
}

const Node *NodeTable::getSet(StringRef tag, ArrayRef<const Node *> elements) {
  SmallVector<const Node *> sorted(elements);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  Node n;
  n.kind = NodeKind::Set;
  n.str = tag;
  n.children = sorted;
  return intern(n);
}

const Node *NodeTable::getOp(StringRef name, DictionaryAttr attrs, Type type,
                             int64_t result, ArrayRef<const Node *> operands) {
  Node n;
  n.kind = NodeKind::Op;
  n.str = name;
  n.attr = attrs;
  n.type = type;
  n.value = result;
  n.children = operands;
  return intern(n);
}

//===----------------------------------------------------------------------===//
// Linear forms
//===----------------------------------------------------------------------===//

const Node *
NodeTable::getSum(int64_t constant,
                  ArrayRef<std::pair<const Node *, int64_t>> terms) {
  SmallVector<std::pair<const Node *, int64_t>> sorted(terms);
  llvm::sort(sorted, [](auto &a, auto &b) { return a.first < b.first; });
  SmallVector<const Node *> atoms;
  SmallVector<int64_t> coeffs;
  for (auto [atom, c] : sorted) {
    assert(!atom->isSum() && "a sum term must be an atom");
    if (!atoms.empty() && atoms.back() == atom) {
      coeffs.back() = static_cast<int64_t>(
          static_cast<uint64_t>(coeffs.back()) + static_cast<uint64_t>(c));
      continue;
    }
    atoms.push_back(atom);
    coeffs.push_back(c);
  }
  // Drop the terms that cancelled out.
  unsigned kept = 0;
  for (unsigned i = 0, e = atoms.size(); i < e; ++i) {
    if (coeffs[i] == 0)
      continue;
    atoms[kept] = atoms[i];
    coeffs[kept] = coeffs[i];
    ++kept;
  }
  atoms.resize(kept);
  coeffs.resize(kept);
  if (const Node *folded = foldRemainder(constant, atoms, coeffs))
    return folded;
  Node n;
  n.kind = NodeKind::Sum;
  n.value = constant;
  n.children = atoms;
  n.coeffs = coeffs;
  return intern(n);
}

const Node *NodeTable::atom(const Node *n) {
  assert(!n->isSum() && "already a sum");
  return getSum(0, {{n, 1}});
}

static int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

static int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

const Node *NodeTable::foldRemainder(int64_t base, ArrayRef<const Node *> atoms,
                                     ArrayRef<int64_t> coeffs) {
  if (foldingRemainder)
    return nullptr;
  for (unsigned i = 0, e = atoms.size(); i < e; ++i) {
    const Node *div = atoms[i];
    if (div->kind != NodeKind::Apply || div->str != "floordiv" ||
        div->children.size() != 2)
      continue;
    const Node *x = div->children[0];
    std::optional<int64_t> d = div->children[1]->getConstant();
    if (!d || *d <= 0 || x->value != 0 || x->children.size() != 1 ||
        x->coeffs[0] != 1)
      continue;
    const Node *var = x->children[0];
    for (unsigned j = 0; j < e; ++j) {
      int64_t k = coeffs[j];
      if (atoms[j] != var || wrapMul(k, -*d) != coeffs[i])
        continue;
      foldingRemainder = true;
      const Node *rem = scale(mod(x, this->constant(*d)), k);
      foldingRemainder = false;
      SmallVector<std::pair<const Node *, int64_t>> terms;
      for (unsigned t = 0; t < e; ++t)
        if (t != i && t != j)
          terms.push_back({atoms[t], coeffs[t]});
      for (auto [child, c] : llvm::zip(rem->children, rem->coeffs))
        terms.push_back({child, c});
      return getSum(wrapAdd(base, rem->value), terms);
    }
  }
  return nullptr;
}

const Node *NodeTable::add(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  SmallVector<std::pair<const Node *, int64_t>> terms;
  for (const Node *s : {a, b})
    for (auto [child, c] : llvm::zip(s->children, s->coeffs))
      terms.push_back({child, c});
  return getSum(wrapAdd(a->value, b->value), terms);
}

const Node *NodeTable::scale(const Node *a, int64_t c) {
  a = asSum(a);
  SmallVector<std::pair<const Node *, int64_t>> terms;
  for (auto [child, coeff] : llvm::zip(a->children, a->coeffs))
    terms.push_back({child, wrapMul(coeff, c)});
  return getSum(wrapMul(a->value, c), terms);
}

const Node *NodeTable::mul(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  if (std::optional<int64_t> c = a->getConstant())
    return scale(b, *c);
  if (std::optional<int64_t> c = b->getConstant())
    return scale(a, *c);
  return atom(applyUnordered("*", {a, b}));
}

const Node *NodeTable::applyUnordered(StringRef name,
                                      ArrayRef<const Node *> operands) {
  SmallVector<const Node *> sorted(operands);
  llvm::sort(sorted);
  Node n;
  n.kind = NodeKind::Apply;
  n.str = name;
  n.value = 1;
  n.children = sorted;
  return intern(n);
}

const Node *NodeTable::apply(StringRef name, ArrayRef<const Node *> operands) {
  Node n;
  n.kind = NodeKind::Apply;
  n.str = name;
  n.children = operands;
  return intern(n);
}

const Node *NodeTable::fromAffine(AffineExpr expr, unsigned numDims,
                                  ArrayRef<const Node *> inputs) {
  auto input = [&](unsigned pos) -> const Node * {
    if (pos < inputs.size())
      return asSum(inputs[pos]);
    return atom(getStr("<missing operand>"));
  };
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return constant(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId:
    return input(cast<AffineDimExpr>(expr).getPosition());
  case AffineExprKind::SymbolId:
    return input(numDims + cast<AffineSymbolExpr>(expr).getPosition());
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  const Node *lhs = fromAffine(bin.getLHS(), numDims, inputs);
  const Node *rhs = fromAffine(bin.getRHS(), numDims, inputs);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return add(lhs, rhs);
  case AffineExprKind::Mul:
    return mul(lhs, rhs);
  case AffineExprKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return ceilDiv(lhs, rhs);
  case AffineExprKind::Mod:
    return mod(lhs, rhs);
  default:
    llvm_unreachable("unknown affine expression kind");
  }
}

const Node *NodeTable::constraint(const Node *expr, bool isEq) {
  expr = asSum(expr);
  const Node *never = getStr("false");
  if (expr->children.empty()) {
    bool holds = isEq ? expr->value == 0 : expr->value >= 0;
    return holds ? nullptr : never;
  }
  int64_t g = 0;
  for (int64_t c : expr->coeffs)
    g = std::gcd(g, c < 0 ? -c : c);
  if (g <= 0)
    g = 1;
  int64_t constant = expr->value;
  if (isEq) {
    if (constant % g != 0)
      return never;
    constant /= g;
  } else {
    // sum(c_i x_i) + k >= 0 with g | c_i  <=>  sum(c_i/g x_i) + floor(k/g) >=
    // 0.
    constant = llvm::divideFloorSigned(constant, g);
  }
  int64_t sign = 1;
  if (isEq) {
    // e == 0 and -e == 0 are one constraint: make the coefficient of the
    // atom with the smallest hash positive (hashes do not depend on the
    // side, pointers would).
    unsigned pick = 0;
    for (unsigned i = 1, e = expr->children.size(); i < e; ++i)
      if (expr->children[i]->hash < expr->children[pick]->hash)
        pick = i;
    if (expr->coeffs[pick] < 0)
      sign = -1;
  }
  SmallVector<std::pair<const Node *, int64_t>> terms;
  for (auto [child, c] : llvm::zip(expr->children, expr->coeffs))
    terms.push_back({child, sign * (c / g)});
  const Node *normal = getSum(sign * constant, terms);
  return apply(isEq ? "== 0" : ">= 0", {normal});
}

const Node *NodeTable::conjunction(IntegerSet set,
                                   ArrayRef<const Node *> inputs) {
  SmallVector<const Node *> constraints;
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    const Node *c =
        constraint(fromAffine(set.getConstraint(i), set.getNumDims(), inputs),
                   set.isEq(i));
    if (!c)
      continue;
    if (c->kind == NodeKind::Str)
      return c; // never holds
    constraints.push_back(c);
  }
  return getSet("and", constraints);
}

const Node *NodeTable::disjunction(ArrayRef<const Node *> conjunctions) {
  SmallVector<const Node *> kept;
  for (const Node *c : conjunctions) {
    if (!c || (c->kind == NodeKind::Set && c->children.empty()))
      return getStr("true");
    if (c->kind == NodeKind::Str && c->str == "false")
      continue;
    if (c->kind == NodeKind::Str && c->str == "true")
      return c;
    kept.push_back(c);
  }
  if (kept.empty())
    return getStr("false");
  if (kept.size() == 1)
    return kept.front();
  return getSet("or", kept);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The order in which terms and set elements print: variables by number,
/// then the rest by hash (deterministic, unlike pointers).
static bool printsBefore(const Node *a, const Node *b) {
  bool aVar = a->kind == NodeKind::Var, bVar = b->kind == NodeKind::Var;
  if (aVar != bVar)
    return aVar;
  if (aVar)
    return a->value < b->value;
  return a->hash < b->hash;
}

void NodeTable::print(raw_ostream &os, const Node *n, VarPrinter printVar,
                      bool withTypes, size_t limit) {
  std::string text;
  {
    // raw_string_ostream writes through to `text`, so printImpl can stop
    // early once the limit is passed (a DAG may print exponentially long).
    llvm::raw_string_ostream sos(text);
    printLimit = limit;
    printed = &text;
    printTypes = withTypes;
    printImpl(sos, n, printVar, /*parenthesize=*/false);
  }
  printed = nullptr;
  if (text.size() > limit) {
    text.resize(limit);
    text += "...";
  }
  os << text;
}

void NodeTable::printImpl(raw_ostream &os, const Node *n, VarPrinter printVar,
                          bool parenthesize) {
  if (printed && printed->size() > printLimit)
    return;
  auto printList = [&](ArrayRef<const Node *> elements, StringRef sep) {
    llvm::interleave(
        elements, os, [&](const Node *e) { printImpl(os, e, printVar, false); },
        sep);
  };
  switch (n->kind) {
  case NodeKind::Int:
    os << n->value;
    return;
  case NodeKind::Str:
    os << n->str;
    return;
  case NodeKind::Attr:
    n->attr.print(os);
    return;
  case NodeKind::Type:
    n->type.print(os);
    return;
  case NodeKind::Var:
  case NodeKind::FreeVar:
    printVar(os, n);
    return;
  case NodeKind::Sum: {
    if (n->children.empty()) {
      os << n->value;
      return;
    }
    bool single =
        n->children.size() == 1 && n->value == 0 && (n->coeffs[0] == 1);
    if (single) {
      printImpl(os, n->children[0], printVar, parenthesize);
      return;
    }
    SmallVector<unsigned> order(n->children.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return printsBefore(n->children[a], n->children[b]);
    });
    if (parenthesize)
      os << '(';
    bool first = true;
    for (unsigned i : order) {
      int64_t c = n->coeffs[i];
      if (first) {
        if (c < 0)
          os << '-';
      } else {
        os << (c < 0 ? " - " : " + ");
      }
      first = false;
      printImpl(os, n->children[i], printVar, /*parenthesize=*/true);
      uint64_t magnitude = c < 0 ? 0 - static_cast<uint64_t>(c) : c;
      if (magnitude != 1)
        os << " * " << magnitude;
    }
    if (n->value > 0)
      os << " + " << n->value;
    else if (n->value < 0)
      os << " - " << (0 - static_cast<uint64_t>(n->value));
    if (parenthesize)
      os << ')';
    return;
  }
  case NodeKind::Apply:
    if (n->str == "*") {
      if (parenthesize)
        os << '(';
      llvm::interleave(
          n->children, os,
          [&](const Node *e) { printImpl(os, e, printVar, true); }, " * ");
      if (parenthesize)
        os << ')';
      return;
    }
    if (n->str == ">= 0" || n->str == "== 0") {
      // `e + k >= 0` prints as `e >= -k`, or as `-e <= k` when the first
      // term of e is negative: `i * 4 + j <= 9` rather than
      // `-i * 4 - j + 9 >= 0`.
      const Node *sum = n->children[0];
      bool isEq = n->str == "== 0";
      SmallVector<std::pair<const Node *, int64_t>> terms;
      unsigned first = 0;
      for (auto [i, child, c] : llvm::enumerate(sum->children, sum->coeffs)) {
        terms.push_back({child, c});
        if (printsBefore(child, sum->children[first]))
          first = i;
      }
      bool flip = !terms.empty() && sum->coeffs[first] < 0;
      const Node *lhs = getSum(0, terms);
      int64_t rhs = wrapMul(sum->value, -1);
      if (flip) {
        lhs = scale(lhs, -1);
        rhs = sum->value;
      }
      printImpl(os, lhs, printVar, false);
      os << (isEq ? " == " : flip ? " <= " : " >= ") << rhs;
      return;
    }
    if (n->str == "[]" && n->children.size() == 2 &&
        n->children[1]->kind == NodeKind::List) {
      // A buffer access or region: `A[i, 0 : 16]`.
      printImpl(os, n->children[0], printVar, true);
      os << '[';
      printList(n->children[1]->children, ", ");
      os << ']';
      return;
    }
    if (n->str == ":" && n->children.size() == 2) {
      printImpl(os, n->children[0], printVar, false);
      os << " : ";
      printImpl(os, n->children[1], printVar, false);
      return;
    }
    os << n->str << '(';
    printList(n->children, ", ");
    os << ')';
    return;
  case NodeKind::Op: {
    auto attrs = dyn_cast_or_null<DictionaryAttr>(n->attr);
    if (n->str == "arith.constant" && attrs && attrs.get("value") &&
        attrs.size() == 1) {
      attrs.get("value").print(os);
      return;
    }
    if (n->str == "tir.load" && n->children.size() == 1) {
      // `value` counts the writes of the buffer before the load.
      printImpl(os, n->children[0], printVar, false);
      if (printTypes)
        os << " : " << n->type;
      if (printTypes && n->value)
        os << " (after " << n->value
           << (n->value == 1 ? " write)" : " writes)");
      return;
    }
    os << n->str << '(';
    printList(n->children, ", ");
    os << ')';
    if (n->value != 0)
      os << '#' << n->value;
    // Attributes (often defaults such as fastmath<none>) and types only
    // when asked for: messages add them when the plain forms look alike.
    if (printTypes && attrs && !attrs.empty())
      os << ' ' << attrs;
    if (printTypes)
      os << " : " << n->type;
    return;
  }
  case NodeKind::List:
    os << '[';
    printList(n->children, ", ");
    os << ']';
    return;
  case NodeKind::Set: {
    // Elements print sorted by their text: readable and deterministic.
    SmallVector<std::string> texts;
    for (const Node *e : n->children) {
      std::string text;
      llvm::raw_string_ostream tos(text);
      printImpl(tos, e, printVar, false);
      texts.push_back(std::move(text));
    }
    llvm::sort(texts);
    bool isAnd = n->str == "and", isOr = n->str == "or";
    if (!isAnd && !isOr)
      os << '{';
    llvm::interleave(
        texts, os,
        [&](const std::string &text) {
          if (isOr)
            os << '(' << text << ')';
          else
            os << text;
        },
        isAnd  ? " and "
        : isOr ? " or "
               : ", ");
    if (!isAnd && !isOr)
      os << '}';
    return;
  }
  }
}
