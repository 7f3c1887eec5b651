// RUN: tir-opt %s --tir-infer-access-regions --verify-diagnostics

// A gather into a dynamically sized dimension: the whole dimension has no
// constant extent to write down, so the pass asks for explicit regions.
func.func @gather_dynamic(%n: index, %T: memref<?xf32>, %Idx: memref<8xi32>, %O: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{cannot infer the region of a buffer with a dynamic dimension accessed through a non-affine index; give reads/writes explicitly}}
    tir.block "G"(%vi = spatial(8, %i)) {
      %r = tir.load %Idx[%vi] : memref<8xi32>
      %row = arith.index_cast %r : i32 to index
      %x = tir.load %T[%row] : memref<?xf32>
      tir.store %x, %O[%vi] : memref<8xf32>
    }
  }
  return
}
