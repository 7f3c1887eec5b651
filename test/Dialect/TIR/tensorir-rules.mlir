// Programs TensorIR accepts that a stricter IR would refuse: each case
// parses, verifies, prints, and parses back (custom and generic form).
// RUN: tir-opt %s | tir-opt | FileCheck %s
// RUN: tir-opt %s -mlir-print-op-generic | tir-opt | FileCheck %s

// Bindings need not be affine: products of variables, division and modulo
// by runtime values.
// CHECK-LABEL: func.func @non_affine_bindings
// CHECK-SAME:    (%[[N:.+]]: index,
func.func @non_affine_bindings(%n: index, %A: memref<64xf32>, %B: memref<128x128x?xf32>) {
  // CHECK: tir.block "sq"(%{{.+}} = spatial(64, (%[[K:.+]] * %[[K]]) floordiv 2))
  tir.for %k = 0 to 11 {
    tir.block "sq"(%v = spatial(64, %k * %k floordiv 2)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%v] : memref<64xf32>
    }
  }
  // CHECK: tir.block "fused"(%{{.+}} = spatial(128, %[[F:.+]] floordiv (%[[N]] * 128)), %{{.+}} = spatial(128, (%[[F]] mod (%[[N]] * 128)) floordiv %[[N]]), %{{.+}} = spatial(%[[N]], %[[F]] mod %[[N]]))
  %e = arith.muli %n, %n : index
  tir.for %f = 0 to %e {
    tir.block "fused"(%vi = spatial(128, %f floordiv (%n * 128)),
                      %vj = spatial(128, (%f mod (%n * 128)) floordiv %n),
                      %vk = spatial(%n, %f mod %n)) {
      %c = arith.constant 1.0 : f32
      // CHECK: tir.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}]
      tir.store %c, %B[%vi, %vj, %vk] : memref<128x128x?xf32>
    }
  }
  return
}

// Indices may be non-affine too.
// CHECK-LABEL: func.func @non_affine_index
func.func @non_affine_index(%A: memref<64xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %c = arith.constant 1.0 : f32
        // CHECK: tir.store %{{.+}}, %{{.+}}[%[[VI:.+]] * %[[VJ:[a-z0-9_]+]]]
        tir.store %c, %A[%vi * %vj] : memref<64xf32>
      }
    }
  }
  return
}

