// The flame graph's tree and its HTML data: frames merged by function name
// along each stack (root first), inline frames expanded innermost-last,
// values summed per sample type, pprof's sample-type and -tagfocus rules,
// the base side of differential trees and its normalised change, and
// deterministic output; the widest frames a drawing keeps, and the page's
// note of those it leaves out. The SVG document: well-formed XML whose
// frames nest and sum to the tree's, names escaped, narrow frames left out,
// the differential colours.
#include "tools/flamegraph/flame_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/profile_data.h"
#include "support/flamegraph_test_data.h"
#include "support/html_document.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/flamegraph/flame_svg.h"

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
  FlamePage a("p"), b("p");
  a.AppendGraph(Build(p, 1));
  b.AppendGraph(Build(shuffled, 1));
  EXPECT_EQ(std::move(a).Finish(), std::move(b).Finish());
}

// The JSON a page embeds, parsed back: values times the scale sum as the
// tree's; names are the page's, shared by its graphs.
TEST(FlameHtmlTest, EmbeddedDataRoundTrips) {
  ProfileData p = SampleProfile();
  p.functions[4].name = "idle</script><b>";
  const FlameTree tree = Build(p, 1);
  FlamePage page("t");
  page.AppendGraph(tree);
  page.AppendGraph(Build(p, 0));
  const std::string html = std::move(page).Finish();
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  const std::vector<testing::ShownGraph> graphs = testing::GraphsOnPage(html);
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].unit, "nanoseconds");
  EXPECT_EQ(graphs[1].unit, "count");
  ASSERT_EQ(graphs[0].frames.size(), tree.nodes.size());
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    EXPECT_EQ(graphs[0].frames[i].value, tree.nodes[i].value);
    EXPECT_EQ(graphs[0].frames[i].function, tree.names[tree.nodes[i].name].function);
  }
  EXPECT_EQ(graphs[0].frames[3].function, "idle</script><b>");
  EXPECT_EQ(graphs[1].frames[0].value, 7);
  // The scale is the values' greatest common divisor: 10 here.
  EXPECT_NE(html.find("\"scale\":10,"), std::string::npos);
  // Each name once.
  size_t count = 0;
  for (size_t at = html.find("[\"run\","); at != std::string::npos;
       at = html.find("[\"run\",", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 1u);
}

// Head SampleProfile; base the same shape at twice the values, except that
// helper's stack had a third of its head value (20 of a doubled 60).
FlameTree ShiftedTree(bool shift) {
  const ProfileData head = SampleProfile();
  ProfileData base = head;
  for (auto& sample : base.samples) {
    for (int64_t& value : sample.values) value *= 2;
  }
  if (shift) base.samples[0].values = {2, 20};
  FlameTreeBuilder builder(head.sample_types[1]);
  builder.Add(head, 1, nullptr, false);
  builder.Add(base, 1, nullptr, true);
  return std::move(builder).Finish();
}

double ChangeOf(const FlameTree& tree, const std::string& function) {
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    if (tree.names[tree.nodes[i].name].function == function) return NormalisedChange(tree, i);
  }
  ADD_FAILURE() << function;
  return 0;
}

// The base is scaled to the head's total (70 / 140 here): the same shape
// at another total is no change at all.
TEST(FlameTreeTest, NormalisedChangeScalesTheBaseToTheHeadsTotal) {
  const FlameTree same = ShiftedTree(false);
  ASSERT_EQ(same.nodes[0].base, 2 * same.nodes[0].value);
  for (size_t i = 0; i < same.nodes.size(); ++i) EXPECT_EQ(NormalisedChange(same, i), 0) << i;
  // Base: all 100, run 100 (20 of its own), work 40, helper 20, idle 40;
  // scaled by 70 / 100. (pprof -diff_base -normalize scales the head by
  // 100 / 70 instead: helper +22.86, the same change times 100 / 70.)
  const FlameTree shifted = ShiftedTree(true);
  ASSERT_EQ(shifted.nodes[0].base, 100);
  EXPECT_DOUBLE_EQ(ChangeOf(shifted, "helper"), 30 - 20 * 0.7);
  EXPECT_DOUBLE_EQ(ChangeOf(shifted, "work"), 40 - 40 * 0.7);
  EXPECT_DOUBLE_EQ(ChangeOf(shifted, "idle"), 20 - 40 * 0.7);
  EXPECT_DOUBLE_EQ(ChangeOf(shifted, "run"), 0);
  EXPECT_EQ(NormalisedChange(Build(SampleProfile(), 1), 3), 0) << "not differential";
}

