//===- Compiler.cpp - build tir modules into callable code ----------------===//

#include "TensorIR/Compiler/Compiler.h"
#include "Link.h"
#include "SizeBounds.h"
#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/InitAllDialects.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/IRCompileLayer.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ScalarEvolutionAliasAnalysis.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tir;
namespace rt = mlir::tir::runtime;

void mlir::tir::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

//===----------------------------------------------------------------------===//
// Lowering and translation
//===----------------------------------------------------------------------===//

/// Runs `pm` on `module`, verifying after each pass or (by default) once at
/// the end: a lowering pass that broke the IR is a bug, which tir-opt's
/// --verify-each (or CompileOptions::verifyEachPass) pins down.
static LogicalResult runVerified(PassManager &pm, ModuleOp module,
                                 const CompileOptions &options) {
  pm.enableVerifier(options.verifyEachPass);
  if (failed(pm.run(module)))
    return failure();
  if (options.verifyEachPass || succeeded(verify(module)))
    return success();
  return module.emitError(
      "internal error: the lowering produced invalid IR (tir-opt with the "
      "same pipeline verifies after each pass and names the one at fault)");
}

/// Inlines the calls between graph functions (Relax's cls.f(x)): a graph
/// function is built as one body of steps. Fails, naming the call, for a
/// call left (a recursive one).
static LogicalResult inlineGraphCalls(ModuleOp module,
                                      const CompileOptions &options) {
  auto callsGraphFunction = [&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    return callee && !callee.isExternal() && isGraphFunction(callee);
  };
  bool any = false;
  module.walk([&](func::CallOp call) { any |= callsGraphFunction(call); });
  if (!any)
    return success();
  PassManager pm(module->getContext());
  // No clean-up of the inlined bodies: the steps stay as they were built.
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  if (failed(runVerified(pm, module, options)))
    return failure();
  WalkResult left = module.walk([&](func::CallOp call) {
    if (!callsGraphFunction(call))
      return WalkResult::advance();
    call.emitError("calls graph function '")
        << call.getCallee()
        << "', which calls itself, directly or through others: tir builds "
           "graph functions whose calls inline";
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

/// Fails, naming the function, when a graph function takes or gives back
/// an opaque object (R.Object, an nn module's effect handle): the runtime
/// passes tensors.
static LogicalResult checkNoObjects(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    auto isObject = [](Type type) { return isa<ObjectType>(type); };
    if (llvm::any_of(func.getArgumentTypes(), isObject) ||
        llvm::any_of(func.getResultTypes(), isObject))
      return func.emitError("graph function '")
             << func.getSymName()
             << "' takes or returns an R.Object (an effect handle, as "
                "export_tvm(debug=True) writes): tir builds functions of "
                "tensors (export with debug=False)";
  }
  return success();
}

static LogicalResult lower(ModuleOp module, const CompileOptions &options) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  module->getContext()->appendDialectRegistry(registry);
  PassManager pm(module->getContext());
  if (options.device == rt::Device::CUDA) {
    LowerToNVVMOptions nvvm;
    nvvm.chip = options.cudaChip;
    nvvm.format = options.cudaFormat;
    nvvm.cudaPath = options.cudaPath;
    nvvm.hostToLLVM = true;
    buildLowerToNVVMPipeline(pm, nvvm);
    TIRSetLLVMTargetPassOptions target;
    target.cpu = options.targetCPU;
    target.features = options.targetFeatures;
    pm.addPass(createTIRSetLLVMTargetPass(target));
    return runVerified(pm, module, options);
  }
  LowerToLLVMOptions pipeline;
  pipeline.targetCPU = options.targetCPU;
  pipeline.targetFeatures = options.targetFeatures;
  pipeline.openmp = options.openmp;
  pipeline.maxVectorLanes = options.maxVectorLanes;
  pipeline.approximateMath = options.approximateMath;
  pipeline.reassociateReductions = options.reassociateReductions;
  buildLowerToLLVMPipeline(pm, pipeline);
  return runVerified(pm, module, options);
}

/// `void __tir_packed_<name>(void **args)`: loads every argument from its
/// slot and calls the C interface of the function.
static bool addPackedEntry(llvm::Module &m, const rt::FunctionInfo &info) {
  llvm::Function *target = m.getFunction("_mlir_ciface_" + info.name);
  if (!target || target->arg_size() != info.args.size())
    return false;
  llvm::LLVMContext &ctx = m.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
  auto *entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                       rt::packedSymbol(info.name), m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  SmallVector<llvm::Value *> args;
  for (llvm::Argument &param : target->args()) {
    llvm::Value *slot = b.CreateLoad(
        ptr, b.CreateConstGEP1_64(ptr, entry->getArg(0), param.getArgNo()));
    // Buffers travel as pointers to their descriptors; scalars by value.
    args.push_back(param.getType()->isPointerTy()
                       ? slot
                       : b.CreateLoad(param.getType(), slot));
  }
  b.CreateCall(target, args);
  b.CreateRetVoid();
  return true;
}

static std::unique_ptr<llvm::Module>
translate(Operation *module, llvm::LLVMContext &ctx,
          const std::vector<rt::FunctionInfo> &functions,
          rt::Device::Type device) {
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(module, ctx);
  if (!m)
    return nullptr;
  for (const rt::FunctionInfo &info : functions) {
    if (!addPackedEntry(*m, info)) {
      module->emitError("no C interface was generated for '")
          << info.name << "'";
      return nullptr;
    }
  }
  llvm::Constant *text = llvm::ConstantDataArray::getString(
      ctx, rt::serializeSignatures(functions), /*AddNull=*/true);
  new llvm::GlobalVariable(*m, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           rt::kMetadataSymbol);
  llvm::Constant *target = llvm::ConstantDataArray::getString(
      ctx, device == rt::Device::CUDA ? "cuda" : "cpu", /*AddNull=*/true);
  new llvm::GlobalVariable(*m, target->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, target,
                           rt::kTargetSymbol);
  return m;
}

/// The CPU, features and options code is generated with, shared by the JIT
/// and the exported library so that both run the same machine code.
struct TargetChoice {
  llvm::Triple triple;
  const llvm::Target *target = nullptr;
  std::string cpu;
  std::string features;
  llvm::TargetOptions options;
};

static FailureOr<TargetChoice> chooseTarget(Operation *anchor,
                                            const CompileOptions &options) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  TargetChoice choice;
  choice.triple = llvm::Triple(llvm::sys::getProcessTriple());
  std::string error;
  choice.target = llvm::TargetRegistry::lookupTarget(choice.triple, error);
  if (!choice.target)
    return anchor->emitError("no LLVM target for this machine: ") << error;
  choice.cpu = options.targetCPU;
  choice.features = options.targetFeatures;
  if (choice.cpu == "native" || choice.cpu.empty()) {
    choice.cpu = llvm::sys::getHostCPUName().str();
    if (choice.features.empty())
      choice.features = getHostCPUFeatures();
  }
  // LLVM ends the process on some unknown CPUs (after a warning it only
  // prints): check the CPU and the features before it sees them.
  if (failed(verifyTargetCPU(anchor->getLoc(), choice.cpu, choice.features)))
    return failure();
  // As TVM's LLVM backend: a multiply feeding an add may become one fused
  // multiply-add (rounded once).
  if (options.fuseMultiplyAdd)
    choice.options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  // Static constructors (a GPU library registers its kernels in one) in
  // .init_array, which the loader runs; LLVM's default, .ctors, it does not.
  choice.options.UseInitArray = true;
  return choice;
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(Operation *anchor, const TargetChoice &choice) {
  // Position-independent: for shared libraries, and for the JIT, which maps
  // code anywhere (out of reach of 32-bit absolute addresses).
  std::unique_ptr<llvm::TargetMachine> machine(
      choice.target->createTargetMachine(
          choice.triple, choice.cpu, choice.features, choice.options,
          llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    anchor->emitError("cannot create a target machine for CPU '")
        << choice.cpu << "'";
  return machine;
}

/// LLVM's analysis managers, with `builder`'s analyses registered and each
/// proxied to the others; with `scalarEvolutionAA`, the default alias
/// analyses and scalar evolution's.
namespace {
struct AnalysisManagers {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;

  explicit AnalysisManagers(llvm::PassBuilder &builder,
                            bool scalarEvolutionAA = false) {
    // Registered first, so that registerFunctionAnalyses keeps it.
    if (scalarEvolutionAA)
      functions.registerPass([&] {
        llvm::AAManager aa = builder.buildDefaultAAPipeline();
        aa.registerFunctionAnalysis<llvm::SCEVAA>();
        return aa;
      });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgsccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgsccs, modules);
  }
};
} // namespace

/// Passes run after LLVM's default pipeline, with scalar evolution in the
/// alias analysis: LICM, then store-to-load forwarding over MemorySSA, then
/// dead-store elimination.
///
/// - LICM keeps a micro-tile's accumulators in registers across the loop
///   over k (loads hoisted, stores sunk). It may do so only where it can
///   tell the tile's rows of C apart; LLVM's pipeline canonicalizes their
///   addresses to `C + 4 * ((r | 64 * i) + b)`, one opaque sum per row,
///   which BasicAA cannot compare, so where A's and C's indices coincide
///   (a 64 x 64 x 64 batch matmul) the default pipeline kept the tile in
///   memory, loaded and stored on every step (42 GFLOP/s against 97 with
///   128 columns). Scalar evolution sees the rows 256 bytes apart.
/// - A reduction whose first step partition-loops peeled (the step where
///   its init runs) stores each accumulator of a micro-tile and then, in
///   the preheader of the loop over the rest of k, LICM reloads it to keep
///   it in a register. GVN, which forwards stores to loads in the default
///   pipeline, looks back at most 100 instructions in a block, and an
///   unrolled 6 x 64 tile's first stores lie further back than that: those
///   accumulators made a round trip through memory (and C's first write)
///   before every tile, measured as 5-10% of a batch matmul with K = 64.
///   EarlyCSE over MemorySSA finds them at any distance; DSE then drops
///   the stores that the tile's final stores overwrite.
///
/// Scalar evolution in the alias analysis of the whole pipeline cost 70%
/// more optimizer time on a batch matmul; here, after it, a few ms.
static void keepAccumulatorsInRegisters(llvm::Module &module,
                                        llvm::TargetMachine *machine) {
  llvm::PassBuilder builder(machine);
  AnalysisManagers analyses(builder, /*scalarEvolutionAA=*/true);
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(
      llvm::LICMPass(llvm::LICMOptions()), /*UseMemorySSA=*/true));
  passes.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  passes.addPass(llvm::DSEPass());
  passes.addPass(llvm::InstCombinePass());
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(passes)));
  pipeline.run(module, analyses.modules);
}

