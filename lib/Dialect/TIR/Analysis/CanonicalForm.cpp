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

/// The only atom of `a` when `a` is that atom exactly (coefficient 1, no
/// constant) and is an application of `name` to a constant positive divisor;
/// sets `divisor`.
static const Node *asDivAtom(const Node *a, StringRef name, int64_t &divisor) {
  if (a->value != 0 || a->children.size() != 1 || a->coeffs[0] != 1)
    return nullptr;
  const Node *atom = a->children[0];
  if (atom->kind != NodeKind::Apply || atom->str != name ||
      atom->children.size() != 2)
    return nullptr;
  std::optional<int64_t> c = atom->children[1]->getConstant();
  if (!c || *c <= 0)
    return nullptr;
  divisor = *c;
  return atom->children[0];
}

// Division and modulo by a positive constant d are put in a normal form
// with rules that hold for all integer values of the atoms (floor
// semantics):
//   floordiv(q * d + r, d) = q + floordiv(r, d)        (r's coefficients and
//   mod(q * d + r, d)      = mod(r, d)                  constant in [0, d))
//   ceildiv(x, d)          = floordiv(x + d - 1, d)
//   floordiv(floordiv(x, c), d)       = floordiv(x, c * d)
//   floordiv(mod(x, c * d), d)        = mod(floordiv(x, d), c)
//   mod(mod(x, c * d), d)             = mod(x, d)
//   mod(mod(x, c), d)                 = mod(x, c)          (c <= d)
// so that, e.g., the `(f mod 16384) floordiv 128` of one fuse and the
// `(f floordiv 128) mod 128` of another are one form. Other divisors
// (non-constant, zero, negative) leave an atom. The nesting rules are
// getIndexDigit's (TensorIR/Dialect/TIR/Arith/Digits.h), which
// simplifyIndexExpr applies too: both write nested divisions and
// remainders as the one digit `mod(floordiv(x, a), b)`.
//
// Where variables have ranges (loop and block variables of constant
// bounds), two more rules use them:
//   floordiv(x, d) = q, mod(x, d) = x - q * d   (x within [q * d, q * d + d))
//   floordiv(g * x + r, g * e) = floordiv(x, e),
//   mod(g * x + r, g * e) = g * mod(x, e) + r   (r within [0, g))
// so that a fused loop's `(f mod 48) floordiv 16` for f < 48 is
// `f floordiv 16`, and a split fused loop's `(128 * o + i) floordiv 100352`
// for i < 128 is `o floordiv 784`.

std::optional<std::pair<int64_t, int64_t>> NodeTable::getBounds(const Node *a) {
  using Bounds = std::pair<int64_t, int64_t>;
  auto atomBounds = [&](const Node *atom) -> std::optional<Bounds> {
    if (atom->kind == NodeKind::Var && atom->coeffs.size() == 2)
      return Bounds{atom->coeffs[0], atom->coeffs[1]};
    if (atom->kind != NodeKind::Apply || atom->children.size() != 2)
      return std::nullopt;
    std::optional<int64_t> c = atom->children[1]->getConstant();
    if (!c || *c <= 0)
      return std::nullopt;
    if (atom->str == "mod")
      return Bounds{0, *c - 1};
    if (atom->str == "floordiv") {
      std::optional<Bounds> x = getBounds(atom->children[0]);
      if (!x)
        return std::nullopt;
      return Bounds{llvm::divideFloorSigned(x->first, *c),
                    llvm::divideFloorSigned(x->second, *c)};
    }
    return std::nullopt;
  };
  a = asSum(a);
  int64_t lo = a->value, hi = a->value;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs)) {
    std::optional<Bounds> b = atomBounds(child);
    if (!b)
      return std::nullopt;
    int64_t x, y;
    if (llvm::MulOverflow(k, b->first, x) || llvm::MulOverflow(k, b->second, y))
      return std::nullopt;
    if (x > y)
      std::swap(x, y);
    if (llvm::AddOverflow(lo, x, lo) || llvm::AddOverflow(hi, y, hi))
      return std::nullopt;
  }
  return Bounds{lo, hi};
}

/// The quotient of a by d when it is the same for all of a's values.
static std::optional<int64_t>
constantQuotient(std::optional<std::pair<int64_t, int64_t>> bounds, int64_t d) {
  if (!bounds)
    return std::nullopt;
  int64_t q = llvm::divideFloorSigned(bounds->first, d);
  if (q != llvm::divideFloorSigned(bounds->second, d))
    return std::nullopt;
  return q;
}

