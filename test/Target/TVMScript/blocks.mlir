// RUN: tir-translate --tir-to-tvmscript --split-input-file %s \
// RUN:   | FileCheck %s --strict-whitespace
// Lines that start with {{^}} check Python's indentation exactly.

// A region viewed as a buffer (what tensorize makes): T.match_buffer with
// the view's shape and dtype; its offset and strides read as the view's
// attributes.
// CHECK-LABEL: def view(
// CHECK:      {{^}}            A_1 = T.match_buffer(A[vo * 16:vo * 16 + 16, 0:64], (16, 64), "float32", offset_factor=1)
// CHECK-NEXT: {{^}}            T.evaluate(T.call_extern("handle", "consume", A_1.data, A_1.elem_offset, A_1.strides[0]))
module {
  func.func @view(%A: memref<64x64xf32> {tir.name = "A"}) {
    tir.for %io = 0 to 4 {
      tir.block "outer"(%vo = spatial(4, %io)) {
        %M = tir.match_buffer %A[%vo * 16 : %vo * 16 + 16, 0 : 64]
            : memref<64x64xf32> -> memref<16x64xf32, strided<[64, 1], offset: ?>>
        %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %M : memref<16x64xf32, strided<[64, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
        tir.call "call_extern"("consume", %M, %off, %strides#0) : (memref<16x64xf32, strided<[64, 1], offset: ?>>, index, index) -> ()
      }
    }
    return
  }
}

// -----

// A reduction block: spatial and reduce axes with their bindings (a split
// binding i0 * 4 + i1), its reads and writes, annotations as T.block_attr
// (sorted by name), the init region as T.init, and pure values inlined
// into the one statement that uses them.
// CHECK-LABEL: {{^}}def matmul(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
// CHECK-NEXT:  {{^}}    for i0, i1, j, k in T.grid(32, 4, 128, 128):
// CHECK-NEXT:  {{^}}        with T.block("C"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(128, i0 * 4 + i1)
// CHECK-NEXT:  {{^}}            vj = T.axis.spatial(128, j)
// CHECK-NEXT:  {{^}}            vk = T.axis.reduce(128, k)
// CHECK-NEXT:  {{^}}            T.reads(A[vi, vk], B[vk, vj])
// CHECK-NEXT:  {{^}}            T.writes(C[vi, vj])
// CHECK-NEXT:  {{^}}            T.block_attr({"flag": True, "meta_schedule.tiling_structure": "SSRSRS"})
// CHECK-NEXT:  {{^}}            with T.init():
// CHECK-NEXT:  {{^}}                C[vi, vj] = T.float32(0.0)
// CHECK-NEXT:  {{^}}            C[vi, vj] = C[vi, vj] + (A[vi, vk] * B[vk, vj])
// CHECK-EMPTY:
func.func @matmul(%A: memref<128x128xf32> {tir.name = "A"}, %B: memref<128x128xf32> {tir.name = "B"}, %C: memref<128x128xf32> {tir.name = "C"}) {
  tir.for %i0 = 0 to 32 {
    tir.for %i1 = 0 to 4 {
      tir.for %j = 0 to 128 {
        tir.for %k = 0 to 128 {
          tir.block "C"(%vi = spatial(128, %i0 * 4 + %i1), %vj = spatial(128, %j), %vk = reduce(128, %k))
              reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
              writes(%C[%vi, %vj] : memref<128x128xf32>)
              annotations {meta_schedule.tiling_structure = "SSRSRS", flag = true} {
            tir.init {
              %zero = arith.constant 0.0 : f32
              tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
            }
            %c = tir.load %C[%vi, %vj] : memref<128x128xf32>
            %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
            %b = tir.load %B[%vk, %vj] : memref<128x128xf32>
            %prod = arith.mulf %a, %b : f32
            %sum = arith.addf %c, %prod : f32
            tir.store %sum, %C[%vi, %vj] : memref<128x128xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// Affine predicates (what split leaves for a factor that does not divide)
// are T.where over the loop variables: a conjunction of `e >= 0` and
// `e == 0`.
// CHECK-LABEL: {{^}}def split_predicate(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
// CHECK-NEXT:  {{^}}    for i0, i1 in T.grid(3, 4):
// CHECK-NEXT:  {{^}}        with T.block("B"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(10, i0 * 4 + i1)
// CHECK-NEXT:  {{^}}            T.where(i0 * (-4) - i1 + 9 >= 0)
// CHECK-NEXT:  {{^}}            B[vi] = A[vi]
// CHECK-NEXT:  {{^}}    for i in range(8):
// CHECK-NEXT:  {{^}}        with T.block("P"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(8, i)
// CHECK-NEXT:  {{^}}            T.where(i - 1 >= 0 and i * (-1) + 6 >= 0 and i - 3 == 0)
// CHECK-NEXT:  {{^}}            A[vi] = T.float32(1.0)
// CHECK-EMPTY:
func.func @split_predicate(%A: memref<10xf32> {tir.name = "A"}, %B: memref<10xf32> {tir.name = "B"}) {
  tir.for %i0 = 0 to 3 {
    tir.for %i1 = 0 to 4 {
      tir.block "B"(%vi = spatial(10, %i0 * 4 + %i1)) where(%i0 * 4 + %i1 < 10) {
        %a = tir.load %A[%vi] : memref<10xf32>
        tir.store %a, %B[%vi] : memref<10xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "P"(%vi = spatial(8, %i)) where(%i >= 1, %i <= 6, %i == 3) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<10xf32>
    }
  }
  return
}

// -----

// A T.where over loaded values (a condition computed before the block) is
// its expression over the loop variables.
// CHECK-LABEL: {{^}}def value_condition(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
// CHECK-NEXT:  {{^}}    for i in range(8):
// CHECK-NEXT:  {{^}}        with T.block("C"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(8, i)
// CHECK-NEXT:  {{^}}            T.where((B[i] > T.float32(0.0)))
// CHECK-NEXT:  {{^}}            C[vi] = B[vi]
// CHECK-EMPTY:
func.func @value_condition(%B: memref<8xf32> {tir.name = "B"}, %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    %b = tir.load %B[%i] : memref<8xf32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %b, %zero : f32
    tir.block "C"(%vi = spatial(8, %i)) condition(%c) {
      %x = tir.load %B[%vi] : memref<8xf32>
      tir.store %x, %C[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// Allocations at function level (TVM's root block) and in a block, with
// storage scope and axis separators; region reads and writes as slices;
// opaque and scan axes, a domain that does not start at 0; a load used
// twice gets a name.
// CHECK-LABEL: {{^}}def allocations(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
// CHECK-NEXT:  {{^}}    G = T.alloc_buffer((64, 64), "float32", axis_separators=[1])
// CHECK-NEXT:  {{^}}    for io in range(4):
// CHECK-NEXT:  {{^}}        with T.block("outer"):
// CHECK-NEXT:  {{^}}            vo = T.axis.spatial(4, io)
// CHECK-NEXT:  {{^}}            T.reads(A[vo * 16:vo * 16 + 16, 0:64])
// CHECK-NEXT:  {{^}}            T.writes(B[vo * 16:vo * 16 + 16, 0:64])
// CHECK-NEXT:  {{^}}            S = T.alloc_buffer((16, 64), "float32", scope="shared")
// CHECK-NEXT:  {{^}}            for ii, jj in T.grid(16, 64):
// CHECK-NEXT:  {{^}}                with T.block("inner"):
// CHECK-NEXT:  {{^}}                    vi = T.axis.spatial(64, vo * 16 + ii)
// CHECK-NEXT:  {{^}}                    vj = T.axis.spatial(64, jj)
// CHECK-NEXT:  {{^}}                    vl = T.axis.opaque(16, ii)
// CHECK-NEXT:  {{^}}                    vs = T.axis.scan((2, 18), ii + 2)
// CHECK-NEXT:  {{^}}                    S[vl, vj] = A[vi, vj]
// CHECK-NEXT:  {{^}}                    v = S[vl, vj]
// CHECK-NEXT:  {{^}}                    G[vi, vj] = v
// CHECK-NEXT:  {{^}}                    B[vi, vj] = v
// CHECK-EMPTY:
func.func @allocations(%A: memref<64x64xf32> {tir.name = "A"}, %B: memref<64x64xf32> {tir.name = "B"}) {
  %G = tir.alloc_buffer {axis_separators = array<i64: 1>} : memref<64x64xf32>
  tir.for %io = 0 to 4 {
    tir.block "outer"(%vo = spatial(4, %io))
        reads(%A[%vo * 16 : %vo * 16 + 16, 0 : 64] : memref<64x64xf32>)
        writes(%B[%vo * 16 : %vo * 16 + 16, 0 : 64] : memref<64x64xf32>) {
      %S = tir.alloc_buffer : memref<16x64xf32, "shared">
      tir.for %ii = 0 to 16 {
        tir.for %jj = 0 to 64 {
          tir.block "inner"(%vi = spatial(64, %vo * 16 + %ii), %vj = spatial(64, %jj), %vl = opaque(16, %ii), %vs = scan(2 : 18, %ii + 2)) {
            %x = tir.load %A[%vi, %vj] : memref<64x64xf32>
            tir.store %x, %S[%vl, %vj] : memref<16x64xf32, "shared">
            %y = tir.load %S[%vl, %vj] : memref<16x64xf32, "shared">
            tir.store %y, %G[%vi, %vj] : memref<64x64xf32>
            tir.store %y, %B[%vi, %vj] : memref<64x64xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// What TVMScript's parser reads back: a zero-dimensional buffer's element
// is `C[()]` (in stores, loads and regions); a parameter in another memory
// keeps its scope; bitwise operations on integers are T.bitwise_* calls;
// an annotation holds nested lists; an extern call's result dtype comes
// first ("int32" here).
// CHECK-LABEL: {{^}}def edges(A: T.Buffer((8,), "int32", scope="local"), C: T.Buffer((), "int32")):
// CHECK:       {{^}}            T.reads(A[vi], C[()])
// CHECK-NEXT:  {{^}}            T.writes(C[()])
// CHECK-NEXT:  {{^}}            T.block_attr({"buffer_dim_align": {{\[\[}}0, 0, 16, 15]], "k": {"f": 0.5}})
// CHECK-NEXT:  {{^}}            C[()] = T.bitwise_xor(T.bitwise_or(T.bitwise_and(C[()], A[vi]), T.call_extern("int32", "bits", A.data)), T.int32(3))
func.func @edges(%A: memref<8xi32, "local"> {tir.name = "A"}, %C: memref<i32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi], %C[] : memref<8xi32, "local">, memref<i32>) writes(%C[] : memref<i32>)
        annotations {buffer_dim_align = [[0, 0, 16, 15]], k = {f = 0.5 : f32}} {
      %e = tir.call "call_extern"("bits", %A) : (memref<8xi32, "local">) -> i32
      %c = tir.load %C[] : memref<i32>
      %a = tir.load %A[%vi] : memref<8xi32, "local">
      %and = arith.andi %c, %a : i32
      %or = arith.ori %and, %e : i32
      %three = arith.constant 3 : i32
      %x = arith.xori %or, %three : i32
      tir.store %x, %C[] : memref<i32>
    }
  }
  return
}

// -----

// A dynamic dimension tir.dim_vars leaves unnamed ("": TVMScript sized it
// with an expression such as n * 4) gets a shape variable of its own, not
// the scalar parameter's name; a named one keeps its variable.
// CHECK-LABEL: {{^}}def unnamed_dim(a: T.handle, b: T.handle, n: T.int32):
// CHECK-NEXT:  {{^}}    v = T.int32()
// CHECK-NEXT:  {{^}}    A = T.match_buffer(a, (n, 4), "float32")
// CHECK-NEXT:  {{^}}    B = T.match_buffer(b, (v,), "float32")
func.func @unnamed_dim(%A: memref<?x4xf32> {tir.dim_vars = ["n", ""], tir.name = "A"},
                       %B: memref<?xf32> {tir.dim_vars = [""], tir.name = "B"},
                       %n: index {tir.name = "n"}) {
  return
}

// -----

// A parameter whose offset is known only at run time (T.match_buffer of a
// parameter with an offset_factor): a handle matched with offset_factor=1.
// CHECK-LABEL: def offset_param(
// CHECK-SAME:  a: T.handle, B: T.Buffer((4,), "float32")):
// CHECK-NEXT:  {{^}}    A = T.match_buffer(a, (2, 4), "float32", offset_factor=1)
func.func @offset_param(%A: memref<2x4xf32, strided<[4, 1], offset: ?>> {tir.name = "A"},
                        %B: memref<4xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %x = tir.load %A[0, %vi] : memref<2x4xf32, strided<[4, 1], offset: ?>>
      tir.store %x, %B[%vi] : memref<4xf32>
    }
  }
  return
}
