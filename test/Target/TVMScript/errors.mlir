// RUN: tir-translate --tir-to-tvmscript --split-input-file --verify-diagnostics %s

// IR that TVMScript cannot express is an error naming the op and the
// reason, and nothing is printed.

// A declaration has no body to print.
// expected-error @+1 {{cannot print 'func.func' as TVMScript: a declaration has no body}}
module {
  func.func private @extern(%A: memref<8xf32>)
}

// -----

// Parameters are row-major buffers (a run-time offset allowed) or index
// scalars.
// expected-error @+1 {{cannot print 'func.func' as TVMScript: parameter x is not a row-major buffer (with or without an offset_factor) or an index}}
module {
  func.func @scalar(%x: f32 {tir.name = "x"}) {
    return
  }
}

// -----

// expected-error @+1 {{cannot print 'func.func' as TVMScript: parameter A is not a row-major buffer (with or without an offset_factor) or an index}}
module {
  func.func @strided(%A: memref<8xf32, strided<[2]>> {tir.name = "A"}) {
    return
  }
}

// -----

// A dynamic dimension is named by the one scalar parameter; with two there
// is no telling which.
// expected-error @+1 {{cannot print 'func.func' as TVMScript: buffer A has a dynamic dimension and the function has no single scalar parameter to name it}}
module {
  func.func @two_sizes(%n: index {tir.name = "n"}, %m: index {tir.name = "m"},
                       %A: memref<?xf32> {tir.name = "A"}) {
    return
  }
}

// -----

// An op with no TVMScript form.
// expected-error @+1 {{cannot print 'math.atan2' as TVMScript: no TVMScript form}}
module {
  func.func @remainder(%A: memref<8xf32> {tir.name = "A"}) {
    tir.for %i = 0 to 8 {
      tir.block "R"(%vi = spatial(8, %i)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        %r = math.atan2 %a, %a : f32
        tir.store %r, %A[%vi] : memref<8xf32>
      }
    }
    return
  }
}

// -----

// An unsigned comparison of values of no uint buffer: its Python form
// (`<`) would parse back signed.
// expected-error @+1 {{cannot print 'arith.cmpi' as TVMScript: an unsigned operation on values of no uint buffer}}
module {
  func.func @unsigned(%A: memref<8xi32> {tir.name = "A"}, %M: memref<8xi1> {tir.name = "M"}) {
    tir.for %i = 0 to 8 {
      tir.block "U"(%vi = spatial(8, %i)) {
        %a = tir.load %A[%vi] : memref<8xi32>
        %three = arith.constant 3 : i32
        %lt = arith.cmpi ult, %a, %three : i32
        tir.store %lt, %M[%vi] : memref<8xi1>
      }
    }
    return
  }
}

// -----

// A graph function's parameters are tensors whose dynamic dimensions are
// shape variables (tir.dim_vars names them).
// expected-error @+1 {{cannot print 'func.func' as TVMScript: parameter 0 is not a tensor whose dimensions are sizes or shape variables}}
module {
  func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
    return %x : tensor<?xf32>
  }
}

// -----

// A graph function holds calls of prim_funcs and Relax's operators only.
// expected-error @+1 {{cannot print 'tensor.extract_slice' as TVMScript: an op TVMScript's @R.function has no form for}}
module {
  func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
    %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    return %s : tensor<4xf32>
  }
}
