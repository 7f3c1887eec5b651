//===- ModuleCallTest.cpp - runtime::Module's calls
//------------------------===//
//
// Module::call with a hand-written entry point in place of compiled code:
// the memref descriptors it builds (contiguous and strided buffers, scalars
// typed as the parameter), and the entry points looked up once each, when
// the module is made, not on every call.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using namespace mlir::tir::runtime;

namespace {

/// fill(A: float32[2, 3] (written), v: float32): A[i, j] = v + 10 i + j,
/// through the descriptor's sizes and strides.
void fillEntry(void **args) {
  auto *a = static_cast<int64_t *>(args[0]);
  auto *data = reinterpret_cast<float *>(a[1]) + a[2];
  float v = *static_cast<float *>(args[1]);
  for (int64_t i = 0; i < a[3]; ++i)
    for (int64_t j = 0; j < a[4]; ++j)
      data[i * a[5] + j * a[6]] = v + 10 * i + j;
}

FunctionInfo fillSignature(const std::string &name) {
  ArgInfo a;
  a.name = "A";
  a.dtype = {DataType::Float, 32};
  a.shape = {2, 3};
  a.strides = {-1, 1};
  a.written = true;
  ArgInfo v;
  v.name = "v";
  v.isBuffer = false;
  v.dtype = {DataType::Float, 32};
  return {name, {a, v}};
}

struct CountingLookup {
  std::map<std::string, int> *asked;
  void *operator()(const std::string &symbol) const {
    ++(*asked)[symbol];
    return symbol == packedSymbol("fill") ? reinterpret_cast<void *>(&fillEntry)
                                          : nullptr;
  }
};

TEST(ModuleCall, EntryPointsAreLookedUpOnceWhenTheModuleIsMade) {
  std::map<std::string, int> asked;
  Module module({fillSignature("fill"), fillSignature("absent")},
                CountingLookup{&asked}, nullptr);
  EXPECT_EQ(asked[packedSymbol("fill")], 1);
  EXPECT_EQ(asked[packedSymbol("absent")], 1);
  float out[6] = {};
  std::string error;
  for (int call = 0; call < 3; ++call)
    ASSERT_TRUE(module.call("fill",
                            {Arg::buffer(out, {DataType::Float, 32}, {2, 3}),
                             Arg::scalar(double(call))},
                            error))
        << error;
  EXPECT_EQ(asked[packedSymbol("fill")], 1);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[5], 2 + 12);
  // A function without an entry point is an error when it is called.
  EXPECT_FALSE(module.call(
      "absent",
      {Arg::buffer(out, {DataType::Float, 32}, {2, 3}), Arg::scalar(1.0)},
      error));
  EXPECT_EQ(error, "the module has no entry point for 'absent'");
  EXPECT_EQ(asked[packedSymbol("absent")], 1);
}

TEST(ModuleCall, DescriptorsCarryShapesAndStrides) {
  std::map<std::string, int> asked;
  Module module({fillSignature("fill")}, CountingLookup{&asked}, nullptr);
  // Rows 4 floats apart (a view of columns 0..2 of a 2 x 4 array).
  float wide[8];
  std::fill(std::begin(wide), std::end(wide), -1.0f);
  std::string error;
  ASSERT_TRUE(
      module.call("fill",
                  {Arg::buffer(wide, {DataType::Float, 32}, {2, 3}, {4, 1}),
                   Arg::scalar(int64_t(5))},
                  error))
      << error;
  float expected[8] = {5, 6, 7, -1, 15, 16, 17, -1};
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(wide[k], expected[k]) << "element " << k;
}

/// sum(X0..X15: float32[1], S: float32 (0-d, written)): 17 arguments and
/// 83 descriptor words, more than call() keeps on its stack.
void sumEntry(void **args) {
  float total = 0;
  for (int i = 0; i < 16; ++i) {
    auto *x = static_cast<int64_t *>(args[i]);
    total += reinterpret_cast<float *>(x[1])[x[2]];
  }
  auto *s = static_cast<int64_t *>(args[16]);
  reinterpret_cast<float *>(s[1])[s[2]] = total;
}

TEST(ModuleCall, ManyArgumentsAndZeroDimensionalBuffers) {
  FunctionInfo sum{"sum", {}};
  for (int i = 0; i < 16; ++i) {
    ArgInfo x;
    x.name = "X" + std::to_string(i);
    x.shape = {1};
    sum.args.push_back(x);
  }
  ArgInfo s;
  s.name = "S";
  s.written = true;
  sum.args.push_back(s);
  Module module(
      {sum},
      [](const std::string &symbol) -> void * {
        return symbol == packedSymbol("sum")
                   ? reinterpret_cast<void *>(&sumEntry)
                   : nullptr;
      },
      nullptr);
  float inputs[16];
  std::vector<Arg> args;
  for (int i = 0; i < 16; ++i) {
    inputs[i] = float(i + 1);
    args.push_back(Arg::buffer(&inputs[i], {DataType::Float, 32}, {1}));
  }
  float total = -1;
  args.push_back(Arg::buffer(&total, {DataType::Float, 32}, {}));
  std::string error;
  ASSERT_TRUE(module.call("sum", args, error)) << error;
  EXPECT_EQ(total, 136.0f);
}

} // namespace
