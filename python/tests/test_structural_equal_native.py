"""The extension's structural equality (_tensorir.structural_equal /
structural_hash, python/extension/StructuralEqual.cpp) on parsed MLIR: what is
compared, the message of a difference, and hashes that agree with
equality. tvm.ir's wrappers are tested in test_structural_equal.py."""
import glob
import os

import pytest

from conftest import ROOT

from tensorir._ext import ext

pytestmark = pytest.mark.skipif(not hasattr(ext, "structural_equal"),
                                reason="the extension has no structural equality")


def parse(text):
    return ext.Module.parse(text, "<test>")


COPY = """
func.func @main(%A: memref<16x16xf32> {tir.name = "A"}, %B: memref<16x16xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
        %one = arith.constant 1.0 : f32
        %s = arith.addf %a, %one : f32
        tir.store %s, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}
"""

# COPY with every name changed, the constant hoisted, the index written
# another way.
COPY_RENAMED = """
func.func @main(%X: memref<16x16xf32> {tir.name = "X"}, %Y: memref<16x16xf32>) {
  %c = arith.constant 1.0 : f32
  tir.for %p = 0 to 16 {
    tir.for %q = 0 to 16 {
      tir.block "B"(%x = spatial(16, %p * 1), %y = spatial(16, 0 + %q)) {
        %v = tir.load %X[%x, %y] : memref<16x16xf32>
        %w = arith.addf %v, %c : f32
        tir.store %w, %Y[%x, %y] : memref<16x16xf32>
      }
    }
  }
  return
}
"""


def variant(**replacements):
    text = COPY
    for old, new in replacements.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_names_and_placement_are_free():
    equal, message = ext.structural_equal(parse(COPY), parse(COPY_RENAMED))
    assert equal and message == ""
    assert ext.structural_hash(parse(COPY)) == ext.structural_hash(parse(COPY_RENAMED))


def test_block_names_are_hints():
    # As in TVM, where a block's name_hint is ignored by structural equality.
    renamed = COPY.replace('"B"(%vi', '"C"(%vi', 1)
    assert renamed != COPY
    assert ext.structural_equal(parse(COPY), parse(renamed)) == (True, "")
    assert ext.structural_hash(parse(COPY)) == ext.structural_hash(parse(renamed))


BLOCK = 'func @main > tir.for #0 > tir.for #0 > tir.block "B"'


@pytest.mark.parametrize("old,new,where", [
    ("1.0 : f32", "2.0 : f32",
     BLOCK + " > tir.store #0: stored value differs: "
     "arith.addf(A[vi, vj], 1.000000e+00 : f32) vs "
     "arith.addf(A[vi, vj], 2.000000e+00 : f32)"),
    ("tir.for %j = 0 to 16 {", "tir.for %j = 0 to 16 parallel {",
     "func @main > tir.for #0 > tir.for #0: loop kind differs: serial vs parallel"),
    ("spatial(16, %j)", "reduce(16, %j)",
     BLOCK + ": iteration variable kind 1 differs: spatial vs reduce"),
    # The regions (inferred here) differ before the stores do.
    ("%B[%vi, %vj] : memref", "%B[%vj, %vi] : memref",
     BLOCK + ": write 0 differs: B[vi, vj] vs B[vj, vi]"),
])
def test_a_difference_is_reported_where_it_is(old, new, where):
    text = COPY.replace(old, new, 1)
    equal, message = ext.structural_equal(parse(COPY), parse(text))
    assert not equal
    first, lhs, rhs = message.split("\n")
    assert first == where
    assert lhs.startswith("  lhs: ") and rhs.startswith("  rhs: ")
    assert ext.structural_hash(parse(COPY)) != ext.structural_hash(parse(text))


def test_functions_by_name():
    both = parse(COPY + COPY_RENAMED.replace("@main", "@other")
                 + COPY.replace("@main", "@third").replace("1.0", "3.0"))
    assert ext.structural_equal(both, both, "main", "other") == (True, "")
    # One name stands for both sides.
    assert ext.structural_equal(both, parse(COPY), "main")[0]
    equal, message = ext.structural_equal(both, both, "main", "third")
    assert not equal and message.startswith("func @main > ")
    with pytest.raises(ValueError, match="no function @missing in rhs"):
        ext.structural_equal(both, both, "main", "missing")
    # Hashes of functions leave the names out.
    assert ext.structural_hash(both, "main") == ext.structural_hash(both, "other")
    assert ext.structural_hash(both, "main") != ext.structural_hash(both, "third")


