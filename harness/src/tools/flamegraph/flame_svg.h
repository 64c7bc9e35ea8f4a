// Flame graphs as one standalone SVG document, for `benchprof flamegraph
// -o FILE.svg`: the same tree and colours as the HTML page (flame_html.h),
// drawn by the writer rather than by a script, so the file shows in any SVG
// viewer; a small embedded script (in a CDATA section) adds the page's
// interaction where scripts run (a browser opening the file itself, not an
// <img>): click a frame to zoom to it (it fills the width, its ancestors
// stay, faded, everything else hides; click the root or "Reset zoom" to zoom
// out), Ctrl-F or "Search" asks for a regex, highlights the frames whose
// function or file:line it matches and shows the share they hold (each path
// counted once), and hovering a frame shows its <title> line below the
// graph.
//
// The document, root on top, 1200 px wide (kSvgWidth, frames within
// kSvgMargin of each side):
//   <g class="f" data-v="VALUE"[ data-b="BASE"]>
//     <title>function LF file:line LF value, share[; base, change]</title>
//     <rect x y width height fill/><text x y>function, cut to fit</text>
//   </g>
// one per frame in preorder (the tree's order), row by depth. data-v is the
// frame's value in the sample type's unit, data-b its base in a differential
// tree. x and width are rounded to hundredths of a pixel from each frame's
// start and end, so a frame's children never extend past it.
//
// What is left out, so that the document stays a few megabytes: a frame
// narrower than kSvgMinFramePx at full width, and beyond kSvgMaxFrames
// frames the narrowest (WidestFrames: of frames equally wide, the deeper
// and later go first), each with everything under it. A frame's value
// still counts in its caller's width (the caller is wider than its
// children shown), and zooming does not bring it back: the HTML page,
// which keeps up to kHtmlMaxFrames (200,000), or --tagfocus does.
//
//   std::string svg = FlameGraphSvg(tree, "cpu.pprof — cpu", DescribeTotal(tree));
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_SVG_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_SVG_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "tools/flamegraph/flame_tree.h"

namespace benchprof::flamegraph {

// The document's width in pixels, and the space left of and right of the
// frames: the root is kSvgWidth - 2 * kSvgMargin wide.
inline constexpr int kSvgWidth = 1200;
inline constexpr int kSvgMargin = 10;
// Frames narrower than this many pixels at full width are not written.
inline constexpr double kSvgMinFramePx = 0.1;
// At most this many frames are written (the root included).
inline constexpr size_t kSvgMaxFrames = 12'000;

// Whether `path` asks for an SVG document: it ends in ".svg", in any case.
bool IsSvgPath(std::string_view path);

// The SVG document of `tree`, with `title` (e.g. the profile's name) and
// `subtitle` (e.g. DescribeTotal) above the frames. Names that are not valid
// UTF-8 or hold control characters are written with U+FFFD in their place,
// so the document is always well-formed XML.
std::string FlameGraphSvg(const FlameTree& tree, std::string_view title, std::string_view subtitle);

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_SVG_H_
