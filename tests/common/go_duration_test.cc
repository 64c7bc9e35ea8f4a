// Go's duration syntax for --timeout (common/go_duration.h), against values
// time.ParseDuration gives.
#include "common/go_duration.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

namespace benchprof {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

TEST(GoDurationTest, ParsesGoSpellings) {
  EXPECT_EQ(ParseGoDuration("0"), 0);
  EXPECT_EQ(ParseGoDuration("90s"), 90 * kSecond);
  EXPECT_EQ(ParseGoDuration("10m"), 600 * kSecond);
  EXPECT_EQ(ParseGoDuration("1h30m"), 5400 * kSecond);
  EXPECT_EQ(ParseGoDuration("1.5h"), 5400 * kSecond);
  EXPECT_EQ(ParseGoDuration("+2s"), 2 * kSecond);
  EXPECT_EQ(ParseGoDuration("300ms"), 300'000'000);
  EXPECT_EQ(ParseGoDuration("1us"), 1'000);
  EXPECT_EQ(ParseGoDuration("1\u00b5s"), 1'000);
  EXPECT_EQ(ParseGoDuration("7ns"), 7);
  EXPECT_EQ(ParseGoDuration(".5s"), kSecond / 2);
  EXPECT_EQ(ParseGoDuration("1m0.5s"), 60 * kSecond + kSecond / 2);
}

TEST(GoDurationTest, RefusesWhatGoRefusesAndNegatives) {
  for (const char* bad :
       {"", "s", "10", "1.5", "abc", "10x", "1h30", ".s", "-1s", "1s-2s", "1 s", "3000000h"}) {
    EXPECT_EQ(ParseGoDuration(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace benchprof
