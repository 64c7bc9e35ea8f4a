// The style sheet and the flame-graph script that flame_html.h embeds in
// every page. Written here, not fetched: pages work offline.
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

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_ASSETS_H_
