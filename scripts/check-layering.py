#!/usr/bin/env python3
"""Checks that tir's includes and library links follow docs/layering.md.

Reads the table of layers in <root>/docs/layering.md (folders, libraries,
the layers each may use), then checks
  - every `#include "TensorIR/..."` and `#include "TensorIR-c/..."` of a
    file under include/ and lib/: the included header's layer is the
    file's own or one its row names;
  - every tir library that a CMakeLists.txt under include/ or lib/ links
    (add_tir_library's LINK_LIBS, target_link_libraries): the same rule,
    by the layer the library belongs to;
  - that every source file and every tir library belongs to a layer.
Links are read as written: a tir library named through a CMake variable
(${...}) is not seen, so link statements name tir libraries directly.
Prints one line per violation and exits 1 if there is any.

Usage: check-layering.py [ROOT]   (ROOT: the checkout, default: this
script's parent folder)
"""

import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".cpp", ".td", ".c", ".inc")
# C/C++ (#include "..." or <...>, any spacing) and TableGen (include "...").
INCLUDE_RE = re.compile(
    r'^[ \t]*(?:#[ \t]*include[ \t]*[<"]|include[ \t]+")(TensorIR(?:-c)?/[^">]+)[">]',
    re.M)
# The CMake commands that define a library and those whose arguments link
# libraries (add_*library's LINK_LIBS, target_link_libraries).
DEFINE_COMMANDS = ("add_tir_library", "add_mlir_library", "add_mlir_dialect_library",
                   "add_library", "add_llvm_library")
COMMAND_RE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
# A tir library named anywhere in a word, also inside a generator
# expression ($<BUILD_INTERFACE:TIRPipelines>).
TIR_NAME_RE = re.compile(r"(?<![A-Za-z0-9_])(TIR[A-Za-z0-9_]*)(?![A-Za-z0-9_])")


class Layer:
    def __init__(self, name, folders, libraries, uses):
        self.name = name
        self.folders = folders
        self.libraries = libraries
        self.uses = uses


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def names(cell):
    """`a`, `b` or a, b -> [a, b]"""
    return [n.strip().strip("`") for n in cell.split(",") if n.strip()]


def read_table(path):
    layers = []
    with open(path) as f:
        lines = f.read().splitlines()
    header = None
    for line in lines:
        if not line.startswith("|"):
            if header is not None and layers:
                break
            continue
        row = cells(line)
        if header is None:
            if row[:4] == ["layer", "folders", "libraries", "may use"]:
                header = row
            continue
        if set(row[0]) <= set("-: "):
            continue
        name, folders, libraries, uses = row[:4]
        layers.append(Layer(name, names(folders), names(libraries), names(uses)))
    if not layers:
        sys.exit(f"check-layering: no table of layers in {path}")
    known = {l.name for l in layers}
    for layer in layers:
        for used in layer.uses:
            if used not in known:
                sys.exit(f"check-layering: {path}: layer '{layer.name}' uses "
                         f"unknown layer '{used}'")
    return layers


class Checker:
    def __init__(self, root):
        self.root = root
        self.layers = read_table(os.path.join(root, "docs", "layering.md"))
        self.library_layer = {lib: l for l in self.layers for lib in l.libraries}
        self.problems = []

    def layer_of(self, relpath):
        """The layer whose folder is the longest prefix of relpath."""
        best, best_len = None, -1
        for layer in self.layers:
            for folder in layer.folders:
                if (relpath == folder or relpath.startswith(folder + "/")) \
                        and len(folder) > best_len:
                    best, best_len = layer, len(folder)
        return best

    def allowed(self, user, used):
        return used is user or used.name in user.uses

    def report(self, message):
        self.problems.append(message)

    def check_includes(self, relpath, text, layer):
        for match in INCLUDE_RE.finditer(text):
            header = match.group(1)
            target = self.layer_of("include/" + header)
            line = text.count("\n", 0, match.start()) + 1
            if target is None:
                self.report(f"{relpath}:{line}: includes {header}, which belongs "
                            f"to no layer of docs/layering.md")
            elif not self.allowed(layer, target):
                self.report(f"{relpath}:{line}: layer {layer.name} includes "
                            f"{header} of layer {target.name}; {layer.name} may "
                            f"use {', '.join(layer.uses) or 'no other layer'} "
                            f"(docs/layering.md)")

    @staticmethod
    def commands(text):
        """(name, arguments) of each CMake command, comments removed and
        parentheses balanced."""
        text = re.sub(r"#[^\n]*", "", text)
        for match in COMMAND_RE.finditer(text):
            depth, pos = 1, match.end()
            while pos < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[pos], 0)
                pos += 1
            yield match.group(1), text[match.end():pos - 1].split()

    def check_cmake(self, relpath, text, layer):
        where = f"layer {layer.name}" if layer else "a folder of no layer"
        for name, words in self.commands(text):
            if not words:
                continue
            target, linked = words[0], []
            if name in DEFINE_COMMANDS:
                if target.startswith("TIR") and (layer is None or
                                                 target not in self.library_layer):
                    self.report(f"{relpath}: library {target} belongs to no layer of "
                                f"docs/layering.md")
                if "LINK_LIBS" in words:
                    linked = words[words.index("LINK_LIBS") + 1:]
            elif name == "target_link_libraries":
                linked = words[1:]
            for word in linked:
                for lib in TIR_NAME_RE.findall(word):
                    used = self.library_layer.get(lib)
                    if used is None or (layer is not None and self.allowed(layer, used)):
                        continue
                    uses = ", ".join(layer.uses) if layer else ""
                    self.report(f"{relpath}: {target} ({where}) links {lib} of layer "
                                f"{used.name}; " + (f"{layer.name} may use "
                                f"{uses or 'no other layer'}" if layer else
                                "only a layer's folders link libraries") +
                                " (docs/layering.md)")

    def run(self):
        for top in ("include", "lib"):
            for dirpath, dirnames, filenames in os.walk(os.path.join(self.root, top)):
                dirnames.sort()
                for filename in sorted(filenames):
                    path = os.path.join(dirpath, filename)
                    relpath = os.path.relpath(path, self.root)
                    is_cmake = filename == "CMakeLists.txt"
                    if not (is_cmake or filename.endswith(SOURCE_SUFFIXES)):
                        continue
                    layer = self.layer_of(relpath)
                    if layer is None and not is_cmake:
                        self.report(f"{relpath}: belongs to no layer of docs/layering.md")
                        continue
                    # An umbrella CMakeLists.txt (no layer) only adds folders:
                    # it is checked to define and link no tir library.
                    with open(path, errors="replace") as f:
                        text = f.read()
                    if is_cmake:
                        self.check_cmake(relpath, text, layer)
                    else:
                        self.check_includes(relpath, text, layer)
        return self.problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    problems = Checker(root).run()
    for problem in problems:
        print(f"check-layering: {problem}")
    if problems:
        print(f"check-layering: {len(problems)} violation(s)")
        return 1
    print("check-layering: every include and link follows docs/layering.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
