//===- Link.cpp - object code linked into shared libraries ----------------===//
//
// Exported libraries are linked by ld.lld (Debian's lld-22, or $TIR_LLD):
// the object file of a module's code, the OpenMP runtime when the code has
// parallel loops, the runtime library for a GPU build. Both exportLibrary
// (code generated from source) and linkLibrary (the object file a JIT
// build kept) end here.
//
//===----------------------------------------------------------------------===//

#include "Link.h"

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Runtime/CUDA.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
namespace rt = mlir::tir::runtime;

#ifndef TIR_LLD_PATH
#define TIR_LLD_PATH ""
#endif

static std::string findLinker() {
  if (const char *env = std::getenv("TIR_LLD"))
    return env;
  StringRef configured = TIR_LLD_PATH;
  if (!configured.empty() && llvm::sys::fs::can_execute(configured))
    return configured.str();
  for (StringRef name : {"ld.lld", "ld.lld-22"})
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  return "";
}

LogicalResult mlir::tir::linkObject(StringRef bytes, bool usesOpenMP,
                                    rt::Device::Type device, StringRef path,
                                    std::string &error) {
  std::string linker = findLinker();
  if (linker.empty()) {
    error = "exporting a shared library needs ld.lld (Debian package "
            "lld-22), or TIR_LLD set to a linker";
    return failure();
  }
  SmallString<128> object;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tir", "o", fd, object)) {
    error = "cannot create a temporary object file";
    return failure();
  }
  llvm::FileRemover removeObject(object);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    if (os.has_error()) {
      error = "cannot write the object file '" + object.str().str() + "'";
      os.clear_error();
      return failure();
    }
  }
  SmallVector<std::string> args = {linker, "-shared", "-o", path.str(),
                                   object.str().str()};
  StringRef omp = TIR_OMP_LIBRARY;
  if (usesOpenMP) {
    if (omp.empty() || !llvm::sys::fs::exists(omp)) {
      error = "the module has parallel loops but the OpenMP runtime "
              "(libomp-22-dev) was not found";
      return failure();
    }
    args.push_back(omp.str());
    args.push_back("-rpath");
    args.push_back(llvm::sys::path::parent_path(omp).str());
  }
  if (device == rt::Device::CUDA) {
    // Launches go through the runtime library, found by its name
    // (libTIRRuntime.so) where the library is loaded: in the loading
    // process already, or next to the library.
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&mgpuLaunchKernel), &info) ||
        !info.dli_fname) {
      error = "cannot find the runtime library to link the kernels' "
              "launches against";
      return failure();
    }
    args.push_back(info.dli_fname);
    args.push_back("-rpath");
    args.push_back("$ORIGIN");
  }
  SmallString<128> log;
  if (llvm::sys::fs::createTemporaryFile("tir-lld", "log", log)) {
    error = "cannot create a temporary file";
    return failure();
  }
  llvm::FileRemover removeLog(log);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt, redirects,
                                     0, 0, &message);
  if (rc != 0) {
    auto output = llvm::MemoryBuffer::getFile(log);
    error = ("linking '" + path + "' failed: ").str() + message +
            (output ? (*output)->getBuffer().str() : std::string());
    return failure();
  }
  return success();
}

LogicalResult mlir::tir::linkLibrary(const ObjectCode &code, StringRef path,
                                     std::string &error) {
  if (code.bytes.empty()) {
    error = "no object code to link (a module with static constructors is "
            "exported from its source)";
    return failure();
  }
  return linkObject(code.bytes, code.usesOpenMP, rt::Device::CPU, path, error);
}
