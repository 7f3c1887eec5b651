// The demo's schedule query and its intentionally invalid input behave as
// the README says.
// RUN: tir-opt %tir_src_root/examples/matmul.mlir --transform-preload-library=transform-library-paths=%tir_src_root/examples/schedule/get_loops.mlir --transform-interpreter -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUERY
// RUN: not tir-opt %tir_src_root/examples/errors/loop_var_in_body.mlir 2>&1 | FileCheck %s --check-prefix=ERROR

// QUERY: matmul.mlir:9:9: remark: block C
// QUERY: matmul.mlir:6:3: remark: loop i (outermost)
// QUERY: matmul.mlir:8:7: remark: loop k (innermost)

// ERROR: loop_var_in_body.mlir:6:12: error: 'tir.load' op uses the induction variable of a tir.for from outside its enclosing block 'B'
// ERROR: loop_var_in_body.mlir:5:5: note: enclosing block is here
