# -*- Python -*-
# The consumer's tests (scripts/consumer-check.sh runs them): its own tool
# against tir's installed tree. Configured by --param: consumer_bin (the
# folder of consumer-opt), tir_prefix (the install prefix), llvm_bin
# (FileCheck, mlir-opt).
import os

import lit.formats

config.name = "tir-consumer"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
params = lit_config.params
# Outputs go to the consumer's build folder, not the source tree.
config.test_exec_root = os.path.join(params["consumer_bin"], "test")
prefix = params["tir_prefix"]
config.environment["PATH"] = os.pathsep.join(
    [params["consumer_bin"], os.path.join(prefix, "bin"), params["llvm_bin"],
     os.environ.get("PATH", "")])
config.environment["PYTHONPATH"] = os.path.join(prefix, "lib", "python3", "dist-packages")
config.substitutions.append(("%tir_prefix", prefix))
config.substitutions.append(("%tir_examples", os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(__file__))))))
config.substitutions.append(("%python", "/usr/bin/python3"))
