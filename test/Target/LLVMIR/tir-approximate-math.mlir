// RUN: tir-opt %s --tir-approximate-math | FileCheck %s
// RUN: tir-opt %s --tir-approximate-math=functions=tanh | FileCheck %s --check-prefix=TANH
// RUN: tir-opt %s --tir-lower-to-llvm | FileCheck %s --check-prefix=LOWERED
// RUN: tir-opt %s --tir-lower-to-llvm=approximate-math=false | FileCheck %s --check-prefix=LIBM

// Vector exp and tanh become arithmetic on vectors; sin keeps its call.
// exp's lanes below log(FLT_MIN) go through exp(x / 2)^2.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: vector<16xf32>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK-DAG: %[[LIMIT:.*]] = arith.constant dense<-87.3365{{[0-9]*}}> : vector<16xf32>
// CHECK-DAG: %[[HALVED:.*]] = arith.mulf %[[X]], %[[HALF]] : vector<16xf32>
// CHECK-DAG: %[[LOW:.*]] = arith.cmpf olt, %[[X]], %[[LIMIT]] : vector<16xf32>
// CHECK: arith.select %[[LOW]], %[[HALVED]], %[[X]]
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK: math.sin
// TANH-LABEL: func.func @f
// TANH: math.exp
// TANH-NOT: math.tanh
// LOWERED-NOT: llvm.intr.exp
// LOWERED: llvm.intr.sin
// LIBM: llvm.intr.exp
// LIBM: llvm.intr.tanh
func.func @f(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %x : vector<16xf32>
  %s = math.sin %x : vector<16xf32>
  return %e, %t, %s : vector<16xf32>, vector<16xf32>, vector<16xf32>
}
