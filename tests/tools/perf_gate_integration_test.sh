#!/usr/bin/env bash
# ci/perf-gate end to end on a toy git repository: a tiny CMake project with
# a `release` preset and a Google Benchmark binary, whose head commit makes
# BM_Slowed 30% slower. The gate must exit 1 and name BM_Slowed, and write
# the comparison page (by default perf-gate.html in the current directory,
# its path on the last line of the output); comparing a commit with itself
# must pass, and with --no-html write no page; a bad ref must be exit 3; the
# worktrees must be gone afterwards. SIGTERM to the gate while a build or a
# benchmark runs must stop that child too, and leave nothing behind.
#
# With --cpuprofile BUILD_DIR, the toy links benchprof::main from an install
# of BUILD_DIR instead (so its bench has --cpuprofile and --benchmem), the
# head commit also adds one 120-byte allocation per iteration in MakeLabel
# (BM_Allocating, as below), and the gate must explain BM_Slowed's time by
# CPU profiles whose first cause is the function that got slower, and
# BM_Allocating's allocs/op by MakeLabel at the line that allocates.
#
# With --instructions BUILD_DIR, the toy links benchprof::main likewise, the
# head commit also adds one 120-byte allocation per iteration in MakeLabel
# (BM_Allocating), and the gate runs one callgrind run per side: it must name
# both regressions, explain BM_Slowed by the functions whose instructions
# grew, first MixRounds, and BM_Allocating by its allocation sites, first
# MakeLabel at the line that allocates, and pass a commit against itself.
# Exits 77 (skipped) without valgrind.
#
# Usage: perf_gate_integration_test.sh <source dir> <benchprof binary> [--cpuprofile|--instructions <build dir>]
set -euo pipefail
source_dir=$1
benchprof=$2
mode=${3:-}
build_dir=${4:-}
gate=$source_dir/ci/perf-gate

work=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-perf-gate-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The gate's temporary directories go here, to check that it cleans up.
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp
passed=0
failed=0

pass() {
  echo "ok: $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL: $1" >&2
  failed=$((failed + 1))
}

toy=$work/toy
mkdir -p "$toy"
cat >"$toy/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(toy CXX)
set(CMAKE_CXX_STANDARD 20)
option(TOY_USE_BENCHPROF "Link benchprof::main instead of benchmark::benchmark_main" OFF)
add_executable(bench bench.cc)
if(TOY_USE_BENCHPROF)
  find_package(benchprof REQUIRED)
  target_link_libraries(bench PRIVATE benchprof::main)
else()
  find_package(benchmark REQUIRED)
  target_link_libraries(bench PRIVATE benchmark::benchmark_main)
endif()
EOF
cat >"$toy/CMakePresets.json" <<'EOF'
{
  "version": 6,
  "configurePresets": [
    {"name": "release", "generator": "Ninja", "binaryDir": "${sourceDir}/build/release",
     "cacheVariables": {"CMAKE_BUILD_TYPE": "RelWithDebInfo"}}
  ],
  "buildPresets": [{"name": "release", "configurePreset": "release"}]
}
EOF
cat >"$toy/bench.cc" <<'EOF'
#include <benchmark/benchmark.h>

#include <cstdint>

// The knob the head commit turns: rounds of mixing per iteration.
constexpr int kSlowedRounds = 1000;

__attribute__((noinline)) uint64_t MixRounds(uint64_t x, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
    benchmark::DoNotOptimize(x);
  }
  return x;
}

static void BM_Stable(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) x = MixRounds(x, 1000);
}
BENCHMARK(BM_Stable);

// The head commit of the --instructions test makes it allocate.
__attribute__((noinline)) void MakeLabel(uint64_t x) {
  benchmark::DoNotOptimize(x);  // LABEL_BODY
}

static void BM_Allocating(benchmark::State& state) {
  uint64_t x = 3;
  for (auto _ : state) {
    MakeLabel(x);
    x = MixRounds(x, 10);
  }
}
BENCHMARK(BM_Allocating);

