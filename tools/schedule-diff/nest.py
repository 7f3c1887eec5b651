"""The loop nest of a scheduled module, read from its printed MLIR (by
indentation: the printer indents each region by two spaces), for the
generators: which loops two blocks share, which loops and blocks carry
annotations, which blocks write buffers the function allocates.

Only a guide for drawing arguments: a wrong guess gives a refused step, not
a wrong verdict.
"""
import re

_FOR = re.compile(r"^(\s*)tir\.for %([\w.$-]+) ")
_BLOCK = re.compile(r'^(\s*)tir\.block "([^"]+)"')
_STORE = re.compile(r"tir\.store [^,]+, %([\w.$-]+)\[")
_ANNOTATIONS = re.compile(r"annotations \{(.*)\}")
_KEY = re.compile(r'(?:^|, )"?([\w.]+)"? = ')


class Nest:
    def __init__(self, text):
        self.loops = {}        # block -> [loop line numbers], outermost first
        self.annotations = {}  # ("block", name) or ("loop", line) -> [keys]
        self.stores = {}       # block -> buffer names it stores to
        self.reductions = set()  # blocks with a tir.init
        stack = []             # (indent, kind, id)
        for number, line in enumerate(text.splitlines()):
            indent = len(line) - len(line.lstrip())
            while stack and stack[-1][0] >= indent and line.strip():
                stack.pop()
            loop, block = _FOR.match(line), _BLOCK.match(line)
            if loop:
                stack.append((indent, "loop", number))
                self._note_annotations(("loop", number), line)
            elif block:
                name = block.group(2)
                loops = []
                for _, kind, ident in stack:
                    loops = [] if kind == "block" else loops + [ident]
                self.loops[name] = loops
                self.stores[name] = set()
                stack.append((indent, "block", name))
                self._note_annotations(("block", name), line)
            else:
                store = _STORE.search(line)
                blocks = [ident for _, kind, ident in stack if kind == "block"]
                if line.strip().startswith("tir.init") and blocks:
                    self.reductions.add(blocks[-1])
                if store and blocks:
                    self.stores[blocks[-1]].add(store.group(1))
        self.allocated = set(re.findall(r"%([\w.$-]+) = tir\.alloc_buffer", text))

    def _note_annotations(self, key, line):
        found = _ANNOTATIONS.search(line)
        if found:
            self.annotations[key] = _KEY.findall(found.group(1))

    def shared_depth(self, a, b):
        """How many outer loops blocks a and b share."""
        depth = 0
        for x, y in zip(self.loops.get(a, []), self.loops.get(b, [])):
            if x != y:
                break
            depth += 1
        return depth

    def annotated(self):
        """(block, loop index or None, key) of every annotation; a loop is
        named through a block under it."""
        found = []
        for (kind, ident), keys in self.annotations.items():
            for key in keys:
                if kind == "block":
                    found.append((ident, None, key))
                    continue
                for block, loops in self.loops.items():
                    if ident in loops:
                        found.append((block, loops.index(ident), key))
                        break
        return found

    def writers_of_allocations(self):
        return sorted(b for b, bufs in self.stores.items() if bufs & self.allocated)
