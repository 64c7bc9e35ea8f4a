// What the flame-graph tests read back from benchprof's HTML: the data of
// each graph on a page (see tools/flamegraph/flame_html.h), parsed with our
// JSON reader, not with the code that wrote it.
#ifndef BENCHPROF_TESTS_TOOLS_FLAMEGRAPH_TEST_DATA_H_
#define BENCHPROF_TESTS_TOOLS_FLAMEGRAPH_TEST_DATA_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/json_value.h"

namespace benchprof::testing {

struct ShownFrame {
  std::string function, location;
  int depth = 0;
  double value = 0;  // times the scale
  double base = 0;
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
      ShownFrame frame{name[0].as_string(), name[1].as_string(),
                       static_cast<int>(nodes[i + 1].as_number()), nodes[i + 2].as_number() * scale,
                       graph.diff ? nodes[i + 3].as_number() * bscale : 0};
      graph.frames.push_back(frame);
    }
    graphs.push_back(std::move(graph));
  }
  return graphs;
}

// Checks that every frame's value is at least the sum of its children's
// (the widths nest) and returns the root's value.
inline double CheckNestedWidths(const ShownGraph& graph) {
  const auto& f = graph.frames;
  std::vector<std::pair<size_t, double>> open;  // a frame and its children's sum so far
  const auto close = [&]() {
    const auto [i, children] = open.back();
    open.pop_back();
    // Values are exact integers below 2^53: compare exactly.
    EXPECT_LE(children, f[i].value) << f[i].function;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    while (!open.empty() && f[open.back().first].depth >= f[i].depth) close();
    if (!open.empty()) {
      EXPECT_EQ(f[i].depth, f[open.back().first].depth + 1) << f[i].function;
      open.back().second += f[i].value;
    }
    open.emplace_back(i, 0.0);
  }
  while (!open.empty()) close();
  return f.empty() ? -1 : f[0].value;
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_TOOLS_FLAMEGRAPH_TEST_DATA_H_