static void BM_Slowed(benchmark::State& state) {
  uint64_t x = 2;
  for (auto _ : state) x = MixRounds(x, kSlowedRounds);
}
BENCHMARK(BM_Slowed);
EOF
git_toy() {
  git -C "$toy" -c user.name=perf-gate-test -c user.email=test@localhost \
    -c init.defaultBranch=main "$@"
}
git_toy init -q
git_toy add .
git_toy commit -qm base
sed -i 's/kSlowedRounds = 1000/kSlowedRounds = 1300/' "$toy/bench.cc"
if [ -n "$mode" ]; then
  sed -i 's|^  benchmark::DoNotOptimize(x);  // LABEL_BODY$|  char* label = new char[120];\n  label[0] = static_cast<char>(x);\n  benchmark::DoNotOptimize(label);\n  delete[] label;|' "$toy/bench.cc"
fi
git_toy commit -qam "make BM_Slowed 30% slower"

gate_args=(--repo="$toy" --benchprof="$benchprof" --bench=build/release/bench --rounds=8)
# The first cause under the explanation whose heading starts with $1.
first_cause() {
  sed -n "\\#^$1#{n;p;q}" "$work/ab.out"
}
# The planted allocation's explanation names MakeLabel at the line that
# allocates.
expect_allocation_explained() {
  local line
  line=$(grep -n 'new char\[120\]' "$toy/bench.cc" | cut -d: -f1)
  if first_cause 'BM_Allocating: allocs/op' |
     grep -Eq "^ +\+1 +100\.0%  MakeLabel  bench\.cc:$line  "; then
    pass "BM_Allocating's allocation is explained by MakeLabel at the line that allocates"
  else
    fail "BM_Allocating's allocation is not explained by MakeLabel at bench.cc:$line"
  fi
}
# The page: by default perf-gate.html where the gate runs; in the profiling
# modes at the path --html gives.
mkdir -p "$work/run"
page=$work/run/perf-gate.html
ab_args=()
if [ -n "$mode" ]; then
  page=$work/gate.html
  ab_args=(--html="$page")
fi
bench_flags=(--benchmark_min_time=0.05)
if [ "$mode" = --instructions ]; then
  if ! command -v valgrind >/dev/null; then
    echo "skipped: valgrind is not installed (ci/setup-debian installs it)"
    exit 77
  fi
  cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
  benchmark_prefix=$(sed -n 's/^CMAKE_PREFIX_PATH:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  gate_args+=(--instructions
    "--build-cmd=cmake --preset release -DTOY_USE_BENCHPROF=ON '-DCMAKE_PREFIX_PATH=$work/prefix;$benchmark_prefix' >/dev/null && cmake --build --preset release")
elif [ "$mode" = --cpuprofile ]; then
  # Enough samples at 100 Hz for the diff to show the slower function.
  bench_flags=(--benchmark_min_time=0.2 --benchmem)
  cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
  # The Google Benchmark that build used (a prefix, or the system's).
  benchmark_prefix=$(sed -n 's/^CMAKE_PREFIX_PATH:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  gate_args+=(--cpuprofile
    "--build-cmd=cmake --preset release -DTOY_USE_BENCHPROF=ON '-DCMAKE_PREFIX_PATH=$work/prefix;$benchmark_prefix' >/dev/null && cmake --build --preset release")
else
  gate_args+=("--build-cmd=cmake --preset release >/dev/null && cmake --build --preset release")
fi

# Head against base: a regression of BM_Slowed.
code=0
(cd "$work/run" && "$gate" "${gate_args[@]}" "${ab_args[@]}" HEAD~1 HEAD -- "${bench_flags[@]}") \
  >"$work/ab.out" 2>"$work/ab.err" || code=$?
if [ "$code" -eq 1 ]; then
  pass "a 30% slowdown exits 1"
else
  fail "a 30% slowdown exited $code"
