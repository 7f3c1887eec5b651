//===- Link.h - object code linked into shared libraries --------*- C++ -*-===//
//
// Private to the compiler: the link step of exported libraries.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_COMPILER_LINK_H
#define TENSORIR_LIB_COMPILER_LINK_H

#include "TensorIR/Runtime/CUDA.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tir {

/// Links the object file at `object` into a shared library at `path` with
/// lld: against the OpenMP runtime when the code calls it, and against the
/// runtime library for a GPU build (its kernels launch through it). On
/// failure, `error` says why.
LogicalResult linkObject(StringRef object, bool usesOpenMP,
                         runtime::Device::Type device, StringRef path,
                         std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_LIB_COMPILER_LINK_H
