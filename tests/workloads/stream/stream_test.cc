#include "stream/stream.h"

#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace benchprof::stream {
namespace {

using Algorithm = void (*)(std::string_view, std::string_view, std::string_view, std::string&);

// The definition of the semantics, written as plainly as possible.
std::string Reference(std::string_view data, std::string_view find, std::string_view repl) {
  if (find.empty()) return std::string(data);
  std::string out;
  size_t i = 0;
  while (i < data.size()) {
    if (data.substr(i, find.size()) == find) {
      out.append(repl);
      i += find.size();
    } else {
      out.push_back(data[i]);
      ++i;
    }
  }
  return out;
}

struct NamedAlgorithm {
  const char* name;
  Algorithm run;
};

// Names the algorithm in failure messages instead of dumping its bytes.
void PrintTo(const NamedAlgorithm& algorithm, std::ostream* os) { *os << algorithm.name; }

class StreamTest : public ::testing::TestWithParam<NamedAlgorithm> {
 protected:
  std::string Run(std::string_view data, std::string_view find = "elvis",
                  std::string_view repl = "Elvis") {
    std::string out;
    GetParam().run(data, find, repl, out);
    return out;
  }
};

TEST_P(StreamTest, DataTableRows) {
  for (const StreamCase& c : DataTable()) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(Run(c.input), c.output);
  }
}

TEST_P(StreamTest, AssembledStream) {
  EXPECT_EQ(Run(AssembleInputStream()), AssembleOutputStream());
  EXPECT_EQ(Run(AssembleInputStream()),
            "abcElvisaElvisabcElviseElvisaElvisaabeeeElvise l v i saa bb e l "
            "v i saa elvi selviElviselvielviElviselvi1elviElvisElvis");
}

TEST_P(StreamTest, EdgeCases) {
  EXPECT_EQ(Run(""), "");
  EXPECT_EQ(Run("e"), "e");
  EXPECT_EQ(Run("elvi"), "elvi");
  EXPECT_EQ(Run("elviss"), "Elviss");
  EXPECT_EQ(Run("eelvielvis"), "eelviElvis");
  EXPECT_EQ(Run("elvis elvis"), "Elvis Elvis");
  EXPECT_EQ(Run("elvelvis"), "elvElvis");
  EXPECT_EQ(Run("Elvis"), "Elvis");
}

TEST_P(StreamTest, SelfOverlappingPattern) {
  EXPECT_EQ(Run("aaab", "aab", "X"), "aX");
  EXPECT_EQ(Run("aabaab", "aab", "X"), "XX");
  EXPECT_EQ(Run("aaa", "aa", "X"), "Xa");
  EXPECT_EQ(Run("abababab", "abab", "X"), "XX");
  EXPECT_EQ(Run("aabaabaa", "aabaa", "X"), "Xbaa");
  EXPECT_EQ(Run("aaba", "aab", "X"), "Xa");
  EXPECT_EQ(Run("aa", "aab", "X"), "aa");
}

TEST_P(StreamTest, EmptyFindCopiesInput) {
  EXPECT_EQ(Run("elvis", "", "X"), "elvis");
  EXPECT_EQ(Run("", "", "X"), "");
}

TEST_P(StreamTest, OneByteFind) {
  EXPECT_EQ(Run("banana", "a", "o"), "bonono");
  EXPECT_EQ(Run("a", "a", "XY"), "XY");
  EXPECT_EQ(Run("bcd", "a", "X"), "bcd");
}

TEST_P(StreamTest, ReplacementLengthDiffers) {
  EXPECT_EQ(Run("xelvisy", "elvis", "E"), "xEy");
  EXPECT_EQ(Run("xelvisy", "elvis", ""), "xy");
  EXPECT_EQ(Run("xelvisy", "elvis", "The King"), "xThe Kingy");
  EXPECT_EQ(Run("elviselvis", "elvis", "Presley!"), "Presley!Presley!");
}