fi
if [ "$mode" = --instructions ]; then
  if grep -q '^  BM_Slowed instructions/op: exact rule' "$work/ab.out" &&
     grep -q '^  BM_Allocating allocs/op: exact rule (constant on both sides): 0 → 1 ' "$work/ab.out" &&
     ! grep -q '^  BM_Stable ' "$work/ab.out" && ! grep -q 'cpu_time' "$work/ab.out"; then
    pass "the table names BM_Slowed (instructions) and BM_Allocating (allocations), no times"
  else
    fail "the table does not name BM_Slowed and BM_Allocating by their metrics"
  fi
  if first_cause 'BM_Slowed: instructions/op' | grep -q ' MixRounds(unsigned long, int)  bench.cc:'; then
    pass "BM_Slowed's instructions are explained, first by MixRounds"
  else
    fail "BM_Slowed's instructions are not explained first by MixRounds"
  fi
  expect_allocation_explained
elif grep -Eq '^BM_Slowed .*REGRESSION$' "$work/ab.out" &&
   grep -q '^  BM_Slowed cpu_time: statistical rule: ' "$work/ab.out"; then
  pass "the table names BM_Slowed as the regression"
else
  fail "the table does not name BM_Slowed"
fi
# The toy built on benchprof::main says which Google Benchmark wrote its files.
if [ "$mode" = --instructions ]; then
  if grep -Eq '^base: base-instructions\.json( \(Google Benchmark [^)]+\))?$' "$work/ab.out"; then
    pass "one run per side was compared"
  else
    fail "not one run per side"
  fi
elif grep -Eq '^base: base-round-1\.json … base-round-8\.json \(8 files\)( \(Google Benchmark [^)]+\))?$' \
     "$work/ab.out"; then
  pass "8 interleaved rounds per side were compared"
else
  fail "not 8 rounds per side"
fi
if [ "$mode" = --cpuprofile ]; then
  if first_cause 'BM_Slowed: time' | grep -q ' MixRounds  bench.cc:'; then
    pass "BM_Slowed's time is explained, first by MixRounds"
  else
    fail "BM_Slowed's time is not explained first by MixRounds"
  fi
  expect_allocation_explained
fi
# The comparison page beside the text, with the profile diff, its path last.
if [ -s "$page" ] && [ "$(head -c 15 "$page")" = '<!DOCTYPE html>' ] &&
   grep -q '<tr class="regression"><td>BM_Slowed</td>' "$page"; then
  pass "the comparison page is written ($(basename "$page"))"
else
  fail "no HTML page naming BM_Slowed at $page"
fi
if [ "$(tail -1 "$work/ab.out")" = "HTML page: $page" ]; then
  pass "the last line of the output is the page's path"
else
  fail "the last line of the output is not the page's path: $(tail -1 "$work/ab.out")"
fi
if [ "$mode" = --cpuprofile ]; then
  if grep -q 'class="fg-data"' "$page" && grep -q 'MixRounds' "$page"; then
    pass "the page has BM_Slowed's differential flame graph"
  else
    fail "no differential flame graph naming MixRounds on the page"
  fi
fi
if [ "$mode" = --instructions ]; then
  if grep -q 'class="fg-data"' "$page" && grep -q 'MakeLabel' "$page"; then
    pass "the page has BM_Allocating's differential heap flame graph"
  else
    fail "no differential heap flame graph naming MakeLabel on the page"
  fi
fi
if [ "$code" -ne 1 ] || [ "$failed" -ne 0 ]; then
  cat "$work/ab.out" "$work/ab.err" >&2
fi

if [ "$(git -C "$toy" worktree list | wc -l)" -eq 1 ] && [ -z "$(ls -A "$work/tmp")" ]; then
  pass "the worktrees and the temporary directory are removed"
else
  fail "left behind: $(git -C "$toy" worktree list) $(ls -A "$work/tmp")"
fi

