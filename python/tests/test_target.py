"""tvm.target.Target: TVM's target strings (`-key=value`, `--key=value`,
`-key value`), tags of known machines, integer options typed, the kinds'
defaults, the attributes the auto-scheduler reads, and what is refused."""
import pytest

import tensorir as tvm
from tensorir.target import Target


@pytest.mark.parametrize("text", ["llvm -num-cores=4", "llvm --num-cores=4",
                                  "llvm -num-cores 4", "llvm --num-cores 4"])
def test_an_option_and_its_value_in_every_spelling(text):
    target = Target(text)
    assert target.attrs["num-cores"] == 4
    assert target.kind.name == "llvm"
    assert target.keys == ["cpu"]


def test_a_flag_before_an_option_and_a_list():
    target = Target("llvm -device=arm_cpu -mtriple=aarch64-linux-gnu "
                    "-mattr=+neon,+dotprod -num-cores 2")
    assert target.attrs["device"] == "arm_cpu"
    assert target.mattr == ["+neon", "+dotprod"]
    assert target.mtriple == "aarch64-linux-gnu"
    assert target.attrs["num-cores"] == 2


def test_a_gpu_tag_describes_the_gpu():
    target = Target("nvidia/geforce-rtx-3080")
    assert target.kind.name == "cuda"
    assert target.tag == "nvidia/geforce-rtx-3080"
    assert target.arch == "sm_86"
    assert target.keys == ["cuda", "gpu"]
    assert (target.max_threads_per_block, target.thread_warp_size,
            target.max_shared_memory_per_block) == (1024, 32, 49152)
    assert target.attrs["registers_per_block"] == 65536
    # Its text is the expansion, which parses to the same target.
    assert Target(str(target)).attrs == target.attrs
    assert Target("nvidia/nvidia-h100").arch == "sm_90a"
    assert Target("nvidia/geforce-rtx-2080").arch == "sm_75"


def test_a_cpu_tag():
    target = Target("aws/cpu/c5.9xlarge")
    assert target.kind.name == "llvm"
    assert target.keys == ["x86", "cpu"]
    assert target.mcpu == "skylake-avx512"
    assert target.attrs["num-cores"] == 18
    assert "aws/cpu/c5.9xlarge" in tvm.target.list_tags()


def test_the_kinds_defaults():
    cuda = Target("cuda")
    assert cuda.max_num_threads == 1024 and cuda.thread_warp_size == 32
    assert cuda.arch == ""
    assert str(cuda) == "cuda"
    assert Target("cuda -arch=sm_70").arch == "sm_70"


def test_registering_a_tag():
    tvm.target.register_tag("test/two-core-box", {"kind": "llvm", "num-cores": 2})
    assert Target("test/two-core-box").attrs["num-cores"] == 2
    with pytest.raises(ValueError, match="already registered"):
        tvm.target.register_tag("test/two-core-box", {"kind": "llvm"})
    tvm.target.register_tag("test/two-core-box", {"kind": "llvm", "num-cores": 3},
                            override=True)
    assert Target("test/two-core-box").attrs["num-cores"] == 3


def test_export_round_trips():
    target = Target("nvidia/nvidia-a100")
    config = target.export()
    assert config["kind"] == "cuda" and config["arch"] == "sm_80"
    assert config["tag"] == "nvidia/nvidia-a100"
    assert Target(config).attrs == target.attrs


@pytest.mark.parametrize("text, message", [
    ("nvidia/no-such-gpu", "unknown target tag 'nvidia/no-such-gpu'"),
    ("tpu", "unknown target kind 'tpu'"),
    ("llvm -num-cores=many", "-num-cores takes an integer, got 'many'"),
    ("llvm num-cores", "does not start with '-'"),
])
def test_refusals(text, message):
    with pytest.raises(ValueError, match=message):
        Target(text)


def test_a_tag_builds_for_its_gpu():
    # The description informs scheduling; the build takes the chip.
    from tensorir.runtime import _cuda_options
    assert _cuda_options(Target("nvidia/geforce-rtx-3080"))["chip"] == "sm_86"
    with pytest.raises(ValueError, match="option -mcpu is not supported for cuda"):
        _cuda_options(Target("cuda -mcpu=x"))
