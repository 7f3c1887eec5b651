//===- TIRToGPU.cpp - thread-bound loops to gpu.launch --------------------===//
//
// TVM splits a function into kernels at its outermost thread-bound loops
// and launches each with the grid and block its blockIdx / threadIdx loops
// describe. This pass does the same in MLIR: each kernel becomes a
// gpu.launch, each thread-bound loop its thread's index (guarded where the
// dimension is larger than the loop), and the rest of the kernel stays tir
// for --convert-tir-to-scf.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"
#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_CONVERTTIRTOGPUPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// Where a thread tag points: the grid (blockIdx) or the block (threadIdx),
/// and which of x, y, z.
struct ThreadDim {
  bool grid;
  unsigned axis;
};

/// The size of one launch dimension: a constant, or a value defined before
/// the kernel (a loop `0 to %n`).
struct DimSize {
  int64_t constant = 1;
  Value dynamic;
};

/// One kernel: its outermost loop, the thread-bound loops under it
/// (outermost first) and the size of each of the six dimensions.
struct Kernel {
  ForOp root;
  SmallVector<ForOp> loops;
  DimSize sizes[2][3];
};

std::optional<ThreadDim> parseTag(StringRef tag) {
  bool grid = tag.consume_front("blockIdx.");
  if (!grid && !tag.consume_front("threadIdx."))
    return std::nullopt;
  if (tag.size() != 1 || tag[0] < 'x' || tag[0] > 'z')
    return std::nullopt;
  return ThreadDim{grid, static_cast<unsigned>(tag[0] - 'x')};
}

/// A thread-bound loop whose index reaches a reduce iteration variable
/// (directly, through index arithmetic or other pure ops, through the
/// iteration variables of enclosing blocks, or through the bounds of inner
/// loops) makes its threads reduce into one place. TVM lowers that for
/// threadIdx (warp shuffles and shared memory) and forbids it for
/// blockIdx; lowered as it stands, the threads would race.
LogicalResult checkNoCrossThreadReduction(ForOp loop) {
  SmallVector<Value> values{loop.getInductionVar()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto block = dyn_cast<BlockOp>(user)) {
        // Lowered already: it reduces into its thread's own value.
        if (block->hasAttr(kThreadPartialAttrName))
          continue;
        for (unsigned i : block.getIterVarsFedBy(v)) {
          if (block.getIterType(i) == IterType::Reduce) {
            bool grid = loop.getThread()->starts_with("blockIdx.");
            return loop.emitOpError("is bound to '")
                   << *loop.getThread() << "' and feeds a reduce variable of "
                   << "block '" << block.getBlockName() << "': "
                   << (grid ? "the blocks of a grid would race on its output "
                              "(only threadIdx loops may reduce)"
                            : "this cross-thread reduction is not of the form "
                              "lowered (an add, multiply, min or max update of "
                              "one element, its reduce loops a perfect nest "
                              "bound to every thread dimension of the block, "
                              "each as long as its dimension; or bound to "
                              "threadIdx.x alone, whose extent divides the "
                              "warp's 32 lanes, the block's threads whole "
                              "warps)");
          }
          values.push_back(block.getBody()->getArgument(i));
        }
        continue;
      }
      if (auto inner = dyn_cast<ForOp>(user)) {
        values.push_back(inner.getInductionVar()); // a bound of the loop
        continue;
      }
      if (user->getNumRegions() == 0 && isMemoryEffectFree(user) &&
          seen.insert(user).second)
        llvm::append_range(values, user->getResults());
    }
  }
  return success();
}

/// Whether `v` is defined inside `kernel` (by an op, or as a block argument
/// of an op, in it).
bool definedIn(Value v, Operation *kernel) {
  Operation *def = v.getDefiningOp();
  if (!def)
    def = v.getParentBlock()->getParentOp();
  return kernel->isAncestor(def);
}

/// Whether `call` is an instruction the GPU lowering knows
/// (--tir-lower-mma-instructions).
bool isKernelInstruction(CallOp call) {
  ArrayAttr args = call.getArgs();
  auto name = args.empty() ? StringAttr() : dyn_cast<StringAttr>(args[0]);
  return call.getCallee() == "call_extern" && name &&
         llvm::is_contained({"tir.ptx_ldmatrix", "tir.ptx_mma",
                             "tir.ptx_fragment_fill", "tir.ptx_fragment_store",
                             "tir.ptx_fragment_load_b8", "tir.ptx_wgmma",
                             "tir.ptx_commit_group", "tir.ptx_wait_group"},
                            name.getValue());
}