std::map<std::string, testing::ShownFrame> SvgFrames(const FlameTree& tree) {
  std::map<std::string, testing::ShownFrame> frames;
  for (const auto& frame : testing::GraphOfSvg(FlameGraphSvg(tree, "t", "s")).frames) {
    frames[frame.function] = frame;
  }
  return frames;
}

TEST(FlameSvgTest, DifferentialColoursFollowTheNormalisedChange) {
  for (const auto& [name, frame] : SvgFrames(ShiftedTree(false))) {
    EXPECT_EQ(frame.fill, "#ebebeb") << name << ": unchanged is grey";
  }
  const auto frames = SvgFrames(ShiftedTree(true));
  // As the HTML page's script: 235 - 190 x |change| / largest change.
  EXPECT_EQ(frames.at("helper").fill, "#ff2d2d");  // +16, the largest
  EXPECT_EQ(frames.at("work").fill, "#ff5d5d");    // +12
  EXPECT_EQ(frames.at("idle").fill, "#8c8cff");    // -8
  EXPECT_EQ(frames.at("run").fill, "#ebebeb");
  EXPECT_EQ(frames.at("helper").base, 20);
}

TEST(FlameSvgTest, WellFormedWithEscapedNamesAndNestedWidths) {
  ProfileData p = SampleProfile();
  p.functions[4].name = "idle<T&U>\"'\x01]]>";
  p.functions[3].name = "helper\xff\xc3(";  // invalid UTF-8
  // A surrogate, an overlong form (each byte replaced), U+FFFE; then é kept.
  p.functions[2].name = "w\xed\xa0\x80\xe0\x80\xaf\xef\xbf\xbe\xc3\xa9";
  const FlameTree tree = Build(p, 1);
  const std::string svg = FlameGraphSvg(tree, "a <title>", "cpu & more");
  const testing::ShownGraph graph = testing::GraphOfSvg(svg);
  ASSERT_EQ(graph.frames.size(), tree.nodes.size());
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    EXPECT_EQ(graph.frames[i].value, tree.nodes[i].value) << i;
    EXPECT_EQ(graph.frames[i].depth, tree.nodes[i].depth) << i;
  }
  EXPECT_EQ(testing::CheckNestedWidths(graph), 70);
  EXPECT_EQ(testing::CheckNestedRectangles(graph), 100 * (kSvgWidth - 2 * kSvgMargin));
  EXPECT_EQ(graph.frames[3].function, "idle<T&U>\"'\xEF\xBF\xBD]]>");
  EXPECT_EQ(graph.frames[4].function,
            "w\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
            "\xEF\xBF\xBD\xc3\xa9");
  EXPECT_EQ(graph.frames[5].function, "helper\xEF\xBF\xBD\xEF\xBF\xBD(");
  EXPECT_EQ(graph.frames[1].location, "/src/main.cc:3");
  EXPECT_EQ(graph.frames[2].label, "run");
  EXPECT_NE(svg.find("<script type=\"text/ecmascript\"><![CDATA["), std::string::npos);
  EXPECT_NE(svg.find("<title>a &lt;title&gt;</title>"), std::string::npos);
}

// 1,000,000 samples in one stack and 1 in another: at 1180 px, the small
// one is 0.001 px wide and is left out with its callee; its caller keeps
// the width it adds.
TEST(FlameSvgTest, FramesBelowATenthOfAPixelAreLeftOutWithTheirCallees) {
  ProfileData p = SampleProfile();
  p.samples = {{{2, 1, 0}, {1, 1'000'000}, {}}, {{3, 1, 0}, {1, 1}, {}}};
  const FlameTree tree = Build(p, 1);
  ASSERT_EQ(tree.nodes.size(), 6u);
  const testing::ShownGraph graph = testing::GraphOfSvg(FlameGraphSvg(tree, "t", "s"));
  std::vector<std::string> functions;
  for (const auto& frame : graph.frames) functions.push_back(frame.function);
  EXPECT_EQ(functions, (std::vector<std::string>{"all", "main", "run", "work", "helper"}));
  EXPECT_EQ(testing::CheckNestedWidths(graph), 1'000'001);
  EXPECT_EQ(graph.frames[2].value, 1'000'001);  // run still holds idle's sample
  testing::CheckNestedRectangles(graph);
}

