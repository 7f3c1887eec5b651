// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A row of a matmul's output tile (16 columns) updated by one element of A
// and a row of B, tensorized with an intrinsic the transform module
// carries: the inner loop is blockized, matched against the description,
// and the outer block's body becomes the implementation, each parameter a
// view of the region it stands for.
// CHECK-LABEL: func.func @matmul
// CHECK:         tir.for %[[K:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "C_o"(%[[VI:.+]] = spatial(4, %{{.+}}), %[[VJO:.+]] = spatial(2, %{{.+}}), %[[VK:.+]] = reduce(8, %[[K]]))
// CHECK-SAME:          reads(%[[C:[a-z0-9]+]][%[[VI]], %[[VJO]] * 16 : %[[VJO]] * 16 + 16], %[[A:[a-z0-9]+]][%[[VI]], %[[VK]]], %[[B:[a-z0-9]+]][%[[VK]], %[[VJO]] * 16 : %[[VJO]] * 16 + 16]
// CHECK-SAME:          writes(%[[C]][%[[VI]], %[[VJO]] * 16 : %[[VJO]] * 16 + 16]
// CHECK-NEXT:      %[[MA:.+]] = tir.match_buffer %[[A]][%[[VI]], %[[VK]]] : memref<4x8xf32> -> memref<1xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[MB:.+]] = tir.match_buffer %[[B]][%[[VK]], %[[VJO]] * 16 : %[[VJO]] * 16 + 16] : memref<8x32xf32> -> memref<16xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[MC:.+]] = tir.match_buffer %[[C]][%[[VI]], %[[VJO]] * 16 : %[[VJO]] * 16 + 16] : memref<4x32xf32> -> memref<16xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      tir.call "call_extern"("llvm.fma.v16f32", %[[MC]], %[[MA]], %[[MB]])
// CHECK-NEXT:    }
// The intrinsic's functions stay where they were.
// CHECK:       func.func private @row_fma_desc
// CHECK:       func.func private @row_fma_impl
func.func @matmul(%A: memref<4x8xf32> {tir.name = "A"}, %B: memref<8x32xf32> {tir.name = "B"}, %C: memref<4x32xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 4 {
    tir.for %j0 = 0 to 2 {
      tir.for %k = 0 to 8 {
        tir.for %j1 = 0 to 16 {
          tir.block "C"(%vi = spatial(4, %i), %vj = spatial(32, %j0 * 16 + %j1), %vk = reduce(8, %k)) {
            %c = tir.load %C[%vi, %vj] : memref<4x32xf32>
            %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
            %b = tir.load %B[%vk, %vj] : memref<8x32xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %c, %p : f32
            tir.store %s, %C[%vi, %vj] : memref<4x32xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  func.func private @row_fma_desc(%A: memref<1xf32>, %B: memref<16xf32>, %C: memref<16xf32>) attributes {tir.tensor_intrin_desc = "row_fma"} {
    tir.block "root"() reads(%C[0 : 16], %A[0 : 1], %B[0 : 16] : memref<16xf32>, memref<1xf32>, memref<16xf32>) writes(%C[0 : 16] : memref<16xf32>) {
      tir.for %j = 0 to 16 {
        tir.block "update"(%vj = spatial(16, %j)) {
          %c = tir.load %C[%vj] : memref<16xf32>
          %a = tir.load %A[0] : memref<1xf32>
          %b = tir.load %B[%vj] : memref<16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vj] : memref<16xf32>
        }
      }
    }
    return
  }
  func.func private @row_fma_impl(%A: memref<1xf32>, %B: memref<16xf32>, %C: memref<16xf32>) attributes {tir.tensor_intrin_impl = "row_fma"} {
    tir.block "root"() reads(%C[0 : 16], %A[0 : 1], %B[0 : 16] : memref<16xf32>, memref<1xf32>, memref<16xf32>) writes(%C[0 : 16] : memref<16xf32>) {
      tir.call "call_extern"("llvm.fma.v16f32", %C, %A, %B) : (memref<16xf32>, memref<1xf32>, memref<16xf32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j0, %k, %j1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %t = transform.tir.tensorize %j1 {tensor_intrin = "row_fma"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block given directly: its body is replaced in place (the regions it
// lists stay); A's rows of one element are matched through a region of
// extent 1 in the dimension the description does not have, and the
// implementation's annotations join the block's (the block's own win).
// (Intrinsic names are global: this one has a name of its own.)
// CHECK-LABEL: func.func @rows
// CHECK:         tir.block "R"(%[[VI:.+]] = spatial(4, %{{.+}}))
// CHECK-SAME:        annotations {keep = 1 : i64, vendor = "x"}
// CHECK-NEXT:      %[[MA:.+]] = tir.match_buffer %{{.+}}[%[[VI]], 0] : memref<4x1xf32> -> memref<1xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[MB:.+]] = tir.match_buffer %{{.+}}[0 : 16] : memref<16xf32> -> memref<16xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[MC:.+]] = tir.match_buffer %{{.+}}[%[[VI]], 0 : 16] : memref<4x16xf32> -> memref<16xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      tir.call "call_extern"("llvm.fma.v16f32", %[[MC]], %[[MA]], %[[MB]])
// CHECK-NEXT:    }
func.func @rows(%A: memref<4x1xf32> {tir.name = "A"}, %B: memref<16xf32> {tir.name = "B"}, %C: memref<4x16xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 4 {
    tir.block "R"(%vi = spatial(4, %i)) reads(%C[%vi, 0 : 16], %A[%vi, 0], %B[0 : 16] : memref<4x16xf32>, memref<4x1xf32>, memref<16xf32>) writes(%C[%vi, 0 : 16] : memref<4x16xf32>) annotations {keep = 1} {
      tir.for %j = 0 to 16 {
        tir.block "R_j"(%vj = spatial(16, %j)) {
          %c = tir.load %C[%vi, %vj] : memref<4x16xf32>
          %a = tir.load %A[%vi, 0] : memref<4x1xf32>
          %b = tir.load %B[%vj] : memref<16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<4x16xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  func.func private @row_fma_annotated_desc(%A: memref<1xf32>, %B: memref<16xf32>, %C: memref<16xf32>) attributes {tir.tensor_intrin_desc = "row_fma_annotated"} {
    tir.block "root"() reads(%C[0 : 16], %A[0 : 1], %B[0 : 16] : memref<16xf32>, memref<1xf32>, memref<16xf32>) writes(%C[0 : 16] : memref<16xf32>) {
      tir.for %j = 0 to 16 {
        tir.block "update"(%vj = spatial(16, %j)) {
          %c = tir.load %C[%vj] : memref<16xf32>
          %a = tir.load %A[0] : memref<1xf32>
          %b = tir.load %B[%vj] : memref<16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vj] : memref<16xf32>
        }
      }
    }
    return
  }
  func.func private @row_fma_annotated_impl(%A: memref<1xf32>, %B: memref<16xf32>, %C: memref<16xf32>) attributes {tir.tensor_intrin_impl = "row_fma_annotated"} {
    tir.block "root"() reads(%C[0 : 16], %A[0 : 1], %B[0 : 16] : memref<16xf32>, memref<1xf32>, memref<16xf32>) writes(%C[0 : 16] : memref<16xf32>) annotations {keep = 2, vendor = "x"} {
      tir.call "call_extern"("llvm.fma.v16f32", %C, %A, %B) : (memref<16xf32>, memref<1xf32>, memref<16xf32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "R" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.tensorize %b {tensor_intrin = "row_fma_annotated"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