/// The buffer a view (tir.match_buffer) of views is of.
Value viewSource(Value buffer) {
  while (auto match = buffer.getDefiningOp<MatchBufferOp>())
    buffer = match.getSource();
  return buffer;
}

/// The CUDA limits TVM's VerifyGPUCode checks: threads per block, and the
/// size of each grid and block dimension.
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};

/// The checks of one kernel for `chip` (compute capability `cc`), and the
/// sizes of its dimensions.
LogicalResult analyzeKernel(Kernel &kernel, StringRef chip, int64_t cc,
                            int64_t maxSharedBytes) {
  bool ok = true;
  Operation *root = kernel.root;
  auto refuse = [&](Operation *op) {
    ok = false;
    return op->emitOpError();
  };
  int64_t sharedBytes = 0;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op);
        loop && loop.getKind() == ForKind::ThreadBinding)
      kernel.loops.push_back(loop);
    // Shared memory the kernel holds (placed caches, allocations in it).
    if (isa<memref::AllocaOp>(op)) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (isSharedScope(getStorageScope(type)))
        sharedBytes += llvm::alignTo(sharedBufferBytes(type), 16);
    }
    if (auto alloc = dyn_cast<AllocBufferOp>(op)) {
      // Shared memory is one per block of threads, wherever it is
      // allocated (workgroup memory of the launch). Any other allocation
      // in a kernel is per thread (private memory): right only where no
      // thread-bound loop runs in its scope. Warp buffers were divided
      // among their lanes (lowerWarpBuffers); fragment scopes (wmma.*) are
      // not lowered yet.
      auto space = dyn_cast_if_present<StringAttr>(
          cast<MemRefType>(alloc.getType()).getMemorySpace());
      if (space && isSharedScope(space.getValue())) {
        sharedBytes +=
            llvm::alignTo(sharedBufferBytes(alloc.getBuffer().getType()), 16);
        return;
      }
      if (space && space.getValue() != "local" && space.getValue() != "global")
        refuse(alloc) << "allocates a '" << space.getValue()
                      << "' buffer in a GPU kernel; only 'shared', "
                         "'local', 'warp' (divided among the lanes first) "
                         "and 'global' buffers are lowered";
      // Loops inside bound again to a tag bound around the allocation run
      // in the same thread: they do not count.
      Operation *scope = alloc->getParentOp();
      llvm::StringSet<> boundAround = threadTagsAround(scope);
      bool threadsInside = false;
      scope->walk([&](ForOp inner) {
        threadsInside |= inner != scope &&
                         inner.getKind() == ForKind::ThreadBinding &&
                         !boundAround.contains(*inner.getThread());
      });
      if (threadsInside)
        refuse(alloc) << "allocates buffer '"
                      << getBufferName(alloc.getResult())
                      << "' above thread-bound loops of a GPU kernel: each "
                         "thread would get a copy of its own, where the loops "
                         "share it (a 'shared' buffer would be one per block)";
    }
    if (isa<AllocateConstOp>(op))
      refuse(op) << "is in a GPU kernel; constant buffers are not lowered to "
                    "GPU kernels yet";
    // The tensor-core instructions are lowered to sm_80's mma.sync shapes
    // (m16n8k16, m16n8k32); 8-bit float products are sm_89's (.e4m3 /
    // .e5m2); warpgroup products (wgmma) only sm_90a's: Hopper's
    // architecture-specific instructions, which later chips lack.
    if (auto call = dyn_cast<CallOp>(op); call && isKernelInstruction(call)) {
      ArrayAttr args = call.getArgs();
      StringRef name = cast<StringAttr>(args[0]).getValue();
      auto operand =
          args.size() > 2 ? dyn_cast<StringAttr>(args[2]) : StringAttr();
      if (name == "tir.ptx_wgmma") {
        if (chip != "sm_90a")
          refuse(op) << "calls 'tir.ptx_wgmma', a warpgroup tensor-core "
                        "instruction (wgmma.mma_async), which needs sm_90a "
                        "(Hopper's architecture-specific features: -arch="
                        "sm_90a), not "
                     << chip;
      } else if (cc < 80 && getAsyncGroupCallName(call).empty())
        refuse(op) << "calls '" << name
                   << "', a tensor-core instruction of tvm.tir.tensor_intrin."
                      "cuda's intrinsics (lowered to mma.sync m16n8k16 / "
                      "m16n8k32 and ldmatrix), which needs sm_80 or newer, "
                      "not "
                   << chip;
      else if (cc < 89 && name == "tir.ptx_mma" && operand &&
               (operand.getValue() == "e4m3" || operand.getValue() == "e5m2"))
        refuse(op) << "calls 'tir.ptx_mma' on " << operand.getValue()
                   << " operands (8-bit floats), which needs sm_89 or newer, "
                      "not "
                   << chip;
    }
    if (auto call = dyn_cast<CallOp>(op); call && !isKernelInstruction(call)) {
      ArrayAttr args = call.getArgs();
      auto name = args.empty() ? StringAttr() : dyn_cast<StringAttr>(args[0]);
      InFlightDiagnostic diag = refuse(op) << "calls '" << call.getCallee();
      if (name && call.getCallee().contains("extern"))
        diag << "' ('" << name.getValue() << "')";
      else
        diag << "'";
      diag << " in a GPU kernel; calls are not lowered to GPU kernels "
              "(but the tensor-core instructions of tvm.tir.tensor_intrin."
              "cuda's intrinsics: tir.ptx_ldmatrix, tir.ptx_mma, "
              "tir.ptx_fragment_fill, tir.ptx_fragment_store, "
              "tir.ptx_fragment_load_b8, tir.ptx_wgmma; and an asynchronous "
              "pipeline's "
              "tir.ptx_commit_group, tir.ptx_wait_group)";
    }
    // Every buffer the kernel uses from outside must be one the launch can
    // pass: a parameter of the function (or a view of one), or GPU memory
    // the host part allocates (a global intermediate, in a build for the
    // runtime), not host memory.
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) || definedIn(operand, root))
        continue;
      Value source = viewSource(operand);
      auto arg = dyn_cast<BlockArgument>(source);
      if (arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
        continue;
      // An intermediate the host allocated in GPU memory.
      if (source.getDefiningOp<gpu::AllocOp>())
        continue;
      refuse(op) << "uses buffer '" << getBufferName(source)
                 << "', made outside the GPU kernel that starts at the "
                    "thread-bound loop '"
                 << kernel.root.getVarName().value_or("")
                 << "'; a kernel reads and writes the function's parameters "
                    "and, where the function is built for the runtime "
                    "(require-kernels), the global-scope buffers the host "
                    "part allocates (in GPU memory)";
    }
  });
  if (!ok)
    return failure();
  // Each buffer starts at a 16-byte boundary; beyond 48 KiB the buffers
  // are dynamic shared memory, up to what a block may hold on the chip.
  if (sharedBytes > maxSharedBytes)
    return kernel.root.emitOpError("starts a GPU kernel holding ")
           << sharedBytes << " bytes of shared memory, over the "
           << maxSharedBytes << " bytes one block may hold on " << chip
           << " (use smaller tiles, fewer pipeline stages, or a GPU with "
              "more shared memory)";
  bool seen[2][3] = {};
  for (ForOp loop : kernel.loops) {
    StringRef tag = *loop.getThread();
    std::optional<ThreadDim> dim = parseTag(tag);
    if (!dim)
      return loop.emitOpError("is bound to '")
             << tag
             << "'; GPU kernels lower blockIdx.{x,y,z}, threadIdx.{x,y,z} "
                "and vthread";
    // A loop bound again to the tag of a loop around it takes the same
    // thread index (a cooperative copy inside the threads' loops, as TVM
    // schedules them): both must have the same iterations.
    for (Operation *p = loop->getParentOp();
         p && p != kernel.root->getParentOp(); p = p->getParentOp())
      if (auto outer = dyn_cast<ForOp>(p);
          outer && outer.getKind() == ForKind::ThreadBinding &&
          outer.getThread() == tag &&
          (outer.getMixedLowerBound() != loop.getMixedLowerBound() ||
           outer.getMixedUpperBound() != loop.getMixedUpperBound()))
        return loop.emitOpError("is bound to '")
               << tag
               << "' inside a loop bound to it already, with other bounds; "
                  "nested loops bound to one thread index must have the same "
                  "iterations";
    if (failed(checkNoCrossThreadReduction(loop)))
      return failure();
    OpFoldResult lo = loop.getMixedLowerBound();
    OpFoldResult hi = loop.getMixedUpperBound();
    std::optional<int64_t> loConst = getConstantIntValue(lo);
    std::optional<int64_t> hiConst = getConstantIntValue(hi);
    DimSize &size = kernel.sizes[dim->grid ? 0 : 1][dim->axis];
    bool first = !seen[dim->grid ? 0 : 1][dim->axis];
    seen[dim->grid ? 0 : 1][dim->axis] = true;
    if (loConst && hiConst) {
      if (size.dynamic)
        return loop.emitOpError("is bound to '")
               << tag
               << "' with a constant extent, where another loop gives it a "
                  "runtime one";
      size.constant = first ? *hiConst - *loConst
                            : std::max(size.constant, *hiConst - *loConst);
      continue;
    }
    Value upper = dyn_cast_if_present<Value>(hi);
    if (!loConst || *loConst != 0 || !upper || definedIn(upper, root))
      return loop.emitOpError("is bound to '")
             << tag
             << "' with a runtime extent the launch cannot size: a GPU "
                "kernel's dynamic loops run from 0 to a value defined before "
                "the kernel";
    if ((!first && !size.dynamic) || (size.dynamic && size.dynamic != upper))
      return loop.emitOpError("is bound to '")
             << tag << "', which another loop gives another extent";
    size.dynamic = upper;
  }
  for (ForOp loop : kernel.loops) {
    std::optional<int64_t> lo = getConstantIntValue(loop.getMixedLowerBound());
    std::optional<int64_t> hi = getConstantIntValue(loop.getMixedUpperBound());
    if (lo && hi && *hi <= *lo)
      return loop.emitOpError("is bound to '")
             << *loop.getThread()
             << "' with no iterations; a GPU launch needs at least one "
                "thread in each dimension";
  }
  static const char *axes = "xyz";
  int64_t threads = 1;
  for (unsigned a = 0; a < 3; ++a) {
    const DimSize &grid = kernel.sizes[0][a], &block = kernel.sizes[1][a];
    if (!grid.dynamic && grid.constant > kMaxGridDim[a])
      return kernel.root.emitOpError("starts a GPU kernel whose grid is ")
             << grid.constant << " blocks along " << axes[a]
             << ", over CUDA's limit of " << kMaxGridDim[a];
    if (!block.dynamic && block.constant > kMaxBlockDim[a])
      return kernel.root.emitOpError("starts a GPU kernel whose blocks are ")
             << block.constant << " threads along " << axes[a]
             << ", over CUDA's limit of " << kMaxBlockDim[a];
    if (!block.dynamic)
      threads *= block.constant;
  }
  if (threads > kMaxThreadsPerBlock)
    return kernel.root.emitOpError("starts a GPU kernel of ")
           << threads << " threads per block, over CUDA's limit of "
           << kMaxThreadsPerBlock;
  return success();
}

