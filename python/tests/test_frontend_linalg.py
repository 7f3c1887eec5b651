"""Front ends' IR into tir (docs/integration.md): torch-mlir-style linalg on
tensors (an MLP; a conv2d + bias + ReLU) and TOSA go through
--tir-from-tensors (TOSA to linalg, one-shot bufferization, results as
output parameters, --convert-linalg-to-tir) to tir blocks with TVM's names,
are scheduled with TVM's primitives, built and run, and match numpy."""
import numpy as np
import pytest

import tensorir as tvm

MLP = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x10xf32>, %b2: tensor<10xf32>) -> tensor<16x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a1 = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<16x32xf32>, tensor<32xf32>) outs(%e1 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %r1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a1 : tensor<16x32xf32>) outs(%e1 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x10xf32>) -> tensor<16x10xf32>
  %m2 = linalg.matmul ins(%r1, %w2 : tensor<16x32xf32>, tensor<32x10xf32>) outs(%z2 : tensor<16x10xf32>) -> tensor<16x10xf32>
  %a2 = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<16x10xf32>, tensor<10xf32>) outs(%e2 : tensor<16x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x10xf32>
  return %a2 : tensor<16x10xf32>
}
"""

CONV = """
#bias = affine_map<(n, c, h, w) -> (c)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @main(%x: tensor<1x3x10x10xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>)
    -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%z : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x8x8x8xf32>, tensor<8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
