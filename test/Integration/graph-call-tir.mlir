// A graph function (main, on tensors) calling two prim_funcs through
// tir.call_tir, with a weight constant: bufferized, lowered and run.
// x[i, k] = k - 2i, W = 1, so row i of x W is 28 - 16i: 28, 12, -4, -20,
// and the ReLU keeps 28 and 12.
// RUN: tir-opt %s --tir-bufferize-graph %tir_to_llvm | %mlir_runner -e entry -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s

// CHECK:      [28,   28,   28,   28],
// CHECK-NEXT: [12,   12,   12,   12],
// CHECK-NEXT: [0,   0,   0,   0],
// CHECK-NEXT: [0,   0,   0,   0]]

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func private @mm(%A: memref<4x8xf32>, %B: memref<8x4xf32>, %C: memref<4x4xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 8 {
        tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j), %vk = reduce(8, %k)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<4x4xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
          %b = tir.load %B[%vk, %vj] : memref<8x4xf32>
          %c = tir.load %C[%vi, %vj] : memref<4x4xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%vi, %vj] : memref<4x4xf32>
        }
      }
    }
  }
  return
}

func.func private @relu(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "relu"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %z = arith.constant 0.0 : f32
        %a = tir.load %A[%vi, %vj] : memref<4x4xf32>
        %m = arith.maximumf %a, %z : f32
        tir.store %m, %B[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<8x4xf32>
  %0 = tir.call_tir @mm(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = tir.call_tir @relu(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

func.func @entry() {
  %x = memref.alloc() : memref<4x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c8 step %c1 {
      %t = arith.muli %i, %c2 : index
      %v = arith.subi %k, %t : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %x[%i, %k] : memref<4x8xf32>
    }
  }
  // The call site on tensors follows main into buffers.
  %xt = bufferization.to_tensor %x restrict : memref<4x8xf32> to tensor<4x8xf32>
  %r = func.call @main(%xt) : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %rm = bufferization.to_buffer %r read_only : tensor<4x4xf32> to memref<4x4xf32>
  %u = memref.cast %rm : memref<4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
