// RUN: tir-opt %s --tir-lower-to-nvvm=host-llvm=true | FileCheck %s --check-prefix=HOST
// RUN: tir-opt %s --tir-lower-to-nvvm=host-llvm=true | tir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// The host side as the runtime calls it (build(target="cuda")): the
// function in the llvm dialect with its C interface, launching the kernel
// (grid 8, block 128) from the gpu.binary holding its PTX; in LLVM IR, the
// launch calls the runtime's mgpu* functions and a static constructor
// registers the kernel module (loaded on a device at its first launch).
// HOST:      llvm.func @vadd(
// HOST:        gpu.launch_func @vadd_kernel::@vadd_kernel blocks in ({{.*}}) threads in ({{.*}}) : i64
// HOST:      llvm.func @_mlir_ciface_vadd({{.*}}) attributes {llvm.emit_c_interface
// HOST:      gpu.binary @vadd_kernel
// IR:        @llvm.global_ctors = {{.*}}@vadd_kernel_load
// IR:        define void @vadd(
// IR:          call ptr @mgpuModuleGetFunction(
// IR:          call void @mgpuLaunchKernel(ptr %{{.*}}, i64 8, i64 1, i64 1, i64 128, i64 1, i64 1, i32 0,
// IR:        define internal void @vadd_kernel_load()
// IR:          call ptr @mgpuModuleLoadJIT(ptr @vadd_kernel_binary
func.func @vadd(%A: memref<1000xf32> {tir.name = "A"}, %B: memref<1000xf32> {tir.name = "B"}, %C: memref<1000xf32> {tir.name = "C"}) {
  tir.for %bx = 0 to 8 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.block "C"(%vi = spatial(1000, %bx * 128 + %tx)) where(%bx * 128 + %tx < 1000) {
        %a = tir.load %A[%vi] : memref<1000xf32>
        %b = tir.load %B[%vi] : memref<1000xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %C[%vi] : memref<1000xf32>
      }
    }
  }
  return
}
