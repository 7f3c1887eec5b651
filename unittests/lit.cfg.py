# -*- Python -*-
# The C++ unit tests: every gtest program named *Tests under
# build/unittests, each test case reported as a lit test.
import os

import lit.formats

config.name = "TIR-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = os.path.join(config.tir_obj_root, "unittests")
config.test_exec_root = config.test_source_root
