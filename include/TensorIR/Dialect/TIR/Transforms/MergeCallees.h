//===- MergeCallees.h - the prim_funcs of several calls as one ----*- C++
//-*-===//
//
// The bodies of the prim_funcs a sequence of tir.call_tir ops calls, put one
// after the other in one new prim_func, the values between them its
// intermediate buffers: what Relax's FuseTIR makes of a fused group.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_MERGECALLEES_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_MERGECALLEES_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tir {

/// A new private prim_func `name`, not yet in a module, computing `calls`
/// (in order; their callees looked up in `symbols`): its parameters are the
/// buffers of the graph values among `inputs` the calls read (in the order
/// of `inputs`; `callInputs` gets them), then those of `outputs` (results
/// of the calls). Every other value the calls compute is an intermediate
/// buffer (tir.alloc_buffer at the start, of the shape variables' sizes
/// where dynamic); block names are made unique ("T_add", "T_add_1"). Null
/// when the bodies cannot be put together: a callee without a body, a
/// value the calls read that `inputs` and the calls do not give, an output
/// no call computes, an intermediate whose size no parameter gives.
func::FuncOp mergeCallees(ArrayRef<CallTirOp> calls, ArrayRef<Value> inputs,
                          ArrayRef<Value> outputs, StringRef name,
                          SymbolTable &symbols,
                          SmallVectorImpl<Value> &callInputs);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_MERGECALLEES_H
