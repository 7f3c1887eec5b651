// transform.tir ops come with the dialect plugin.
// REQUIRES: stock-mlir-opt
// RUN: %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so %s --transform-interpreter --verify-diagnostics -o /dev/null

func.func @f(%A: memref<8xf32>) {
  // expected-remark @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %c = arith.constant 0.0 : f32
      tir.store %c, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %l, "loop" : !transform.any_op
    transform.yield
  }
}
