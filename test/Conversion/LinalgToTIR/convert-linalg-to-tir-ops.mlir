// Every family of linalg ops --convert-linalg-to-tir takes, with TVM's
// names for the block and its axes (TOPI's and Relax's legalization), and
// the ops it leaves as they are, with a remark.
// RUN: tir-opt %s --convert-linalg-to-tir -split-input-file | FileCheck %s
// RUN: tir-opt %s --convert-linalg-to-tir -split-input-file -verify-diagnostics > /dev/null

// Matrix products: "matmul" over i0, i1, ... reducing k.
// CHECK-LABEL: func.func @matmuls
// CHECK:         tir.block "matmul"(%v_i0 = spatial(2, %i0), %v_i1 = spatial(4, %i1), %v_i2 = spatial(3, %i2), %v_k = reduce(5, %k))
// CHECK:         tir.block "matmul_1"(%v_i0 = spatial(4, %i0), %v_k = reduce(5, %k))
// CHECK:         tir.block "matmul_2"(%v_k = reduce(5, %k))
// CHECK:         tir.block "matmul_3"(%v_i0 = spatial(5, %i0), %v_k = reduce(4, %k))
func.func @matmuls(%a: memref<2x4x5xf32>, %b: memref<2x5x3xf32>, %c: memref<2x4x3xf32>,
                   %m: memref<4x5xf32>, %x: memref<5xf32>, %y: memref<4xf32>, %s: memref<f32>,
                   %z: memref<5xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x4x5xf32>, memref<2x5x3xf32>) outs(%c : memref<2x4x3xf32>)
  linalg.matvec ins(%m, %x : memref<4x5xf32>, memref<5xf32>) outs(%y : memref<4xf32>)
  linalg.dot ins(%x, %x : memref<5xf32>, memref<5xf32>) outs(%s : memref<f32>)
  linalg.vecmat ins(%y, %m : memref<4xf32>, memref<4x5xf32>) outs(%z : memref<5xf32>)
  return
}

// -----

// Convolutions: TOPI's conv2d_nchw / conv2d_nhwc with its axis names;
// other layouts and depthwise ones keep linalg's layout in the name.
// CHECK-LABEL: func.func @convs
// CHECK:         tir.block "conv2d_nchw"(%v_nn = spatial(1, %nn), %v_ff = spatial(4, %ff), %v_yy = spatial(6, %yy), %v_xx = spatial(6, %xx), %v_rc = reduce(3, %rc), %v_ry = reduce(3, %ry), %v_rx = reduce(3, %rx))
// CHECK:         tir.block "conv2d_nhwc"(%v_nn = spatial(1, %nn), %v_yy = spatial(6, %yy), %v_xx = spatial(6, %xx), %v_ff = spatial(4, %ff), %v_ry = reduce(3, %ry), %v_rx = reduce(3, %rx), %v_rc = reduce(3, %rc))
// CHECK:         tir.block "depthwise_conv2d_nhwc_hwc"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(6, %i1), %v_i2 = spatial(6, %i2), %v_i3 = spatial(3, %i3), %v_r0 = reduce(3, %r0), %v_r1 = reduce(3, %r1))
func.func @convs(%x: memref<1x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %o: memref<1x4x6x6xf32>,
                 %xh: memref<1x8x8x3xf32>, %wh: memref<3x3x3x4xf32>, %oh: memref<1x6x6x4xf32>,
                 %wd: memref<3x3x3xf32>, %od: memref<1x6x6x3xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%o : memref<1x4x6x6xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%xh, %wh : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%oh : memref<1x6x6x4xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc ins(%xh, %wd : memref<1x8x8x3xf32>, memref<3x3x3xf32>) outs(%od : memref<1x6x6x3xf32>)
  return
}

// -----

// Pooling: TOPI's pool_max / pool_sum, reduce axes rv0, rv1.
// CHECK-LABEL: func.func @pools
// CHECK:         tir.block "pool_max"(%v_ax0 = spatial(1, %ax0), %v_ax1 = spatial(3, %ax1), %v_ax2 = spatial(3, %ax2), %v_ax3 = spatial(3, %ax3), %v_rv0 = reduce(2, %rv0), %v_rv1 = reduce(2, %rv1))
// CHECK:           arith.maximumf
// CHECK:         tir.block "pool_sum"
// CHECK:           arith.addf
func.func @pools(%x: memref<1x3x4x4xf32>, %k: memref<2x2xf32>, %o: memref<1x3x3x3xf32>,
                 %xh: memref<1x4x4x3xf32>, %oh: memref<1x3x3x3xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %k : memref<1x3x4x4xf32>, memref<2x2xf32>) outs(%o : memref<1x3x3x3xf32>)
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%xh, %k : memref<1x4x4x3xf32>, memref<2x2xf32>) outs(%oh : memref<1x3x3x3xf32>)
  return
}

