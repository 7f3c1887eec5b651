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

// Left as they are, with a remark: ops on tensors (bufferize first), ops
// that are not structured (no loop nest), dynamic loop ranges, bodies
// holding more than scalar arith and math.
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x5xf32>
// CHECK:         linalg.softmax
// CHECK:         linalg.copy ins(%{{.*}} : memref<?xf32>)
// CHECK:         linalg.generic
// CHECK:           tensor.extract
func.func @left_alone(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x3xf32>,
                      %s: tensor<4x3xf32>, %d: memref<?xf32>, %e: memref<?xf32>,
                      %t: tensor<4xf32>, %o: memref<4xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // expected-remark @+1 {{left as it is: it computes on tensors (bufferize first, as --tir-from-tensors does)}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-remark @+1 {{left as it is: not a structured op (no loop nest and body that a TensorIR block could take)}}
  %1 = linalg.softmax dimension(1) ins(%0 : tensor<4x3xf32>) outs(%s : tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-remark @+1 {{left as it is: no TensorIR block computes it (its loop ranges are not static)}}
  linalg.copy ins(%d : memref<?xf32>) outs(%e : memref<?xf32>)
  // expected-remark @+1 {{left as it is: no TensorIR block computes it (its body holds 'tensor.extract', which is not scalar arith or math)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%o : memref<4xf32>) {
  ^bb0(%y: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %t[%i] : tensor<4xf32>
    linalg.yield %v : f32
  }
  return %0, %1 : tensor<4x3xf32>, tensor<4x3xf32>
}
