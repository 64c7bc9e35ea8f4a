// The style sheet and the flame-graph script that flame_html.h embeds in
// every page, and the script of SVG flame graphs (flame_svg.h). Written
// here, not fetched: pages work offline.
//
// Thread-safety: thread-safe (constants).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_ASSETS_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_ASSETS_H_

#include <string_view>

namespace benchprof::flamegraph {

// CSS for flame graphs, tables and print/narrow layouts.
std::string_view PageStyle();

// The script that draws every <div class="fg"> of a page.
std::string_view FlameGraphScript();

// The script of an SVG flame graph (flame_svg.h): zoom, search, hover line.
// It holds no "]]>", so it goes in a CDATA section as it is.
std::string_view SvgScript();

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_ASSETS_H_
