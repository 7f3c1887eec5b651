//===- TIRUtils.h - index and region helpers for tir ------------*- C++ -*-===//
//
// Interval reasoning over the quasi-affine expressions that tir uses for
// bindings, buffer indices and regions, and the textual form of regions and
// predicates shared by the parsers and printers.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRUTILS_H
#define TENSORIR_DIALECT_TIR_IR_TIRUTILS_H

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Value.h"
#include <optional>

namespace mlir::tir {

/// A closed integer interval [lo, hi].
struct Interval {
  int64_t lo;
  int64_t hi;
  bool operator==(const Interval &o) const { return lo == o.lo && hi == o.hi; }
};

/// The range of `expr` when its dims / symbols range over the given
/// intervals (nullopt entries are unknown). Returns nullopt when the range
/// cannot be bounded.
std::optional<Interval>
evaluateRange(AffineExpr expr, ArrayRef<std::optional<Interval>> dimRanges,
              ArrayRef<std::optional<Interval>> symRanges = {});

/// The range of an `index` value: a constant, a tir.for induction variable
/// with constant bounds, or a tir.block iteration variable with a constant
/// domain. nullopt otherwise.
std::optional<Interval> getValueRange(Value value);

/// Parses an integer literal or an `index` SSA name. A name is appended to
/// `dynamic` and `value` becomes ShapedType::kDynamic.
ParseResult
parseStaticOrDynamicIndex(OpAsmParser &parser, int64_t &value,
                          SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic);

/// The name hint of an SSA name as written (`%vi` -> "vi"), or "" for names
/// the printer makes up anyway (`%0`).
StringRef getNameHint(const OpAsmParser::UnresolvedOperand &name);

/// Parses `[annotations {...}] [attributes {...}]`, the tail of tir.for and
/// tir.block headers; the annotations go to the `annotations` attribute.
ParseResult parseAnnotationsAndAttrDict(OpAsmParser &parser,
                                        OperationState &result);

/// Whether `scope` is a storage scope the dialect knows.
bool isValidStorageScope(StringRef scope);
/// Checks the memory space of a buffer type; the empty string when valid.
std::string checkBufferMemorySpace(MemRefType type);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_TIRUTILS_H