def test_modules_match_functions_by_name():
    two = parse(COPY + COPY.replace("@main", "@other"))
    swapped = parse(COPY_RENAMED.replace("@main", "@other") + COPY_RENAMED)
    assert ext.structural_equal(two, swapped) == (True, "")
    assert ext.structural_hash(two) == ext.structural_hash(swapped)
    # A module's function names count.
    renamed = parse(COPY.replace("@main", "@first"))
    equal, message = ext.structural_equal(parse(COPY), renamed)
    assert not equal
    assert message.startswith("module: function @main is defined on the lhs only")
    assert ext.structural_hash(parse(COPY)) != ext.structural_hash(renamed)
    # Unless a function is named on each side.
    assert ext.structural_equal(parse(COPY), renamed, "main", "first")[0]


def test_symbol_names_compared_on_request():
    a, b = parse(COPY), parse(COPY.replace("@main", "@f"))
    assert ext.structural_equal(a, b, "main", "f")[0]
    equal, message = ext.structural_equal(a, b, "main", "f",
                                          compare_symbol_names=True)
    assert not equal and "symbol name differs: main vs f" in message
    # Function arguments map by position whatever map_free_vars says.
    assert ext.structural_equal(parse(COPY), parse(COPY_RENAMED),
                                map_free_vars=True)[0]


def test_index_expressions_are_normalized():
    lhs = """
    func.func @main(%A: memref<64xf32>, %n: index) {
      tir.for %i = 0 to 4 {
        tir.for %j = 0 to 16 {
          tir.block "B"(%v = spatial(64, %i * 16 + %j)) where(%i * 16 + %j < 50) {
            %a = tir.load %A[%v] : memref<64xf32>
            tir.store %a, %A[%v] : memref<64xf32>
          }
        }
      }
      return
    }"""
    rhs = """
    func.func @main(%B: memref<64xf32>, %m: index) {
      tir.for %i = 0 to 4 {
        %c16 = arith.constant 16 : index
        %t = arith.muli %c16, %i : index
        tir.for %j = 0 to 16 {
          %u = arith.addi %j, %t : index
          tir.block "B"(%v = spatial(64, %u)) where(%u <= 49) {
            %a = tir.load %B[%v] : memref<64xf32>
            tir.store %a, %B[%v] : memref<64xf32>
          }
        }
      }
      return
    }"""
    assert ext.structural_equal(parse(lhs), parse(rhs)) == (True, "")
    assert ext.structural_hash(parse(lhs)) == ext.structural_hash(parse(rhs))
    equal, message = ext.structural_equal(parse(lhs), parse(rhs.replace("49", "48")))
    assert not equal
    assert "predicate differs: i * 16 + j <= 49 vs i * 16 + j <= 48" in message


EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_examples_equal_their_printed_copy(path):
    with open(path) as f:
        mod = ext.Module.parse(f.read(), path)
    printed = parse(str(mod))
    assert ext.structural_equal(mod, printed) == (True, "")
    assert ext.structural_equal(mod, mod.clone()) == (True, "")
    assert ext.structural_hash(mod) == ext.structural_hash(printed)


def test_examples_differ_from_each_other():
    hashes = {}
    for path in EXAMPLES:
        with open(path) as f:
            hashes[os.path.basename(path)] = ext.structural_hash(
                ext.Module.parse(f.read(), path))
    assert len(set(hashes.values())) == len(hashes), hashes


def test_hash_is_stable_across_runs():
    # The hash depends on the IR only (not on pointers): a value computed
    # here must not change between processes.
    import subprocess
    import sys
    code = ("from tensorir._ext import ext; import sys; "
            "print(ext.structural_hash(ext.Module.parse(sys.stdin.read())))")
    runs = {subprocess.run([sys.executable, "-c", code], input=COPY, text=True,
                           capture_output=True, check=True).stdout.strip()
            for _ in range(2)}
    assert runs == {str(ext.structural_hash(parse(COPY)))}