/// LLVM's default pipeline at `optLevel` for `machine`, tuned as MLIR's
/// ExecutionEngine tunes it (unrolling, interleaving and both vectorizers
/// on), without the SLP vectorizer when `slp` is false; then
/// keepAccumulatorsInRegisters' passes.
static void optimizeLLVM(llvm::Module &module, llvm::TargetMachine *machine,
                         unsigned optLevel, bool slp) {
  {
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = slp;
    llvm::PassBuilder builder(machine, tuning);
    AnalysisManagers analyses(builder);
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
    llvm::ModulePassManager pipeline =
        level == llvm::OptimizationLevel::O0
            ? builder.buildO0DefaultPipeline(level)
            : builder.buildPerModuleDefaultPipeline(level);
    pipeline.run(module, analyses.modules);
  }
  if (optLevel > 0)
    keepAccumulatorsInRegisters(module, machine);
}

/// What both the JIT and the exported library start from: the signatures,
/// the target, and the LLVM module (lowered, translated, with the runtime's
/// entry points and signature table, optimized for the target).
struct Prepared {
  std::vector<rt::FunctionInfo> functions;
  TargetChoice choice;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> llvmModule;
};

/// Seconds since `start`.
static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

static FailureOr<Prepared> prepare(ModuleOp module,
                                   const CompileOptions &options,
                                   llvm::LLVMContext &ctx,
                                   CompileTimes &times) {
  Prepared p;
  auto start = std::chrono::steady_clock::now();
  // A lowering error names the op at the user's line; a dump of the
  // half-lowered IR after it ("see current operation") would only bury it.
  MLIRContext *context = module->getContext();
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  auto restore =
      llvm::scope_exit([&] { context->printOpOnDiagnostic(printOp); });
  // The signatures are the ones the user declared: parameters a schedule
  // re-laid out take their declared types back first.
  // Graph functions take buffers (their results as out-parameters) before
  // their signatures are read.
  if (failed(inlineGraphCalls(module, options)) ||
      failed(checkNoObjects(module)))
    return failure();
  PassManager restorePM(context);
  restorePM.addPass(createTIRLegalizeOpsPass());
  restorePM.addPass(createTIRBufferizeGraphPass());
  restorePM.addPass(createTIRLowerPackedCallsPass());
  restorePM.addPass(createTIRRestoreDeclaredLayoutsPass());
  if (failed(runVerified(restorePM, module, options)))
    return failure();
  auto functions = collectSignatures(module);
  if (failed(functions) || failed(lower(module, options)))
    return failure();
  times.lower = secondsSince(start);
  p.functions = std::move(*functions);
  auto choice = chooseTarget(module, options);
  if (failed(choice))
    return failure();
  p.choice = *choice;
  p.machine = createTargetMachine(module, p.choice);
  if (!p.machine)
    return failure();
  // LLVM 22's optimizer can leave invalid IR behind (SROA after the SLP
  // vectorizer, seen for AVX-512 CPUs), which code generation then crashes
  // on: the module is verified after optimization and, when broken,
  // translated and optimized again without the SLP vectorizer.
  for (bool slp : {true, false}) {
    start = std::chrono::steady_clock::now();
    p.llvmModule = translate(module, ctx, p.functions, options.device);
    if (!p.llvmModule)
      return failure();
    p.llvmModule->setTargetTriple(p.machine->getTargetTriple());
    p.llvmModule->setDataLayout(p.machine->createDataLayout());
    times.translate += secondsSince(start);
    start = std::chrono::steady_clock::now();
    optimizeLLVM(*p.llvmModule, p.machine.get(), options.optLevel, slp);
    times.optimize += secondsSince(start);
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (!llvm::verifyModule(*p.llvmModule, &os))
      return p;
    if (!slp)
      return module.emitError(
                 "LLVM's optimizer produced invalid IR (an LLVM bug; "
                 "compile at a lower opt level to avoid it): ")
             << broken;
  }
  llvm_unreachable("the loop returns");
}

