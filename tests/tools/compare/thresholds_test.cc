// Parsing --threshold specs and resolving them per benchmark and metric.
#include "tools/compare/thresholds.h"

#include <gtest/gtest.h>

namespace benchprof::compare {
namespace {

TEST(ThresholdPolicyTest, Defaults) {
  const ThresholdPolicy p = ThresholdPolicy::Defaults();
  std::optional<Threshold> t = p.Find("BM_A", "cpu_time", /*is_time_metric=*/true);
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->relative);
  EXPECT_DOUBLE_EQ(t->value, 0.05);
  EXPECT_EQ(t->ToString(), "5%");
  EXPECT_FALSE(p.Find("BM_A", "real_time", false).has_value());  // the other time
  t = p.Find("BM_A", "allocs/op", false);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->relative);
  EXPECT_EQ(t->value, 0);
  EXPECT_EQ(t->ToString(), "0");
  EXPECT_TRUE(p.Find("BM_A", "B/op", false).has_value());
  EXPECT_FALSE(p.Find("BM_A", "bytes_per_second", false).has_value());
  EXPECT_FALSE(ThresholdPolicy().Find("BM_A", "cpu_time", true).has_value());
}

TEST(ThresholdPolicyTest, LaterSpecsWinForTheBenchmarksTheyMatch) {
  ThresholdPolicy p = ThresholdPolicy::Defaults();
  ASSERT_TRUE(p.Add("time:3%,bytes_per_second:10%").ok());
  ASSERT_TRUE(p.Add("BM_Noisy.*=time:20%").ok());
  ASSERT_TRUE(p.Add("BM_Flaky=time:off,allocs/op:off").ok());
  EXPECT_DOUBLE_EQ(p.Find("BM_Quiet", "cpu_time", true)->value, 0.03);
  EXPECT_DOUBLE_EQ(p.Find("BM_NoisyOne/8", "cpu_time", true)->value, 0.20);
  EXPECT_DOUBLE_EQ(p.Find("BM_NoisyOne/8", "real_time", true)->value, 0.20);
  EXPECT_FALSE(p.Find("BM_Flaky", "cpu_time", true).has_value());
  EXPECT_FALSE(p.Find("BM_Flaky", "allocs/op", false).has_value());
  EXPECT_TRUE(p.Find("BM_Flaky", "B/op", false).has_value());
  EXPECT_DOUBLE_EQ(p.Find("BM_X", "bytes_per_second", false)->value, 0.10);
  // An explicit metric name overrides "time" when it comes later.
  ASSERT_TRUE(p.Add("cpu_time:1%").ok());
  EXPECT_DOUBLE_EQ(p.Find("BM_NoisyOne", "cpu_time", true)->value, 0.01);
}

TEST(ThresholdPolicyTest, RegexMayContainEqualsAndColons) {
  ThresholdPolicy p;
  ASSERT_TRUE(p.Add("Encode/format=json=time:7%").ok());
  EXPECT_TRUE(p.Find("Encode/format=json-8", "ns/op", true).has_value());
  EXPECT_FALSE(p.Find("Encode/format=xml-8", "ns/op", true).has_value());
  ASSERT_TRUE(p.Add("x:4=B/op:16").ok());
  const std::optional<Threshold> t = p.Find("BM_A/x:4", "B/op", false);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->relative);
  EXPECT_EQ(t->value, 16);
}

TEST(ThresholdPolicyTest, BadSpecsAreRejectedWithoutChangingThePolicy) {
  for (const char* spec : {"", "time", "time:", ":5%", "time:5x", "time:-5%", "time:inf",
                           "time:nan", "=time:5%", "BM_[=time:5%", "time:5%,", "time:0x10"}) {
    ThresholdPolicy p = ThresholdPolicy::Defaults();
    const Status s = p.Add(spec);
    EXPECT_FALSE(s.ok()) << spec;
    EXPECT_FALSE(s.message().empty()) << spec;
    EXPECT_DOUBLE_EQ(p.Find("BM_[", "cpu_time", true)->value, 0.05) << spec;
  }
}

}  // namespace
}  // namespace benchprof::compare
