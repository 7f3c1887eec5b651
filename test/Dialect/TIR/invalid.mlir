// One case per verifier rule of the tir dialect. Programs TensorIR accepts
// (and that earlier versions refused) are in tensorir-rules.mlir.
// RUN: tir-opt %s -split-input-file -verify-diagnostics

// Rule: the block body uses only its own iteration variables.
func.func @body_uses_loop_var(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @+1 {{enclosing block is here}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %c = arith.constant 0.0 : f32
      // expected-error @+1 {{uses the induction variable of a tir.for from outside its enclosing block 'B'}}
      tir.store %c, %A[%i] : memref<8xf32>
    }
  }
  return
}

// -----

// Rule: an iteration domain is not inverted (empty is allowed).
func.func @inverted_domain(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{iteration variable #0 has an inverted domain [5, 4): its upper bound is below its lower bound}}
    tir.block "B"(%vi = spatial(5 : 4, %i)) where(%i < 1) {
    }
  }
  return
}

// -----

// Rule: the number of indices equals the buffer's rank.
func.func @wrong_rank(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      // expected-error @+1 {{expects 2 indices for a rank-2 buffer, got 1}}
      %x = tir.load %A[%vi] : memref<8x8xf32>
    }
  }
  return
}

// -----

// Rule: a region has one dimension per buffer dimension.
func.func @region_wrong_rank(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{has a write region with 1 dimensions for a rank-2 buffer}}
    tir.block "B"(%vi = spatial(8, %i)) reads() writes(%A[%vi] : memref<8x8xf32>) {
    }
  }
  return
}

// -----

// Rule: init comes before the block's body (only buffer allocations and
// matches may precede it).
func.func @init_not_first(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = reduce(8, %i)) {
      %c = arith.constant 0.0 : f32
      // expected-note @+1 {{first statement of the body}}
      tir.store %c, %A[%vi] : memref<8xf32>
      // expected-error @+1 {{must come before the body of its tir.block (only buffer allocations and matches may precede it)}}
      tir.init {
      }
    }
  }
  return
}

// -----

// Rule: a block has at most one init.
func.func @init_twice(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = reduce(8, %i)) {
      tir.init {
      }
      // expected-error @+1 {{appears twice in its tir.block; a block has at most one init}}
      tir.init {
      }
    }
  }
  return
}

// -----

// Rule: init lives directly in a block.
func.func @init_outside_block() {
  // expected-error @+1 {{expects parent op 'tir.block'}}
  tir.init {
  }
  return
}

// -----

// Rule: a thread tag names an existing thread axis.
func.func @unknown_thread_tag() {
  // expected-error @+1 {{unknown thread tag 'threadIdx.w'; expected one of blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread, vthread.{x,y,z}}}
  tir.for %i = 0 to 8 thread_binding<"threadIdx.w"> {
  }
  return
}

// -----

// Rule: a thread_binding loop has a tag (generic form, since the custom form
// always prints one).
func.func @thread_binding_without_tag() {
  // expected-error @+1 {{a thread_binding loop needs a thread tag}}
  "tir.for"() <{static_bounds = array<i64: 0, 8>, kind = #tir<for_kind thread_binding>}> ({
  ^bb0(%i: index):
  }) : () -> ()
  return
}

// -----

// Rule: only thread_binding loops carry a thread tag.
func.func @tag_on_parallel_loop() {
  // expected-error @+1 {{only a thread_binding loop has a thread tag, but this loop is parallel}}
  "tir.for"() <{static_bounds = array<i64: 0, 8>, kind = #tir<for_kind parallel>, thread = "threadIdx.x"}> ({
  ^bb0(%i: index):
  }) : () -> ()
  return
}

// -----

// Rule: a loop's extent is not negative.
func.func @negative_extent() {
  // expected-error @+1 {{has a negative extent: lower bound 8 is above upper bound 2}}
  tir.for %i = 8 to 2 {
  }
  return
}

// -----

// Rule: a loop has one index induction variable.
func.func @loop_without_iv() {
  // expected-error @+1 {{expects its body to have exactly one 'index' argument, the induction variable}}
  "tir.for"() <{static_bounds = array<i64: 0, 8>}> ({
  ^bb0(%i: i32):
  }) : () -> ()
  return
}

// -----

