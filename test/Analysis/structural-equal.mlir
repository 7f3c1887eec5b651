// RUN: tir-opt %s -test-tir-structural-equal -verify-diagnostics -mlir-print-op-on-diagnostic=false -o /dev/null
// RUN: tir-opt %s -test-tir-structural-equal -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: tir-opt %s -test-tir-structural-equal=compare-symbol-names=1 -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMES

// Structural equality of tir functions (TVM's structural_equal): the pass
// compares every @lhs_X with @rhs_X and reports a remark on the lhs, at the
// first difference when there is one, with a note on the rhs op.

//===----------------------------------------------------------------------===//
// Equal
//===----------------------------------------------------------------------===//

// ceildiv(n, d) is floordiv(n + d - 1, d), also for a runtime divisor (split
// of a scalable loop writes the first, TVMScript often the second).
// CHECK: remark: equal to @rhs_ceildiv
// expected-remark @below {{equal to @rhs_ceildiv}}
func.func @lhs_ceildiv(%n: index, %A: memref<?xf32>) {
  %vs = vector.vscale
  %d = arith.muli %vs, %n : index
  %e = arith.ceildivsi %n, %d : index
  tir.for %i = 0 to %e {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %A[%vi] : memref<?xf32>
    }
  }
  return
}
func.func @rhs_ceildiv(%n: index, %A: memref<?xf32>) {
  %vs = vector.vscale
  %d = arith.muli %n, %vs : index
  %m1 = arith.constant -1 : index
  %s = arith.addi %n, %d : index
  %t = arith.addi %s, %m1 : index
  %e = arith.floordivsi %t, %d : index
  tir.for %i = 0 to %e {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %A[%vi] : memref<?xf32>
    }
  }
  return
}

// Names are free: SSA names, loop and iteration variable names, buffer
// names, tir.name and the symbol name.
// CHECK: remark: equal to @rhs_renamed
// NAMES: remark: differs from @rhs_renamed: func @lhs_renamed: symbol name differs: lhs_renamed vs rhs_renamed
// expected-remark @below {{equal to @rhs_renamed}}
func.func @lhs_renamed(%A: memref<16x16xf32> {tir.name = "A"},
                       %B: memref<16x16xf32> {tir.name = "B"}) {
  %T = tir.alloc_buffer : memref<16x16xf32, "local">
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "T"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
        tir.store %a, %T[%vi, %vj] : memref<16x16xf32, "local">
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %t = tir.load %T[%vi, %vj] : memref<16x16xf32, "local">
        tir.store %t, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}
func.func @rhs_renamed(%X: memref<16x16xf32> {tir.name = "X"},
                       %Y: memref<16x16xf32>) {
  %tmp = tir.alloc_buffer : memref<16x16xf32, "local">
  tir.for %ax0 = 0 to 16 {
    tir.for %ax1 = 0 to 16 {
      tir.block "T"(%v0 = spatial(16, %ax0), %v1 = spatial(16, %ax1)) {
        %0 = tir.load %X[%v0, %v1] : memref<16x16xf32>
        tir.store %0, %tmp[%v0, %v1] : memref<16x16xf32, "local">
      }
    }
  }
  tir.for %ax0 = 0 to 16 {
    tir.for %ax1 = 0 to 16 {
      tir.block "B"(%v0 = spatial(16, %ax0), %v1 = spatial(16, %ax1)) {
        %0 = tir.load %tmp[%v0, %v1] : memref<16x16xf32, "local">
        tir.store %0, %Y[%v0, %v1] : memref<16x16xf32>
      }
    }
  }
  return
}

// Pure values are expression trees: the order of independent loads, where
// a constant is defined, and sharing (CSE) do not matter.
// CHECK: remark: equal to @rhs_expression_trees
// expected-remark @below {{equal to @rhs_expression_trees}}
func.func @lhs_expression_trees(%A: memref<16xf32>, %B: memref<16xf32>,
                                %C: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      %b = tir.load %B[%vi] : memref<16xf32>
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %one : f32
      %u = arith.mulf %t, %t : f32
      %v = arith.addf %u, %one : f32
      tir.store %v, %C[%vi] : memref<16xf32>
    }
  }
  return
}
func.func @rhs_expression_trees(%A: memref<16xf32>, %B: memref<16xf32>,
                                %C: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi] : memref<16xf32>
      %a = tir.load %A[%vi] : memref<16xf32>
      %one = arith.constant 1.0 : f32
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %one : f32
      %b2 = tir.load %B[%vi] : memref<16xf32>
      %a2 = tir.load %A[%vi] : memref<16xf32>
      %s2 = arith.addf %a2, %b2 : f32
      %one2 = arith.constant 1.0 : f32
      %t2 = arith.addf %s2, %one2 : f32
      %u = arith.mulf %t, %t2 : f32
      %v = arith.addf %u, %one2 : f32
      tir.store %v, %C[%vi] : memref<16xf32>
    }
  }
  return
}

