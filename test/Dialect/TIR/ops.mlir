// Every construct of the tir dialect, round-tripped through the custom and
// the generic form.
// RUN: tir-opt %s | tir-opt | FileCheck %s
// RUN: tir-opt %s -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @loop_kinds
func.func @loop_kinds(%A: memref<64x32xf32>) {
  // CHECK:      tir.for %[[BX:.+]] = 0 to 2 thread_binding<"blockIdx.x"> {
  // CHECK-NEXT:   tir.for %[[TX:.+]] = 0 to 32 thread_binding<"threadIdx.x"> {
  // CHECK-NEXT:     tir.for %[[P:.+]] = 0 to 2 parallel {
  // CHECK-NEXT:       tir.for %[[U:.+]] = 0 to 4 unrolled annotations {pragma_unroll_explicit = 1 : i64} {
  // CHECK-NEXT:         tir.for %[[V:.+]] = 0 to 1 vectorized {
  // CHECK-NEXT:           tir.block "A"(%[[VI:.+]] = spatial(64, %[[BX]] * 32 + %[[TX]]), %[[VJ:.+]] = spatial(32, %[[P]] * 16 + %[[U]] * 4 + %[[V]]))
  tir.for %bx = 0 to 2 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.for %p = 0 to 2 parallel {
        tir.for %u = 0 to 4 unrolled annotations {pragma_unroll_explicit = 1} {
          tir.for %v = 0 to 1 vectorized {
            tir.block "A"(%vi = spatial(64, %bx * 32 + %tx), %vj = spatial(32, %p * 16 + %u * 4 + %v)) {
              %c = arith.constant 0.0 : f32
              tir.store %c, %A[%vi, %vj] : memref<64x32xf32>
            }
          }
        }
      }
    }
  }
  // A serial kind is the default and is not printed.
  // CHECK:      tir.for %{{.+}} = 2 to 6 {
  tir.for %s = 2 to 6 serial {
  }
  // A serial loop with annotations and extra attributes.
  // CHECK:      tir.for %{{.+}} = 0 to 4 annotations {software_pipeline_stage = [0, 1]} attributes {note = "kept"} {
  tir.for %t = 0 to 4 annotations {software_pipeline_stage = [0, 1]} attributes {note = "kept"} {
  }
  return
}