/// Whether `m`'s code calls the OpenMP runtime.
static bool callsOpenMP(const llvm::Module &m) {
  return m.getFunction("__kmpc_fork_call") != nullptr;
}

namespace {
/// The JIT's compiler (LLJIT's own, a target machine's), keeping a copy of
/// the object file it makes of one module: the one export would link.
class KeepingCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  KeepingCompiler(std::unique_ptr<llvm::TargetMachine> machine,
                  const llvm::Module *kept, std::shared_ptr<std::string> sink)
      : IRCompiler(
            llvm::orc::irManglingOptionsFromTargetOptions(machine->Options)),
        compile(std::move(machine)), kept(kept), sink(std::move(sink)) {}

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  operator()(llvm::Module &m) override {
    auto object = compile(m);
    if (object && &m == kept)
      *sink = (*object)->getBuffer().str();
    return object;
  }

private:
  llvm::orc::TMOwningSimpleCompiler compile;
  const llvm::Module *kept;
  std::shared_ptr<std::string> sink;
};
} // namespace

FailureOr<std::unique_ptr<rt::Module>>
mlir::tir::compileModule(ModuleOp module, const CompileOptions &options,
                         CompileTimes *times, ObjectCode *object) {
  CompileTimes local;
  CompileTimes &spent = times ? *times : local;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  FailureOr<Prepared> prepared = prepare(module, options, *ctx, spent);
  if (failed(prepared))
    return failure();
  auto codegenStart = std::chrono::steady_clock::now();
  const TargetChoice &choice = prepared->choice;
  std::vector<rt::FunctionInfo> &functions = prepared->functions;
  std::unique_ptr<llvm::Module> m = std::move(prepared->llvmModule);

  // ORC's LLJIT, generating code exactly as the exported library would.
  llvm::orc::JITTargetMachineBuilder builder(choice.triple);
  builder.setCPU(choice.cpu)
      .setOptions(choice.options)
      .setRelocationModel(llvm::Reloc::PIC_)
      .setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder.getFeatures().addFeaturesVector(
      llvm::SubtargetFeatures(choice.features).getFeatures());
  // The object file is kept for export when the JIT runs nothing beside
  // the module's functions: no static constructors or destructors.
  const llvm::Module *kept = nullptr;
  auto objectBytes = std::make_shared<std::string>();
  if (object && !m->getNamedGlobal("llvm.global_ctors") &&
      !m->getNamedGlobal("llvm.global_dtors"))
    kept = m.get();
  bool usesOpenMP = callsOpenMP(*m);
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(builder))
          .setCompileFunctionCreator(
              [kept, objectBytes](llvm::orc::JITTargetMachineBuilder machine)
                  -> llvm::Expected<
                      std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                auto tm = machine.createTargetMachine();
                if (!tm)
                  return tm.takeError();
                return std::make_unique<KeepingCompiler>(std::move(*tm), kept,
                                                         objectBytes);
              })
          .create();
  auto fail = [&](llvm::Error error) {
    module.emitError("JIT compilation failed: ")
        << llvm::toString(std::move(error));
    return failure();
  };
  if (!jit)
    return fail(jit.takeError());
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  // Symbols of this process (libc, libm), then the OpenMP runtime.
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return fail(process.takeError());
  dylib.addGenerator(std::move(*process));
  StringRef omp = TIR_OMP_LIBRARY;
  if (!omp.empty() && llvm::sys::fs::exists(omp)) {
    rt::removeStaleOpenMPRegistration();
    auto library = llvm::orc::DynamicLibrarySearchGenerator::Load(
        omp.str().c_str(), prefix);
    if (!library)
      return fail(library.takeError());
    dylib.addGenerator(std::move(*library));
  }
  if (options.device == rt::Device::CUDA) {
    // The host code launches kernels through the runtime's mgpu*
    // functions: this process's (the runtime library may be loaded where
    // the process's symbol search does not see it, as by Python).
    llvm::orc::SymbolMap runtime;
    auto add = [&](const char *name, auto *fn) {
      runtime[(*jit)->mangleAndIntern(name)] = {
          llvm::orc::ExecutorAddr::fromPtr(reinterpret_cast<void *>(fn)),
          llvm::JITSymbolFlags::Exported};
    };
    add("mgpuModuleLoad", &mgpuModuleLoad);
    add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
    add("mgpuModuleUnload", &mgpuModuleUnload);
    add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
    add("mgpuLaunchKernel", &mgpuLaunchKernel);
    add("mgpuStreamCreate", &mgpuStreamCreate);
    add("mgpuStreamDestroy", &mgpuStreamDestroy);
    add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
    add("mgpuMemAlloc", &mgpuMemAlloc);
    add("mgpuMemFree", &mgpuMemFree);
    add("mgpuMemcpy", &mgpuMemcpy);
    add("tirCudaConstant", &tirCudaConstant);
    add("tirCudaReleaseConstant", &tirCudaReleaseConstant);
    if (llvm::Error error =
            dylib.define(llvm::orc::absoluteSymbols(std::move(runtime))))
      return fail(std::move(error));
  }
  if (llvm::Error error = (*jit)->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
    return fail(std::move(error));
  // Static constructors: the kernels' modules register themselves.
  if (llvm::Error error = (*jit)->initialize(dylib))
    return fail(std::move(error));
  // Compile now, so that errors surface here and not at the first call.
  for (const rt::FunctionInfo &info : functions) {
    auto address = (*jit)->lookup(rt::packedSymbol(info.name));
    if (!address)
      return fail(address.takeError());
  }
  spent.codegen = secondsSince(codegenStart);
  if (object) {
    object->bytes = std::move(*objectBytes);
    object->usesOpenMP = usesOpenMP;
  }
  // At the end, static destructors run first (a GPU module's kernels leave
  // their devices).
  std::shared_ptr<llvm::orc::LLJIT> owner(
      jit->release(), [](llvm::orc::LLJIT *j) {
        llvm::consumeError(j->deinitialize(j->getMainJITDylib()));
        delete j;
      });
  llvm::orc::LLJIT *raw = owner.get();
  auto lookup = [raw](const std::string &symbol) -> void * {
    auto address = raw->lookup(symbol);
    if (!address) {
      llvm::consumeError(address.takeError());
      return nullptr;
    }
    return address->toPtr<void *>();
  };
  return std::make_unique<rt::Module>(std::move(functions), lookup,
                                      std::static_pointer_cast<void>(owner),
                                      options.device);
}