// -----

// Data movement: fill, copy, transpose, broadcast.
// CHECK-LABEL: func.func @movement
// CHECK:         tir.block "T_full"(%v_ax0 = spatial(4, %ax0), %v_ax1 = spatial(8, %ax1))
// CHECK:         tir.block "T_copy"(%v_ax0 = spatial(4, %ax0), %v_ax1 = spatial(8, %ax1))
// CHECK:         tir.block "T_transpose"(%v_ax0 = spatial(8, %ax0), %v_ax1 = spatial(4, %ax1))
// CHECK:           tir.load %arg0[%v_ax1, %v_ax0]
// CHECK:         tir.block "T_broadcast_to"(%v_ax0 = spatial(4, %ax0), %v_ax1 = spatial(8, %ax1))
// CHECK:           tir.load %arg3[%v_ax1]
func.func @movement(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %t: memref<8x4xf32>, %r: memref<8xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%b : memref<4x8xf32>)
  linalg.copy ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  linalg.transpose ins(%a : memref<4x8xf32>) outs(%t : memref<8x4xf32>) permutation = [1, 0]
  linalg.broadcast ins(%r : memref<8xf32>) outs(%b : memref<4x8xf32>) dimensions = [0]
  return
}

// -----

// Reductions: "<input>_red" reducing k0, ...
// CHECK-LABEL: func.func @reduce
// CHECK:         tir.block "A_red"(%v_ax0 = spatial(4, %ax0), %v_k0 = reduce(8, %k0))
// CHECK:           arith.addf
func.func @reduce(%a: memref<4x8xf32> {tir.name = "A"}, %o: memref<4xf32>) {
  linalg.reduce ins(%a : memref<4x8xf32>) outs(%o : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Element-wise ops, named, as linalg.elementwise, as linalg.map and as a
// generic of one op: TOPI's T_<op>; ReLU (max with 0) topi.nn.relu's
// "compute"; any other computation "compute".
// CHECK-LABEL: func.func @elementwise
// CHECK:         tir.block "T_add"(%v_ax0 = spatial(4, %ax0))
// CHECK:         tir.block "T_exp"(%v_ax0 = spatial(4, %ax0))
// CHECK:           math.exp
// CHECK:         tir.block "T_multiply"(%v_ax0 = spatial(4, %ax0))
// CHECK:         tir.block "T_subtract"(%v_ax0 = spatial(4, %ax0))
// CHECK:         tir.block "compute"(%v_i0 = spatial(4, %i0))
// CHECK:           arith.maximumf
// CHECK:         tir.block "compute_1"(%v_i0 = spatial(4, %i0))
func.func @elementwise(%a: memref<4xf32>, %b: memref<4xf32>, %o: memref<4xf32>) {
  linalg.add ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.exp ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.map ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
    (%x: f32, %y: f32, %z: f32) {
      %d = arith.subf %x, %y : f32
      linalg.yield %d : f32
    }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction whose output was just filled with a constant starts from it
// (TVM's T.init); the fill goes.
// CHECK-LABEL: func.func @fill_then_matmul
// CHECK-NOT:     tir.block "T_full"
// CHECK:         tir.block "matmul"
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        arith.constant 0.000000e+00 : f32
func.func @fill_then_matmul(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x3xf32>)
  linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
  return
}

// -----

// Every named element-wise op: TOPI's names (div_unsigned is a second T_divide).
// CHECK-LABEL: func.func @named_elementwise
// CHECK:         tir.block "T_exp"
// CHECK:         tir.block "T_log"
// CHECK:         tir.block "T_abs"
// CHECK:         tir.block "T_ceil"
// CHECK:         tir.block "T_floor"
// CHECK:         tir.block "T_negative"
// CHECK:         tir.block "T_reciprocal"
// CHECK:         tir.block "T_round"
// CHECK:         tir.block "T_sqrt"
// CHECK:         tir.block "T_rsqrt"
// CHECK:         tir.block "T_square"
// CHECK:         tir.block "T_tanh"
// CHECK:         tir.block "T_erf"
// CHECK:         tir.block "T_add"
// CHECK:         tir.block "T_subtract"
// CHECK:         tir.block "T_multiply"
// CHECK:         tir.block "T_divide"
// CHECK:         tir.block "T_maximum"
// CHECK:         tir.block "T_minimum"
// CHECK:         tir.block "T_power"
// CHECK:         tir.block "T_divide_1"
// CHECK:         tir.block "T_where"
// CHECK-NOT:     linalg.
func.func @named_elementwise(%a: memref<4xf32>, %b: memref<4xf32>, %o: memref<4xf32>, %i: memref<4xi32>, %j: memref<4xi32>, %k: memref<4xi32>, %c: memref<4xi1>) {
  linalg.exp ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.log ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.abs ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.ceil ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.floor ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.negf ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.reciprocal ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.round ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.sqrt ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.rsqrt ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.square ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.tanh ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.erf ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.add ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.sub ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.mul ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.div ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.max ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.min ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.powf ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.div_unsigned ins(%i, %j : memref<4xi32>, memref<4xi32>) outs(%k : memref<4xi32>)
  linalg.select ins(%c, %a, %b : memref<4xi1>, memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
  return
}

// -----

// The rest of the matrix products: batch_reduce_matmul (reducing the batch too), batch_matvec, batch_vecmat, mmt4d, quantized_matmul, contract.
// CHECK-LABEL: func.func @more_products
// CHECK:         tir.block "matmul"
// CHECK:         tir.block "matmul_1"
// CHECK:         tir.block "matmul_2"
// CHECK:         tir.block "matmul_3"
// CHECK:         tir.block "matmul_4"
// CHECK:         tir.block "matmul_5"
// CHECK-NOT:     linalg.
func.func @more_products(%a: memref<2x4x5xf32>, %b: memref<2x5x3xf32>, %c: memref<4x3xf32>,
    %bm: memref<2x4x5xf32>, %bv: memref<2x5xf32>, %bo: memref<2x4xf32>, %bw: memref<2x4xf32>, %bwm: memref<2x4x5xf32>, %bwo: memref<2x5xf32>,
    %l: memref<2x3x4x1xf32>, %r: memref<2x3x4x1xf32>, %mo: memref<2x2x4x4xf32>,
    %qa: memref<4x5xi8>, %qb: memref<5x3xi8>, %qo: memref<4x3xi32>, %zp: i32) {
  linalg.batch_reduce_matmul ins(%a, %b : memref<2x4x5xf32>, memref<2x5x3xf32>) outs(%c : memref<4x3xf32>)
  linalg.batch_matvec ins(%bm, %bv : memref<2x4x5xf32>, memref<2x5xf32>) outs(%bo : memref<2x4xf32>)
  linalg.batch_vecmat ins(%bw, %bwm : memref<2x4xf32>, memref<2x4x5xf32>) outs(%bwo : memref<2x5xf32>)
  linalg.mmt4d ins(%l, %r : memref<2x3x4x1xf32>, memref<2x3x4x1xf32>) outs(%mo : memref<2x2x4x4xf32>)
  %z = arith.constant 0 : i32
  linalg.quantized_matmul ins(%qa, %qb, %z, %z : memref<4x5xi8>, memref<5x3xi8>, i32, i32) outs(%qo : memref<4x3xi32>)
  linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%qa, %qb : memref<4x5xi8>, memref<5x3xi8>) outs(%qo : memref<4x3xi32>)
  return
}

// -----

// More convolution layouts and pooling kinds.
// CHECK-LABEL: func.func @more_convs
// CHECK:         tir.block "conv1d_nwc_wcf"
// CHECK:         tir.block "conv2d"
// CHECK:         tir.block "conv2d_nhwc_fhwc"
// CHECK:         tir.block "conv3d_ndhwc_dhwcf"
// CHECK:         tir.block "depthwise_conv1d_nwc_wc"
// CHECK:         tir.block "pool_min"
// CHECK:         tir.block "pool_max"
// CHECK:         tir.block "pool_sum"
// CHECK-NOT:     linalg.
func.func @more_convs(%x1: memref<1x8x3xf32>, %w1: memref<3x3x4xf32>, %o1: memref<1x6x4xf32>,
    %x2: memref<8x8xf32>, %w2: memref<3x3xf32>, %o2: memref<6x6xf32>,
    %x3: memref<1x8x8x3xf32>, %w3: memref<4x3x3x3xf32>, %o3: memref<1x6x6x4xf32>,
    %x4: memref<1x4x4x4x2xf32>, %w4: memref<2x2x2x2x3xf32>, %o4: memref<1x3x3x3x3xf32>,
    %x5: memref<1x8x3xf32>, %w5: memref<3x3xf32>, %o5: memref<1x6x3xf32>,
    %k: memref<2x2xf32>, %p: memref<1x7x7x3xf32>, %k1: memref<2xf32>, %p1: memref<1x7x3xf32>,
    %x6: memref<1x4x4x4x2xf32>, %k3: memref<2x2x2xf32>, %p3: memref<1x3x3x3x2xf32>) {
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x1, %w1 : memref<1x8x3xf32>, memref<3x3x4xf32>) outs(%o1 : memref<1x6x4xf32>)
  linalg.conv_2d ins(%x2, %w2 : memref<8x8xf32>, memref<3x3xf32>) outs(%o2 : memref<6x6xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x3, %w3 : memref<1x8x8x3xf32>, memref<4x3x3x3xf32>) outs(%o3 : memref<1x6x6x4xf32>)
  linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%x4, %w4 : memref<1x4x4x4x2xf32>, memref<2x2x2x2x3xf32>) outs(%o4 : memref<1x3x3x3x3xf32>)
  linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x5, %w5 : memref<1x8x3xf32>, memref<3x3xf32>) outs(%o5 : memref<1x6x3xf32>)
  linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x3, %k : memref<1x8x8x3xf32>, memref<2x2xf32>) outs(%p : memref<1x7x7x3xf32>)
  linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x1, %k1 : memref<1x8x3xf32>, memref<2xf32>) outs(%p1 : memref<1x7x3xf32>)
  linalg.pooling_ndhwc_sum {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%x6, %k3 : memref<1x4x4x4x2xf32>, memref<2x2x2xf32>) outs(%p3 : memref<1x3x3x3x2xf32>)
  return
}

