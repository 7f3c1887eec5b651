"""Target tags: names for the targets of known machines (TVM's
`tvm.target.tag`), each a configuration of a target kind. A tag is
accepted wherever a target string is: `Target("nvidia/geforce-rtx-3080")`.
The values are the hardware's: compute capability, shared memory per
block and registers per block of NVIDIA GPUs (CUDA's table of technical
specifications per compute capability), cores and CPU model of AWS's c5
instances."""

_TAGS = {}


def _cuda(name, arch, shared_memory=49152, registers=65536):
    _TAGS[name] = {"kind": "cuda", "keys": ["cuda", "gpu"], "arch": arch,
                   "max_shared_memory_per_block": shared_memory,
                   "max_threads_per_block": 1024, "thread_warp_size": 32,
                   "registers_per_block": registers}


def _aws_c5(name, cores, mcpu):
    _TAGS[name] = {"kind": "llvm", "keys": ["x86", "cpu"], "mcpu": mcpu, "num-cores": cores}


for _name, _arch in [
        ("nvidia/tesla-k80", "sm_37"), ("nvidia/tesla-p100", "sm_60"),
        ("nvidia/nvidia-v100", "sm_70"),
        ("nvidia/nvidia-t4", "sm_75"), ("nvidia/geforce-rtx-2080", "sm_75"),
        ("nvidia/geforce-rtx-2080-ti", "sm_75"), ("nvidia/nvidia-a10g", "sm_86"),
        ("nvidia/geforce-rtx-3070", "sm_86"), ("nvidia/geforce-rtx-3070-ti", "sm_86"),
        ("nvidia/geforce-rtx-3080", "sm_86"), ("nvidia/geforce-rtx-3090", "sm_86"),
        ("nvidia/geforce-rtx-3090-ti", "sm_86"), ("nvidia/geforce-rtx-4090", "sm_89")]:
    _cuda(_name, _arch)
_cuda("nvidia/nvidia-a100", "sm_80")
_cuda("nvidia/nvidia-h100", "sm_90a")
_cuda("nvidia/nvidia-h200", "sm_90a")
for _name, _cores, _mcpu in [
        ("aws/cpu/c5.large", 1, "skylake-avx512"), ("aws/cpu/c5.xlarge", 2, "skylake-avx512"),
        ("aws/cpu/c5.2xlarge", 4, "skylake-avx512"), ("aws/cpu/c5.4xlarge", 8, "skylake-avx512"),
        ("aws/cpu/c5.9xlarge", 18, "skylake-avx512"), ("aws/cpu/c5.12xlarge", 24, "cascadelake"),
        ("aws/cpu/c5.18xlarge", 36, "skylake-avx512"), ("aws/cpu/c5.24xlarge", 48, "cascadelake")]:
    _aws_c5(_name, _cores, _mcpu)


def list_tags():
    """{tag: Target} of every known tag (TVM's list_tags)."""
    from .target import Target
    return {name: Target(name) for name in _TAGS}


def register_tag(name, config, override=False):
    """Registers tag `name` for `config` (a dict with "kind"), as TVM's
    register_tag; a tag already known needs `override`. Returns the
    Target."""
    from .target import Target
    if name in _TAGS and not override:
        raise ValueError(f"target tag {name!r} is already registered (pass override=True)")
    target = Target(dict(config))
    _TAGS[name] = dict(config)
    return target


def tag_config(name):
    """The configuration of tag `name` (a copy), or None."""
    config = _TAGS.get(name)
    return None if config is None else {k: (list(v) if isinstance(v, list) else v)
                                        for k, v in config.items()}