// The oracle above: it rejects what a browser's XML parser rejects, such as
// an HTML page.
TEST(FlameSvgTest, TheXmlReaderRejectsMalformedDocuments) {
  testing::XmlElement root;
  std::string error;
  ASSERT_TRUE(testing::ParseXml(
      "<?xml version=\"1.0\"?>\n<a x='1' y=\"&lt;&#65;&#x42;\"><b/>t&amp;<![CDATA[<c>]]></a>\n",
      &root, &error))
      << error;
  EXPECT_EQ(*root.Attribute("y"), "<AB");
  EXPECT_EQ(root.text, "t&<c>");
  for (const char* bad :
       {"<a><b></a></b>", "<a x=1/>", "<a x='<'/>", "<a>&nbsp;</a>", "<a>&</a>", "<a x='1' x='2'/>",
        "<a/><b/>", "<a>\x01</a>", "<a>\xff</a>", "<a>]]></a>", "<a>", "text<a/>"}) {
    EXPECT_FALSE(testing::ParseXml(bad, &root, &error)) << bad;
  }
  FlamePage page("p");
  page.AppendGraph(Build(SampleProfile(), 1));
  EXPECT_FALSE(testing::ParseXml(std::move(page).Finish(), &root, &error));
}

// The HTML oracle: a page of ours passes, with markup in its names; each
// rule it checks rejects a page that breaks it, naming the line.
TEST(FlameHtmlTest, TheHtmlCheckerRejectsMalformedPages) {
  ProfileData p = SampleProfile();
  p.functions[4].name = "idle</script><!--&<b>";
  FlamePage page("a<b> & \"c\"");
  page.AppendGraph(Build(p, 1));
  EXPECT_EQ(testing::CheckHtml(std::move(page).Finish()), "");
  const std::string head = "<!DOCTYPE html>\n<html lang=en><head><title>t &amp; u</title>";
  EXPECT_EQ(testing::CheckHtml(head + "<meta charset=\"utf-8\"/><style>a>b{}</style></head>\n"
                                      "<body><!-- <x> --><p class='a'>&lt;&#65;&#x1F600;<br>"
                                      "<input disabled></p></body></html>\n"),
            "");
  const auto page_with = [](const std::string& body) {
    return "<!DOCTYPE html>\n<html><head></head>" + body + "</html>\n";
  };
  const std::pair<std::string, std::string> bad[] = {
      {"<html><head></head><body></body></html>", "line 1: the page does not start"},
      {page_with("<body><p>a</body>"), "line 2: </body> closes <p> from line 2"},
      {page_with("<body><div/></body>"), "line 2: <div/> is not void"},
      {page_with("<body><br></br></body>"), "line 2: </br> ends a void element"},
      {page_with("<body><a href=x/y>a</a></body>"), "line 2: value of attribute href is neither"},
      {page_with("<body><a x='1' x='2'>a</a></body>"), "line 2: attribute x repeated"},
      {page_with("<body><script>a='</script'</script></body>"),
       "line 2: \"</script\" inside <script>"},
      {page_with("<body><script>a='<!--'</script></body>"), "line 2: \"<!--\" inside <script>"},
      {page_with("<body>\n1 < 2</body>"), "line 3: '<' starts no tag"},
      {page_with("<body>a & b</body>"), "line 2: '&' starts no character reference"},
      {page_with("<body>&#xD800;</body>"), "line 2: '&' starts no character reference"},
      {page_with("<body>&#55296;</body>"), "line 2: '&' starts no character reference"},
      {page_with("<body><a title='&1;'>a</a></body>"), "line 2: '&' starts no character"},
      {page_with("<body></body><body></body>"), "line 2: a second <body>"},
      {page_with("<body><head></head></body>"), "line 2: <head> inside <body>"},
      {page_with("<body></body></html>"), "line 2: </html> with no element open"},
      {page_with(""), "line 3: no <body>"},
      {"<!DOCTYPE html>\n<html><head></head><body>\n<div>", "line 3: <div> from line 3 is not"},
  };
  for (const auto& [malformed, problem] : bad) {
    const std::string checked = testing::CheckHtml(malformed);
    EXPECT_EQ(checked.rfind(problem, 0), 0u) << malformed << "\n" << checked;
  }
}

// A tree of `depth` frames in one chain, each of value 1: a recursion.
FlameTree Chain(size_t depth) {
  FlameTree tree;
  tree.sample_type = {"samples", "count"};
  tree.names = {{"all", ""}, {"recurse", "/src/r.cc:1"}};
  for (size_t i = 0; i <= depth; ++i) {
    tree.nodes.push_back({i == 0 ? 0u : 1u, static_cast<uint32_t>(i), 1, 0});
  }
  tree.samples = 1;
  return tree;
}

