//===- Passes.td - conversions out of tir ------------------*- tablegen -*-===//

#ifndef TENSORIR_CONVERSION_PASSES_TD
#define TENSORIR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTIRToSCFPass : Pass<"convert-tir-to-scf"> {
  let summary = "Lower tir loops, blocks and accesses to scf, arith and memref";
  let description = [{
    Flattens a scheduled tir program into ordinary loops:

    - `tir.init` becomes a guarded region first (as `--tir-lower-init`);
    - every `tir.block` is inlined where it stands: its iteration variables
      are replaced by their bindings, expanded to `arith` ops over the loop
      variables, and its predicate becomes an `scf.if` around the body;
    - `tir.alloc_buffer` becomes `memref.alloca` when the buffer is static
      and at most 64 KiB, and `memref.alloc` + `memref.dealloc` around the
      scope (block or function body) otherwise;
    - `tir.for` becomes `scf.parallel` for `parallel` loops and `scf.for`
      otherwise; a `vectorized` or `unrolled` loop keeps its kind in a
      `tir.loop_kind` attribute on the `scf.for` for the passes that act on
      it;
    - `tir.load` / `tir.store` become `memref.load` / `memref.store` with
      their index expressions expanded to `arith`;
    - `tir.name` parameter attributes are dropped.

    Thread-bound loops and `tir.match_buffer` are left to the GPU and
    tensorization lowerings: the pass fails on them with a diagnostic.

    With `drop-storage-scopes`, buffers allocated in a TVM storage scope
    (`memref<..., "shared">`, `"local"`, `"global"`) become plain memory: on a
    CPU every scope is the same memory.
  }];
  let options = [
    Option<"dropStorageScopes", "drop-storage-scopes", "bool",
           /*default=*/"false",
           "Allocate buffers of every storage scope in default memory (CPU)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TENSORIR_CONVERSION_PASSES_TD
