// Fuzz targets for the result files that `compare` and `convert` read.
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "fuzz/fuzz_targets.h"
#include "tools/compare/comparison.h"
#include "tools/compare/json_output.h"
#include "tools/compare/markdown_output.h"
#include "tools/compare/text_output.h"
#include "tools/convert/go_format_writer.h"
#include "tools/results/benchfmt_reader.h"
#include "tools/results/gbench_json.h"
#include "tools/results/result_reader.h"

namespace benchprof::fuzz {
namespace {

void CheckOneLine(const Status& status) {
  FUZZ_CHECK(!status.message().empty(), "an error without a message");
  FUZZ_CHECK(status.message().find('\n') == std::string::npos, "an error of several lines");
}

// What `compare` does with a file on both sides: read it into the result
// model, compare, render every report format.
void CompareWithItself(std::string_view data) {
  results::ResultSet set;
  const Status added = results::AddResultText("in", data, set);
  if (!added.ok()) {
    CheckOneLine(added);
    FUZZ_CHECK(added.message().starts_with("in"), "an error that does not name the file");
    return;
  }
  for (const results::BenchmarkSamples& benchmark : set.benchmarks) {
    FUZZ_CHECK(set.Find(benchmark.name) != nullptr, "a benchmark the index does not find");
  }
  const compare::Comparison comparison = compare::Compare(set, set, compare::CompareOptions{});
  // A file compared with itself has nothing worse: no regression.
  FUZZ_CHECK(comparison.verdict != compare::Verdict::kRegression,
             "a file compared with itself regresses");
  (void)compare::ComparisonText(comparison);
  (void)compare::ComparisonJson(comparison);
  (void)compare::ComparisonMarkdown(comparison);
}

}  // namespace

void GbenchJson(std::string_view data) {
  StatusOr<results::GbenchResults> parsed = results::ParseGbenchJson(data);
  if (!parsed.ok()) {
    CheckOneLine(parsed.status());
  } else {
    std::vector<std::string> notes;
    (void)results::SampleRows(*parsed, notes);
    for (const results::SkippedBenchmark& skip : results::SkippedBenchmarks(*parsed)) {
      (void)results::DescribeSkip(skip);
    }
    (void)results::GbenchVersion(*parsed);
    // What `convert` writes, our own Go text reader must read.
    convert::GoTextWriter writer(convert::GoFormatOptions{.assume_exact = true});
    writer.Add("in.json", *parsed);
    const std::string go_text = writer.Finish();
    StatusOr<results::GoBenchText> back = results::ParseGoBenchText(go_text);
    FUZZ_CHECK(back.ok(), back.ok() ? "" : back.status().message().c_str());
  }
  CompareWithItself(data);
}

void GoText(std::string_view data) {
  StatusOr<results::GoBenchText> parsed = results::ParseGoBenchText(data);
  if (!parsed.ok()) {
    CheckOneLine(parsed.status());
  } else {
    for (const results::GoBenchResult& result : parsed->results) {
      FUZZ_CHECK(!result.values.empty(), "a result line without values");
    }
  }
  CompareWithItself(data);
}

}  // namespace benchprof::fuzz
