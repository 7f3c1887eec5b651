// examples/matmul_relu.mlir, built and run, against a reference computed
// here with plain scf loops (not the tir lowering). Inputs hold small
// integers, so every sum is exact and the comparison is exact.
// RUN: cat %tir_src_root/examples/matmul_relu.mlir %s | tir-opt %tir_to_llvm | %mlir_runner -e entry -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s

// mismatches, then the checksum of the result
// CHECK:      [0,  51463]

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @entry() {
  %A = memref.alloc() : memref<128x128xf32>
  %B = memref.alloc() : memref<128x128xf32>
  %D = memref.alloc() : memref<128x128xf32>
  %R = memref.alloc() : memref<128x128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  // A[i, k] = (i + k) mod 7 - 3, B[k, j] = (3k + j) mod 5 - 2: mixed signs,
  // so the ReLU clips some outputs.
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %s = arith.addi %i, %j : index
      %m = arith.remui %s, %c7 : index
      %a = arith.subi %m, %c3 : index
      %ai = arith.index_cast %a : index to i32
      %af = arith.sitofp %ai : i32 to f32
      memref.store %af, %A[%i, %j] : memref<128x128xf32>
      %t = arith.muli %i, %c3 : index
      %u = arith.addi %t, %j : index
      %n = arith.remui %u, %c5 : index
      %c2 = arith.constant 2 : index
      %b = arith.subi %n, %c2 : index
      %bi = arith.index_cast %b : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      memref.store %bf, %B[%i, %j] : memref<128x128xf32>
    }
  }
  func.call @matmul_relu(%A, %B, %D) : (memref<128x128xf32>, memref<128x128xf32>, memref<128x128xf32>) -> ()
  // Reference: R = max(A x B, 0) with an i-j-k loop nest.
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %acc = scf.for %k = %c0 to %c128 step %c1 iter_args(%sum = %zero) -> f32 {
        %a = memref.load %A[%i, %k] : memref<128x128xf32>
        %b = memref.load %B[%k, %j] : memref<128x128xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %sum, %p : f32
        scf.yield %s : f32
      }
      %r = arith.maximumf %acc, %zero : f32
      memref.store %r, %R[%i, %j] : memref<128x128xf32>
    }
  }
  // Count mismatches and sum the result.
  %one = arith.constant 1.0 : f32
  %res:2 = scf.for %i = %c0 to %c128 step %c1 iter_args(%bad = %zero, %tot = %zero) -> (f32, f32) {
    %row:2 = scf.for %j = %c0 to %c128 step %c1 iter_args(%bad2 = %bad, %tot2 = %tot) -> (f32, f32) {
      %d = memref.load %D[%i, %j] : memref<128x128xf32>
      %r = memref.load %R[%i, %j] : memref<128x128xf32>
      %ne = arith.cmpf une, %d, %r : f32
      %inc = arith.select %ne, %one, %zero : f32
      %bad3 = arith.addf %bad2, %inc : f32
      %tot3 = arith.addf %tot2, %d : f32
      scf.yield %bad3, %tot3 : f32, f32
    }
    scf.yield %row#0, %row#1 : f32, f32
  }
  %out = memref.alloc() : memref<2xf32>
  memref.store %res#0, %out[%c0] : memref<2xf32>
  memref.store %res#1, %out[%c1] : memref<2xf32>
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
