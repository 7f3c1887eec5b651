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
      scope (block or function body) otherwise; a buffer whose writer
      carries storage_align's `buffer_dim_align` annotation is allocated
      flat with the padded size and seen through a
      `memref.reinterpret_cast` with the aligned strides;
    - `tir.allocate_const` becomes a constant `memref.global` of the module
      (`@__tir_const_<name>`), read with `memref.get_global` where the
      buffer was (so the pass runs on the module when a function holds
      constant data);
    - `tir.for` becomes `scf.parallel` for `parallel` loops and `scf.for`
      otherwise; a `vectorized` or `unrolled` loop keeps its kind in a
      `tir.loop_kind` attribute on the `scf.for` for the passes that act on
      it;
    - `tir.load` / `tir.store` become `memref.load` / `memref.store` with
      their index expressions expanded to `arith` (over the bindings of
      their block where indices mix its variables with other values, so
      that the two cancel);
    - `tir.match_buffer` becomes a `memref.subview` of its region, whose
      starts are simplified the same way (over the bindings of the blocks
      around it);
    - `tir.name` parameter attributes are dropped.

    Thread-bound loops are left to the GPU lowering: the pass fails on
    them with a diagnostic.

    With `compact-buffers` (on in `--tir-lower-to-llvm`), TVM's
    PlanAndUpdateBufferAllocationLocation + CompactBufferAllocation: a
    buffer whose accesses all lie in blocks under one loop, each iteration
    of which touches a part of its own (a box of constant extents that
    moves by at least its extent from one iteration to the next, across
    every loop out to the allocation, none of them vectorized), gets the
    box's shape, its indices shifted by the box's start; it is allocated
    per iteration of the innermost parallel loop on the way, else where it
    was (serial iterations reuse it): a `local` accumulator
    `Cl[1024, 1024]` written in 8 x 32 tiles under a parallel tile loop
    becomes an 8 x 32 buffer per tile. The innermost such loop is taken;
    other buffers stay where and as they are.

    Accesses are simplified over the loops' ranges once a block's bindings
    are substituted (TVM's Simplify after ConvertBlocksToOpaque):
    `B[vj floordiv 32, vk, vj mod 32]` with `vj = j0 * 32 + j1 * 16 + j2`,
    `j1 < 2`, `j2 < 16`, becomes `B[j0, vk, j1 * 16 + j2]`.

    With `drop-storage-scopes`, buffers allocated in a TVM storage scope
    (`memref<..., "shared">`, `"local"`, `"global"`) become plain memory: on a
    CPU every scope is the same memory.
  }];
  let options = [
    Option<"dropStorageScopes", "drop-storage-scopes", "bool",
           /*default=*/"false",
           "Allocate buffers of every storage scope in default memory (CPU)">,
    Option<"compactBuffers", "compact-buffers", "bool", /*default=*/"false",
           "Allocate each buffer in the loop whose iterations touch disjoint "
           "parts of it, with the shape of one part (TVM's "
           "CompactBufferAllocation)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertTIRToGPUPass : Pass<"convert-tir-to-gpu"> {
  let summary = "Turn nests of thread-bound tir loops into gpu.launch kernels";
  let description = [{
    Each outermost `tir.for` bound to a thread (`thread_binding<"...">`),
    with everything under it, becomes one `gpu.launch`, as TVM splits a
    function into kernels: `blockIdx.{x,y,z}` loops set the grid,
    `threadIdx.{x,y,z}` loops the block, each dimension as large as the
    largest loop bound to it (constant extents, or one runtime extent
    defined outside the kernel). Every thread-bound loop inside becomes its
    induction variable, `lower bound + the thread's index`, and its body
    runs under `if index < extent` when the dimension is larger than the
    loop. Several loops may share a tag (one after another); a tag bound
    again inside its own loop and dynamic extents that differ are errors
    naming the loop. Loops bound to virtual threads (`vthread`,
    `vthread.{x,y,z}`) run serially in each thread, once the kernel's
    buffers are placed (with them counted as threads). The kernels' other
    tir ops stay for `--convert-tir-to-scf`, which runs after this.

    Before the kernels are formed, each WMMA fragment buffer
    (`"wmma.matrix_a"`, `"wmma.matrix_b"`, `"wmma.accumulator"`: f16 16 x 16
    tiles, 8 elements per lane as mma.sync's operands) becomes a `"local"`
    buffer `(..., R/16, C/16, 8)`, and each `"warp"` buffer (a tensor-core
    fragment: its second-to-last dimension the warp's 32 lanes) becomes a
    `"local"` buffer without that dimension, every access and view giving
    up the lane index, which must be the variable of a loop bound to
    threadIdx.x of 32 iterations (TVM's LowerWarpMemory); then the
    `"shared"` / `"local"` buffers allocated at the root move into their
    kernels, compacted (views of them count as their blocks' accesses).
    In each kernel, the serial loops of few iterations whose variable
    indexes a thread's private buffer, that are not a k step of
    cooperative copies (a loop feeding a reduction that writes shared
    memory) and stay
    small unrolled, are marked `unrolled` (annotation `register_tile`), so
    that register tiles and fragments get constant indices.

    Shared buffers become the launch's workgroup memory: static (workgroup
    attributions) up to 48 KiB; `"shared.dyn"` buffers, and all of a
    kernel's shared buffers when the static ones would hold more, are views
    of the launch's dynamic shared memory (`gpu.dynamic_shared_memory`,
    each buffer at a 16-byte boundary, the launch asking for the total),
    up to what one block of `chip` may hold (`max-shared-memory` to say
    otherwise). A software-pipelined loop's asynchronous stages
    (`software_pipeline_async_stages`, sm_80 and newer) have their copies
    of global into shared memory marked for `tir-lower-async-copies`
    (cp.async), committed as a group per stage and iteration, and waited
    for before the statements that touch what they write; barriers treat
    each wait as the point where the copies land.

    A kernel may use the function's parameters (and views of them) and
    scalars defined before it. With `require-kernels`, a buffer of the
    global scope the host part allocates and a kernel uses (an
    intermediate between kernels) is GPU memory: `gpu.alloc` where it was,
    `gpu.dealloc` at the end of its scope, in order with the kernels; the
    host may not access it. Refused with the loop's, block's or buffer's
    name: launches over CUDA's limits; a thread-bound loop that reaches a
    reduce iteration variable (for threadIdx, a cross-thread reduction of
    a form not lowered: see docs/gpu.md; a race for blockIdx); other
    buffers made outside the kernel (constants; without
    `require-kernels`, global intermediates); buffers in the kernel with
    a scope other than global / shared / local, or (but shared ones) with
    thread-bound loops inside their scope; more shared memory than a block
    of `chip` holds; asynchronous stages before sm_80; calls (but the
    tensor-core instructions and an asynchronous pipeline's commit and
    wait) and constant buffers inside kernels; a warp buffer without its
    lanes, or read at another lane's index. Any other buffer in a kernel is
    private to its thread.

    With `require-kernels` (as `tir-lower-to-nvvm` runs it for code the
    runtime calls, whose buffers are in GPU memory), a load or store of a
    function parameter outside every kernel is refused too.
  }];
  let options = [
    Option<"requireKernels", "require-kernels", "bool", /*default=*/"false",
           "Refuse loads and stores of the function's buffers outside GPU "
           "kernels (the buffers are in GPU memory; TVM's VerifyMemory)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "The GPU the kernels are for (sm_XY): its shared memory per "
           "block, and whether it has cp.async (sm_80+)">,
    Option<"maxSharedBytes", "max-shared-memory", "int64_t", /*default=*/"0",
           "The shared memory one block may hold, in bytes (0: the chip's "
           "limit)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TIRFinalizeGPUKernelsPass
    : Pass<"tir-finalize-gpu-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower all-reduces and align the shared memory of outlined "
                "GPU kernels";
  let description = [{
    Runs on outlined kernels (`tir-lower-to-nvvm` runs it after
    outlining). Each `gpu.all_reduce` (from a cross-thread reduction
    `convert-tir-to-gpu` lowered) becomes upstream MLIR's lowering: warp
    shuffles, then one value per warp through shared memory, with
    barriers. Each clustered `gpu.subgroup_reduce` (a reduction within
    groups of a warp's lanes) becomes warp shuffles. Every workgroup
    attribution of the module's `gpu.func`s gets `llvm.align = 16`
    (unless it has an alignment), so that its
    shared-memory global is 16-byte aligned and the NVPTX backend may load
    and store four floats of it at once (`ld.shared.v4`) without
    misaligned accesses. A thread's private allocations of static size
    move to the kernel's entry block (LLVM keeps only those in registers).
  }];
}

def TIRRequirePTXVersionPass
    : Pass<"tir-require-ptx-version", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Raise a kernel module's PTX ISA version to what its "
                "instructions need";
  let description = [{
    Runs after the NVVM target is attached (`tir-lower-to-nvvm` runs it
    then). A kernel module holding an instruction newer than the chip's
    default PTX version (mma.sync on 8-bit floats, `.e4m3` / `.e5m2`: PTX
    8.4) gets `+ptx84` in its `#nvvm.target` features, unless the features
    name a PTX version already (the user's choice stays; ptxas says if it is
    too old). Other modules keep the chip's default, which older drivers
    can load.
  }];
}

def TIRLowerMMAInstructionsPass : Pass<"tir-lower-mma-instructions"> {
  let summary = "Lower the tensor-core instructions of mma.sync's intrinsics "
                "to nvgpu";
  let description = [{
    The implementations of `tvm.tir.tensor_intrin.cuda`'s mma.sync
    intrinsics call two instructions on buffer views (memref subviews once
    tir is lowered); each lane of a warp makes the call with its own
    fragments (the lane's registers: a buffer of as many elements, in a
    row):

    - `tir.call "call_extern"("tir.ptx_ldmatrix", %frag, %shared, %row,
      %col, %transposed)`: `ldmatrix.sync.aligned.m8n8.x4[.trans].b16`,
      four 8 x 8 matrices of 16-bit elements (or 8 x 16 of 8-bit ones)
      whose rows start at `%shared[%row, %col]` (one row address per lane)
      into the lane's fragment, in order (`nvgpu.ldmatrix`);
    - `tir.call "call_extern"("tir.ptx_mma", "m16n8k16" | "m16n8k32",
      a, b, c, %A, a_at, %B, b_at, %C, c_at)` (a, b, c: "fp16", "int8",
      "fp32", "int32"): `mma.sync.aligned.<shape>.row.col` on the lane's
      operands read from its fragments from those positions: all of A's,
      half of B's, half of C's, which the result replaces
      (`nvgpu.mma.sync`);
    - `tir.call "call_extern"("tir.ptx_fragment_fill", %frag, value)`: the
      lane's 8 elements of a 16 x 16 accumulator set to `value`;
    - `tir.call "call_extern"("tir.ptx_fragment_store", %frag, %tile,
      %lane)`: the lane's 8 elements of an accumulator (mma.sync's C
      layout) stored into the 16 x 16 `%tile`, in pairs of neighbours;
    - `tir.call "call_extern"("tir.ptx_fragment_load_b8", %frag, %tile,
      %lane)`: the lane's 8 bytes of the B operand of two m16n8k16 int8
      products from a 16 x 16 tile stored k x n (element l is
      `tile[4 (lane mod 4) + l mod 4, lane div 4 + 8 (l div 4)]`).

    - `tir.call "call_extern"("tir.ptx_wgmma", "m64n<N>k16", a, b, "fp32",
      %A, %B, %D, d_at)` (a = b: "fp16" or "bf16"; sm_90a): the
      warpgroup's `wgmma.mma_async` D (64 x N) += A (64 x 16) B^T (N x 16),
      both operands K-major in shared memory as 2 x rows x 8 tiles (the
      layout `(k / 8, row, k % 8)`: rows of 16 bytes packed, the halves of
      k a multiple of 16 bytes apart), described to the instruction by
      descriptors (no swizzling: leading byte offset the first dimension's
      stride, stride byte offset 128); the thread's N / 2 accumulators from
      `%D` at `d_at`. Each is preceded by `fence.proxy.async` (the tiles
      were written through the generic proxy) and `wgmma.fence`, then
      committed and waited for (`tir-batch-warpgroup-products` later lets
      consecutive ones run back to back).

    ldmatrix loads four 8 x 8 blocks of 16-bit elements, or two where the
    fragment holds a 16 x 16 tile of bytes (m16n8k16 int8); the products
    are m16n8k16 (fp16, int8) and m16n8k32 (int8).

    Refused, naming the call: a fragment that is not the lane's (a warp
    buffer not yet divided among the lanes, another element count), an
    element type or shape the instruction does not take.
  }];
  let dependentDialects = ["::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TIRLowerAsyncCopiesPass : Pass<"tir-lower-async-copies"> {
  let summary = "Lower an asynchronous software pipeline's copies to "
                "cp.async";
  let description = [{
    `convert-tir-to-gpu` pipelines a loop's asynchronous stages
    (`software_pipeline_async_stages`) by marking their copies of global
    memory into shared memory (`tir.async_copy` on the store, a memref or
    vector store of a load's value once lowered and vectorized) and calling
    `tir.call "call_extern"("tir.ptx_commit_group")` and
    `("tir.ptx_wait_group", N)`. This pass makes each marked copy
    `nvgpu.device_async_copy` (cp.async; `.cg`, bypassing L1, for 16-byte
    pieces) and the calls `nvvm.cp.async.commit.group` and
    `nvvm.cp.async.wait.group N`, as TVM's InjectPTXAsyncCopy does.

    cp.async moves 4, 8 or 16 bytes whose global and shared addresses are
    aligned to the size: a copy is split into the largest such pieces its
    addresses are known to be aligned to (the buffers' alignment: the
    runtime's parameters are 16-byte aligned, `memref.assume_alignment`,
    shared memory at 16 bytes; and the known power-of-two factors of the
    index arithmetic). A copy of fewer aligned bytes stays a load and a
    store, which the wait and the barrier after it order as well. A wait
    whose count is not a non-negative integer literal is refused.
  }];
  let dependentDialects = ["::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def TIRBatchWarpgroupProductsPass : Pass<"tir-batch-warpgroup-products"> {
  let summary = "Issue consecutive warpgroup products (wgmma) together";
  let description = [{
    `tir-lower-mma-instructions` waits for each `wgmma.mma_async` at once.
    Where products of one shape follow one another in a block (a k tile's,
    once its loop is unrolled) and pass the accumulators on unchanged (the
    first one's results, pinned, stored into the thread's fragment and
    loaded back from the same place for the next, pinned again, nothing
    else reading them, nothing else in between touching memory), this pass
    removes that wait, those fences and those pins: the products are
    issued back to back, each committed as its own group, and the last
    one's wait covers them all. Anything else in between (a read of the
    accumulators, arithmetic on them, another accumulator, a barrier, an
    access of memory, a call) keeps them apart.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TIRGraphBuffersToDevicePass
    : Pass<"tir-graph-buffers-to-device", "::mlir::ModuleOp"> {
  let summary = "Place the tensors of graph functions in GPU memory";
  let description = [{
    In a GPU build, a graph function (`tir.graph`, from
    `--tir-bufferize-graph`) runs on the host and passes its tensors to the
    kernels of the prim_funcs it calls. This pass makes its intermediates
    `gpu.alloc` and its frees `gpu.dealloc` (the runtime's stream-ordered
    allocator), its copies `gpu.memcpy` (both in order with the kernels),
    and has each constant it reads (a weight) come from a copy in GPU
    memory that the runtime makes at the function's first call on a device
    (`tirCudaConstant`, under a slot of the library's) and frees when the
    library unloads (a static destructor). A graph function that reads or
    writes tensor data on the host, allocates on the host stack, copies a
    strided view, reads a global that is no constant, passes tensors to a
    function the module does not define or calls a packed function is
    refused, at the op.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TIRFoldPrivateOffsetsPass : Pass<"tir-fold-private-offsets"> {
  let summary = "Fold the offsets of a thread's compacted buffers into "
                "their accesses";
  let description = [{
    A thread's private buffer (a `memref.alloca` of static shape: a
    register tile, a tensor-core fragment) compacted in a loop is seen
    through a `memref.reinterpret_cast` whose offset moves with the loop,
    while its accesses index it with the loop's variable again: the two
    cancel, but LLVM folds them only after its last scalar replacement of
    aggregates, and the buffer stays in local memory. Run after
    `expand-strided-metadata` and `lower-affine` (views are plain offsets
    then), this pass takes each `memref.load` / `memref.store` (and 1-D
    `vector.load` / `vector.store` of stride 1) through such a view, writes
    its element offset as a linear form over the values it is computed
    from (sums, differences, products and left shifts by constants
    folded), drops the terms that cancel and accesses a flat view of the
    buffer at what is left: a constant where the access is one of an
    unrolled loop.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertLinalgToTIRPass : Pass<"convert-linalg-to-tir"> {
  let summary = "Rewrite linalg ops on buffers as TensorIR blocks";
  let description = [{
    Every linalg op on buffers (memrefs) under the operation, generic or
    named, becomes a loop nest over its static loop ranges holding one
    `tir.block`: its parallel loops are spatial iteration variables, its
    reduction loops reduce ones, each operand the body reads is a
    `tir.load` through its indexing map, the body's arith / math ops are
    cloned, and each yielded value is stored through its output's map. The
    block's read and write regions are inferred. The block can then be
    scheduled like any other.

    Names are TVM's (TOPI's and Relax's legalization), so that a schedule
    written for TVM finds its blocks: the matmul family (matmul,
    batch_matmul, matvec, vecmat, dot, mmt4d, contract, ...) is `matmul`
    over loops `i0, i1, ...` reducing `k`; `conv_2d_nchw_fchw` is
    `conv2d_nchw` over `nn, ff, yy, xx` reducing `rc, ry, rx`
    (`conv_2d_nhwc_hwcf`: `conv2d_nhwc`), other convolutions keep linalg's
    layout (`depthwise_conv2d_nhwc_hwc`); pooling is `pool_max` /
    `pool_min` / `pool_sum` reducing `rv0, rv1`; fill, copy, transpose and
    broadcast are `T_full`, `T_copy`, `T_transpose`, `T_broadcast_to` over
    `ax0, ...`; `linalg.reduce` is `<input>_red` reducing `k0, ...`;
    element-wise ops (named, `linalg.elementwise`, `linalg.map`, or a
    generic of one arith / math op) are TOPI's `T_add`, `T_multiply`,
    `T_exp`, ...; ReLU (max with 0) is topi.nn.relu's `compute`; an op of
    no inputs yielding constants is `T_full`; anything else `compute` over
    `i0, ...`. Block variables
    are `v_<axis>`, as TVMScript prints them; a name taken in the function
    gets `_1`, `_2`, ...

    A reduction whose output was last written by a fill of a constant (a
    `linalg.fill` of exactly that buffer, or of a buffer then copied over,
    as one-shot bufferization writes it; no other access of its memory,
    through any view, in between), that reads it through no input and
    indexes every element of it by parallel loops only, starts from that
    constant in a `tir.init` (TVM's reduction block); the fill (and copy)
    go. In a function with ops converted, a `memref.copy` between static
    buffers or windows of them (`memref.subview`: what bufferization makes
    of `tensor.pad`) becomes a block `T_copy`. Buffers a function allocates (`memref.alloc` of static
    shape) whose uses are all tir accesses become its `tir.alloc_buffer`,
    named after the block writing them (TVM's intermediates).

    What a block cannot express is left as it is, with a remark saying
    why: ops on tensors (bufferize first, as `--tir-from-tensors` does),
    linalg ops that are not structured (`linalg.softmax`, `linalg.pack`),
    dynamic or empty loop ranges, a scalar operand or an outside value that is not a
    constant, a body holding anything but scalar arith / math ops.
    (`convert-linalg-to-tir-ops.mlir` has every family, and those left.)
  }];
  let dependentDialects = ["::mlir::tir::TIRDialect",
                           "::mlir::arith::ArithDialect"];
}

def TIRLegalizeOpsPass : Pass<"tir-legalize-ops", "::mlir::ModuleOp"> {
  let summary = "Turn high-level ops of graph functions into prim_funcs and calls";
  let description = [{
    Relax's LegalizeOps. A graph function's high-level operators are
    upstream linalg ops on tensors (linalg.matmul, linalg.transpose,
    convolutions, pooling, linalg.generic for element-wise and broadcasting
    ops, linalg.softmax). Each becomes a private prim_func computing it as
    one TensorIR block (as `--convert-linalg-to-tir` builds it: parallel
    loops spatial, reduction loops reduce) and a `tir.call_tir` of it:

    - an output that starts from a `linalg.fill` of a constant gets that
      constant in the block's `T.init`; one that starts from
      `tensor.empty` is written only; one that starts from another tensor
      takes it as an input, copied in first (a block `<name>_init`);
    - inputs the op's body does not read (a pooling window) are not passed;
    - functions are named after the op (its `tir.name`, else the op's name,
      "compute" for a generic), numbered when taken; the same computation
      on the same shapes is one function;
    - an operator kept whole (`tir.composite`, as `nn.attention`) is first
      replaced by its parts, which legalize as the others;
    - `linalg.softmax` is first decomposed into the ops it stands for,
      whose functions are then one (`softmax`: TVM's four blocks, the
      values between them intermediate buffers);
    - a `linalg.transpose` of a constant (a weight Relax's `linear`
      transposes) is folded into a constant, as Relax's FoldConstant does
      before a model runs;
    - dynamic dimensions keep the graph's shape variables (`tir.dim_vars`),
      loops running to the sizes of the buffers' dimensions.

    Fusion of the calls is `--tir-fuse-ops` and `--tir-fuse-tir`'s.

    An op whose dynamic loop ranges no operand gives, or whose body is not
    scalar arith / math, is an error naming the reason.
  }];
  let dependentDialects = ["::mlir::tir::TIRDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TIRSimplifyLayoutsPass : Pass<"tir-simplify-layouts", "::mlir::ModuleOp"> {
  let summary = "Shorten the chains of transposes and reshapes of graph functions";
  let description = [{
    Before LegalizeOps makes a kernel of every `linalg.transpose`, the
    transposes and reshapes of each graph function are made as few as the
    layouts allow: a transpose of a transpose is one transpose, and none
    where it permutes nothing (upstream's `linalg.transpose`
    canonicalizations); a transpose that moves only dimensions of extent 1
    is a reshape (`tensor.collapse_shape` then `tensor.expand_shape`: views,
    no kernel); a reshape of a reshape is one, or none where they cancel
    (upstream's reshape canonicalizations). PyTorch's attention, as
    torch.export gives it, splits heads with a view and two transposes that
    cancel. Operators kept whole (`tir.composite`, as `nn.attention`) are
    first replaced by their parts, whose layouts then chain with the
    graph's; with `keep-composites`, they stay whole and the chains around
    them are shortened (a GPU pipeline does this before handing attention
    to a fused kernel). The values computed and the function's interface
    do not change. The Relax pipelines ("zero", "default",
    "static_shape_tuning") run it before LegalizeOps.
  }];
  let options = [
    Option<"keepComposites", "keep-composites", "bool", /*default=*/"false",
           "Keep the operators kept whole (tir.composite) as they are">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TENSORIR_CONVERSION_PASSES_TD
