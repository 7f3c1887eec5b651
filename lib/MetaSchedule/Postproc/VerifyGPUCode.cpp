//===- VerifyGPUCode.cpp - kernels within the target's limits -------------===//
//
// TVM's VerifyGPUCode. TVM lowers each scheduled function (the passes up
// to its GPU codegen) and verifies the kernels it gets against the target's
// max_shared_memory_per_block and max_threads_per_block (and a vector of at
// most 16 bytes); a lowering that throws rejects the schedule as well.
// Lowering every sampled candidate is not needed to answer the same
// questions, which are read here from the scheduled program:
//
//  - Thread extents (TVM's ThreadExtentChecker, before lowering): under
//    the threadIdx.{x,y,z} loops around it (1 where none is), a block
//    annotated "warp_execution" counting a warp (thread_warp_size) for
//    threadIdx.x, a block annotated
//    "meta_schedule.thread_extent_low_inclusive" and "..._high_inclusive"
//    needs the product of the three extents within those bounds; a
//    threadIdx loop of a runtime extent rejects.
//  - Kernels: a kernel is the subtree of an outermost thread-bound loop.
//    Its loops bound to one thread tag must have the same extent (TVM's
//    UnifyThreadBinding throws otherwise); its threads per block, the
//    product of its distinct threadIdx extents, are at most
//    max_threads_per_block.
//  - Shared memory per block: each shared buffer counts in the kernel
//    holding the lowest loop or block around all its accesses (where TVM's
//    PlanAndUpdateBufferAllocationLocation puts it), with the size of the
//    part one execution of that op touches, threadIdx and vthread loops
//    around it relaxed (CompactBufferAllocation: the analysis the GPU
//    lowering compacts with, getCompactPart), rows padded as
//    "buffer_dim_align" asks, times the copies a software pipeline keeps
//    when that op is a pipelined loop (one per stage between the buffer's
//    writer and reader, as InjectSoftwarePipeline versions it). A buffer
//    whose part cannot be bounded counts whole; one allocated above its
//    kernels counts nowhere (as in TVM).
//    The sum per kernel is at most max_shared_memory_per_block.
//  - Vectors: a load, store or cast of more than 16 bytes at once (the
//    lanes of a vector type, times the extent of each vectorized loop
//    around it whose variable it depends on) rejects, as does a vectorized
//    loop of a runtime extent (which TVM cannot vectorize for GPUs).
//
// Local memory and the number of virtual threads are not limited: TVM's
// postprocessor gives no local memory limit, and virtual threads are
// interleaved into one thread before it verifies. The shared buffers of a
// kernel are summed even where their lifetimes do not overlap (TVM's
// StorageRewrite may let such buffers share memory).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/BufferDimAlign.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <array>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// TVM's max_vector_bytes, which its postprocessor fixes.
constexpr int64_t kMaxVectorBytes = 16;

constexpr StringLiteral kWarpExecution = "warp_execution";
constexpr StringLiteral kThreadExtentLow =
    "meta_schedule.thread_extent_low_inclusive";
constexpr StringLiteral kThreadExtentHigh =
    "meta_schedule.thread_extent_high_inclusive";

bool isThreadBound(ForOp loop) {
  return loop.getKind() == ForKind::ThreadBinding && loop.getThread();
}

/// 0, 1, 2 for a loop bound to threadIdx.x, .y, .z; -1 otherwise.
int getThreadIdxDim(ForOp loop) {
  if (!isThreadBound(loop))
    return -1;
  return llvm::StringSwitch<int>(*loop.getThread())
      .Case("threadIdx.x", 0)
      .Case("threadIdx.y", 1)
      .Case("threadIdx.z", 2)
      .Default(-1);
}

/// The outermost thread-bound loop around (or at) `op`: the root of its
/// kernel; null outside kernels.
ForOp getKernelRoot(Operation *op) {
  ForOp root;
  for (; op; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op); loop && isThreadBound(loop))
      root = loop;
  return root;
}