// Rule: dynamic bounds match the '?' entries.
func.func @dynamic_bound_mismatch(%n: index) {
  // expected-error @+1 {{expects one dynamic bound operand per dynamic entry of 'static_bounds': 0 dynamic entries but 1 operands}}
  "tir.for"(%n) <{static_bounds = array<i64: 0, 8>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
  return
}

// -----

// Rule: one binding per iteration variable (generic form).
func.func @binding_count(%n: index) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects one binding per iteration variable: 1 iteration variables, 2 bindings}}
    "tir.block"(%i) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0) -> (d0, d0)>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> ({
    ^bb0(%vi: index):
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: one index body argument per iteration variable (generic form).
func.func @iter_var_count(%n: index) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects one 'index' body argument per iteration variable: 1 iteration variables, 0 arguments}}
    "tir.block"(%i) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> ({
    ^bb0:
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: a store's value has the buffer's element type (generic form).
func.func @store_type_mismatch(%A: memref<8xf32>, %v: f16) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      // expected-error @+1 {{stores a value of type 'f16' into a buffer of 'f32'}}
      "tir.store"(%v, %A, %vi) <{map = affine_map<(d0) -> (d0)>}> : (f16, memref<8xf32>, index) -> ()
    }
  }
  return
}

// -----

// Rule: a load's result has the buffer's element type (generic form).
func.func @load_type_mismatch(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      // expected-error @+1 {{result type 'i32' does not match the buffer's element type 'f32'}}
      %x = "tir.load"(%A, %vi) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index) -> i32
    }
  }
  return
}

// -----

// Rule: a buffer's memory space is a storage scope (a rank, optionally
// tagged: "global.vtcm" and "shared.dyn" are; "texture" is not).
func.func @unknown_scope() {
  %T = tir.alloc_buffer : memref<8xf32, "global.vtcm">
  // expected-error @+1 {{the memory space of a tir buffer is its storage scope: "global", "shared", "local" or "warp", optionally followed by a tag}}
  %S = tir.alloc_buffer : memref<8xf32, "texture">
  return
}

// -----

// Rule: alloc_buffer gives one size per dynamic dimension.
func.func @alloc_sizes(%n: index) {
  // expected-error @+1 {{expects one size operand per dynamic dimension of 'memref<?x?xf32>': 2 expected, got 1}}
  %S = tir.alloc_buffer(%n) : memref<?x?xf32>
  return
}

// -----

// Rule: alloc_buffer sits in a block or a function body.
func.func @alloc_in_loop() {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{must be directly inside a tir.block or a function body (the root block), not inside 'tir.for'}}
    %S = tir.alloc_buffer : memref<8xf32>
  }
  return
}

// -----

// Rule: match_buffer's result shape is the region's shape.
func.func @match_shape(%A: memref<64x64xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      // expected-error @+1 {{result shape 'memref<16x32xf32, strided<[64, 1], offset: ?>>' does not match the region's extents [16, 64]}}
      %M = tir.match_buffer %A[%vi * 16 : %vi * 16 + 16, 0 : 64] : memref<64x64xf32> -> memref<16x32xf32, strided<[64, 1], offset: ?>>
    }
  }
  return
}

// -----

// Rule: a view's axis separators are ascending positions within its rank.
func.func @match_separators(%A: memref<64x64xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      // expected-error @+1 {{expects axis_separators in ascending order between 0 and the view's rank (2), got array<i64: 3>}}
      %M = tir.match_buffer %A[%vi * 16 : %vi * 16 + 16, 0 : 64] {axis_separators = array<i64: 3>} : memref<64x64xf32> -> memref<16x64xf32, strided<[64, 1], offset: ?>>
    }
  }
  return
}

// -----

// Rule: match_buffer keeps the element type.
func.func @match_element_type(%A: memref<64x64xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      // expected-error @+1 {{result element type 'f16' differs from the source element type 'f32'}}
      %M = tir.match_buffer %A[%vi * 16 : %vi * 16 + 16, 0 : 64] : memref<64x64xf32> -> memref<16x64xf16, strided<[64, 1], offset: ?>>
    }
  }
  return
}

// -----

// Rule: match_buffer lives in a block.
func.func @match_outside_block(%A: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{must be directly inside a tir.block}}
  %M = tir.match_buffer %A[%c0 : %c0 + 16, 0 : 64] : memref<64x64xf32> -> memref<16x64xf32, strided<[64, 1], offset: ?>>
  return
}

// -----

