#!/usr/bin/env bash
# The Debian package: cpack builds it from the build's install rules
# ($BUILD_DIR/package/tensorir_<version>_<arch>.deb); dpkg installs it into
# an empty root with a database of its own (as on a clean system: nothing
# of tir outside it; its dependencies are LLVM/MLIR 22 from Debian, which
# this machine has), and examples/consumer is built against the installed
# /usr and run (scripts/consumer-check.sh). Skipped where dpkg is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=$(cd "${BUILD_DIR:-build}" && pwd)
# dpkg runs ldconfig and checks for start-stop-daemon: on the PATH of root
# only by default.
export PATH=$PATH:/usr/sbin:/sbin
if ! command -v dpkg > /dev/null || ! command -v cpack > /dev/null; then
  echo "package-check: skipped (no dpkg or cpack here)"
  exit 0
fi
out=$BUILD_DIR/package
rm -rf "$out"
cpack --config "$BUILD_DIR/CPackConfig.cmake" -B "$out" > "$BUILD_DIR/cpack.log" ||
  { cat "$BUILD_DIR/cpack.log"; exit 1; }
deb=$(ls "$out"/tensorir_*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends
root=$out/root
admin=$out/dpkg
mkdir -p "$root" "$admin/updates" "$admin/info"
touch "$admin/status"
# The dependencies are this machine's (the package's own database does not
# list them): checked here against the real one.
# (Each entry's package name; versions and alternatives are dpkg's to
# check on a real install.)
for dep in $(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/[(|].*//; s/ //g'); do
  dpkg -s "$dep" > /dev/null 2>&1 || { echo "package-check: dependency $dep is not installed"; exit 1; }
done
dpkg --force-not-root --force-depends --admindir="$admin" --instdir="$root" \
  --install "$deb" > "$out/dpkg.log" 2>&1 || { cat "$out/dpkg.log"; exit 1; }
dpkg --admindir="$admin" --status tensorir | grep -E '^(Status|Version)'
echo "installed $(dpkg --admindir="$admin" --listfiles tensorir | wc -l) paths under $root"
TIR_PREFIX=$root/usr CONSUMER_BUILD=$out/consumer BUILD_DIR=$BUILD_DIR ./scripts/consumer-check.sh
