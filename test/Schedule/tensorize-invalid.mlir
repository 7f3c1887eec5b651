// RUN: tir-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// Every refusal of tensorize (each leaves the IR as it was).

// An intrinsic nobody registered.
func.func @f(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.addi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: no tensor intrinsic named 'dot5'}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot5"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// Buffers of another element type than the description's.
func.func @f(%A: memref<8x4xf32> {tir.name = "A"}, %D: memref<8xf32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %d = tir.load %D[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %s = arith.addf %d, %a : f32
        tir.store %s, %D[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the block does not match tensor intrinsic 'dot4': buffer 'D' holds f32, the description's}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// Another operation than the description's.
func.func @f(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.subi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the block does not match tensor intrinsic 'dot4': 'arith.subi' stands where the description has 'arith.addi'}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// A reduction of 2 where the description reduces 4.
func.func @f(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 2 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(2, %k)) {
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.addi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the block does not match tensor intrinsic 'dot4': the region of 'A' has extent 2 in dimension 1, the description 4}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// A block with its init (decompose_reduction first).
func.func @f(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %z = arith.constant 0 : i32
          tir.store %z, %D[%vi] : memref<8xi32>
        }
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.addi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the block does not match tensor intrinsic 'dot4': block 'D_k_o' has an init, which no description has (decompose_reduction first)}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// A description and an implementation over different buffers.
func.func @f(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.addi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<8xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<8xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<8xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the desc and impl of tensor intrinsic 'dot4' do not take the same buffers}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block with a predicate (the description has none).
func.func @guarded(%A: memref<8x4xi32> {tir.name = "A"}, %D: memref<8xi32> {tir.name = "D"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "D_k"(%vi = spatial(8, %i), %vk = reduce(4, %k)) where(%i < 6) {
        %d = tir.load %D[%vi] : memref<8xi32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xi32>
        %s = arith.addi %d, %a : i32
        tir.store %s, %D[%vi] : memref<8xi32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  func.func private @dot4_desc(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_desc = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.for %k = 0 to 4 {
        tir.block "sum"(%vk = reduce(4, %k)) {
          %d = tir.load %D[] : memref<i32>
          %a = tir.load %A[%vk] : memref<4xi32>
          %s = arith.addi %d, %a : i32
          tir.store %s, %D[] : memref<i32>
        }
      }
    }
    return
  }
  func.func private @dot4_impl(%A: memref<4xi32>, %D: memref<i32>) attributes {tir.tensor_intrin_impl = "dot4"} {
    tir.block "root"() reads(%D[], %A[0 : 4] : memref<i32>, memref<4xi32>) writes(%D[] : memref<i32>) {
      tir.call "dot4"(%D, %A) : (memref<i32>, memref<4xi32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "D_k" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{tensorize: the block does not match tensor intrinsic 'dot4': block 'D_k_o' has a predicate, which no description has}}
    %t = transform.tir.tensorize %l1 {tensor_intrin = "dot4"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