TEST(WidestFramesTest, KeepsTheWidestAndOfEqualOnesTheShallowest) {
  // A chain of equal widths keeps its top: not nothing (a cut at one value
  // would keep no frame but the root, or all of them).
  const std::vector<bool> chain = WidestFrames(Chain(100), 10);
  EXPECT_EQ(std::count(chain.begin(), chain.end(), true), 10);
  for (size_t i = 0; i < chain.size(); ++i) EXPECT_EQ(chain[i], i < 10) << i;
  // SampleProfile's cpu tree: all=70 main=70 run=60 idle=10 work=50
  // helper=20 (preorder, children by name); 4 frames keep the four widest.
  const FlameTree tree = Build(SampleProfile(), 1);
  std::vector<std::string> kept;
  const std::vector<bool> widest = WidestFrames(tree, 4);
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    if (widest[i]) kept.push_back(tree.names[tree.nodes[i].name].function);
  }
  EXPECT_EQ(kept, (std::vector<std::string>{"all", "main", "run", "work"}));
  // Room for every frame: every frame.
  const std::vector<bool> all = WidestFrames(tree, tree.nodes.size());
  EXPECT_EQ(std::count(all.begin(), all.end(), true), static_cast<long>(tree.nodes.size()));
}

TEST(WidestFramesTest, AFrameWhoseCallerIsLeftOutIsLeftOut) {
  // Negative values (a profile of differences) can make a callee wider than
  // its caller: it goes with its caller, so the frames kept are a tree.
  FlameTree tree = Chain(3);
  tree.nodes[1].value = -5;
  tree.nodes[2].value = 9;
  const std::vector<bool> kept = WidestFrames(tree, 3);
  EXPECT_EQ(kept, (std::vector<bool>{true, false, false, false}));
}

// The page keeps the widest kHtmlMaxFrames (here 50): the frames written
// nest (depths step by one under the root), "left_out" and a visible note
// say how many are not, and the names table holds only names drawn.
TEST(FlameHtmlTest, AGraphKeepsItsWidestFramesAndSaysHowManyAreLeftOut) {
  FlameTree tree = Chain(1000);
  tree.names.push_back({"never_drawn", ""});
  tree.nodes.push_back({2, 1, 0, 0});  // a second child of the root, of no width
  FlamePage page("deep");
  page.AppendGraph(tree, 50);
  const std::string html = std::move(page).Finish();
  const auto graphs = testing::GraphsOnPage(html);
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].frames.size(), 50u);
  EXPECT_EQ(testing::CheckNestedWidths(graphs[0]), 1);
  EXPECT_EQ(graphs[0].frames.back().depth, 49);
  EXPECT_NE(html.find("\"left_out\":952,"), std::string::npos);
  EXPECT_NE(html.find("<div class=\"fg-note\">50 of 1,002 frames shown, the widest (then the "
                      "shallowest): 952 are left out"),
            std::string::npos);
  EXPECT_EQ(html.find("never_drawn"), std::string::npos);
  EXPECT_EQ(testing::CheckHtml(html), "");
  // Within the limit: every frame, no note.
  FlamePage whole("deep");
  whole.AppendGraph(tree, 1002);
  const std::string all = std::move(whole).Finish();
  EXPECT_EQ(testing::GraphsOnPage(all)[0].frames.size(), 1002u);
  EXPECT_NE(all.find("\"left_out\":0,"), std::string::npos);
  EXPECT_EQ(all.find("<div class=\"fg-note\">"), std::string::npos);
}

// The SVG keeps the top of a deep recursion too (it kept only the root).
TEST(FlameSvgTest, ADeepRecursionKeepsItsTopFrames) {
  const testing::ShownGraph graph =
      testing::GraphOfSvg(FlameGraphSvg(Chain(20'000), "deep", "samples 1"));
  EXPECT_EQ(graph.frames.size(), kSvgMaxFrames);
  EXPECT_EQ(graph.frames.back().depth, static_cast<int>(kSvgMaxFrames) - 1);
  testing::CheckNestedRectangles(graph);
}

TEST(FlameSvgTest, SvgPathsEndInDotSvgInAnyCase) {
  EXPECT_TRUE(IsSvgPath("cpu.svg"));
  EXPECT_TRUE(IsSvgPath("/tmp/CPU.SVG"));
  EXPECT_TRUE(IsSvgPath("a.Svg"));
  EXPECT_FALSE(IsSvgPath("cpu.html"));
  EXPECT_FALSE(IsSvgPath("cpu.svgz"));
  EXPECT_FALSE(IsSvgPath("svg"));
}

}  // namespace
}  // namespace benchprof::flamegraph
