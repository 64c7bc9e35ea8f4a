#!/usr/bin/env bash
# Builds tests/consumer against benchprof the ways a user would (installed
# package; add_subdirectory; add_subdirectory beside the project's own
# Google Benchmark) and checks --benchmem on its benchmark, and --trace
# (with the trace API), --cpuprofile and --memprofile. The first two use
# the Google Benchmark of benchprof's build (Debian's shared 1.7.1, or
# ci/google-benchmark's static 1.9.1); the third builds it from source with
# its defaults, so static, as FetchContent users have it.
# Usage: consumer_integration_test.sh <benchprof source dir> <benchprof build dir>
#          <CMAKE_PREFIX_PATH of that build> <Google Benchmark source dir>
set -euo pipefail
source_dir=$1
build_dir=$2
prefix_path=$3   # where that build found Google Benchmark ("" for the system's)
sibling_benchmark=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-consumer-XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Runs a build step quietly; when it fails, its last lines say why.
quietly() {
  "$@" >"$work/step.log" 2>&1 || fail "$* failed: $(tail -30 "$work/step.log")"
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

# "shared" if the binary loads libbenchmark.so, else "static".
linkage() {
  local dynamic
  dynamic=$(readelf -d "$1") || fail "$1: readelf -d failed"
  if [[ $dynamic == *"Shared library: [libbenchmark.so"* ]]; then echo shared; else echo static; fi
}

# Google Benchmark's version, as the consumer's binary reports it, and how
# the binary has it.
check_version() {
  local binary=$1 expected=$2 expected_linkage=$3
  "$binary" --version | grep -q "(Google Benchmark $expected)" ||
    fail "$binary: built against $("$binary" --version), expected $expected"
  [ "$(linkage "$binary")" = "$expected_linkage" ] ||
    fail "$binary: has a $(linkage "$binary") Google Benchmark, expected $expected_linkage"
  echo "Google Benchmark $expected, $expected_linkage: $binary"
}

built_against=$("$build_dir/benchmarks/bench" --version | sed -n 's/.*(Google Benchmark \([0-9.]*\).*/\1/p')
built_linkage=$(linkage "$build_dir/benchmarks/bench")

quietly cmake --install "$build_dir" --prefix "$work/prefix"
quietly cmake -S "$source_dir/tests/consumer" -B "$work/installed" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix;$prefix_path" -DCMAKE_BUILD_TYPE=RelWithDebInfo
quietly cmake --build "$work/installed"
check_version "$work/installed/my_bench" "$built_against" "$built_linkage"
check "$work/installed/my_bench"

# The builds from source are Debug builds: they check the CMake integration,
# which does not depend on the build type, and compile twice as fast. The
# installed package above is the optimised build.
quietly cmake -S "$source_dir/tests/consumer" -B "$work/subdirectory" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix_path" \
  -DBENCHPROF_SOURCE_DIR="$source_dir" -DCMAKE_BUILD_TYPE=Debug
quietly cmake --build "$work/subdirectory"
# The project's build compiles only what its benchmarks link.
[ ! -e "$work/subdirectory/benchprof/harness/src/tools/benchprof" ] ||
  fail "add_subdirectory built the benchprof tool, which nothing asked for"
check_version "$work/subdirectory/my_bench" "$built_against" "$built_linkage"
check "$work/subdirectory/my_bench"

# The project's own Google Benchmark, as released (ci/google-benchmark
# keeps its source), is the one benchprof uses: not the system's.
sibling_version=$(sed -n 's/^project *( *benchmark *VERSION \([0-9.]*\).*/\1/p' \
  "$sibling_benchmark/CMakeLists.txt")
[ -n "$sibling_version" ] || fail "no Google Benchmark source in $sibling_benchmark"
if [ "$sibling_version" != "$built_against" ]; then
  # The same build as in the leg against $sibling_version: done there.
  echo "2 passed, 0 failed (beside Google Benchmark $sibling_version: in that version's leg)"
  exit 0
fi
quietly cmake -S "$source_dir/tests/consumer" -B "$work/sibling" -G Ninja \
  -DBENCHMARK_SOURCE_DIR="$sibling_benchmark" -DBENCHPROF_SOURCE_DIR="$source_dir" \
  -DCMAKE_BUILD_TYPE=Debug
quietly cmake --build "$work/sibling"
check_version "$work/sibling/my_bench" "$sibling_version" static
check "$work/sibling/my_bench"
echo "3 passed, 0 failed"