// Rule: static_domains holds two entries per iteration variable (generic form).
func.func @gen_domains(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects 'static_domains' to hold a lower and an upper bound per iteration variable: 2 entries expected, got 1}}
    "tir.block"(%i) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0>, bindings = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> ({
    ^bb0(%vi: index):
      %x = tir.load %A[%vi] : memref<8xf32>
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: one region per read buffer (generic form).
func.func @gen_regions(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects one read region per read buffer}}
    "tir.block"(%i, %A) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0) -> (d0)>, read_regions = [], operandSegmentSizes = array<i32: 0, 1, 0, 0, 1, 0>}> ({
    ^bb0(%vi: index):
    }) : (index, memref<8xf32>) -> ()
  }
  return
}

// -----

// Rule: one binding value per map input (generic form).
func.func @gen_bindings(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects 2 binding values for its bindings, got 1}}
    "tir.block"(%i) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0, d1) -> (d0)>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> ({
    ^bb0(%vi: index):
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: regions are written over the block's iteration variables (generic form).
func.func @gen_region_dims(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects read regions over the block's 1 iteration variables and 0 region values}}
    "tir.block"(%i, %A) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0) -> (d0)>, read_regions = [affine_map<(d0, d1) -> (d0, 1)>], write_regions = [], operandSegmentSizes = array<i32: 0, 1, 0, 0, 1, 0>}> ({
    ^bb0(%vi: index):
    }) : (index, memref<8xf32>) -> ()
  }
  return
}

// -----

// Rule: static_bounds holds a lower and an upper bound (generic form).
func.func @gen_bounds(%A: memref<8xf32>) {
  // expected-error @+1 {{expects 'static_bounds' to hold a lower and an upper bound, got 1 entries}}
  "tir.for"() <{static_bounds = array<i64: 0>}> ({
  ^bb0(%i: index):
    %x = tir.load %A[%i] : memref<8xf32>
  }) : () -> ()
  return
}

// -----

