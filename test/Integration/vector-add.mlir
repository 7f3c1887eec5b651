// The Blitz course's check: B = A + 1 for A = arange(8), built and run.
// RUN: cat %tir_src_root/examples/vector_add.mlir %s | tir-opt %tir_to_llvm | %mlir_runner -e entry -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s

// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @entry() {
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<8xf32>
  }
  func.call @main(%A, %B) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %B : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<8xf32>
  memref.dealloc %B : memref<8xf32>
  return
}
