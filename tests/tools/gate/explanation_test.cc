// The explanations of a regression (tools/gate/explanation.h) on profiles
// built here: allocation sites past the allocator's frames, functions whose
// own instructions grew, CPU changes kept only when they stand out of
// sampling noise.
#include "tools/gate/explanation.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace benchprof::gate {
namespace {

using encode::ProfileData;
using encode::ProfileSample;

constexpr char kBenchmark[] = "BM_Labels";

// A profile builder: functions by name, one location per function (one
// line), samples from leaf to root.
class Builder {
 public:
  explicit Builder(std::vector<encode::ValueTypeName> types) {
    profile_.sample_types = std::move(types);
    profile_.mappings.push_back({0x1000, 0x9000, 0, "/bin/bench", "", true, true, true, true});
    profile_.mappings.push_back(
        {0xa000, 0xb000, 0, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "", true, true, true, true});
  }

  // Adds a sample of `frames` ("name@line", leaf first) with `values`,
  // labelled with `benchmark`. Frames named "lib:..." are in libstdc++.
  Builder& Sample(std::vector<std::string> frames, std::vector<int64_t> values,
                  const std::string& benchmark = kBenchmark) {
    ProfileSample sample;
    for (std::string frame : frames) {
      size_t mapping = 0;
      if (frame.starts_with("lib:")) {
        frame.erase(0, 4);
        mapping = 1;
      }
      const size_t at = frame.find('@');
      const std::string name = frame.substr(0, at);
      const int64_t line = at == std::string::npos ? 0 : std::stoll(frame.substr(at + 1));
      size_t function = 0;
      while (function < profile_.functions.size() && profile_.functions[function].name != name) {
        ++function;
      }
      if (function == profile_.functions.size()) {
        profile_.functions.push_back({name, name, "/src/" + name.substr(0, 3) + ".cc", 1});
      }
      profile_.locations.push_back({0x1000 + profile_.locations.size(), mapping, {{function, line}}});
      sample.location_indexes.push_back(profile_.locations.size() - 1);
    }
    sample.values = std::move(values);
    sample.labels.push_back({"benchmark", benchmark, 0, ""});
    profile_.samples.push_back(std::move(sample));
    return *this;
  }

  ProfileData Build() const { return profile_; }

