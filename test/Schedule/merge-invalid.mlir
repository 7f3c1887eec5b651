// RUN: tir-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// Every refusal of merge (each leaves the IR as it was).

// Different extents at the merged level.
func.func @extents(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %C[%vi, 0] : memref<8x8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %d0 = 0 to 4 {
    tir.block "D"(%vi = spatial(4, %d0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    %ld = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge needs the same extents level by level, but loop 'd0' differs from loop 'c0'}}
    %m = transform.tir.merge %lc, %ld : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop that does not start at 0.
func.func @start(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %C[%vi, 0] : memref<8x8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %d0 = 1 to 9 {
    tir.block "D"(%vi = spatial(8, %d0 - 1)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    %ld = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge needs loops that start at 0, but loop 'd0' does not}}
    %m = transform.tir.merge %lc, %ld : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Loops at different depths below the nests' common ancestor.
func.func @depth(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  tir.for %c0 = 0 to 8 {
    tir.for %c1 = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %c0), %vj = spatial(8, %c1)) {
        %x = tir.load %B[%vi, %vj] : memref<8x8xf32>
        tir.store %x, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  // expected-note @below {{loop}}
  tir.for %d0 = 0 to 8 {
    tir.for %d1 = 0 to 8 {
      tir.block "D"(%vi = spatial(8, %d0), %vj = spatial(8, %d1)) {
        %x = tir.load %B[%vi, %vj] : memref<8x8xf32>
        tir.store %x, %D[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc:2 = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ld:2 = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{merge needs the loops at the same depth below their common ancestor, but loop 'd0' is 1 loops down and loop 'c1' 2}}
    %m = transform.tir.merge %lc#1, %ld#0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop of a nest that holds more than the next loop.
func.func @only_child(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  // expected-note @below {{loop}}
  tir.for %c0 = 0 to 8 {
    tir.for %c1 = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %c0), %vj = spatial(8, %c1)) {
        %x = tir.load %B[%vi, %vj] : memref<8x8xf32>
        tir.store %x, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
    tir.block "E"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %C[%vi, 0] : memref<8x8xf32>
    }
  }
  tir.for %d0 = 0 to 8 {
    tir.for %d1 = 0 to 8 {
      tir.block "D"(%vi = spatial(8, %d0), %vj = spatial(8, %d1)) {
        %x = tir.load %B[%vi, %vj] : memref<8x8xf32>
        tir.store %x, %D[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc:2 = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ld:2 = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{merge needs loop 'c1' to be the only statement of loop 'c0'}}
    %m = transform.tir.merge %lc#1, %ld#1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Loops under different block scopes.
func.func @scopes(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %C[%vi, 0] : memref<8x8xf32>
    }
  }
  tir.block "outer"() {
    // expected-note @below {{loop}}
    tir.for %d0 = 0 to 8 {
      tir.block "D"(%vi = spatial(8, %d0)) {
        %x = tir.load %B[%vi, 0] : memref<8x8xf32>
        tir.store %x, %D[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    %ld = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge needs the loops under one block scope, but loop 'd0' is under another than loop 'c0'}}
    %m = transform.tir.merge %lc, %ld : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An annotated loop.
func.func @annotated(%B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}, %D: memref<8x8xf32> {tir.name = "D"}) {
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %C[%vi, 0] : memref<8x8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %d0 = 0 to 8 annotations {pragma_unroll = 1 : i64} {
    tir.block "D"(%vi = spatial(8, %d0)) {
      %x = tir.load %B[%vi, 0] : memref<8x8xf32>
      tir.store %x, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    %ld = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge needs loops without annotations or thread bindings, but loop 'd0' has one}}
    %m = transform.tir.merge %lc, %ld : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// D reads what C writes: merged, iteration m of D would read C[7 - m],
// which C writes only at iteration 7 - m (TVM merges it).
func.func @dependence(%B: memref<8xf32> {tir.name = "B"}, %D: memref<8xf32> {tir.name = "D"}) {
  %C = tir.alloc_buffer : memref<8xf32>
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi] : memref<8xf32>
      tir.store %x, %C[%vi] : memref<8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %d0 = 0 to 8 {
    tir.block "D"(%vi = spatial(8, %d0)) {
      %x = tir.load %C[7 - %vi] : memref<8xf32>
      tir.store %x, %D[%vi] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    %ld = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge would interleave the iterations of loop 'c0''s nest with loop 'd0''s nest, and both access buffer 'C', which one of them writes}}
    %m = transform.tir.merge %lc, %ld : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// One loop only.
func.func @one(%B: memref<8xf32> {tir.name = "B"}, %C: memref<8xf32> {tir.name = "C"}) {
  // expected-note @below {{loop}}
  tir.for %c0 = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %c0)) {
      %x = tir.load %B[%vi] : memref<8xf32>
      tir.store %x, %C[%vi] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %lc = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{merge needs at least two loops}}
    %m = transform.tir.merge %lc : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
