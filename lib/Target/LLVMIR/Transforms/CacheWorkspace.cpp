//===- CacheWorkspace.cpp - heap buffers reused from call to call ---------===//
//
// A scheduled program allocates its intermediate buffers (a GEMM's packed
// panels: 16 MiB each at 2048^3) on every call. glibc serves blocks that
// large with mmap, or trims them off the heap when they are freed, so every
// call faulted in and zeroed fresh pages: 6% of a 2048^3 GEMM on one
// thread, and up to 15% on two, whose page faults contend in the kernel.
// TVM keeps such buffers in a workspace pool for the same reason.
//
// The lowering allocates through `_mlir_memref_to_llvm_alloc` /
// `_mlir_memref_to_llvm_free` (finalize-memref-to-llvm's generic
// functions); this pass defines them in the module, privately: a block
// carries its capacity in a 64-byte header, freed blocks go to one of
// kSlots slots (atomic exchange, so threads may allocate at once), and an
// allocation takes a cached block that holds it without wasting more than
// half, else calls malloc. Blocks over kMaxCachedBytes are freed at once;
// what the slots hold stays allocated for the life of the process.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRCACHEWORKSPACEPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

static constexpr llvm::StringLiteral kAlloc = "_mlir_memref_to_llvm_alloc";
static constexpr llvm::StringLiteral kFree = "_mlir_memref_to_llvm_free";

/// The allocator, in the llvm dialect: kSlots = 8 slots, a 64-byte header
/// (the block's capacity), blocks of at most kMaxCachedBytes = 1 GiB cached.
static constexpr llvm::StringLiteral kAllocator = R"mlir(
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.mlir.global internal @__tir_workspace_slots() {alignment = 64 : i64} : !llvm.array<8 x ptr> {
  %0 = llvm.mlir.zero : !llvm.array<8 x ptr>
  llvm.return %0 : !llvm.array<8 x ptr>
}
llvm.func internal @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %slots_n = llvm.mlir.constant(8 : i64) : i64
  %header = llvm.mlir.constant(64 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %slots = llvm.mlir.addressof @__tir_workspace_slots : !llvm.ptr
  llvm.br ^loop(%c0 : i64)
^loop(%i: i64):
  %done = llvm.icmp "eq" %i, %slots_n : i64
  llvm.cond_br %done, ^fresh, ^look
^look:
  %slot = llvm.getelementptr %slots[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x ptr>
  %p = llvm.atomicrmw xchg %slot, %null acq_rel : !llvm.ptr, !llvm.ptr
  %next = llvm.add %i, %c1 : i64
  %empty = llvm.icmp "eq" %p, %null : !llvm.ptr
  llvm.cond_br %empty, ^loop(%next : i64), ^check
^check:
  %capacity = llvm.load %p : !llvm.ptr -> i64
  %holds = llvm.icmp "uge" %capacity, %n : i64
  %twice = llvm.shl %n, %c1 : i64
  %snug = llvm.icmp "ule" %capacity, %twice : i64
  %fits = llvm.and %holds, %snug : i1
  llvm.cond_br %fits, ^take, ^back
^take:
  %q = llvm.getelementptr %p[64] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return %q : !llvm.ptr
^back:
  %put = llvm.cmpxchg %slot, %null, %p acq_rel monotonic : !llvm.ptr, !llvm.ptr
  %stored = llvm.extractvalue %put[1] : !llvm.struct<(ptr, i1)>
  llvm.cond_br %stored, ^loop(%next : i64), ^drop
^drop:
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.br ^loop(%next : i64)
^fresh:
  %total = llvm.add %n, %header : i64
  %raw = llvm.call @malloc(%total) : (i64) -> !llvm.ptr
  %failed = llvm.icmp "eq" %raw, %null : !llvm.ptr
  llvm.cond_br %failed, ^none, ^new
^none:
  llvm.return %null : !llvm.ptr
^new:
  llvm.store %n, %raw : i64, !llvm.ptr
  %fresh_q = llvm.getelementptr %raw[64] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return %fresh_q : !llvm.ptr
}
llvm.func internal @_mlir_memref_to_llvm_free(%q: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %slots_n = llvm.mlir.constant(8 : i64) : i64
  %limit = llvm.mlir.constant(1073741824 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %slots = llvm.mlir.addressof @__tir_workspace_slots : !llvm.ptr
  %nothing = llvm.icmp "eq" %q, %null : !llvm.ptr
  llvm.cond_br %nothing, ^out, ^block
^block:
  %p = llvm.getelementptr %q[-64] : (!llvm.ptr) -> !llvm.ptr, i8
  %capacity = llvm.load %p : !llvm.ptr -> i64
  %large = llvm.icmp "ugt" %capacity, %limit : i64
  llvm.cond_br %large, ^release, ^loop(%c0 : i64)
^loop(%i: i64):
  %done = llvm.icmp "eq" %i, %slots_n : i64
  llvm.cond_br %done, ^release, ^try
^try:
  %slot = llvm.getelementptr %slots[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x ptr>
  %put = llvm.cmpxchg %slot, %null, %p acq_rel monotonic : !llvm.ptr, !llvm.ptr
  %stored = llvm.extractvalue %put[1] : !llvm.struct<(ptr, i1)>
  %next = llvm.add %i, %c1 : i64
  llvm.cond_br %stored, ^out, ^loop(%next : i64)
^release:
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.br ^out
^out:
  llvm.return
}
)mlir";

namespace {
struct TIRCacheWorkspacePass
    : public tir::impl::TIRCacheWorkspacePassBase<TIRCacheWorkspacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto alloc = module.lookupSymbol<LLVM::LLVMFuncOp>(kAlloc);
    auto release = module.lookupSymbol<LLVM::LLVMFuncOp>(kFree);
    // Nothing allocates, or the module brings its own allocator.
    if ((!alloc && !release) || (alloc && !alloc.isExternal()) ||
        (release && !release.isExternal()) ||
        module.lookupSymbol("__tir_workspace_slots"))
      return;
    MLIRContext *ctx = &getContext();
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(kAllocator, ParserConfig(ctx));
    if (!parsed) {
      module.emitError("the workspace allocator does not parse");
      return signalPassFailure();
    }
    if (alloc)
      alloc.erase();
    if (release)
      release.erase();
    // Its definitions, and malloc / free unless the module declares them.
    for (Operation &op :
         llvm::make_early_inc_range(parsed->getBody()->getOperations())) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (name && module.lookupSymbol(name))
        continue;
      op.moveBefore(module.getBody(), module.getBody()->end());
    }
  }
};
} // namespace
