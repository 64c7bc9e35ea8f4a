// The command-line convention (<benchprof/flags.h>) and the number parser
// under it: both value spellings, switches, operands and `--`, help, and
// each one-line error.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "benchprof/flags.h"
#include "common/number_parser.h"

namespace benchprof {
namespace {

struct Settings {
  bool quiet = false;
  std::string name = "default";
  std::string out;
  int64_t count = 7;
  int workers = 0;
  uint64_t seed = 0;
  double alpha = 0.05;
  std::string format = "text";
  std::vector<std::string> thresholds;
};

class FlagSetTest : public ::testing::Test {
 protected:
  FlagSetTest() : flags_("tool sub") {
    flags_.Bool("quiet", &settings_.quiet, "say less");
    flags_.String("name", "TEXT", &settings_.name, "a name");
    flags_.File("out", &settings_.out, "write here");
    flags_.Int("count", "N", int64_t{1}, int64_t{100}, &settings_.count, "how many");
    flags_.Int("workers", "N", 1, 64, &settings_.workers, "threads",
               "expected workers from 1 to 64");
    flags_.Uint64("seed", "N", &settings_.seed, "generator seed");
    flags_.Number("alpha", "A", 0, 1, &settings_.alpha, "significance level");
    flags_.Choice("format", {"text", "markdown", "json"}, &settings_.format, "output format");
    flags_.Custom(
        "threshold", "SPEC",
        [this](std::string_view value) {
          if (value.find(':') == std::string_view::npos)
            return std::string("expected METRIC:VALUE");
          settings_.thresholds.emplace_back(value);
          return std::string();
        },
        "gate a metric (repeatable)");
  }

  // Parses `args`; the error, if any.
  std::string Parse(std::vector<std::string> args) {
    std::string error;
    const bool parsed = flags_.Parse(args, &cl_, &error);
    EXPECT_EQ(parsed, error.empty()) << error;
    return error;
  }

