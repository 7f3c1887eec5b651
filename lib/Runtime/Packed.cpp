//===- Packed.cpp - calls of packed functions from compiled code ----------===//
//
// A graph function calling a packed function by name (relax's
// R.call_dps_packed, R.call_pure_packed) is compiled to a call through the
// module's kPackedHookSymbol pointer, which every loaded Module points at
// dispatchPacked. The dispatcher the process installed runs the function
// (the Python package's looks it up among tvm.register_global_func's). A
// failure cannot stop the compiled code, which has no error path: it is
// recorded, the function runs on, and Module::call reports the first
// failure when the function returns (its results are not to be used then).
//
//===----------------------------------------------------------------------===//

#include "Packed.h"

#include "TensorIR/Runtime/Runtime.h"
#include <cstring>

#include <atomic>

using namespace mlir::tir::runtime;

namespace {
std::atomic<PackedDispatcher> installed{nullptr};
thread_local std::string pending;
} // namespace

void mlir::tir::runtime::setPackedDispatcher(PackedDispatcher dispatcher) {
  installed.store(dispatcher);
}

void mlir::tir::runtime::setPackedError(const std::string &message) {
  if (pending.empty())
    pending = message.empty() ? "a packed function failed" : message;
}

int32_t detail::dispatchPacked(const char *name, int32_t returns,
                               int32_t numInputs, int32_t numOutputs,
                               const int64_t *slots) {
  // After a failure the calls that follow would work on garbage.
  if (!pending.empty())
    return -1;
  PackedDispatcher dispatcher = installed.load();
  // The function's name without a call site ("f@main.0": the site of f
  // whose result the graph function returns).
  std::string function = std::string(name).substr(0, std::strcspn(name, "@"));
  if (!dispatcher) {
    setPackedError(std::string("the function calls packed function '") +
                   function +
                   "', but this process has no packed functions (the "
                   "Python package runs those registered with "
                   "tvm.register_global_func)");
    return -1;
  }
  int32_t status = dispatcher(name, returns, numInputs, numOutputs, slots);
  if (status != 0)
    setPackedError("packed function '" + function + "' failed");
  return status;
}

void detail::beginPackedCalls() { pending.clear(); }

bool detail::takePackedError(std::string &error) {
  if (pending.empty())
    return false;
  error = std::move(pending);
  pending.clear();
  return true;
}
