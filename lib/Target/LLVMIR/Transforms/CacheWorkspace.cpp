//===- CacheWorkspace.cpp - heap buffers reused from call to call ---------===//
//
// A scheduled program allocates its intermediate buffers (a GEMM's packed
// panels: 16 MiB each at 2048^3), and a model's graph function the values
// between its kernels, on every call. glibc serves blocks that
// large with mmap, or trims them off the heap when they are freed, so every
// call faulted in and zeroed fresh pages: 6% of a 2048^3 GEMM on one
// thread, and up to 15% on two, whose page faults contend in the kernel.
// TVM keeps such buffers in a workspace pool for the same reason.
//
// The lowering allocates through `_mlir_memref_to_llvm_aligned_alloc` /
// `_mlir_memref_to_llvm_free` (finalize-memref-to-llvm's generic functions
// with use-aligned-alloc); this pass defines them in the module, privately,
// with `_mlir_memref_to_llvm_alloc` for callers without an alignment.
// A block is at least 64-byte aligned (a cache line, as TVM allocates);
// the bytes before it hold its capacity and the offset back to what
// aligned_alloc returned. Freed blocks go to one of kSlots slots (atomic
// exchange, so threads may allocate at once; 64, as a model's graph
// function holds some 30 values of different sizes alive at once, and 8
// slots left ResNet-18 and a transformer layer faulting in fresh pages on
// every call: a third of a small layer's time), and an allocation takes a
// cached block that is aligned as it asks and holds it without wasting
// more than half, else calls aligned_alloc. Blocks over kMaxCachedBytes
// are freed at once; what the slots hold stays allocated for the life of
// the process.
//
// The allocation functions stay calls, whose result is `noalias` as
// malloc's is: a block they return is reachable through no other pointer
// until it is freed (its slot was emptied when it was taken), and the
// caller uses it as it is (no rounding through integers). Inlined, or
// rounded up by the caller, the pointer was a phi of a load from the slots
// and malloc's result, or an inttoptr, which alias analysis cannot tell
// apart from the program's own buffers: a GEMM that packs a panel inside
// its parallel loop kept its accumulators in memory, storing them on every
// step of k (41 GFLOP/s instead of 112). Alignments are powers of two
// (memref.alloc's verifier requires it).
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
static constexpr llvm::StringLiteral kAlignedAlloc =
    "_mlir_memref_to_llvm_aligned_alloc";
static constexpr llvm::StringLiteral kFree = "_mlir_memref_to_llvm_free";