if [ "$mode" != --cpuprofile ]; then
  # A commit against itself: one build, no regression (with --instructions:
  # identical instruction counts); --no-html: no page.
  code=0
  mkdir -p "$work/aa"
  (cd "$work/aa" && "$gate" "${gate_args[@]}" --no-html HEAD HEAD -- "${bench_flags[@]}") \
    >"$work/aa.out" 2>"$work/aa.err" || code=$?
  if [ "$code" -eq 0 ] && [ "$(grep -c '^perf-gate: building' "$work/aa.err")" -eq 1 ]; then
    pass "a commit against itself exits 0 after one build"
  else
    fail "a commit against itself exited $code"
    cat "$work/aa.out" "$work/aa.err" >&2
  fi
  if [ -z "$(ls -A "$work/aa")" ] && ! grep -q '^HTML page: ' "$work/aa.out"; then
    pass "--no-html writes no page"
  else
    fail "--no-html wrote: $(ls -A "$work/aa") $(grep '^HTML page: ' "$work/aa.out")"
  fi

  code=0
  "$gate" "${gate_args[@]}" no-such-ref HEAD >"$work/bad.out" 2>"$work/bad.err" || code=$?
  if [ "$code" -eq 3 ] && grep -q 'unknown commit no-such-ref' "$work/bad.err"; then
    pass "a bad ref exits 3"
  else
    fail "a bad ref exited $code: $(cat "$work/bad.err")"
  fi
fi

# Whether process $1 runs (a zombie has ended: this container's init may
# not reap orphans).
running() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $state != Z* ]]
}

# SIGTERM to the gate while its child runs ($1: "build" or "benchmark";
# $2: the build command; the child writes its pid into $work/child.pid):
# the child stops with the gate, which exits 143 and removes its worktrees
# and temporary directory. Before, a SIGTERM to the gate alone left the
# build or the benchmark running.
interrupt_gate() {
  local what=$1 build=$2 code=0 gate_pid child_pid="" waited=0
  rm -f "$work/child.pid"
  "$gate" --repo="$toy" --benchprof="$benchprof" --bench=build/release/bench --rounds=4 \
    --no-html "--build-cmd=$build" HEAD~1 HEAD >"$work/term.out" 2>"$work/term.err" &
  gate_pid=$!
  while [ ! -s "$work/child.pid" ] && [ "$waited" -lt 600 ] && running "$gate_pid"; do
    sleep 0.1
    waited=$((waited + 1))
  done
  child_pid=$(cat "$work/child.pid" 2>/dev/null || true)
  kill -TERM "$gate_pid"
  waited=0
  while running "$gate_pid" && [ "$waited" -lt 200 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if running "$gate_pid"; then kill -KILL "$gate_pid"; fi
  wait "$gate_pid" || code=$?
  if [ -z "$child_pid" ]; then
    fail "SIGTERM during the $what: the $what never started: $(cat "$work/term.err")"
  elif running "$child_pid"; then
    fail "SIGTERM during the $what: the $what still runs after the gate exited $code"
    kill -KILL "$child_pid"
  elif [ "$code" -eq 143 ] && [ "$(tail -1 "$work/term.err")" = "perf-gate: interrupted by SIGTERM" ]; then
    pass "SIGTERM during the $what stops the $what and exits 143"
  else
    fail "SIGTERM during the $what: exit $code, $(tail -1 "$work/term.err")"
  fi
  if [ "$(git -C "$toy" worktree list | wc -l)" -eq 1 ] && [ -z "$(ls -A "$work/tmp")" ]; then
    pass "SIGTERM during the $what leaves no worktree or temporary directory"
  else
    fail "SIGTERM during the $what left: $(git -C "$toy" worktree list) $(ls -A "$work/tmp")"
  fi
}

if [ -z "$mode" ]; then
  printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$work/child.pid" >"$work/slow-bench"
  chmod +x "$work/slow-bench"
  # shellcheck disable=SC2016  # $$ is the build's
  interrupt_gate build 'echo $$ >'"'$work/child.pid'"'; exec sleep 60'
  interrupt_gate benchmark "mkdir -p build/release && cp '$work/slow-bench' build/release/bench"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
