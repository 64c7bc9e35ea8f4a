#!/usr/bin/env bash
# The documentation cannot drift from the programs:
#   1. every command shown after a "$ " prompt in a fenced block of README.md
#      and docs/*.md runs and exits 0 (page by page, in order, in a scratch
#      directory, so later commands read what earlier ones wrote);
#   2. every exit code a program's --help lists is in a table of the pages
#      with the same meaning, word for word, and every row of an exit-code
#      table in the pages is one a program lists;
#   3. every flag `bench --help` lists under "benchprof flags" has a row in
#      the flag table of docs/bench.md, and every row there is one it lists;
#   4. every relative link and image of the pages leads to a file that
#      exists, and a link's #anchor to a heading of the page it names.
#
# usage: doc_commands_test.sh SOURCE_DIR BENCH BENCHPROF RAYTRACE RSS_SEARCH [GO]
# Benchmarks run with a short --benchmark_min_time (added last, so it wins):
# the check is about commands, flags and files, not about timings.
set -uo pipefail

source_dir=$(realpath "$1")
bench=$(realpath "$2")
benchprof=$(realpath "$3")
raytrace=$(realpath "$4")
rss_search=$(realpath "$5")
go=${6:-}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/benchprof-doc-check-XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# The programs by the names the pages use.
bin=$scratch/bin
mkdir -p "$bin"
# A short run has one or two CPU samples per benchmark at the default rate;
# ten times the rate keeps `pprof -list algOne` from finding none.
cat >"$bin/bench" <<EOF
#!/usr/bin/env bash
rate=()
if [[ " \$* " == *" --cpuprofile"* && " \$* " != *" --cpuprofilerate"* ]]; then
  rate=(--cpuprofilerate=1000)
fi
exec "$bench" "\$@" "\${rate[@]}" --benchmark_min_time=0.01
EOF
ln -s "$benchprof" "$bin/benchprof"
ln -s "$raytrace" "$bin/raytrace"
ln -s "$rss_search" "$bin/rss-search"
chmod +x "$bin/bench"
export PATH=$bin:$PATH
export HOME=$scratch/home GOCACHE=$scratch/home/gocache GOTOOLCHAIN=local GOFLAGS=
export PPROF_TMPDIR=$scratch/home
mkdir -p "$HOME"