/// A buffer of type `type` (in workgroup memory) at `offset` bytes of the
/// launch's dynamic shared memory `base`: a memref.view of its span,
/// reinterpreted with its layout where that is not the identity.
Value viewOfDynamicShared(OpBuilder &b, Location loc, Value base,
                          int64_t offset, MemRefType type) {
  Value at = arith::ConstantIndexOp::create(b, loc, offset);
  if (type.getLayout().isIdentity())
    return memref::ViewOp::create(b, loc, type, base, at, ValueRange{});
  int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  auto flatType = MemRefType::get(
      {sharedBufferBytes(type) / elementBytes}, type.getElementType(),
      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value flat = memref::ViewOp::create(b, loc, flatType, base, at, ValueRange{});
  SmallVector<int64_t> strides;
  int64_t layoutOffset;
  (void)type.getStridesAndOffset(strides, layoutOffset);
  return memref::ReinterpretCastOp::create(b, loc, type, flat, layoutOffset,
                                           type.getShape(), strides);
}

LogicalResult rewriteKernel(Kernel &kernel, bool alignedParams) {
  ForOp root = kernel.root;
  Location loc = root.getLoc();
  OpBuilder b(root);
  Value sizes[2][3];
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (unsigned g = 0; g < 2; ++g)
    for (unsigned a = 0; a < 3; ++a) {
      const DimSize &size = kernel.sizes[g][a];
      Value &c = constants[size.constant];
      if (!size.dynamic && !c)
        c = arith::ConstantIndexOp::create(b, loc, size.constant);
      sizes[g][a] = size.dynamic ? size.dynamic : c;
    }
  auto launch =
      gpu::LaunchOp::create(b, loc, sizes[0][0], sizes[0][1], sizes[0][2],
                            sizes[1][0], sizes[1][1], sizes[1][2]);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b, loc);
  root->moveBefore(terminator);
  gpu::KernelDim3 ids[2] = {launch.getBlockIds(), launch.getThreadIds()};
  for (ForOp loop : kernel.loops) {
    ThreadDim dim = *parseTag(*loop.getThread());
    gpu::KernelDim3 id3 = ids[dim.grid ? 0 : 1];
    Value id = dim.axis == 0 ? id3.x : dim.axis == 1 ? id3.y : id3.z;
    b.setInsertionPoint(loop);
    Location l = loop.getLoc();
    OpFoldResult lo = loop.getMixedLowerBound();
    OpFoldResult hi = loop.getMixedUpperBound();
    Value iv = id;
    if (!isConstantIntValue(lo, 0))
      iv = arith::AddIOp::create(b, l,
                                 getValueOrCreateConstantIndexOp(b, l, lo), id);
    // A guard where the dimension is larger than this loop.
    const DimSize &size = kernel.sizes[dim.grid ? 0 : 1][dim.axis];
    std::optional<int64_t> loConst = getConstantIntValue(lo);
    std::optional<int64_t> hiConst = getConstantIntValue(hi);
    bool guard = !size.dynamic && loConst && hiConst &&
                 *hiConst - *loConst < size.constant;
    Block *target = loop->getBlock();
    Block::iterator before = loop->getIterator();
    if (guard) {
      Value extent = arith::ConstantIndexOp::create(b, l, *hiConst - *loConst);
      Value inRange =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, id, extent);
      auto ifOp = scf::IfOp::create(b, l, inRange, /*withElseRegion=*/false);
      target = ifOp.thenBlock();
      before = target->getTerminator()->getIterator();
    }
    Block *loopBody = loop.getBody();
    loopBody->getArgument(0).replaceAllUsesWith(iv);
    target->getOperations().splice(before, loopBody->getOperations());
    loop->erase();
  }
  // The runtime passes buffers aligned to 16 bytes (it checks): telling
  // the kernel lets it load and store four floats at once.
  if (alignedParams) {
    llvm::SetVector<Value> params;
    launch.walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(v);
            arg && isa<MemRefType>(v.getType()) &&
            isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
          params.insert(v);
    });
    OpBuilder ab = OpBuilder::atBlockBegin(&body);
    for (Value param : params) {
      Value aligned =
          memref::AssumeAlignmentOp::create(ab, loc, param, kParamAlignment);
      param.replaceUsesWithIf(aligned, [&](OpOperand &use) {
        return launch->isProperAncestor(use.getOwner()) &&
               use.getOwner() != aligned.getDefiningOp();
      });
    }
  }
  // Shared buffers: the launch's workgroup memory, one per block.
  // (tir.alloc_buffer in a block of the kernel, or placed there from the
  // root by placeKernelBuffers.) Static shared memory (workgroup
  // attributions) holds up to 48 KiB: "shared.dyn" buffers, and all of
  // them when the static ones would hold more, are views of the launch's
  // dynamic shared memory instead, each at a 16-byte boundary.
  SmallVector<Operation *> sharedAllocs;
  int64_t staticBytes = 0;
  launch.walk([&](Operation *op) {
    if (!isa<AllocBufferOp, memref::AllocaOp>(op))
      return;
    auto type = cast<MemRefType>(op->getResult(0).getType());
    StringRef scope = getStorageScope(type);
    if (!isSharedScope(scope))
      return;
    sharedAllocs.push_back(op);
    if (scope == "shared")
      staticBytes += llvm::alignTo(sharedBufferBytes(type), 16);
  });
  auto workgroup = gpu::AddressSpaceAttr::get(launch.getContext(),
                                              gpu::AddressSpace::Workgroup);
  bool allDynamic = staticBytes > kMaxStaticSharedBytes;
  Value dynamicBase;
  int64_t dynamicBytes = 0;
  for (Operation *alloc : sharedAllocs) {
    auto type = cast<MemRefType>(alloc->getResult(0).getType());
    auto inWorkgroup = MemRefType::get(type.getShape(), type.getElementType(),
                                       type.getLayout(), workgroup);
    Value memory;
    if (allDynamic || getStorageScope(type) == "shared.dyn") {
      OpBuilder db = OpBuilder::atBlockBegin(&body);
      if (!dynamicBase)
        dynamicBase = gpu::DynamicSharedMemoryOp::create(
            db, loc,
            MemRefType::get({ShapedType::kDynamic}, db.getI8Type(),
                            MemRefLayoutAttrInterface(), workgroup));
      db.setInsertionPointAfterValue(dynamicBase);
      memory = viewOfDynamicShared(db, alloc->getLoc(), dynamicBase,
                                   dynamicBytes, inWorkgroup);
      dynamicBytes += llvm::alignTo(sharedBufferBytes(type), 16);
    } else {
      memory = launch.addWorkgroupAttribution(inWorkgroup, alloc->getLoc());
    }
    // Views of it (placeKernelBuffers', tensorized blocks') move to the
    // same memory.
    SmallVector<Value> views{alloc->getResult(0)};
    while (!views.empty()) {
      Value v = views.pop_back_val();
      for (Operation *user : v.getUsers())
        if (isa<memref::ReinterpretCastOp, MatchBufferOp>(user)) {
          auto t = cast<MemRefType>(user->getResult(0).getType());
          user->getResult(0).setType(MemRefType::get(
              t.getShape(), t.getElementType(), t.getLayout(), workgroup));
          views.push_back(user->getResult(0));
        }
    }
    alloc->getResult(0).replaceAllUsesWith(memory);
    alloc->erase();
  }
  if (dynamicBase) {
    OpBuilder lb(launch);
    launch.getDynamicSharedMemorySizeMutable().assign(
        arith::ConstantIntOp::create(lb, loc, dynamicBytes, 32));
  }
  unrollRegisterTileLoops(launch);
  if (failed(insertBarriers(launch)))
    return failure();
  // As nvcc by default (-fmad=true) and TVM's CUDA backend: a float multiply
  // feeding an add may become one multiply-add, rounded once.
  launch.walk([](arith::ArithFastMathInterface op) {
    if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op))
      return;
    auto flags = op.getFastMathFlagsAttr();
    auto value = flags ? flags.getValue() : arith::FastMathFlags::none;
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(), value | arith::FastMathFlags::contract));
  });
  return success();
}

} // namespace

