//===- Compile.cpp - C API: build tir code --------------------------------===//
//
// The compiling half of the C API (tirModuleCompile, tirModuleExport); the
// rest (load, call, devices) is in the runtime library,
// lib/Runtime/RuntimeCAPI.cpp, which needs neither LLVM nor MLIR.
//
//===----------------------------------------------------------------------===//

#include "TensorIR-c/Runtime.h"
#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Runtime/CAPISupport.h"
#include "TensorIR/Runtime/Runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <string>
#include <vector>

using namespace mlir;
namespace rt = mlir::tir::runtime;

using rt::capi::setError;
using rt::capi::wrap;

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

} // extern "C"
