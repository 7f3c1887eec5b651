//===- Format.h - text the runtime's messages share ------------*- C++ -*-===//
//
// Internal to lib/Runtime: helpers that Signatures.cpp and Runtime.cpp both
// use to word signatures and errors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_RUNTIME_FORMAT_H
#define TENSORIR_LIB_RUNTIME_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tir::runtime::detail {

/// `[2, ?, 4]`: a shape (or strides), a negative extent printed as `?`.
inline std::string shapeStr(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ", ";
    s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
  }
  return s + "]";
}

} // namespace mlir::tir::runtime::detail

#endif // TENSORIR_LIB_RUNTIME_FORMAT_H
