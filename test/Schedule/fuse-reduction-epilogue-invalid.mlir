// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A ReLU of the biased sum does not commute with the reduction: TVM applies
// it to every partial sum, which computes another function.
func.func @f(%A: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>, %E: memref<8x8xf32>) {
  %T = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "mm"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vi, 0] : memref<8x8xf32>
        }
        %acc = tir.load %T[%vi, 0] : memref<8x8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %T[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "ep"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      %c = tir.load %C[%vi, 0] : memref<8x8xf32>
      %s = arith.addf %t, %c : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %s, %zero : f32
      tir.store %r, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "ep" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse_reduction_epilogue cannot fuse epilogue 'ep': it clips or rectifies the reduction's result}}
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Clipping, likewise.
func.func @f(%A: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>, %E: memref<8x8xf32>) {
  %T = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "mm"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vi, 0] : memref<8x8xf32>
        }
        %acc = tir.load %T[%vi, 0] : memref<8x8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %T[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "ep"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      %lo = arith.constant -5.0 : f32
      %hi = arith.constant 5.0 : f32
      %m = arith.maximumf %t, %lo : f32
      %r = arith.minimumf %m, %hi : f32
      tir.store %r, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "ep" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse_reduction_epilogue cannot fuse epilogue 'ep': it clips or rectifies}}
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A product is not a bias.
func.func @f(%A: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>, %E: memref<8x8xf32>) {
  %T = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "mm"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vi, 0] : memref<8x8xf32>
        }
        %acc = tir.load %T[%vi, 0] : memref<8x8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %T[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "ep"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      %c = tir.load %C[%vi, 0] : memref<8x8xf32>
      %s = arith.mulf %t, %c : f32
      tir.store %s, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "ep" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse_reduction_epilogue cannot fuse epilogue 'ep': its body is not `D[...] = B[...] + bias`}}
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The output added to itself is not a bias either.
func.func @f(%A: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>, %E: memref<8x8xf32>) {
  %T = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "mm"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vi, 0] : memref<8x8xf32>
        }
        %acc = tir.load %T[%vi, 0] : memref<8x8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %T[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "ep"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      %s = arith.addf %t, %t : f32
      tir.store %s, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "ep" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse_reduction_epilogue cannot fuse epilogue 'ep': its body is not `D[...] = B[...] + bias`}}
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Another block reads the reduction's output: it would read nothing once
// the reduction writes D (TVM leaves it so).
func.func @f(%A: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>, %E: memref<8x8xf32>) {
  %T = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "mm"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vi, 0] : memref<8x8xf32>
        }
        %acc = tir.load %T[%vi, 0] : memref<8x8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %T[%vi, 0] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "ep"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      %c = tir.load %C[%vi, 0] : memref<8x8xf32>
      %s = arith.addf %t, %c : f32
      tir.store %s, %D[%vi, 0] : memref<8x8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "other"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi, 0] : memref<8x8xf32>
      tir.store %t, %E[%vi, 0] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "ep" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse_reduction_epilogue needs epilogue 'ep' to be the only reader of what reduction 'mm' writes}}
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}
