// RUN: tir-opt %s --tir-infer-access-regions --split-input-file | FileCheck %s
// The examples, as TVMScript prints their regions:
// RUN: tir-opt %tir_src_root/examples/vector_add.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=VADD
// RUN: tir-opt %tir_src_root/examples/matmul.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=MATMUL
// RUN: tir-opt %tir_src_root/examples/matmul_relu.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=RELU
// RUN: tir-opt %tir_src_root/examples/concat.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=CONCAT
// RUN: tir-opt %tir_src_root/examples/conv2d.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=CONV
// RUN: tir-opt %tir_src_root/examples/vector_add_dynamic.mlir --tir-infer-access-regions | FileCheck %s --check-prefix=DYN
// The result verifies and round-trips:
// RUN: tir-opt %tir_src_root/examples/conv2d.mlir --tir-infer-access-regions | tir-opt -mlir-print-op-generic | tir-opt | FileCheck %s --check-prefix=CONV

// VADD-LABEL: func.func @main
// VADD-SAME:    (%[[A:.+]]: memref<8xf32> {tir.name = "A"}, %[[B:.+]]: memref<8xf32> {tir.name = "B"})
// VADD:         tir.block "B"(%[[VI:.+]] = spatial(8, %{{.+}})) reads(%[[A]][%[[VI]]] : memref<8xf32>) writes(%[[B]][%[[VI]]] : memref<8xf32>) {

// A reduction does not list the read of its own output.
// MATMUL-LABEL: func.func @matmul
// MATMUL-SAME:    (%[[A:.+]]: memref<128x128xf32> {tir.name = "A"}, %[[B:.+]]: memref<128x128xf32> {tir.name = "B"}, %[[C:.+]]: memref<128x128xf32> {tir.name = "C"})
// MATMUL:         tir.block "C"(%[[VI:.+]] = spatial(128, %{{.+}}), %[[VJ:.+]] = spatial(128, %{{.+}}), %[[VK:.+]] = reduce(128, %{{.+}}))
// MATMUL-SAME:      reads(%[[A]][%[[VI]], %[[VK]]], %[[B]][%[[VK]], %[[VJ]]] : memref<128x128xf32>, memref<128x128xf32>)
// MATMUL-SAME:      writes(%[[C]][%[[VI]], %[[VJ]]] : memref<128x128xf32>) {

// RELU-LABEL: func.func @matmul_relu
// RELU-SAME:    (%[[A:.+]]: memref<128x128xf32> {tir.name = "A"}, %[[B:.+]]: memref<128x128xf32> {tir.name = "B"}, %[[D:.+]]: memref<128x128xf32> {tir.name = "D"})
// RELU:         %[[Y:.+]] = tir.alloc_buffer
// RELU:         tir.block "Y"(%[[VI:.+]] = spatial(128, %{{.+}}), %[[VJ:.+]] = spatial(128, %{{.+}}), %[[VK:.+]] = reduce(128, %{{.+}}))
// RELU-SAME:      reads(%[[A]][%[[VI]], %[[VK]]], %[[B]][%[[VK]], %[[VJ]]] : {{.*}}) writes(%[[Y]][%[[VI]], %[[VJ]]] : memref<128x128xf32>) {
// RELU:         tir.block "D"(%[[WI:.+]] = spatial(128, %{{.+}}), %[[WJ:.+]] = spatial(128, %{{.+}}))
// RELU-SAME:      reads(%[[Y]][%[[WI]], %[[WJ]]] : memref<128x128xf32>) writes(%[[D]][%[[WI]], %[[WJ]]] : memref<128x128xf32>) {