/// With the function's buffers in GPU memory, host code cannot touch them:
/// the first load or store of a parameter outside every kernel (TVM's
/// VerifyMemory).
static LogicalResult checkNoHostAccess(Operation *root,
                                       ArrayRef<AllocBufferOp> intermediates) {
  llvm::SmallPtrSet<Value, 8> onDevice;
  for (AllocBufferOp alloc : intermediates)
    onDevice.insert(alloc.getBuffer());
  WalkResult result = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto loop = dyn_cast<ForOp>(op);
    if (loop && loop.getKind() == ForKind::ThreadBinding)
      return WalkResult::skip();
    Value buffer;
    if (auto load = dyn_cast<LoadOp>(op))
      buffer = load.getBuffer();
    else if (auto store = dyn_cast<StoreOp>(op))
      buffer = store.getBuffer();
    if (!buffer)
      return WalkResult::advance();
    Value source = viewSource(buffer);
    auto arg = dyn_cast<BlockArgument>(source);
    bool parameter =
        arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!parameter && !onDevice.contains(source))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError("accesses buffer '")
                              << getBufferName(source) << "'";
    if (auto block = op->getParentOfType<BlockOp>())
      diag << " in block '" << block.getBlockName() << "'";
    diag << " on the host, outside every GPU kernel, but "
         << (parameter ? "the function's buffers are"
                       : "an intermediate buffer its kernels use is")
         << " in GPU memory: bind the loops around it to blockIdx / "
            "threadIdx (did you forget to bind?)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::tir::convertTIRToGPU(Operation *root, bool requireKernels,
                                         StringRef chip,
                                         int64_t maxSharedBytes) {
  std::optional<int64_t> cc = parseComputeCapability(chip);
  if (!cc)
    return root->emitError("convert-tir-to-gpu: '")
           << chip << "' is not a GPU (sm_XY, e.g. sm_80)";
  if (maxSharedBytes <= 0)
    maxSharedBytes = maxSharedMemoryPerBlock(*cc);
  // Software pipelines in kernels are checked on buffers of the whole
  // shape, and rewritten once the caches they fill are compacted into
  // their loops (each iteration's tile then gets its copies); the loops
  // outside kernels are left to --tir-inject-software-pipeline.
  auto inKernel = [](ForOp loop) {
    for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
      if (auto around = dyn_cast<ForOp>(op);
          around && around.getKind() == ForKind::ThreadBinding)
        return true;
    return false;
  };
  // A cache that compaction will allocate in the pipelined loop's body is
  // one iteration's: it gets copies, whatever its whole-shape parts.
  auto compactedInto = [](ForOp loop, Value buffer) {
    return kernelBufferPlace(buffer) == loop.getOperation();
  };
  if (failed(checkSoftwarePipelines(root, inKernel, compactedInto)))
    return failure();
  // Asynchronous stages copy with cp.async (sm_80 and newer).
  if (*cc < 80) {
    WalkResult async = root->walk([&](ForOp loop) {
      DictionaryAttr annotations = loop.getAnnotationsAttr();
      Attribute stages =
          annotations ? annotations.get(kPipelineAsyncStagesKey) : nullptr;
      auto list = dyn_cast_or_null<ArrayAttr>(stages);
      if (!list || list.empty() || !inKernel(loop))
        return WalkResult::advance();
      loop.emitOpError("loop '")
          << loop.getVarName().value_or("") << "' has asynchronous stages ('"
          << kPipelineAsyncStagesKey << "' = " << stages
          << "), whose copies need cp.async: sm_80 or newer, not " << chip
          << " (drop the annotation to pipeline synchronously)";
      return WalkResult::interrupt();
    });
    if (async.wasInterrupted())
      return failure();
  }
  // Fragments: each lane's part of a warp buffer is its own.
  if (failed(lowerWarpBuffers(root)))
    return failure();
  // Caches allocated at the root move into their kernels first.
  if (failed(placeKernelBuffers(root)))
    return failure();
  if (failed(injectSoftwarePipelines(root, inKernel, /*asyncCopies=*/true)))
    return failure();
  // Virtual threads (MultiLevelTiling's vthread tile) interleave in one
  // thread: their iterations are independent and synchronize with nothing,
  // so each thread runs them serially. Buffers were placed with them
  // relaxed as threads (a shared tile covers every virtual thread's part,
  // a local one is each iteration's). TVM's InjectVirtualThread also
  // shares loads between the iterations; here each loads its own.
  root->walk([](ForOp loop) {
    std::optional<StringRef> tag = loop.getThread();
    if (loop.getKind() == ForKind::ThreadBinding && tag &&
        tag->starts_with("vthread")) {
      loop.setKind(ForKind::Serial);
      loop.removeThreadAttr();
    }
  });
  SmallVector<Kernel> kernels;
  root->walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (loop.getKind() != ForKind::ThreadBinding)
      return WalkResult::advance();
    kernels.push_back({loop, {}, {}});
    return WalkResult::skip();
  });
  // The global buffers the kernels use: GPU memory the host part
  // allocates (only where the whole function runs through the runtime).
  if (requireKernels) {
    SmallVector<AllocBufferOp> intermediates = findGlobalIntermediates(root);
    if (failed(checkNoHostAccess(root, intermediates)))
      return failure();
    allocateOnDevice(intermediates);
  }
  for (Kernel &kernel : kernels)
    lowerCrossThreadReductions(kernel.root);
  for (Kernel &kernel : kernels)
    if (failed(analyzeKernel(kernel, chip, *cc, maxSharedBytes)))
      return failure();
  for (Kernel &kernel : kernels)
    if (failed(rewriteKernel(kernel, requireKernels)))
      return failure();
  return success();
}

namespace {
struct ConvertTIRToGPUPass
    : public tir::impl::ConvertTIRToGPUPassBase<ConvertTIRToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convertTIRToGPU(getOperation(), requireKernels, chip,
                               maxSharedBytes)))
      signalPassFailure();
  }
};
} // namespace