// -----

// No T.init where the fill is not the one the reduction starts from: a
// fill of another buffer, a write through a view of the output after the
// fill, a read through a view before the reduction (the copy of the view
// becomes a block), an output indexed by a reduction loop (the init would
// not run once per element). The fills stay blocks; the reductions have
// no init.
// CHECK-LABEL: func.func @fill_other_buffer
// CHECK:         tir.block "T_full"
// CHECK-NOT:     tir.init
// CHECK-LABEL: func.func @write_through_view
// CHECK:         tir.block "T_full"
// CHECK:         tir.block "T_full_1"
// CHECK-NOT:     tir.init
// CHECK-LABEL: func.func @read_through_view
// CHECK:         tir.block "T_full"
// CHECK:         tir.block "T_copy"
// CHECK-NOT:     tir.init
// CHECK-LABEL: func.func @reduce_loop_in_output
// CHECK:         tir.block "T_full"
// CHECK-NOT:     tir.init
// CHECK:         return
func.func @fill_other_buffer(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>, %d: memref<4x3xf32>) {
  %seven = arith.constant 7.0 : f32
  linalg.fill ins(%seven : f32) outs(%d : memref<4x3xf32>)
  linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
  return
}
func.func @write_through_view(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.subview %c[0, 0] [1, 3] [1, 1] : memref<4x3xf32> to memref<1x3xf32, strided<[3, 1]>>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x3xf32>)
  linalg.fill ins(%one : f32) outs(%s : memref<1x3xf32, strided<[3, 1]>>)
  linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
  return
}
func.func @read_through_view(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>, %d: memref<12xf32>) {
  %zero = arith.constant 0.0 : f32
  %flat = memref.collapse_shape %c [[0, 1]] : memref<4x3xf32> into memref<12xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x3xf32>)
  memref.copy %flat, %d : memref<12xf32> to memref<12xf32>
  linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
  return
}
func.func @reduce_loop_in_output(%a: memref<4x3xf32>, %c: memref<4x3xf32>) {
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%c : memref<4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x3xf32>) outs(%c : memref<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A copy into a window of a buffer (bufferized tensor.pad) is a block
// writing at the window's offsets, once the function has linalg ops
// converted; its view goes.
// CHECK-LABEL: func.func @pad_copy
// CHECK:         tir.block "T_full"
// CHECK:         tir.block "T_copy"(%v_ax0 = spatial(2, %ax0), %v_ax1 = spatial(3, %ax1))
// CHECK:           tir.store %{{.+}}, %arg1[%v_ax0 + 1, %v_ax1 + 1]
// CHECK-NOT:     memref.subview
// CHECK-NOT:     memref.copy
func.func @pad_copy(%x: memref<2x3xf32>, %p: memref<4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<4x5xf32>)
  %w = memref.subview %p[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %x, %w : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  return
}

// -----

// The remaining named ops, one each: the quantized, grouped, 1-D and 3-D
// convolutions, depthwise ones, every pooling kind and layout, batch
// products, fill_rng_2d with constant operands.
// CHECK-LABEL: func.func @remaining
// CHECK:         tir.block "matmul"
// CHECK:         tir.block "matmul_1"
// CHECK:         tir.block "conv1d"
// CHECK:         tir.block "conv3d"
// CHECK:         tir.block "conv1d_ncw_fcw"
// CHECK:         tir.block "conv2d_nhwc_hwcf_q"
// CHECK:         tir.block "conv2d_nhwc_fhwc_q"
// CHECK:         tir.block "conv2d_nchw_fchw_q"
// CHECK:         tir.block "conv2d_ngchw_fgchw"
// CHECK:         tir.block "conv2d_ngchw_gfchw"
// CHECK:         tir.block "conv2d_nhwgc_gfhwc"
// CHECK:         tir.block "conv2d_nhwgc_gfhwc_q"
// CHECK:         tir.block "conv2d_ngchw_gfchw_q"
// CHECK:         tir.block "conv3d_ndhwc_dhwcf_q"
// CHECK:         tir.block "conv3d_ncdhw_fcdhw"
// CHECK:         tir.block "depthwise_conv1d_ncw_cw"
// CHECK:         tir.block "depthwise_conv1d_nwc_wcm"
// CHECK:         tir.block "depthwise_conv2d_nchw_chw"
// CHECK:         tir.block "depthwise_conv2d_nhwc_hwc_q"
// CHECK:         tir.block "depthwise_conv2d_nhwc_hwcm"
// CHECK:         tir.block "depthwise_conv2d_nhwc_hwcm_q"
// CHECK:         tir.block "depthwise_conv3d_ndhwc_dhwc"
// CHECK:         tir.block "depthwise_conv3d_ncdhw_cdhw"
// CHECK:         tir.block "depthwise_conv3d_ndhwc_dhwcm"
// CHECK:         tir.block "pool_sum"
// CHECK:         tir.block "pool_max"
// CHECK:         tir.block "pool_max_1"
// CHECK:         tir.block "pool_min"
// CHECK:         tir.block "pool_sum_1"
// CHECK:         tir.block "pool_sum_2"
// CHECK:         tir.block "pool_max_2"
// CHECK:         tir.block "pool_min_1"
// CHECK:         tir.block "pool_max_3"
// CHECK:         tir.block "pool_min_2"
// CHECK:         tir.block "pool_max_4"
// CHECK:         tir.block "pool_min_3"
// CHECK-LABEL: func.func @fill_rng
// CHECK:         tir.block "compute"
// CHECK-NOT:     linalg.
func.func @remaining(%a0: memref<2x4x5xi8>, %a1: memref<2x5x3xi8>, %a2: memref<2x4x3xi32>, %a3: memref<2x2x3x4x1xf32>, %a4: memref<2x2x3x4x1xf32>, %a5: memref<2x2x2x4x4xf32>, %a6: memref<8xf32>, %a7: memref<3xf32>, %a8: memref<6xf32>, %a9: memref<5x5x5xf32>, %a10: memref<2x2x2xf32>, %a11: memref<4x4x4xf32>, %a12: memref<1x3x8xf32>, %a13: memref<4x3x3xf32>, %a14: memref<1x4x6xf32>, %a15: memref<1x8x8x3xi8>, %a16: memref<3x3x3x4xi8>, %a17: memref<1x6x6x4xi32>, %a18: memref<1x8x8x3xi8>, %a19: memref<4x3x3x3xi8>, %a20: memref<1x6x6x4xi32>, %a21: memref<1x3x8x8xi8>, %a22: memref<4x3x3x3xi8>, %a23: memref<1x4x6x6xi32>, %a24: memref<1x2x3x8x8xf32>, %a25: memref<4x2x3x3x3xf32>, %a26: memref<1x2x4x6x6xf32>, %a27: memref<1x2x3x8x8xf32>, %a28: memref<2x4x3x3x3xf32>, %a29: memref<1x2x4x6x6xf32>, %a30: memref<1x8x8x2x3xf32>, %a31: memref<2x4x3x3x3xf32>, %a32: memref<1x6x6x2x4xf32>, %a33: memref<1x8x8x2x3xi8>, %a34: memref<2x4x3x3x3xi8>, %a35: memref<1x6x6x2x4xi32>, %a36: memref<1x2x3x8x8xi8>, %a37: memref<2x4x3x3x3xi8>, %a38: memref<1x2x4x6x6xi32>, %a39: memref<1x4x4x4x2xi8>, %a40: memref<2x2x2x2x3xi8>, %a41: memref<1x3x3x3x3xi32>, %a42: memref<1x2x4x4x4xf32>, %a43: memref<3x2x2x2x2xf32>, %a44: memref<1x3x3x3x3xf32>, %a45: memref<1x3x8xf32>, %a46: memref<3x3xf32>, %a47: memref<1x3x6xf32>, %a48: memref<1x8x3xf32>, %a49: memref<3x3x2xf32>, %a50: memref<1x6x3x2xf32>, %a51: memref<1x3x8x8xf32>, %a52: memref<3x3x3xf32>, %a53: memref<1x3x6x6xf32>, %a54: memref<1x8x8x3xi8>, %a55: memref<3x3x3xi8>, %a56: memref<1x6x6x3xi32>, %a57: memref<1x8x8x3xf32>, %a58: memref<3x3x3x2xf32>, %a59: memref<1x6x6x3x2xf32>, %a60: memref<1x8x8x3xi8>, %a61: memref<3x3x3x2xi8>, %a62: memref<1x6x6x3x2xi32>, %a63: memref<1x4x4x4x2xf32>, %a64: memref<2x2x2x2xf32>, %a65: memref<1x3x3x3x2xf32>, %a66: memref<1x2x4x4x4xf32>, %a67: memref<2x2x2x2xf32>, %a68: memref<1x2x3x3x3xf32>, %a69: memref<1x4x4x4x2xf32>, %a70: memref<2x2x2x2x3xf32>, %a71: memref<1x3x3x3x2x3xf32>, %a72: memref<1x3x4x4xf32>, %a73: memref<2x2xf32>, %a74: memref<1x3x3x3xf32>, %a75: memref<1x4x4x3xf32>, %a76: memref<2x2xf32>, %a77: memref<1x3x3x3xf32>, %a78: memref<1x4x4x3xi32>, %a79: memref<2x2xi32>, %a80: memref<1x3x3x3xi32>, %a81: memref<1x4x4x3xi32>, %a82: memref<2x2xi32>, %a83: memref<1x3x3x3xi32>, %a84: memref<1x4x3xf32>, %a85: memref<2xf32>, %a86: memref<1x3x3xf32>, %a87: memref<1x3x4xf32>, %a88: memref<2xf32>, %a89: memref<1x3x3xf32>, %a90: memref<1x3x4xf32>, %a91: memref<2xf32>, %a92: memref<1x3x3xf32>, %a93: memref<1x4x3xf32>, %a94: memref<2xf32>, %a95: memref<1x3x3xf32>, %a96: memref<1x4x3xi32>, %a97: memref<2xi32>, %a98: memref<1x3x3xi32>, %a99: memref<1x4x3xi32>, %a100: memref<2xi32>, %a101: memref<1x3x3xi32>, %a102: memref<1x4x4x4x2xf32>, %a103: memref<2x2x2xf32>, %a104: memref<1x3x3x3x2xf32>, %a105: memref<1x4x4x4x2xf32>, %a106: memref<2x2x2xf32>, %a107: memref<1x3x3x3x2xf32>) {
  %zero32 = arith.constant 0 : i32
  linalg.quantized_batch_matmul  ins(%a0, %a1, %zero32, %zero32 : memref<2x4x5xi8>, memref<2x5x3xi8>, i32, i32) outs(%a2 : memref<2x4x3xi32>)
  linalg.batch_mmt4d  ins(%a3, %a4 : memref<2x2x3x4x1xf32>, memref<2x2x3x4x1xf32>) outs(%a5 : memref<2x2x2x4x4xf32>)
  linalg.conv_1d  ins(%a6, %a7 : memref<8xf32>, memref<3xf32>) outs(%a8 : memref<6xf32>)
  linalg.conv_3d  ins(%a9, %a10 : memref<5x5x5xf32>, memref<2x2x2xf32>) outs(%a11 : memref<4x4x4xf32>)
  linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a12, %a13 : memref<1x3x8xf32>, memref<4x3x3xf32>) outs(%a14 : memref<1x4x6xf32>)
  linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a15, %a16, %zero32, %zero32 : memref<1x8x8x3xi8>, memref<3x3x3x4xi8>, i32, i32) outs(%a17 : memref<1x6x6x4xi32>)
  linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a18, %a19, %zero32, %zero32 : memref<1x8x8x3xi8>, memref<4x3x3x3xi8>, i32, i32) outs(%a20 : memref<1x6x6x4xi32>)
  linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a21, %a22, %zero32, %zero32 : memref<1x3x8x8xi8>, memref<4x3x3x3xi8>, i32, i32) outs(%a23 : memref<1x4x6x6xi32>)
  linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a24, %a25 : memref<1x2x3x8x8xf32>, memref<4x2x3x3x3xf32>) outs(%a26 : memref<1x2x4x6x6xf32>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a27, %a28 : memref<1x2x3x8x8xf32>, memref<2x4x3x3x3xf32>) outs(%a29 : memref<1x2x4x6x6xf32>)
  linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a30, %a31 : memref<1x8x8x2x3xf32>, memref<2x4x3x3x3xf32>) outs(%a32 : memref<1x6x6x2x4xf32>)
  linalg.conv_2d_nhwgc_gfhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a33, %a34, %zero32, %zero32 : memref<1x8x8x2x3xi8>, memref<2x4x3x3x3xi8>, i32, i32) outs(%a35 : memref<1x6x6x2x4xi32>)
  linalg.conv_2d_ngchw_gfchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a36, %a37, %zero32, %zero32 : memref<1x2x3x8x8xi8>, memref<2x4x3x3x3xi8>, i32, i32) outs(%a38 : memref<1x2x4x6x6xi32>)
  linalg.conv_3d_ndhwc_dhwcf_q {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a39, %a40, %zero32, %zero32 : memref<1x4x4x4x2xi8>, memref<2x2x2x2x3xi8>, i32, i32) outs(%a41 : memref<1x3x3x3x3xi32>)
  linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a42, %a43 : memref<1x2x4x4x4xf32>, memref<3x2x2x2x2xf32>) outs(%a44 : memref<1x3x3x3x3xf32>)
  linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a45, %a46 : memref<1x3x8xf32>, memref<3x3xf32>) outs(%a47 : memref<1x3x6xf32>)
  linalg.depthwise_conv_1d_nwc_wcm {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a48, %a49 : memref<1x8x3xf32>, memref<3x3x2xf32>) outs(%a50 : memref<1x6x3x2xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a51, %a52 : memref<1x3x8x8xf32>, memref<3x3x3xf32>) outs(%a53 : memref<1x3x6x6xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a54, %a55, %zero32, %zero32 : memref<1x8x8x3xi8>, memref<3x3x3xi8>, i32, i32) outs(%a56 : memref<1x6x6x3xi32>)
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a57, %a58 : memref<1x8x8x3xf32>, memref<3x3x3x2xf32>) outs(%a59 : memref<1x6x6x3x2xf32>)
  linalg.depthwise_conv_2d_nhwc_hwcm_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a60, %a61, %zero32, %zero32 : memref<1x8x8x3xi8>, memref<3x3x3x2xi8>, i32, i32) outs(%a62 : memref<1x6x6x3x2xi32>)
  linalg.depthwise_conv_3d_ndhwc_dhwc {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a63, %a64 : memref<1x4x4x4x2xf32>, memref<2x2x2x2xf32>) outs(%a65 : memref<1x3x3x3x2xf32>)
  linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a66, %a67 : memref<1x2x4x4x4xf32>, memref<2x2x2x2xf32>) outs(%a68 : memref<1x2x3x3x3xf32>)
  linalg.depthwise_conv_3d_ndhwc_dhwcm {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a69, %a70 : memref<1x4x4x4x2xf32>, memref<2x2x2x2x3xf32>) outs(%a71 : memref<1x3x3x3x2x3xf32>)
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a72, %a73 : memref<1x3x4x4xf32>, memref<2x2xf32>) outs(%a74 : memref<1x3x3x3xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a75, %a76 : memref<1x4x4x3xf32>, memref<2x2xf32>) outs(%a77 : memref<1x3x3x3xf32>)
  linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a78, %a79 : memref<1x4x4x3xi32>, memref<2x2xi32>) outs(%a80 : memref<1x3x3x3xi32>)
  linalg.pooling_nhwc_min_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a81, %a82 : memref<1x4x4x3xi32>, memref<2x2xi32>) outs(%a83 : memref<1x3x3x3xi32>)
  linalg.pooling_nwc_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a84, %a85 : memref<1x4x3xf32>, memref<2xf32>) outs(%a86 : memref<1x3x3xf32>)
  linalg.pooling_ncw_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a87, %a88 : memref<1x3x4xf32>, memref<2xf32>) outs(%a89 : memref<1x3x3xf32>)
  linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a90, %a91 : memref<1x3x4xf32>, memref<2xf32>) outs(%a92 : memref<1x3x3xf32>)
  linalg.pooling_nwc_min {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a93, %a94 : memref<1x4x3xf32>, memref<2xf32>) outs(%a95 : memref<1x3x3xf32>)
  linalg.pooling_nwc_max_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a96, %a97 : memref<1x4x3xi32>, memref<2xi32>) outs(%a98 : memref<1x3x3xi32>)
  linalg.pooling_nwc_min_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a99, %a100 : memref<1x4x3xi32>, memref<2xi32>) outs(%a101 : memref<1x3x3xi32>)
  linalg.pooling_ndhwc_max {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a102, %a103 : memref<1x4x4x4x2xf32>, memref<2x2x2xf32>) outs(%a104 : memref<1x3x3x3x2xf32>)
  linalg.pooling_ndhwc_min {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a105, %a106 : memref<1x4x4x4x2xf32>, memref<2x2x2xf32>) outs(%a107 : memref<1x3x3x3x2xf32>)
  return
}

