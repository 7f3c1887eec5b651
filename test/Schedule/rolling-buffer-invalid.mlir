// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// An index past the block's writes.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %b = tir.load %B[%vi] : memref<8xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: block 'B' writes 1 buffers; there is no write buffer 1}}
    transform.tir.rolling_buffer %b {write_buffer_index = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// The output is the caller's: an output block keeps its buffer whole.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: block 'C' is an output block: it writes buffer 'C', which its scope does not allocate}}
    transform.tir.rolling_buffer %c {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// A second writer of the buffer would see the ring's reuse.
func.func @f(%A: memref<10xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 2 {
    tir.for %x = 0 to 6 {
      // expected-note @below {{block}}
      tir.block "B0"(%vi = spatial(10, %i * 4 + %x)) {
        %a = tir.load %A[%vi] : memref<10xf32>
        tir.store %a, %B[%vi] : memref<10xf32>
      }
    }
    tir.for %x = 0 to 6 {
      tir.block "B1"(%vi = spatial(10, %i * 4 + %x)) {
        %b = tir.load %B[%vi] : memref<10xf32>
        %s = arith.addf %b, %b : f32
        tir.store %s, %B[%vi] : memref<10xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i * 4 + %x)) {
        %b = tir.load %B[%vi + 2] : memref<10xf32>
        tir.store %b, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B0" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: block 'B0' must have only read-after-write dependences, but block 'B1' writes a buffer it writes}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Producer and consumer in loop nests of their own (no compute_at): no
// loop holds both.
func.func @f(%A: memref<10xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(10, %i)) {
      %a = tir.load %A[%vi] : memref<10xf32>
      tir.store %a, %B[%vi] : memref<10xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %b = tir.load %B[%vi + 2] : memref<10xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: the lowest common ancestor of block 'B' and its consumers is not a loop (compute_at the block under a loop of its consumers first)}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Tiles that do not overlap (a window of 4 every 4): nothing to roll.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 2 {
    tir.for %x = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i * 4 + %x)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vi] : memref<8xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i * 4 + %x)) {
        %b = tir.load %B[%vi] : memref<8xf32>
        tir.store %b, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: no dimension of buffer 'B' rolls: the windows block 'B' writes under loop 'i' do not overlap from one iteration of an enclosing loop to the next}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// A window that starts at `i * 4 + 1`: not the rolling pattern.
func.func @f(%A: memref<12xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<12xf32>
  tir.for %i = 0 to 2 {
    tir.for %x = 0 to 6 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(12, %i * 4 + %x + 1)) {
        %a = tir.load %A[%vi] : memref<12xf32>
        tir.store %a, %B[%vi] : memref<12xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i * 4 + %x)) {
        %b = tir.load %B[%vi + 3] : memref<12xf32>
        tir.store %b, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: the window block 'B' writes of buffer 'B' must start at `loop * stride` (or a constant) with a constant extent in every dimension}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Rolled already: a second ring (here on the same dimension) would drop
// what the first keeps.
func.func @f(%A: memref<10xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 2 {
    tir.for %x = 0 to 6 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(10, %i * 4 + %x)) {
        %a = tir.load %A[%vi] : memref<10xf32>
        tir.store %a, %B[%vi] : memref<10xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i * 4 + %x)) {
        %b = tir.load %B[%vi + 2] : memref<10xf32>
        tir.store %b, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    // expected-error @below {{rolling_buffer: block 'B' writes buffer 'B' at an index modulo a size (a rolling buffer already?); its windows must start at plain indices}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// A vectorized tile loop runs its windows at once: none can reuse the
// previous one's rows.
func.func @f(%A: memref<10xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<10xf32>
  // expected-note @below {{loop}}
  tir.for %i = 0 to 2 vectorized {
    tir.for %x = 0 to 6 {
      tir.block "B"(%vi = spatial(10, %i * 4 + %x)) {
        %a = tir.load %A[%vi] : memref<10xf32>
        tir.store %a, %B[%vi] : memref<10xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i * 4 + %x)) {
        %b = tir.load %B[%vi + 2] : memref<10xf32>
        tir.store %b, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: loop 'i' runs its iterations at once, but each window of block 'B' reuses what the previous iteration computed}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// A producer that writes three rows per instance (loops inside it): the
// windows overlap by two rows, and skipping the recomputed rows would drop
// whole instances, the fresh row with them.
func.func @f(%A: memref<11x4xf32>, %B: memref<9x4xf32>) {
  %S = tir.alloc_buffer : memref<11x4xf32>
  tir.for %i = 0 to 9 {
    // expected-note @below {{block}}
    tir.block "S"(%v0 = spatial(9, %i)) reads(%A[%v0 : %v0 + 3, 0 : 4] : memref<11x4xf32>) writes(%S[%v0 : %v0 + 3, 0 : 4] : memref<11x4xf32>) {
      tir.for %ax0 = 0 to 3 {
        tir.for %ax1 = 0 to 4 {
          %a = tir.load %A[%v0 + %ax0, %ax1] : memref<11x4xf32>
          tir.store %a, %S[%v0 + %ax0, %ax1] : memref<11x4xf32>
        }
      }
    }
    tir.for %j = 0 to 4 {
      tir.block "B"(%vi = spatial(9, %i), %vj = spatial(4, %j)) {
        %0 = tir.load %S[%vi, %vj] : memref<11x4xf32>
        %1 = tir.load %S[%vi + 2, %vj] : memref<11x4xf32>
        %2 = arith.addf %0, %1 : f32
        tir.store %2, %B[%vi, %vj] : memref<9x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{rolling_buffer: block 'S' writes more than one index of buffer 'S' on dimension 0 per instance (loops inside it), but the windows overlap there and the recomputed part is skipped by whole instances}}
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}
