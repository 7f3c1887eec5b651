"""Target: a compilation target parsed from TVM's target string
(`kind -key=value ...`), with the attributes the schedule asks about."""
import shlex
import threading

_KNOWN_KINDS = {"llvm", "c", "cuda", "nvptx", "rocm", "vulkan", "metal", "opencl",
                "hexagon", "webgpu", "ext_dev"}
# Options whose value is a comma-separated list.
_LIST_OPTIONS = {"mattr", "keys", "libs"}

_stack = threading.local()


class TargetKind:
    """The kind of a target (`target.kind.name`: "llvm", "cuda", ...)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"TargetKind({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, TargetKind) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


class Target:
    """tvm.target.Target from a string such as
    "llvm -mtriple=aarch64-linux-gnu -mattr=+sve" (or a dict with "kind").
    Options are attributes: `mtriple`, `mcpu`, `mattr` (a list), and
    `attrs` holds them all. A `with Target(...):` block makes it
    Target.current()."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self.kind, self.attrs, self.host = target.kind, dict(target.attrs), target.host
            self._text = target._text
            return
        if isinstance(target, dict):
            options = dict(target)
            kind = options.pop("kind", None)
            if kind is None:
                raise ValueError("a target dict needs a 'kind'")
            self._text = " ".join([kind] + [f"-{k}={','.join(v) if isinstance(v, list) else v}"
                                             for k, v in options.items()])
        else:
            if not isinstance(target, str) or not target.strip():
                raise ValueError(f"a target is a non-empty string, got {target!r}")
            self._text = target.strip()
            words = shlex.split(self._text)
            kind, options = words[0], {}
            for word in words[1:]:
                if not word.startswith("-"):
                    raise ValueError(f"target option {word!r} does not start with '-'")
                key, _, value = word.lstrip("-").partition("=")
                options[key] = value if value else True
        if kind not in _KNOWN_KINDS:
            raise ValueError(f"unknown target kind {kind!r}")
        for key in _LIST_OPTIONS:
            if isinstance(options.get(key), str):
                options[key] = [v for v in options[key].split(",") if v]
        self.kind = TargetKind(kind)
        self.attrs = options
        self.host = Target(host) if host is not None and not isinstance(host, Target) else host

    # -------------------------------------------------------------- options
    @property
    def mattr(self):
        return list(self.attrs.get("mattr", []))

    @property
    def mtriple(self):
        return self.attrs.get("mtriple", "")

    @property
    def mcpu(self):
        return self.attrs.get("mcpu", "")

    @property
    def keys(self):
        return list(self.attrs.get("keys", ["cpu"] if self.kind.name in ("llvm", "c")
                                   else [self.kind.name]))

    def has_scalable_vectors(self):
        """Whether the target has scalable vectors (AArch64 SVE / SVE2:
        -mattr=+sve, +sve2, ...)."""
        return any(a.startswith("+sve") for a in self.mattr)

    # -------------------------------------------------------------- context
    def __enter__(self):
        if not hasattr(_stack, "targets"):
            _stack.targets = []
        _stack.targets.append(self)
        return self

    def __exit__(self, *exc):
        _stack.targets.pop()
        return False

    @staticmethod
    def current(allow_none=True):
        """The innermost Target of the `with` blocks, or None (or, if not
        allow_none, ValueError) outside them."""
        targets = getattr(_stack, "targets", [])
        if targets:
            return targets[-1]
        if not allow_none:
            raise ValueError("no target in scope (use `with Target(...):`)")
        return None

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Target({self._text!r})"

    def __eq__(self, other):
        return isinstance(other, Target) and str(self) == str(other)

    def __hash__(self):
        return hash(self._text)