func.func @fill_rng(%o: memref<4x4xf32>) {
  %min = arith.constant -1.0 : f64
  %max = arith.constant 1.0 : f64
  %seed = arith.constant 7 : i32
  linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%o : memref<4x4xf32>)
  return
}

// -----

// Left as they are, with a remark: ops on tensors (bufferize first), ops
// that are not structured (no loop nest), bodies holding more than scalar
// arith and math, empty loop ranges. A dynamic loop range is converted:
// the loop runs to the size of an operand's dimension.
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x5xf32>
// CHECK:         linalg.softmax
// CHECK:         %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK:         tir.for %{{.*}} = 0 to %[[N]] {
// CHECK:           tir.block "T_copy"(%{{.*}} = spatial(%[[N]], %{{.*}}))
// CHECK:         linalg.generic
// CHECK:           tensor.extract
func.func @left_alone(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x3xf32>,
                      %s: tensor<4x3xf32>, %d: memref<?xf32>, %e: memref<?xf32>,
                      %t: tensor<4xf32>, %o: memref<4xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // expected-remark @+1 {{left as it is: it computes on tensors (bufferize first, as --tir-from-tensors does)}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-remark @+1 {{left as it is: not a structured op (no loop nest and body that a TensorIR block could take)}}
  %1 = linalg.softmax dimension(1) ins(%0 : tensor<4x3xf32>) outs(%s : tensor<4x3xf32>) -> tensor<4x3xf32>
  linalg.copy ins(%d : memref<?xf32>) outs(%e : memref<?xf32>)
  %k0 = memref.alloc() : memref<4x0xf32>
  %k1 = memref.alloc() : memref<0x3xf32>
  %kc = memref.alloc() : memref<4x3xf32>
  // expected-remark @+1 {{left as it is: no TensorIR block computes it (a loop range is empty)}}
  linalg.matmul ins(%k0, %k1 : memref<4x0xf32>, memref<0x3xf32>) outs(%kc : memref<4x3xf32>)
  // expected-remark @+1 {{left as it is: no TensorIR block computes it (its body reads a tensor with tensor.extract that is not one of its inputs)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%o : memref<4xf32>) {
  ^bb0(%y: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %t[%i] : tensor<4xf32>
    linalg.yield %v : f32
  }
  return %0, %1 : tensor<4x3xf32>, tensor<4x3xf32>
}
