//===- StructuralEqual.h - TVM-style structural equality --------*- C++ -*-===//
//
// TVM's tvm.ir.structural_equal / structural_hash for tir functions: two
// functions are equal when they compute the same thing written the same way,
// up to names.
//
// - Statements (tir.for, tir.block, tir.init, tir.store, tir.alloc_buffer,
//   tir.match_buffer, terminators, and any op with regions or with effects
//   other than reads) are compared in order, with their attributes, except
//   names: SSA names, `var_name`, `var_names`, `buffer_name`, the `tir.name`
//   argument attribute, and (unless asked) the function's symbol name.
// - Variables (function arguments, loop and iteration variables, results of
//   statements such as tir.alloc_buffer) are matched by where they are
//   defined (alpha-equivalence).
// - Values computed by pure ops (arith, math, constants, tir.load, ...) are
//   compared as expression trees through use-def chains, so op order,
//   sharing and duplication of those ops do not matter.
// - Index expressions (`index` values: loop bounds, domains, bindings,
//   predicates, regions, buffer indices, index arithmetic) are compared in a
//   linear normal form: `i * 4 + j` equals `j + 4 * i`; non-linear terms
//   (products of variables, min/max, casts, loads) are atoms over normal
//   forms, and division and modulo by positive constants are normalized
//   (`(f mod 16384) floordiv 128` is `(f floordiv 128) mod 128`).
//   Predicates are sets of normalized constraints (a disjunction is a set
//   of them); no predicate equals an always-true one.
// - Read / write regions are lists (their order matters, as in TVM) of
//   normalized regions. A block that leaves them out is compared with the
//   regions --tir-infer-access-regions would give it (computed on a copy),
//   reads in the order an expression-tree walk of the body meets them, as
//   TVMScript's parser infers T.reads / T.writes.
//
// Loads are values, but a load is not equal to one placed after another
// number of writes of its buffer in its block (`%a = load C; store 0, C`
// against `store 0, C; %a = load C`).
//
// The message of a difference shows where it is (a path such as
// `func @main > tir.for #0 > tir.block "B"`), what differs, both values and
// both ops.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_STRUCTURALEQUAL_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_STRUCTURALEQUAL_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tir {

struct StructuralEqualOptions {
  /// Also compare the symbol names of functions (TVM's global_symbol).
  bool compareSymbolNames = false;
  /// Compare constant tensors (elements attributes: weights folded into a
  /// module) by their types alone (MetaSchedule's "ignore-tensor"
  /// module equality).
  bool ignoreTensorValues = false;
  /// TVM's map_free_vars. Values used inside the compared ops but defined
  /// outside them are mapped by order of first use when set, and must be
  /// the same value otherwise. Functions have no free values: their
  /// arguments are always mapped by position, so the flag only matters when
  /// comparing other ops (two loop nests, say).
  bool mapFreeVars = false;
};

/// The first difference between two ops.
struct StructuralDifference {
  /// Where: `func @f > tir.for #0 > tir.block "B"` (on the left side).
  std::string path;
  /// What differs: `binding 0`, `block name`, `statement 2`, ...
  std::string what;
  /// The two values, printed (canonical forms for expressions).
  std::string lhs, rhs;
  /// The ops that hold them (null past the end of a block).
  Operation *lhsOp = nullptr, *rhsOp = nullptr;
  /// All of the above in one message, with both ops printed.
  std::string message;
};

/// Compares two ops. Two modules are equal when they define functions of
/// the same names and each pair is equal (other top-level ops are not
/// compared); two functions (FunctionOpInterface) are compared as
/// functions; any other pair of ops is compared as two statements. Returns
/// the first difference, or std::nullopt when they are equal.
std::optional<StructuralDifference>
findStructuralDifference(Operation *lhs, Operation *rhs,
                         const StructuralEqualOptions &options = {});

/// Whether findStructuralDifference finds none.
bool structuralEqual(Operation *lhs, Operation *rhs,
                     const StructuralEqualOptions &options = {});

/// A hash consistent with structuralEqual under the same options: equal ops
/// hash alike. Names are left out as equality leaves them out (a module's
/// function names are part of its hash). The value depends only on the IR,
/// not on pointers or the process, except for free values compared by
/// identity (mapFreeVars unset, ops that are not isolated from above).
uint64_t structuralHash(Operation *op,
                        const StructuralEqualOptions &options = {});

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_STRUCTURALEQUAL_H
