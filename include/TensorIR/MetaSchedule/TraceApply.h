//===- TraceApply.h - a tuned trace applied to a related module -*- C++ -*-===//
//
// TVM's ScheduleUsingAnchorTrace: the trace tuned for one workload (its
// anchor block, a conv2d or a matmul) applied to a module that holds the
// same anchor with other blocks around it (an operator fused with its
// epilogue). The steps on blocks the module has are applied, those on
// blocks it lacks skipped; the blocks the trace does not name are inlined,
// and the one left unscheduled, if any, is inlined into its producer or
// parallelized (CPU) / bound to threads (GPU).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_TRACEAPPLY_H
#define TENSORIR_METASCHEDULE_TRACEAPPLY_H

#include "TensorIR/MetaSchedule/ScheduleRule.h"
#include "TensorIR/MetaSchedule/Target.h"

namespace mlir::tir::ms {

/// Applies `anchor` (a trace of a schedule of another module) to `sch` for
/// `target` (its kind picks the inlining rules and what the last block
/// gets; a GPU target needs "max_threads_per_block"). Fails with `error`
/// when a step of the trace is refused, or when more than one block is
/// left unscheduled.
LogicalResult scheduleUsingAnchorTrace(ScheduleState &sch, const Trace &anchor,
                                       const Target &target,
                                       std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_TRACEAPPLY_H
