#!/usr/bin/env bash
# Builds tests/consumer against benchprof both ways a user would (installed
# package, and add_subdirectory) and checks --benchmem on its benchmark,
# and --trace (with the trace API), --cpuprofile and --memprofile.
# Usage: consumer_integration_test.sh <benchprof source dir> <benchprof build dir>
set -euo pipefail
source_dir=$1
build_dir=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-consumer-XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

check() {
  local binary=$1
  local output
  output=$("$binary" --benchmark_filter=BM_UserAllocates --benchmem --benchmark_format=json \
    --benchmark_min_time=0.01)
  if ! grep -q '"allocs/op": 1.0000000000000000e+00' <<<"$output" ||
     ! grep -q '"B/op": 2.4000000000000000e+01' <<<"$output"; then
    fail "$binary did not report allocs/op=1 B/op=24: $output"
  fi
  # Every profile flag works in the user's binary, and the trace API
  # reaches the trace.
  "$binary" --benchmark_min_time=0.01 --trace="$work/t.json" --cpuprofile="$work/cpu.pprof" \
    --memprofile="$work/mem.pprof" >"$work/run.log" 2>&1 || fail "$binary: $(cat "$work/run.log")"
  grep -q '"name":"user-step"' "$work/t.json" || fail "$binary: no user-step region in the trace"
  grep -q '"name":"user-request"' "$work/t.json" || fail "$binary: no user-request task in the trace"
  gzip -t "$work/cpu.pprof" "$work/mem.pprof" || fail "$binary: the profiles are not gzip files"
  rm -f "$work/t.json" "$work/cpu.pprof" "$work/mem.pprof"
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
