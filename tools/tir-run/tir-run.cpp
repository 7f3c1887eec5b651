//===- tir-run.cpp - build and run tir functions from the command line ----===//
//
//   tir-run kernel.mlir --entry main --print            JIT, random inputs
//   tir-run kernel.mlir --input A=a.npy --output-dir out
//   tir-run kernel.mlir --export kernel.so               shared library
//   tir-run kernel.so --entry main --time --repeat 20    load it back, time
//
// Buffers the function only reads are filled with seeded random numbers
// (floats in [-1, 1), integers in [-8, 8]) unless --input gives a .npy file;
// buffers it writes start at zero. Scalars come from --arg NAME=VALUE.
// Buffers with dynamic dimensions need --input or --shape NAME=4x8.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Runtime/NumPy.h"
#include "TensorIR/Runtime/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>

#include <unistd.h>

using namespace mlir;
namespace rt = mlir::tir::runtime;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<kernel.mlir | library.so>"),
                                      cl::Required);
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: the "
                                           "only one)"),
                                  cl::init(""));
static cl::opt<bool> list("list", cl::desc("Print the function signatures"));
static cl::list<std::string> inputs("input",
                                    cl::desc("NAME=file.npy: a buffer's data"));
static cl::list<std::string> scalars("arg",
                                     cl::desc("NAME=VALUE: a scalar argument"));
static cl::list<std::string> shapes("shape",
                                    cl::desc("NAME=4x8: the shape of a "
                                             "random-filled dynamic buffer"));
static cl::opt<unsigned> seed("seed", cl::desc("Random seed for inputs"),
                              cl::init(0));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("Write every written buffer "
                                               "to DIR/<name>.npy"),
                                      cl::init(""));
static cl::opt<bool> saveInputs("save-inputs",
                                cl::desc("Also write every buffer as it was "
                                         "before the call, to "
                                         "DIR/<name>.in.npy"));
static cl::opt<bool> print("print", cl::desc("Print the written buffers"));
static cl::opt<bool> timeIt("time", cl::desc("Time the function"));
static cl::opt<unsigned> warmup("warmup", cl::desc("Untimed calls first"),
                                cl::init(2));
static cl::opt<unsigned> repeat("repeat", cl::desc("Timed calls"),
                                cl::init(10));
static cl::opt<int> threads("num-threads",
                            cl::desc("Threads for parallel loops (default: "
                                     "OMP_NUM_THREADS or all cores)"),
                            cl::init(0));
static cl::opt<std::string>
    targetCPU("target-cpu", cl::desc("CPU to compile for"), cl::init("native"));
static cl::opt<std::string> exportPath("export",
                                       cl::desc("Compile to a shared library "
                                                "at PATH and stop"),
                                       cl::init(""));

static int fail(const std::string &message) {
  llvm::errs() << "tir-run: error: " << message << "\n";
  return 1;
}

/// NAME=VALUE options as a map; false with `error` on a malformed one.
static bool splitAssignments(const cl::list<std::string> &options,
                             const char *flag,
                             std::map<std::string, std::string> &out,
                             std::string &error) {
  for (const std::string &option : options) {
    size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0) {
      error =
          std::string("--") + flag + " takes NAME=VALUE, got '" + option + "'";
      return false;
    }
    out[option.substr(0, eq)] = option.substr(eq + 1);
  }
  return true;
}

static void fillRandom(rt::NDArray &array, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(-8, 8);
  std::uniform_int_distribution<int> natural(0, 8);
  for (int64_t i = 0, n = array.numElements(); i < n; ++i) {
    switch (array.dtype.code) {
    case rt::DataType::Float:
    case rt::DataType::BFloat:
      array.set(i, real(rng));
      break;
    case rt::DataType::Int:
      array.set(i, integer(rng));
      break;
    case rt::DataType::UInt:
      array.set(i, natural(rng));
      break;
    case rt::DataType::Bool:
      array.set(i, natural(rng) % 2);
      break;
    }
  }
}

