// RUN: tir-opt %s --convert-tir-to-scf --split-input-file | FileCheck %s
// RUN: tir-opt %s --convert-tir-to-scf=drop-storage-scopes --split-input-file \
// RUN:   | FileCheck %s --check-prefix=DROP

// A block is the scope of its buffers: the heap buffer is freed where the
// block ends, before the next block's body; the init is an scf.if on the
// reduce variable at its start. Storage scopes stay unless
// drop-storage-scopes (a CPU has one memory) removes them.
// CHECK-LABEL: func.func @scopes
// CHECK-SAME:    (%[[N:.+]]: index, %[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>)
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[H:.+]] = memref.alloc(%[[N]]) : memref<?xf32, "shared">
// CHECK-NEXT:      %[[S:.+]] = memref.alloca() : memref<4xf32, "local">
// CHECK-NEXT:      %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[FIRST:.+]] = arith.cmpi eq, %[[I]], %[[C0]] : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        memref.store %[[Z]], %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[X:.+]] = memref.load %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      memref.store %[[X]], %[[S]][%[[I]]] : memref<4xf32, "local">
// CHECK-NEXT:      memref.store %[[X]], %[[H]][%[[I]]] : memref<?xf32, "shared">
// CHECK-NEXT:      memref.dealloc %[[H]] : memref<?xf32, "shared">
// CHECK-NEXT:      %[[Y:.+]] = memref.load %[[B]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      memref.store %[[Y]], %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// DROP-LABEL:  func.func @scopes
// DROP:          memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?xf32>
// DROP-NEXT:     memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// DROP:          memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<4xf32>
// DROP-NEXT:     memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<?xf32>
// DROP-NEXT:     memref.dealloc %{{.+}} : memref<?xf32>
func.func @scopes(%n: index, %A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "A"(%vi = spatial(8, %i), %vk = reduce(4, %i)) {
      %H = tir.alloc_buffer(%n) : memref<?xf32, "shared">
      %S = tir.alloc_buffer : memref<4xf32, "local">
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi] : memref<8xf32>
      }
      %x = tir.load %A[%vi] : memref<8xf32>
      tir.store %x, %S[%vk] : memref<4xf32, "local">
      tir.store %x, %H[%vi] : memref<?xf32, "shared">
    }
    tir.block "B"(%vi = spatial(8, %i)) {
      %y = tir.load %B[%vi] : memref<8xf32>
      tir.store %y, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// Only tir's loops, blocks, buffers and accesses are lowered: nothing else
// is folded or erased (an unused buffer is still allocated, constant index
// arithmetic and affine.apply stay), and tir.call is left for later.
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32>)
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LB:.+]] = arith.addi %[[C1]], %[[C1]] : index
// CHECK-NEXT:    %[[UB:.+]] = affine.apply #{{.+}}(%[[C1]])
// CHECK-NEXT:    %[[STEP:.+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT:      %[[X:.+]] = memref.load %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT:      memref.store %[[E]], %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tir.call "call_extern"("fence", %[[A]]) : (memref<8xf32>) -> ()
// CHECK-NEXT:    return

#plus2 = affine_map<(d0) -> (d0 + 2)>
func.func @left_alone(%A: memref<8xf32>) {
  %unused = tir.alloc_buffer : memref<2xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.addi %c1, %c1 : index
  %p = affine.apply #plus2(%c1)
  tir.for %i = %c2 to %p {
    tir.block "B"(%vi = spatial(8, %i)) {
      %x = tir.load %A[%vi] : memref<8xf32>
      %e = math.exp %x : f32
      tir.store %e, %A[%vi] : memref<8xf32>
    }
  }
  tir.call "call_extern"("fence", %A) : (memref<8xf32>) -> ()
  return
}
