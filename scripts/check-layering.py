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
Prints one line per violation and exits 1 if there is any.

Usage: check-layering.py [ROOT]   (ROOT: the checkout, default: this
script's parent folder)
"""

import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".cpp", ".td", ".c", ".inc")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"(TensorIR(?:-c)?/[^"]+)"', re.M)
# add_tir_library(Name ...) / add_library(Name ...) and the libraries a
# target links; CMake arguments are whitespace-separated words.
LIBRARY_RE = re.compile(
    r"\b(add_tir_library|add_library|add_mlir_library)\s*\(\s*([A-Za-z0-9_]+)")
LINK_RE = re.compile(r"\btarget_link_libraries\s*\(([^)]*)\)", re.S)
TIR_LIBRARY_RE = re.compile(r"add_tir_library\s*\(([^)]*)\)", re.S)


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
        self.by_name = {l.name: l for l in self.layers}
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

    def linked_libraries(self, text):
        """(target, [linked words]) for each link statement."""
        for match in TIR_LIBRARY_RE.finditer(text):
            words = match.group(1).split()
            if "LINK_LIBS" in words:
                yield words[0], words[words.index("LINK_LIBS") + 1:]
        for match in LINK_RE.finditer(text):
            words = match.group(1).split()
            yield words[0], words[1:]

    def check_cmake(self, relpath, text, layer):
        for match in LIBRARY_RE.finditer(text):
            name = match.group(2)
            if name.startswith("TIR") and name not in self.library_layer:
                self.report(f"{relpath}: library {name} belongs to no layer of "
                            f"docs/layering.md")
        for target, words in self.linked_libraries(text):
            for word in words:
                used = self.library_layer.get(word)
                if used is not None and not self.allowed(layer, used):
                    self.report(f"{relpath}: {target} (layer {layer.name}) links "
                                f"{word} of layer {used.name}; {layer.name} may use "
                                f"{', '.join(layer.uses) or 'no other layer'} "
                                f"(docs/layering.md)")

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
                    if layer is None:
                        # The umbrella CMakeLists.txt files only add folders.
                        if not is_cmake:
                            self.report(f"{relpath}: belongs to no layer of "
                                        f"docs/layering.md")
                        continue
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