TEST_P(StreamTest, AppendsToOutput) {
  std::string out = "prefix:";
  GetParam().run("aelvis", "elvis", "Elvis", out);
  EXPECT_EQ(out, "prefix:aElvis");
  GetParam().run("elvi", "elvis", "Elvis", out);
  EXPECT_EQ(out, "prefix:aElviselvi");
}

TEST_P(StreamTest, AppendsLongOutput) {
  // Longer than any internal chunking, with matches across chunk boundaries.
  std::string data;
  for (int i = 0; i < 200; ++i) data += "xelvisyy";
  std::string out = ">";
  GetParam().run(data, "elvis", "Elvis", out);
  EXPECT_EQ(out, ">" + Reference(data, "elvis", "Elvis"));
  std::string big_repl(1000, 'R');
  out.clear();
  GetParam().run(data, "elvis", big_repl, out);
  EXPECT_EQ(out, Reference(data, "elvis", big_repl));
}

TEST_P(StreamTest, MatchesReferenceOnRandomInputs) {
  const std::vector<std::string_view> patterns = {"aab", "aa", "abab", "aabaa", "elvis", "e"};
  const std::string_view alphabet = "abelvis";
  std::mt19937 rng(20240501);
  std::uniform_int_distribution<size_t> length(0, 40);
  std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
  int checked = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string data(length(rng), ' ');
    for (char& c : data) c = alphabet[letter(rng)];
    for (std::string_view find : patterns) {
      std::string out;
      GetParam().run(data, find, "XY", out);
      const std::string want = Reference(data, find, "XY");
      ASSERT_EQ(out, want) << "data=\"" << data << "\" find=\"" << find << "\"";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3000 * 6);
}

TEST_P(StreamTest, MatchesReferenceOnLongInputs) {
  // Long enough that partial matches and replacements straddle any internal
  // buffering, on an alphabet dense in pattern bytes.
  const std::vector<std::string_view> patterns = {"elvis", "aab", "aabaa"};
  const std::string_view alphabet = "aabbelvis";
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
  for (int iter = 0; iter < 20; ++iter) {
    std::string data(2000 + static_cast<size_t>(iter) * 37, ' ');
    for (char& c : data) c = alphabet[letter(rng)];
    for (std::string_view find : patterns) {
      for (std::string_view repl : {"", "Q", "a much longer replacement"}) {
        std::string out = "#";
        GetParam().run(data, find, repl, out);
        ASSERT_EQ(out, "#" + Reference(data, find, repl))
            << "iter=" << iter << " find=\"" << find << "\" repl=\"" << repl << "\"";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, StreamTest,
                         ::testing::Values(NamedAlgorithm{"algOne", &algOne},
                                           NamedAlgorithm{"algTwo", &algTwo}),
                         [](const ::testing::TestParamInfo<NamedAlgorithm>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(StreamDataTest, TableAndStreams) {
  ASSERT_EQ(DataTable().size(), 13u);
  EXPECT_EQ(DataTable()[0].input, "abc");
  EXPECT_EQ(DataTable()[9].input, " elvi s");
  EXPECT_EQ(DataTable()[12].output, "elviElvisElvis");
  EXPECT_EQ(AssembleInputStream().size(), 119u);
  EXPECT_EQ(AssembleOutputStream().size(), 119u);
  EXPECT_EQ(AssembleInputStream(),
            "abcelvisaElvisabcelviseelvisaelvisaabeeeelvise l v i saa bb e l "
            "v i saa elvi selvielviselvielvielviselvi1elvielviselvis");
}

TEST(StreamDataTest, ReferenceAgreesWithTable) {
  // Guards the test's own oracle against the published table.
  for (const StreamCase& c : DataTable()) {
    EXPECT_EQ(Reference(c.input, "elvis", "Elvis"), c.output) << c.input;
  }
}

}  // namespace
}  // namespace benchprof::stream
