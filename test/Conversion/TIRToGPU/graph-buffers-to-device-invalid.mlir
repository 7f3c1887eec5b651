// RUN: tir-opt %s --split-input-file --verify-diagnostics --tir-graph-buffers-to-device

func.func @reads_on_host(%x: memref<4xf32>, %out: memref<f32> {tir.result}) attributes {tir.graph} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{graph function 'reads_on_host' (built for a GPU) reads or writes tensor data on the host ('memref.load'); its tensors live in GPU memory, where only kernels (the prim_funcs it calls) read them}}
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

func.func private @extern_lib(%a: memref<4xf32>)
func.func @extern_call(%x: memref<4xf32>) attributes {tir.graph} {
  // expected-error @+1 {{graph function 'extern_call' (built for a GPU) passes tensors to 'extern_lib', a function the module does not define, which would run on the host}}
  call @extern_lib(%x) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @stack(%x: memref<4xf32>) attributes {tir.graph} {
  // expected-error @+1 {{graph function 'stack' (built for a GPU) allocates a tensor on the host stack (memref.alloca); its tensors live in GPU memory}}
  %t = memref.alloca() : memref<4xf32>
  return
}

// -----

func.func @strided_copy(%x: memref<8xf32>, %out: memref<4xf32> {tir.result}) attributes {tir.graph} {
  %v = memref.subview %x[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  // expected-error @+1 {{graph function 'strided_copy' (built for a GPU) copies a view of a tensor ('memref<4xf32, strided<[2]>>' to 'memref<4xf32>'); GPU copies take whole, contiguous tensors}}
  memref.copy %v, %out : memref<4xf32, strided<[2]>> to memref<4xf32>
  return
}

// -----

memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @mutable_global(%x: memref<4xf32>) attributes {tir.graph} {
  // expected-error @+1 {{graph function 'mutable_global' (built for a GPU) reads global 'state', which is no constant tensor of 1-, 8-, 16-, 32- or 64-bit numbers; only those are copied to GPU memory}}
  %g = memref.get_global @state : memref<4xf32>
  return
}

// -----

llvm.mlir.global external @__tir_packed_call() : !llvm.ptr
func.func @packed(%x: memref<4xf32>) attributes {tir.graph} {
  // expected-error @+1 {{graph function 'packed' (built for a GPU) calls a packed function (R.call_dps_packed, R.call_pure_packed), which runs on the host and would read GPU memory there; packed functions are called on CPU builds only}}
  %hook = llvm.mlir.addressof @__tir_packed_call : !llvm.ptr
  return
}

// -----

memref.global "private" constant @odd : memref<4xi24> = dense<1>
func.func @odd_width(%x: memref<4xf32>) attributes {tir.graph} {
  // expected-error @+1 {{graph function 'odd_width' (built for a GPU) reads global 'odd', which is no constant tensor of 1-, 8-, 16-, 32- or 64-bit numbers}}
  %g = memref.get_global @odd : memref<4xi24>
  return
}

// -----

func.func @through_pointer(%x: memref<4xf32>) attributes {tir.graph} {
  %i = memref.extract_aligned_pointer_as_index %x : memref<4xf32> -> index
  %n = arith.index_cast %i : index to i64
  %p = llvm.inttoptr %n : i64 to !llvm.ptr
  // expected-error @+1 {{graph function 'through_pointer' (built for a GPU) reads or writes tensor data on the host ('llvm.load')}}
  %v = llvm.load %p : !llvm.ptr -> f32
  return
}

// -----

func.func @cast_view(%x: memref<8xf32>, %out: memref<4xf32> {tir.result}) attributes {tir.graph} {
  %v = memref.subview %x[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %c = memref.cast %v : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[1], offset: ?>>
  %w = memref.cast %c : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
  // expected-error @+1 {{graph function 'cast_view' (built for a GPU) copies a view of a tensor}}
  memref.copy %w, %out : memref<4xf32> to memref<4xf32>
  return
}
