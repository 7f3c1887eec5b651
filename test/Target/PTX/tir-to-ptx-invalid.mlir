// RUN: not tir-translate --tir-to-ptx %s 2>&1 | FileCheck %s
// CHECK: error: no GPU kernel: a kernel starts at a loop bound to blockIdx or threadIdx
func.func @cpu_only(%A: memref<8xf32>) {
  return
}