// blockize's output: an inner block binds to a loop outside the enclosing
// block, and its body uses the enclosing block's iteration variables.
// CHECK-LABEL: func.func @nested_blocks
func.func @nested_blocks(%A: memref<128x128xf32>, %B: memref<128x128xf32>) {
  tir.for %i = 0 to 128 {
    // CHECK: tir.block "outer"(%[[VI:.+]] = spatial(128, %[[I:.+]]))
    tir.block "outer"(%vi = spatial(128, %i)) {
      tir.for %j = 0 to 128 {
        // CHECK: tir.block "inner"(%{{.+}} = spatial(128, %{{.+}}), %{{.+}} = spatial(128, %[[I]]))
        tir.block "inner"(%vj = spatial(128, %j), %vi2 = spatial(128, %i)) {
          // CHECK: tir.load %{{.+}}[%[[VI]], %{{.+}}]
          %a = tir.load %A[%vi, %vj] : memref<128x128xf32>
          tir.store %a, %B[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  return
}

// An opaque block (no iteration variables) uses loop variables directly,
// in its body and its regions; regions may use any value in scope.
// CHECK-LABEL: func.func @opaque_block
func.func @opaque_block(%A: memref<16x16xf32>, %n: index) {
  tir.for %i = 0 to 16 {
    // CHECK: tir.block "opaque"() reads(%{{.+}}[%[[I:.+]], 0 : %[[N:.+]]] : memref<16x16xf32>) writes(%{{.+}}[%[[I]], 0 : 16] : memref<16x16xf32>)
    tir.block "opaque"() reads(%A[%i, 0 : %n] : memref<16x16xf32>)
                         writes(%A[%i, 0 : 16] : memref<16x16xf32>) {
      %c = arith.constant 0.0 : f32
      tir.store %c, %A[%i, 0] : memref<16x16xf32>
    }
  }
  return
}

// Init in a block whose variables are all spatial (rfactor's output), after
// the block's allocations.
// CHECK-LABEL: func.func @init_anywhere
func.func @init_anywhere(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // CHECK: tir.block "B"
    // CHECK-NEXT: tir.alloc_buffer
    // CHECK-NEXT: tir.init
    tir.block "B"(%vi = spatial(8, %i)) {
      %T = tir.alloc_buffer : memref<4xf32>
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi] : memref<8xf32>
      }
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// Accesses, regions and bindings that may leave their buffer or domain are
// not errors (guards make them safe; checking bounds is for analyses).
// CHECK-LABEL: func.func @out_of_bounds
func.func @out_of_bounds(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 16 {
    // CHECK: tir.block "B"(%{{.+}} = spatial(8, %{{.+}})) reads(%{{.+}}[%{{.+}} : %{{.+}} + 2] : memref<8xf32>)
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi : %vi + 2] : memref<8xf32>)
                                         writes(%B[%vi] : memref<8xf32>) {
      %a = tir.load %A[%vi + 1] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// Block names need not be unique (get_block refuses an ambiguous name).
// CHECK-LABEL: func.func @same_names
// CHECK-COUNT-2: tir.block "B"
func.func @same_names(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

// Predicates join comparisons with and, or and not.
// CHECK-LABEL: func.func @predicates
func.func @predicates(%A: memref<4x8xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      // CHECK: where((%[[I:.+]] < 1 and %[[J:.+]] >= 2) or (%[[I]] >= 1 and %[[J]] >= 2))
      tir.block "or"(%vi = spatial(4, %i), %vj = spatial(8, %j))
          where((%i < 1 or not (%i < 1)) and 2 <= %j) {
      }
      // CHECK: where(%[[I]] >= 3 or %[[I]] < 2)
      tir.block "ne"(%vi = spatial(4, %i)) where(not (%i == 2)) {
      }
      // Parenthesized conditions nest; `(e) * 2` is still an expression.
      // CHECK: where((%[[I]] < 1 and %[[I]] * 2 < 8) or (%[[J]] >= 2 and %[[I]] * 2 < 8))
      tir.block "nested"(%vi = spatial(4, %i))
          where(((%i < 1) or (%j >= 2)) and ((%i) * 2 < 8)) {
      }
    }
  }
  return
}

// A T.where over loaded values is an i1 computed before the block.
// CHECK-LABEL: func.func @value_condition
// CHECK:         %[[C:.+]] = arith.cmpf olt
// CHECK-NEXT:    tir.block "C"(%{{.+}} = spatial(8, %{{.+}})) condition(%[[C]]) {
func.func @value_condition(%B: memref<8xf32>, %C: memref<8xf32>) {
  %ten = arith.constant 10.0 : f32
  tir.for %i = 0 to 8 {
    %b = tir.load %B[%i] : memref<8xf32>
    %c = arith.cmpf olt, %b, %ten : f32
    tir.block "C"(%vi = spatial(8, %i)) condition(%c) {
      %v = tir.load %B[%vi] : memref<8xf32>
      tir.store %v, %C[%vi] : memref<8xf32>
    }
  }
  return
}

// A parallel loop may feed a reduce variable, as in TVM's IR (rfactor and
// the loop-kind primitives refuse such loops, and convert-tir-to-scf
// refuses to compile one: independent-iterations-invalid.mlir).
// CHECK-LABEL: func.func @parallel_reduce_loop
// CHECK:         tir.for %[[K:.+]] = 0 to 4 parallel {
// CHECK-NEXT:      tir.block "B"(%{{.+}} = reduce(4, %[[K]]))
func.func @parallel_reduce_loop(%A: memref<4xf32>, %B: memref<1xf32>) {
  tir.for %k = 0 to 4 parallel {
    tir.block "B"(%vk = reduce(4, %k)) {
      %b = tir.load %B[0] : memref<1xf32>
      %a = tir.load %A[%vk] : memref<4xf32>
      %s = arith.addf %b, %a : f32
      tir.store %s, %B[0] : memref<1xf32>
    }
  }
  return
}
