// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// compute_at of an output block (C writes an argument).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs a block that is not an output block}}
    transform.tir.compute_at %c at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The loop contains the block.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs a loop that is not an ancestor of the block}}
    transform.tir.compute_at %b at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer (D) is not under the loop.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>, %E: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  tir.for %k = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "D"(%vk = spatial(8, %k)) {
      %b = tir.load %B[%vk] : memref<8xf32>
      tir.store %b, %E[%vk] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs all the consumers of block 'B' under loop 'j', but block 'D' is not}}
    transform.tir.compute_at %b at %j : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// An index outside the places between producers and consumers.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at got index 3; the valid ones are -1, -2 and [0, 0]}}
    transform.tir.compute_at %b at %j {index = 3} : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at of a reduction under a vectorized loop that would feed
// its reduce variable: S sums E[i, k] over k, and one iteration of the
// vectorized j produces E[i, j], so vk would be bound to j (a race).
func.func @f(%A: memref<4x8xf32>, %S: memref<4xf32>) {
  %E = tir.alloc_buffer : memref<4x8xf32>
  tir.for %i = 0 to 4 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 vectorized {
      tir.block "E"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        %e = math.exp %a : f32
        tir.store %e, %E[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "S"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<4xf32>
        }
        %s = tir.load %S[%vi] : memref<4xf32>
        %e = tir.load %E[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %e : f32
        tir.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.tir.get_block "E" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %e : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at would put block 'S' under loop 'j', which is vectorized (no reduction may run across its iterations), and feed it reduce variable 'vk' (a race where they run at once)}}
    transform.tir.reverse_compute_at %s at %l#1 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// compute_at of a reduction under a parallel loop that feeds none of its
// variables: every iteration of j would run the whole sum of S[i] at once.
func.func @f(%A: memref<4x8xf32>, %B: memref<4x8xf32>) {
  %S = tir.alloc_buffer : memref<4xf32>
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "S"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<4xf32>
        }
        %s = tir.load %S[%vi] : memref<4xf32>
        %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 parallel {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        %s = tir.load %S[%vi] : memref<4xf32>
        %d = arith.divf %a, %s : f32
        tir.store %d, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{compute_at would put reduction block 'S' under loop 'j', which is parallel (its iterations run at once), but the iterations would not write apart: each would run the reduction of the same elements}}
    transform.tir.compute_at %s at %l#1 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at of B under j after S went there: S's reduce variable
// runs across the iterations of j, so S[i] is a partial sum inside one.
func.func @f(%A: memref<4x8xf32>, %B: memref<4x8xf32>) {
  %E = tir.alloc_buffer : memref<4x8xf32>
  %S = tir.alloc_buffer : memref<4xf32>
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "E"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        %e = math.exp %a : f32
        tir.store %e, %E[%vi, %vj] : memref<4x8xf32>
      }
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(4, %i), %vk = reduce(8, %j)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<4xf32>
        }
        %s = tir.load %S[%vi] : memref<4xf32>
        %e = tir.load %E[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %e : f32
        tir.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %e = tir.load %E[%vi, %vj] : memref<4x8xf32>
        %s = tir.load %S[%vi] : memref<4xf32>
        %d = arith.divf %e, %s : f32
        tir.store %d, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.tir.get_block "E" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %e : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at needs the producers under loop 'j' to finish what block 'B' reads in one of its iterations, but reduce variable 'vk' of block 'S' runs across iterations of loop 'j' or a loop around it (the block would read a partial reduction)}}
    transform.tir.reverse_compute_at %b at %l#1 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at under the producers' column loop: one iteration