/// The allocator, in the llvm dialect: kSlots = 64 slots; a block's capacity
/// at -16 bytes, its offset from aligned_alloc's pointer at -8; blocks of at
/// most kMaxCachedBytes = 1 GiB cached.
static constexpr llvm::StringLiteral kAllocator = R"mlir(
llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.mlir.global internal @__tir_workspace_slots() {alignment = 64 : i64} : !llvm.array<64 x ptr> {
  %0 = llvm.mlir.zero : !llvm.array<64 x ptr>
  llvm.return %0 : !llvm.array<64 x ptr>
}
llvm.func internal @__tir_workspace_release(%q: !llvm.ptr) {
  %offset_at = llvm.getelementptr %q[-8] : (!llvm.ptr) -> !llvm.ptr, i8
  %offset = llvm.load %offset_at : !llvm.ptr -> i64
  %zero = llvm.mlir.constant(0 : i64) : i64
  %minus = llvm.sub %zero, %offset : i64
  %p = llvm.getelementptr %q[%minus] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func internal @_mlir_memref_to_llvm_aligned_alloc(%align: i64, %n: i64) -> (!llvm.ptr {llvm.noalias})
    attributes {no_inline} {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %slots_n = llvm.mlir.constant(64 : i64) : i64
  %line = llvm.mlir.constant(64 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %slots = llvm.mlir.addressof @__tir_workspace_slots : !llvm.ptr
  %below = llvm.icmp "ult" %align, %line : i64
  %a = llvm.select %below, %line, %align : i1, i64
  %mask = llvm.sub %a, %c1 : i64
  llvm.br ^loop(%c0 : i64)
^loop(%i: i64):
  %done = llvm.icmp "eq" %i, %slots_n : i64
  llvm.cond_br %done, ^fresh, ^look
^look:
  %slot = llvm.getelementptr %slots[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %q = llvm.atomicrmw xchg %slot, %null acq_rel : !llvm.ptr, !llvm.ptr
  %next = llvm.add %i, %c1 : i64
  %empty = llvm.icmp "eq" %q, %null : !llvm.ptr
  llvm.cond_br %empty, ^loop(%next : i64), ^check
^check:
  %capacity_at = llvm.getelementptr %q[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  %capacity = llvm.load %capacity_at : !llvm.ptr -> i64
  %holds = llvm.icmp "uge" %capacity, %n : i64
  %twice = llvm.shl %n, %c1 : i64
  %snug = llvm.icmp "ule" %capacity, %twice : i64
  %address = llvm.ptrtoint %q : !llvm.ptr to i64
  %misaligned = llvm.and %address, %mask : i64
  %aligned = llvm.icmp "eq" %misaligned, %c0 : i64
  %sized = llvm.and %holds, %snug : i1
  %fits = llvm.and %sized, %aligned : i1
  llvm.cond_br %fits, ^take, ^back
^take:
  llvm.return %q : !llvm.ptr
^back:
  %put = llvm.cmpxchg %slot, %null, %q acq_rel monotonic : !llvm.ptr, !llvm.ptr
  %stored = llvm.extractvalue %put[1] : !llvm.struct<(ptr, i1)>
  llvm.cond_br %stored, ^loop(%next : i64), ^drop
^drop:
  llvm.call @__tir_workspace_release(%q) : (!llvm.ptr) -> ()
  llvm.br ^loop(%next : i64)
^fresh:
  // The header takes one alignment unit (at least 64 bytes, room for the
  // two words); aligned_alloc wants a multiple of the alignment.
  %total = llvm.add %n, %a : i64
  %padded = llvm.add %total, %mask : i64
  %ones = llvm.mlir.constant(-1 : i64) : i64
  %round = llvm.xor %mask, %ones : i64
  %size = llvm.and %padded, %round : i64
  %raw = llvm.call @aligned_alloc(%a, %size) : (i64, i64) -> !llvm.ptr
  %failed = llvm.icmp "eq" %raw, %null : !llvm.ptr
  llvm.cond_br %failed, ^none, ^new
^none:
  llvm.return %null : !llvm.ptr
^new:
  %fresh_q = llvm.getelementptr %raw[%a] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %fresh_capacity = llvm.getelementptr %fresh_q[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %n, %fresh_capacity : i64, !llvm.ptr
  %fresh_offset = llvm.getelementptr %fresh_q[-8] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %a, %fresh_offset : i64, !llvm.ptr
  llvm.return %fresh_q : !llvm.ptr
}
llvm.func internal @_mlir_memref_to_llvm_alloc(%n: i64) -> (!llvm.ptr {llvm.noalias})
    attributes {no_inline} {
  %line = llvm.mlir.constant(64 : i64) : i64
  %q = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%line, %n) : (i64, i64) -> !llvm.ptr
  llvm.return %q : !llvm.ptr
}
llvm.func internal @_mlir_memref_to_llvm_free(%q: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %slots_n = llvm.mlir.constant(64 : i64) : i64
  %limit = llvm.mlir.constant(1073741824 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %slots = llvm.mlir.addressof @__tir_workspace_slots : !llvm.ptr
  %nothing = llvm.icmp "eq" %q, %null : !llvm.ptr
  llvm.cond_br %nothing, ^out, ^block
^block:
  %capacity_at = llvm.getelementptr %q[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  %capacity = llvm.load %capacity_at : !llvm.ptr -> i64
  %large = llvm.icmp "ugt" %capacity, %limit : i64
  llvm.cond_br %large, ^release, ^loop(%c0 : i64)
^loop(%i: i64):
  %done = llvm.icmp "eq" %i, %slots_n : i64
  llvm.cond_br %done, ^release, ^try
^try:
  %slot = llvm.getelementptr %slots[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %put = llvm.cmpxchg %slot, %null, %q acq_rel monotonic : !llvm.ptr, !llvm.ptr
  %stored = llvm.extractvalue %put[1] : !llvm.struct<(ptr, i1)>
  %next = llvm.add %i, %c1 : i64
  llvm.cond_br %stored, ^out, ^loop(%next : i64)
^release:
  llvm.call @__tir_workspace_release(%q) : (!llvm.ptr) -> ()
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
    SmallVector<LLVM::LLVMFuncOp> declared;
    for (StringRef name : {kAlloc, kAlignedAlloc, kFree}) {
      auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!func)
        continue;
      // The module brings its own allocator.
      if (!func.isExternal())
        return;
      declared.push_back(func);
    }
    // Nothing allocates, or the allocator is in already.
    if (declared.empty() || module.lookupSymbol("__tir_workspace_slots"))
      return;
    MLIRContext *ctx = &getContext();
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(kAllocator, ParserConfig(ctx));
    if (!parsed) {
      module.emitError("the workspace allocator does not parse");
      return signalPassFailure();
    }
    for (LLVM::LLVMFuncOp func : declared)
      func.erase();
    // Its definitions, and aligned_alloc / free unless the module declares
    // them.
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