// CHECK-LABEL: func.func @split_with_predicate
// CHECK-SAME:    (%[[A:.+]]: memref<10xf32>)
func.func @split_with_predicate(%A: memref<10xf32>) {
  // CHECK:      tir.for %[[I0:.+]] = 0 to 3 {
  // CHECK-NEXT:   tir.for %[[I1:.+]] = 0 to 4 {
  // CHECK-NEXT:     tir.block "B"(%[[VI:.+]] = spatial(10, %[[I0]] * 4 + %[[I1]])) where(%[[I0]] * 4 + %[[I1]] < 10) reads() writes(%[[A]][%[[VI]]] : memref<10xf32>) {
  tir.for %i0 = 0 to 3 {
    tir.for %i1 = 0 to 4 {
      tir.block "B"(%vi = spatial(10, %i0 * 4 + %i1)) where(%i0 * 4 + %i1 < 10)
          reads() writes(%A[%vi] : memref<10xf32>) {
        %c = arith.constant 1.0 : f32
        tir.store %c, %A[%vi] : memref<10xf32>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @fused_bindings
func.func @fused_bindings(%A: memref<16x8xf32>) {
  // CHECK:      tir.for %[[F:.+]] = 0 to 128 {
  // CHECK-NEXT:   tir.block "C"(%{{.+}} = spatial(16, %[[F]] floordiv 8), %{{.+}} = spatial(8, %[[F]] mod 8)) {
  tir.for %f = 0 to 128 {
    tir.block "C"(%vi = spatial(16, %f floordiv 8), %vj = spatial(8, %f mod 8)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi, %vj] : memref<16x8xf32>
    }
  }
  return
}

// A block over several predicate constraints, every comparison form.
// CHECK-LABEL: func.func @predicates
func.func @predicates(%A: memref<8xf32>) {
  // CHECK: where(%[[I:.+]] >= 1 and %[[I]] < 7 and %[[I]] == 3)
  tir.for %i = 0 to 8 {
    tir.block "P"(%vi = spatial(8, %i)) where(%i >= 1, %i <= 6, %i == 3) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// Nested blocks: the inner block binds to the outer block's iteration
// variables and to its own loops, and reads a region matched as a buffer.
// CHECK-LABEL: func.func @nested_blocks
// CHECK-SAME:    (%[[A:.+]]: memref<64x64xf32>, %[[B:.+]]: memref<64x64xf32>)
func.func @nested_blocks(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  // CHECK:      tir.block "outer"(%[[VO:.+]] = spatial(4, %[[IO:.+]]))
  // CHECK-SAME:   reads(%[[A]][%[[VO]] * 16 : %[[VO]] * 16 + 16, 0 : 64] : memref<64x64xf32>)
  // CHECK-SAME:   writes(%[[B]][%[[VO]] * 16 : %[[VO]] * 16 + 16, 0 : 64] : memref<64x64xf32>)
  // CHECK-SAME:   annotations {meta_schedule.tiling_structure = "SSRSRS"} {
  // CHECK-NEXT:   %[[S:.+]] = tir.alloc_buffer : memref<16x64xf32, "shared">
  // CHECK-NEXT:   %[[M:.+]] = tir.match_buffer %[[A]][%[[VO]] * 16 : %[[VO]] * 16 + 16, 0 : 64] : memref<64x64xf32> -> memref<16x64xf32, strided<[64, 1], offset: ?>>
  // CHECK-NEXT:   tir.for %[[II:.+]] = 0 to 16 {
  // CHECK-NEXT:     tir.for %[[JJ:.+]] = 0 to 64 {
  // CHECK-NEXT:       tir.block "inner"(%[[VI:.+]] = spatial(64, %[[VO]] * 16 + %[[II]]), %[[VJ:.+]] = spatial(64, %[[JJ]]), %{{.+}} = opaque(16, %[[II]])) {
  tir.for %io = 0 to 4 {
    tir.block "outer"(%vo = spatial(4, %io))
        reads(%A[%vo * 16 : %vo * 16 + 16, 0 : 64] : memref<64x64xf32>)
        writes(%B[%vo * 16 : %vo * 16 + 16, 0 : 64] : memref<64x64xf32>)
        annotations {meta_schedule.tiling_structure = "SSRSRS"} {
      %S = tir.alloc_buffer : memref<16x64xf32, "shared">
      %M = tir.match_buffer %A[%vo * 16 : %vo * 16 + 16, 0 : 64]
          : memref<64x64xf32> -> memref<16x64xf32, strided<[64, 1], offset: ?>>
      tir.for %ii = 0 to 16 {
        tir.for %jj = 0 to 64 {
          tir.block "inner"(%vi = spatial(64, %vo * 16 + %ii), %vj = spatial(64, %jj), %vl = opaque(16, %ii)) {
            %x = tir.load %M[%vl, %vj] : memref<16x64xf32, strided<[64, 1], offset: ?>>
            tir.store %x, %S[%vl, %vj] : memref<16x64xf32, "shared">
            %y = tir.load %S[%vl, %vj] : memref<16x64xf32, "shared">
            tir.store %y, %B[%vi, %vj] : memref<64x64xf32>
          }
        }
      }
    }
  }
  return
}

// Dynamic shapes: dynamic loop bounds, domains with a lower bound, a
// dynamically sized buffer, and a binding with a symbol.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[N:.+]]: index, %[[M:.+]]: index, %[[A:.+]]: memref<?xf32>)
func.func @dynamic(%n: index, %m: index, %A: memref<?xf32>) {
  // CHECK:      %[[T:.+]] = tir.alloc_buffer(%[[N]]) : memref<?xf32, "local">
  // CHECK-NEXT: tir.for %[[I:.+]] = %[[M]] to %[[N]] {
  // CHECK-NEXT:   tir.block "D"(%[[VI:.+]] = spatial(%[[M]] : %[[N]], %[[I]]), %{{.+}} = scan(2 : 5, %[[M]] + 2)) {
  %T = tir.alloc_buffer(%n) : memref<?xf32, "local">
  tir.for %i = %m to %n {
    tir.block "D"(%vi = spatial(%m : %n, %i), %vs = scan(2 : 5, symbol(%m) + 2)) {
      %x = tir.load %A[%vi] : memref<?xf32>
      tir.store %x, %T[%vi] : memref<?xf32, "local">
    }
  }
  return
}

// A block without iteration variables (TVM's root block) and integer data.
// CHECK-LABEL: func.func @root_block
func.func @root_block(%A: memref<4xi32>) {
  // CHECK: tir.block "root"() {
  // CHECK: tir.block "fill"(%{{.+}} = spatial(4, %{{.+}})) {
  tir.block "root"() {
    tir.for %i = 0 to 4 {
      tir.block "fill"(%vi = spatial(4, %i)) {
        %c = arith.index_cast %vi : index to i32
        tir.store %c, %A[%vi] : memref<4xi32>
      }
    }
  }
  return
}

// An integer scalar parameter (TVM's `n: T.int32`) sizes a buffer and bounds
// a loop and a domain through an index cast.
// CHECK-LABEL: func.func @int32_param
// CHECK-SAME:    (%[[N:.+]]: i32, %[[A:.+]]: memref<?xf32>)
// CHECK-NEXT:    %[[NI:.+]] = arith.index_cast %[[N]] : i32 to index
// CHECK-NEXT:    %[[T:.+]] = tir.alloc_buffer(%[[NI]]) : memref<?xf32>
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to %[[NI]] {
// CHECK-NEXT:      tir.block "copy"(%[[VI:.+]] = spatial(%[[NI]], %[[I]])) {
func.func @int32_param(%n: i32, %A: memref<?xf32>) {
  %ni = arith.index_cast %n : i32 to index
  %T = tir.alloc_buffer(%ni) : memref<?xf32>
  tir.for %i = 0 to %ni {
    tir.block "copy"(%vi = spatial(%ni, %i)) {
      %x = tir.load %A[%vi] : memref<?xf32>
      tir.store %x, %T[%vi] : memref<?xf32>
    }
  }
  return
}

// A constant buffer (TVM's T.allocate_const), its name kept from the SSA name.
// CHECK-LABEL: func.func @allocate_const
// CHECK-NEXT:    %[[K:.+]] = tir.allocate_const : memref<2x2xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to 2 {
// CHECK:           tir.load %[[K]][%{{.+}}, 0] : memref<2x2xf32>
func.func @allocate_const(%A: memref<2xf32>) {
  %K = tir.allocate_const : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
  tir.for %i = 0 to 2 {
    tir.block "B"(%vi = spatial(2, %i)) {
      %k = tir.load %K[%vi, 0] : memref<2x2xf32>
      tir.store %k, %A[%vi] : memref<2xf32>
    }
  }
  return
}

// Opaque calls (TVM's call_extern and builtins): SSA and literal arguments
// in the order written, no result or one.
// CHECK-LABEL: func.func @opaque_calls
// CHECK-SAME:    (%[[A:.+]]: memref<64xi32>, %[[N:.+]]: index)
// CHECK-NEXT:    tir.call "call_extern"("call_impl", %[[A]], 3 : i32) : (memref<64xi32>) -> ()
// CHECK-NEXT:    %[[P:.+]] = tir.call "tvm_access_ptr"(i32, %[[A]], %[[N]], 64 : i32, 1 : i32) : (memref<64xi32>, index) -> !llvm.ptr
// CHECK-NEXT:    tir.call "tvm_fill_fragment"(%[[P]], 16 : i32, 0.000000e+00 : f32) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[X:.+]] = arith.constant 5 : i32
// CHECK-NEXT:    %{{.+}} = tir.call "q_multiply_shift"(%[[X]], 31 : i32) : (i32) -> i32
func.func @opaque_calls(%A: memref<64xi32>, %n: index) {
  tir.call "call_extern"("call_impl", %A, 3 : i32) : (memref<64xi32>) -> ()
  %p = tir.call "tvm_access_ptr"(i32, %A, %n, 64 : i32, 1 : i32) : (memref<64xi32>, index) -> !llvm.ptr
  tir.call "tvm_fill_fragment"(%p, 16 : i32, 0.0 : f32) : (!llvm.ptr) -> ()
  %x = arith.constant 5 : i32
  %y = tir.call "q_multiply_shift"(%x, 31 : i32) : (i32) -> i32
  return
}
