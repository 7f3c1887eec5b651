#!/usr/bin/env bash
# Runs the libFuzzer targets of tools/tir-fuzz, built in the sanitizer build
# (scripts/sanitize.sh --build-only; BUILD_DIR overrides build-san).
#
#   scripts/fuzz.sh --runs N [target...]   N executions per target, one
#                                          target after the other, one
#                                          process each
#   scripts/fuzz.sh --smoke [target...]    every seed once plus a few
#                                          thousand executions per target
#                                          (well under a minute in all)
#   --no-build                             run the targets as they are
#                                          (a long run while the tree moves)
#
# Targets: parse regions schedule lower (all when none is named). The seed
# corpora are made at run time from the .mlir files of test/ and examples/,
# split at `// -----` (comment lines dropped), into $BUILD_DIR/fuzz/seeds/.
# Long runs grow $BUILD_DIR/fuzz/corpus/<target>/, write their log to
# $BUILD_DIR/fuzz/logs/<target>.log and their crashes to
# $BUILD_DIR/fuzz/crashes/<target>/. Exit status 1 when a target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build-san}
ALL_TARGETS=(parse regions schedule lower)
mode=""
runs=0
build=1
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) mode=smoke ;;
    --runs) mode=runs; runs=${2:?--runs needs a number}; shift ;;
    --runs=*) mode=runs; runs=${1#--runs=} ;;
    --no-build) build=0 ;;
    parse|regions|schedule|lower) targets+=("$1") ;;
    *) echo "usage: $0 (--smoke | --runs N) [--no-build] [parse|regions|schedule|lower]..." >&2
       exit 2 ;;
  esac
  shift
done
[[ -n "$mode" ]] || { echo "usage: $0 (--smoke | --runs N) [target...]" >&2; exit 2; }
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL_TARGETS[@]}")

# Configured by scripts/sanitize.sh (once); only the targets are built here.
if [[ $build == 1 ]]; then
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    BUILD_DIR=$BUILD_DIR ./scripts/sanitize.sh --build-only >/dev/null
  fi
  ninja -C "$BUILD_DIR" -j"${JOBS:-2}" tir-fuzzers >/dev/null
fi

FUZZ=$BUILD_DIR/fuzz
LLVM_BIN=/usr/lib/llvm-22/bin
export ASAN_SYMBOLIZER_PATH=$LLVM_BIN/llvm-symbolizer
# A UBSan report is a crash (libFuzzer keeps the input); with a stack.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# allow_user_poisoning=0: see scripts/sanitize.sh (LLVM's BumpPtrAllocator
# poisons slabs that the uninstrumented libMLIR.so then allocates from).
# Leaks are reported too (libFuzzer checks each new input for them).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1}

# Seeds: every chunk of every .mlir of test/ and examples/, one file each,
# named by content hash (duplicates collapse), for the targets it fits.
make_seeds() {
  local dir=$FUZZ/seeds
  rm -rf "$dir" && mkdir -p "$dir/all"
  local src
  while IFS= read -r -d '' src; do
    awk -v out="$dir/all/$(echo "$src" | tr / _)" '
      function flush() {
        if (chunk ~ /[^ \t\n]/) { n++; f = out "." n; printf "%s", chunk > f; close(f) }
        chunk = ""
      }
      /^\/\/ -----/ { flush(); next }
      /^[ \t]*\/\// { next }
      { chunk = chunk $0 "\n" }
      END { flush() }' "$src"
  done < <(find test examples -name '*.mlir' -print0 | sort -z)
  local t f sum
  for t in parse regions schedule lower; do mkdir -p "$dir/$t"; done
  for f in "$dir"/all/*; do
    sum=$(md5sum "$f" | cut -c1-16)
    cp "$f" "$dir/parse/$sum"
    if grep -q 'tir\.block' "$f"; then cp "$f" "$dir/regions/$sum"; fi
    if grep -q '__transform_main' "$f"; then cp "$f" "$dir/schedule/$sum"; fi
    if grep -q 'tir\.' "$f" && ! grep -q 'transform\.' "$f"; then
      cp "$f" "$dir/lower/$sum"
    fi
  done
  rm -rf "$dir/all"
}
make_seeds

# Options for every run: inputs of at most 4 KiB (nine in ten seed chunks
# are smaller), 20 s per input at most, 2 GiB of memory.
common=(-max_len=4096 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1)
status=0
for t in "${targets[@]}"; do
  bin=$BUILD_DIR/bin/tir-fuzz-$t
  dict=tools/tir-fuzz/$t.dict
  mkdir -p "$FUZZ/crashes/$t" "$FUZZ/logs"
  if [[ $mode == smoke ]]; then
    # A fresh corpus each time: the seeds, then up to 2000 mutations (at
    # most 6 s: the four targets take well under a minute on a busy machine).
    work=$(mktemp -d "$FUZZ/smoke-$t.XXXXXX")
    if "$bin" "${common[@]}" -dict="$dict" -runs=2000 -max_total_time=6 \
         -artifact_prefix="$FUZZ/crashes/$t/" "$work" "$FUZZ/seeds/$t" \
         >"$FUZZ/logs/smoke-$t.log" 2>&1; then
      echo "fuzz smoke: $t: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$FUZZ/logs/smoke-$t.log" || echo done)"
    else
      echo "fuzz smoke: $t: CRASH (log: $FUZZ/logs/smoke-$t.log)" >&2
      tail -40 "$FUZZ/logs/smoke-$t.log" >&2
      status=1
    fi
    rm -rf "$work"
  else
    mkdir -p "$FUZZ/corpus/$t"
    log=$FUZZ/logs/$t.log
    echo "fuzz: $t: $runs runs, log $log"
    start=$(date +%s)
    if "$bin" "${common[@]}" -dict="$dict" -runs="$runs" \
         -artifact_prefix="$FUZZ/crashes/$t/" "$FUZZ/corpus/$t" "$FUZZ/seeds/$t" \
         >"$log" 2>&1; then
      result=ok
    else
      result=CRASH
      status=1
    fi
    echo "fuzz: $t: $result after $(( $(date +%s) - start )) s;" \
      "$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1)"
  fi
done
exit $status
