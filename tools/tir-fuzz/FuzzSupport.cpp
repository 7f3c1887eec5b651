//===- FuzzSupport.cpp - what the tir libFuzzer targets share -------------===//

#include "FuzzSupport.h"

#include "TensorIR/InitAllDialects.h"
#include "TensorIR/InitAllScheduleExtensions.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tir::fuzz;

FuzzContext::FuzzContext(Registration what) {
  DialectRegistry registry;
  tir::registerAllDialects(registry);
  tir::registerAllExtensions(registry);
  if (what == Registration::Schedule)
    tir::registerScheduleExtensions(registry);
  if (what == Registration::LLVMTranslation)
    registerAllToLLVMIRTranslations(registry);
  context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  silence = std::make_unique<ScopedDiagnosticHandler>(
      context.get(), [this](Diagnostic &diag) {
        if (capture)
          captured += diag.str() + "\n";
        return success();
      });
}

FuzzContext &FuzzContext::shared(Registration what) {
  static Registration first = what;
  if (what != first)
    llvm::report_fatal_error("FuzzContext::shared: one registration per "
                             "process");
  // Never destroyed: it lives as long as the process.
  static FuzzContext *context = [&] {
    auto *made = new FuzzContext(what);
    made->get().loadAllAvailableDialects();
    return made;
  }();
  return *context;
}

/// Skips whitespace and `//` comments from `pos`, as MLIR's lexer does
/// between tokens.
static size_t skipTrivia(llvm::StringRef text, size_t pos) {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
    } else if (text.substr(pos).starts_with("//")) {
      size_t end = text.find('\n', pos);
      pos = end == llvm::StringRef::npos ? text.size() : end + 1;
    } else {
      break;
    }
  }
  return pos;
}

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// Whether `text` at `pos` holds a well-formed list of integers
/// (`[]`, `[1, -2]`), trivia allowed between the tokens.
static bool isIntegerList(llvm::StringRef text, size_t pos) {
  pos = skipTrivia(text, pos);
  if (pos >= text.size() || text[pos] != '[')
    return false;
  pos = skipTrivia(text, pos + 1);
  if (pos < text.size() && text[pos] == ']')
    return true;
  while (true) {
    if (pos < text.size() && text[pos] == '-')
      ++pos;
    size_t digits = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    if (pos == digits)
      return false;
    pos = skipTrivia(text, pos);
    if (pos >= text.size())
      return false;
    if (text[pos] == ']')
      return true;
    if (text[pos] != ',')
      return false;
    pos = skipTrivia(text, pos + 1);
  }
}

bool mlir::tir::fuzz::reachesKnownUpstreamCrash(llvm::StringRef text) {
  // MLIR 22: linalg.transpose / broadcast / reduce parse their
  // `permutation = [...]` / `dimensions = [...]` through a helper that sets
  // the attribute it failed to parse (null) and segfaults on anything but
  // a well-formed integer list (`[1,]`, `[1 0]`, `1`). See
  // docs/reliability.md.
  if (text.contains("linalg.transpose") || text.contains("linalg.broadcast") ||
      text.contains("linalg.reduce"))
    for (llvm::StringRef key : {"permutation", "dimensions"})
      for (size_t pos = text.find(key); pos != llvm::StringRef::npos;
           pos = text.find(key, pos + 1)) {
        size_t end = pos + key.size();
        if ((pos > 0 && isIdentifierChar(text[pos - 1])) ||
            (end < text.size() && isIdentifierChar(text[end])))
          continue;
        size_t eq = skipTrivia(text, end);
        if (eq < text.size() && text[eq] == '=' && !isIntegerList(text, eq + 1))
          return true;
      }

  // MLIR 22: a dense array attribute of `index` elements (`array<index>`,
  // `array<index: 1, 2>`) segfaults in Parser::parseDenseArrayAttr, which
  // takes the bit width of any int-or-index-or-float type
  // (Type::getIntOrFloatBitWidth on `index`). See docs/reliability.md.
  for (size_t pos = text.find("array"); pos != llvm::StringRef::npos;
       pos = text.find("array", pos + 1)) {
    if (pos > 0 && isIdentifierChar(text[pos - 1]))
      continue;
    size_t next = skipTrivia(text, pos + 5);
    if (next >= text.size() || text[next] != '<')
      continue;
    next = skipTrivia(text, next + 1);
    if (text.substr(next).starts_with("index") &&
        (next + 5 == text.size() || !isIdentifierChar(text[next + 5])))
      return true;
  }
  return false;
}

OwningOpRef<ModuleOp> mlir::tir::fuzz::parseInput(MLIRContext &context,
                                                  const uint8_t *data,
                                                  size_t size,
                                                  size_t maxBytes) {
  if (size > maxBytes)
    return nullptr;
  // MLIR's lexer reads up to a terminating NUL: libFuzzer's buffer has none,
  // a std::string does.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (reachesKnownUpstreamCrash(text))
    return nullptr;
  ParserConfig config(&context);
  return parseSourceString<ModuleOp>(text, config, "fuzz-input");
}

void mlir::tir::fuzz::reportFinding(llvm::StringRef what, Operation *op,
                                    llvm::StringRef details) {
  llvm::errs() << "tir-fuzz finding: " << what << "\n";
  if (!details.empty())
    llvm::errs() << details << "\n";
  if (op) {
    OpPrintingFlags flags;
    flags.printGenericOpForm().assumeVerified();
    op->print(llvm::errs(), flags);
    llvm::errs() << "\n";
  }
  llvm::errs().flush();
  std::abort();
}