 private:
  ProfileData profile_;
};

std::vector<encode::ValueTypeName> HeapTypes() {
  return {{"alloc_objects", "count"},
          {"alloc_space", "bytes"},
          {"inuse_objects", "count"},
          {"inuse_space", "bytes"}};
}

std::vector<encode::ValueTypeName> CpuTypes() {
  return {{"samples", "count"}, {"cpu", "nanoseconds"}};
}

TEST(ExplanationTest, AllocationSiteIsTheProgramsLineNotTheAllocators) {
  const std::vector<std::string> existing = {"operator new", "std::__new_allocator<char>::allocate@151",
                                             "lib:std::string::_M_create",
                                             "benchprof::Parse@40", "BM_Labels@12"};
  const std::vector<std::string> planted = {"operator new", "std::__new_allocator<char>::allocate@151",
                                            "benchprof::MakeLabel@88", "BM_Labels@13"};
  const ProfileData base = Builder(HeapTypes()).Sample(existing, {20, 640, 0, 0}).Build();
  const ProfileData head = Builder(HeapTypes())
                               .Sample(existing, {20, 640, 0, 0})
                               .Sample(planted, {10, 320, 0, 0})
                               .Sample(planted, {99, 99, 0, 0}, "BM_Other")
                               .Build();
  const Explanation e =
      ExplainAllocations(base, head, kBenchmark, 10, 10, AllocationMetric::kObjects);
  EXPECT_TRUE(e.unexplained.empty()) << e.unexplained;
  EXPECT_DOUBLE_EQ(e.base_total, 2);
  EXPECT_DOUBLE_EQ(e.head_total, 3);
  ASSERT_EQ(e.causes.size(), 1u);
  EXPECT_EQ(e.causes[0].function, "benchprof::MakeLabel");
  EXPECT_EQ(e.causes[0].line, 88);
  EXPECT_EQ(e.causes[0].file, "/src/ben.cc");
  EXPECT_DOUBLE_EQ(e.causes[0].base, 0);
  EXPECT_DOUBLE_EQ(e.causes[0].head, 1);
  EXPECT_DOUBLE_EQ(e.causes[0].share, 1);
  const std::string text = RenderExplanationText(e);
  EXPECT_NE(text.find("benchprof::MakeLabel  /src/ben.cc:88"), std::string::npos) << text;
  EXPECT_EQ(text.find("allocate"), std::string::npos) << text;

  const Explanation bytes = ExplainAllocations(base, head, kBenchmark, 10, 10, AllocationMetric::kBytes);
  ASSERT_EQ(bytes.causes.size(), 1u);
  EXPECT_DOUBLE_EQ(bytes.causes[0].head, 32);
  EXPECT_EQ(bytes.metric, "B/op");
}

TEST(ExplanationTest, AllocationsPerIterationUseEachSidesIterations) {
  const std::vector<std::string> stack = {"operator new", "benchprof::Grow@5", "BM_Labels@1"};
  // The same 1 allocation per iteration on both sides: no growth.
  const ProfileData base = Builder(HeapTypes()).Sample(stack, {1, 8, 0, 0}).Build();
  const ProfileData head = Builder(HeapTypes()).Sample(stack, {3, 24, 0, 0}).Build();
  const Explanation e = ExplainAllocations(base, head, kBenchmark, 1, 3, AllocationMetric::kObjects);
  EXPECT_TRUE(e.causes.empty());
  EXPECT_NE(e.unexplained.find("no growth"), std::string::npos) << e.unexplained;
}

TEST(ExplanationTest, MachineryIsTheAllocatorAndTheRuntime) {
  EXPECT_TRUE(IsAllocationMachinery("operator new[]", "/bin/bench"));
  EXPECT_TRUE(IsAllocationMachinery("std::vector<int>::_M_realloc_insert", "/bin/bench"));
  EXPECT_TRUE(IsAllocationMachinery("__gnu_cxx::new_allocator<int>::allocate", "/bin/bench"));
  EXPECT_TRUE(IsAllocationMachinery("malloc", "/bin/bench"));
  EXPECT_TRUE(IsAllocationMachinery("strdup", "/bin/bench"));
  EXPECT_TRUE(IsAllocationMachinery("anything", "/lib/x86_64-linux-gnu/libc.so.6"));
  EXPECT_FALSE(IsAllocationMachinery("benchprof::stream::algOne", "/bin/bench"));
  EXPECT_FALSE(IsAllocationMachinery("mystd::thing", "/bin/bench"));
}

TEST(ExplanationTest, InstructionsByFunctionPerIteration) {
  CallgrindProfile base, head;
  base.iterations = 100;
  head.iterations = 200;
  base.functions = {{"Steady()", "/src/a.cc", 3, 1000, 1000}, {"Hot()", "/src/b.cc", 9, 500, 500}};
  head.functions = {{"Steady()", "/src/a.cc", 3, 2000, 2000}, {"Hot()", "/src/b.cc", 11, 3000, 3000},
                    {"New()", "/src/c.cc", 2, 200, 200}};
  base.total = 1500;
  head.total = 5200;
  const Explanation e = ExplainInstructions(base, head, kBenchmark);
  EXPECT_DOUBLE_EQ(e.base_total, 15);
  EXPECT_DOUBLE_EQ(e.head_total, 26);
  ASSERT_EQ(e.causes.size(), 2u);
  EXPECT_EQ(e.causes[0].function, "Hot()");
  EXPECT_EQ(e.causes[0].line, 11);  // the head's costliest line
  EXPECT_DOUBLE_EQ(e.causes[0].base, 5);
  EXPECT_DOUBLE_EQ(e.causes[0].head, 15);
  EXPECT_NEAR(e.causes[0].share, 10.0 / 11, 1e-12);
  EXPECT_EQ(e.causes[1].function, "New()");
  EXPECT_NEAR(e.causes[1].share, 1.0 / 11, 1e-12);
}

TEST(ExplanationTest, CpuCausesMustStandOutOfNoise) {
  // 1000 iterations a side; Hot's own samples double, Steady's move by 2%.
  Builder base(CpuTypes()), head(CpuTypes());
  base.Sample({"Hot@4", "BM_Labels@1"}, {1000, 4'000'000'000})
      .Sample({"Steady@7", "BM_Labels@1"}, {5000, 20'000'000'000});
  head.Sample({"Hot@4", "BM_Labels@1"}, {2000, 8'000'000'000})
      .Sample({"Steady@7", "BM_Labels@1"}, {5100, 20'400'000'000});
  const Explanation e = ExplainTime(base.Build(), head.Build(), kBenchmark, 1000, 1000);
  ASSERT_TRUE(e.unexplained.empty()) << e.unexplained;
  ASSERT_EQ(e.causes.size(), 1u);
  EXPECT_EQ(e.causes[0].function, "Hot");
  EXPECT_DOUBLE_EQ(e.causes[0].base, 4'000'000);
  EXPECT_DOUBLE_EQ(e.causes[0].head, 8'000'000);
  EXPECT_NEAR(e.causes[0].share, 4.0 / 4.4, 1e-9);
  EXPECT_NE(RenderExplanationText(e).find("elsewhere"), std::string::npos);
}

TEST(ExplanationTest, TooFewSamplesExplainNothing) {
  Builder base(CpuTypes()), head(CpuTypes());
  base.Sample({"Hot@4", "BM_Labels@1"}, {10, 40'000'000});
  head.Sample({"Hot@4", "BM_Labels@1"}, {13, 52'000'000});
  const Explanation e = ExplainTime(base.Build(), head.Build(), kBenchmark, 100, 100);
  EXPECT_TRUE(e.causes.empty());
  EXPECT_NE(e.unexplained.find("not enough samples to explain"), std::string::npos)
      << e.unexplained;
}

TEST(ExplanationTest, CpuDiffSizedByIterations) {
  // The head ran twice as many iterations at the same cost per iteration:
  // nothing grew.
  Builder base(CpuTypes()), head(CpuTypes());
  base.Sample({"Hot@4", "BM_Labels@1"}, {4000, 16'000'000'000});
  head.Sample({"Hot@4", "BM_Labels@1"}, {8000, 32'000'000'000});
  const Explanation e = ExplainTime(base.Build(), head.Build(), kBenchmark, 1000, 2000);
  EXPECT_TRUE(e.causes.empty());
  EXPECT_NE(e.unexplained.find("not enough samples"), std::string::npos) << e.unexplained;
}

TEST(ExplanationTest, HostileNamesStayOnOneLineAndInTheirCell) {
  CallgrindProfile base, head;
  base.iterations = head.iterations = 1;
  const std::string name = "f\n::warning::x|![i](http://e/i.png)";
  base.functions = {{name, "/src/a.cc", 1, 1, 1}};
  head.functions = {{name, "/src/a.cc", 1, 5, 5}};
  base.total = 1;
  head.total = 5;
  const Explanation e = ExplainInstructions(base, head, kBenchmark);
  const std::string text = RenderExplanationText(e);
  EXPECT_EQ(text.find("\n::"), std::string::npos) << text;
  const std::string md = RenderExplanationMarkdown(e);
  EXPECT_EQ(md.find("\n::"), std::string::npos) << md;
  // The name is code: "![i]" shows literally.
  const size_t image = md.find("![i]");
  ASSERT_NE(image, std::string::npos) << md;
  EXPECT_EQ(std::count(md.begin(), md.begin() + static_cast<long>(image), '`') % 2, 1) << md;
  // Header, separator and one row: 4 unescaped pipes each... the row's
  // cells keep their count.
  const size_t row = md.find("| +4 |");
  ASSERT_NE(row, std::string::npos) << md;
  const std::string line = md.substr(row, md.find('\n', row) - row);
  int pipes = 0;
  for (size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  EXPECT_EQ(pipes, 5) << line;
}

}  // namespace
}  // namespace benchprof::gate
