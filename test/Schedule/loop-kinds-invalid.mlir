// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

func.func @reduce_loop(%A: memref<8x8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %zero = arith.constant 0.0 : f32
        tir.init {
          tir.store %zero, %B[%vi] : memref<8xf32>
        }
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %b = tir.load %B[%vi] : memref<8xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{parallel needs a loop that feeds only spatial iteration variables, but loop 'k' feeds reduce variable 'vk' of block 'B'}}
    transform.tir.parallel %k : !transform.any_op
    transform.yield
  }
}

// -----

// The loop feeds a reduce variable through a fused binding.
func.func @fused_reduce(%A: memref<8x8xf32>, %B: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %f = 0 to 64 {
    tir.block "B"(%vi = spatial(8, %f floordiv 8), %vk = reduce(8, %f mod 8)) {
      %zero = arith.constant 0.0 : f32
      tir.init {
        tir.store %zero, %B[%vi] : memref<8xf32>
      }
      %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
      %b = tir.load %B[%vi] : memref<8xf32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %B[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{vectorize needs a loop that feeds only spatial iteration variables, but loop 'f' feeds reduce variable 'vk' of block 'B'}}
    transform.tir.vectorize %f : !transform.any_op
    transform.yield
  }
}

// -----

func.func @bad_thread(%A: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{bind needs a thread axis such as 'blockIdx.x' or 'threadIdx.y', got 'threadIdx.w'}}
    transform.tir.bind %i "threadIdx.w" : !transform.any_op
    transform.yield
  }
}

// -----

func.func @bind_reduce(%A: memref<8xf32>, %B: memref<1xf32>) {
  // expected-note @below {{loop}}
  tir.for %k = 0 to 8 {
    tir.block "B"(%vk = reduce(8, %k)) {
      %zero = arith.constant 0.0 : f32
      tir.init {
        tir.store %zero, %B[0] : memref<1xf32>
      }
      %a = tir.load %A[%vk] : memref<8xf32>
      %b = tir.load %B[0] : memref<1xf32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %B[0] : memref<1xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{bind needs a loop that feeds only spatial iteration variables (or reduce ones when bound to threadIdx.x/y/z, a cross-thread reduction), but loop 'k' feeds reduce variable 'vk' of block 'B'}}
    transform.tir.bind %k "blockIdx.x" : !transform.any_op
    transform.yield
  }
}

// -----

func.func @unannotate_missing(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unannotate: there is no annotation 'absent' to remove}}
    transform.tir.unannotate %b "absent" : !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_loops(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects handles to tir.for ops}}
    transform.tir.unroll %b : !transform.any_op
    transform.yield
  }
}

// -----

// expected-note @below {{payload op}}
module {
func.func @annotate_module(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects handles to tir.for or tir.block ops or functions}}
    transform.tir.annotate "k" = 1 to %root : !transform.any_op
    transform.yield
  }
}
}

// -----

// TVM's rule: the blocks under a parallel loop have quasi-affine bindings
// (here %k * %k).
func.func @not_quasi_affine(%A: memref<128x128xf32>, %B: memref<128x128xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 {
    tir.for %k = 0 to 16 {
      tir.block "B"(%vi = spatial(128, %i), %vk = spatial(128, %k * %k floordiv 2)) {
        %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
        tir.store %a, %B[%vi, %vk] : memref<128x128xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{parallel needs quasi-affine bindings of the loops it changes, but iteration variable 'vk' of block 'B' is not one}}
    transform.tir.parallel %i : !transform.any_op
    transform.yield
  }
}

// -----

// An opaque block uses the loop variable directly: whether iterations are
// independent is unknown.
func.func @opaque_use(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 15 {
    tir.block "opaque"() {
      %a = tir.load %A[%i] : memref<16xf32>
      tir.store %a, %A[%i + 1] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "opaque" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{vectorize needs a loop whose variable only feeds block bindings; the variable of loop 'i' is used by 'tir.}}
    transform.tir.vectorize %i : !transform.any_op
    transform.yield
  }
}

// -----

// TVM's compact data flow: a reduce variable indexes the output, so the
// block is neither complete nor a reduction block.
func.func @not_compact_reduce_indexes_output(%A: memref<128x16xf32>, %B: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 {
    tir.for %k = 0 to 16 {
      tir.block "B"(%vi = spatial(128, %i), %vk = reduce(16, %k)) {
        %zero = arith.constant 0.0 : f32
        tir.init {
          tir.store %zero, %B[%vk] : memref<16xf32>
        }
        %a = tir.load %A[%vi, %vk] : memref<128x16xf32>
        %b = tir.load %B[%vk] : memref<16xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %B[%vk] : memref<16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{parallel needs compact data flow under loop 'i', but block 'B' is neither a complete block (one where all its iteration variables are spatial) nor a reduction block (one where no reduce variable indexes the buffers it writes)}}
    transform.tir.parallel %i : !transform.any_op
    transform.yield
  }
}

// -----

// A spatial block that updates its input in place, and a reduction without
// tir.init, are not compact either.
func.func @not_compact_in_place(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      %s = arith.addf %a, %a : f32
      tir.store %s, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{vectorize needs compact data flow under loop 'i', but block 'B' is neither a complete block (one where it does not read the buffers it writes) nor a reduction block (one where it has a tir.init)}}
    transform.tir.vectorize %i : !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_compact_no_init(%A: memref<8x8xf32>, %B: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %b = tir.load %B[%vi] : memref<8xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{bind needs compact data flow under loop 'i', but block 'B' is neither a complete block (one where all its iteration variables are spatial) nor a reduction block (one where it has a tir.init)}}
    transform.tir.bind %i "blockIdx.x" : !transform.any_op
    transform.yield
  }
}
