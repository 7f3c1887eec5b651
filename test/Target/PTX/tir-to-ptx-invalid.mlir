// RUN: not tir-translate --tir-to-ptx %s 2>&1 | FileCheck %s
// CHECK: error: no GPU kernel: a kernel starts at a loop bound to blockIdx or threadIdx
func.func @cpu_only(%A: memref<8xf32>) {
  return
}

// RUN: not tir-translate --tir-to-ptx --cuda-path=%t.no-toolkit %tir_src_root/examples/gpu/softplus_2d.mlir 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// LIBDEVICE: error: calls libdevice's math functions, but libdevice was not found under '{{.*}}no-toolkit' (--cuda-path)
