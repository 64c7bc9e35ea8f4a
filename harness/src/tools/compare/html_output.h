// The comparison as one self-contained HTML page (flame_html.h): the same
// tables, legend, findings, skipped benchmarks, warnings and verdict as the
// Markdown report, rows coloured by their gate, and for each regressed
// benchmark with samples in both the base and the head profiles, its
// differential flame graph (head widths, coloured by the change against the
// base normalised to the head's total), CPU and heap; a heap graph also
// when the base has no samples of the benchmark (it did not allocate).
//
//   HtmlProfiles profiles;
//   profiles.cpu = ProfilePair{{{"base.pprof", std::move(base)}}, {{"head.pprof",
//   std::move(head)}}}; std::string html = ComparisonHtml(comparison, profiles);
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_COMPARE_HTML_OUTPUT_H_
#define BENCHPROF_TOOLS_COMPARE_HTML_OUTPUT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encode/profile_data.h"
#include "tools/compare/comparison.h"

namespace benchprof::compare {

// A profile and the file it came from.
struct NamedProfile {
  std::string path;
  encode::ProfileData profile;
};

// One kind of profile on both sides, one or more files each (e.g. one per
// regressed benchmark): their samples are pooled.
struct ProfilePair {
  std::vector<NamedProfile> base, head;
};

struct HtmlProfiles {
  std::optional<ProfilePair> cpu;   // drawn with the head's default type (cpu)
  std::optional<ProfilePair> heap;  // drawn with the head's default type (alloc_space)
  // Benchmark -> text that explains its regression (`benchprof gate`'s
  // causes, one per line), shown above its graphs.
  std::map<std::string, std::string> explanations;
};

// The whole page.
std::string ComparisonHtml(const Comparison& c, const HtmlProfiles& profiles = {});

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_HTML_OUTPUT_H_
