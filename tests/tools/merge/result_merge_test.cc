// merge/result_merge.h: result files of shards as one run — the context,
// the shards named, the unsharded order restored — and what cannot be one
// run refused.
#include "tools/merge/result_merge.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/results/gbench_json.h"

namespace benchprof::merge {
namespace {

using json::Value;

// A shard's result file: context with `shard` ("" for none) and
// `executable`, one iteration row per name (two for names ending in '*':
// two repetitions and a mean).
NamedResults File(const std::string& path, const std::string& shard,
                  const std::vector<std::string>& names,
                  const std::string& executable = "/build/bench") {
  std::string text = R"({"context": {"date": "today", "executable": ")" + executable + "\"";
  if (!shard.empty()) text += R"(, "benchprof_shard": ")" + shard + "\"";
  text += R"(, "num_cpus": 2}, "benchmarks": [)";
  bool first = true;
  for (std::string name : names) {
    const bool repeated = name.ends_with('*');
    if (repeated) name.pop_back();
    const int rows = repeated ? 2 : 1;
    for (int r = 0; r < rows; ++r) {
      if (!first) text += ",";
      first = false;
      text +=
          R"({"name": ")" + name + R"(", "run_name": ")" + name +
          R"(", "run_type": "iteration", "iterations": 10, "real_time": 1.5, "cpu_time": 1.25, "time_unit": "ns"})";
    }
    if (repeated) {
      text +=
          R"(,{"name": ")" + name + R"(_mean", "run_name": ")" + name +
          R"(", "run_type": "aggregate", "aggregate_name": "mean", "iterations": 2, "real_time": 1.5, "cpu_time": 1.25, "time_unit": "ns"})";
    }
  }
  text += "]}";
  StatusOr<Value> doc = json::Parse(text);
  EXPECT_TRUE(doc.ok()) << doc.status().message() << text;
  return {path, std::move(*doc)};
}

std::vector<std::string> Names(const Value& document) {
  std::vector<std::string> names;
  for (const Value& row : document.Find("benchmarks")->as_array()) {
    names.push_back(row.Find("name")->as_string());
  }
  return names;
}

TEST(ResultMergeTest, ShardsComeBackInTheOrderOfOneRun) {
  // Six instances a..f dealt out to 4 shards: 0 gets a, e; 1 b, f; 2 c; 3 d.
  const std::vector<NamedResults> files = {
      File("r.2.json", "2/4", {"c"}), File("r.0.json", "0/4", {"a*", "e"}),
      File("r.3.json", "3/4", {"d"}), File("r.1.json", "1/4", {"b", "f"})};
  StatusOr<Value> merged = MergeResults(files, {});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(Names(*merged),
            (std::vector<std::string>{"a", "a", "a_mean", "b", "c", "d", "e", "f"}));
  const Value* context = merged->Find("context");
  EXPECT_EQ(context->Find("benchprof_shards")->as_string(), "0/4,1/4,2/4,3/4");
  EXPECT_EQ(context->Find("benchprof_shard"), nullptr);
  // The first file's context, in its order.
  EXPECT_EQ(context->members()[0].first, "date");
  EXPECT_EQ(context->members()[2].first, "benchprof_shards");
  EXPECT_EQ(context->Find("num_cpus")->as_number(), 2);
}

TEST(ResultMergeTest, AnEmptyShardIsPartOfTheRun) {
  const std::vector<NamedResults> files = {
      File("r.0.json", "0/3", {"a"}), File("r.1.json", "1/3", {}), File("r.2.json", "2/3", {})};
  StatusOr<Value> merged = MergeResults(files, {});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(Names(*merged), std::vector<std::string>{"a"});
  EXPECT_EQ(merged->Find("context")->Find("benchprof_shards")->as_string(), "0/3,1/3,2/3");
}