/// For a divisor d: a = g * x + r with g > 1 dividing d and r in [0, g)
/// (its variables' ranges say so), g the largest such common factor of d
/// and the coefficients of a's largest terms. Then floordiv(a, d) is
/// floordiv(x, d / g) and mod(a, d) is g * mod(x, d / g) + r.
std::optional<std::tuple<int64_t, const Node *, const Node *>>
NodeTable::factorOut(const Node *a, int64_t d) {
  SmallVector<std::pair<const Node *, int64_t>> terms;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs))
    terms.push_back({child, k});
  if (terms.size() < 2)
    return std::nullopt;
  // Largest coefficients first; the rest is the remainder.
  llvm::sort(terms, [](const auto &x, const auto &y) {
    if (std::abs(x.second) != std::abs(y.second))
      return std::abs(x.second) > std::abs(y.second);
    return x.first->hash < y.first->hash;
  });
  std::optional<std::tuple<int64_t, const Node *, const Node *>> best;
  int64_t g = d;
  for (size_t k = 1; k < terms.size(); ++k) {
    g = std::gcd(g, std::abs(terms[k - 1].second));
    if (g <= 1)
      break;
    if (best && std::get<0>(*best) >= g)
      continue;
    const Node *r = getSum(a->value, ArrayRef(terms).drop_front(k));
    std::optional<std::pair<int64_t, int64_t>> bounds = getBounds(r);
    if (!bounds || bounds->first < 0 || bounds->second >= g)
      continue;
    SmallVector<std::pair<const Node *, int64_t>> scaled;
    for (auto [child, coeff] : ArrayRef(terms).take_front(k))
      scaled.push_back({child, coeff / g});
    best = std::make_tuple(g, getSum(0, scaled), r);
  }
  return best;
}

const Node *NodeTable::floorDiv(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  std::optional<int64_t> divisor = b->getConstant();
  if (!divisor || *divisor <= 0)
    return atom(apply("floordiv", {a, b}));
  int64_t d = *divisor;
  // Within one multiple of d (its variables' ranges say so): a constant.
  if (std::optional<int64_t> q = constantQuotient(getBounds(a), d))
    return constant(*q);
  if (auto factored = factorOut(a, d))
    return floorDiv(std::get<1>(*factored),
                    constant(d / std::get<0>(*factored)));
  int64_t inner;
  if (const Node *x = asDivAtom(a, "floordiv", inner)) {
    int64_t product;
    if (!llvm::MulOverflow(inner, d, product))
      return floorDiv(x, constant(product));
  }
  if (const Node *x = asDivAtom(a, "mod", inner); x && inner % d == 0)
    return mod(floorDiv(x, b), constant(inner / d));
  // Split a into d * quotient + remainder.
  SmallVector<std::pair<const Node *, int64_t>> quotient, remainder;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs)) {
    int64_t q = llvm::divideFloorSigned(k, d);
    if (q != 0)
      quotient.push_back({child, q});
    if (k - q * d != 0)
      remainder.push_back({child, k - q * d});
  }
  int64_t q0 = llvm::divideFloorSigned(a->value, d);
  const Node *q = getSum(q0, quotient);
  if (remainder.empty())
    return q;
  const Node *r = getSum(a->value - q0 * d, remainder);
  if (std::optional<int64_t> rq = constantQuotient(getBounds(r), d))
    return add(q, constant(*rq));
  return add(q, atom(apply("floordiv", {r, b})));
}

const Node *NodeTable::ceilDiv(const Node *a, const Node *b) {
  // ceildiv(a, b) is floordiv(a + b - 1, b) for the positive divisors index
  // arithmetic has (TVM writes it either way).
  std::optional<int64_t> divisor = asSum(b)->getConstant();
  if (divisor && *divisor <= 0)
    return atom(apply("ceildiv", {asSum(a), asSum(b)}));
  return floorDiv(add(add(a, b), constant(-1)), b);
}

const Node *NodeTable::mod(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  std::optional<int64_t> divisor = b->getConstant();
  if (!divisor || *divisor <= 0)
    return atom(apply("mod", {a, b}));
  int64_t d = *divisor;
  // Within one multiple of d: a minus that multiple.
  if (std::optional<int64_t> q = constantQuotient(getBounds(a), d))
    return add(a, constant(-*q * d));
  if (auto factored = factorOut(a, d)) {
    auto [g, x, r] = *factored;
    return add(scale(mod(x, constant(d / g)), g), r);
  }
  int64_t inner;
  if (const Node *x = asDivAtom(a, "mod", inner)) {
    if (inner % d == 0)
      return mod(x, b);
    if (inner <= d)
      return a;
  }
  SmallVector<std::pair<const Node *, int64_t>> remainder;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs))
    if (int64_t r = llvm::mod(k, d); r != 0)
      remainder.push_back({child, r});
  int64_t r0 = a->value - llvm::divideFloorSigned(a->value, d) * d;
  if (remainder.empty())
    return constant(r0);
  const Node *r = getSum(r0, remainder);
  if (std::optional<int64_t> q = constantQuotient(getBounds(r), d))
    return add(r, constant(-*q * d));
  return atom(apply("mod", {r, b}));
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
