"""Target: a compilation target parsed from TVM's target string
(`kind -key=value ...`, `-key value`, `--key=value`) or a tag
(`nvidia/geforce-rtx-3080`, tvm.target.tag), with the attributes the
schedule and the auto-scheduler ask about."""
import shlex
import threading

_KNOWN_KINDS = {"llvm", "c", "cuda", "nvptx", "rocm", "vulkan", "metal", "opencl",
                "hexagon", "webgpu", "ext_dev"}
# Options whose value is a comma-separated list.
_LIST_OPTIONS = {"mattr", "keys", "libs"}
# Options whose value is an integer (TVM's target kinds type them so).
_INT_OPTIONS = {"num-cores", "max_num_threads", "max_threads_per_block", "thread_warp_size",
                "max_shared_memory_per_block", "registers_per_block", "max_function_args",
                "l2_cache_size_bytes", "opt-level", "vector-width", "vtcm-capacity",
                "max_block_size_x", "max_block_size_y", "max_block_size_z"}
# What a kind has when the string does not say (TVM's kind defaults).
_KIND_DEFAULTS = {
    "llvm": {"keys": ["cpu"]},
    "c": {"keys": ["cpu"]},
    "cuda": {"keys": ["cuda", "gpu"], "max_num_threads": 1024, "thread_warp_size": 32},
    "nvptx": {"keys": ["cuda", "gpu"], "max_num_threads": 1024, "thread_warp_size": 32},
}

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


def _option_text(key, value):
    if isinstance(value, list):
        value = ",".join(str(v) for v in value)
    elif isinstance(value, bool):
        value = "true" if value else "false"
    return f"-{key}={value}"


def _parse_words(text):
    """(kind, options) of a target string: `-key=value`, `--key=value` or
    `-key value` (the value the next word, when it is no option)."""
    words = shlex.split(text)
    kind, options, k = words[0], {}, 1
    while k < len(words):
        word = words[k]
        if not word.startswith("-"):
            raise ValueError(f"target option {word!r} does not start with '-'")
        key, eq, value = word.lstrip("-").partition("=")
        if not key:
            raise ValueError(f"target option {word!r} has no name")
        if not eq and k + 1 < len(words) and not words[k + 1].startswith("-"):
            value, k = words[k + 1], k + 1
        options[key] = value if (eq or value) else True
        k += 1
    return kind, options


class Target:
    """tvm.target.Target from a string such as
    "llvm -mtriple=aarch64-linux-gnu -mattr=+sve", a tag
    ("nvidia/geforce-rtx-3080", "aws/cpu/c5.9xlarge") or a dict with
    "kind". Options are attributes: `mtriple`, `mcpu`, `mattr` (a list),
    `arch`, ...; `attrs` holds them all, integers typed as integers and the
    kind's defaults included (cuda: 1024 threads, warps of 32). A `with
    Target(...):` block makes it Target.current()."""

    def __init__(self, target, host=None):
        from . import tag as _tag
        if isinstance(target, Target):
            self.kind, self.attrs, self.host = target.kind, dict(target.attrs), target.host
            self._text, self.tag = target._text, target.tag
            return
        self.tag = ""
        if isinstance(target, str) and _tag.tag_config(target.strip()) is not None:
            self.tag = target.strip()
            target = _tag.tag_config(self.tag)
        if isinstance(target, dict):
            options = dict(target)
            kind = options.pop("kind", None)
            if kind is None:
                raise ValueError("a target dict needs a 'kind'")
            if "host" in options and host is None:
                host = options.pop("host")
            options.pop("tag", None)
            self._text = " ".join([kind] + [_option_text(k, v) for k, v in options.items()])
        else:
            if not isinstance(target, str) or not target.strip():
                raise ValueError(f"a target is a non-empty string, got {target!r}")
            self._text = target.strip()
            kind, options = _parse_words(self._text)
            if "/" in kind:
                raise ValueError(f"unknown target tag {kind!r} (tvm.target.tag.list_tags() "
                                 "lists the known ones)")
        if kind not in _KNOWN_KINDS:
            raise ValueError(f"unknown target kind {kind!r}")
        for key in _LIST_OPTIONS:
            if isinstance(options.get(key), str):
                options[key] = [v for v in options[key].split(",") if v]
        for key in _INT_OPTIONS & set(options):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError(f"target option -{key} takes an integer, got {value!r}")
            try:
                options[key] = int(value)
            except ValueError:
                raise ValueError(f"target option -{key} takes an integer, got "
                                 f"{value!r}") from None
        defaults = _KIND_DEFAULTS.get(kind, {})
        self.kind = TargetKind(kind)
        self.attrs = {**{k: (list(v) if isinstance(v, list) else v) for k, v in defaults.items()},
                      **options}
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
        return list(self.attrs.get("keys", [self.kind.name]))

    @property
    def arch(self):
        """A GPU target's chip ("sm_86"); "" where the string names none."""
        return self.attrs.get("arch", "")

    @property
    def max_num_threads(self):
        return self.attrs.get("max_num_threads")

    @property
    def thread_warp_size(self):
        return self.attrs.get("thread_warp_size")

    @property
    def max_shared_memory_per_block(self):
        return self.attrs.get("max_shared_memory_per_block")

    @property
    def max_threads_per_block(self):
        return self.attrs.get("max_threads_per_block")

    @property
    def libs(self):
        return list(self.attrs.get("libs", []))

    def export(self):
        """The target as a dict (TVM's export): "kind", "keys", the
        options, and "host" when it has one."""
        config = {"kind": self.kind.name}
        config.update({k: (list(v) if isinstance(v, list) else v) for k, v in self.attrs.items()})
        if self.tag:
            config["tag"] = self.tag
        if self.host is not None:
            config["host"] = self.host.export()
        return config

    @staticmethod
    def list_kinds():
        """The target kinds a string may start with."""
        return sorted(_KNOWN_KINDS)

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
