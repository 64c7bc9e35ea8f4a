// The flame graph's tree and its HTML data: frames merged by function name
// along each stack (root first), inline frames expanded innermost-last,
// values summed per sample type, pprof's sample-type and -tagfocus rules,
// the base side of differential trees, and deterministic output.
#include "tools/flamegraph/flame_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/profile_data.h"
#include "tools/flamegraph/flame_html.h"

namespace benchprof::flamegraph {
namespace {

using encode::ProfileData;
using encode::ProfileLabel;

// main -> run -> {work (with helper inlined into it), idle}; samples
// labelled by benchmark.
ProfileData SampleProfile() {
  ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = 10;
  p.functions = {{"main", "main", "/src/main.cc", 3},
                 {"run", "_Z3runv", "/src/run.cc", 10},
                 {"work", "_Z4workv", "/src/work.cc", 20},
                 {"helper", "_Z6helperv", "/src/work.cc", 5},
                 {"idle", "_Z4idlev", "/src/run.cc", 30}};
  p.locations = {{0x100, std::nullopt, {{0, 4}}},
                 {0x200, std::nullopt, {{1, 12}}},
                 {0x300, std::nullopt, {{3, 6}, {2, 21}}},  // helper inlined into work
                 {0x400, std::nullopt, {{4, 31}}},
                 {0x500, std::nullopt, {{2, 22}}}};  // work itself
  const auto bench = [](const char* name) {
    return std::vector<ProfileLabel>{{"benchmark", name, 0, ""}};
  };
  p.samples = {{{2, 1, 0}, {3, 30}, bench("BM_One")},
               {{4, 1, 0}, {1, 10}, bench("BM_One")},
               {{3, 1, 0}, {2, 20}, bench("BM_Two")},
               {{1, 0}, {1, 10}, bench("BM_Two")},
               {{0}, {0, 0}, bench("BM_Two")}};
  return p;
}

// "name@depth" -> value, and the root's children order.
std::vector<std::string> Paths(const FlameTree& tree) {
  std::vector<std::string> out, stack;
  for (const FlameNode& node : tree.nodes) {
    stack.resize(node.depth);
    stack.push_back(tree.names[node.name].function);
    std::string path;
    for (const std::string& s : stack) path += (path.empty() ? "" : ";") + s;
    out.push_back(path + "=" + std::to_string(node.value) +
                  (tree.differential ? "/" + std::to_string(node.base) : ""));
  }
  return out;
}

FlameTree Build(const ProfileData& p, size_t index, const TagFocus* focus = nullptr) {
  FlameTreeBuilder builder(p.sample_types[index]);
  builder.Add(p, index, focus, false);
  return std::move(builder).Finish();
}

TEST(FlameTreeTest, MergesByFunctionAndExpandsInlineFramesOutermostFirst) {
  const FlameTree tree = Build(SampleProfile(), 1);
  EXPECT_EQ(Paths(tree), (std::vector<std::string>{"all=70", "all;main=70", "all;main;run=70",
                                                   "all;main;run;idle=20", "all;main;run;work=40",
                                                   "all;main;run;work;helper=30"}));
  EXPECT_EQ(tree.samples, 4u);  // the zero-valued sample adds nothing
  EXPECT_EQ(tree.names[tree.nodes[1].name].location, "/src/main.cc:3");
}

TEST(FlameTreeTest, EveryFrameHoldsAtLeastItsChildren) {
  const FlameTree tree = Build(SampleProfile(), 0);
  EXPECT_EQ(tree.nodes[0].value, 7);
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    int64_t children = 0;
    for (size_t j = i + 1; j < tree.nodes.size() && tree.nodes[j].depth > tree.nodes[i].depth;
         ++j) {
      if (tree.nodes[j].depth == tree.nodes[i].depth + 1) children += tree.nodes[j].value;
    }
    EXPECT_LE(children, tree.nodes[i].value) << i;
  }
}

TEST(FlameTreeTest, SampleIndexByNameIndexOrDefault) {
  ProfileData p = SampleProfile();
  EXPECT_EQ(*ChooseSampleIndex(p, ""), 1u);  // no default: the last
  EXPECT_EQ(*ChooseSampleIndex(p, "samples"), 0u);
  EXPECT_EQ(*ChooseSampleIndex(p, "1"), 1u);
  p.default_sample_type = "samples";
  EXPECT_EQ(*ChooseSampleIndex(p, ""), 0u);
  const StatusOr<size_t> unknown = ChooseSampleIndex(p, "alloc_space");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "no sample type \"alloc_space\" (the profile has 0=samples, 1=cpu)");
  EXPECT_FALSE(ChooseSampleIndex(p, "2").ok());
}

