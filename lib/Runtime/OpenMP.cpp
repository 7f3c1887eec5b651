//===- OpenMP.cpp - the OpenMP runtime that parallel loops call -----------===//
//
// LLVM's OpenMP runtime (libomp) registers each process that initializes it
// in a file named for the process: /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>
// (or /tmp/... where /dev/shm is missing). It creates the file, sizes it to
// 1024 bytes, then writes "<flag address>-<flag value>-<library>". A process
// killed between those steps, or before its exit handler removes the file,
// leaves it behind; the kernel reuses the pid, and the next process with it
// finds the file. A complete leftover is harmless (libomp sees its writer is
// gone and replaces it), but an empty one makes libomp read past its end
// (SIGBUS) and a zeroed one reads as an unknown live OpenMP runtime (abort).
// Tests and tuners that time out kill processes, so both happen; each
// process clears its own pid's leftover before libomp can see it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/Runtime.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>

#include <mutex>

using namespace mlir::tir::runtime;

namespace {
/// libomp's registration size (SHM_SIZE in its sources).
constexpr off_t kRegistrationSize = 1024;

/// Appends the decimal digits of `value` at `out`; returns the end.
char *appendNumber(char *out, unsigned long value) {
  char digits[24];
  int n = 0;
  do
    digits[n++] = static_cast<char>('0' + value % 10);
  while (value /= 10);
  while (n)
    *out++ = digits[--n];
  return out;
}

/// Removes the registration file `path` when libomp could not read it:
/// shorter than libomp maps, or without the text libomp writes first. Only
/// system calls that are safe in a child right after fork.
void removeIfTruncated(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat info;
  char first = 0;
  bool truncated = fstat(fd, &info) != 0 || info.st_size < kRegistrationSize ||
                   pread(fd, &first, 1, 0) != 1 || first == '\0';
  close(fd);
  if (truncated)
    unlink(path);
}

/// Clears the leftovers named for this process. Runs before this process's
/// libomp starts (a library using it is loaded, its thread count set), and in
/// each forked child, which registers afresh under its own pid.
void removeForThisProcess() {
  for (const char *dir : {"/dev/shm/", "/tmp/"}) {
    char path[96];
    char *end = path;
    for (const char *part : {dir, "__KMP_REGISTERED_LIB_"})
      for (const char *c = part; *c;)
        *end++ = *c++;
    end = appendNumber(end, static_cast<unsigned long>(getpid()));
    *end++ = '_';
    end = appendNumber(end, static_cast<unsigned long>(getuid()));
    *end = '\0';
    removeIfTruncated(path);
  }
}
} // namespace

void mlir::tir::runtime::removeStaleOpenMPRegistration() {
  static std::once_flag once;
  std::call_once(once, [] {
    removeForThisProcess();
    pthread_atfork(nullptr, nullptr, removeForThisProcess);
  });
}

namespace {
/// `symbol` of the OpenMP runtime when this process has loaded it (a library
/// with parallel loops needs it), else null.
void *loadedOpenMPSymbol(const char *symbol) {
  for (const char *lib : {"libomp.so.5", "libomp.so"}) {
    void *handle = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (!handle)
      continue;
    void *address = dlsym(handle, symbol);
    dlclose(handle);
    if (address)
      return address;
  }
  return nullptr;
}
} // namespace

bool mlir::tir::runtime::setNumThreads(int threads) {
  auto *set = reinterpret_cast<void (*)(int)>(
      loadedOpenMPSymbol("omp_set_num_threads"));
  if (!set)
    return false;
  removeStaleOpenMPRegistration();
  set(threads);
  return true;
}

bool mlir::tir::runtime::startThreads() {
  // libomp's GNU-compatible entry (libgomp's ABI, which it keeps): a
  // parallel region of the default team running an empty body.
  using Body = void (*)(void *);
  auto *parallel = reinterpret_cast<void (*)(Body, void *, unsigned, unsigned)>(
      loadedOpenMPSymbol("GOMP_parallel"));
  if (!parallel)
    return false;
  removeStaleOpenMPRegistration();
  parallel([](void *) {}, nullptr, /*num_threads=*/0, /*flags=*/0);
  return true;
}
