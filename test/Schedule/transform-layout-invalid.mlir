// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// 14 elements in 4 x 4: padding, and no pad value.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the index map would pad buffer 'A'}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A pad value of another type than the buffer's.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the pad value is of type f32, but buffer 'A' holds i32}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = 0.0 : f32} : !transform.any_op
    transform.yield
  }
}

// -----

// A pad value computed from the indices, for a buffer of floats.
func.func @ew(%A: memref<14xf32> {tir.name = "A"}, %B: memref<14xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xf32>
      tir.store %a, %B[%vi] : memref<14xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: a pad value computed from the indices is an integer, but buffer 'A' holds f32}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = affine_map<(d0, d1) -> (d0 + d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A pad value computed from one index, where the new layout has two.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the pad value takes 1 indices and gives 1 values, but the new layout of buffer 'A' has 2 dimensions}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = affine_map<(d0) -> (d0)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A pad value that is neither a constant nor an affine map to one value.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects pad_value to be an integer or float constant, or an affine map over dimensions to one result}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = affine_map<(d0, d1) -> (d0, d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// Two results from the same part of the index: not injective.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the index map is not an injective affine map of buffer 'A' (the index map uses twice part of index 0)}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0, d0)>} : !transform.any_op
    transform.yield
  }
}

// -----

// No such buffer.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: block 'B' reads 1 buffers; there is no read buffer 1}}
    transform.tir.transform_layout %b {buffer_index = 1, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0)>} : !transform.any_op
    transform.yield
  }
}

// -----

// Wrong arity.
func.func @ew(%A: memref<14xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the index map takes 2 indices, but buffer 'A' has 1 dimensions}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0, d1) -> (d0, d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// i + j is not a bijection of the iteration space (TVM's non-affine case).
func.func @ew2(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_block_layout: the index map is not a bijective affine map of block 'B''s iteration space}}
    transform.tir.transform_block_layout %b {index_map = affine_map<(d0, d1) -> (d0 + d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A new variable made of a spatial and a reduce variable.
func.func @red(%A: memref<8x4xf32> {tir.name = "A"}, %S: memref<8xf32> {tir.name = "S"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_block_layout: result 0 of the index map mixes iteration variables of different kinds}}
    transform.tir.transform_block_layout %b {index_map = affine_map<(d0, d1) -> (d0 * 4 + d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A separator past the rank.
func.func @ew2(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{set_axis_separator: axis separators are ascending dimensions inside the rank (between 1 and 1 for buffer 'B')}}
    transform.tir.set_axis_separator %b {buffer_index = 0, buffer_index_type = "write", axis_separators = array<i64: 2>} : !transform.any_op
    transform.yield
  }
}

// -----

// A symbol of the map that index_map_symbols does not name.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects one symbol of the index map per parameter, then one per name in index_map_symbols, got 0 parameters and 0 names}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>, assume_injective_transform = true} : !transform.any_op
    transform.yield
  }
}

// -----

// A name the function does not define.
func.func @f(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform_layout: the index map uses 'm', which is neither a scalar parameter nor a shape variable of function 'f'}}
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>, index_map_symbols = ["m"], assume_injective_transform = true} : !transform.any_op
    transform.yield
  }
}

// -----

func.func @bad_param(%A: memref<8x8xf32>, %C: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

// A parameter that holds 0 cannot divide the indices.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 0, 4>, probs = array<f64: 0.5, 0.5>, decision = 0} : () -> !transform.param<i64>
    // expected-error @below {{transform_layout: index map parameter 0 holds 0, and the map divides by the parameters}}
    transform.tir.transform_layout %b params(%v : !transform.param<i64>) {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1)[s0] -> (d0 floordiv s0, d1, d0 mod s0)>} : !transform.any_op
    transform.yield
  }
}