// Index expressions are compared in a linear normal form, whether written
// in maps or computed by arith / affine ops before the block: bindings,
// indices, loop bounds (TVM's `(min(31, 126 - i*32) + 1) * 128` against
// `min(31, 126 - i*32) * 128 + 128`) and regions.
// CHECK: remark: equal to @rhs_index_normal_form
// expected-remark @below {{equal to @rhs_index_normal_form}}
func.func @lhs_index_normal_form(%A: memref<4x4096xf32>, %B: memref<64xf32>) {
  %c31 = arith.constant 31 : index
  tir.for %i = 0 to 4 {
    %x = affine.apply affine_map<(d0) -> (126 - d0 * 32)>(%i)
    %m = arith.minsi %c31, %x : index
    %ub = affine.apply affine_map<(d0) -> ((d0 + 1) * 128)>(%m)
    tir.for %k = 0 to %ub {
      tir.block "A"(%vi = spatial(4, %i), %vk = spatial(4096, %k)) {
        %a = tir.load %A[%vi, %vk] : memref<4x4096xf32>
        tir.store %a, %A[%vi, %vk] : memref<4x4096xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.for %l = 0 to 4 {
        tir.block "B"(%v = spatial(64, %i * 16 + %j * 4 + %l))
            reads(%B[%v : %v + 1] : memref<64xf32>) writes(%B[%v] : memref<64xf32>) {
          %b = tir.load %B[%v] : memref<64xf32>
          tir.store %b, %B[%v] : memref<64xf32>
        }
      }
    }
  }
  return
}
func.func @rhs_index_normal_form(%A: memref<4x4096xf32>, %B: memref<64xf32>) {
  tir.for %i = 0 to 4 {
    %c32 = arith.constant 32 : index
    %c126 = arith.constant 126 : index
    %t = arith.muli %i, %c32 : index
    %x = arith.subi %c126, %t : index
    %c31 = arith.constant 31 : index
    %m = arith.minsi %x, %c31 : index
    %ub = affine.apply affine_map<(d0) -> (d0 * 128 + 128)>(%m)
    tir.for %k = 0 to %ub {
      tir.block "A"(%vi = spatial(4, %i), %vk = spatial(4096, %k)) {
        %a = tir.load %A[%vi, %vk] : memref<4x4096xf32>
        tir.store %a, %A[%vi, %vk] : memref<4x4096xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.for %l = 0 to 4 {
        tir.block "B"(%v = spatial(64, %l + 4 * %j + %i * 16))
            reads(%B[%v] : memref<64xf32>) writes(%B[%v : 1 + %v] : memref<64xf32>) {
          %b = tir.load %B[%v] : memref<64xf32>
          tir.store %b, %B[%v] : memref<64xf32>
        }
      }
    }
  }
  return
}

// Predicates are sets of normalized constraints (a disjunction, a set of
// such sets); no predicate is an always-true one.
// CHECK: remark: equal to @rhs_predicates
// expected-remark @below {{equal to @rhs_predicates}}
func.func @lhs_predicates(%A: memref<64xf32>) {
  tir.for %i0 = 0 to 4 {
    tir.for %i1 = 0 to 16 {
      tir.block "P"(%v = spatial(64, %i0 * 16 + %i1))
          where(%i0 * 16 + %i1 < 50, %i1 >= 2) {
        %a = tir.load %A[%v] : memref<64xf32>
        tir.store %a, %A[%v] : memref<64xf32>
      }
    }
  }
  tir.for %i = 0 to 64 {
    tir.block "Q"(%v = spatial(64, %i)) where(%i - %i >= 0) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  tir.for %i = 0 to 64 {
    tir.block "R"(%v = spatial(64, %i)) where(%i < 2 or %i >= 60) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  return
}
func.func @rhs_predicates(%A: memref<64xf32>) {
  tir.for %i0 = 0 to 4 {
    tir.for %i1 = 0 to 16 {
      tir.block "P"(%v = spatial(64, %i1 + %i0 * 16))
          where(%i1 > 1, %i1 + 16 * %i0 <= 49) {
        %a = tir.load %A[%v] : memref<64xf32>
        tir.store %a, %A[%v] : memref<64xf32>
      }
    }
  }
  tir.for %i = 0 to 64 {
    tir.block "Q"(%v = spatial(64, %i)) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  tir.for %i = 0 to 64 {
    tir.block "R"(%v = spatial(64, %i)) where(%i > 59 or %i <= 1) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  return
}

// Regions left out are inferred (as TVMScript's parser infers T.reads and
// T.writes) before they are compared.
// CHECK: remark: equal to @rhs_regions_inferred
// expected-remark @below {{equal to @rhs_regions_inferred}}
func.func @lhs_regions_inferred(%A: memref<8xf32>, %B: memref<8x4xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>)
        writes(%B[%vi, 0 : 4] : memref<8x4xf32>) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.for %j = 0 to 4 {
        tir.store %a, %B[%vi, %j] : memref<8x4xf32>
      }
    }
  }
  return
}
func.func @rhs_regions_inferred(%A: memref<8xf32>, %B: memref<8x4xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.for %j = 0 to 4 {
        tir.store %a, %B[%vi, %j] : memref<8x4xf32>
      }
    }
  }
  return
}

// Division and modulo by constants have a normal form: the bindings of
// two ways to write a fuse of three loops of 128 are one.
// CHECK: remark: equal to @rhs_div_mod
// expected-remark @below {{equal to @rhs_div_mod}}
func.func @lhs_div_mod(%A: memref<128x128x128xf32>) {
  tir.for %f = 0 to 2097152 {
    tir.block "B"(%vi = spatial(128, %f floordiv 16384),
                  %vj = spatial(128, (%f mod 16384) floordiv 128),
                  %vk = spatial(128, %f mod 128)) {
      %a = tir.load %A[%vi, %vj, %vk] : memref<128x128x128xf32>
      tir.store %a, %A[%vi, %vj, %vk] : memref<128x128x128xf32>
    }
  }
  return
}
func.func @rhs_div_mod(%A: memref<128x128x128xf32>) {
  tir.for %f = 0 to 2097152 {
    tir.block "B"(%vi = spatial(128, (%f floordiv 128) floordiv 128),
                  %vj = spatial(128, (%f floordiv 128) mod 128),
                  %vk = spatial(128, (%f + 128 * 5) mod 128)) {
      %a = tir.load %A[%vi, %vj, %vk] : memref<128x128x128xf32>
      tir.store %a, %A[%vi, %vj, %vk] : memref<128x128x128xf32>
    }
  }
  return
}

// Products of variables are atoms of the normal form, with their operands
// unordered; the binding may be written in place or computed before.
// CHECK: remark: equal to @rhs_non_affine
// expected-remark @below {{equal to @rhs_non_affine}}
func.func @lhs_non_affine(%A: memref<64xf32>) {
  tir.for %k = 0 to 8 {
    tir.block "B"(%v = spatial(64, %k * %k)) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  return
}
func.func @rhs_non_affine(%A: memref<64xf32>) {
  tir.for %k = 0 to 8 {
    %m = arith.muli %k, %k : index
    tir.block "B"(%v = spatial(64, %m)) {
      %a = tir.load %A[%v] : memref<64xf32>
      tir.store %a, %A[%v] : memref<64xf32>
    }
  }
  return
}

// Modules: the same function names, each pair equal, in any order.
// CHECK: remark: equal to @rhs_module
// expected-remark @below {{equal to @rhs_module}}
module @lhs_module {
  func.func @main(%A: memref<8xf32>) {
    tir.for %i = 0 to 8 parallel {
      tir.block "B"(%vi = spatial(8, %i)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %A[%vi] : memref<8xf32>
      }
    }
    return
  }
  func.func @other(%A: memref<8xf32>) {
    return
  }
}
module @rhs_module {
  func.func @other(%B: memref<8xf32>) {
    return
  }
  func.func @main(%B: memref<8xf32>) {
    tir.for %j = 0 to 8 parallel {
      tir.block "B"(%vj = spatial(8, %j)) {
        %b = tir.load %B[%vj] : memref<8xf32>
        tir.store %b, %B[%vj] : memref<8xf32>
      }
    }
    return
  }
}

//===----------------------------------------------------------------------===//
// Not equal
//===----------------------------------------------------------------------===//

// Variables are matched by where they are defined: swapping two uses is a
// difference.
// CHECK-LABEL: remark: differs from @rhs_swapped_vars:
// CHECK-SAME: func @lhs_swapped_vars > tir.for #0 > tir.for #0 > tir.block "B" > tir.store #0: stored value differs: A[vi, vj] vs A[vj, vi]
// CHECK-NEXT: lhs: tir.store %{{.*}}, %arg1[%vi, %vj] : memref<16x16xf32>
// CHECK-NEXT: rhs: tir.store %{{.*}}, %arg1[%vi, %vj] : memref<16x16xf32>
// CHECK: note: rhs here
func.func @lhs_swapped_vars(%A: memref<16x16xf32> {tir.name = "A"},
                            %B: memref<16x16xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j))
          reads(%A[0 : 16, 0 : 16] : memref<16x16xf32>)
          writes(%B[%vi, %vj] : memref<16x16xf32>) {
        %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
        // expected-remark @below {{differs from @rhs_swapped_vars: func @lhs_swapped_vars > tir.for #0 > tir.for #0 > tir.block "B" > tir.store #0: stored value differs}}
        tir.store %a, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}
func.func @rhs_swapped_vars(%A: memref<16x16xf32> {tir.name = "A"},
                            %B: memref<16x16xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j))
          reads(%A[0 : 16, 0 : 16] : memref<16x16xf32>)
          writes(%B[%vi, %vj] : memref<16x16xf32>) {
        %a = tir.load %A[%vj, %vi] : memref<16x16xf32>
        // expected-note @below {{rhs here}}
        tir.store %a, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}

