//===- CAPISupport.h - shared by the two halves of the C API ----*- C++ -*-===//
//
// The C API's modules and last error live in the runtime library; the
// compiling half (TIRCAPI) makes modules and reports errors through these.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_RUNTIME_CAPISUPPORT_H
#define TENSORIR_RUNTIME_CAPISUPPORT_H

#include "TensorIR/Runtime/Runtime.h"

#include <memory>
#include <string>

struct tirModule;

namespace mlir::tir::runtime::capi {

/// The message tirGetLastError returns on this thread.
void setError(std::string message);

/// A C API module owning `module`.
tirModule *wrap(std::unique_ptr<Module> module);

} // namespace mlir::tir::runtime::capi

#endif // TENSORIR_RUNTIME_CAPISUPPORT_H
