#!/usr/bin/env bash
# ci/overhead end to end on the real bench: a flag that costs a lot (the heap
# profiler at rate 1 on an allocation-heavy benchmark, several times slower) must be
# exit 1 with its row in the table; a flag measured against itself must not
# be a regression; bad input and a failing run must be exit 3 with a message
# naming the input; no temporary directory may be left behind.
#
# Usage: overhead_integration_test.sh <source dir> <bench binary> <benchprof binary>
set -euo pipefail
script=$1/ci/overhead
bench=$2
benchprof=$3

work=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-overhead-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp
failed=0

pass() { echo "ok: $1"; }
fail() {
  echo "FAIL: $1" >&2
  failed=1
}

# Runs ci/overhead with the binaries under test; sets $code and $out.
overhead() {
  code=0
  out=$("$script" --bench="$bench" --benchprof="$benchprof" "$@" 2>&1) || code=$?
}

expect_error() {
  local what=$1 pattern=$2
  shift 2
  overhead "$@"
  if [ "$code" -eq 3 ] && grep -q -- "$pattern" <<<"$out"; then
    pass "$what: exit 3, '$pattern'"
  else
    fail "$what: exit $code, output: $out"
  fi
}

filter=--benchmark_filter=^BM_Freq/sequential/
min_time=--benchmark_min_time=0.05

# An allocation-heavy benchmark that touches no disk (whose noise hid the
# difference on a loaded machine), and six rounds: with four, a single
# overlap of the two sides leaves p above alpha.
overhead --rounds=6 --memprofile --memprofilerate=1 -- --benchmark_filter='^BM_RssSearch/before$' "$min_time"
if [ "$code" -eq 1 ] && grep -q "BM_RssSearch/before .*n=6 .*REGRESSION" <<<"$out"; then
  pass "the heap profiler at rate 1 is beyond 2%"
else
  fail "rate 1: exit $code, output: $out"
fi

# "On" adds nothing: whatever the noise, the medians differ by far less than 50%.
overhead --rounds=4 --max=50% --benchmark_counters_tabular=false -- "$filter" "$min_time"
if [ "$code" -eq 0 ] && grep -q "verdict: no regression" <<<"$out"; then
  pass "an A/A run is within --max"
else
  fail "A/A: exit $code, output: $out"
fi

if [ -n "$(ls -A "$work/tmp")" ]; then
  fail "temporary files left: $(ls "$work/tmp")"
else
  pass "no temporary files left"
fi

expect_error "no flag" "no FLAG to measure" -- "$filter"
expect_error "bad --max" "--max=2: expected a percentage" --max=2 --trace -- "$filter"
expect_error "bad --rounds" "--rounds=0: expected a positive integer" --rounds=0 --trace -- "$filter"
expect_error "missing binary" "$work/none: not an executable" --bench="$work/none" --trace -- "$filter"
# A failed run keeps its directory (with the log) and says where.
expect_error "failing run" "the 'on' run failed" --rounds=1 --memprofilerate=-1 -- "$filter"


exit "$failed"
