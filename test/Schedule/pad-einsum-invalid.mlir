// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// One size per iteration variable, each positive.
func.func @f(%A: memref<7xf32>, %C: memref<7xf32>) {
  tir.for %i = 0 to 7 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(7, %i)) {
      %a = tir.load %A[%vi] : memref<7xf32>
      tir.store %a, %C[%vi] : memref<7xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: the padding must give a positive size for each of the 1 iteration variables of block 'C'}}
    transform.tir.pad_einsum %b {padding = array<i64: 8, 8>} : !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<7xf32>, %C: memref<7xf32>) {
  tir.for %i = 0 to 7 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(7, %i)) {
      %a = tir.load %A[%vi] : memref<7xf32>
      tir.store %a, %C[%vi] : memref<7xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: the padding must give a positive size for each of the 1 iteration variables of block 'C'}}
    transform.tir.pad_einsum %b {padding = array<i64: 0>} : !transform.any_op
    transform.yield
  }
}

// -----

// An index that is not a variable (`vi + 1`): not an einsum.
func.func @f(%A: memref<8xf32> {tir.name = "A"}, %C: memref<7xf32>) {
  tir.for %i = 0 to 7 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(7, %i)) {
      %a = tir.load %A[%vi + 1] : memref<8xf32>
      tir.store %a, %C[%vi] : memref<7xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: block 'C' is not an einsum: buffer 'A' is not indexed by iteration variables and constants alone}}
    transform.tir.pad_einsum %b {padding = array<i64: 8>} : !transform.any_op
    transform.yield
  }
}

// -----

// A buffer read twice (at two points): not an einsum.
func.func @f(%A: memref<7x7xf32> {tir.name = "A"}, %C: memref<7x7xf32>) {
  tir.for %i = 0 to 7 {
    tir.for %j = 0 to 7 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(7, %i), %vj = spatial(7, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<7x7xf32>
        %b = tir.load %A[%vj, %vi] : memref<7x7xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %C[%vi, %vj] : memref<7x7xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: block 'C' is not an einsum: buffer 'A' is not indexed by iteration variables and constants alone}}
    transform.tir.pad_einsum %b {padding = array<i64: 8, 8>} : !transform.any_op
    transform.yield
  }
}

// -----

// A padded loop that holds another block, which would run over the padded
// extent too.
func.func @f(%A: memref<7xf32>, %C: memref<7xf32>, %D: memref<7xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 7 {
    tir.block "C"(%vi = spatial(7, %i)) {
      %a = tir.load %A[%vi] : memref<7xf32>
      tir.store %a, %C[%vi] : memref<7xf32>
    }
    tir.block "D"(%vi = spatial(7, %i)) {
      %a = tir.load %A[%vi] : memref<7xf32>
      tir.store %a, %D[%vi] : memref<7xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: loop 'i' holds other blocks than block 'C', which would run over the padded extent too}}
    transform.tir.pad_einsum %b {padding = array<i64: 8>} : !transform.any_op
    transform.yield
  }
}

// -----

// A max reduction: the added iterations read 0, which is no identity of
// max (a row of negatives would come out 0).
func.func @f(%A: memref<4x7xf32> {tir.name = "A"}, %C: memref<4xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 7 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(4, %i), %vk = reduce(7, %k)) {
        tir.init {
          %m = arith.constant -1.0e9 : f32
          tir.store %m, %C[%vi] : memref<4xf32>
        }
        %c = tir.load %C[%vi] : memref<4xf32>
        %a = tir.load %A[%vi, %vk] : memref<4x7xf32>
        %x = arith.maximumf %c, %a : f32
        tir.store %x, %C[%vi] : memref<4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: padding iteration variable 'vk' adds iterations to the reduction of block 'C', which is not `C = C + a * ...` with `a` a read indexed by it (the added iterations would not add zero)}}
    transform.tir.pad_einsum %b {padding = array<i64: 1, 8>} : !transform.any_op
    transform.yield
  }
}

// -----

// A block fed by a loop outside its scope: the copies, once per execution
// of the scope, would cover all rows while the block computes one.
func.func @f(%A: memref<6x10xf32> {tir.name = "A"}, %B: memref<6x10xf32>) {
  tir.for %i = 0 to 6 {
    tir.block "row"() {
      tir.for %j = 0 to 10 {
        // expected-note @below {{block}}
        tir.block "B"(%vi = spatial(6, %i), %vj = spatial(10, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<6x10xf32>
          tir.store %a, %B[%vi, %vj] : memref<6x10xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: the bindings of block 'B' use a variable from outside its scope, so its copies would cover one execution of the scope while the scope runs several}}
    transform.tir.pad_einsum %b {padding = array<i64: 4, 1>} : !transform.any_op
    transform.yield
  }
}

// -----

// The buffer the block reads is written in the same statement (a
// producer computed at the block's loop): a copy before the statement
// would read it before it is written.
func.func @f(%A: memref<6x6xf32>, %B: memref<6x6xf32> {tir.name = "B"}, %C: memref<6xf32>) {
  tir.for %i = 0 to 6 {
    tir.for %j = 0 to 6 {
      tir.block "B"(%vi = spatial(6, %i), %vj = spatial(6, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<6x6xf32>
        tir.store %a, %B[%vi, %vj] : memref<6x6xf32>
      }
    }
    tir.for %k = 0 to 6 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(6, %i), %vk = reduce(6, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %C[%vi] : memref<6xf32>
        }
        %c = tir.load %C[%vi] : memref<6xf32>
        %b = tir.load %B[%vi, %vk] : memref<6x6xf32>
        %s = arith.addf %c, %b : f32
        tir.store %s, %C[%vi] : memref<6xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pad_einsum: buffer 'B' is written by another block in the statement that holds block 'C', which its padded copy would hide}}
    transform.tir.pad_einsum %b {padding = array<i64: 1, 8>} : !transform.any_op
    transform.yield
  }
}
