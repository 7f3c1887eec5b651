// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// unsafe_set_dtype of an intermediate buffer: the allocation changes type,
// its store converts to float64, its load converts back to float32 (a
// narrower type, TVM's float16, converts the same way and rounds).
// CHECK-LABEL: func.func @wide
// CHECK:         %[[B:.+]] = tir.alloc_buffer : memref<8x8xf64>
// CHECK:         %[[M:.+]] = arith.mulf
// CHECK-NEXT:    %[[H:.+]] = arith.extf %[[M]] : f32 to f64
// CHECK-NEXT:    tir.store %[[H]], %[[B]][%{{.+}}, %{{.+}}] : memref<8x8xf64>
// CHECK:         %[[L:.+]] = tir.load %[[B]][%{{.+}}, %{{.+}}] : memref<8x8xf64>
// CHECK-NEXT:    %[[F:.+]] = arith.truncf %[[L]] : f64 to f32
// CHECK:         arith.addf %[[F]], %{{.+}} : f32
func.func @wide(%A: memref<8x8xf32>, %C: memref<8x8xf32>) {
  %B = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        %two = arith.constant 2.0 : f32
        %m = arith.mulf %a, %two : f32
        tir.store %m, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<8x8xf32>
        %one = arith.constant 1.0 : f32
        %s = arith.addf %b, %one : f32
        tir.store %s, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.unsafe_set_dtype %b {buffer_index = 0, dtype = "float64"} : !transform.any_op
    transform.yield
  }
}

// -----

// An int8 buffer made uint16: the allocation is marked unsigned, the store
// sign-extends the int8 value, the load truncates back.
// CHECK-LABEL: func.func @to_uint16
// CHECK:         %[[B:.+]] = tir.alloc_buffer {tir.dtype = "uint16"} : memref<4xi16>
// CHECK:         arith.extsi %{{.+}} : i8 to i16
// CHECK:         %[[L:.+]] = tir.load %[[B]][%{{.+}}] : memref<4xi16>
// CHECK-NEXT:    arith.trunci %[[L]] : i16 to i8
func.func @to_uint16(%A: memref<4xi8>, %C: memref<4xi8>) {
  %B = tir.alloc_buffer : memref<4xi8>
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xi8>
      tir.store %a, %B[%vi] : memref<4xi8>
    }
  }
  tir.for %i = 0 to 4 {
    tir.block "C"(%vi = spatial(4, %i)) {
      %b = tir.load %B[%vi] : memref<4xi8>
      tir.store %b, %C[%vi] : memref<4xi8>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.unsafe_set_dtype %b {buffer_index = 0, dtype = "uint16"} : !transform.any_op
    transform.yield
  }
}

// -----

// bfloat16 to float16 converts through float32 both ways (the load's
// conversion keeps reading the load).
// CHECK-LABEL: func.func @half_kinds
// CHECK:         %[[H:.+]] = tir.alloc_buffer : memref<4xf16>
// CHECK:         %[[W:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK-NEXT:    %[[N:.+]] = arith.truncf %[[W]] : f32 to f16
// CHECK-NEXT:    tir.store %[[N]], %[[H]]
// CHECK:         %[[L:.+]] = tir.load %[[H]][%{{.+}}] : memref<4xf16>
// CHECK-NEXT:    %[[W2:.+]] = arith.extf %[[L]] : f16 to f32
// CHECK-NEXT:    %[[B:.+]] = arith.truncf %[[W2]] : f32 to bf16
// CHECK-NEXT:    tir.store %[[B]]
func.func @half_kinds(%A: memref<4xbf16>, %C: memref<4xbf16>) {
  %B = tir.alloc_buffer : memref<4xbf16>
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xbf16>
      tir.store %a, %B[%vi] : memref<4xbf16>
    }
  }
  tir.for %i = 0 to 4 {
    tir.block "C"(%vi = spatial(4, %i)) {
      %b = tir.load %B[%vi] : memref<4xbf16>
      tir.store %b, %C[%vi] : memref<4xbf16>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.unsafe_set_dtype %b {buffer_index = 0, dtype = "float16"} : !transform.any_op
    transform.yield
  }
}