// CONCAT-LABEL: func.func @concat
// CONCAT-SAME:    (%[[A0:.+]]: memref<10xf32> {tir.name = "A0"}, %[[A1:.+]]: memref<10xf32> {tir.name = "A1"}, %[[A2:.+]]: memref<10xf32> {tir.name = "A2"}, %[[B:.+]]: memref<30xf32> {tir.name = "B"})
// CONCAT:         tir.block "B0"(%[[V0:.+]] = spatial(10, %{{.+}})) reads(%[[A0]][%[[V0]]] : memref<10xf32>) writes(%[[B]][%[[V0]]] : memref<30xf32>)
// CONCAT:         tir.block "B1"(%[[V1:.+]] = spatial(10, %{{.+}})) reads(%[[A1]][%[[V1]]] : memref<10xf32>) writes(%[[B]][%[[V1]] + 10] : memref<30xf32>)
// CONCAT:         tir.block "B2"(%[[V2:.+]] = spatial(10, %{{.+}})) reads(%[[A2]][%[[V2]]] : memref<10xf32>) writes(%[[B]][%[[V2]] + 20] : memref<30xf32>)

// A window: the input is read at (y + ky, x + kx); pooling reads a strided window.
// CONV-LABEL: func.func @conv2d_pool
// CONV-SAME:    (%[[I:.+]]: memref<1x4x18x18xf32> {tir.name = "I"}, %[[W:.+]]: memref<8x4x3x3xf32> {tir.name = "W"}, %[[P:.+]]: memref<1x8x8x8xf32> {tir.name = "P"})
// CONV:         %[[O:.+]] = tir.alloc_buffer
// CONV:         tir.block "conv"(%[[N:.+]] = spatial(1, %{{.+}}), %[[F:.+]] = spatial(8, %{{.+}}), %[[Y:.+]] = spatial(16, %{{.+}}), %[[X:.+]] = spatial(16, %{{.+}}), %[[C:.+]] = reduce(4, %{{.+}}), %[[KY:.+]] = reduce(3, %{{.+}}), %[[KX:.+]] = reduce(3, %{{.+}}))
// CONV-SAME:      reads(%[[I]][%[[N]], %[[C]], %[[Y]] + %[[KY]], %[[X]] + %[[KX]]], %[[W]][%[[F]], %[[C]], %[[KY]], %[[KX]]] : memref<1x4x18x18xf32>, memref<8x4x3x3xf32>)
// CONV-SAME:      writes(%[[O]][%[[N]], %[[F]], %[[Y]], %[[X]]] : memref<1x8x16x16xf32>)
// CONV:         tir.block "pool"(%[[PN:.+]] = spatial(1, %{{.+}}), %[[PF:.+]] = spatial(8, %{{.+}}), %[[PY:.+]] = spatial(8, %{{.+}}), %[[PX:.+]] = spatial(8, %{{.+}}), %[[RY:.+]] = reduce(2, %{{.+}}), %[[RX:.+]] = reduce(2, %{{.+}}))
// CONV-SAME:      reads(%[[O]][%[[PN]], %[[PF]], %[[PY]] * 2 + %[[RY]], %[[PX]] * 2 + %[[RX]]] : memref<1x8x16x16xf32>)
// CONV-SAME:      writes(%[[P]][%[[PN]], %[[PF]], %[[PY]], %[[PX]]] : memref<1x8x8x8xf32>)

// DYN-LABEL: func.func @add_one
// DYN-SAME:    (%[[N:.+]]: index {tir.name = "n"}, %[[A:.+]]: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "A"}, %[[B:.+]]: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "B"})
// DYN:         tir.block "B"(%[[VI:.+]] = spatial(%[[N]], %{{.+}})) reads(%[[A]][%[[VI]]] : memref<?xf32>) writes(%[[B]][%[[VI]]] : memref<?xf32>)

// A block whose body holds loops: their variables relax over their ranges.
// CHECK-LABEL: func.func @loops_in_block
// CHECK-SAME:    (%[[A:.+]]: memref<64x64xf32>, %[[S:.+]]: memref<64xf32>)
// Without an init the block is no reduction: it lists the read of S.
// CHECK:         tir.block "rowsum"(%[[VI:.+]] = spatial(64, %{{.+}})) reads(%[[A]][%[[VI]], 0 : 64], %[[S]][%[[VI]]] : memref<64x64xf32>, memref<64xf32>) writes(%[[S]][%[[VI]]] : memref<64xf32>)
func.func @loops_in_block(%A: memref<64x64xf32>, %S: memref<64xf32>) {
  tir.for %i = 0 to 64 {
    tir.block "rowsum"(%vi = spatial(64, %i)) {
      %zero = arith.constant 0.0 : f32
      tir.store %zero, %S[%vi] : memref<64xf32>
      tir.for %j = 0 to 64 {
        %x = tir.load %A[%vi, %j] : memref<64x64xf32>
        %s = tir.load %S[%vi] : memref<64xf32>
        %t = arith.addf %s, %x : f32
        tir.store %t, %S[%vi] : memref<64xf32>
      }
    }
  }
  return
}