/// The bytes of one value of `type` (a scalar, or a vector's lanes); 0 for
/// types without a size (index, handles).
int64_t getTypeBytes(Type type) {
  int64_t lanes = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    lanes = vector.getNumElements();
    type = vector.getElementType();
  }
  if (!type.isIntOrFloat())
    return 0;
  return lanes * llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

//===----------------------------------------------------------------------===//
// Thread extents
//===----------------------------------------------------------------------===//

/// The integer of annotation `key` of `block`, if it is one.
std::optional<int64_t> getIntegerAnnotation(BlockOp block, StringRef key) {
  if (auto value = dyn_cast_if_present<IntegerAttr>(getAnnotation(block, key)))
    return value.getInt();
  return std::nullopt;
}

/// TVM's ThreadExtentChecker over the ops nested in `op`, with `threads`
/// the threadIdx.{x,y,z} extents around it.
bool checkThreadExtents(Operation *op, std::array<int64_t, 3> threads,
                        int64_t warpSize) {
  for (Region &region : op->getRegions())
    for (Block &body : region)
      for (Operation &child : body) {
        std::array<int64_t, 3> inner = threads;
        if (auto loop = dyn_cast<ForOp>(child)) {
          if (int dim = getThreadIdxDim(loop); dim >= 0) {
            std::optional<int64_t> extent = loop.getConstantExtent();
            if (!extent)
              return false;
            inner[dim] = *extent;
          }
        } else if (auto block = dyn_cast<BlockOp>(child)) {
          if (getAnnotation(block, kWarpExecution))
            inner[0] = warpSize;
          std::optional<int64_t> low =
              getIntegerAnnotation(block, kThreadExtentLow);
          std::optional<int64_t> high =
              getIntegerAnnotation(block, kThreadExtentHigh);
          int64_t product = inner[0] * inner[1] * inner[2];
          if (low && high && (product < *low || product > *high))
            return false;
        }
        if (child.getNumRegions() &&
            !checkThreadExtents(&child, inner, warpSize))
          return false;
      }
  return true;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Whether two loops bound to one tag run the same iterations (the same
/// start and extent: constants, or the same runtime values).
bool haveSameRange(ForOp a, ForOp b) {
  auto same = [](OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> cx = getConstantIntValue(x);
    std::optional<int64_t> cy = getConstantIntValue(y);
    return cx || cy ? cx == cy : x == y;
  };
  return same(a.getMixedLowerBound(), b.getMixedLowerBound()) &&
         same(a.getMixedUpperBound(), b.getMixedUpperBound());
}

/// Whether the loops of `kernel` bound to one tag agree on their extent
/// and its threads per block are at most `maxThreads`.
bool checkKernelThreads(ForOp kernel, int64_t maxThreads) {
  llvm::StringMap<ForOp> byTag;
  bool agree = true;
  kernel->walk([&](ForOp loop) {
    if (!isThreadBound(loop))
      return WalkResult::advance();
    auto [it, inserted] = byTag.try_emplace(*loop.getThread(), loop);
    if (!inserted && !haveSameRange(it->second, loop)) {
      agree = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!agree)
    return false;
  int64_t threads = 1;
  for (StringRef tag : {"threadIdx.x", "threadIdx.y", "threadIdx.z"}) {
    auto it = byTag.find(tag);
    if (it == byTag.end())
      continue;
    // A runtime threadIdx extent was rejected by the thread extent check.
    threads *= it->second.getConstantExtent().value_or(1);
    if (threads > maxThreads)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// The blocks inside `scope` whose bodies or regions access `buffer` (the
/// nearest block around each load, store or other use); false when a use
/// is outside such a block.
bool collectAccessingBlocks(Value buffer, Operation *scope,
                            SmallVectorImpl<BlockOp> &blocks) {
  llvm::SetVector<BlockOp> found;
  for (Operation *user : buffer.getUsers()) {
    auto block = dyn_cast<BlockOp>(user);
    if (!block)
      block = user->getParentOfType<BlockOp>();
    if (!block || !scope->isProperAncestor(block))
      return false;
    found.insert(block);
  }
  blocks.assign(found.begin(), found.end());
  return true;
}

/// The kernel a shared buffer is allocated in once placed (null: above
/// the kernels) and the bytes it takes there.
std::pair<ForOp, int64_t>
getPlacedSharedBuffer(AllocBufferOp alloc,
                      const DenseMap<Value, SmallVector<DimAlign>> &aligns) {
  Value buffer = alloc.getBuffer();
  MemRefType type = alloc.getBuffer().getType();
  ForOp kernel = getKernelRoot(alloc);
  // TVM counts an allocation of a runtime size as empty.
  if (!type.hasStaticShape())
    return {kernel, 0};
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<BlockOp> blocks;
  int64_t versions = 1;
  if (collectAccessingBlocks(buffer, alloc->getParentOp(), blocks) &&
      !blocks.empty()) {
    if (Operation *lca = getCompactionAnchor(blocks)) {
      kernel = getKernelRoot(lca);
      SmallVector<BlockOp> outermost = getOutermostBlocksUnder(lca, blocks);
      Refusal why;
      FailureOr<CompactPart> part = getCompactPart(lca, buffer, outermost, why,
                                                   /*sameThreadIsPoint=*/true);
      if (succeeded(part))
        shape = part->shape;
      // A software pipeline keeps a copy per stage it spans.
      versions = getPipelineVersions(lca, outermost);
    }
  }
  if (!kernel)
    return {kernel, 0};
  int64_t elements = 1;
  auto it = aligns.find(buffer);
  if (it != aligns.end() && !shape.empty()) {
    SmallVector<int64_t> strides = getAlignedStrides(shape, it->second);
    elements = strides.front() * shape.front();
  } else {
    for (int64_t extent : shape)
      elements *= extent;
  }
  return {kernel, elements * getTypeBytes(type.getElementType()) * versions};
}

/// Whether each kernel of `func` holds at most `maxBytes` of shared
/// memory.
bool checkSharedMemory(FunctionOpInterface func, int64_t maxBytes) {
  SmallVector<AllocBufferOp> shared;
  func->walk([&](AllocBufferOp alloc) {
    StringRef scope = getStorageScope(alloc.getBuffer().getType());
    if (scope == "shared" || scope == "shared.dyn")
      shared.push_back(alloc);
  });
  if (shared.empty())
    return true;
  DenseMap<Value, SmallVector<DimAlign>> aligns = collectBufferDimAligns(func);
  DenseMap<Operation *, int64_t> bytesPerKernel;
  for (AllocBufferOp alloc : shared) {
    auto [kernel, bytes] = getPlacedSharedBuffer(alloc, aligns);
    if (kernel && (bytesPerKernel[kernel] += bytes) > maxBytes)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Vector width
//===----------------------------------------------------------------------===//

/// Whether `value` differs between the iterations of the loop of variable
/// `var`: it is `var`, or computed from it (through the ops defining it and
/// the bindings of the block iteration variables it uses).
bool variesWith(Value value, Value var) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<void *, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == var)
      return true;
    if (!seen.insert(v.getAsOpaquePointer()).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
      if (!block || arg.getArgNumber() >= block.getNumIterVars())
        continue;
      AffineExpr binding = block.getBindingExprs()[arg.getArgNumber()];
      for (auto [k, input] : llvm::enumerate(block.getBindingValues()))
        if (binding.isFunctionOfDim(k))
          work.push_back(input);
      continue;
    }
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The values of `op` that make it work on vectors when they vary (the
/// indices of a load; the indices and value of a store; a cast's source),
/// and the type it works on; none for other ops.
Type getVectorCandidate(Operation *op, SmallVectorImpl<Value> &sources) {
  if (auto load = dyn_cast<LoadOp>(op)) {
    llvm::append_range(sources, load.getIndices());
    return load.getResult().getType();
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    llvm::append_range(sources, store.getIndices());
    sources.push_back(store.getValue());
    return store.getValue().getType();
  }
  if (isa<CastOpInterface>(op) && op->getNumOperands() == 1 &&
      op->getNumResults() == 1) {
    sources.push_back(op->getOperand(0));
    return op->getResult(0).getType();
  }
  return Type();
}

/// Whether no load, store or cast of `func` works on more than
/// `maxBytes` at once, and every vectorized loop has a constant extent.
bool checkVectorBytes(FunctionOpInterface func, int64_t maxBytes) {
  bool ok = true;
  func->walk([&](Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op);
        loop && loop.getKind() == ForKind::Vectorized &&
        loop.getConstantExtent().value_or(0) < 1) {
      ok = false;
      return WalkResult::interrupt();
    }
    if (auto alloc = dyn_cast<AllocBufferOp>(op)) {
      Type element = alloc.getBuffer().getType().getElementType();
      if (isa<VectorType>(element) && getTypeBytes(element) > maxBytes) {
        ok = false;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    SmallVector<Value> sources;
    Type type = getVectorCandidate(op, sources);
    int64_t bytes = type ? getTypeBytes(type) : 0;
    if (bytes == 0)
      return WalkResult::advance();
    int64_t lanes = 1;
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
      auto loop = dyn_cast<ForOp>(p);
      if (!loop || loop.getKind() != ForKind::Vectorized)
        continue;
      Value var = loop.getInductionVar();
      if (llvm::any_of(sources, [&](Value s) { return variesWith(s, var); }))
        lanes *= *loop.getConstantExtent();
    }
    if ((lanes > 1 || isa<VectorType>(type)) && lanes * bytes > maxBytes) {
      ok = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return ok;
}

//===----------------------------------------------------------------------===//
// The postprocessor
//===----------------------------------------------------------------------===//

class VerifyGPUCode : public Postproc {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    if (!context.target) {
      error = "VerifyGPUCode needs the TuneContext's target";
      return failure();
    }
    auto extract = [&](StringRef name, int64_t &into) {
      std::optional<int64_t> value = context.target->getInt(name);
      if (!value) {
        error = ("VerifyGPUCode: \"" + name + "\" is not defined in the target")
                    .str();
        return failure();
      }
      into = *value;
      return success();
    };
    if (failed(
            extract("max_shared_memory_per_block", maxSharedMemoryPerBlock)) ||
        failed(extract("max_threads_per_block", maxThreadsPerBlock)) ||
        failed(extract("thread_warp_size", threadWarpSize)))
      return failure();
    return success();
  }

  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      if (threadWarpSize <= 0 ||
          !checkThreadExtents(func, {1, 1, 1}, threadWarpSize))
        return false;
      SmallVector<ForOp> kernels;
      func->walk<WalkOrder::PreOrder>([&](ForOp loop) {
        if (!isThreadBound(loop))
          return WalkResult::advance();
        kernels.push_back(loop);
        return WalkResult::skip();
      });
      if (kernels.empty())
        continue;
      for (ForOp kernel : kernels)
        if (!checkKernelThreads(kernel, maxThreadsPerBlock))
          return false;
      if (!checkSharedMemory(func, maxSharedMemoryPerBlock) ||
          !checkVectorBytes(func, kMaxVectorBytes))
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(std::make_shared<VerifyGPUCode>(*this));
  }

  std::string str() const override {
    return defaultRepr("VerifyGPUCode", this);
  }

private:
  int64_t maxSharedMemoryPerBlock = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t threadWarpSize = -1;
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createVerifyGPUCode() {
  return std::make_shared<VerifyGPUCode>();
}
