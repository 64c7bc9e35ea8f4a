// The workload CLIs' shared command-line reader: both value spellings,
// switches, and each one-line error.
#include "cli/workload_flags.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace benchprof::workload {
namespace {

// Reads every flag of `args` as "name=value" strings; the error, if any, last.
std::vector<std::string> ReadAll(std::vector<const char*> args) {
  WorkloadFlagReader reader(args, {"help", "quiet"}, {"count", "name"});
  std::vector<std::string> read;
  WorkloadFlag flag;
  std::string error;
  while (reader.Next(&flag, &error)) {
    read.push_back(flag.display + "=" + std::string(flag.value));
  }
  if (!error.empty()) read.push_back("error: " + error);
  return read;
}

TEST(WorkloadFlagsTest, ReadsBothValueSpellingsAndSwitches) {
  EXPECT_EQ(ReadAll({"--count=3", "-name", "x y", "--quiet", "--help=false"}),
            (std::vector<std::string>{"--count=3", "--name=x y", "--quiet=true", "--help=false"}));
  EXPECT_EQ(ReadAll({"--name="}), (std::vector<std::string>{"--name="}));
}

TEST(WorkloadFlagsTest, NamesTheBadArgument) {
  EXPECT_EQ(ReadAll({"--count=1", "stray"}),
            (std::vector<std::string>{"--count=1",
                                      "error: unexpected argument 'stray' (flags start with --)"}));
  EXPECT_EQ(ReadAll({"--"}),
            (std::vector<std::string>{"error: unexpected argument '--' (flags start with --)"}));
  EXPECT_EQ(ReadAll({"--colour=red"}),
            (std::vector<std::string>{"error: unknown flag --colour (see --help)"}));
  EXPECT_EQ(ReadAll({"--count"}), (std::vector<std::string>{"error: --count needs a value"}));
  EXPECT_EQ(ReadAll({"--quiet=maybe"}),
            (std::vector<std::string>{"error: --quiet: want true or false, got 'maybe'"}));
}

TEST(WorkloadFlagsTest, ParsesWholeNumbersInRange) {
  WorkloadFlag flag{"count", "0x10", "--count"};
  std::string error;
  EXPECT_EQ(ParseWholeNumber(flag, 1, 100, &error), std::optional<int64_t>(16));
  for (const char* bad : {"0", "101", "12x", "", "-3", "1.5"}) {
    flag.value = bad;
    error.clear();
    EXPECT_EQ(ParseWholeNumber(flag, 1, 100, &error), std::nullopt) << bad;
    EXPECT_EQ(error, "--count: want a whole number from 1 to 100, got '" + std::string(bad) + "'");
  }
  flag.value = "18446744073709551615";
  EXPECT_EQ(ParseUnsigned(flag, &error), std::optional<uint64_t>(18446744073709551615u));
  flag.value = "-1";
  EXPECT_EQ(ParseUnsigned(flag, &error), std::nullopt);
  EXPECT_EQ(error, "--count: want a whole number, got '-1'");
}

}  // namespace
}  // namespace benchprof::workload