  Settings settings_;
  FlagSet flags_;
  CommandLine cl_;
};

TEST_F(FlagSetTest, BothValueSpellingsOneOrTwoDashesAndSwitches) {
  EXPECT_EQ(Parse({"--count=3", "-name", "x y", "--quiet", "-out=o.txt", "--workers", "4"}), "");
  EXPECT_EQ(settings_.count, 3);
  EXPECT_EQ(settings_.name, "x y");
  EXPECT_TRUE(settings_.quiet);
  EXPECT_EQ(settings_.out, "o.txt");
  EXPECT_EQ(settings_.workers, 4);
  EXPECT_EQ(Parse({"--quiet=off", "--name="}), "");
  EXPECT_FALSE(settings_.quiet);
  EXPECT_EQ(settings_.name, "");
}

TEST_F(FlagSetTest, ValuesFromTheNextArgumentAreTakenAsTheyAre) {
  EXPECT_EQ(Parse({"--out", "-o.txt", "--name", "--quiet"}), "");
  EXPECT_EQ(settings_.out, "-o.txt");
  EXPECT_EQ(settings_.name, "--quiet");
  EXPECT_FALSE(settings_.quiet);
}

TEST_F(FlagSetTest, OperandsAnywhereAndAfterTheSeparator) {
  EXPECT_EQ(Parse({"a.json", "--quiet", "-", "-5", "b.json", "--", "--count=9", "c.json"}), "");
  EXPECT_EQ(cl_.operands, (std::vector<std::string>{"a.json", "-", "-5", "b.json"}));
  EXPECT_TRUE(cl_.has_separator);
  EXPECT_EQ(cl_.after_separator, (std::vector<std::string>{"--count=9", "c.json"}));
  EXPECT_EQ(settings_.count, 7);  // after "--": an operand, not a flag
}

TEST_F(FlagSetTest, NumbersChoicesAndRepeatableFlags) {
  EXPECT_EQ(Parse({"--count=0x10", "--seed=0xFFFFFFFFFFFFFFFF", "--alpha=0.01", "--format=json",
                   "--threshold=time:3%", "--threshold", "B/op:0"}),
            "");
  EXPECT_EQ(settings_.count, 16);
  EXPECT_EQ(settings_.seed, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(settings_.alpha, 0.01);
  EXPECT_EQ(settings_.format, "json");
  EXPECT_EQ(settings_.thresholds, (std::vector<std::string>{"time:3%", "B/op:0"}));
}

TEST_F(FlagSetTest, HelpWinsOverMistakes) {
  for (const char* help : {"--help", "-h", "--h", "-help", "--help=full"}) {
    EXPECT_EQ(Parse({"--bogus", help, "--count=0"}), "") << help;
    EXPECT_TRUE(cl_.help) << help;
  }
  EXPECT_EQ(Parse({"--", "--help"}), "");
  EXPECT_FALSE(cl_.help);
}

TEST_F(FlagSetTest, EveryMistakeIsOneLineNamingTheArgument) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--colour=red"}, "unknown flag --colour=red (see tool sub --help)"},
      {{"-colour"}, "unknown flag --colour (see tool sub --help)"},
      {{"--count"}, "--count: needs a value, as --count=N"},
      {{"--out"}, "--out: needs a value, as --out=FILE"},
      {{"--out="}, "--out=: expected a file name"},
      {{"--quiet=maybe"}, "--quiet=maybe: expected true or false"},
      {{"--count=0"}, "--count=0: expected a whole number from 1 to 100"},
      {{"--count=12x"}, "--count=12x: expected a whole number from 1 to 100"},
      {{"--count=1.5"}, "--count=1.5: expected a whole number from 1 to 100"},
      {{"--workers=65"}, "--workers=65: expected workers from 1 to 64"},
      {{"--seed=-1"}, "--seed=-1: expected a whole number from 0 to 18446744073709551615"},
      {{"--alpha=1"}, "--alpha=1: expected a number between 0 and 1 (exclusive)"},
      {{"--alpha=nan"}, "--alpha=nan: expected a number between 0 and 1 (exclusive)"},
      {{"--format=xml"}, "--format=xml: expected text, markdown or json"},
      {{"--threshold=5%"}, "--threshold=5%: expected METRIC:VALUE"},
  };
  for (const auto& [args, message] : cases) EXPECT_EQ(Parse(args), message) << args[0];
}

TEST_F(FlagSetTest, AFailedFlagLeavesItsVariableUnchanged) {
  EXPECT_NE(Parse({"--count=500"}), "");
  EXPECT_EQ(settings_.count, 7);
  EXPECT_NE(Parse({"--format=xml"}), "");
  EXPECT_EQ(settings_.format, "text");
}

TEST_F(FlagSetTest, KnowsWhichFlagsTakeAValue) {
  EXPECT_TRUE(flags_.Has("quiet"));
  EXPECT_FALSE(flags_.TakesValue("quiet"));
  EXPECT_TRUE(flags_.TakesValue("out"));
  EXPECT_FALSE(flags_.Has("colour"));
  EXPECT_FALSE(flags_.TakesValue("colour"));
}

TEST_F(FlagSetTest, UsageListsEveryFlagWrappedTo79Columns) {
  const std::string usage = flags_.Usage();
  for (const char* spelled : {"--quiet ", "--name=TEXT", "--out=FILE", "--count=N",
                              "--format=text|markdown|json", "--threshold=SPEC"}) {
    EXPECT_NE(usage.find(spelled), std::string::npos) << spelled;
  }
  size_t start = 0;
  while (start < usage.size()) {
    const size_t end = usage.find('\n', start);
    EXPECT_LE(end - start, 79u) << usage.substr(start, end - start);
    start = end + 1;
  }
}

TEST(HelpFlagTest, HelpSpellings) {
  for (const char* help : {"--help", "-help", "--help=full", "-h", "--h"}) {
    EXPECT_TRUE(IsHelpFlag(help)) << help;
  }
  for (const char* other : {"--helpful", "help", "-hh", "---help"}) {
    EXPECT_FALSE(IsHelpFlag(other)) << other;
  }
}

TEST_F(FlagSetTest, FlagsOnlyRefusesOperands) {
  bool help = false;
  std::string error;
  EXPECT_TRUE(
      flags_.ParseFlagsOnly(std::vector<std::string>{"--quiet", "--count=2"}, &help, &error));
  EXPECT_FALSE(help);
  EXPECT_TRUE(flags_.ParseFlagsOnly(std::vector<std::string>{"stray", "--help"}, &help, &error));
  EXPECT_TRUE(help);
  EXPECT_FALSE(flags_.ParseFlagsOnly(std::vector<std::string>{"--quiet", "stray"}, &help, &error));
  EXPECT_EQ(error,
            "unexpected argument 'stray' (flags are spelled --name=value; see tool sub --help)");
  EXPECT_FALSE(flags_.ParseFlagsOnly(std::vector<std::string>{"--"}, &help, &error));
  EXPECT_EQ(error,
            "unexpected argument '--' (flags are spelled --name=value; see tool sub --help)");
}

TEST(ExitCodesTest, OneAlignedLinePerCode) {
  const ExitCodeInfo codes[] = {{0, "success"}, {3, "bad input"}};
  EXPECT_EQ(FormatExitCodes(codes), "Exit codes:\n  0  success\n  3  bad input\n");
}

TEST(NumberParserTest, WholeNumbersInGosSpellingsOrDecimalOnly) {
  EXPECT_EQ(ParseInteger("42"), 42);
  EXPECT_EQ(ParseInteger("-7"), -7);
  EXPECT_EQ(ParseInteger("+3"), 3);
  EXPECT_EQ(ParseInteger("0x1F"), 31);
  EXPECT_EQ(ParseInteger("-0x10"), -16);
  EXPECT_EQ(ParseInteger("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ParseInteger("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseInteger("0x10", IntegerSyntax::kDecimal), std::nullopt);
  for (const char* bad : {"", "+", "-", "1 ", " 1", "1.0", "1e3", "0x", "--1", "+-1", "12x"}) {
    EXPECT_EQ(ParseInteger(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(ParseUnsigned("18446744073709551615"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(ParseUnsigned("18446744073709551616"), std::nullopt);
  EXPECT_EQ(ParseUnsigned("-1"), std::nullopt);
  EXPECT_EQ(ParseUnsigned("+1"), std::nullopt);
}

TEST(NumberParserTest, DecimalNumbersAreFinite) {
  EXPECT_EQ(ParseNumber("0.5"), 0.5);
  EXPECT_EQ(ParseNumber("2e-3"), 2e-3);
  EXPECT_EQ(ParseNumber("-3"), -3.0);
  EXPECT_EQ(ParseNumber("+0.5"), 0.5);
  for (const char* bad :
       {"", "+", "+-1", "++1", "0.5s", "1,5", "abc", "inf", "nan", "1e999", "0x1p3", " 1"}) {
    EXPECT_EQ(ParseNumber(bad), std::nullopt) << bad;
  }
}

TEST(NumberParserTest, BooleansInEverySpelling) {
  for (const char* yes : {"true", "TRUE", "yes", "on", "1", "t", "Y"})
    EXPECT_EQ(ParseBool(yes), true);
  for (const char* no : {"false", "No", "off", "0", "f", "n"}) EXPECT_EQ(ParseBool(no), false);
  for (const char* bad : {"", "2", "banana", "truee"}) EXPECT_EQ(ParseBool(bad), std::nullopt);
}

}  // namespace
}  // namespace benchprof