// Rule: the predicate ranges over the binding values (generic form).
func.func @gen_predicate(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @+1 {{expects the predicate over the same values as the bindings}}
    "tir.block"(%i) <{block_name = "B", iter_types = [#tir<iter_type spatial>], static_domains = array<i64: 0, 8>, bindings = affine_map<(d0) -> (d0)>, predicate = [affine_set<(d0, d1) : (d0 >= 0)>], operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> ({
    ^bb0(%vi: index):
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: a load has one operand per map input (generic form).
func.func @gen_load_operands(%A: memref<8xf32>) {
  // expected-error @+1 {{expects 1 index operands for its map, got 0}}
  %x = "tir.load"(%A) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>) -> f32
  return
}

// -----

// Rule: a parameter's tir.name is an identifier.
// expected-error @+1 {{'tir.name' of argument 1 must be a string that is an identifier (letters, digits, '_', not starting with a digit)}}
func.func @bad_name(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B 2"}) {
  return
}

// -----

// Rule: a parameter's tir.name is a string.
// expected-error @+1 {{'tir.name' of argument 0 must be a string that is an identifier}}
func.func @name_not_string(%A: memref<8xf32> {tir.name = 3 : i32}) {
  return
}

// -----

// Rule: tir knows only the tir.name argument attribute.
// expected-error @+1 {{unknown tir argument attribute 'tir.label'}}
func.func @unknown_arg_attr(%A: memref<8xf32> {tir.label = "A"}) {
  return
}

// -----

// Rule: allocate_const's data has the buffer's shape and element type.
func.func @const_data_mismatch() {
  // expected-error @+1 {{data of type 'tensor<2xf32>' does not match the buffer type 'memref<3xf32>'}}
  %K = "tir.allocate_const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> memref<3xf32>
  return
}

// -----

// Rule: allocate_const lives where alloc_buffer lives.
func.func @const_in_loop() {
  tir.for %i = 0 to 2 {
    // expected-error @+1 {{must be directly inside a tir.block or a function body}}
    %K = tir.allocate_const : memref<2xf32> = dense<[1.0, 2.0]>
  }
  return
}

// -----

// Rule: a tir.call's args list one position per operand.
func.func @call_args_mismatch(%A: memref<4xf32>) {
  // expected-error @+1 {{'args' has 0 operand positions for 1 operands}}
  "tir.call"(%A) {callee = "f", args = []} : (memref<4xf32>) -> ()
  return
}

// -----

// Rule: a tir.call returns at most one value.
func.func @call_two_results() {
  // expected-error @+1 {{returns at most one value, got 2}}
  %a, %b = tir.call "f"() : () -> (i32, i32)
  return
}

// -----

// The generic form does not go through the custom parsers: the verifier
// checks the divisors (the lowering divides by them).
#bad_binding = affine_map<(d0) -> (d0 floordiv 0)>
"func.func"() <{function_type = (memref<8xf32>) -> (), sym_name = "zero_divisor_binding"}> ({
^bb0(%A: memref<8xf32>):
  tir.for %i = 0 to 8 {
    // expected-error @below {{'tir.block' op 'floordiv' by 0 in 'bindings'; the divisor must be positive}}
    "tir.block"(%i) <{bindings = #bad_binding, block_name = "B", iter_types = [#tir<iter_type spatial>], operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>, static_domains = array<i64: 0, 8>, var_names = ["vi"]}> ({
    ^bb0(%vi: index):
    }) : (index) -> ()
  }
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @negative_modulus_in_load(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      // expected-error @below {{'tir.load' op 'mod' by -3 in 'map'; the divisor must be positive}}
      %a = "tir.load"(%A, %vi) <{map = affine_map<(d0) -> (d0 mod -3)>}> : (memref<8xf32>, index) -> f32
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @zero_ceildiv_in_predicate(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @below {{'tir.block' op 'ceildiv' by 0 in 'predicate'; the divisor must be positive}}
    "tir.block"(%i) <{bindings = affine_map<(d0) -> (d0)>, block_name = "B", iter_types = [#tir<iter_type spatial>], operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>, predicate = [affine_set<(d0) : (d0 ceildiv 0 >= 0)>], static_domains = array<i64: 0, 8>, var_names = ["vi"]}> ({
    ^bb0(%vi: index):
    }) : (index) -> ()
  }
  return
}

// -----

// Rule: tir.dim_vars is on a buffer argument.
// expected-error @below {{'tir.dim_vars' of argument 0 is only allowed on a buffer (memref) argument}}
func.func @dim_vars_on_scalar(%n: index {tir.dim_vars = ["n"]}) {
  return
}

// -----

// Rule: tir.dim_vars is an array of strings.
// expected-error @below {{'tir.dim_vars' of argument 0 must be an array of strings, one per dimension}}
func.func @dim_vars_not_strings(%A: memref<?xf32> {tir.dim_vars = [1]}) {
  return
}

// -----

// Rule: tir.dim_vars has one entry per dimension.
// expected-error @below {{'tir.dim_vars' of argument 0 has 1 entries for a rank-2 buffer (one per dimension)}}
func.func @dim_vars_short(%A: memref<?x?xf32> {tir.dim_vars = ["n"]}) {
  return
}

// -----

// Rule: each entry is "" or an identifier.
// expected-error @below {{'tir.dim_vars' of argument 0 names dimension 0 '2n', which is neither an identifier nor an affine form}}
func.func @dim_vars_not_identifier(%A: memref<?xf32> {tir.dim_vars = ["2n"]}) {
  return
}

// -----

// Rule: only dynamic dimensions are named.
// expected-error @below {{'tir.dim_vars' of argument 0 names dimension 1 'n', but that dimension is static (8); only dynamic dimensions are named}}
func.func @dim_vars_static(%A: memref<?x8xf32> {tir.dim_vars = ["m", "n"]}) {
  return
}

// -----

// Rule: a name that is another parameter's names an integer scalar.
// expected-error @below {{'tir.dim_vars' of argument 1 names dimension 0 'A', the name of argument 0, which is not an integer or index scalar}}
func.func @dim_vars_names_buffer(%A: memref<?xf32> {tir.name = "A"},
                                 %B: memref<?xf32> {tir.name = "B", tir.dim_vars = ["A"]}) {
  return
}

// -----

// tir.declared_layout: the declared type's element type differs from the
// parameter's.
// expected-error @below {{'tir.declared_layout' of argument 0 must be {type = <static memref of the argument's element type>, index_map = <affine map from its indices to the argument's>, pad_value = <optional constant or affine map to one value>}}}
func.func @declared_element(%A: memref<4x4xf32> {tir.declared_layout = {type = memref<16xi32>, index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>}}) {
  return
}

// -----

// tir.declared_layout: the index map does not reach the parameter's rank.
// expected-error @below {{'tir.declared_layout' of argument 0 must be}}
func.func @declared_map(%A: memref<4x4xf32> {tir.declared_layout = {type = memref<16xf32>, index_map = affine_map<(d0) -> (d0)>}}) {
  return
}

// -----

// tir.declared_layout: a pad value of another type.
// expected-error @below {{'tir.declared_layout' of argument 0 must be}}
func.func @declared_pad(%A: memref<4x4xf32> {tir.declared_layout = {type = memref<14xf32>, index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = 0 : i32}}) {
  return
}