TEST(ResultMergeTest, UnshardedFilesFollowOneAnother) {
  const std::vector<NamedResults> files = {File("x.json", "", {"b", "a"}),
                                           File("y.json", "", {"c"})};
  StatusOr<Value> merged = MergeResults(files, {});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(Names(*merged), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(merged->Find("context")->Find("benchprof_shards"), nullptr);
}

TEST(ResultMergeTest, WhatCannotBeOneRunIsRefused) {
  const auto refused = [](const std::vector<NamedResults>& files) {
    StatusOr<Value> merged = MergeResults(files, {});
    return merged.ok() ? std::string("merged") : merged.status().message();
  };
  EXPECT_EQ(refused({File("r.0.json", "0/2", {"a", "b"}), File("r.1.json", "1/2", {"b"})}),
            "r.0.json and r.1.json both hold b: shards of one run hold different benchmarks");
  EXPECT_EQ(refused({File("r.0.json", "0/2", {"a"}), File("copy.json", "0/2", {})}),
            "r.0.json and copy.json are both shard 0/2");
  EXPECT_EQ(refused({File("r.1.json", "1/3", {"a"}), File("r.0.json", "0/4", {"b"})}),
            "r.1.json is shard 1/3 and r.0.json shard 0/4: not shards of one split");
  EXPECT_EQ(refused({File("all.json", "", {"a"}), File("r.0.json", "0/4", {"b"})}),
            "all.json names no shard and r.0.json is a shard (benchprof_shard): not shards of "
            "one run");
  EXPECT_EQ(refused({File("r.0.json", "0/2", {"a"}), File("r.1.json", "1/2", {"b"}, "/other")}),
            "r.0.json and r.1.json are results of different benchmark binaries (context "
            "executable \"/build/bench\" and \"/other\"); --allow-different-binaries merges them "
            "anyway");
  EXPECT_EQ(refused({File("r.0.json", "zero", {"a"})}),
            "r.0.json: context \"benchprof_shard\" is not a shard such as \"2/4\"");
}

TEST(ResultMergeTest, DifferentBinariesMergeWhenAllowed) {
  const std::vector<NamedResults> files = {File("r.0.json", "0/2", {"a"}),
                                           File("r.1.json", "1/2", {"b"}, "/other")};
  StatusOr<Value> merged = MergeResults(files, {.allow_different_binaries = true});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(Names(*merged), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(merged->Find("context")->Find("executable")->as_string(), "/build/bench");
}

TEST(ResultMergeTest, AnInterruptedShardMarksTheRun) {
  NamedResults interrupted = File("r.1.json", "1/2", {"b"});
  StatusOr<Value> doc = json::Parse(
      R"({"context": {"executable": "/build/bench", "benchprof_shard": "1/2", "benchprof_interrupted": "SIGINT"}, "benchmarks": []})");
  ASSERT_TRUE(doc.ok());
  const std::vector<NamedResults> files = {File("r.0.json", "0/2", {"a"}), {"r.1.json", *doc}};
  StatusOr<Value> merged = MergeResults(files, {});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->Find("context")->Find("benchprof_interrupted")->as_string(), "SIGINT");
}

TEST(ResultMergeTest, TheWrittenFileReadsBackAsTheSameRun) {
  const std::vector<NamedResults> files = {File("r.0.json", "0/2", {"a*"}),
                                           File("r.1.json", "1/2", {"b"})};
  StatusOr<Value> merged = MergeResults(files, {});
  ASSERT_TRUE(merged.ok());
  const std::string text = FormatResults(*merged);
  StatusOr<Value> read = json::Parse(text);
  ASSERT_TRUE(read.ok()) << read.status().message() << text;
  EXPECT_EQ(*read, *merged);
  StatusOr<results::GbenchResults> rows = results::ParseGbenchJson(text);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(rows->rows.size(), 4u);
  EXPECT_NE(text.find("\n  \"benchmarks\": [\n    {\n      \"name\": \"a\",\n"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace benchprof::merge
