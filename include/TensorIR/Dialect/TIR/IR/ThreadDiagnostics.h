//===- ThreadDiagnostics.h - diagnostic handlers of one thread --*- C++ -*-===//
//
// A context's diagnostic handlers are shared by every thread that uses it,
// and the one registered last sees each diagnostic first. Schedules are
// built on several threads of one context (the evolutionary search replays
// traces in parallel), and a scoped handler that collects or silences its
// own step's diagnostics must not take another thread's (nor touch its
// state from that thread): ThreadDiagnosticHandler handles only the
// diagnostics of the thread that made it and passes the others on.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_THREADDIAGNOSTICS_H
#define TENSORIR_DIALECT_TIR_IR_THREADDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <thread>
#include <type_traits>
#include <utility>

namespace mlir::tir {

/// A ScopedDiagnosticHandler for the diagnostics emitted by the thread that
/// made it; those of other threads go on to the handlers registered before
/// it, as if it were not there.
class ThreadDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  template <typename FuncTy>
  ThreadDiagnosticHandler(MLIRContext *ctx, FuncTy &&handler)
      : ScopedDiagnosticHandler(ctx) {
    setHandler([owner = std::this_thread::get_id(),
                handler = std::forward<FuncTy>(handler)](
                   Diagnostic &diag) mutable -> LogicalResult {
      if (std::this_thread::get_id() != owner)
        return failure();
      if constexpr (std::is_void_v<decltype(handler(diag))>) {
        handler(diag);
        return success();
      } else {
        return handler(diag);
      }
    });
  }
};

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_THREADDIAGNOSTICS_H
