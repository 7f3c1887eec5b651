#!/bin/sh
# The GPU checks, in two halves (issue 18):
#
#   scripts/gpu-check.sh build [DIR]   here, with the compiler: builds the
#       GPU examples and benchmarks (bench/gpu/build_artifacts.py, and the
#       Blitz course's GPU part) into DIR (default build/gpu), with the
#       runtime library beside them. No GPU needed.
#   scripts/gpu-check.sh run [DIR]     on a machine with an NVIDIA GPU, its
#       driver, Python 3 with numpy and PyTorch (the peer), and no compiler:
#       runs every library in DIR through tir_runtime (the runtime library
#       through ctypes), checks the results against PyTorch in float64 and
#       times them beside PyTorch / cuBLAS; then tir-exec (a runner linking
#       only the runtime) runs DIR/exec's GPU programs against their CPU
#       builds. Fails on a wrong result.
#   scripts/gpu-check.sh all [DIR]     both, where there is a compiler and a
#       GPU.
#   scripts/gpu-check.sh run DIR PREFIX...   only the libraries whose names
#       start with a prefix (e.g. `wggemm tcgemm`), and no tir-exec.
#   scripts/gpu-check.sh models [DIR]  here: whole models (ResNet-18, a
#       transformer encoder layer) compiled for the GPU into DIR (default
#       build/gpu-models; bench/gpu/build_models.py, with the venv's torch
#       >= 2); `run DIR` runs them beside PyTorch eager.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-all}
dir=${2:-build/gpu}
if [ "$mode" = models ] && [ $# -lt 2 ]; then dir=build/gpu-models; fi
shift $(( $# > 2 ? 2 : $# ))
python=${PYTHON:-python3}

build() {
  export PYTHONPATH="$PWD/python:$PWD/build/python"
  rm -rf "$dir"
  /usr/bin/python3 bench/gpu/build_artifacts.py "$dir" --arch "${TIR_CUDA_ARCH:-sm_90}"
  BLITZ_CUDA_LIBRARY="$dir/blitz.so" /usr/bin/python3 examples/python/blitz.py >/dev/null
}

models() {
  export PYTHONPATH="$PWD/python:$PWD/build/python"
  [ -x build/venv/bin/python ] || ./scripts/python-venv.sh
  build/venv/bin/python bench/gpu/build_models.py "$dir" --arch "${TIR_CUDA_ARCH:-sm_90}"
}

run() {
  PYTHONUNBUFFERED=1 "$python" bench/gpu/run.py "$dir" "$@"
  [ $# -eq 0 ] || return 0
  # The runner that links only the runtime: each GPU program against its
  # CPU build, on the same seeded inputs.
  if [ -x "$dir/exec/tir-exec" ]; then
    for gpu in "$dir"/exec/*_cuda.so; do
      LD_LIBRARY_PATH="$dir/exec" "$dir/exec/tir-exec" "$gpu" \
        --reference "${gpu%_cuda.so}_cpu.so" --repeat 20
    done
  fi
}

case $mode in
  build) build ;;
  models) models ;;
  run) run "$@" ;;
  all) build && run ;;
  *) echo "usage: $0 build|models|run|all [DIR] (run: [DIR PREFIX...])" >&2; exit 2 ;;
esac