TEST(FlameTreeTest, TagFocusKeepsMatchingSamplesAsPprofDoes) {
  const ProfileData p = SampleProfile();
  StatusOr<TagFocus> one = TagFocus::Parse("benchmark=One");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(Build(p, 1, &*one).nodes[0].value, 40);
  StatusOr<TagFocus> either = TagFocus::Parse("benchmark=^BM_One$,Two");
  ASSERT_TRUE(either.ok());
  EXPECT_EQ(Build(p, 1, &*either).nodes[0].value, 70);
  StatusOr<TagFocus> keyless = TagFocus::Parse("benchmark:BM_T");  // "key:value", all must match
  ASSERT_TRUE(keyless.ok());
  EXPECT_EQ(Build(p, 1, &*keyless).nodes[0].value, 30);
  StatusOr<TagFocus> none = TagFocus::Parse("threads=.");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(Build(p, 1, &*none).samples, 0u);
  EXPECT_FALSE(TagFocus::Parse("benchmark=(").ok());
  EXPECT_FALSE(TagFocus::Parse("=x").ok());
  EXPECT_FALSE(TagFocus::Parse("benchmark=a,").ok());
}

TEST(FlameTreeTest, DifferentialTreeCarriesTheBaseAlongTheSamePaths) {
  const ProfileData head = SampleProfile();
  ProfileData base = SampleProfile();
  base.samples[0].values = {1, 10};  // helper: 30 -> 10
  FlameTreeBuilder builder(head.sample_types[1]);
  builder.Add(head, 1, nullptr, false);
  builder.Add(base, 1, nullptr, true);
  const FlameTree tree = std::move(builder).Finish();
  EXPECT_TRUE(tree.differential);
  EXPECT_EQ(Paths(tree),
            (std::vector<std::string>{"all=70/50", "all;main=70/50", "all;main;run=70/50",
                                      "all;main;run;idle=20/20", "all;main;run;work=40/20",
                                      "all;main;run;work;helper=30/10"}));
}

TEST(FlameTreeTest, OutputDoesNotDependOnTheOrderOfTheProfilesTables) {
  const ProfileData p = SampleProfile();
  ProfileData shuffled = p;
  std::reverse(shuffled.functions.begin(), shuffled.functions.end());
  for (auto& location : shuffled.locations) {
    for (auto& line : location.lines) line.function_index = 4 - line.function_index;
  }
  std::reverse(shuffled.samples.begin(), shuffled.samples.end());
  std::string a, b;
  AppendFlameGraph(Build(p, 1), a);
  AppendFlameGraph(Build(shuffled, 1), b);
  EXPECT_EQ(a, b);
}

// The JSON a page embeds, parsed back: values times the scale sum as the
// tree's.
TEST(FlameHtmlTest, EmbeddedDataRoundTrips) {
  ProfileData p = SampleProfile();
  p.functions[4].name = "idle</script><b>";
  const FlameTree tree = Build(p, 1);
  std::string html;
  AppendFlameGraph(tree, html);
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  const std::string open = "<script type=\"application/json\" class=\"fg-data\">";
  const size_t begin = html.find(open) + open.size();
  const size_t end = html.find("</script>", begin);
  StatusOr<json::Value> data = json::Parse(html.substr(begin, end - begin));
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->Find("unit")->as_string(), "nanoseconds");
  const double scale = data->Find("scale")->as_number();
  EXPECT_EQ(scale, 10);  // the values' greatest common divisor
  const auto& nodes = data->Find("nodes")->as_array();
  ASSERT_EQ(nodes.size(), tree.nodes.size() * 3);
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    EXPECT_EQ(nodes[3 * i + 2].as_number() * scale, tree.nodes[i].value);
  }
  const auto& names = data->Find("names")->as_array();
  std::vector<std::string> functions;
  for (const json::Value& name : names) functions.push_back(name.as_array()[0].as_string());
  EXPECT_NE(std::find(functions.begin(), functions.end(), "idle</script><b>"), functions.end());
}

}  // namespace
}  // namespace benchprof::flamegraph