# Commands the check does not run, each with where it is run instead.
not_run_reason() {
  case "$1" in
    "ci/test"*) echo "the CI job itself: .ci/run runs it" ;;
    "ci/sanitize"*) echo "three sanitizer builds of the whole tree: run by hand" ;;
    "ci/google-benchmark"*) echo "fetches and builds Google Benchmark: ci/test runs it" ;;
    "ci/perf-gate"*) echo "needs two commits: tests/tools/perf_gate_integration_test.sh runs it" ;;
    "ci/perf-bisect"*) echo "builds commits: tests/tools/history/perf_bisect_integration_test.sh runs it" ;;
    "ci/sharded-run"*) echo "needs the build's binaries: tests/tools/merge/sharded_run_integration_test.cc runs it" ;;
    "benchprof gate"*) echo "needs two builds: tests/tools/gate/gate_integration_test.cc runs it" ;;
    "ci/overhead"*) echo "builds release binaries: tests/overhead_integration_test.sh runs it" ;;
    "export PATH="*) echo "the check puts the programs on PATH itself" ;;
    "go tool pprof -http"*) echo "starts a web server" ;;
    *) return 1 ;;
  esac
}

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# ---- 1. the commands ----
run_page() {
  local page=$1 dir=$2
  local in_fence=0 line_number=0 line command status output
  while IFS= read -r line || [ -n "$line" ]; do
    line_number=$((line_number + 1))
    if [[ $line == '```'* ]]; then
      in_fence=$((1 - in_fence))
      continue
    fi
    [ "$in_fence" = 1 ] && [[ $line == '$ '* ]] || continue
    command=${line#\$ }
    # ci/bench is the build's bench once it is built.
    command=${command/#ci\/bench /bench }
    if reason=$(not_run_reason "$command"); then
      echo "not run: $page:$line_number: $command ($reason)"
      continue
    fi
    if [[ $command == "go "* ]] && [ -z "$go" ]; then
      fail "$page:$line_number: needs go, which is not installed"
      continue
    fi
    output=$(cd "$dir" && timeout 300 bash -c "$command" 2>&1 </dev/null)
    status=$?
    # A comparison of two runs, or of a run against history, may be
    # inconclusive or see noise as a regression; bad input (3) is a failure.
    if [[ $command == "benchprof compare"* || $command == "benchprof history gate"* ||
          $command == "benchprof history detect"* ]] && [ "$status" -le 2 ]; then
      status=0
    fi
    if [ "$status" -ne 0 ]; then
      fail "$page:$line_number: exit $status: $command"
      echo "$output" | tail -5 | sed 's/^/    /'
    else
      echo "ok: $page:$line_number: $command"
    fi
  done <"$page"
}

pages=("$source_dir/README.md" "$source_dir"/docs/*.md)
commands=0
for page in "${pages[@]}"; do
  dir=$scratch/run/$(basename "$page" .md)
  mkdir -p "$dir"
  commands=$((commands + $(grep -c '^\$ ' "$page")))
  run_page "$page" "$dir"
done
if [ "$commands" -lt 30 ]; then
  fail "only $commands commands found in the pages: did the \$ prompt convention change?"
fi

# ---- 2. exit codes ----
all_pages=$(cat "${pages[@]}")
help_rows=""  # "| code | meaning |" for every code of every --help
check_exit_codes() {
  local program=$1
  shift
  local help code meaning
  help=$("$@" --help 2>&1) || true
  local listed=0
  while IFS= read -r line; do
    [[ $line =~ ^\ \ ([0-9]+)\ \ (.*)$ ]] || continue
    code=${BASH_REMATCH[1]}
    meaning=${BASH_REMATCH[2]}
    listed=$((listed + 1))
    help_rows+="| $code | $meaning |"$'\n'
    if ! grep -qxF "| $code | $meaning |" <<<"$all_pages"; then
      fail "$program exit code $code: no table row '| $code | $meaning |' in the pages"
    fi
  done < <(sed -n '/^Exit codes:/,/^$/p' <<<"$help")
  [ "$listed" -gt 0 ] || fail "$program --help lists no exit codes"
}
check_exit_codes bench "$bench"
check_exit_codes benchprof "$benchprof"
check_exit_codes "benchprof compare" "$benchprof" compare
check_exit_codes "benchprof convert" "$benchprof" convert
check_exit_codes "benchprof trace-summary" "$benchprof" trace-summary
check_exit_codes "benchprof flamegraph" "$benchprof" flamegraph
check_exit_codes "benchprof report" "$benchprof" report
check_exit_codes "benchprof gate" "$benchprof" gate
check_exit_codes "benchprof history record" "$benchprof" history record
check_exit_codes "benchprof history show" "$benchprof" history show
check_exit_codes "benchprof history export" "$benchprof" history export
check_exit_codes "benchprof history detect" "$benchprof" history detect
check_exit_codes "benchprof history gate" "$benchprof" history gate
check_exit_codes "benchprof history report" "$benchprof" history report
check_exit_codes raytrace "$raytrace"
check_exit_codes rss-search "$rss_search"
# And no table in the pages says what no program says.
for page in "${pages[@]}"; do
  in_table=0
  line_number=0
  while IFS= read -r line || [ -n "$line" ]; do
    line_number=$((line_number + 1))
    if [ "$line" = "| exit code | meaning |" ]; then
      in_table=1
      continue
    fi
    [ "$in_table" = 1 ] || continue
    [[ $line == "| ---"* ]] && continue
    if [[ $line != "|"* ]]; then
      in_table=0
      continue
    fi
    grep -qxF "$line" <<<"$help_rows" ||
      fail "$page:$line_number: '$line' is no program's exit code (see their --help)"
  done <"$page"
done

# ---- 3. bench's flags in docs/bench.md ----
# The rows of the table under "| flag | meaning |", by their flag's name.
flag_page=$source_dir/docs/bench.md
table_rows=$(awk '
  $0 == "| flag | meaning |" { in_table = 1; next }
  in_table && /^\| ---/ { next }
  in_table && !/^\|/ { in_table = 0 }
  in_table { print }
' "$flag_page")
[ -n "$table_rows" ] || fail "docs/bench.md: no flag table ('| flag | meaning |')"
table_flags=""
while IFS= read -r row; do
  [ -n "$row" ] || continue
  if [[ $row =~ ^\|\ \`(--[a-z_]+)[=\`] ]]; then
    table_flags+="${BASH_REMATCH[1]}"$'\n'
  else
    fail "docs/bench.md: flag table row names no --flag: $row"
  fi
done <<<"$table_rows"
help_flags=$("$bench" --help | sed -n '/^benchprof flags/,/^Exit codes/p' | grep -oE '^  --[a-z_]+' | sed 's/^ *//')
flags=0
while IFS= read -r flag; do
  flags=$((flags + 1))
  grep -qxF -- "$flag" <<<"$table_flags" || fail "bench --help lists $flag; the flag table of docs/bench.md does not"
done <<<"$help_flags"
[ "$flags" -ge 8 ] || fail "found only $flags flags in bench --help"
while IFS= read -r flag; do
  [ -n "$flag" ] || continue
  grep -qxF -- "$flag" <<<"$help_flags" ||
    fail "docs/bench.md's flag table has $flag; bench --help does not list it under \"benchprof flags\""
done <<<"$table_flags"

# ---- 4. links ----
# GitHub's anchor of a heading: lower case, punctuation other than "-" and
# "_" dropped, spaces as "-"; a repeated one gets -1, -2, ...
anchors_of() {
  awk '
    /^```/ { in_fence = !in_fence; next }
    in_fence || !/^#+ / { next }
    {
      text = $0
      sub(/^#+ /, "", text)
      text = tolower(text)
      gsub(/[^a-z0-9 _-]/, "", text)
      gsub(/ /, "-", text)
      anchor = text
      if (text in seen) anchor = text "-" seen[text]
      seen[text]++
      print anchor
    }
  ' "$1"
}
links=0
for page in "${pages[@]}"; do
  page_dir=$(dirname "$page")
  # Links outside fenced blocks and code spans: ](target) and ![..](target).
  while IFS=: read -r line_number target; do
    case "$target" in
      http://* | https://* | mailto:*) continue ;;
    esac
    links=$((links + 1))
    file=${target%%#*}
    anchor=
    [[ $target == *"#"* ]] && anchor=${target#*#}
    if [ -z "$file" ]; then
      file=$page
    else
      file=$page_dir/$file
    fi
    if [ ! -e "$file" ]; then
      fail "${page#"$source_dir"/}:$line_number: link to $target: no such file"
      continue
    fi
    if [ -n "$anchor" ] && ! anchors_of "$file" | grep -qxF -- "$anchor"; then
      fail "${page#"$source_dir"/}:$line_number: link to $target: no heading with that anchor"
    fi
  done < <(awk '
    /^```/ { in_fence = !in_fence; next }
    in_fence { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)
      while (match(line, /\]\([^) ]+\)/)) {
        print NR ":" substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
      }
    }
  ' "$page")
done
[ "$links" -ge 20 ] || fail "found only $links relative links in the pages"
if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "all $commands documented commands, exit codes, flags and $links links check out"
