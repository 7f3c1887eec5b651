#!/usr/bin/env bash
# Checks that the C and C++ sources follow .clang-format (LLVM style):
# prints each file that differs and fails if any does. With --fix, formats
# them in place. Needs clang-format-22 (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

FORMAT=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$FORMAT" >/dev/null; then
  echo "check-format: $FORMAT not found (scripts/setup.sh installs clang-format-22)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h')
if [[ "${1:-}" == "--fix" ]]; then
  "$FORMAT" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -ne 0 ]; then
  printf 'check-format: not formatted (scripts/check-format.sh --fix): %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} C/C++ files follow .clang-format"