// -----

// Accesses to one buffer join into the smallest box (a 3-point stencil).
// CHECK-LABEL: func.func @stencil
// CHECK-SAME:    (%[[A:.+]]: memref<10xf32>, %[[B:.+]]: memref<8xf32>)
// CHECK:         tir.block "S"(%[[VI:.+]] = spatial(8, %{{.+}})) reads(%[[A]][%[[VI]] : %[[VI]] + 3] : memref<10xf32>) writes(%[[B]][%[[VI]]] : memref<8xf32>)
func.func @stencil(%A: memref<10xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "S"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<10xf32>
      %b = tir.load %A[%vi + 1] : memref<10xf32>
      %c = tir.load %A[%vi + 2] : memref<10xf32>
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      tir.store %abc, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A gather: the data-dependent index reads the whole dimension.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[T:.+]]: memref<100x16xf32>, %[[IDX:.+]]: memref<8xi32>, %[[O:.+]]: memref<8x16xf32>)
// CHECK:         tir.block "G"(%[[VI:.+]] = spatial(8, %{{.+}}), %[[VJ:.+]] = spatial(16, %{{.+}}))
// CHECK-SAME:      reads(%[[IDX]][%[[VI]]], %[[T]][0 : 100, %[[VJ]]] : memref<8xi32>, memref<100x16xf32>)
// CHECK-SAME:      writes(%[[O]][%[[VI]], %[[VJ]]] : memref<8x16xf32>)
func.func @gather(%T: memref<100x16xf32>, %Idx: memref<8xi32>, %O: memref<8x16xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 16 {
      tir.block "G"(%vi = spatial(8, %i), %vj = spatial(16, %j)) {
        %r = tir.load %Idx[%vi] : memref<8xi32>
        %row = arith.index_cast %r : i32 to index
        %x = tir.load %T[%row, %vj] : memref<100x16xf32>
        tir.store %x, %O[%vi, %vj] : memref<8x16xf32>
      }
    }
  }
  return
}

// -----

