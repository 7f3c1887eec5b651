//===- NumPy.h - .npy files and owned arrays --------------------*- C++ -*-===//
//
// Arrays that own their bytes, read from and written to numpy's .npy format
// (version 1-3, little-endian, C order), for the runner and tests.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_RUNTIME_NUMPY_H
#define TENSORIR_RUNTIME_NUMPY_H

#include "TensorIR/Runtime/Runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tir::runtime {

struct NDArray {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  NDArray() = default;
  /// Zero-filled, row-major.
  NDArray(DataType dtype, std::vector<int64_t> shape);
  int64_t numElements() const;
  Arg arg() { return Arg::buffer(bytes.data(), dtype, shape); }
  /// Element `i` (row-major) as a double, for comparisons and printing.
  double at(int64_t i) const;
  void set(int64_t i, double value);
  /// numpy-style text ("[1. 2. 3.]"), for small arrays.
  std::string str() const;
};

bool readNpy(const std::string &path, NDArray &array, std::string &error);
bool writeNpy(const std::string &path, const NDArray &array,
              std::string &error);

} // namespace mlir::tir::runtime

#endif // TENSORIR_RUNTIME_NUMPY_H