static std::unique_ptr<rt::Module> compileFile(const std::string &path) {
  DialectRegistry registry;
  tir::registerCompilerDialects(registry);
  MLIRContext context(registry);
  std::string error;
  auto file = openInputFile(path, &error);
  if (!file) {
    fail(error);
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  tir::CompileOptions options;
  options.targetCPU = targetCPU;
  if (!exportPath.empty()) {
    if (failed(tir::exportLibrary(*module, options, exportPath)))
      return nullptr;
    llvm::outs() << "wrote " << exportPath << "\n";
    return nullptr;
  }
  auto compiled = tir::compileModule(*module, options);
  if (failed(compiled))
    return nullptr;
  return std::move(*compiled);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "tir runner: build, run and time "
                              "tir functions\n");
  std::string error;
  std::unique_ptr<rt::Module> module;
  if (llvm::StringRef(inputFile).ends_with(".so")) {
    if (!exportPath.empty())
      return fail("--export takes a .mlir input");
    module = rt::Module::load(inputFile, error);
    if (!module)
      return fail(error);
  } else {
    module = compileFile(inputFile);
    if (!module)
      return exportPath.empty() ? 1 : 0;
  }

  if (list) {
    for (const rt::FunctionInfo &f : module->functions())
      llvm::outs() << f.str() << "\n";
    return 0;
  }
  if (module->functions().empty())
    return fail("the module has no public function");
  std::string name = entry;
  if (name.empty()) {
    if (module->functions().size() != 1)
      return fail("the module has several functions; choose one with "
                  "--entry (--list shows them)");
    name = module->functions().front().name;
  }
  const rt::FunctionInfo *info = module->find(name);
  if (!info)
    return fail("no function named '" + name + "' (--list shows them)");

  std::map<std::string, std::string> inputFiles, scalarValues, shapeTexts;
  if (!splitAssignments(inputs, "input", inputFiles, error) ||
      !splitAssignments(scalars, "arg", scalarValues, error) ||
      !splitAssignments(shapes, "shape", shapeTexts, error))
    return fail(error);
  for (const auto *names : {&inputFiles, &scalarValues, &shapeTexts})
    for (const auto &entry : *names)
      if (std::none_of(
              info->args.begin(), info->args.end(),
              [&](const rt::ArgInfo &a) { return a.name == entry.first; }))
        return fail("'" + name + "' has no argument named '" + entry.first +
                    "'; it is " + info->str());

  // Arguments: arrays read or made, scalars parsed.
  std::vector<rt::NDArray> arrays(info->args.size());
  std::vector<rt::Arg> args(info->args.size());
  for (size_t i = 0; i < info->args.size(); ++i) {
    const rt::ArgInfo &param = info->args[i];
    if (!param.isBuffer) {
      auto it = scalarValues.find(param.name);
      if (it == scalarValues.end())
        return fail("scalar argument '" + param.name + "' needs --arg " +
                    param.name + "=VALUE");
      char *end;
      const char *text = it->second.c_str();
      bool isFloat = param.dtype.code == rt::DataType::Float;
      double f = std::strtod(text, &end);
      if (*end || !*text)
        return fail("--arg " + param.name + ": '" + it->second +
                    "' is not a number");
      if (isFloat) {
        args[i] = rt::Arg::scalar(f);
        continue;
      }
      // Integers exactly (a double would round those above 2^53), and
      // within 64 bits; the runtime then checks the parameter's range.
      int64_t value;
      if (llvm::StringRef(text).trim().getAsInteger(10, value)) {
        bool integral = std::isfinite(f) && f == std::trunc(f);
        return fail("--arg " + param.name + ": '" + it->second + "' is " +
                    (integral ? "not a 64-bit integer" : "not an integer"));
      }
      args[i] = rt::Arg::scalar(value);
      continue;
    }
    auto file = inputFiles.find(param.name);
    if (file != inputFiles.end()) {
      if (!rt::readNpy(file->second, arrays[i], error))
        return fail(error);
    } else {
      std::vector<int64_t> shape = param.shape;
      auto text = shapeTexts.find(param.name);
      if (text != shapeTexts.end()) {
        shape.clear();
        for (llvm::StringRef dim : llvm::split(text->second, 'x')) {
          int64_t d;
          if (dim.getAsInteger(10, d) || d < 0)
            return fail("--shape " + param.name + ": '" + text->second +
                        "' is not a shape like 4x8");
          shape.push_back(d);
        }
      } else if (std::count(shape.begin(), shape.end(), -1)) {
        return fail("argument '" + param.name + "' (" + param.typeStr() +
                    ") has dynamic dimensions; give --input " + param.name +
                    "=file.npy or --shape " + param.name + "=...");
      }
      uint64_t bytes = param.dtype.bytes();
      for (int64_t d : shape)
        if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
          bytes = UINT64_MAX;
      uint64_t memory = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
      if (bytes > memory)
        return fail(
            "argument '" + param.name + "' of shape " +
            llvm::join(llvm::map_range(
                           shape, [](int64_t d) { return std::to_string(d); }),
                       "x") +
            " needs more bytes than this machine's memory");
      arrays[i] = rt::NDArray(param.dtype, shape);
      if (!param.written) {
        std::mt19937_64 rng(seed * 1000003ull + i);
        fillRandom(arrays[i], rng);
      }
    }
    args[i] = arrays[i].arg();
  }
  // Check before writing anything, so a mismatch leaves no files.
  if (!module->check(*info, args, error))
    return fail(error);

  auto outPath = [&](const std::string &file) {
    llvm::SmallString<128> path(outputDir);
    llvm::sys::path::append(path, file);
    return path.str().str();
  };
  if (saveInputs && !outputDir.empty())
    for (size_t i = 0; i < args.size(); ++i)
      if (info->args[i].isBuffer &&
          !rt::writeNpy(outPath(info->args[i].name + ".in.npy"), arrays[i],
                        error))
        return fail(error);

  if (threads > 0 && !rt::setNumThreads(threads))
    llvm::errs() << "tir-run: warning: --num-threads: no OpenMP runtime is "
                    "loaded; the function runs on one thread\n";
  if (!module->call(name, args, error))
    return fail(error);

  for (size_t i = 0; i < args.size(); ++i) {
    if (!info->args[i].isBuffer || !info->args[i].written)
      continue;
    if (print)
      llvm::outs() << info->args[i].name << " = " << arrays[i].str() << "\n";
    if (!outputDir.empty() &&
        !rt::writeNpy(outPath(info->args[i].name + ".npy"), arrays[i], error))
      return fail(error);
  }

  if (timeIt) {
    for (unsigned i = 0; i < warmup; ++i)
      module->call(name, args, error);
    std::vector<double> ms;
    for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
      auto start = std::chrono::steady_clock::now();
      module->call(name, args, error);
      auto stop = std::chrono::steady_clock::now();
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    double median = ms.size() % 2
                        ? ms[ms.size() / 2]
                        : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    llvm::outs() << llvm::formatv("{0}: min {1:F4} ms, median {2:F4} ms over "
                                  "{3} runs ({4} warm-up)\n",
                                  name, ms.front(), median, ms.size(),
                                  unsigned(warmup));
  }
  return 0;
}