// Block names are hints, as in TVM: not compared.
// CHECK: remark: equal to @rhs_block_name
// expected-remark @below {{equal to @rhs_block_name}}
func.func @lhs_block_name(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_block_name(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_loop_kind:
// CHECK-SAME: func @lhs_loop_kind > tir.for #1: loop kind differs: parallel vs vectorized
func.func @lhs_loop_kind(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
  }
  // expected-remark @below {{func @lhs_loop_kind > tir.for #1: loop kind differs: parallel vs vectorized}}
  tir.for %i = 0 to 8 parallel {
  }
  return
}
func.func @rhs_loop_kind(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
  }
  // expected-note @below {{rhs here}}
  tir.for %i = 0 to 8 vectorized {
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_thread_tag:
// CHECK-SAME: tir.for #0: thread differs: "threadIdx.x" vs "threadIdx.y"
func.func @lhs_thread_tag() {
  // expected-remark @below {{thread differs: "threadIdx.x" vs "threadIdx.y"}}
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
  }
  return
}
func.func @rhs_thread_tag() {
  // expected-note @below {{rhs here}}
  tir.for %t = 0 to 32 thread_binding<"threadIdx.y"> {
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_annotation:
// CHECK-SAME: tir.for #0: annotations differs: {pragma_unroll = 4 : i64} vs {pragma_unroll = 8 : i64}
func.func @lhs_annotation() {
  // expected-remark @below {{annotations differs}}
  tir.for %i = 0 to 4 annotations {pragma_unroll = 4} {
  }
  return
}
func.func @rhs_annotation() {
  // expected-note @below {{rhs here}}
  tir.for %i = 0 to 4 annotations {pragma_unroll = 8} {
  }
  return
}

// Loop bounds: 0 to 8 against 0 to 4 * 2 would be equal; 0 to 9 is not.
// CHECK-LABEL: remark: differs from @rhs_loop_bound:
// CHECK-SAME: tir.for #0: upper bound differs: n + 1 vs n + 2
func.func @lhs_loop_bound(%n: index {tir.name = "n"}) {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %n, %c1 : index
  // expected-remark @below {{upper bound differs: n + 1 vs n + 2}}
  tir.for %i = 0 to %ub {
  }
  return
}
func.func @rhs_loop_bound(%m: index {tir.name = "n"}) {
  %ub = affine.apply affine_map<(d0) -> (d0 + 2)>(%m)
  // expected-note @below {{rhs here}}
  tir.for %i = 0 to %ub {
  }
  return
}

// Buffer shapes are part of the function type.
// CHECK-LABEL: remark: differs from @rhs_buffer_shape:
// CHECK-SAME: func @lhs_buffer_shape: function type differs: (memref<16xf32>) -> () vs (memref<32xf32>) -> ()
// expected-remark @below {{function type differs: (memref<16xf32>) -> () vs (memref<32xf32>) -> ()}}
func.func @lhs_buffer_shape(%A: memref<16xf32>) {
  return
}
// expected-note @below {{rhs here}}
func.func @rhs_buffer_shape(%A: memref<32xf32>) {
  return
}

// CHECK-LABEL: remark: differs from @rhs_alloc_scope:
// CHECK-SAME: func @lhs_alloc_scope > tir.alloc_buffer #0: buffer type differs: memref<16xf32, "local"> vs memref<16xf32, "shared">
func.func @lhs_alloc_scope() {
  // expected-remark @below {{buffer type differs}}
  %S = tir.alloc_buffer : memref<16xf32, "local">
  return
}
func.func @rhs_alloc_scope() {
  // expected-note @below {{rhs here}}
  %S = tir.alloc_buffer : memref<16xf32, "shared">
  return
}

// CHECK-LABEL: remark: differs from @rhs_binding:
// CHECK-SAME: tir.block "B": binding 0 differs: i vs -i + 7
func.func @lhs_binding(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{binding 0 differs: i vs -i + 7}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_binding(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = spatial(8, 7 - %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_iter_kind:
// CHECK-SAME: tir.block "B": iteration variable kind 0 differs: spatial vs reduce
func.func @lhs_iter_kind(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{iteration variable kind 0 differs: spatial vs reduce}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_iter_kind(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = reduce(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_domain:
// CHECK-SAME: tir.block "B": domain 0 differs: range(0, 8) vs range(0, 16)
func.func @lhs_domain(%A: memref<16xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{domain 0 differs: range(0, 8) vs range(0, 16)}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}
func.func @rhs_domain(%A: memref<16xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

// A predicate against none.
// CHECK-LABEL: remark: differs from @rhs_predicate:
// CHECK-SAME: tir.block "B": predicate differs: i <= 5 vs true
func.func @lhs_predicate(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{predicate differs: i <= 5 vs true}}
    tir.block "B"(%vi = spatial(8, %i)) where(%i < 6) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_predicate(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// CHECK-LABEL: remark: differs from @rhs_disjunction:
// CHECK-SAME: tir.block "B": predicate differs: (i <= 1) or (i >= 6) vs (i <= 2) or (i >= 6)
func.func @lhs_disjunction(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{predicate differs: (i <= 1) or (i >= 6) vs (i <= 2) or (i >= 6)}}
    tir.block "B"(%vi = spatial(8, %i)) where(%i < 2 or %i >= 6) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_disjunction(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = spatial(8, %i)) where(%i >= 6 or %i < 3) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// Given regions against inferred ones.
// CHECK-LABEL: remark: differs from @rhs_region:
// CHECK-SAME: tir.block "B": read 0 differs: A[0 : 8] vs A[vi]
func.func @lhs_region(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-remark @below {{read 0 differs: A[0 : 8] vs A[vi]}}
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[0 : 8] : memref<8xf32>)
        writes(%B[%vi] : memref<8xf32>) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_region(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{rhs here}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// Constants compare by value and type.
// CHECK-LABEL: remark: differs from @rhs_constant:
// CHECK-SAME: tir.store #0: stored value differs: arith.addf(A[vi], 1.000000e+00 : f32) vs arith.addf(A[vi], 2.000000e+00 : f32)
func.func @lhs_constant(%A: memref<8xf32> {tir.name = "A"}) {
  %c = arith.constant 1.0 : f32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %s = arith.addf %a, %c : f32
      // expected-remark @below {{stored value differs}}
      tir.store %s, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_constant(%A: memref<8xf32> {tir.name = "A"}) {
  %c = arith.constant 2.0 : f32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %s = arith.addf %a, %c : f32
      // expected-note @below {{rhs here}}
      tir.store %s, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// Values that print alike without types are shown with their types.
// CHECK-LABEL: remark: differs from @rhs_value_type:
// CHECK-SAME: stored value differs: arith.sitofp(arith.extsi(A[vi] : i32) : i64) : f32 vs arith.sitofp(arith.extsi(A[vi] : i32) : i48) : f32
func.func @lhs_value_type(%A: memref<8xi32> {tir.name = "A"}, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %e = arith.extsi %a : i32 to i64
      %f = arith.sitofp %e : i64 to f32
      // expected-remark @below {{stored value differs}}
      tir.store %f, %B[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_value_type(%A: memref<8xi32> {tir.name = "A"}, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %e = arith.extsi %a : i32 to i48
      %f = arith.sitofp %e : i48 to f32
      // expected-note @below {{rhs here}}
      tir.store %f, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// Integer constants of another type.
// CHECK-LABEL: remark: differs from @rhs_constant_type:
// CHECK-SAME: stored value differs: arith.addi(A[vi], 1 : i32) vs arith.addi(A[vi], arith.trunci(1 : i64))
func.func @lhs_constant_type(%A: memref<8xi32> {tir.name = "A"}) {
  %c = arith.constant 1 : i32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %s = arith.addi %a, %c : i32
      // expected-remark @below {{stored value differs}}
      tir.store %s, %A[%vi] : memref<8xi32>
    }
  }
  return
}
func.func @rhs_constant_type(%A: memref<8xi32> {tir.name = "A"}) {
  %c64 = arith.constant 1 : i64
  %c = arith.trunci %c64 : i64 to i32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %s = arith.addi %a, %c : i32
      // expected-note @below {{rhs here}}
      tir.store %s, %A[%vi] : memref<8xi32>
    }
  }
  return
}

// Stores are statements: their order matters.
// CHECK-LABEL: remark: differs from @rhs_store_order:
// CHECK-SAME: tir.block "B" > tir.store #0: store target differs: B[vi] vs C[vi]
func.func @lhs_store_order(%A: memref<8xf32> {tir.name = "A"},
                           %B: memref<8xf32> {tir.name = "B"},
                           %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>)
        writes(%B[%vi], %C[%vi] : memref<8xf32>, memref<8xf32>) {
      %a = tir.load %A[%vi] : memref<8xf32>
      // expected-remark @below {{store target differs: B[vi] vs C[vi]}}
      tir.store %a, %B[%vi] : memref<8xf32>
      tir.store %a, %C[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_store_order(%A: memref<8xf32> {tir.name = "A"},
                           %B: memref<8xf32> {tir.name = "B"},
                           %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>)
        writes(%B[%vi], %C[%vi] : memref<8xf32>, memref<8xf32>) {
      %a = tir.load %A[%vi] : memref<8xf32>
      // expected-note @below {{rhs here}}
      tir.store %a, %C[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// A load is a value, but not across a write of its buffer.
// CHECK-LABEL: remark: differs from @rhs_load_after_store:
// CHECK-SAME: tir.store #1: stored value differs: C[vi] : f32 vs C[vi] : f32 (after 1 write)
func.func @lhs_load_after_store(%C: memref<8xf32> {tir.name = "C"},
                                %D: memref<8xf32> {tir.name = "D"}) {
  %zero = arith.constant 0.0 : f32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %c = tir.load %C[%vi] : memref<8xf32>
      tir.store %zero, %C[%vi] : memref<8xf32>
      // expected-remark @below {{stored value differs}}
      tir.store %c, %D[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_load_after_store(%C: memref<8xf32> {tir.name = "C"},
                                %D: memref<8xf32> {tir.name = "D"}) {
  %zero = arith.constant 0.0 : f32
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      tir.store %zero, %C[%vi] : memref<8xf32>
      %c = tir.load %C[%vi] : memref<8xf32>
      // expected-note @below {{rhs here}}
      tir.store %c, %D[%vi] : memref<8xf32>
    }
  }
  return
}

// An extra statement.
// CHECK-LABEL: remark: differs from @rhs_extra_statement:
// CHECK-SAME: func @lhs_extra_statement > tir.for #0 > tir.block "B": statement 1 differs: tir.store vs <end of block>
// CHECK-NEXT: lhs: tir.store %{{.*}}, %arg0[%vi] : memref<8xf32>
// CHECK-NEXT: rhs: <end of block>
// CHECK-NOT: note: rhs here
func.func @lhs_extra_statement(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
      // expected-remark @below {{statement 1 differs: tir.store vs <end of block>}}
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}
func.func @rhs_extra_statement(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// Modules must define the same functions.
// CHECK-LABEL: remark: differs from @rhs_module_names: module: function @other is defined on the lhs only
module @lhs_module_names {
  func.func @main() {
    return
  }
  // expected-remark @below {{function @other is defined on the lhs only}}
  func.func @other() {
    return
  }
}
module @rhs_module_names {
  func.func @main() {
    return
  }
  func.func @another() {
    return
  }
}
