// RUN: tir-opt %s --transform-interpreter --verify-diagnostics -o /dev/null

// get_child_blocks, get_producers, get_consumers and get_output_blocks over
// the blocks of
// matmul + ReLU with a bias block in between.
func.func @chain(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %D: memref<8x8xf32>) {
  %Y = tir.alloc_buffer : memref<8x8xf32>
  %Z = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 8 {
        // expected-remark @below {{children of i}}
        // expected-remark @below {{producer of bias}}
        // expected-remark @below {{root child}}
        tir.block "Y"(%vi = spatial(8, %i), %vj = spatial(8, %j), %vk = reduce(8, %k)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %Y[%vi, %vj] : memref<8x8xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
          %b = tir.load %B[%vk, %vj] : memref<8x8xf32>
          %y = tir.load %Y[%vi, %vj] : memref<8x8xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %y, %p : f32
          tir.store %s, %Y[%vi, %vj] : memref<8x8xf32>
        }
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-remark @below {{consumer of Y}}
      // expected-remark @below {{producer of relu}}
      // expected-remark @below {{root child}}
      tir.block "bias"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %y = tir.load %Y[%vi, %vj] : memref<8x8xf32>
        %one = arith.constant 1.0 : f32
        %z = arith.addf %y, %one : f32
        tir.store %z, %Z[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-remark @below {{consumer of bias}}
      // expected-remark @below {{root child}}
      // expected-remark @below {{output}}
      tir.block "relu"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %z = tir.load %Z[%vi, %vj] : memref<8x8xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %z, %zero : f32
        tir.store %r, %D[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %bias = transform.tir.get_block "bias" in %root : (!transform.any_op) -> !transform.any_op
    %relu = transform.tir.get_block "relu" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.tir.get_child_blocks %i : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "children of i" : !transform.any_op
    %f = transform.get_parent_op %y {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %all = transform.tir.get_child_blocks %f : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %all, "root child" : !transform.any_op
    %p = transform.tir.get_producers %bias : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %p, "producer of bias" : !transform.any_op
    %p2 = transform.tir.get_producers %relu : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %p2, "producer of relu" : !transform.any_op
    %c1 = transform.tir.get_consumers %y : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c1, "consumer of Y" : !transform.any_op
    %c2 = transform.tir.get_consumers %bias : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c2, "consumer of bias" : !transform.any_op
    // Only relu writes a buffer the function does not allocate; the root
    // block is the function (get_block "root").
    %root_block = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    %out = transform.tir.get_output_blocks %root_block : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %out, "output" : !transform.any_op
    // Nothing consumes relu's output in this function: an empty handle.
    %c3 = transform.tir.get_consumers %relu : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c3 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{consumers of relu: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "consumers of relu:" : !transform.param<i64>
    transform.yield
  }
}
