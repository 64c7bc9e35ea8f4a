// The trend page of `benchprof history report`: one self-contained HTML
// page (no network, no external script, font or image; the drawing is our
// own script, trend_assets.h) with a trend chart per series — benchmark ×
// metric × testbed × branch — in the order given.
//
// A chart has the series' runs on the x-axis in the series' order (git
// ancestry), each run's median as a point and the min–max of its
// repetitions as a bar behind it, the level of each segment between change
// points as a line, the y-axis in the metric's unit, and every change point
// marked between its last good and first bad run: a regression red with a
// dashed line, an improvement blue with a dotted line, each labelled with
// "▲" or "▼" (the direction of the values), its change and "regression" or
// "improvement" (so neither is told by colour alone). Hovering a chart shows
// the nearest run's commit (short hash, subject, time), median, min–max and
// repetitions. Under each chart a table lists its change points (commit
// range, change, before and after medians, p-value, and the link to the
// differential flame graph when one is attached), and "Runs as a table"
// opens every run's commit, median, min, max and repetitions: the text
// alternatives to the chart, whose element carries an aria-label that
// summarises it.
//
// A filter box narrows the charts as one types: every word must occur
// (case-insensitively) in the series' benchmark, metric, testbed or branch.
// The URL fragment drives the page for links and for tests: "#filter=TEXT"
// fills the filter box, "#draw" draws every chart at load (otherwise a
// chart is drawn when it scrolls into view), "#tip=S,K" shows the tooltip
// of run K of series S (both from 0), "#runs=S" opens the table of the
// runs of series S, joined by '&'. After loading, <html> carries
// data-tp-ready-ms (performance.now() once the charts in view are drawn)
// and data-tp-shown (series the filter shows), each drawn chart's element
// data-points (points drawn) and data-cps (change points marked), each
// change point's mark (<g class="tp-cp">) data-last-good, data-first-bad,
// data-change and data-kind, an opened runs table's <details> data-rows,
// and a flame-graph link, once its page is unpacked, href (a blob: URL)
// and data-bytes (the page's size).
//
// The data, one <script type="application/json" id="tp-data"> block:
//   {"v":1,"series":[S,...],"commits":[[hash,time_s,subject],...]}
// commits listed once, in order of first use; time_s is the committer time
// in seconds since the epoch (0 when unknown). Each S:
//   {"b":benchmark,"m":metric,"t":testbed,"br":branch,"u":unit,"hib":0|1,
//    "e":E,"c":[first,count,...],"d":[...],"lo":[...],"hi":[...],
//    "r":reps or [reps,...],"nf":[index,...],"cp":[CP,...]}
// Values are integers in quanta of 10^E: run k's median is
// M_k = d_0 + ... + d_k quanta, its minimum M_k - lo_k and maximum
// M_k + hi_k. E keeps four significant digits of the smallest non-zero
// value, coarser when the largest would need more than 15 digits (0 for a
// series of integers, which stay exact). "c" holds runs of consecutive
// commit indices: indices first .. first+count-1, then the next pair. "r"
// is every run's number of repetitions, one number when all are equal.
// "nf" lists the runs whose median is not finite (not drawn; d_k is 0).
// Each CP: {"i":index,"c":change or null when infinite,"b":before,
// "a":after,"p":p-value (absent if none),"reg":0|1,"x":0|1 (exact),
// "f":attachment index (absent if none)}.
// An attached flame graph page is gzip-compressed and base64-encoded in a
// <script type="text/plain" class="tp-fg" data-f="N"> block (no character
// of base64 can end the element); the page's script decompresses it
// (DecompressionStream) when its chart is drawn and points the link at a
// Blob URL of it, so the trend page stays one file.
//
// Names are data: they pass through tools::OneLine and are escaped for
// HTML (flamegraph::AppendHtmlEscaped) and for <script> JSON
// (flamegraph::AppendScriptString).
//
// 200 series × 1,000 runs of 10 repetitions, with commits shared by the
// series, make a page of about 2.4 MB (tests/tools/history/history_page_test.cc).
//
//   TrendPageInput input;
//   input.title = "benchprof history: main";
//   input.series = analysed;   // from the store and the detector
//   input.commits = commits;   // by full hash
//   input.diff_flamegraphs[{0, 1}] = flame_page_html;
//   std::string html = TrendPageHtml(input);
//
// Thread-safety: thread-safe (a pure function).
#ifndef BENCHPROF_TOOLS_HISTORY_TREND_PAGE_H_
#define BENCHPROF_TOOLS_HISTORY_TREND_PAGE_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/history/series.h"

namespace benchprof::history {

struct TrendPageInput {
  std::string title;                   // the page's <title> and heading
  // One chart each, in this order. A change point whose index is not that
  // of one of its series' points is left out.
  std::vector<AnalysedSeries> series;
  // What the page shows of a point's commit (subject, committer time), by
  // full hash. A commit not here shows its hash alone.
  std::map<std::string, CommitInfo> commits;
  // (series index, change point index) -> a complete self-contained HTML
  // document (as `benchprof flamegraph --base` writes) that the change
  // point's row links to. Keys that name no change point are ignored.
  std::map<std::pair<size_t, size_t>, std::string> diff_flamegraphs;
};

// The trend page of `input`, described above. Throws std::bad_alloc when
// memory (zlib's state for an attachment included) cannot be allocated.
std::string TrendPageHtml(const TrendPageInput& input);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_TREND_PAGE_H_
