// The style sheet and the script of the trend page (trend_page.h), embedded
// as text so the page is self-contained: written here, not fetched, and no
// charting library — the script draws its own SVG.
//
// Thread-safety: thread-safe (constants).
#ifndef BENCHPROF_TOOLS_HISTORY_TREND_ASSETS_H_
#define BENCHPROF_TOOLS_HISTORY_TREND_ASSETS_H_

#include <string_view>

namespace benchprof::history {

// CSS of the charts, the filter box and the tooltip; it follows
// flamegraph::PageStyle(), whose body, table and colour rules it keeps.
std::string_view TrendPageStyle();

// The script that reads the page's data (trend_page.h describes it), draws
// the charts as they scroll into view, filters them, shows the hovered
// run, prepares the flame-graph links and follows the URL fragment's hooks.
// It holds no "</script".
std::string_view TrendPageScript();

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_TREND_ASSETS_H_
