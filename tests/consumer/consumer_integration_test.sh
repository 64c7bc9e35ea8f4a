#!/usr/bin/env bash
# Builds tests/consumer against benchprof both ways a user would (installed
# package, and add_subdirectory) and checks --benchmem on its benchmark.
# Usage: consumer_integration_test.sh <benchprof source dir> <benchprof build dir>
set -euo pipefail
source_dir=$1
build_dir=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-consumer-XXXXXX")
trap 'rm -rf "$work"' EXIT

check() {
  local binary=$1
  local output
  output=$("$binary" --benchmem --benchmark_format=json --benchmark_min_time=0.01)
  if ! grep -q '"allocs/op": 1.0000000000000000e+00' <<<"$output" ||
     ! grep -q '"B/op": 2.4000000000000000e+01' <<<"$output"; then
    echo "FAIL: $binary did not report allocs/op=1 B/op=24:" >&2
    echo "$output" >&2
    exit 1
  fi
  echo "ok: $binary"
}

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/tests/consumer" -B "$work/installed" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work/installed" >/dev/null
check "$work/installed/my_bench"

cmake -S "$source_dir/tests/consumer" -B "$work/subdirectory" -G Ninja \
  -DBENCHPROF_SOURCE_DIR="$source_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work/subdirectory" >/dev/null
check "$work/subdirectory/my_bench"
echo "1 passed, 0 failed"
