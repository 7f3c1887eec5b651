# -*- Python -*-
import os

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tir_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tir_src_root", config.tir_src_root))
config.substitutions.append(("%tir_obj_root", config.tir_obj_root))
config.substitutions.append(("%tir_libs", config.tir_libs_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, split-file, ... come from LLVM 22's tool directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tir_tools_dir, append_path=True)

tool_dirs = [config.tir_tools_dir, config.llvm_tools_dir]
tools = ["tir-opt", "tir-translate", "llc", "mlir-translate", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The stock mlir-opt of LLVM 22, for the dialect plugin test.
stock_mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if os.path.exists(stock_mlir_opt):
    command = stock_mlir_opt
    if "Address" in config.llvm_use_sanitizer:
        # A plugin built with ASan loads only into a process that has the
        # runtime: preload clang's shared one into the stock mlir-opt.
        import subprocess
        runtime = subprocess.run(
            [os.path.join(config.llvm_tools_dir, "clang"),
             "-print-file-name=libclang_rt.asan-x86_64.so"],
            capture_output=True, text=True).stdout.strip()
        command = "env LD_PRELOAD=%s %s" % (runtime, stock_mlir_opt)
    config.available_features.add("stock-mlir-opt")
    config.substitutions.append(("%stock_mlir_opt", command))

# The libFuzzer targets of tools/tir-fuzz, built with -DTIR_ENABLE_FUZZERS=ON
# (scripts/sanitize.sh): test/Fuzz runs them over a few inputs.
if lit.util.pythonize_bool(config.tir_enable_fuzzers):
    config.available_features.add("tir-fuzzers")
# A build under AddressSanitizer (scripts/sanitize.sh), for tests that cannot
# run under it.
if "Address" in config.llvm_use_sanitizer:
    config.available_features.add("asan")
    # LLVM's BumpPtrAllocator poisons the slabs it allocates in code built
    # with ASan, and libMLIR.so (not built with it) allocates from them
    # without unpoisoning: manual poisoning off, unless ASAN_OPTIONS says
    # otherwise (scripts/sanitize.sh explains it).
    config.environment.setdefault("ASAN_OPTIONS", "allow_user_poisoning=0")

# The CUDA toolkit's ptxas assembles the PTX of GPU kernels when the
# toolkit is there (its default place, or $CUDA_PATH); no GPU is needed.
cuda_path = os.environ.get("CUDA_PATH", "/usr/local/cuda")
ptxas = os.path.join(cuda_path, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
