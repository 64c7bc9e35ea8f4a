// The comparison report as GitHub-flavoured Markdown, for a pull-request
// comment: a heading with the verdict, the files compared with the Google
// Benchmark version of each side when known (and a note when they differ),
// one table per metric (names as code spans, regressions in bold, columns
// empty throughout left out), the legend, the findings, the skipped
// benchmarks and the warnings (at most kMaxListedWarnings each) and the
// verdict with its exit code. Everything from the input files (names,
// paths, versions, reasons, messages, warnings) is a code span that
// survives any content, which GitHub renders literally (no markup, link,
// image, HTML, character reference, math, mention or emoji), and the tool's
// own words are escaped: a name can neither break a table nor inject
// anything into the comment.
//
//   std::string comment = ComparisonMarkdown(comparison);
//
// Thread-safety: thread-safe (a pure function of the Comparison).
#ifndef BENCHPROF_TOOLS_COMPARE_MARKDOWN_OUTPUT_H_
#define BENCHPROF_TOOLS_COMPARE_MARKDOWN_OUTPUT_H_

#include <string>

#include "tools/compare/comparison.h"

namespace benchprof::compare {

// The whole Markdown report, ending with a newline.
std::string ComparisonMarkdown(const Comparison& c);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_MARKDOWN_OUTPUT_H_
