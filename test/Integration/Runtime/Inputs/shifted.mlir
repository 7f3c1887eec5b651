// B[i] = A[i + off] for i in [0, n): A must hold indices [off, n - 1 + off].
func.func @shifted(%n: index {tir.name = "n"}, %off: index {tir.name = "off"},
                   %A: memref<?xf32> {tir.name = "A"},
                   %B: memref<?xf32> {tir.name = "B"}) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi + symbol(%off)] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

// TVM's if_then_else, B[i] = A[i + 1] if i + 1 < n else 0: the load past
// the end is guarded by the select, so it sets no bound (A may have n
// elements).
func.func @guarded(%n: index {tir.name = "n"},
                   %A: memref<?xf32> {tir.name = "A"},
                   %B: memref<?xf32> {tir.name = "B"}) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %one = arith.constant 1 : index
      %last = arith.subi %n, %one : index
      %c = arith.cmpi ult, %vi, %last : index
      %a = tir.load %A[%vi + 1] : memref<?xf32>
      %zero = arith.constant 0.0 : f32
      %v = arith.select %c, %a, %zero : f32
      tir.store %v, %B[%vi] : memref<?xf32>
    }
  }
  return
}