"""

TOSA = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32}
      : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""


def import_tensors(text):
    return tvm.ir.transform.mlir_pass("tir-from-tensors")(tvm.IRModule.from_mlir(text))


def blocks(mod):
    import re
    return re.findall(r'tir\.block "(\w+)"', mod.mlir())


def run(mod, *arrays, out_shape):
    out = tvm.nd.array(np.full(out_shape, np.nan, "float32"))
    tvm.build(mod)["main"](*[tvm.nd.array(a) for a in arrays], out)
    return out.numpy()


def test_mlp_scheduled():
    mod = import_tensors(MLP)
    # TVM's names: matmul (with its T.init), T_add, compute (ReLU); the second
    # layer's blocks get _1; intermediates are the function's buffers.
    assert blocks(mod) == ["matmul", "T_add", "compute", "matmul_1", "T_add_1"]
    assert "linalg." not in mod.mlir() and "tir.init" in mod.mlir()
    sch = tvm.tir.Schedule(mod)
    sch.compute_inline(sch.get_block("T_add"))
    for name in ("matmul", "matmul_1"):
        i, j, k = sch.get_loops(sch.get_block(name))
        io, ii = sch.split(i, factors=[None, 4])
        sch.reorder(io, ii, k, j)
        sch.parallel(io)
        sch.vectorize(j)
    # The second layer's bias, row tile by row tile after its product.
    sch.reverse_compute_at(sch.get_block("T_add_1"), sch.get_loops(sch.get_block("matmul_1"))[0])
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 64)).astype("float32")
    w1 = rng.standard_normal((64, 32)).astype("float32")
    b1 = rng.standard_normal(32).astype("float32")
    w2 = rng.standard_normal((32, 10)).astype("float32")
    b2 = rng.standard_normal(10).astype("float32")
    want = np.maximum(x.astype("float64") @ w1 + b1, 0) @ w2 + b2
    got = run(sch.mod, x, w1, b1, w2, b2, out_shape=(16, 10))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_conv2d_relu_scheduled():
    mod = import_tensors(CONV)
    assert blocks(mod) == ["conv2d_nchw", "T_add", "compute"]
    sch = tvm.tir.Schedule(mod)
    conv = sch.get_block("conv2d_nchw")
    # TOPI's axis names: the loops of the conv are nn, ff, yy, xx, rc, ry, rx.
    names = [sch.get(loop).loop_var.name for loop in sch.get_loops(conv)]
    assert names == ["nn", "ff", "yy", "xx", "rc", "ry", "rx"]
    sch.compute_inline(sch.get_block("T_add"))
    nn, ff, yy, xx, rc, ry, rx = sch.get_loops(conv)
    sch.reorder(nn, ff, yy, rc, ry, rx, xx)
    sch.parallel(ff)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 3, 10, 10)).astype("float32")
    w = rng.standard_normal((8, 3, 3, 3)).astype("float32")
    b = rng.standard_normal(8).astype("float32")
    want = np.zeros((1, 8, 8, 8))
    for f in range(8):
        for i in range(8):
            for j in range(8):
                want[0, f, i, j] = np.sum(x[0, :, i:i + 3, j:j + 3].astype("float64") * w[f])
    want = np.maximum(want + b[None, :, None, None], 0)
    got = run(sch.mod, x, w, b, out_shape=(1, 8, 8, 8))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_tosa_to_tir():
    mod = import_tensors(TOSA)
    assert "tosa." not in mod.mlir()
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((4, 8)).astype("float32") for _ in range(2))
    np.testing.assert_allclose(run(mod, a, b, out_shape=(4, 8)), np.maximum(a + b, 0),
                               rtol=1e-6)


def test_what_tir_cannot_express_stays():
    text = """
    func.func @main(%v: f32, %o: memref<4xf32>) {
      linalg.fill ins(%v : f32) outs(%o : memref<4xf32>)
      return
    }
    """
    mod = tvm.ir.transform.mlir_pass("convert-linalg-to-tir")(tvm.IRModule.from_mlir(text))
    assert "linalg.fill" in mod.mlir()


PADDED_CONV = """
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
"""


def test_padded_conv2d_relu():
    # torch-mlir's padding (tensor.pad): the padded input is filled, then the
    # input copied into its window (T_full, T_copy), then the convolution.
    mod = import_tensors(PADDED_CONV)
    assert blocks(mod) == ["T_full", "T_copy", "conv2d_nchw", "compute"]
    assert "memref." not in mod.mlir()
    sch = tvm.tir.Schedule(mod)
    nn, ff, yy, xx, rc, ry, rx = sch.get_loops(sch.get_block("conv2d_nchw"))
    sch.parallel(ff)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 3, 8, 8)).astype("float32")
    w = rng.standard_normal((4, 3, 3, 3)).astype("float32")
    xp = np.pad(x.astype("float64"), ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.zeros((1, 4, 8, 8))
    for f in range(4):
        for i in range(8):
            for j in range(8):
                want[0, f, i, j] = np.sum(xp[0, :, i:i + 3, j:j + 3] * w[f])
    got = run(sch.mod, x, w, out_shape=(1, 4, 8, 8))
    np.testing.assert_allclose(got, np.maximum(want, 0), rtol=1e-4, atol=1e-4)


TOSA_MATMUL_MUL = """
func.func @main(%a: tensor<1x4x5xf32>, %b: tensor<1x5x3xf32>, %s: tensor<1x4x3xf32>) -> tensor<1x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x5xf32>, tensor<1x5x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.mul %m, %s, %shift : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
  return %r : tensor<1x4x3xf32>
}
"""


def test_tosa_with_constants():
    # TOSA's zero points and shifts (tosa.const) fold into the linalg ops;
    # what is left of them goes before the conversion.
    mod = import_tensors(TOSA_MATMUL_MUL)
    assert "tosa." not in mod.mlir()
    rng = np.random.default_rng(4)
    a = rng.standard_normal((1, 4, 5)).astype("float32")
    b = rng.standard_normal((1, 5, 3)).astype("float32")
    s = rng.standard_normal((1, 4, 3)).astype("float32")
    got = run(mod, a, b, s, out_shape=(1, 4, 3))
    np.testing.assert_allclose(got, (a.astype("float64") @ b) * s, rtol=1e-5, atol=1e-5)
