// Flame graphs as self-contained HTML: the page needs no network, no
// external script and no font. Each graph is a <div class="fg"> that holds
// its tree as JSON (<script type="application/json" class="fg-data">); one
// small script, embedded once per page, draws every graph on the page as
// absolutely positioned boxes (root on top, callees below, widths in
// percent so printing and narrow screens keep the proportions; only boxes
// at least half a pixel wide, and at most 1,000 levels below the zoomed
// frame, with a line saying so when deeper ones are not drawn), and makes
// them interactive: click a frame to zoom to it (click an ancestor or
// "Reset" to zoom out), a regex search highlights frames and sums their
// share, hovering a frame shows its function, file:line, value and share
// (and in a differential graph the base and the normalised change).
//
// The URL fragment drives the same actions, for links and for tests:
// "#search=REGEX" searches every graph, "#click=NAME" clicks the first frame
// of function NAME in every graph that has one, "#draw" draws every graph at
// once (otherwise a graph is drawn when it scrolls into view, or before
// printing); a value that is not valid percent encoding is ignored. After
// drawing, a graph's element carries data-zoom (the zoomed function),
// data-drawn (frames drawn), data-cut (1000, when frames too deep were not
// drawn) and, after a search, data-matched (the matched value).
//
// The data: {"type","unit","diff","scale","bscale","left_out","nodes":[name,
// depth,value(,base),...]} with nodes in preorder, names indexing the page's
// one <script type="application/json" class="fg-names"> array of [function,
// location]; value*scale (base*bscale) is the frame's value. Scales are the
// greatest common divisor of the values (a CPU profile's period), which
// keeps the numbers short.
//
// A graph keeps at most kHtmlMaxFrames frames, the widest (ties go to the
// shallower and earlier frame, so every frame kept has its callers): a page
// stays a few megabytes and a browser draws it, however many distinct or
// deep stacks the profile has. The frames left out still count in their
// callers' widths; "left_out" says how many there are, and a line above the
// graph says so.
//
//   FlamePage page("cpu.pprof");
//   page.html() += "<h1>cpu.pprof</h1>";
//   page.AppendGraph(tree);
//   std::string html = std::move(page).Finish();
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_HTML_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_HTML_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tools/flamegraph/flame_tree.h"

namespace benchprof::flamegraph {

// The most frames one graph of a page keeps. A generated profile of
// 10,000 distinct stacks 8 to 40 frames deep has 186,066, all kept; 5
// million frames made a 59 MB page that Chromium could not draw.
inline constexpr size_t kHtmlMaxFrames = 200'000;

// Appends `text` (after tools::OneLine) as a JSON string literal that is
// safe inside <script type="application/json">: '<' is written \u003c, so
// no "</script>" or "<!--" can end or change the element.
void AppendScriptString(std::string& out, std::string_view text);

// Appends `text` with &, <, >, " and ' escaped, for element content and
// quoted attribute values.
void AppendHtmlEscaped(std::string& out, std::string_view text);

// `text` escaped as AppendHtmlEscaped does.
std::string HtmlEscaped(std::string_view text);

// A value of a sample type in `unit` as the tool prints it: "1.29s" for
// nanoseconds, "1.5MB" for bytes, "37" for a count, "12 widgets" otherwise.
std::string FormatSampleValue(std::string_view unit, double value);

// "cpu 1.29s (40 stacks)": the sample type, the tree's total and the
// number of profile samples (distinct stacks and labels) in it, for a
// caption; a differential tree adds the base's.
std::string DescribeTotal(const FlameTree& tree);

// A page under construction: its head (title, style sheet, flame-graph
// script), content appended by the caller and by AppendGraph, and at the
// end the function names of all its graphs, once (a report of many
// benchmarks repeats the same functions in every graph).
//
// Thread-safety: thread-compatible.
class FlamePage {
 public:
  explicit FlamePage(std::string_view title);

  // The page so far, for the caller's own content (escape text with
  // AppendHtmlEscaped).
  std::string& html() { return html_; }

  // Appends one interactive flame graph of `tree` (toolbar, frames, hover
  // line, legend for differential trees, a note of the frames left out past
  // `max_frames`) and its data.
  void AppendGraph(const FlameTree& tree, size_t max_frames = kHtmlMaxFrames);

  // The whole page.
  std::string Finish() &&;

 private:
  uint32_t NameIndex(const FrameName& name);

  std::string html_;
  std::string names_json_;                                // the elements of the names array
  std::unordered_map<std::string, uint32_t> name_index_;  // function + '\0' + location
};

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_HTML_H_
