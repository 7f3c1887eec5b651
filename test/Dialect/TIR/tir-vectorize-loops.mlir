// RUN: tir-opt %s --convert-tir-to-scf --tir-vectorize-loops --canonicalize --cse -split-input-file -verify-diagnostics | FileCheck %s

// A contiguous loop of 8: one vector step, no loop left.
// CHECK-LABEL: func.func @add8
// CHECK-NOT:     scf.for
// CHECK:         %[[A:.+]] = vector.load %arg0[%{{.+}}] : memref<8xf32>, vector<8xf32>
// CHECK:         %[[B:.+]] = vector.load %arg1[%{{.+}}] : memref<8xf32>, vector<8xf32>
// CHECK:         %[[C:.+]] = arith.addf %[[A]], %[[B]] : vector<8xf32>
// CHECK:         vector.store %[[C]], %arg2[%{{.+}}] : memref<8xf32>, vector<8xf32>
func.func @add8(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 vectorized {
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %b = tir.load %B[%vi] : memref<8xf32>
      %c = arith.addf %a, %b : f32
      tir.store %c, %C[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// 100 iterations in steps of 16: the last step runs under a lane mask.
// CHECK-LABEL: func.func @add100
// CHECK:         scf.for %[[BASE:.+]] = %{{.+}} to %{{.+}} step %c16
// CHECK:           %[[LANES:.+]] = arith.addi %{{.+}}, %{{.+}} : vector<16xindex>
// CHECK:           %[[MASK:.+]] = arith.cmpi slt, %[[LANES]], %{{.+}} : vector<16xindex>
// CHECK:           vector.maskedload %arg0[%[[BASE]]], %[[MASK]]
// CHECK:           vector.maskedstore %arg1[%[[BASE]]], %[[MASK]]
func.func @add100(%A: memref<100xf32>, %B: memref<100xf32>) {
  tir.for %i = 0 to 100 vectorized {
    tir.block "B"(%vi = spatial(100, %i)) {
      %a = tir.load %A[%vi] : memref<100xf32>
      %b = arith.mulf %a, %a : f32
      tir.store %b, %B[%vi] : memref<100xf32>
    }
  }
  return
}

// -----

// Transposed read: a gather over the flattened buffer with stride 16; a
// value that does not move with the loop is broadcast.
// CHECK-LABEL: func.func @transpose_scale
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           %[[FLAT:.+]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<16x16xf32> into memref<256xf32>
// CHECK:           %[[G:.+]] = vector.gather %[[FLAT]]
// CHECK:           %[[S:.+]] = memref.load %arg2[%[[I]]] : memref<16xf32>
// CHECK:           %[[SV:.+]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK:           arith.mulf %[[G]], %[[SV]] : vector<16xf32>
// CHECK:           vector.store {{.+}}, %arg1[%[[I]], %{{.+}}] : memref<16x16xf32>, vector<16xf32>
func.func @transpose_scale(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %S: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 vectorized {
      tir.block "T"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %a = tir.load %A[%vj, %vi] : memref<16x16xf32>
        %s = tir.load %S[%vi] : memref<16xf32>
        %b = arith.mulf %a, %s : f32
        tir.store %b, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}

// -----

// A block predicate under the vectorized loop (a split that does not divide)
// becomes a lane mask; the reduction loop inside stays a loop.
// CHECK-LABEL: func.func @predicated_rowsum
// CHECK:         %[[M:.+]] = arith.constant dense<[true, true, true, true, true, true, false, false]> : vector<8xi1>
// CHECK:         scf.for
// CHECK:           vector.maskedload %arg0{{.+}}, %[[M]]
// CHECK:           vector.maskedstore %arg1{{.+}}, %[[M]]
func.func @predicated_rowsum(%A: memref<6xf32>, %B: memref<6xf32>) {
  tir.for %i = 0 to 8 vectorized {
    tir.for %k = 0 to 4 {
      tir.block "B"(%vi = spatial(6, %i), %vk = reduce(4, %k)) where(%i < 6) {
        %a = tir.load %A[%vi] : memref<6xf32>
        %b = tir.load %B[%vi] : memref<6xf32>
        %c = arith.addf %a, %b : f32
        tir.store %c, %B[%vi] : memref<6xf32>
      }
    }
  }
  return
}

// -----

// A bool buffer holds a byte per element, not the packed bits of an i1
// vector: its accesses are left scalar, with a warning.
// CHECK-LABEL: func.func @bools
// CHECK:         scf.for
// CHECK-NOT:     vector.
func.func @bools(%A: memref<32xf32>, %B: memref<32xi1>) {
  // expected-warning @below {{vectorized loop left scalar: 'memref.store' writes a bool buffer (a byte per element, not the bits of an i1 vector)}}
  tir.for %k = 0 to 32 vectorized {
    tir.block "B"(%vk = spatial(32, %k)) {
      %zero = arith.constant 0.0 : f32
      %a = tir.load %A[%vk] : memref<32xf32>
      %p = arith.cmpf ogt, %a, %zero : f32
      tir.store %p, %B[%vk] : memref<32xi1>
    }
  }
  return
}

// -----

// Every iteration writes the same element: left scalar, with a warning.
// (A vectorized loop feeding a reduce variable is refused by the verifier;
// this block, spatial but not a complete block, is the lowering's own
// safety net.)
// CHECK-LABEL: func.func @same_element
// CHECK:         scf.for
// CHECK-NOT:     vector.
func.func @same_element(%A: memref<8xf32>, %B: memref<1xf32>) {
  // expected-warning @below {{vectorized loop left scalar: 'memref.store' stores to the same element from every iteration (a reduction over the vectorized loop)}}
  tir.for %k = 0 to 8 vectorized {
    tir.block "B"(%vk = spatial(8, %k)) {
      %c0 = arith.constant 0 : index
      %a = tir.load %A[%vk] : memref<8xf32>
      %b = tir.load %B[0] : memref<1xf32>
      %c = arith.addf %a, %b : f32
      tir.store %c, %B[0] : memref<1xf32>
    }
  }
  return
}

// -----

// The pass works on marked scf.for loops of any constant step: lanes two
// elements apart are a gather and a scatter, not contiguous vectors.
// CHECK-LABEL: func.func @step2
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c32
// CHECK:           vector.gather
// CHECK:           vector.scatter
// CHECK-NOT:       vector.load
func.func @step2(%A: memref<64xf32>, %B: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c64 step %c2 {
    %a = memref.load %A[%i] : memref<64xf32>
    memref.store %a, %B[%i] : memref<64xf32>
  } {tir.loop_kind = #tir<for_kind vectorized>}
  return
}

// -----

// Under a lane mask an integer division would run in the lanes that the
// predicate turns off (and could divide by zero there): left scalar.
// CHECK-LABEL: func.func @masked_division
// CHECK:         scf.for
// CHECK-NOT:     vector.
func.func @masked_division(%A: memref<8xi32>, %D: memref<8xi32>) {
  // expected-warning @below {{vectorized loop left scalar: 'arith.divsi' may trap in lanes its condition turns off}}
  tir.for %i = 0 to 8 vectorized {
    tir.block "B"(%vi = spatial(6, %i)) where(%i < 6) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %d = tir.load %D[%vi] : memref<8xi32>
      %q = arith.divsi %a, %d : i32
      tir.store %q, %A[%vi] : memref<8xi32>
    }
  }
  return
}

// -----

// A vectorized loop that is not innermost: the inner loop stays a loop, run
// once per step with all lanes, and its variable is broadcast inside it
// where a vector needs it (here the gather's offsets).
// CHECK-LABEL: func.func @outer_over_inner
// CHECK-DAG:     %[[ROWS:.+]] = arith.constant dense<[0, 4, 8, 12, 16, 20, 24, 28]> : vector<8xindex>
// CHECK:         scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:      %[[KV:.+]] = vector.broadcast %[[K]] : index to vector<8xindex>
// CHECK:           scf.if
// CHECK-NEXT:        vector.store
// CHECK:           %[[OFFSETS:.+]] = arith.addi %[[KV]], %[[ROWS]] : vector<8xindex>
// CHECK:           vector.gather %{{.+}}[%{{.+}}] [%[[OFFSETS]]]
// CHECK:           vector.store
func.func @outer_over_inner(%A: memref<8x4xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 vectorized {
    tir.for %k = 0 to 4 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

// -----

// Columns of a small stack buffer (a local tile) go lane by lane, not through a
// gather or scatter: LLVM keeps such a tile in registers, and the lanes
// become shuffles of them. A column of a buffer in memory is a gather.
// CHECK-LABEL: func.func @local_columns
// CHECK:         %[[T:.+]] = memref.alloca() : memref<4x4xf32, "local">
// CHECK:         vector.load %arg0
// CHECK-COUNT-4: vector.extract
// CHECK:         vector.gather %{{.+}} : memref<16xf32>
// CHECK-COUNT-4: memref.load %[[T]]
// CHECK:         vector.from_elements
// CHECK-NOT:     vector.gather
// CHECK-NOT:     vector.scatter
// CHECK:         return
func.func @local_columns(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  %T = tir.alloc_buffer : memref<4x4xf32, "local">
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 vectorized {
      tir.block "fill_transposed"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x4xf32>
        tir.store %a, %T[%vj, %vi] : memref<4x4xf32, "local">
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 vectorized {
      tir.block "add_transposed"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vj, %vi] : memref<4x4xf32>
        %t = tir.load %T[%vj, %vi] : memref<4x4xf32, "local">
        %s = arith.addf %a, %t : f32
        tir.store %s, %B[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}

// -----

// A stack buffer larger than the vector registers (4 KiB) stays in memory:
// its columns are gathered.
// CHECK-LABEL: func.func @large_local_columns
// CHECK:         vector.gather %{{.+}} : memref<1024xf32, "local">
func.func @large_local_columns(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %T = tir.alloc_buffer : memref<32x32xf32, "local">
  tir.for %i = 0 to 32 {
    tir.for %j = 0 to 32 {
      tir.block "fill"(%vi = spatial(32, %i), %vj = spatial(32, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<32x32xf32>
        tir.store %a, %T[%vi, %vj] : memref<32x32xf32, "local">
      }
    }
  }
  tir.for %i = 0 to 32 {
    tir.for %j = 0 to 32 vectorized {
      tir.block "transposed"(%vi = spatial(32, %i), %vj = spatial(32, %j)) {
        %t = tir.load %T[%vj, %vi] : memref<32x32xf32, "local">
        tir.store %t, %B[%vi, %vj] : memref<32x32xf32>
      }
    }
  }
  return
}
