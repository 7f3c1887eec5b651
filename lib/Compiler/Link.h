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

// The OpenMP runtime parallel loops call into (set by CMake; empty where
// libomp was not found).
#ifndef TIR_OMP_LIBRARY
#define TIR_OMP_LIBRARY ""
#endif

namespace mlir::tir {

/// Links `bytes`, an object file, into a shared library at `path` with
/// lld: against the OpenMP runtime when the code calls it, and against the
/// runtime library for a GPU build (its kernels launch through it). On
/// failure, `error` says why.
LogicalResult linkObject(StringRef bytes, bool usesOpenMP,
                         runtime::Device::Type device, StringRef path,
                         std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_LIB_COMPILER_LINK_H