// writes column j, which the consumer's flat variable reaches at every
// 16th value (v mod 16 == j); the values between would read elements not
// yet written.
func.func @f(%X: memref<16x16xf32>, %Y: memref<256xf32>) {
  %temp = tir.alloc_buffer : memref<16x16xf32>
  tir.for %j = 0 to 16 {
    tir.for %i = 0 to 16 {
      tir.block "A"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %x = tir.load %X[%vi, %vj] : memref<16x16xf32>
        tir.store %x, %temp[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  tir.for %k = 0 to 256 {
    // expected-note @below {{block}}
    tir.block "B"(%v = spatial(256, %k)) {
      %t = tir.load %temp[%v floordiv 16, %v mod 16] : memref<16x16xf32>
      tir.store %t, %Y[%v] : memref<256xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %j, %i = transform.tir.get_loops %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at needs the producers under loop 'j' to write consecutive values of iteration variable 'v' of block 'B'}}
    transform.tir.reverse_compute_at %b at %j : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer whose flat variable wraps around the producer's buffer
// (v mod 16 over 32 values): two values read each element, which no
// domain of v inverts.
func.func @f(%X: memref<16xf32>, %Y: memref<32xf32>) {
  %temp = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 8 {
      tir.block "A"(%vi = spatial(16, %i * 8 + %j)) {
        %x = tir.load %X[%vi] : memref<16xf32>
        tir.store %x, %temp[%vi] : memref<16xf32>
      }
    }
  }
  tir.for %k = 0 to 32 {
    // expected-note @below {{block}}
    tir.block "B"(%v = spatial(32, %k)) {
      %t = tir.load %temp[%v mod 16] : memref<16xf32>
      tir.store %t, %Y[%v] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at cannot invert the access of block 'B': each index must access one element}}
    transform.tir.reverse_compute_at %b at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer reading a 3 x 3 window of the producer (a stencil): under the
// producers' inner loop one element of S is written, but each consumer
// iteration reads nine; the access is not inverted and the schedule refused
// (the differential tester found it accepted, reading S unwritten, while
// the digit inversion ignored the window's extent).
func.func @f(%A: memref<6x6xf32>, %B: memref<4x4xf32>) {
  %S = tir.alloc_buffer : memref<6x6xf32>
  tir.for %i = 0 to 6 {
    tir.for %j = 0 to 6 {
      tir.block "S"(%vi = spatial(6, %i), %vj = spatial(6, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<6x6xf32>
        tir.store %a, %S[%vi, %vj] : memref<6x6xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %n = tir.load %S[%vi, %vj + 1] : memref<6x6xf32>
        %s = tir.load %S[%vi + 2, %vj + 1] : memref<6x6xf32>
        %w = tir.load %S[%vi + 1, %vj] : memref<6x6xf32>
        %e = tir.load %S[%vi + 1, %vj + 2] : memref<6x6xf32>
        %ns = arith.addf %n, %s : f32
        %we = arith.addf %w, %e : f32
        %sum = arith.addf %ns, %we : f32
        tir.store %sum, %B[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at cannot invert the access of block 'B'}}
    transform.tir.reverse_compute_at %b at %j : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The consumer reads rows of 6 through the fused source 4 * v1 + v4
// (v4 in [0, 4)): row i holds the source's values 6 * i to 6 * i + 5,
// which start and end inside a value of v1 for odd i. The values of v1
// that cover a row would read the next row's elements, not yet written.
func.func @f(%A: memref<4x6xf32>, %C: memref<6x4xf32>) {
  %B = tir.alloc_buffer : memref<4x6xf32>
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 6 {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x6xf32>
        tir.store %a, %B[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  tir.for %o1 = 0 to 6 {
    tir.for %o4 = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "T"(%v1 = spatial(6, %o1), %v4 = spatial(4, %o4)) {
        %b = tir.load %B[(%v1 * 4 + %v4) floordiv 6, (%v1 * 4 + %v4) mod 6] : memref<4x6xf32>
        tir.store %b, %C[%v1, %v4] : memref<6x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at needs the producers under loop 'i' to write consecutive values of the fused iteration variables 'v1', 'v4' of block 'T'}}
    transform.tir.reverse_compute_at %t at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The producer's predicate keeps half of each row (vj < 4 of a domain of
// 8): under loop i it writes B[i, 0:4], and the consumer reading the whole
// row would read elements the predicate leaves out.
func.func @f(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  %B = tir.alloc_buffer : memref<4x8xf32>
  // expected-note @below {{loop}}
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) where (%j <= 3) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<4x8xf32>
        tir.store %b, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reverse_compute_at needs the producers under loop 'i' to write a dense box in one iteration}}
    transform.tir.reverse_compute_at %c at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The scope is not a stage pipeline: block W overwrites A after block B
// read it (a write-after-read dependence), so moving computation between
// the stages could read A's new values.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "W"(%vi = spatial(8, %i)) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs a scope that is a stage pipeline (TVM: no write-after-read dependence), but block 'W' writes a buffer that block 'B' before it reads}}
    transform.tir.compute_at %b at %j : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at of a padding block under its input's copy: the border
// of P (vh = 0 and 9) reads nothing the copy writes, so it would never run
// (TVM drops those iterations, and P's border is left unwritten).
func.func @pad_border(%X: memref<8xf32> {tir.name = "X"}, %P: memref<10xf32> {tir.name = "P"}) {
  %C = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %x = tir.load %X[%vi] : memref<8xf32>
      tir.store %x, %C[%vi] : memref<8xf32>
    }
  }
  tir.for %h = 0 to 10 {
    // expected-note @below {{block}}
    tir.block "pad"(%vh = spatial(10, %h)) {
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %lo = arith.cmpi sle, %c1, %vh : index
      %hi = arith.cmpi slt, %vh, %c9 : index
      %in = arith.andi %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %x = tir.load %C[%vh - 1] : memref<8xf32>
        scf.yield %x : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vh] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.tir.get_block "pad" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_at would leave out iterations of block 'pad': 'vh' runs over [0, 10), but only [1, 9) read what the producers write under loop 'i' (the others read none of it, and would never run)}}
    transform.tir.reverse_compute_at %p at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}