/// Machine code (an object file) or assembly for `prepared`'s module,
/// written to `os`.
static LogicalResult generateCode(ModuleOp anchor, Prepared &prepared,
                                  llvm::raw_pwrite_stream &os,
                                  llvm::CodeGenFileType type) {
  llvm::legacy::PassManager codegen;
  if (prepared.machine->addPassesToEmitFile(codegen, os, nullptr, type))
    return anchor.emitError("the target cannot emit ")
           << (type == llvm::CodeGenFileType::ObjectFile ? "object files"
                                                         : "assembly");
  codegen.run(*prepared.llvmModule);
  return success();
}

FailureOr<std::string> mlir::tir::emitSource(ModuleOp module,
                                             const CompileOptions &options,
                                             SourceKind kind) {
  llvm::LLVMContext ctx;
  CompileTimes times;
  FailureOr<Prepared> prepared = prepare(module, options, ctx, times);
  if (failed(prepared))
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (kind == SourceKind::LLVMIR) {
    prepared->llvmModule->print(os, nullptr);
    return text;
  }
  {
    // Code generation writes through a seekable stream, flushed into
    // `text` when it goes.
    llvm::buffer_ostream buffer(os);
    if (failed(generateCode(module, *prepared, buffer,
                            llvm::CodeGenFileType::AssemblyFile)))
      return failure();
  }
  return text;
}

LogicalResult mlir::tir::exportLibrary(ModuleOp module,
                                       const CompileOptions &options,
                                       StringRef path) {
  llvm::LLVMContext ctx;
  CompileTimes times;
  FailureOr<Prepared> prepared = prepare(module, options, ctx, times);
  if (failed(prepared))
    return failure();
  // Object code, then lld makes it a shared library.
  SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  if (failed(generateCode(module, *prepared, os,
                          llvm::CodeGenFileType::ObjectFile)))
    return failure();
  std::string error;
  if (failed(linkObject(object, callsOpenMP(*prepared->llvmModule),
                        options.device, path, error)))
    return module.emitError(error);
  return success();
}
