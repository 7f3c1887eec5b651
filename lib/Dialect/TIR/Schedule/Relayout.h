//===- Relayout.h - a buffer's accesses through an index map ----*- C++ -*-===//
//
// transform_layout and rolling_buffer give a buffer a new shape and send
// every access through an index map (transform_layout's map; rolling_buffer's
// `d mod extent` on its rolling dimension). The rewrite is shared here: the
// buffer's type, each load and store, and the regions blocks list for it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_RELAYOUT_H
#define TENSORIR_LIB_SCHEDULE_RELAYOUT_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tir::sched {

/// Gives `buffer` (allocated in, or a parameter of, `scope`) the type of
/// `shape` and rewrites every load and store of it through `indexMap` (its
/// dims the old indices), simplified with the iteration domains unless
/// `simplify` is false; the map's symbol k is `symbols[k]` (index values
/// defined where every access sees them: a function's parameters and the
/// shape variables read at its entry). Blocks that list a region of the
/// buffer get the region their bodies now access. Refuses, naming
/// `primitive` and `culprit`, and before changing anything, when the
/// buffer has another use (a matched region, a call): those are not
/// rewritten.
LogicalResult relayoutBuffer(RewriterBase &rewriter, Operation *scope,
                             Value buffer, AffineMap indexMap,
                             ArrayRef<int64_t> shape, bool simplify,
                             StringRef primitive, Operation *culprit,
                             ScheduleError &error, ValueRange symbols = {});

/// Refuses, naming `primitive` and `culprit`, a use of `buffer` that
/// relayoutBuffer cannot rewrite (a matched region, a call).
LogicalResult checkRelayoutUses(Value buffer, StringRef primitive,
                                Operation *culprit, ScheduleError &error);

/// Points the regions of `block` that name `buffer` at what its body now
/// accesses (the whole buffer for a region listed but not accessed).
void updateListedRegionsOf(RewriterBase &rewriter, BlockOp block, Value buffer);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_RELAYOUT_H
