// What the flame-graph tests read back from benchprof's HTML: the data of
// each graph on a page (see tools/flamegraph/flame_html.h), parsed with our
// JSON reader, not with the code that wrote it; and the frames of an SVG
// flame graph (tools/flamegraph/flame_svg.h), parsed with the tests' strict
// XML reader.
#ifndef BENCHPROF_TESTS_SUPPORT_FLAMEGRAPH_TEST_DATA_H_
#define BENCHPROF_TESTS_SUPPORT_FLAMEGRAPH_TEST_DATA_H_

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/json_value.h"
#include "support/xml_document.h"

namespace benchprof::testing {

struct ShownFrame {
  std::string function, location;
  int depth = 0;
  double value = 0;  // times the scale
  double base = 0;
  double left = 0, width = 0;  // SVG only: the rectangle, in hundredths of a pixel
  std::string fill, label;     // SVG only: its colour and its text
  bool hidden = false;         // SVG only: display: none (a browser's DOM after a zoom)
};

struct ShownGraph {
  std::string type, unit;
  bool diff = false;
  std::vector<ShownFrame> frames;  // preorder
};

// Every graph's data on `page`, in page order.
inline std::vector<ShownGraph> GraphsOnPage(const std::string& page) {
  std::vector<ShownGraph> graphs;
  const std::string names_open = "<script type=\"application/json\" class=\"fg-names\">";
  const size_t names_begin = page.find(names_open);
  if (names_begin == std::string::npos) return graphs;
  StatusOr<json::Value> names_table = json::Parse(
      page.substr(names_begin + names_open.size(),
                  page.find("</script>", names_begin) - names_begin - names_open.size()));
  if (!names_table.ok()) {
    ADD_FAILURE() << names_table.status().message();
    return graphs;
  }
  const auto& names = names_table->as_array();
  const std::string open = "<script type=\"application/json\" class=\"fg-data\">";
  for (size_t at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
    const size_t begin = at + open.size();
    const size_t end = page.find("</script>", begin);
    StatusOr<json::Value> data = json::Parse(page.substr(begin, end - begin));
    if (!data.ok()) {
      ADD_FAILURE() << data.status().message();
      return {};
    }
    ShownGraph graph;
    graph.type = data->Find("type")->as_string();
    graph.unit = data->Find("unit")->as_string();
    graph.diff = data->Find("diff")->as_number() != 0;
    const double scale = data->Find("scale")->as_number();
    const double bscale = data->Find("bscale")->as_number();
    const auto& nodes = data->Find("nodes")->as_array();
    const size_t stride = graph.diff ? 4 : 3;
    for (size_t i = 0; i + stride <= nodes.size(); i += stride) {
      const auto& name = names.at(static_cast<size_t>(nodes[i].as_number())).as_array();
      ShownFrame frame;
      frame.function = name[0].as_string();
      frame.location = name[1].as_string();
      frame.depth = static_cast<int>(nodes[i + 1].as_number());
      frame.value = nodes[i + 2].as_number() * scale;
      frame.base = graph.diff ? nodes[i + 3].as_number() * bscale : 0;
      graph.frames.push_back(frame);
    }
    graphs.push_back(std::move(graph));
  }
  return graphs;
}

// The frames of an SVG flame graph, in document order, after checking that
// it is well-formed XML; depth from the rows (17 px apart), function and
// file:line from the <title>'s first two lines.
inline ShownGraph GraphOfSvg(const std::string& svg) {
  ShownGraph graph;
  XmlElement root;
  std::string error;
  if (!ParseXml(svg, &root, &error)) {
    ADD_FAILURE() << "not well-formed XML: " << error;
    return graph;
  }
  EXPECT_EQ(root.name, "svg");
  const std::string* xmlns = root.Attribute("xmlns");
  EXPECT_TRUE(xmlns != nullptr && *xmlns == "http://www.w3.org/2000/svg");
  const auto hundredths = [](const std::string* text) {
    return text == nullptr ? -1.0 : std::round(std::stod(*text) * 100);
  };
  double top = -1;
  for (const XmlElement& group : root.children) {
    const std::string* id = group.Attribute("id");
    if (group.name != "g" || id == nullptr || *id != "fg-frames") continue;
    for (const XmlElement& g : group.children) {
      const std::string* value = g.Attribute("data-v");
      const std::string* base = g.Attribute("data-b");
      graph.diff = base != nullptr;
      if (g.children.size() < 2 || value == nullptr) {
        ADD_FAILURE() << "a frame without its value, <title> or <rect>";
        continue;
      }
      ShownFrame frame;
      frame.value = std::stod(*value);
      frame.base = base == nullptr ? 0 : std::stod(*base);
      const std::string& title = g.children[0].text;
      const size_t line = title.find('\n');
      frame.function = title.substr(0, line);
      frame.location = title.substr(line + 1, title.find('\n', line + 1) - line - 1);
      const XmlElement& rect = g.children[1];
      frame.left = hundredths(rect.Attribute("x"));
      frame.width = hundredths(rect.Attribute("width"));
      const double y = std::stod(*rect.Attribute("y"));
      if (top < 0) top = y;
      frame.depth = static_cast<int>((y - top) / 17);
      frame.fill = *rect.Attribute("fill");
      if (g.children.size() > 2) frame.label = g.children[2].text;
      const std::string* style = g.Attribute("style");
      frame.hidden = style != nullptr && style->find("display: none") != std::string::npos;
      graph.frames.push_back(frame);
    }
  }
  return graph;
}

// Checks that every frame's `member` is at least the sum of its children's
// and that depths step by one; returns the root's.
inline double CheckNested(const ShownGraph& graph, double ShownFrame::*member) {
  const auto& f = graph.frames;
  std::vector<std::pair<size_t, double>> open;  // a frame and its children's sum so far
  const auto close = [&]() {
    const auto [i, children] = open.back();
    open.pop_back();
    // Values are exact integers below 2^53: compare exactly.
    EXPECT_LE(children, f[i].*member) << f[i].function;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    while (!open.empty() && f[open.back().first].depth >= f[i].depth) close();
    if (!open.empty()) {
      EXPECT_EQ(f[i].depth, f[open.back().first].depth + 1) << f[i].function;
      open.back().second += f[i].*member;
    }
    open.emplace_back(i, 0.0);
  }
  while (!open.empty()) close();
  return f.empty() ? -1 : f[0].*member;
}

// Checks that every frame's value is at least the sum of its children's
// (the widths nest) and returns the root's value.
inline double CheckNestedWidths(const ShownGraph& graph) {
  return CheckNested(graph, &ShownFrame::value);
}

// For an SVG graph: the same for the drawn widths, and each rectangle lies
// within its parent's. Returns the root's width (hundredths of a pixel).
inline double CheckNestedRectangles(const ShownGraph& graph) {
  std::vector<const ShownFrame*> path;
  for (const ShownFrame& frame : graph.frames) {
    path.resize(static_cast<size_t>(frame.depth));
    if (!path.empty() && path.back() != nullptr) {
      EXPECT_GE(frame.left, path.back()->left) << frame.function;
      EXPECT_LE(frame.left + frame.width, path.back()->left + path.back()->width) << frame.function;
    }
    path.push_back(&frame);
  }
  return CheckNested(graph, &ShownFrame::width);
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_FLAMEGRAPH_TEST_DATA_H_
