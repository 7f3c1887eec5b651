//===- Runtime.cpp - C API: build, load and call tir code -----------------===//

#include "TensorIR-c/Runtime.h"
#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Runtime/Runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <string>
#include <vector>

using namespace mlir;
namespace rt = mlir::tir::runtime;

struct tirModule {
  std::unique_ptr<rt::Module> module;
  std::vector<std::string> signatures;
};

static thread_local std::string lastError;

static void setError(std::string message) { lastError = std::move(message); }

static tirModule *wrap(std::unique_ptr<rt::Module> module) {
  auto *m = new tirModule;
  for (const rt::FunctionInfo &f : module->functions())
    m->signatures.push_back(f.str());
  m->module = std::move(module);
  return m;
}

/// Parses `source` and runs `build` on it, collecting diagnostics into the
/// last error.
template <typename Fn>
static bool withParsedModule(const char *source, size_t length, Fn build) {
  DialectRegistry registry;
  tir::registerCompilerDialects(registry);
  MLIRContext context(registry);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (!diagnostics.empty())
      diagnostics += "\n";
    llvm::raw_string_ostream os(diagnostics);
    os << tir::describeLocation(diag.getLocation()) << ": error: " << diag;
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      StringRef(source, length), ParserConfig(&context), "<source>");
  if (!module || !build(*module)) {
    setError(diagnostics.empty() ? "compilation failed" : diagnostics);
    return false;
  }
  return true;
}

static tir::CompileOptions optionsFor(const char *targetCPU) {
  tir::CompileOptions options;
  if (targetCPU && *targetCPU)
    options.targetCPU = targetCPU;
  return options;
}

extern "C" {

tirModule *tirModuleCompile(const char *source, size_t length,
                            const char *targetCPU) {
  if (!source) {
    setError("tirModuleCompile: source is NULL");
    return nullptr;
  }
  std::unique_ptr<rt::Module> compiled;
  bool ok = withParsedModule(source, length, [&](ModuleOp module) {
    auto result = tir::compileModule(module, optionsFor(targetCPU));
    if (failed(result))
      return false;
    compiled = std::move(*result);
    return true;
  });
  return ok ? wrap(std::move(compiled)) : nullptr;
}

int tirModuleExport(const char *source, size_t length, const char *targetCPU,
                    const char *path) {
  if (!source || !path || !*path) {
    setError(std::string("tirModuleExport: ") +
             (!source ? "source is NULL" : "no output path"));
    return 1;
  }
  bool ok = withParsedModule(source, length, [&](ModuleOp module) {
    return succeeded(tir::exportLibrary(module, optionsFor(targetCPU), path));
  });
  return ok ? 0 : 1;
}

tirModule *tirModuleLoad(const char *path) {
  if (!path) {
    setError("tirModuleLoad: path is NULL");
    return nullptr;
  }
  std::string error;
  std::unique_ptr<rt::Module> module = rt::Module::load(path, error);
  if (!module) {
    setError(error);
    return nullptr;
  }
  return wrap(std::move(module));
}

void tirModuleDestroy(tirModule *module) { delete module; }

int32_t tirModuleNumFunctions(const tirModule *module) {
  if (!module) {
    setError("tirModuleNumFunctions: module is NULL");
    return -1;
  }
  return static_cast<int32_t>(module->signatures.size());
}

const char *tirModuleFunctionSignature(const tirModule *module, int32_t index) {
  if (!module || index < 0 || index >= tirModuleNumFunctions(module)) {
    setError("tirModuleFunctionSignature: " +
             std::string(module ? "no function " + std::to_string(index)
                                : "module is NULL"));
    return nullptr;
  }
  return module->signatures[index].c_str();
}

int tirModuleCall(tirModule *module, const char *function, const tirArg *args,
                  int32_t numArgs) {
  if (!module || !function || numArgs < 0 || (numArgs > 0 && !args)) {
    setError(
        std::string("tirModuleCall: ") +
        (!module     ? "module is NULL"
         : !function ? "function name is NULL"
         : numArgs < 0
             ? "negative argument count " + std::to_string(numArgs)
             : "args is NULL for " + std::to_string(numArgs) + " arguments"));
    return 1;
  }
  std::vector<rt::Arg> converted;
  for (int32_t i = 0; i < numArgs; ++i) {
    const tirArg &a = args[i];
    switch (a.kind) {
    case TIR_ARG_INT:
      converted.push_back(rt::Arg::scalar(static_cast<int64_t>(a.intValue)));
      break;
    case TIR_ARG_FLOAT:
      converted.push_back(rt::Arg::scalar(a.floatValue));
      break;
    case TIR_ARG_BUFFER: {
      if (a.buffer.ndim < 0 || (a.buffer.ndim > 0 && !a.buffer.shape)) {
        setError("argument " + std::to_string(i) +
                 ": a buffer needs a shape for each of its dimensions");
        return 1;
      }
      std::vector<int64_t> shape(a.buffer.shape,
                                 a.buffer.shape + a.buffer.ndim);
      std::vector<int64_t> strides;
      if (a.buffer.strides)
        strides.assign(a.buffer.strides, a.buffer.strides + a.buffer.ndim);
      rt::DataType dtype{static_cast<rt::DataType::Code>(a.buffer.code),
                         a.buffer.bits};
      if (!rt::DataType::parse(dtype.str()) ||
          (dtype.code == rt::DataType::Bool && dtype.bits != 1 &&
           dtype.bits != 8)) {
        setError("argument " + std::to_string(i) + ": element type code " +
                 std::to_string(a.buffer.code) + " with " +
                 std::to_string(a.buffer.bits) +
                 " bits is not one the runtime knows (TIR_INT, TIR_UINT, "
                 "TIR_FLOAT, TIR_BFLOAT, TIR_BOOL with 8, 16, 32 or 64 "
                 "bits)");
        return 1;
      }
      if (dtype.code == rt::DataType::Bool)
        dtype.bits = 1;
      converted.push_back(rt::Arg::buffer(
          a.buffer.data, dtype, std::move(shape), std::move(strides)));
      break;
    }
    default:
      setError("argument " + std::to_string(i) + ": unknown kind " +
               std::to_string(a.kind));
      return 1;
    }
  }
  std::string error;
  if (!module->module->call(function, converted, error)) {
    setError(error);
    return 1;
  }
  return 0;
}

int tirSetNumThreads(int32_t threads) {
  if (rt::setNumThreads(threads))
    return 0;
  setError("no OpenMP runtime is loaded");
  return 1;
}

const char *tirGetLastError(void) { return lastError.c_str(); }

} // extern "C"
