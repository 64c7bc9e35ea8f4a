// Renders a Comparison for people and programs: an aligned text table for
// terminals and CI logs, Markdown for a pull-request comment, JSON, and a
// self-contained HTML page (html_output.h, which can add profiles).
//
// Text and Markdown print one table per metric (cpu_time, real_time,
// allocs/op, B/op, counters), one row per benchmark:
//
//   cpu_time          base            head            delta
//   BM_AlgorithmOne   863.6ns ± 2%    950.2ns ± 3%    +10.03%  p=0.000183 n=10  REGRESSION
//   BM_AlgorithmTwo   412.0ns ± 1%    411.8ns ± 1%          ~  p=0.912 n=10     ok
//   geomean           596.5ns         625.5ns          +4.87%
//
// then the reasons for each regression and inconclusive row (which rule
// decided), the warnings, and the verdict with its exit code as the last
// line. JSON carries every number at full precision (infinite interval
// bounds as null) for scripts.
//
// Each format has its own file pair (text_output.h, markdown_output.h,
// json_output.h, html_output.h); what text and Markdown both say is output_content.h.
//
//   std::string out = RenderComparison(comparison, OutputFormat::kMarkdown);
//
// Output depends only on the Comparison, so it is deterministic.
// Thread-safety: thread-safe.
#ifndef BENCHPROF_TOOLS_COMPARE_TABLE_WRITER_H_
#define BENCHPROF_TOOLS_COMPARE_TABLE_WRITER_H_

#include <optional>
#include <string>
#include <string_view>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

enum class OutputFormat { kText, kMarkdown, kJson, kHtml };

// Parses "text", "markdown" (or "md"), "json" and "html".
std::optional<OutputFormat> ParseOutputFormat(std::string_view name);

// The whole report in `format`, ending with a newline.
std::string RenderComparison(const Comparison& comparison, OutputFormat format);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_TABLE_WRITER_H_