// An outer block takes its nested block's regions through the bindings,
// relaxed over the loops between them; buffers allocated inside are local.
// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[A:.+]]: memref<64x64xf32>, %[[B:.+]]: memref<64x64xf32>)
// CHECK:         tir.block "outer"(%[[VO:.+]] = spatial(4, %{{.+}}))
// CHECK-SAME:      reads(%[[A]][%[[VO]] * 16 : %[[VO]] * 16 + 16, 0 : 64] : memref<64x64xf32>)
// CHECK-SAME:      writes(%[[B]][%[[VO]] * 16 : %[[VO]] * 16 + 16, 0 : 64] : memref<64x64xf32>)
// CHECK:           %[[L:.+]] = tir.alloc_buffer : memref<64xf32, "local">
// CHECK:           tir.block "inner"(%[[VI:.+]] = spatial(64, %[[VO]] * 16 + %{{.+}}), %[[VJ:.+]] = spatial(64, %{{.+}}))
// CHECK-SAME:        reads(%[[A]][%[[VI]], %[[VJ]]] : memref<64x64xf32>)
// CHECK-SAME:        writes(%[[L]][%[[VJ]]], %[[B]][%[[VI]], %[[VJ]]] : memref<64xf32, "local">, memref<64x64xf32>)
func.func @nested(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  tir.for %io = 0 to 4 {
    tir.block "outer"(%vo = spatial(4, %io)) {
      %L = tir.alloc_buffer : memref<64xf32, "local">
      tir.for %ii = 0 to 16 {
        tir.for %jj = 0 to 64 {
          tir.block "inner"(%vi = spatial(64, %vo * 16 + %ii), %vj = spatial(64, %jj)) {
            %x = tir.load %A[%vi, %vj] : memref<64x64xf32>
            tir.store %x, %L[%vj] : memref<64xf32, "local">
            tir.store %x, %B[%vi, %vj] : memref<64x64xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// Regions that are given are kept; only the missing side is inferred.
// CHECK-LABEL: func.func @given_regions_kept
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>)
// CHECK:         tir.block "K"(%[[VI:.+]] = spatial(8, %{{.+}})) reads(%[[A]][0 : 8] : memref<8xf32>) writes(%[[B]][%[[VI]]] : memref<8xf32>)
func.func @given_regions_kept(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "K"(%vi = spatial(8, %i)) reads(%A[0 : 8] : memref<8xf32>) {
      %x = tir.load %A[%vi] : memref<8xf32>
      tir.store %x, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// Values from outside a block stay variables in its regions even where their
// domain is one point, as TVM's regions read B[vi] for vi in [0, 1); a loop
// inside the block relaxes to its values (here k, one point, to 0).
// CHECK-LABEL: func.func @one_point_vars
// CHECK-SAME:    (%[[A:.+]]: memref<1x4xf32>, %[[B:.+]]: memref<1x4xf32>)
// CHECK:         tir.block "outer"(%[[VI:.+]] = spatial(1, %{{.+}}))
// CHECK-SAME:      reads(%[[A]][%[[VI]], 0 : 4] : memref<1x4xf32>)
// CHECK-SAME:      writes(%[[B]][%[[VI]], 0 : 4] : memref<1x4xf32>)
// CHECK:           tir.for %[[K:.+]] = 0 to 1
// CHECK:             tir.for %[[J:.+]] = 0 to 4
// CHECK:               tir.block "inner"()
// CHECK-SAME:            reads(%[[A]][%[[VI]], %[[J]] + %[[K]]] : memref<1x4xf32>)
// CHECK-SAME:            writes(%[[B]][%[[VI]], %[[J]]] : memref<1x4xf32>)
func.func @one_point_vars(%A: memref<1x4xf32>, %B: memref<1x4xf32>) {
  tir.for %i = 0 to 1 {
    tir.block "outer"(%vi = spatial(1, %i)) {
      tir.for %k = 0 to 1 {
        tir.for %j = 0 to 4 {
          tir.block "inner"() {
            %x = tir.load %A[%vi, %j + %k] : memref<1x4xf32>
            tir.store %x, %B[%vi, %j] : memref<1x4xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// Accesses through a tir.match_buffer view are accesses of the region of
// the source the view covers (as TVM counts them): the block reads
// B[vi * 4 : vi * 4 + 4], and writes C[vi] directly. A view of a buffer
// the block allocates itself is the block's own business.
// CHECK-LABEL: func.func @matched_view
// CHECK:         tir.block "C"(%vi = spatial(16, %i)) reads(%arg0[%vi * 4 : %vi * 4 + 4] : memref<64xf32>) writes(%arg1[%vi] : memref<16xf32>)
func.func @matched_view(%B: memref<64xf32>, %C: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %sub = tir.match_buffer %B[%vi * 4 : %vi * 4 + 4] : memref<64xf32> -> memref<4xf32, strided<[1], offset: ?>>
      %L = tir.alloc_buffer : memref<8xf32>
      %lsub = tir.match_buffer %L[0 : 4] : memref<8xf32> -> memref<4xf32, strided<[1]>>
      %a = tir.load %sub[0] : memref<4xf32, strided<[1], offset: ?>>
      %b = tir.load %sub[3] : memref<4xf32, strided<[1], offset: ?>>
      tir.store %a, %lsub[0] : memref<4xf32, strided<[1]>>
      %s = arith.addf %a, %b : f32
      tir.store %s, %C[%vi] : memref<16xf32>
    }
  }
  return
}
