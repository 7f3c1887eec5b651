// A schedule query on examples/matmul.mlir: the block "C" and the loops
// above it, outermost first (TVM: `sch.get_loops(sch.get_block("C"))`).
//   tir-opt examples/matmul.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedule/get_loops.mlir \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %block = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %block, "block C" : !transform.any_op
    %i, %j, %k = transform.tir.get_loops %block
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %i, "loop i (outermost)" : !transform.any_op
    transform.debug.emit_remark_at %k, "loop k (innermost)" : !transform.any_op
    transform.yield
  }
}
