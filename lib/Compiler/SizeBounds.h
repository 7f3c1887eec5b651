//===- SizeBounds.h - the sizes a function needs from its buffers -*- C++ -*-//
//
// Private to the compiler: derives, for every buffer parameter of a tir
// function, the sizes its dimensions must have for the function's accesses
// to stay inside it, in terms of the sizes known at a call (scalar
// parameters, buffer dimensions). The runtime checks them before each call.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_COMPILER_SIZEBOUNDS_H
#define TENSORIR_LIB_COMPILER_SIZEBOUNDS_H

#include "TensorIR/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir::tir {

/// One list of bounds per parameter of `func`. An access to a buffer
/// parameter contributes bounds (its highest index is below the size, its
/// lowest not negative) when it is unguarded (its enclosing ops up to the
/// function are tir.for, tir.init and tir.block without `where` or
/// condition, and a load does not only feed arith.select) and each index
/// is a linear expression, with constant coefficients, of loop variables
/// and block iteration variables whose domains are bounded by constants,
/// scalar parameters and `memref.dim` of buffer parameters. Anything else
/// contributes nothing: the check never refuses a call that a guard or an
/// unknown index makes safe. A scalar parameter that is the extent of a
/// loop or iteration domain gets a bound that it is not negative. A
/// dimension named in tir.dim_vars gets a bound that it equals the scalar
/// parameter of that name, or else the first dimension of that name.
std::vector<std::vector<runtime::SizeBound>>
deriveSizeBounds(func::FuncOp func);

} // namespace mlir::tir

#endif // TENSORIR_LIB_COMPILER_SIZEBOUNDS_H
