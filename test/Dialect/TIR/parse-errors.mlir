// Malformed input gets a diagnostic and a non-zero exit, never a crash
// (`not` fails on a crash). Each case is its own file.
// RUN: split-file %s %t
// RUN: not tir-opt %t/bad-syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tir-opt %t/unknown-loop-kind.mlir 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not tir-opt %t/wrong-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tir-opt %t/unknown-iter-kind.mlir 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: not tir-opt %t/bad-divisor.mlir 2>&1 | FileCheck %s --check-prefix=DIVISOR
// RUN: not tir-opt %t/bad-predicate.mlir 2>&1 | FileCheck %s --check-prefix=PRED
// RUN: not tir-opt %t/index-type.mlir 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tir-opt %t/region-types.mlir 2>&1 | FileCheck %s --check-prefix=TYPES
// RUN: not tir-opt %t/bad-index.mlir 2>&1 | FileCheck %s --check-prefix=EXPR

//--- bad-syntax.mlir
// SYNTAX: bad-syntax.mlir:3:18: error: custom op 'tir.for' expected 'to'
func.func @f() {
  tir.for %i = 0 until 8 {
  }
  return
}

//--- unknown-loop-kind.mlir
// KIND: unknown-loop-kind.mlir:3:23: error: custom op 'tir.for' unknown loop kind 'parallelized'; expected one of serial, parallel, vectorized, unrolled, thread_binding<"tag">
func.func @f() {
  tir.for %i = 0 to 8 parallelized {
  }
  return
}

//--- wrong-type.mlir
// TYPE: wrong-type.mlir:6:17: error: use of value '%x' expects different type than prior uses: 'f32' vs 'i32'
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %x = arith.constant 1 : i32
      tir.store %x, %A[%vi] : memref<8xf32>
    }
  }
  return
}

//--- unknown-iter-kind.mlir
// ITER: unknown-iter-kind.mlir:4:25: error: custom op 'tir.block' unknown iteration variable kind 'spacial'; expected spatial, reduce, scan or opaque
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spacial(8, %i)) {
    }
  }
  return
}

//--- bad-divisor.mlir
// DIVISOR: bad-divisor.mlir:4:39: error: custom op 'tir.block' 'floordiv' by 0; the divisor must be positive
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i floordiv 0)) {
    }
  }
  return
}

//--- bad-predicate.mlir
// PRED: bad-predicate.mlir:4:57: error: custom op 'tir.block' expected a comparison (<, <=, >, >=, ==)
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) where(%i * 2 + 1) {
    }
  }
  return
}

//--- index-type.mlir
// INDEX: index-type.mlir:3:21: error: use of value '%n' expects different type than prior uses: 'index' vs 'i32'
func.func @f(%n: i32) {
  tir.for %i = 0 to %n {
  }
  return
}

//--- region-types.mlir
// TYPES: region-types.mlir:4:47: error: custom op 'tir.block' expected 2 buffer types, got 1
func.func @f(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi], %B[%vi] : memref<8xf32>) {
    }
  }
  return
}

//--- bad-index.mlir
// EXPR: bad-index.mlir:5:30: error: custom op 'tir.load' expected an index expression: an integer, an SSA name, '-' or '('
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %x = tir.load %A[%vi * ] : memref<8xf32>
    }
  }
  return
}
